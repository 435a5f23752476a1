"""`--help` that reads at 80 columns (and 60): fbagent's own layout of Typer's help screens.

Why not Typer's: Typer 0.29's Rich help lays every options panel out as one table of 6-7 columns
(required marker, long name, short name, negative long, negative short, type, help). At 80 columns
Rich shrinks the name column and cuts long names (``--verifier-genera…``), leaves about 17
characters for the help, keeps the hard line breaks of every docstring paragraph but the first,
and shows ``<bool>`` after plain flags (``--validated <bool>``, ``--help <bool>``).

What this module does instead, through public APIs only (click's ``Command.format_help`` /
``get_help_record`` / ``collect_usage_pieces``, Rich's ``Panel``, ``Table.grid`` and ``Text``):
the same panels (Typer's ``rich_help_panel=`` groups options; :data:`PANEL_ORDER`),
each option as its click help record (``-p, --pairs <int>``; a flag is its names alone), the help
beside the names when they fit a third of the width, else on the lines below them; paragraphs
reflowed (a paragraph starting with ``\\b`` keeps its line breaks, as in click) and wrapped at word
boundaries. Nothing is ever cut. Pinned by ``tests/test_help_80_columns.py``, which renders every
command and group at 80 and 60 columns.

:func:`install` gives the assembled app's groups and commands :class:`HelpGroup` and
:class:`HelpCommand` (``fbagent.cli`` calls it). Typer, click and Rich at module level
(``fbagent --help`` renders with Rich).
"""

from __future__ import annotations

import inspect
import io
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, cast

import click
import typer
from rich.console import Console, Group, RenderableType
from rich.errors import MarkupError
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Column, Table
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup
from typer.models import DefaultPlaceholder

from fbagent.limits import check_int_option

if TYPE_CHECKING:
    from typer._click import Command as ClickCommand
    from typer._click import Context as ClickContext
    from typer._click import HelpFormatter
    from typer._click import Parameter as ClickParameter

#: panels in this order (then any other in the order of its first option): the command's own first
PANEL_ORDER = ("Arguments", "Options", "Model", "Verifier", "Selection", "Prompts", "Scoring", "Run")
#: the widest help screen, in columns (a wider terminal gets this width: long lines read badly)
MAX_WIDTH = 100


class HelpCommand(TyperCommand):
    """A Typer command whose ``--help`` is :func:`render_help`'s, and whose integer options and arguments
    are checked against :mod:`fbagent.limits` before it runs (the same caps in every command)."""

    def format_help(self, ctx: ClickContext, formatter: HelpFormatter) -> None:
        formatter.write(render_help(self, ctx))

    def invoke(self, ctx: ClickContext) -> object:
        check_int_params(self, ctx)
        return super().invoke(ctx)


def check_int_params(command: ClickCommand, ctx: ClickContext) -> None:
    """Raise :class:`fbagent.errors.FbagentError` for an integer parameter of ``command`` whose parsed value
    in ``ctx`` is outside its range (:func:`fbagent.limits.check_int_option`; an argument by its upper-case
    name)."""
    for param in command.params:
        value = ctx.params.get(param.name)
        if isinstance(value, int) and not isinstance(value, bool):
            name = next((o for o in param.opts if o.startswith("--")), (param.name or "").upper())
            check_int_option(name, value, getattr(param, "min", None))


class HelpGroup(TyperGroup):
    """A Typer group whose ``--help`` is :func:`render_help`'s."""

    def format_help(self, ctx: ClickContext, formatter: HelpFormatter) -> None:
        formatter.write(render_help(self, ctx))

    def summary(self, name: str) -> str | None:
        """The one-line summary of command ``name`` when the group knows it without loading the command
        (:class:`fbagent.commands.lazy_group.LazyGroup`), else ``None``."""
        return None


