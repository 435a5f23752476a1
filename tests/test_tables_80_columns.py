"""Every terminal table of fbagent at 80 columns (issue 22): no line wider than the terminal, no word
broken inside a header or a cell, a legend for every abbreviated header and every column given up,
`--wide` showing every column, and the full table at 120 columns.

A word here is a run of letters, digits, ``_``, ``-`` and ``.`` (a frame name such as ``Resolve_problem``
and a file name such as ``gemma-3-270m-q4_k_m.gguf`` are one word each; a trailing ``.`` or ``-`` is not
part of it). The reference is the same command with ``--wide`` at
400 columns, where nothing wraps: every word printed at 80 columns must be one of its words (a word
broken inside, ``forma`` + ``t``, prints two words it does not have) or an abbreviation the legend
explains, and every word of the reference must be printed unless its column is named as not shown.
The store is real (SQLite), filled by the commands and the store API: the embedded sample lexicon,
a pair selection, a generation run, three annotators' judgments, an invite and a calibration.
"""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import make_db  # noqa: E402
from test_calibration import KeywordEncoder  # noqa: E402
from test_eval_report import SCORING, _with, folder, framebench_folder  # noqa: E402
from test_validation import scripted_answers  # noqa: E402

from fbagent.cli import app  # noqa: E402
from fbagent.commands.tables import Col, fit, wrap_text  # noqa: E402
from fbagent.lexicon.importer import embedded_path  # noqa: E402

runner = CliRunner()
LEGEND_WORDS = {"Not", "shown", "at", "this", "width", "wide", "--wide", "shows", "every", "column"}


def words(text: str) -> set[str]:
    return {w.rstrip(".-") for w in re.findall(r"[\w.\-]+", text)} - {""}


def cli(args: list[str], columns: int) -> str:
    res = runner.invoke(app, args, env={"COLUMNS": str(columns)})
    assert res.exit_code == 0, (args, res.output)
    return res.stdout


def legend(text: str) -> tuple[set[str], list[str]]:
    """The abbreviations a legend explains (``ex. = exemplars``) and the columns it says are not shown."""
    flat = " ".join(text.split())
    shorts = set(re.findall(r"(?:^|; |\s)(\S+) = ", flat))
    dropped = re.search(r"Not shown at this width: (.*?) \(--wide shows every column\)", flat)
    return shorts, (dropped.group(1).split(", ") if dropped else [])


def check_fits(args: list[str], width: int = 80, wide: bool = True) -> str:
    """Render ``args`` at ``width`` columns and check it against the unwrapped reference (see above)."""
    reference = cli([*args, "--wide"] if wide else args, 400)
    out = cli(args, width)
    assert max(cell_len(line) for line in out.splitlines()) <= width, out
    assert "…" not in out, out
    shorts, dropped = legend(out)
    allowed = words(reference) | LEGEND_WORDS | {w for s in shorts for w in words(s)}
    broken = words(out) - allowed
    assert not broken, f"words broken or cut at {width} columns: {sorted(broken)}\n{out}"
    missing = words(reference) - words(out)
    if dropped:  # what is missing belongs to the columns given up: --wide shows them, at any width
        assert words(reference) == words(cli([*args, "--wide"], width))
    else:
        assert not missing, f"words not shown at {width} columns: {sorted(missing)}\n{out}"
    return out


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A database filled as a user would: a run with items and three annotators' judgments, the
    embedded sample lexicon imported by `lexicon add`, a selection by `pairs select`, an invite by
    `annotators invite` and a calibration by the verifier's calibrate (a keyword encoder)."""
    from factories import calibrate_options

    from fbagent.verifier.calibration import calibrate

    tmp = tmp_path_factory.mktemp("tables")
    path = tmp / "fbagent.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db.conn.close()
    db_args = ["--db", str(path)]
    cli(["lexicon", "add", str(embedded_path()), "--lang", "en", "--name", "sample-en", *db_args], 200)
    cli(["pairs", "select", "--lexicon", "sample-en", "--pairs", "5", "--seed", "0", *db_args], 200)
    cli(["annotators", "invite", "alice", *db_args], 200)
    result = asyncio.run(calibrate(path, calibrate_options(lexicons=["sample-en"], signal="encoder", min_exemplars=2,
                                                          n_boot=200), encoder=KeywordEncoder()))
    return path, result


