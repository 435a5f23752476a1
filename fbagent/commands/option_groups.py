"""Option groups declared once and added to commands as decorators.

As sqlite-utils' ``insert_upsert_options`` does for click: a group is a table of Typer options
(name -> ``(Annotated[type, typer.Option(...)], default)``), a help panel, and ONE function that
turns the parsed values into what the command takes: a frozen options object (a
``ModelConfig``, ``SelectionOptions``, ``VerifierFlags``, ``ServeOptions``, eval's ``EvalRun``), never a dict. ``@group`` adds the group's options to the command's CLI signature (Typer reads
``__signature__``) and calls the command with ``into=<built value>`` instead of the separate
values. Stacked groups compose: the outer one sees the inner one's options as the command's.

Groups: :data:`fbagent.commands.model_options.backend_options` (eval's model), and
:mod:`fbagent.commands.generation_options` (generation model, verifier),
:mod:`fbagent.commands.selection_options` (frame-pair eligibility), the eval run options in
:mod:`fbagent.commands.eval`, ``annotate --serve``'s in :mod:`fbagent.commands.annotate_serve`. Only the standard library and typer at module level, so that
``fbagent --help`` stays fast.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, get_args

REQUIRED = ...  # a group option without a default


def option_group(into: str, panel: str, options: dict[str, tuple[Any, Any]],
                 build: Callable[[dict[str, Any], dict[str, Any]], Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A decorator that adds ``options`` to a Typer command, shown under the help panel ``panel``.

    ``options``: parameter name -> ``(Annotated[type, typer.Option(...)], default)`` (default
    :data:`REQUIRED` for a required option); the order is the order in ``--help``. An option
    that names its own ``rich_help_panel`` keeps it. ``build(values, others)`` gets the group's
    parsed values and the command's other arguments (read-only) and returns what the command
    receives as its keyword argument ``into`` (the command declares it with a default ``None``;
    it is left out of the CLI). Errors ``build`` raises (:class:`fbagent.errors.FbagentError`)
    surface at call time, as any command's.
    """
    for annotation, _ in options.values():
        for info in get_args(annotation)[1:]:
            if hasattr(info, "rich_help_panel") and info.rich_help_panel is None:
                info.rich_help_panel = panel

    def decorator(command: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(command)
        own = [p.replace(annotation=_evaluated(p.annotation, command)) for p in signature.parameters.values()
               if p.name != into]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=ann,
                                   default=inspect.Parameter.empty if default is REQUIRED else default)
                 for name, (ann, default) in options.items()]
        params = _ordered(own, added)

        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in options}
            return command(**kwargs, **{into: build(values, kwargs)})

        wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        return wrapper

    return decorator


def _ordered(own: list[inspect.Parameter], added: list[inspect.Parameter]) -> list[inspect.Parameter]:
    """Keyword-only parameters, required ones first (Python's rule), each kind in declaration order:
    the command's own, then the group's."""
    def kw(ps: list[inspect.Parameter]) -> list[inspect.Parameter]:
        return [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in ps]

    def required(p: inspect.Parameter) -> bool:
        return p.default is inspect.Parameter.empty

    return (kw([p for p in own if required(p)]) + kw([p for p in added if required(p)])
            + kw([p for p in own if not required(p)]) + kw([p for p in added if not required(p)]))


def _evaluated(annotation: Any, command: Callable[..., Any]) -> Any:
    """A string annotation (``from __future__ import annotations``) evaluated in the command's module.

    A name only imported under ``TYPE_CHECKING`` stays a string: it is the ``into`` parameter of an
    outer group (eval's ``backend: ModelConfig``), which that group takes out of the CLI signature.
    """
    if not isinstance(annotation, str):
        return annotation
    try:
        return eval(annotation, command.__globals__)  # noqa: S307
    except NameError:
        return annotation