def install(app: typer.Typer) -> None:
    """Give ``app``, its sub-apps and all their commands :class:`HelpGroup` / :class:`HelpCommand`.

    The same as passing ``cls=`` to every ``Typer()``, ``add_typer()`` and ``command()`` (the
    values those calls store); a ``cls`` someone chose is kept. Call it once the app is assembled.
    """
    def chosen(value: object) -> bool:  # Typer stores its own TyperCommand / TyperGroup when none is given
        return value not in (None, TyperCommand, TyperGroup) and not isinstance(value, DefaultPlaceholder)

    if not chosen(app.info.cls):
        app.info.cls = HelpGroup
    for info in app.registered_commands:
        if not chosen(info.cls):
            info.cls = HelpCommand
    for group in app.registered_groups:
        if not chosen(group.cls):
            group.cls = HelpGroup
        if group.typer_instance is not None:
            install(group.typer_instance)


def reflow(text: str) -> list[str]:
    """The paragraphs of a docstring or help string, each on one line.

    Dedents (``inspect.cleandoc``), drops what follows a ``\\f`` (click's convention), splits at
    blank lines and joins the lines of each paragraph with spaces; a paragraph whose first line is
    ``\\b`` keeps its line breaks (without the ``\\b``). Returns ``[]`` for an empty text.
    """
    text = inspect.cleandoc(text or "").partition("\f")[0].strip()
    out = []
    for para in text.split("\n\n"):
        if para.startswith("\b"):
            out.append(para.lstrip("\b").strip("\n"))
        elif para.strip():
            out.append(" ".join(line.strip() for line in para.splitlines()))
    return out