@pytest.mark.parametrize("args", [
    ["lexicon", "list"], ["pairs", "list"], ["pairs", "show", "1"], ["pairs", "show", "2", "--status", "all"],
    ["runs", "list"], ["runs", "show", "run1"], ["annotators", "list"], ["verifier", "list"], ["validate", "report"],
])
def test_every_table_fits_80_columns_without_a_broken_word(store, args):
    path, _ = store
    check_fits([*args, "--db", str(path)])
    full = check_fits([*args, "--db", str(path)], width=120)
    assert "Not shown at this width" not in full  # 120 columns: every column


@pytest.mark.parametrize("args", [["lexicon", "show", "sample-en"]])
def test_tables_without_wide_fit_80_columns(store, args):
    path, _ = store
    check_fits([*args, "--db", str(path)], wide=False)


def test_the_tables_the_issue_names_read_whole_at_80_columns(store):
    """issue 22's examples: `validate report` headers were cut to `annot…`, `sco… veri… ver… flag…`;
    `lexicon list` broke `forma t`, `embed ded`, `relat ions`; `pairs list` `select ed`, `reserv e`."""
    path, _ = store
    report = cli(["validate", "report", "--db", str(path)], 80)
    lines = report.splitlines()
    head = next(ln for ln in lines if ln.startswith("scope"))
    # the row label "model scripted-test-model" stays on one line (issue 42: split as "model" over
    # "scripted-test-model", its second line read as a row of its own); "saved" is given up for it, and named
    assert head.split() == ["scope", "n", "V+K", "V+D", "F+K", "F+D", "prec.", "rec.", "agr.", "kappa"]
    assert "V+K = verified+kept;" in report and "kappa = Cohen's kappa" in report
    assert "Not shown at this width: judgments saved (--wide shows every column)." in " ".join(report.split())
    assert next(ln for ln in lines if ln.startswith("all entries")).split()[-2:] == ["40.0%", "-0.154"]
    assert next(ln for ln in lines if ln.startswith("model ")).split()[:3] == ["model", "scripted-test-model", "5"]
    # the Entries table's filter cell on one line (it wrapped over 4: ">= 2" / "correct" / "and >= 2" / ...)
    assert next(ln for ln in lines if ln.startswith("entries ")).endswith(">= 2 correct, >= 2 acceptable")
    assert any(ln.split()[:1] == ["annotator"] for ln in lines)  # the annotators table: a whole header
    lexicons = cli(["lexicon", "list", "--db", str(path)], 80)
    head = next(ln for ln in lexicons.splitlines() if ln.startswith("name"))
    assert head.split()[:3] == ["name", "lang", "fmt"] and "fmt = format;" in lexicons
    source = str(embedded_path())
    assert "".join(ln.split()[-1] for ln in lexicons.splitlines() if ln.rstrip().endswith("/")) in source
    row = next(ln for ln in lexicons.splitlines() if ln.startswith("sample-en"))
    assert row.split()[1:7] == ["en", "nltk", "34", "89", "75", "2"]  # numbers right-aligned, whole
    pairs = cli(["pairs", "list", "--db", str(path)], 80)
    head = next(ln for ln in pairs.splitlines() if ln.startswith("id"))
    assert head.split()[:6] == ["id", "lexicon", "seed", "sel.", "res.", "out"]  # abbreviated, not broken
    assert "sel. = selected; res. = reserve; out = screened out;" in " ".join(pairs.split())
    assert "created" in head.split()
    assert "options: P pairs asked" in " ".join(pairs.split())


def test_a_long_model_name_wraps_inside_its_cell_not_into_a_row_of_its_own(tmp_path):
    """issue 42: at 80 columns a model name wider than the first column went on a line of its own at the
    left edge, which read as a row; its next lines are now indented under the label, every word whole."""
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db.execute("UPDATE items SET generator_model = 'meta-llama/Meta-Llama-3.1-70B-Instruct'")
    db.conn.commit()
    db.conn.close()
    out = cli(["validate", "report", "--db", str(path)], 80)
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    for k, line in enumerate(lines):
        if line.startswith("model meta-llama/"):
            assert line.split()[2:4] == ["5", "1"] or line.split()[2] == "33.3%"  # the numbers on the label's line
            assert lines[k + 1].startswith("  Meta-Llama-3.1-70B-Instruct") and not lines[k + 1][2:].split()[1:]
    assert sum(line.startswith("model meta-llama/") for line in lines) == 2   # both verifier tables
    assert not any(line.startswith("Meta-Llama") for line in lines)


