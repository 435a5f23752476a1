"""Issue 19's shared mechanisms: one atomic write that knows non-regular targets, one name check, one
terminal escape (checked by hand-computed values and through the real CLI)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.files import write_atomic
from fbagent.store import open_db
from fbagent.text import MAX_NAME_CHARS, check_name, pictured, safe_console, shown


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL, **kw)


# --------------------------------------------------------------------------- write_atomic


def test_a_regular_file_is_replaced_whole_and_no_temp_file_is_left(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_text("old\n")
    write_atomic(out, ["a\n", b"b\n"])
    assert out.read_bytes() == b"a\nb\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl"]
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


def test_a_symlink_keeps_pointing_at_the_replaced_file(tmp_path):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    write_atomic(link, ["new\n"])
    assert link.is_symlink() and target.read_text() == "new\n"


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_text("old\n")

    def chunks():
        yield "half"
        raise OSError(28, "No space left on device")

    with pytest.raises(FbagentError, match="no space left on the device"):
        write_atomic(out, chunks())
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.jsonl"]


def test_dev_full_stays_a_device_and_the_write_fails_in_one_line(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    before = os.stat("/dev/full")
    with pytest.raises(FbagentError, match="no space left"):
        write_atomic("/dev/full", ["x" * 100_000])
    after = os.stat("/dev/full")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_a_fifo_is_written_in_place_and_one_without_a_reader_is_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FbagentError, match="no process reads"):
        write_atomic(fifo, ["nobody listens\n"])
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader is there before the write
    try:
        write_atomic(fifo, ["through the pipe\n"])
        assert os.read(reader, 100) == b"through the pipe\n" and stat.S_ISFIFO(fifo.stat().st_mode)
    finally:
        os.close(reader)


def test_export_to_dev_stdout_and_dev_null_writes_in_place(tmp_path):
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    proc = _cli("export", "/dev/stdout", "--db", str(db))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(ln) for ln in proc.stdout.splitlines()]   # only entries: the command's lines go to stderr
    assert len(lines) == 2 and "wrote 2 entries" in proc.stderr
    proc = _cli("export", "/dev/null", "--db", str(db))
    assert proc.returncode == 0 and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_validate_report_out_under_a_file_names_that_file_and_writes_nothing(tmp_path):
    # before: "error: cannot write .../afile/r.md (Not a directory). Fix: pass an output file in a folder you can
    # write to"
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    (tmp_path / "afile").write_text("a file\n")
    before = sorted(p.name for p in tmp_path.iterdir()), db.read_bytes()
    for out in ("afile/r.md", "afile/sub/r.md"):
        proc = _cli("validate", "report", "--db", str(db), "--out", out, cwd=tmp_path, env={**os.environ, "COLUMNS": "300"})
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.strip() == (f"error: cannot write {out}: afile is an existing file, not a folder. Fix: pass"
                                       " an output file in a folder, e.g. r.md"), proc.stderr
    assert (sorted(p.name for p in tmp_path.iterdir()), db.read_bytes()) == before
    assert (tmp_path / "afile").read_text() == "a file\n"
    with pytest.raises(FbagentError, match=r"cannot write .*/afile/deep/x\.jsonl: .*/afile is an existing file"):
        write_atomic(tmp_path / "afile" / "deep" / "x.jsonl", ["x\n"])


# --------------------------------------------------------------------------- names and terminal text


# a zero-width non-joiner inside a Persian word shapes it and stays (issue 30 normalises names: one at the end
# of a word is invisible and is dropped, see test_bad_input.py::test_annotator_names_are_normalised)
@pytest.mark.parametrize("name", ["alice", "Ålesund-β", "注釈者1", "a" * MAX_NAME_CHARS, "می\u200cخواهم"])
def test_usable_names_pass_unchanged(name):
    assert check_name(name, "annotator name") == name


@pytest.mark.parametrize("name, says", [
    ("", "is empty"), ("   ", "is empty"), ("a" * (MAX_NAME_CHARS + 1), "201 characters long"),
    ("a\nb", "\\x0a"), ("eve\x1b[31m", "\\x1b"), ("bell\x07", "\\x07"), ("tab\there", "\\x09"),
    ("c1\x9b31m", "\\x9b"), ("rtl\u202eevil", "\\u202e"), ("line\u2028sep", "\\u2028"),
])
def test_unusable_names_are_refused_with_a_printable_message(name, says):
    with pytest.raises(FbagentError) as err:
        check_name(name, "run name")
    line = err.value.line()
    assert says in line and "run name" in line
    assert shown(line) == line  # the message itself carries no control character


def test_shown_makes_controls_visible_and_keeps_text():
    assert shown("plain text, ünïcode, 日本語") == "plain text, ünïcode, 日本語"
    assert shown("a\x1b[31mb\x07c") == "a\\x1b[31mb\\x07c"
    assert shown("two\nlines\tand tab") == "two\nlines\tand tab"
    assert shown("two\nlines", one_line=True) == "two\\nlines"
    assert shown("\x7f\x9b\u202e") == "\\x7f\\x9b\\u202e"


def test_pictured_keeps_offsets_for_highlighted_spans():
    text = "She \x1b[2Jleft\x07."
    out = pictured(text)
    assert len(out) == len(text) and out == "She \u241b[2Jleft\u2407."


def test_the_safe_console_escapes_cells_but_keeps_its_own_colours():
    import io

    from rich.table import Table

    buf = io.StringIO()
    console = safe_console(file=buf, force_terminal=True, color_system="standard", width=60)
    table = Table()
    table.add_column("run", style="red")
    table.add_row("evil\x1b]0;owned\x07name")
    console.print(table)
    out = buf.getvalue()
    assert "evil\\x1b]0;owned" in out   # the stored text, made visible (Rich drops BEL itself)
    assert "\x1b[31m" in out                 # the console's own colour codes stay
    assert "\x07" not in out and "\x1b]0;" not in out


def test_an_old_run_name_with_escapes_is_shown_escaped_by_runs_list(tmp_path):
    """A name stored before names were checked (written straight into SQLite) never reaches the terminal raw."""
    db_path = tmp_path / "fb.db"
    db = make_db(db_path, n=1)
    db.conn.execute("UPDATE runs SET name = ?", ("old\x1b[2Jname",))
    db.conn.commit()
    db.conn.close()
    proc = _cli("runs", "list", "--db", str(db_path), env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert "\x1b[2J" not in proc.stdout and "\\x1b[2Jname" in proc.stdout.replace("…", "")


def test_the_annotate_app_shows_control_characters_as_pictures():
    from fbagent.tui.layout import as_content

    content = as_content("S_A: she \x1b[31mleft")
    assert "\x1b" not in content.plain and "\u241b" in content.plain


def _in_a_terminal(args: list[str], columns: int, cwd: Path) -> tuple[int, str]:
    """Run ``fbagent ARGS`` with stdin/stdout/stderr on a real pseudo-terminal ``columns`` wide."""
    import pty
    import re

    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "fbagent.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, "COLUMNS": str(columns)}, close_fds=True, cwd=cwd)
    code = proc.wait(timeout=120)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return code, re.sub(r"\x1b\[[0-9;]*m", "", out.decode()).replace("\r\n", "\n")


def test_a_long_error_is_wrapped_at_spaces_on_a_terminal_and_one_line_in_a_pipe(tmp_path):
    args = ["export", "o.jsonl", "--db", "missing.db"]
    piped = subprocess.run([sys.executable, "-m", "fbagent.cli", *args], capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "60"}, cwd=tmp_path)
    assert piped.returncode == 2 and piped.stderr.count("\n") == 1 and len(piped.stderr) > 60
    code, shown_text = _in_a_terminal(args, 60, tmp_path)
    lines = [ln for ln in shown_text.splitlines() if ln.strip()]
    assert code == 2 and len(lines) >= 2 and all(len(ln) <= 60 for ln in lines), lines
    assert " ".join(lines).split() == piped.stderr.split()  # the same words, none cut in two


def test_a_wrapped_note_keeps_the_command_it_suggests_on_one_line(tmp_path):
    """At 80 columns the first-run note wraps, but `fbagent lexicon add PATH --lang LANG` stays whole on one
    line (a line break inside it would break a copy of the command)."""
    code, shown_text = _in_a_terminal(["pairs", "select", "--pairs", "1", "--db", "fresh.db"], 80, tmp_path)
    lines = shown_text.splitlines()
    assert code == 0, shown_text
    assert any("fbagent lexicon add PATH --lang LANG" in ln for ln in lines), lines
    assert all(len(ln) <= 80 for ln in lines), lines


def test_wrapping_never_breaks_inside_a_suggested_command():
    from fbagent.commands.output import fit_line

    line = ("error: nothing kept; judge more entries (fbagent annotate --db x.db), or run fbagent export out.jsonl "
            "--validated --min-correct 1 --min-acceptable 1.")
    lines = fit_line(line, 40).splitlines()
    assert any("fbagent annotate --db x.db" in ln for ln in lines)
    assert "fbagent export out.jsonl --validated --min-correct 1 --min-acceptable 1." in lines
    assert " ".join(lines) == line


def test_wrapping_keeps_an_option_with_its_value_and_indents_the_next_lines():
    """issue 42: the hint line wrapped at 80 columns; ``--min-correct 1`` never split over two lines."""
    from fbagent.commands.output import fit_line

    line = "hint: the filter keeps 0 of 5 judged entries: --min-correct 1 --min-acceptable 1 keeps 2"
    lines = fit_line(line, 30, indent="      ").splitlines()
    assert lines == ["hint: the filter keeps 0 of 5", "      judged entries:", "      --min-correct 1",
                     "      --min-acceptable 1 keeps", "      2"]
    assert fit_line(line, 200, indent="  ") == line   # fits: as it is


def _key_at_the_question(args: list[str], key: bytes, cwd: Path) -> tuple[int, str]:
    """Run ``fbagent ARGS`` on a real 80-column pseudo-terminal that is its controlling terminal (so Ctrl-C
    sends SIGINT, as in a shell); press ``key`` at the competence question; the exit code and what it showed."""
    import fcntl
    import pty
    import re
    import select
    import struct
    import termios
    import time

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def own_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-m", "fbagent.cli", *args], stdin=slave, stdout=slave, stderr=slave,
                            env={**os.environ, "COLUMNS": "80"}, close_fds=True, cwd=cwd, preexec_fn=own_terminal)
    os.close(slave)
    out, pressed, deadline = b"", False, time.monotonic() + 180
    try:
        while time.monotonic() < deadline:
            if select.select([master], [], [], 0.2)[0]:
                try:
                    chunk = os.read(master, 4096)
                except OSError:   # the child closed the terminal
                    break
                if not chunk:
                    break
                out += chunk
            if not pressed and out.rstrip().endswith(b"basic]\x1b[0m:"):
                time.sleep(0.3)   # Rich is now reading the answer
                os.write(master, key)
                pressed = True
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert pressed, out
    return code, re.sub(r"\x1b\[[0-9;]*m", "", out.decode()).replace("\r\n", "\n")


def test_ctrl_c_and_ctrl_d_at_the_competence_question_start_a_line_of_their_own(tmp_path):
    """New user (session 13): Ctrl-C at `annotate`'s question printed its line right after `...basic]: ^C`, so an
    80-column terminal broke it mid-word. Now it starts a line of its own, wrapped at spaces; Ctrl-D (the input
    ended) is one error naming --competence, exit 2; no competence is recorded either way."""
    db = tmp_path / "a.db"
    make_db(db, n=3)
    args = ["annotate", "--annotator", "zed", "--db", str(db)]
    code, text = _key_at_the_question(args, b"\x03", tmp_path)
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("interrupted:"))
    assert code == 130 and lines[at - 1].endswith("basic]: ^C"), text
    assert lines[at:] == ["interrupted: stopped by Ctrl-C; a database write in progress is rolled back,",
                          "what was stored before is intact"], text
    code, text = _key_at_the_question(args, b"\x04", tmp_path)
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("error:"))
    assert code == 2 and lines[at - 1].endswith("basic]: "), text
    assert " ".join(lines[at:]) == ("error: no answer to the question of zed's competence in en (the input ended). "
                                    "Fix: pass --competence en=LEVEL (native, near-native, fluent, basic)"), text
    assert all(len(ln) <= 80 for ln in lines[at:])
    assert open_db(db)["annotator_languages"].count == 0