def render_help(command: ClickCommand, ctx: ClickContext, width: int | None = None) -> str:
    """The help screen of ``command`` as a string (ANSI styles when stdout is a terminal).

    ``width``: columns (default: ``$TERMINAL_WIDTH`` as Typer reads it, else the terminal's or
    ``$COLUMNS``, at most :data:`MAX_WIDTH`).
    """
    probe = Console()
    asked = os.environ.get("TERMINAL_WIDTH", "")
    width = width or (int(asked) if asked.isdigit() else min(probe.width, MAX_WIDTH))
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=probe.is_terminal,
                      color_system=cast("Literal['auto', 'standard', '256', 'truecolor', 'windows'] | None", probe.color_system), highlight=False, soft_wrap=False)
    # Typer 0.29 writes an argument as {path}: shown as click does, PATH ({a|b} choice sets stay)
    pieces = re.sub(r"\{([a-z_]+)\}", lambda m: m.group(1).upper(), " ".join(command.collect_usage_pieces(ctx)))
    console.print(Padding(Text.assemble(("Usage: ", "yellow"), (f"{ctx.command_path} {pieces}", "bold")), (1, 1, 0, 1)))
    paragraphs = reflow(command.help or "")
    if paragraphs:
        texts = [_markup(paragraphs[0], "bold")] + [_markup(p, "") for p in paragraphs[1:]]
        console.print(Padding(Group(*_spaced(texts)), (1, 1, 0, 1)))
    console.print()
    panels = _panels(command, ctx)
    names = [n for _, rows in panels for n, _ in rows]
    column = min(max(map(len, names), default=0), max((width - 4) // 3, 12))  # one names column for all panels
    for title, rows in panels:
        body = _option_rows(rows, column)
        console.print(Panel(Group(*body), title=title, title_align="left", border_style="dim"))
    if hasattr(command, "list_commands"):  # a group (Typer 0.29's TyperGroup is no click.Group)
        listed = _command_rows(cast(TyperGroup, command), ctx)
        if listed:
            console.print(Panel(_grid(listed, max(len(n) for n, _ in listed)), title="Commands", title_align="left",
                                border_style="dim"))
    if command.epilog:
        console.print(Padding(Group(*_spaced([_markup(p, "") for p in reflow(command.epilog)])), (0, 1)))
    return "\n".join(line.rstrip() for line in out.getvalue().split("\n"))


def _command_rows(group: TyperGroup, ctx: ClickContext) -> list[tuple[str, str]]:
    """``(name, summary)`` of each visible command of ``group``: the summary its :meth:`HelpGroup.summary`
    knows without loading the command (the lazy root group's table), else the command's short help or the
    first paragraph of its help."""
    rows = []
    for name in group.list_commands(ctx):
        known = group.summary(name) if isinstance(group, HelpGroup) else None
        if known is not None:
            rows.append((name, known))
            continue
        sub = group.get_command(ctx, name)
        if sub is not None and not sub.hidden:
            rows.append((name, sub.short_help or next(iter(reflow(sub.help or "")), "")))
    return rows


def _markup(text: str, style: str) -> Text:
    """Rich markup of a docstring or help text (Typer's rich mode reads it so: ``\\[`` is a bracket)."""
    try:
        return Text.from_markup(text, style=style)
    except MarkupError:
        return Text(text, style=style)


def _spaced(texts: list[Text]) -> list[Text]:
    """``texts`` with an empty line between each two."""
    out: list[Text] = []
    for t in texts:
        out += [Text(""), t] if out else [t]
    return out


def _panels(command: ClickCommand, ctx: ClickContext) -> list[tuple[str, list[tuple[str, Text]]]]:
    """``(panel title, [(names, help renderable)])`` in :data:`PANEL_ORDER`, then each other
    ``rich_help_panel`` in the order of its first parameter. Hidden parameters are left out."""
    panels: dict[str, list[tuple[str, Text]]] = {"Arguments": [], "Options": []}
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None or getattr(param, "hidden", False):
            continue
        names, full = record
        names = _readable_names(names, param)
        own = getattr(param, "help", None) or ""
        help_text = _markup(" ".join(reflow(own)), "")
        extra = full[len(own):].strip() if full.startswith(own) else ("" if own else full)
        if extra:
            help_text.append_text(Text((" " if own else "") + extra, style="dim"))
        if isinstance(param, TyperArgument) or isinstance(param, click.Argument):
            default = "Arguments"
        else:
            default = "Options"
        panels.setdefault(getattr(param, "rich_help_panel", None) or default, []).append((names, help_text))
    titles = sorted(panels, key=lambda t: PANEL_ORDER.index(t) if t in PANEL_ORDER else len(PANEL_ORDER))
    return [(title, panels[title]) for title in titles if panels[title]]


def _readable_names(names: str, param: ClickParameter) -> str:
    """Typer's names of ``param`` as the usage line spells them: an argument in capitals
    (``result_dirs... <list[Path]>`` -> ``RESULT_DIRS... <path>``) and a repeatable value as its item type
    (``--lexicon <list[str]>`` -> ``--lexicon <str>``; the help says it may be repeated)."""
    names = re.sub(r"<list\[(\w+)\]>", lambda m: f"<{m.group(1).lower()}>", names)
    if isinstance(param, (TyperArgument, click.Argument)) and param.name:
        names = re.sub(rf"^{re.escape(param.name)}\b", param.name.upper(), names)
    return names


def _option_rows(rows: list[tuple[str, Text]], column: int) -> list[RenderableType]:
    """One renderable per option: names and help side by side when the names fit in ``column``
    characters (a third of the panel), else the names on their own line and the help indented below."""
    out: list[RenderableType] = []
    for names, help_text in rows:
        if len(names) <= column:
            out.append(_grid([(names, help_text)], column))
        else:
            out.append(Text(names, style="bold cyan", no_wrap=True, overflow="ignore"))
            out.append(Padding(help_text, (0, 0, 0, column + 2)))
    return out


def _grid(rows: Sequence[tuple[str, Text | str]], column: int) -> Table:
    """A two-column grid: the names (``column`` wide, never wrapped) and the help (the rest, wrapped at words;
    a string is read as Rich markup)."""
    grid = Table.grid(Column(width=column, no_wrap=True, style="bold cyan"), Column(ratio=1), padding=(0, 2))
    for names, help_text in rows:
        grid.add_row(names, help_text)
    return grid