def test_wrapped_row_labels_hang_and_keep_their_words():
    from fbagent.commands.tables import label_lines

    assert label_lines("model meta-llama/Meta-Llama-3.1-70B", 20, "words") == ["model meta-llama/", "  Meta-Llama-3.1-70B"]
    assert label_lines("language en", 20, "words") == ["language en"]
    # a piece that could not stand indented whole: wrapped as before, nothing cut
    assert label_lines("model scripted-test-model", 19, "words") == ["model", "scripted-test-model"]
    cols = [Col("scope", wrap="words"), Col("n", "right")]
    assert fit(cols, [["model scripted-test-model", "5"]], 24).widths == [21, 1]   # room for the indent


def test_wide_shows_every_column_on_a_narrow_terminal(store):
    path, _ = store
    args = ["validate", "report", "--db", str(path)]
    narrow, wide = cli(args, 60), cli([*args, "--wide"], 60)
    # at 60 columns the verifier table cannot keep "scripted-test-model" whole even without its secondary
    # columns: its rows are stacked, one "header  value" line per column, every word whole
    assert "Verifier vs human filter" in narrow and "verified+kept     1" in narrow
    assert "model scripted-test-model" in narrow and max(len(ln) for ln in narrow.splitlines()) <= 60
    head = next(ln for ln in wide.splitlines() if ln.startswith("scope"))
    assert head.split()[2:4] == ["verified+kept", "verified+dropped"] and "V+K =" not in wide
    lexicons = cli(["lexicon", "list", "--db", str(path)], 50)
    # the licence is given up last (after import time and source), here too: a 50-column terminal
    assert "Not shown at this width: licence, imported, source (--wide shows every column)." in " ".join(lexicons.split())
    assert max(len(ln) for ln in lexicons.splitlines()) <= 50
    full = cli(["lexicon", "list", "--db", str(path), "--wide"], 50)
    assert str(embedded_path()) in full and "exemplars" in full  # one line per cell, every column


def test_calibration_result_tables_fit_80_columns(store, monkeypatch, capsys):
    from fbagent.commands.verifier import render

    _, result = store
    monkeypatch.setenv("COLUMNS", "80")
    render(result)
    out = capsys.readouterr().out
    assert max(cell_len(line) for line in out.splitlines()) <= 80, out
    assert "…" not in out
    shorts, _ = legend(out)
    assert {"sent.", "acc.", "P@0", "R@0", "ver.", "s"} <= shorts
    monkeypatch.setenv("COLUMNS", "400")
    render(result)
    assert not words(out) - words(capsys.readouterr().out) - LEGEND_WORDS - {w for s in shorts for w in words(s)}


def test_eval_report_tables_fit_80_columns(tmp_path):
    a = _with(framebench_folder(tmp_path / "a", "/models/gemma-3-270m-it-q4_k_m.gguf",
                                ["correct", "correct", "both", "neither"]), scoring=SCORING)
    b = _with(framebench_folder(tmp_path / "b", "Qwen/Qwen3-30B-A3B-Instruct-2507", ["correct", "opposite", "correct", None]),
              scoring=SCORING)
    sem = folder(tmp_path / "s", {"task": "sembench", "model": "model-a", "mode": "ex", "shots": 0, "seed": 0,
                                  "sessions": [{"wall_s": 1.0, "predictions": 2}]},
                 [{"key": "w1", "instance_id": "w1", "error": None,
                   "scores": {d: {"correct": d != "hard", "sim_own": 0.6, "sim_other": 0.5}
                              for d in ("easy", "mid", "hard", "rand")}},
                  {"key": "w2", "instance_id": "w2", "error": "empty definition", "scores": {}}])
    fid = folder(tmp_path / "f", {"task": "frame_id", "model": "meta-llama/Llama-3.1-8B-Instruct", "shots": 3,
                                  "seed": 0, "sessions": []},
                 [{"key": "p|a", "pair_id": "p", "outcome": "correct", "correct": True},
                  {"key": "p|b", "pair_id": "p", "outcome": "other_frame", "correct": False}])
    args = ["eval", "report", str(a), str(b), str(sem), str(fid)]
    out = cli(args, 80)
    assert max(cell_len(line) for line in out.splitlines()) <= 80 and "…" not in out
    head = next(ln for ln in out.splitlines() if ln.startswith("Model") and "Shots" in ln and "Easy" not in ln)
    assert head.split()[:3] == ["Model", "Shots", "Acc."]
    assert "Llama-3.1-8B-Instruct" in out  # the frame-id model: whole, on one line
    shorts, _ = legend(out)
    # the compact table at 400 columns holds every word printed at 80 (no --wide: that adds columns)
    assert not words(out) - words(cli(args, 400)) - LEGEND_WORDS - {w for s in shorts for w in words(s)}


