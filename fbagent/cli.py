"""The ``fbagent`` command line (Typer).

Commands live in ``fbagent.commands.*``. The root group is lazy
(:class:`fbagent.commands.lazy_group.LazyGroup`): ``fbagent --help`` lists the commands from
:data:`COMMANDS` without importing any command module, and a command's module is imported only when
that command (or its ``--help``) runs, so ``fbagent --help`` stays fast.
"""

from __future__ import annotations

import gc
import sqlite3
import sys
from typing import Annotated

import typer

from fbagent import __version__
from fbagent.commands.help_format import install as install_help
from fbagent.commands.lazy_group import Interrupted, LazyCommand, lazy_group
from fbagent.commands.output import secho
from fbagent.commands.supervised import is_supervised
from fbagent.crash import db_path_of, interrupted_child, supervise
from fbagent.errors import FbagentError
from fbagent.providers import redact
from fbagent.providers.breaker import BreakerLimits
from fbagent.providers.cancel import relay_swallowed_interrupts
from fbagent.store.sqlite_errors import sqlite_error
from fbagent.text import shown

#: every command of ``fbagent``, in the order ``fbagent --help`` lists them: name -> its module (which
#: offers ``register(app)`` for one command, or a Typer sub-app ``app`` for a group) and its summary (the
#: first paragraph of its help; ``tests/test_cli_lazy.py`` checks that the two agree)
COMMANDS: dict[str, LazyCommand] = {
    "generate": LazyCommand(
        "fbagent.commands.generate",
        "Generate FrameBench entries: select frame pairs, then per entry generate_base -> self_check (retry with "
        "feedback) -> extend -> verify (SemBench round trip). Resumable: run it again."),
    "annotate": LazyCommand(
        "fbagent.commands.annotate",
        "Annotate entries in a terminal app: 4 pair tasks per entry, every answer saved at once."),
    "export": LazyCommand(
        "fbagent.commands.export",
        'Export entries; revised text replaces generated text; "cannot be fixed" entries are left out.'),
    "audit": LazyCommand(
        "fbagent.commands.audit",
        "Can the items be solved without understanding them? Shortcut baselines over the evaluation problems "
        "(word overlap, length, verb form, encoder similarity, question-frame overlap), each with accuracy, a 95% "
        "bootstrap interval and chance; near-duplicates; distributions; a per-entry `shortcut` flag. Reads the "
        "database read-only."),
    "lexicon": LazyCommand(
        "fbagent.commands.lexicon",
        "Lexicons: import a FrameNet of any language (NLTK XML, JSONL or a published layout), list them, show counts."),
    "pairs": LazyCommand(
        "fbagent.commands.pairs",
        "Frame pairs: select (verb, frame A, frame B) pairs from a lexicon (fbagent's stratified protocol or the "
        "FrameBench authors'), list selections, show one."),
    "runs": LazyCommand(
        "fbagent.commands.runs",
        "Generation runs: list them, show one (options, counts by status, tokens, calls)."),
    "annotators": LazyCommand(
        "fbagent.commands.annotators",
        "Invite annotators to the browser app (annotate --serve): one-time links, list, revoke; "
        "status: who judged how much, agreement so far, what is left."),
    "validate": LazyCommand(
        "fbagent.commands.validate",
        "Human validation: agreement, filter and human accuracy."),
    "verifier": LazyCommand(
        "fbagent.commands.verifier",
        "The generation verifier measured on gold data: calibrate it on held-out FrameNet exemplars, list stored "
        "calibrations."),
    "eval": LazyCommand(
        "fbagent.commands.eval",
        "Score language models on FrameBench entries, frame identification and SemBench."),
    "db": LazyCommand(
        "fbagent.commands.db",
        "The database file: a consistent backup copy, the schema upgrade."),
    "models": LazyCommand(
        "fbagent.commands.models",
        "The offline model: prepare (convert the GGUF once for the wheel-only engine)."),
}

