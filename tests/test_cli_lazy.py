"""The lazy root group (fbagent.commands.lazy_group): `fbagent --help` lists every command from the static
table in fbagent.cli without importing a command module; a command loads its own module only."""

from __future__ import annotations

import subprocess
import sys

import typer

from fbagent.cli import COMMANDS, app
from fbagent.commands.help_format import reflow

PROBE = """
import sys
from typer.testing import CliRunner
from fbagent.cli import COMMANDS, app
result = CliRunner().invoke(app, %r)
assert result.exit_code == 0, result.output
print(",".join(sorted(row.module for row in COMMANDS.values() if row.module in sys.modules)))
"""


def _loaded_by(args: list[str]) -> str:
    return subprocess.run([sys.executable, "-c", PROBE % (args,)], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_root_help_imports_no_command_module() -> None:
    assert _loaded_by(["--help"]) == ""


def test_start_up_and_root_help_load_no_event_loop_nor_retry_library() -> None:
    """Session 16: `import fbagent.cli` loaded asyncio (with ssl, concurrent.futures, logging), tenacity and
    importlib.abc (importlib.resources, tempfile) for every command: fbagent.providers' __init__ imported its
    clients and retry modules, providers.cancel imported asyncio, lean_imports subclassed importlib.abc's
    classes; about a quarter of the start-up's CPU time (benchmarks/bench_startup.py --against)."""
    probe = ("import sys\nfrom typer.testing import CliRunner\nfrom fbagent.cli import app\n"
             "assert CliRunner().invoke(app, ['--help']).exit_code == 0\n"
             "print(','.join(m for m in ('asyncio', 'tenacity', 'importlib.abc', 'concurrent.futures', 'ssl')"
             " if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
    from fbagent import providers  # the deferred names still load on first use

    assert providers.describe_error.__module__ == "fbagent.providers.errors"
    assert providers.LoopClients.__module__ == "fbagent.providers.clients"
    assert "openai" in providers.EVAL_PROVIDERS


def test_a_command_loads_its_own_module_only() -> None:
    assert _loaded_by(["eval", "--help"]) == "fbagent.commands.eval"
    assert _loaded_by(["generate", "--help"]) == "fbagent.commands.generate"


def test_table_agrees_with_the_commands() -> None:
    """Each table row's module defines the command (loaded under its name), and its summary is the command's first help paragraph."""
    root = typer.main.get_command(app)
    assert list(root.commands) == list(COMMANDS)
    for name, row in COMMANDS.items():
        command = root.commands[name]
        assert command.name == name
        assert row.summary == (command.short_help or next(iter(reflow(command.help or "")), "")), name


def test_unknown_command_is_none() -> None:
    root = typer.main.get_command(app)
    ctx = root.make_context("fbagent", ["--version"], resilient_parsing=True)
    assert root.get_command(ctx, "nosuch") is None
    assert "nosuch" not in root.commands


def test_a_mistyped_command_keeps_clicks_question_mark_in_the_one_line() -> None:
    done = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicn", "add", "x"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: No such command 'lexicn'. Did you mean 'lexicon'? Fix: see `fbagent --help`")


def test_ctrl_c_in_a_command_without_its_own_handling_prints_one_line(tmp_path) -> None:
    """New user (session 12): Ctrl-C in `lexicon add` exited 130 without a word (Typer 0.29 turns
    KeyboardInterrupt into a silent Exit(130)). The root group turns it into one line; the database is as before."""
    import sqlite3

    db = tmp_path / "fb.db"
    sample = "fbagent/data/sample_en"
    ok = subprocess.run([sys.executable, "-m", "fbagent.cli", "lexicon", "add", sample, "--lang", "en", "--name", "a",
                         "--db", str(db)], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr

    def dump() -> list[str]:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            return list(conn.iterdump())
        finally:
            conn.close()

    before = dump()
    code = ("import sys, fbagent.store.lexicon as store\n"
            "def interrupted(*args, **kwargs):\n    raise KeyboardInterrupt\n"
            "store.store_lexicon = interrupted\n"
            "import fbagent.cli\n"
            f"sys.argv = ['fbagent', 'lexicon', 'add', {sample!r}, '--lang', 'en', '--name', 'b', '--db', {str(db)!r}]\n"
            "fbagent.cli.main()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert res.returncode == 130, res.stderr
    assert res.stderr == ("interrupted: stopped by Ctrl-C; a database write in progress is rolled back, what was "
                          "stored before is intact\n"), res.stderr
    assert dump() == before
