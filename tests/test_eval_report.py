"""`fbagent eval report`: cross-task tables (Markdown, CSV), plot, human reference sources."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fbagent.cli import app
from fbagent.errors import FbagentError
from fbagent.eval.report import (
    human_accuracy_from_report,
    load_result,
    render_csv,
    tables,
    write_report,
)

POS = {("base", "canonical"): 1, ("base", "swapped"): 2, ("extended", "canonical"): 2, ("extended", "swapped"): 1}


def folder(path: Path, manifest: dict, preds: list[dict]) -> Path:
    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (path / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds), encoding="utf-8")
    return path


def framebench_folder(path: Path, model: str, outcomes: list[str | None]) -> Path:
    cells = list(POS)
    preds = []
    for t in ("v1", "v2"):
        for i, out in enumerate(outcomes):
            kind, order = cells[i % 4]
            preds.append({"key": f"{t}|{i}", "template": t, "entry_id": f"e{i // 4}", "kind": kind, "order": order,
                          "correct_position": POS[(kind, order)], "outcome": out,
                          "correct": None if out is None else out == "correct", "latency_ms": 10.0})
    manifest = {"task": "framebench", "model": model, "seed": 0, "reasoning": {"enabled": False},
                "sessions": [{"wall_s": 2.0, "predictions": len(preds)}], "human_accuracy_dataset": 0.9}
    return folder(path, manifest, preds)


def test_tables_plot_and_cli(tmp_path):
    a = framebench_folder(tmp_path / "a", "model-a", ["correct", "correct", "both", "neither"])
    b = framebench_folder(tmp_path / "b", "model-b", ["correct", "opposite", "correct", None])
    sem = folder(tmp_path / "s", {"task": "sembench", "model": "model-a", "mode": "ex", "shots": 0, "seed": 0,
                                  "sessions": [{"wall_s": 1.0, "predictions": 2}]},
                 [{"key": "w1", "instance_id": "w1", "error": None,
                   "scores": {d: {"correct": d != "hard", "sim_own": 0.6, "sim_other": 0.5} for d in ("easy", "mid", "hard", "rand")}},
                  {"key": "w2", "instance_id": "w2", "error": "empty definition", "scores": {}}])
    fid = folder(tmp_path / "f", {"task": "frame_id", "model": "model-a", "shots": 3, "seed": 0, "sessions": []},
                 [{"key": "p|a", "pair_id": "p", "outcome": "correct", "correct": True},
                  {"key": "p|b", "pair_id": "p", "outcome": "other_frame", "correct": False}])
    results = [load_result(x) for x in (a, b, sem, fid)]
    tabs = tables(results, human=0.95)
    titles = [t[0] for t in tabs]
    assert titles[0].startswith("FrameBench") and titles[1].startswith("Frame identification") and titles[2].startswith("SemBench")
    fb_rows = tabs[0][2]
    assert fb_rows[0][:2] == ["model-a", "50.0 ± 0.0"]
    assert fb_rows[0][9:12] == ["25.0", "25.0", "0.0"]  # Both, Neither, Opposite
    # behaviour change (issue 9): the failure counts as wrong, 2 of 4 per template (was 2 of 3 = 66.7)
    assert fb_rows[1][1] == "50.0 ± 0.0" and fb_rows[1][12] == "2 (25.0%)"
    assert fb_rows[0][14] == "4.00"  # problems/s from the sessions
    assert fb_rows[2][:2] == ["Human", "95.0"]
    assert tabs[1][2][0][2] == "50.0"
    assert tabs[2][2][0][5].startswith("0.0")  # hard
    rows = list(csv.reader(io.StringIO(render_csv(tabs))))
    assert rows[0][0] == "table" and len(rows) == 1 + 3 + 1 + 1 + 1 + 1
    paths = write_report(results, tmp_path / "rep", human=0.95)
    assert paths["png"].stat().st_size > 5000
    assert "| model-b | 50.0 ± 0.0 |" in paths["markdown"].read_text()  # failures counted (issue 9)
    # CLI: human line from the dataset when no option is given; from a validation report otherwise
    runner = CliRunner()
    res = runner.invoke(app, ["eval", "report", str(a), str(b), "--out", str(tmp_path / "rep2")])
    assert res.exit_code == 0, res.output
    assert "| Human | 90.0 |" in (tmp_path / "rep2" / "report.md").read_text()
    vr = tmp_path / "validation.json"
    vr.write_text(json.dumps({"human_accuracy": {"entries": 10, "mean": 0.875, "base": 0.9, "extended": 0.85}}))
    res = runner.invoke(app, ["eval", "report", str(a), "--validation-report", str(vr), "--out", str(tmp_path / "rep3")])
    assert res.exit_code == 0, res.output
    assert "| Human | 87.5 |" in (tmp_path / "rep3" / "report.md").read_text()


def test_human_report_errors_and_missing_folder(tmp_path):
    bad = tmp_path / "v.json"
    bad.write_text(json.dumps({"entries": {}}))
    with pytest.raises(FbagentError, match="no human_accuracy"):
        human_accuracy_from_report(bad)
    with pytest.raises(FbagentError, match="has no manifest.json"):
        load_result(tmp_path)
    with pytest.raises(FbagentError, match="does not exist"):
        load_result(tmp_path / "nonexist")


FIX = "Fix: write one with `fbagent validate report --format json --out report.json` and pass that file"


@pytest.mark.parametrize("name, content, says", [
    ("report.txt", "Entries\n  in scope  judged\n", "is not JSON (Expecting value at line 1, column 1)"),
    ("empty.json", "", "is empty"),
    ("entries.jsonl", '{"id": 1}\n{"id": 2}\n', "is JSON Lines (one value per line), not the one JSON object of a report"),
    ("list.json", "[0.9]", "is a JSON value (an array), not the object of a report"),
    ("half.json", '{"human_accuracy": {"mean": 0.9}', "is not JSON (Expecting ',' delimiter at line 1, column 33)"),
    ("deep.json", "[" * 5000, "is JSON nested deeper than 100 levels"),
])
def test_a_validation_report_that_is_not_one_says_why_before_the_bootstrap(tmp_path, name, content, says):
    # before: "error: cannot read validation report FILE. Fix: pass the JSON of `fbagent validate report --format
    # json`" (which file was named, but not why), and only after every result folder had been bootstrapped
    a = framebench_folder(tmp_path / "a", "model-a", ["correct", "correct", "both", "neither"])
    vr = tmp_path / name
    vr.write_text(content, encoding="utf-8")
    res = CliRunner().invoke(app, ["eval", "report", str(a), "--validation-report", str(vr)], env={"COLUMNS": "300"})
    assert res.exit_code == 1 and isinstance(res.exception, FbagentError)   # main() prints it as one line, exit 2
    assert res.exception.line() == f"validation report {vr} {says}. {FIX}"
    assert res.output == ""   # refused before the tables


def test_a_validation_report_without_human_accuracy_yet_or_without_its_keys(tmp_path):
    real = tmp_path / "real.json"   # written by `validate report --format json` before any judgment: no mean yet
    real.write_text(json.dumps({"human_accuracy": {"entries": 0, "mean": None}, "human_scores": [
        {"score": "independent (baseline)", "accuracy": None, "entries": 0, "annotators": 0}]}))
    with pytest.raises(FbagentError) as err:
        human_accuracy_from_report(real)
    assert err.value.line() == (f"validation report {real} has no human accuracy yet (no entry's judgments kept it). "
                                "Fix: annotate entries first (fbagent annotate), then write the report again; or pass "
                                "--human-accuracy VALUE")
    manifest = tmp_path / "manifest.json"   # another JSON file of fbagent's
    manifest.write_text(json.dumps({"task": "framebench", "model": "m"}))
    with pytest.raises(FbagentError) as err:
        human_accuracy_from_report(manifest)
    assert err.value.line() == f"{manifest} is JSON but not a validation report (no human_accuracy or human_scores key). {FIX}"
    (tmp_path / "afile").write_text("x")
    with pytest.raises(FbagentError) as err:
        human_accuracy_from_report(tmp_path / "afile" / "v.json")
    assert err.value.line() == (f"validation report {tmp_path}/afile/v.json does not exist ({tmp_path}/afile is a file, "
                                f"not a folder). {FIX}")


def test_report_cli_missing_folder_and_default_out_layout(tmp_path):
    """`eval report results/*` after runs without --out: results/<task>/<backend>-<model>/manifest.json."""
    results = tmp_path / "results"
    framebench_folder(results / "framebench" / "llamacpp-a", "model-a", ["correct", "correct", "both", "neither"])
    framebench_folder(results / "framebench" / "vllm-b", "model-b", ["correct", "opposite", "correct", None])
    runner = CliRunner()
    res = runner.invoke(app, ["eval", "report", str(tmp_path / "nonexist")])
    assert isinstance(res.exception, FbagentError), res.output
    assert "does not exist" in str(res.exception) and "manifest" not in str(res.exception)
    (tmp_path / "empty").mkdir()
    res = runner.invoke(app, ["eval", "report", str(tmp_path / "empty")])
    assert isinstance(res.exception, FbagentError) and "no manifest.json" in str(res.exception), res.output
    res = runner.invoke(app, ["eval", "report", *map(str, sorted(results.iterdir())), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "| model-a |" in md and "| model-b |" in md


@pytest.mark.parametrize("command", ["run", "report", "frame-id", "sembench"])
def test_help_renders(command):
    res = CliRunner().invoke(app, ["eval", command, "--help"], terminal_width=120)
    assert res.exit_code == 0, res.output
    assert "Usage" in res.output


# -- issue 9: 80 columns, figure formats, labels, undefined std, datasets, human accuracy ------------------
def _with(path: Path, **manifest) -> Path:
    m = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    m.update(manifest)
    (path / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    return path


SCORING = {"failures": "count", "std": "population"}


def test_report_fits_80_columns_compact_and_wide(tmp_path):
    a = _with(framebench_folder(tmp_path / "a", "/models/gemma-3-270m-it-q4_k_m.gguf",
                                ["correct", "correct", "both", "neither"]), scoring=SCORING)
    b = _with(framebench_folder(tmp_path / "b", "Qwen/Qwen3-30B-A3B-Instruct-2507", ["correct", "opposite", "correct", None]),
              scoring=SCORING, label="Qwen3-30B-A3B")
    runner = CliRunner()
    res = runner.invoke(app, ["eval", "report", str(a), str(b), "--human-accuracy", "0.958"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    head = next(ln for ln in lines if ln.lstrip().startswith("Model"))
    assert head.split() == ["Model", "Acc.", "95%", "CI", "Base", "Ext.", "1st", "2nd", "Failed"]
    first_cells = "".join(ln.split()[0] for ln in lines[lines.index(head) + 2:] if ln.strip()
                          and not ln.lstrip().startswith(("Human", "Acc.:", "counted")))
    assert first_cells.startswith("gemma-3-270m-it-q4_k_m")  # the short name (folded), never squeezed away
    assert "Qwen3-30B-A3B" in first_cells and "Instruct" not in res.stdout  # the run's --label
    assert any(ln.split()[:2] == ["Human", "95.8"] for ln in lines)
    assert "population std (ddof=0)" in " ".join(res.stdout.split()) and "failures counted as wrong" in " ".join(res.stdout.split())
    assert "0.958 read as a fraction (95.8%)" in res.stderr
    assert "Base-Ext." not in res.stdout
    res = runner.invoke(app, ["eval", "report", str(a), str(b), "--wide", "--human-accuracy", "95.8"],
                        env={"COLUMNS": "250"})
    assert res.exit_code == 0 and "Base-Ext." in res.stdout and "Opposite" in res.stdout
    assert "95.8 read as a percentage (95.8%)" in res.stderr
    # a 60-column terminal: columns are given up (and named), the model column stays
    res = runner.invoke(app, ["eval", "report", str(a), str(b)], env={"COLUMNS": "60"})
    assert max(len(ln) for ln in res.stdout.splitlines()) <= 60
    # the model name is never broken (issue 35), so at 60 columns Base and Ext. give way too
    assert "Not shown at this width: Base, Ext., 1st, 2nd" in " ".join(res.stdout.split())
    assert any(ln.strip().startswith("gemma-3-270m-it-q4_k_m") for ln in res.stdout.splitlines())


def test_figure_formats_value_labels_and_undefined_std(tmp_path):
    a = _with(framebench_folder(tmp_path / "a", "/models/gemma-3-270m-it-q4_k_m.gguf",
                                ["correct", "correct", "both", "neither"]), scoring={"failures": "count", "std": "sample"})
    one = tmp_path / "one"  # one template only: the sample std is undefined
    one.mkdir()
    preds = [json.loads(line) for line in (a / "predictions.jsonl").read_text().splitlines()]
    (one / "predictions.jsonl").write_text("".join(json.dumps(p) + "\n" for p in preds if p["template"] == "v1"))
    (one / "manifest.json").write_text((a / "manifest.json").read_text())
    _with(one, label="one template")
    out = tmp_path / "rep"
    res = CliRunner().invoke(app, ["eval", "report", str(a), str(one), "--out", str(out), "--figure-format", "png",
                                   "--figure-format", "pdf", "--figure-format", "svg"], env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    for fmt, magic in (("png", b"\x89PNG"), ("pdf", b"%PDF"), ("svg", b"<?xml")):
        assert (out / f"accuracy.{fmt}").read_bytes().startswith(magic)
    svg = (out / "accuracy.svg").read_text(encoding="utf-8")
    assert "50.0±0.0" in svg and "N=8" in svg and "N=4" in svg  # value label and N per bar
    assert "(std n/a)" in svg and "gemma-3-270m-it-q4_k_m" in svg and "one template" in svg
    assert "sample std (ddof=1)" in svg
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| one template | 50.0 ± n/a |" in md and "| gemma-3-270m-it-q4_k_m | 50.0 ± 0.0 |" in md
    res = CliRunner().invoke(app, ["eval", "report", str(a), "--out", str(out), "--figure-format", "gif"])
    assert isinstance(res.exception, FbagentError) and "unknown --figure-format gif" in str(res.exception)


def test_different_datasets_warn_and_scoring_is_one_for_all(tmp_path):
    a = _with(framebench_folder(tmp_path / "a", "model-a", ["correct", "correct", "both", None]),
              scoring=SCORING, dataset={"fingerprint": "1111222233334444"})
    b = _with(framebench_folder(tmp_path / "b", "model-b", ["correct", "opposite", "correct", None]),
              scoring={"failures": "exclude", "std": "sample"}, dataset={"fingerprint": "5555666677778888"})
    out = tmp_path / "rep"
    res = CliRunner().invoke(app, ["eval", "report", str(a), str(b), "--out", str(out)], env={"COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    err = " ".join(res.stderr.split())
    assert "warning: the compared FrameBench runs used different datasets (1111222233334444: model-a; " \
           "5555666677778888: model-b)" in err
    assert "warning: the runs recorded different scoring conventions" in err
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("> warning: the runs recorded different scoring conventions")
    # both scored with the defaults: model-b 2 of 4 per template (failure wrong), model-a 2 of 4
    assert "| model-a | 50.0 ± 0.0 |" in md and "| model-b | 50.0 ± 0.0 |" in md
    # an explicit convention settles it
    res = CliRunner().invoke(app, ["eval", "report", str(a), str(b), "--out", str(out), "--exclude-failures",
                                   "--std", "sample"])
    assert "scoring conventions" not in res.stderr
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| model-a | 66.7 ± 0.0 |" in md and "| model-b | 66.7 ± 0.0 |" in md
    assert "sample std" in md and "failures excluded" in md


def test_parse_human_accuracy():
    from fbagent.eval.report import parse_human_accuracy

    assert parse_human_accuracy(0.958) == (0.958, "fraction")
    assert parse_human_accuracy(95.8) == pytest.approx((0.958, "percentage"))
    assert parse_human_accuracy(1.0) == (1.0, "fraction")
    with pytest.raises(FbagentError, match="neither a fraction nor a percentage"):
        parse_human_accuracy(101.0)


def test_report_csv_has_numbers_in_separate_columns():
    """mean, std, CI bounds, counts and rates each in a column of their own; '-'/'n/a' empty (issue 22)."""
    from fbagent.eval.report import Table

    tab = Table("FrameBench accuracy", ["Model", "Acc.", "95% CI", "Failed", "Dataset"], [
        ["m1", "50.0 ± 0.0", "[25.0, 75.0]", "2 (25.0%)", "abc"],
        ["m2", "12.5 ± n/a", "-", "0 (0.0%)", "abc"],
        ["Human", "95.0", "-", "-", "-"],
    ])
    rows = list(csv.reader(io.StringIO(render_csv([tab]))))
    assert rows[0] == ["table", "Model", "Acc. mean", "Acc. std", "95% CI low", "95% CI high", "Failed n", "Failed %",
                       "Dataset"]
    assert rows[1][1:] == ["m1", "50.0", "0.0", "25.0", "75.0", "2", "25.0", "abc"]
    assert rows[2][1:] == ["m2", "12.5", "", "", "", "0", "0.0", "abc"]
    assert rows[3][1:] == ["Human", "95.0", "", "", "", "", "", ""]
    sem = Table("SemBench", ["Model", "Easy", "Failed"], [["m", "45.0 [40.0, 50.0]", "3"]])
    srows = list(csv.reader(io.StringIO(render_csv([sem]))))
    assert srows == [["table", "Model", "Easy", "Easy CI low", "Easy CI high", "Failed"],
                     ["SemBench", "m", "45.0", "40.0", "50.0", "3"]]


def test_a_zero_percent_bar_is_drawn_visibly(tmp_path, monkeypatch):
    """Gemma 270M scores 0%: its bar must show (drawn MIN_BAR high), others keep their heights."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from fbagent.eval import report as rep

    assert rep.shown_heights([0.0, 12.5, 100.0]) == [rep.MIN_BAR, 12.5, 100.0]
    heights = []
    original = plt.Axes.bar

    def spy(self, x, height, *args, **kwargs):
        heights.append(list(height))
        return original(self, x, height, *args, **kwargs)

    monkeypatch.setattr(plt.Axes, "bar", spy)
    summary = {"accuracy": {"mean": 0.0, "std": 0.0}, "n_predictions": 40}
    result = rep.RunResult(folder=tmp_path / "gemma", manifest={"task": "framebench", "model": "gemma"},
                           summary=summary)
    rep.plot([result], tmp_path / "accuracy")
    assert heights == [[rep.MIN_BAR]] and (tmp_path / "accuracy.png").stat().st_size > 1000