app = typer.Typer(
    name="fbagent",
    help="Build FrameBench-style benchmarks from FrameNet with LLM agents, "
    "validate them with native speakers, and score language models on them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=lazy_group(COMMANDS),
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"fbagent {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                                help="Print fbagent's version and exit.")] = False) -> None:
    """Build FrameBench-style benchmarks from FrameNet with LLM agents, validate them with native speakers,
    and score language models on them."""


install_help(app)  # --help that reads at 80 columns (fbagent.commands.help_format); the lazy group keeps its class


def usage_fix(err: Exception, where: str, argv: list[str]) -> str:
    """The fix of the click usage error ``err`` raised in command ``where`` for the arguments ``argv``:
    ``see `WHERE --help```; for an option of a command given before the command (``fbagent --db f.db
    generate``, an unknown option of ``fbagent`` itself), where it goes instead. (Typer 0.29 ships its
    own copy of click's classes, so they are recognised by name and attributes.)"""
    ctx = getattr(err, "ctx", None)
    if type(err).__name__ != "NoSuchOption" or ctx is None or ctx.parent is not None:
        return f"see `{where} --help`"
    command, path = ctx.command, ["fbagent"]
    for token in argv:   # the command named after the option, through the groups (the lazy root loads it)
        sub = command.get_command(ctx, token) if hasattr(command, "get_command") else None
        if sub is not None:
            command, path = sub, [*path, token]
    if len(path) == 1:
        return f"see `{where} --help`"
    named, option = " ".join(path), getattr(err, "option_name", None)
    if any(option in [*param.opts, *param.secondary_opts] for param in command.params):
        return f"{option} is an option of `{named}`: put it after the command (`{named} {option} ...`)"
    return f"see `{named} --help`"


def main() -> None:
    """Console-script entry point: run the app; every user error becomes one redacted line on stderr.

    :class:`FbagentError` -> ``error: <problem>. Fix: <fix>``, its exit code (2);
    usage errors (a bad option value, a missing option, an unknown command) ->
    ``error: <what click says>. Fix: see `fbagent CMD --help```, exit 2; Ctrl-C
    outside a command's own handling -> one line, exit 130.
    """
    # generate/eval/calibrate: in a child, native crashes become one line
    supervised = supervise(sys.argv[1:]) if is_supervised(sys.argv[1:]) else None
    if supervised is not None:
        sys.exit(supervised)

    relay_swallowed_interrupts()  # Ctrl-C during a native callback (llama.cpp loading) is not lost
    try:
        try:
            BreakerLimits.from_env()   # FBAGENT_BREAKER_CALLS / _SECONDS: a bad value before anything is stored
            code = app(standalone_mode=False, prog_name="fbagent")  # also in a supervised child
        except FbagentError as err:
            secho(f"error: {shown(redact(err.line()), one_line=True)}", fg="red", err=True)
            sys.exit(err.exit_code)
        except typer.TyperException as err:  # click's usage errors, as Typer ships them
            if type(err).__name__ == "NoArgsIsHelpError":
                getattr(err, "show")()  # `fbagent` or a group alone: the help text, as before  # noqa: B009
            else:
                ctx = getattr(err, "ctx", None)
                where = ctx.command_path if ctx is not None else "fbagent"
                message = redact(" ".join((err.format_message() or "").split())).rstrip(".")
                fix = usage_fix(err, where, sys.argv[1:])
                end = "" if message.endswith("?") else "."   # click's "Did you mean 'lexicon'?" keeps its mark
                secho(f"error: {shown(message, one_line=True)}{end} Fix: {redact(fix)}", fg="red", err=True)
            sys.exit(getattr(err, "exit_code", 2))
        except sqlite3.Error as err:  # full disk, I/O error, lock held too long...: one line, data intact

            failed = sqlite_error(err, db_path_of(sys.argv[1:]))   # the file, named
            secho(f"error: {shown(redact(failed.line()), one_line=True)}", fg="red", err=True)
            sys.exit(2)
        except (typer.Abort, KeyboardInterrupt, Interrupted) as err:
            # on a terminal, a line of its own: the terminal echoed ^C where the cursor was (after a question's
            # prompt: mid-line), and the line is wrapped at words from column 0 (click ended the line before Abort)
            fresh = "\n" if not isinstance(err, typer.Abort) and sys.stderr.isatty() else ""
            secho(f"{fresh}interrupted: stopped by Ctrl-C; a database write in progress is rolled back, what was "
                  "stored before is intact", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)

    finally:
        if not interrupted_child(sys.exc_info()[1]):   # on Ctrl-C a supervised child leaves it to its supervisor
            close_databases()   # SQLite checkpoints on close: the .db file alone holds every row, no -wal is left
        # The interpreter's last garbage collection walks every object the command created (torch,
        # transformers, llama.cpp's Python side): seconds on a loaded machine, between the last line
        # and the prompt (after Ctrl-C too). Frozen objects are left to the process's exit instead;
        # everything stored is committed already and open files are flushed as usual.
        gc.freeze()

def close_databases() -> None:
    """Close every database connection the command opened (:func:`fbagent.store.db.close_all`), on every
    exit path; nothing to do when the command opened none (the module was never imported)."""
    store_db = sys.modules.get("fbagent.store.db")
    if store_db is not None:
        store_db.close_all()


if __name__ == "__main__":
    main()
