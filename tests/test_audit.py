"""`fbagent audit`: shortcut baselines over the evaluation problems, the per-entry flag, the command.

The planted dataset: 20 entries whose correct sentences (S_A, S_A') are always longer than the
others, with no other cue (the question shares no word with any sentence or frame name, every
sentence has the verb in the same form). By hand, over 80 problems (4 per entry): length picks gold
in all 80 (100%, interval [100, 100]); word overlap, verb form, encoder similarity and frame overlap
tie on every problem (50%, at chance); so length is the only baseline above chance and every entry
is flagged. Mirrored (the correct sentence longer in half the entries, shorter in the other half):
length 50%, no baseline above chance, no flag.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from fbagent.audit.audit import AuditOptions, run_audit  # noqa: E402
from fbagent.audit.render import csv_text, known_shortcuts_section, markdown  # noqa: E402
from fbagent.cli import app  # noqa: E402
from fbagent.eval.entry import Entry  # noqa: E402

runner = CliRunner()
NAMES = ["word_overlap", "length", "verb_form", "encoder_similarity", "frame_overlap"]


def planted(i: int, longer: bool = True) -> Entry:
    short, long_ = "Kim walked.", "Kim walked home slowly yesterday."
    right, wrong = (long_, short) if longer else (short, long_)
    return Entry(id=f"e{i}", question="Which option describes motion?", sentence_a=right, sentence_b=wrong,
                 sentence_a_prime=right.replace("Kim", "Lee"), sentence_b_prime=wrong.replace("Kim", "Lee"),
                 verb="walk", language="en", lu="walk.v", frame_a="Xa", frame_b="Yb")


def bag_of_words(texts: list[str]) -> np.ndarray:
    """A stand-in encoder: one dimension per word (hashed into 64), rows of unit length."""
    out = np.zeros((len(texts), 64), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in text.lower().replace(".", " ").replace("?", " ").split():
            out[i, sum(map(ord, word)) % 64] += 1.0
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def by_name(result):
    return {r["name"]: r for r in result["baselines"]}


def test_planted_length_shortcut_is_found_and_every_entry_flagged():
    entries = [planted(i) for i in range(20)]
    result = run_audit(entries, AuditOptions(seed=0, resamples=200), embed=bag_of_words)
    rows = by_name(result)
    assert list(rows) == NAMES and result["problems"] == 80
    assert (rows["length"]["accuracy"], rows["length"]["low"], rows["length"]["high"]) == (1.0, 1.0, 1.0)
    assert rows["length"]["beats_chance"]
    for name in ("word_overlap", "verb_form", "encoder_similarity", "frame_overlap"):
        assert rows[name]["accuracy"] == 0.5 and not rows[name]["beats_chance"], name
    assert result["flagged"] == [f"e{i}" for i in range(20)]
    assert all(e["shortcut"] and e["gold_picked"]["length"] == 1.0 for e in result["per_entry"])
    assert result["distributions"]["gold_position"] == {"1": 40, "2": 40}
    assert result["distributions"]["per_verb"] == {"walk": 20} and result["distributions"]["per_relation"] == {"unknown": 20}
    # 20 entries of one verb, two distinct texts (Kim/Lee differ only in the name): every pair is near-identical
    assert len(result["near_duplicates"]["pairs"]) == 190
    assert "percentile bootstrap over entries (200 resamples, seed 0)" in result["convention"]


def test_without_the_cue_nothing_beats_chance_and_nothing_is_flagged():
    entries = [planted(i, longer=i % 2 == 0) for i in range(20)]
    result = run_audit(entries, AuditOptions(seed=0, resamples=200))
    rows = by_name(result)
    assert rows["length"]["accuracy"] == 0.5 and not rows["length"]["beats_chance"]
    assert not rows["encoder_similarity"]["available"] and result["flagged"] == []
    assert result["near_duplicates"]["method"] == "Jaccard of lemma sets (no encoder)"


def test_verb_form_is_learned_from_the_other_entries():
    # correct sentences say "walked", wrong ones "walks" (same lengths): each entry shows "walked" 4 times,
    # always correct, so the other 19 give "walked" (76 + 1) / (76 + 2) and "walks" (0 + 1) / (76 + 2)
    entries = [Entry(id=f"v{i}", question="Which one?", sentence_a="Al walked.", sentence_b="Kim walks.",
                     sentence_a_prime="Bo walked.", sentence_b_prime="Lee walks.", verb="walk", language="en")
               for i in range(20)]
    rows = by_name(run_audit(entries, AuditOptions(resamples=100)))
    assert rows["verb_form"]["accuracy"] == 1.0 and rows["length"]["accuracy"] == 0.5


def test_the_card_section_audits_the_exported_records(tmp_path):
    from factories import make_db

    from fbagent.publish.jsonl import export_records
    from fbagent.publish.shortcuts import known_shortcuts

    db = make_db(tmp_path / "f.db", n=6)
    section = known_shortcuts(db, export_records(db, run="run1"), {})
    assert section.startswith("## Known shortcuts") and "| encoder_similarity |" in section
    assert "needs the sentence encoder (not loaded" in section and "Convention:" in section


def test_renderings_name_the_convention_and_every_baseline():
    result = run_audit([planted(i) for i in range(6)], AuditOptions(resamples=100))
    md, csv = markdown(result), csv_text(result)
    card = known_shortcuts_section(result)
    for name in NAMES:
        assert name in md and name in csv and name in card
    assert "percentile bootstrap" in csv.splitlines()[1] and "## Known shortcuts" in card
    assert "Baselines above chance: length." in card


def test_audit_of_a_run_generated_against_the_stub_and_of_the_authors_columns(tmp_path):
    db = str(tmp_path / "fb.db")
    with OpenAIStub(FrameResponder()) as stub:
        made = runner.invoke(app, ["generate", "--pairs", "3", "--generator", "openai", "--base-url", stub.base_url,
                                   "--model", "stub-model", "--db", db, "--run", "demo", "--no-screen"])
        authors_rules = runner.invoke(app, ["generate", "--pairs", "2", "--generator", "openai", "--base-url",
                                            stub.base_url, "--model", "stub-model", "--db", db, "--run", "fb",
                                            "--protocol", "framebench"])
    assert made.exit_code == 0, made.output
    assert authors_rules.exit_code == 0, authors_rules.output
    shown = runner.invoke(app, ["runs", "show", "fb", "--db", db], terminal_width=120)
    assert "selection protocol  framebench" in shown.output
    usage = json.loads(runner.invoke(app, ["runs", "show", "fb", "--db", db, "--json"]).output)["usage"]
    assert "screen" not in usage["by_task"] and "generate_base" in usage["by_task"]   # the authors screen nothing
    out = runner.invoke(app, ["audit", "--run", "demo", "--db", db, "--format", "json", "--resamples", "100",
                              "--plots", str(tmp_path / "plots")])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output[:out.output.rindex("}") + 1])
    rows = by_name(result)
    assert list(rows) == NAMES and all(r["available"] for r in rows.values()) and result["entries"] == 3
    assert result["problems"] == 12 and result["options"]["encoder"] and result["source"] == "run demo"
    assert (tmp_path / "plots" / "baselines.png").read_bytes()[:4] == b"\x89PNG"
    table = runner.invoke(app, ["audit", "--run", "demo", "--db", db, "--resamples", "100"], terminal_width=80)
    assert table.exit_code == 0 and max(len(line) for line in table.output.splitlines()) <= 80
    assert all(name in table.output for name in NAMES) and "Convention:" in table.output
    import subprocess  # a fresh process loads the encoder: no library noise around the table

    fresh = subprocess.run([sys.executable, "-m", "fbagent.cli", "audit", "--run", "demo", "--db", db, "--resamples",
                            "100"], capture_output=True, text=True, timeout=300)
    assert fresh.returncode == 0 and "encoder_similarity" in fresh.stdout, fresh.stderr
    noise = fresh.stdout + fresh.stderr
    assert "model package loaded" not in noise and "Loading weights" not in noise and "extract_model" not in noise, noise
    flagged = len(result["flagged"])
    out_file = tmp_path / "kept.jsonl"
    kept = runner.invoke(app, ["export", str(out_file), "--run", "demo", "--db", db, "--exclude-shortcut"])
    assert kept.exit_code == 0, kept.output
    assert f"--exclude-shortcut: left out {flagged} of 3 entries flagged shortcut" in " ".join(kept.output.split())
    assert "frame-pair selection protocol: fbagent (demo: fbagent)" in kept.output
    assert len(out_file.read_text("utf-8").splitlines()) == 3 - flagged
    authors = tmp_path / "authors.jsonl"
    authors.write_text("".join(json.dumps({
        "original_qa_id": f"fb-{i}", "lex_unit_name": "leave.v",
        "question": "Select all sentences that imply that someone goes away from a place.",
        "sentence_a": "She left the office at noon today.", "sentence_b": "She left her umbrella.",
        "sentence_a_prime": "The train leaves the station every hour.", "sentence_b_prime": "He left a note.",
    }) + "\n" for i in range(4)), "utf-8")
    md = runner.invoke(app, ["audit", "--dataset", str(authors), "--format", "md", "--no-encoder",
                             "--resamples", "100"])
    assert md.exit_code == 0, md.output
    assert all(f"| {name} |" in md.output for name in NAMES) and "needs frame names" in md.output
    assert "| length | the longer sentence (characters) | 100.0 | [100.0, 100.0] | 50.0 | above chance |" in md.output


@pytest.mark.parametrize("args,msg", [((), "pass exactly one of --run and --dataset"),
                                      (("--run", "x", "--dataset", "y"), "pass exactly one of --run and --dataset"),
                                      (("--dataset", "missing.jsonl"), "dataset missing.jsonl does not exist")])
def test_bad_input_is_one_line(args, msg, tmp_path):
    import subprocess

    out = subprocess.run([sys.executable, "-m", "fbagent.cli", "audit", *args, "--no-encoder", "--db",
                          str(tmp_path / "none.db")], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 2 and msg in out.stderr and out.stderr.strip().count("\n") == 0, out.stderr