def _caption_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Acc.: mean"))
    return lines[start:start + 2]


def test_a_piped_report_and_leaderboard_wrap_their_caption_at_the_tables_width(tmp_path, monkeypatch, capsys):
    """Off a terminal the console is 200 columns (a table keeps its columns), but the caption under an 80-column
    table wraps at 80 at a space, not as one 146-character line; the leaderboard of `eval run --models` honours
    $COLUMNS as `eval report` does."""
    import subprocess
    import sys

    from fbagent.commands.eval_models import print_leaderboard

    a = _with(framebench_folder(tmp_path / "a", "/models/gemma-3-270m-it-q4_k_m.gguf",
                                ["correct", "correct", "both", "neither"]), scoring=SCORING)
    b = _with(framebench_folder(tmp_path / "b", "Qwen/Qwen3-30B-A3B-Instruct-2507", ["correct", "opposite", "correct", None]),
              scoring=SCORING, label="Qwen3-30B-A3B")
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    piped = subprocess.run([sys.executable, "-m", "fbagent.cli", "eval", "report", str(a), str(b)], env=env,
                           capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0, piped.stderr
    caption = ("Acc.: mean ± population std (ddof=0) over templates, n/a = undefined; failures counted as wrong; "
               "95% CI: bootstrap over entries (1000 resamples).")
    # the table's rows are 79 cells wide: the caption breaks at the last space within 80 columns (78 cells)
    cut = caption.index(" counted")
    assert cut == 78 and _caption_lines(piped.stdout) == [caption[:cut], caption[cut + 1:]]
    assert max(len(ln) for ln in piped.stdout.splitlines()) <= 80
    monkeypatch.delenv("COLUMNS", raising=False)
    print_leaderboard([a, b])
    head, board = capsys.readouterr().out.split("\n", 1)   # the first line names a command: one line, as messages
    assert head.startswith("leaderboard: 2 models (fbagent eval report ")
    assert _caption_lines(board) == [caption[:cut], caption[cut + 1:]] and max(map(len, board.splitlines())) <= 80
    monkeypatch.setenv("COLUMNS", "60")   # was ignored (200 columns off a terminal)
    print_leaderboard([a, b])
    board = capsys.readouterr().out.split("\n", 1)[1]
    assert max(map(len, board.splitlines())) <= 60 and "Not shown at this width" in board
