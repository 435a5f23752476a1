"""Every `fbagent ... --help` reads at 80 and 60 columns (issue 22, Build item 3).

Walks the whole click command tree of :data:`fbagent.cli.app` and renders each group's and
command's ``--help`` through Typer's ``CliRunner`` with ``COLUMNS`` set, as a terminal of that
width would. For each screen it asserts: every option name the command declares (long, short
and negative spellings; hidden aliases excepted) appears whole; no ellipsis; no line wider than
the terminal; every word of the declared help texts and docstring appears unbroken; no
``<bool>`` after a flag; options that declare a ``rich_help_panel`` sit under that panel's title.
Pins the layout of :mod:`fbagent.commands.help_format`.
"""

from __future__ import annotations

import re

import click
import pytest
import typer
from rich.text import Text
from typer.testing import CliRunner

from fbagent.cli import app

WIDTHS = (80, 60)
BOX = "│╭╮╰╯─"


def _commands() -> list[tuple[tuple[str, ...], click.Command]]:
    """``(path, command)`` for the root group and every group and command below it."""
    root = typer.main.get_command(app)
    out: list[tuple[tuple[str, ...], click.Command]] = []

    def walk(path: tuple[str, ...], cmd: click.Command) -> None:
        out.append((path, cmd))
        for name, sub in (getattr(cmd, "commands", None) or {}).items():
            if not sub.hidden:
                walk((*path, name), sub)

    walk((), root)
    return out


COMMANDS = _commands()


def _plain(markup: str) -> str:
    """What Rich shows for a help text written in Rich markup (``\\[`` is a bracket)."""
    return Text.from_markup(markup).plain


def _words(cmd: click.Command) -> set[str]:
    """The words of the command's docstring, of its visible options' help texts and, for a group,
    of the first paragraph of each command's docstring (its summary in the Commands panel)."""
    texts = [cmd.help or ""]
    texts += [getattr(p, "help", None) or "" for p in cmd.params if not getattr(p, "hidden", False)]
    texts += [(sub.help or "").split("\n\n")[0] for sub in (getattr(cmd, "commands", None) or {}).values()
              if not sub.hidden]
    text = " ".join(_plain(t.partition("\f")[0]) for t in texts)
    return {w for w in text.split() if w}


def _render(path: tuple[str, ...], width: int) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(width), "TERMINAL_WIDTH": None})
    assert result.exit_code == 0, result.output
    return result.output


def test_the_tree_is_walked() -> None:
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"", "generate", "eval", "eval run", "verifier calibrate", "pairs select", "export"} <= names
    assert len(COMMANDS) > 25


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("path, cmd", COMMANDS, ids=[" ".join(p) or "fbagent" for p, _ in COMMANDS])
def test_help_reads_at_width(path: tuple[str, ...], cmd: click.Command, width: int) -> None:
    out = _render(path, width)
    lines = out.splitlines()
    too_long = [line for line in lines if len(line) > width]
    assert not too_long, f"lines over {width} columns: {too_long}"
    assert "…" not in out
    assert "<bool>" not in out
    assert "<list[" not in out   # a repeatable value reads as its item type
    for param in cmd.params:     # arguments in capitals, as the usage line spells them
        if param.param_type_name == "argument":
            assert re.search(rf"(?<![\w-]){param.name.upper()}\b", out), f"argument {param.name} not as in usage"
    usage = next(line for line in out.splitlines() if "Usage:" in line)
    assert not re.search(r"\{[a-z_]+\}", usage), usage  # arguments as PATH, not Typer's {path}
    tokens = set(out.translate({ord(c): " " for c in BOX}).split())
    for param in cmd.params:
        # Typer 0.29's parameters are its own copy of click's classes (no click.Option): by kind name
        if getattr(param, "hidden", False) or param.param_type_name != "option":
            continue
        for name in (*param.opts, *param.secondary_opts):
            assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", out), f"{name} missing or cut"
        if param.is_flag and not param.secondary_opts:
            assert not re.search(rf"{re.escape(param.opts[-1])} <", out), f"{param.opts[-1]} shown with a value"
    broken = sorted(w for w in _words(cmd) if w not in tokens)
    assert not broken, f"words broken or missing at {width} columns: {broken}"
    panels = {getattr(p, "rich_help_panel", None) for p in cmd.params if not getattr(p, "hidden", False)}
    for title in panels - {None}:
        assert f"╭─ {title} " in out, f"panel {title!r} missing"


def test_the_option_check_reads_typer_parameters() -> None:
    """The spelling check above selects options by ``param_type_name``: Typer's parameters are not
    click's classes, so an ``isinstance(param, click.Option)`` filter (as this test had) checks none."""
    generate = dict(COMMANDS)[("generate",)]
    names = {n for p in generate.params if p.param_type_name == "option" for n in (*p.opts, *p.secondary_opts)}
    assert {"--pairs", "-p", "--generator", "--screen", "--no-screen", "--db"} <= names
    assert not any(isinstance(p, click.Option) for p in generate.params)


def test_names_too_long_for_the_column_go_on_their_own_line() -> None:
    out = _render(("generate",), 80)
    line = next(line for line in out.splitlines() if "--verifier-generator" in line)
    assert line.strip("│ ").startswith("--verifier-generator <str>")
    flag = next(line for line in out.splitlines() if "--dry-run" in line)
    assert "--dry-run  " in flag and "<" not in flag.split("--dry-run")[1][:3]


def test_docstring_paragraphs_are_reflowed() -> None:
    out = _render(("generate",), 80)
    text = " ".join(out.translate({ord(c): " " for c in BOX}).split())
    # a docstring line break in the second paragraph (after "no") is no longer a line break
    assert "the same selection options that no run uses" in text
    first = [line for line in out.splitlines() if "selection options that no" in line]
    assert first and "run uses" in first[0]


def test_every_db_option_shows_the_same_default() -> None:
    """--db is declared one way (fbagent.commands.options): every command that takes it shows
    ``default: framebench.db`` (audit and db backup used to show none)."""
    with_db = [(p, c) for p, c in COMMANDS if any("--db" in getattr(o, "opts", ()) for o in c.params)]
    assert {("audit",), ("db", "backup"), ("generate",), ("export",)} <= {p for p, _ in with_db}
    for path, _ in with_db:
        shown = " ".join(_render(path, 200).replace("│", " ").split())
        assert "default: framebench.db" in shown, (path, shown)