@pytest.mark.realdata
def test_lexicon_list_and_show_of_real_framenet_fit_80_columns(en_db):
    db, _ = en_db
    path = next(r[2] for r in db.conn.execute("PRAGMA database_list") if r[1] == "main")
    check_fits(["lexicon", "list", "--db", path])
    check_fits(["lexicon", "show", "--db", path], wide=False)


# -- the width logic itself --------------------------------------------------------------------------
def test_wrap_text_breaks_at_spaces_then_slashes_and_never_inside_a_name():
    assert wrap_text("/work/shared/data/framenet-en-1.5", 18, "path") == ["/work/shared/data/", "framenet-en-1.5"]
    # a name wider than the column is cut only when the column cannot be wider (fit() never asks for that)
    assert wrap_text("Resolve_problem Tolerating", 16, "words") == ["Resolve_problem", "Tolerating"]
    assert wrap_text("models/gemma-3-270m-q4_k_m.gguf", 24, "words") == ["models/", "gemma-3-270m-q4_k_m.gguf"]
    assert wrap_text("-0.154 13,572", 6, "words") == ["-0.154", "13,572"]
    assert wrap_text("2026-12-02 01:24:17", 10, "words") == ["2026-12-02", "01:24:17"]
    assert wrap_text("両方の文", 4, "words") == ["両方", "の文"]  # wide characters: 2 cells each


def test_fit_abbreviates_before_wrapping_cells_and_drops_by_level():
    cols = [Col("model", wrap="path", min_width=8), Col("accuracy", "right", short="acc."),
            Col("first", "right", drop=2), Col("second", "right", drop=2), Col("problems per second", "right", drop=1)]
    rows = [["org/model-name-x", "50.0", "1", "2", "3.5"]]
    assert fit(cols, rows, 80).widths == [16, 8, 5, 6, 19]  # natural: it fits
    f = fit(cols, rows, 52)  # 5 + 8 + 5 + 6 + 8 = 43 (+ 8 between): headers wrap at spaces, cells stay whole
    assert f.widths == [16, 8, 5, 6, 9] and not f.abbreviated and not f.dropped
    f = fit(cols, rows, 47)  # 16 + 4 + 5 + 6 + 8 = 39 (+ 8): the abbreviation, still no cell wrapped
    assert f.widths == [16, 4, 5, 6, 8] and f.abbreviated == [("acc.", "accuracy")] and not f.dropped
    f = fit(cols, rows, 30)  # narrowest 12 ("model-name-x") + 4 + 5 + 6 + 8 > 30: level 2 goes, together
    assert f.dropped == ["first", "second"] and f.headers == ["model", "acc.", "problems per second"]
    assert f.widths == [14, 4, 8]  # 26 + 4 between: the 2 spare cells to the model column
    assert f.legend(30) == ["acc. = accuracy", "Not shown at this width:", "first, second (--wide shows",
                            "every column)."]
    assert fit(cols, rows, 30, wide=True).widths == [16, 8, 5, 6, 19]


