"""The root command group that imports a command's module only when that command runs (or shows its help).

``fbagent --help`` lists every command from a static table (name -> module, one-line summary) without
importing any ``fbagent.commands.*`` module; ``fbagent eval run ...`` imports :mod:`fbagent.commands.eval`
alone. This is click's "lazy group" pattern (``list_commands`` / ``get_command`` overridden), on Typer's
group class with fbagent's 80-column help (:class:`fbagent.commands.help_format.HelpGroup`).

A command module offers its command in one of two ways, as :mod:`fbagent.cli` used to add it: a
``register(app)`` function that adds one command to a Typer app, or a Typer sub-app ``app`` added as a
group under the command's name. The loaded command is built by Typer exactly as when the root app held
it (the same settings, :func:`fbagent.commands.help_format.install`'s classes), so every screen, error
line and exit code is the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, NamedTuple

import typer

from fbagent.commands.help_format import HelpGroup, install

if TYPE_CHECKING:
    from typer._click import Command as ClickCommand
    from typer._click import Context as ClickContext


class LazyCommand(NamedTuple):
    """One row of the root's command table: the module that defines the command and its summary (the first
    paragraph of its help, as the root's ``--help`` lists it)."""

    module: str
    summary: str


def load_command(name: str, module: str) -> ClickCommand:
    """The click command ``name`` (Typer's copy of click) of the module ``module``
    (``"fbagent.commands.eval"``), built by Typer as the root app would build it. Raises ``ImportError`` when the module cannot be imported and
    ``LookupError`` when it offers no command ``name``."""
    mod = importlib.import_module(module)
    holder = typer.Typer()   # Typer's defaults, as fbagent's root app keeps them (no markup, short tracebacks)
    holder.callback()(_no_callback)   # a group even when it holds one command
    if hasattr(mod, "register"):
        mod.register(holder)
    else:
        holder.add_typer(mod.app, name=name)
    install(holder)
    group = typer.main.get_group(holder)
    command = group.commands.get(name)
    if command is None:
        raise LookupError(f"{module} offers no command {name!r}")
    return command


def _no_callback() -> None:
    """The loader's throwaway group does nothing itself."""


class LazyCommands(MutableMapping[str, "ClickCommand"]):
    """The root group's ``commands``: names in the table's order; a command is loaded (and kept) the first
    time it is looked up (``mapping[name]``, ``.get``, ``.items()``, ``.values()``); iterating the names,
    ``in`` and ``len`` load nothing. A command added later (``add_command``) is kept as given."""

    def __init__(self, table: Mapping[str, LazyCommand]) -> None:
        self._table = dict(table)
        self._loaded: dict[str, ClickCommand] = {}

    def summary(self, name: str) -> str | None:
        """The table's summary of ``name``, ``None`` for a name not in the table."""
        row = self._table.get(name)
        return row.summary if row is not None else None

    def __getitem__(self, name: str) -> ClickCommand:
        if name not in self._loaded:
            if name not in self._table:
                raise KeyError(name)
            self._loaded[name] = load_command(name, self._table[name].module)
        return self._loaded[name]

    def __setitem__(self, name: str, command: ClickCommand) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._table.pop(name, None)
        self._loaded.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._table or name in self._loaded

    def __iter__(self) -> Iterator[str]:
        yield from self._table
        yield from (n for n in self._loaded if n not in self._table)

    def __len__(self) -> int:
        return len(self._table) + sum(1 for n in self._loaded if n not in self._table)


class Interrupted(Exception):  # noqa: N818 - what the user did, as KeyboardInterrupt names it
    """Ctrl-C in a command that does not report it itself: Typer 0.29 turns ``KeyboardInterrupt`` into a
    silent ``Exit(130)``, so :meth:`LazyGroup.invoke` raises this instead and ``fbagent.cli.main`` prints
    its one line."""


class LazyGroup(HelpGroup):
    """A root group whose commands come from :attr:`table` (set by :func:`lazy_group`), each module
    imported when its command is first looked up."""

    table: Mapping[str, LazyCommand] = {}

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        given = dict(self.commands)
        self.commands = LazyCommands(self.table)
        self.commands.update(given)

    def invoke(self, ctx: ClickContext) -> object:
        """Run the command; a ``KeyboardInterrupt`` it does not handle comes out as :class:`Interrupted`
        (a command that reports Ctrl-C itself, such as ``generate``, exits with its own line first)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as err:
            raise Interrupted() from err

    def list_commands(self, ctx: ClickContext) -> list[str]:
        """The command names in the table's order; nothing is imported."""
        return list(self.commands)

    def get_command(self, ctx: ClickContext, cmd_name: str) -> ClickCommand | None:
        """The command ``cmd_name``, its module imported now; ``None`` for an unknown name."""
        return self.commands.get(cmd_name)

    def summary(self, name: str) -> str | None:
        """The one-line summary of command ``name`` from the table (nothing imported); ``None`` when the
        name is not in the table (the help then asks the command itself)."""
        commands = self.commands
        return commands.summary(name) if isinstance(commands, LazyCommands) else None


def lazy_group(table: Mapping[str, LazyCommand]) -> type[LazyGroup]:
    """A :class:`LazyGroup` class over ``table`` (name -> :class:`LazyCommand`, in the order ``--help``
    lists them), to pass as ``typer.Typer(cls=...)``."""
    return type("FbagentGroup", (LazyGroup,), {"table": dict(table)})