@pytest.mark.parametrize("width", [80, 60])
def test_pairs_select_tables_fit_without_a_broken_word(store, width):
    path, _ = store
    import sqlite3

    args = ["pairs", "select", "--lexicon", "sample-en", "--pairs", "5", "--seed", "7", "--db"]
    copy = path.parent / str(width) / path.name   # a second select would reuse the first's selection
    copy.parent.mkdir(exist_ok=True)
    with sqlite3.connect(path) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    reference = cli([*args, str(copy)], 400)   # each database stores a new selection: only the seconds differ
    out = cli([*args, str(path)], width)
    assert max(cell_len(line) for line in out.splitlines()) <= width, out
    assert "…" not in out, out
    broken = {w for w in words(out) - words(reference) if not re.fullmatch(r"[\d.,]+", w)}  # not the seconds
    assert not broken, f"words broken at {width} columns: {sorted(broken)}\n{out}"
    missing = {w for w in words(reference) - words(out) if not re.fullmatch(r"[\d.,]+", w)}
    assert not missing, f"words not shown at {width} columns: {sorted(missing)}\n{out}"
    last = [ln for ln in out.splitlines() if ln.strip()][-1]
    assert re.search(r"(^|\s)fbagent pairs show \d+$", last.strip()), out  # the suggested command kept whole


# -- issue 35: the tables the newcomer's walkthrough broke, progress lines -------------------------------
REASONS = ["self_check: lexical similarity 0.14 below 0.5 (the base pair differs in more than the verb's "
           "frame); retried with feedback", "verify: sentence_a closer to the other frame Resolve_problem than to "
           "Tolerating (inflected form not found in sentence_a_prime)"]


def test_runs_show_lists_long_reasons_as_blocks_without_a_broken_word(tmp_path):
    """`runs show RUN` (the command generate suggests): frame names such as Resolve_problem and reasons with
    sentence_a, similarity 0.14 and "inflected form" stay whole at 80 columns, in few lines."""
    import json

    path = tmp_path / "r.db"
    db = make_db(path, n=3, statuses=("rejected", "rejected", "rejected"))
    for k, iid in enumerate(["run1:1:0", "run1:2:0", "run1:3:0"]):
        db["items"].update(iid, {"frame_a": "Tolerating", "frame_b": "Resolve_problem", "attempts": k + 1,
                                 "reasons": json.dumps(REASONS[k % 2:] + REASONS[:k % 2])})
    db.conn.commit()
    out = check_fits(["runs", "show", "run1", "--db", str(path)])
    for word in ("Resolve_problem", "Tolerating", "sentence_a", "similarity", "inflected", "sentence_a_prime"):
        assert word in words(out), word
    entries = out.split("Rejected and failed entries", 1)[1].splitlines()
    assert len(entries) <= 3 + 3 * 4  # title and key lines, then per entry its line and its reason in 3 lines


def test_piped_validate_report_keeps_a_model_file_name_whole(tmp_path):
    """`fbagent validate report | cat` (not a terminal: 80 columns) never splits gemma-3-270m-q4_k_m.gguf."""
    import subprocess

    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db.execute("UPDATE items SET generator_model = 'gemma-3-270m-q4_k_m.gguf'")
    db.conn.commit()
    env = {k: v for k, v in __import__("os").environ.items() if k != "COLUMNS"}
    res = subprocess.run([sys.executable, "-m", "fbagent.cli", "validate", "report", "--db", str(path)],
                         capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    assert "gemma-3-270m-q4_k_m.gguf" in res.stdout.split()
    assert max(cell_len(line) for line in res.stdout.splitlines()) <= 80
    assert "Not shown at this width: judgments saved (--wide shows every column)." in " ".join(res.stdout.split())


def _progress_line(view_factory, width: int, total: int = 48, done: int = 16) -> str:
    import io

    from rich.console import Console

    from fbagent.progress.events import Started

    buf = io.StringIO()
    view = view_factory(Console(file=buf, width=width, force_terminal=True, color_system=None))
    view(Started(total=total, done=done, label="entries"))
    view.close()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buf.getvalue()).replace("\r", "\n")
    return [ln for ln in text.splitlines() if ln.strip()][-1].rstrip()


def test_progress_lines_drop_a_column_before_cutting_one():
    """generate's line keeps its elapsed time whole (the bar and the ETA go first); eval's keeps its resume
    label whole (the time left, the bar and the elapsed time go first); the description ends in "…" last."""
    from fbagent.commands.generate_view import GenerateView
    from fbagent.commands.progress_view import CountBar, ProgressView

    wide = _progress_line(GenerateView, 120)
    assert wide.split()[-4:] == ["cache", "0", "0:00:00", "ETA"] or wide.endswith("ETA -:--")
    line = _progress_line(GenerateView, 60)
    assert line.endswith("cache 0 0:00:00") and "ETA" not in line and "━" not in line and cell_len(line) <= 60
    line = _progress_line(GenerateView, 40)
    assert line == "16/48 ok 0 flag 0 rej 0 fail 0 0:00:00"

    def count_bar(console):
        return ProgressView(console, bar=CountBar("eval framebench run of gemma-3-270m"))
    line = _progress_line(count_bar, 80)
    assert line == "eval framebench run of gemma-3-270m 16/48 (resumed: 16 of 48 already done)"
    assert _progress_line(count_bar, 40) == "eval framebench run of gemma-3-27… 16/48"


def test_rows_stack_when_nothing_else_fits():
    cols = [Col("scope", wrap="words"), *(Col(h, "right") for h in ("n", "precision", "recall", "kappa"))]
    rows = [["model gemma-3-270m-q4_k_m.gguf", "5", "33.3%", "50.0%", "-0.154"]]
    assert fit(cols, rows, 40).stacked and not fit(cols, rows, 80).stacked
    from io import StringIO

    from fbagent.commands.output import new_console
    from fbagent.commands.tables import print_table

    buf = StringIO()
    print_table(new_console(file=buf, width=30, color_system=None), cols, rows, title="Verifier vs human")
    assert buf.getvalue().splitlines() == ["Verifier vs human", "scope", "  model", "  gemma-3-270m-q4_k_m.gguf",
                                           "n          5", "precision  33.3%", "recall     50.0%", "kappa      -0.154"]


def test_lexicon_add_notes_wrap_at_spaces_never_inside_a_path():
    from fbagent.commands.output import fit_line

    note = ("note: /work/shared/data/framenet-fr-asfalda/frame: adapted for NLTK in a private copy (3,848 "
            "lexUnit without status); source unchanged")
    lines = fit_line(note, 60).splitlines()
    assert all(len(ln) <= 60 for ln in lines) and len(lines) == 3
    assert any("/work/shared/data/framenet-fr-asfalda/frame:" in ln.split() for ln in lines)
    wide = fit_line(note.replace("/work/", "/work/" + "very-long-folder-name/" * 3), 60).splitlines()
    path = next(w for w in note.replace("/work/", "/work/" + "very-long-folder-name/" * 3).split() if "/" in w)
    assert path in [ln.strip() for ln in wide]  # wider than the terminal: a line of its own, not split


def test_eval_runs_closing_table_explains_its_columns_at_80(tmp_path, monkeypatch, capsys):
    """`eval run`'s result table (metric, value) ends with a legend of Think tok., Budget hit, Parsed and Dropped,
    wrapped at 80 columns: "Parsed 0" on a run with 20 answers is explained, not read as a failure."""
    from fbagent.commands import eval as eval_cmd

    run = _with(framebench_folder(tmp_path / "a", "gemma-3-270m", ["correct", "both", "neither", "correct"]),
                scoring=SCORING)
    monkeypatch.setenv("COLUMNS", "80")
    eval_cmd._print_results([run])
    out = capsys.readouterr().out
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    text = " ".join(out.split())
    for term in ("Think tok. = mean thinking tokens per answer", "Budget hit = answers whose thinking used all of",
                 "Parsed = answers read from free text", "(0: every answer constrained", "Dropped = problems the human"):
        assert term in text, term


def test_a_caption_about_a_dropped_column_is_left_out():
    """New user (session 12): `lexicon list` at 80 columns with long lexicon names gave up the licence column and
    still printed "licence cut (…): the full terms with fbagent lexicon show ...", about a column not on screen.
    A caption tied to a column (``caption_of``) goes with it; the legend names the column given up."""
    from io import StringIO

    from rich.console import Console

    from fbagent.commands.tables import print_table

    cols = [Col("name", min_width=16), Col("frames", "right"), Col("licence", drop=1)]
    rows = [["framenet-lv-fullstack-and-more", "540", "CC BY-NC-SA\u2026"]]
    for width, caption_seen in ((40, False), (80, True)):
        out = StringIO()
        print_table(Console(file=out, width=width), cols, rows, caption="licence cut (\u2026): see lexicon show",
                    caption_of=2)
        text = out.getvalue()
        assert ("licence cut" in text) is caption_seen, text
        assert ("Not shown at this width: licence" in text) is not caption_seen, text
