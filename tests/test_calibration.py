"""`fbagent verifier calibrate`: held-out exemplars through the verifier, metrics computed by hand, storage,
`generate --margin auto` and `generate --verifier encoder|both`.

A keyword encoder (below) makes every similarity a number one can work out on paper; the
LLM, where one is needed, is the scripted server on 127.0.0.1 (tests/openai_stub.py). The
real-data tests (FrameNet 1.5, ASFALDA) use the offline all-MiniLM-L6-v2 and skip with a reason
when ../shared/data is absent.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import calibrate_options  # noqa: E402
from openai_stub import OpenAIStub, request_text, schema_name  # noqa: E402

from fbagent.errors import FbagentError  # noqa: E402
from fbagent.store.calibrations import latest_calibration, list_calibrations  # noqa: E402
from fbagent.store.db import open_db  # noqa: E402
from fbagent.verifier.calibration import (  # noqa: E402
    auto_margin,
    calibrate,
    signal_summary,
    split_exemplars,
)

KEYWORDS = {"fast": 0, "company": 1, "home": 2}


class KeywordEncoder:
    """Each keyword occurrence adds its unit vector (fast = e1, company = e2, home = e3); rows are
    L2-normalised. ``encode_targets`` ignores the span (the whole text is the context)."""

    name = "keyword-encoder"

    def __init__(self) -> None:
        self.calls = 0

    def encode(self, texts):
        self.calls += 1
        out = np.zeros((len(texts), 4), dtype=np.float32)
        for i, t in enumerate(texts):
            for word in re.findall(r"\w+", t.lower()):
                if word in KEYWORDS:
                    out[i, KEYWORDS[word]] += 1.0
            if not out[i].any():
                out[i, 3] = 1.0   # no keyword: orthogonal to every frame
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    def encode_targets(self, texts, spans):
        assert len(texts) == len(spans)
        return self.encode(texts)


# The tiny lexicon: verb "run" in Self_motion (definition "fast") and Leadership ("company"), two
# exemplars each, so that with --min-exemplars 2 both are held out and each frame is compared by its
# definition. Vectors: A1 = e1, A2 = e2 (an annotation that reads like the other frame), B1 = e2,
# B2 = (e1 + 2 e2) / sqrt(5).
TINY = {
    "Self_motion": ("fast", ["They run fast .", "They run the company ."]),
    "Leadership": ("company", ["We run the company .", "We run the company fast company ."]),
}
# d = sim_own - sim_other per held-out sentence, by hand: A1 1 - 0, A2 0 - 1, B1 1 - 0, B2 (2 - 1) / sqrt(5)
D_BY_TEXT = {"They run fast .": 1.0, "They run the company .": -1.0, "We run the company .": 1.0,
             "We run the company fast company .": 1 / math.sqrt(5)}


def tiny_lexicon(path: Path) -> None:
    db = open_db(path)
    ts = "2026-01-01T00:00:00.000+00:00"
    lex = db["lexicons"].insert({"name": "tiny", "lang": "en", "format": "jsonl", "imported_at": ts}).last_pk
    for frame, (definition, exemplars) in TINY.items():
        fpk = db["frames"].insert({"lexicon_id": lex, "name": frame, "definition": definition,
                                   "definition_markup": definition}).last_pk
        db["frame_elements"].insert({"frame_pk": fpk, "name": "Agent", "core_type": "Core", "definition": "who"})
        lu = db["lexical_units"].insert({"lexicon_id": lex, "frame_pk": fpk, "name": "run.v", "lemma": "run",
                                         "pos": "V", "definition": "", "n_annotated": 2}).last_pk
        for text in exemplars:
            start = text.index("run")
            db["exemplars"].insert({"lu_pk": lu, "text": text, "target_start": start, "target_end": start + 3})


def tiny_options(**kw) -> Any:
    kw.setdefault("lexicons", ["tiny"])
    kw.setdefault("signal", "encoder")
    kw.setdefault("min_exemplars", 2)
    kw.setdefault("n_boot", 200)
    return calibrate_options(**kw)


def test_encoder_signal_on_a_tiny_lexicon_matches_the_hand_computation(tmp_path):
    tiny_lexicon(tmp_path / "t.db")
    enc = KeywordEncoder()
    res = asyncio.run(calibrate(tmp_path / "t.db", tiny_options(), encoder=enc))
    assert res["n_pairs"] == 1 and res["n_sentences"] == 4 and res["n_failed"] == 0
    # accuracy: A1, B1, B2 closer to their own frame, A2 not -> 3/4
    assert res["accuracy"] == pytest.approx(0.75)
    assert res["ci95"] is None  # one pair: no bootstrap over pairs
    # margin 0: TP = 3 (d > 0), FP = 1 (A2 claimed for Leadership: -d = 1 > 0) -> precision 3/4, recall 3/4
    assert res["precision"] == pytest.approx(0.75) and res["recall"] == pytest.approx(0.75)
    rows = {r["margin"]: r for r in res["by_margin"]}
    # margin 0.5: TP = A1, B1 (B2's d = 0.447 is below); FP = A2 -> precision 2/3, recall 2/4
    assert rows[0.5]["precision"] == pytest.approx(2 / 3) and rows[0.5]["recall"] == pytest.approx(0.5)
    assert rows[0.5]["false_pass_rate"] == pytest.approx(0.25)
    # the pseudo-entry (A1, A2, B1, B2) is not verified: A2 fails
    assert rows[0.0]["items_verified"] == 0.0
    # precision never reaches 0.8 on the grid (0.75 up to 0.44, 2/3 from 0.45)
    assert res["margins"] == {"0.8": None, "0.9": None, "0.95": None}
    db = open_db(tmp_path / "t.db")
    (stored,) = list_calibrations(db)
    assert stored["kind"] == "calibrate" and stored["status"] == "finished" and stored["encoder"] == "keyword-encoder"
    sentences = stored["options"]["sentences"]
    assert len(sentences) == 4 and {s["slot"] for s in sentences} == {"sentence_a", "sentence_a_prime", "sentence_b",
                                                                       "sentence_b_prime"}
    for s in sentences:
        assert s["roundtrip"] is None  # no LLM call for the encoder signal
        assert s["encoder"]["sim_own"] - s["encoder"]["sim_other"] == pytest.approx(D_BY_TEXT[s["text"]], abs=1e-5)
    assert db.execute("SELECT COUNT(*) FROM llm_calls").fetchone()[0] == 0


def test_margin_auto_takes_the_smallest_margin_reaching_the_target(tmp_path):
    tiny_lexicon(tmp_path / "t.db")
    asyncio.run(calibrate(tmp_path / "t.db", tiny_options(), encoder=KeywordEncoder()))
    db = open_db(tmp_path / "t.db")
    lexicon = dict(next(iter(db.query("SELECT * FROM lexicons WHERE name = 'tiny'"))))
    chosen = auto_margin(db, lexicon, "encoder", 0.75)
    assert chosen.margin == -0.1 and chosen.precision == pytest.approx(0.75)  # the grid starts at -0.10
    assert "calibrate-tiny-encoder-s0-1" in chosen.text
    with pytest.raises(FbagentError, match="no margin of calibration .* reaches precision 0.8"):
        auto_margin(db, lexicon, "encoder", 0.8)
    with pytest.raises(FbagentError, match="no calibration of lexicon 'tiny' measured the roundtrip signal"):
        auto_margin(db, lexicon, "roundtrip", 0.9)


def echo_definition(request):
    """The verifier LLM answers with the example sentence itself (its keywords decide its vector)."""
    if schema_name(request) != "Definition":
        return None
    text = request_text(request)
    sentence = next(s for s in D_BY_TEXT if s in text)
    return {"definition": sentence}


def test_roundtrip_and_both_use_the_verifier_llm_and_its_cache(tmp_path):
    tiny_lexicon(tmp_path / "t.db")
    with OpenAIStub(echo_definition) as stub:
        opts = tiny_options(signal="both", generator="openai", base_url=stub.base_url, model="stub-model",
                            backoff_s=0.01)
        res = asyncio.run(calibrate(tmp_path / "t.db", opts, encoder=KeywordEncoder()))
        assert stub.request_count == 4  # one definition per held-out sentence
        again = asyncio.run(calibrate(tmp_path / "t.db", opts, encoder=KeywordEncoder()))
        assert stub.request_count == 4  # the second calibration is answered from llm_calls
    # the definition is the sentence and the references are the frame definitions: the same d as the encoder check
    for signal in ("roundtrip", "encoder", "both"):
        assert res["signals"][signal]["accuracy"] == pytest.approx(0.75)
    assert res["signal"] == "both" and res["accuracy"] == pytest.approx(0.75)
    lex = res["by_lexicon"][0]
    assert lex["llm"] == {"calls": 4, "cache_hits": 0, "failures": 0}
    assert again["by_lexicon"][0]["llm"]["cache_hits"] == 4
    db = open_db(tmp_path / "t.db")
    run_ids = {r[0] for r in db.execute("SELECT run_id FROM llm_calls")}
    assert run_ids == {lex["calibration_id"]}
    assert latest_calibration(db, 1, "roundtrip")["name"] == "calibrate-tiny-both-s0-2"


def test_a_fewshot_verifier_gets_the_prompts_it_gets_in_generate(tmp_path):
    """A calibration measures the verifier that generation runs: with the ``fewshot`` prompt style (a base
    model) the definition requests are the few-shot completion prompts generation sends, and the stored
    prompt versions say so (a calibration used to send the chat prompt whatever the verifier's style)."""
    from fbagent.prompting.messages import load_prompts

    tiny_lexicon(tmp_path / "t.db")
    with OpenAIStub(echo_definition) as stub:
        opts = tiny_options(signal="roundtrip", generator="openai", base_url=stub.base_url, model="stub-model",
                            backoff_s=0.01, prompt_style="fewshot")
        asyncio.run(calibrate(tmp_path / "t.db", opts, encoder=KeywordEncoder()))
        texts = [request_text(r) for r in stub.requests]
    fewshot = load_prompts("en", "chat", "fewshot")
    for sentence in D_BY_TEXT:
        (define,) = fewshot.define_messages("run", sentence)
        assert sum(define["content"] in t for t in texts) == 1
    stored = latest_calibration(open_db(tmp_path / "t.db"), 1, "roundtrip")["prompt_versions"]
    assert stored["define"] == fewshot.define.version and stored["verifier_prompt_style"] == "fewshot"


def test_a_calibration_starts_the_verifier_alone(tmp_path):
    """Only the verifier's client is built: a generator that cannot start (here a local GGUF that does not
    exist) does not stop the calibration of an OpenAI-compatible verifier, and loads nothing."""
    tiny_lexicon(tmp_path / "t.db")
    with OpenAIStub(echo_definition) as stub:
        opts = tiny_options(signal="roundtrip", generator="local", model_path=str(tmp_path / "absent.gguf"),
                            verifier_generator="openai", verifier_base_url=stub.base_url,
                            verifier_model="stub-model", backoff_s=0.01)
        res = asyncio.run(calibrate(tmp_path / "t.db", opts, encoder=KeywordEncoder()))
        assert stub.request_count == 4
    assert res["accuracy"] == pytest.approx(0.75)
    assert res["by_lexicon"][0]["llm"] == {"calls": 4, "cache_hits": 0, "failures": 0}


UNREACHABLE = "http://127.0.0.1:9/v1"  # port 9 (discard): nothing listens there (as in test_bad_input.py)


def test_a_verifier_that_cannot_be_reached_stops_the_calibration_soon_and_hides_nothing(tmp_path):
    """Every call failing (a server that is down): the command's circuit breaker (fbagent.providers.breaker)
    stops the calibration after FAILED_CALLS failed requests instead of making all 100 calls, it is stored as
    failed (no result), the command's error exits 1 naming the cause, and the earlier good calibration stays
    the one ``--margin auto`` reads."""
    from fbagent.lexicon.importer import resolve_lexicon
    from fbagent.providers.breaker import FAILED_CALLS
    from fbagent.verifier.calibration.run import CalibrationFailed

    db_path = tmp_path / "s.db"
    good = asyncio.run(calibrate(db_path, calibrate_options(signal="encoder", min_exemplars=2, n_boot=100),
                                 encoder=KeywordEncoder()))
    opts = calibrate_options(signal="both", min_exemplars=2, n_boot=100, verifier_generator="openai",
                            verifier_base_url=UNREACHABLE, verifier_model="m", backoff_s=0.01, llm_retries=1)
    with pytest.raises(CalibrationFailed, match=rf"stopped: the model service failed {FAILED_CALLS} requests in a "
                       r"row and answered none since the command started \(most common error .*connect") as err:
        asyncio.run(calibrate(db_path, opts, encoder=KeywordEncoder()))
    assert err.value.exit_code == 1 and "--verifier-base-url" in str(err.value)
    db = open_db(db_path)
    calls = db.execute("SELECT count(*) FROM llm_calls").fetchone()[0]
    # each stored call made 2 requests (llm_retries=1); the call whose request tripped the breaker is not stored
    assert 0 <= calls < FAILED_CALLS // 2 + 2 * opts.models.generator.concurrency   # not the 100 of 25 pairs
    statuses = [r[0] for r in db.execute("SELECT status FROM runs WHERE kind = 'calibrate' ORDER BY id")]
    assert statuses == ["finished", "failed"]
    lexicon = resolve_lexicon(db, "sample-en")
    assert latest_calibration(db, lexicon["id"], "encoder")["name"] == good["by_lexicon"][0]["calibration"]


def test_a_small_calibration_whose_every_call_failed_is_failed_too(tmp_path):
    """Fewer failed requests than the breaker's FAILED_CALLS (one pair, four definitions, no retry), all
    failed: failed at the end."""
    from fbagent.verifier.calibration.run import CalibrationFailed

    tiny_lexicon(tmp_path / "t.db")
    opts = tiny_options(signal="roundtrip", generator="openai", base_url=UNREACHABLE, model="m", backoff_s=0.01,
                        llm_retries=0)
    with pytest.raises(CalibrationFailed, match="all 4 LLM calls failed"):
        asyncio.run(calibrate(tmp_path / "t.db", opts, encoder=KeywordEncoder()))
    assert [r[0] for r in open_db(tmp_path / "t.db").execute("SELECT status FROM runs")] == ["failed"]


def test_small_calibrations_and_short_samples_are_named(tmp_path):
    """A calibration that scored few sentences gives ``--margin auto`` a note saying so; one that samples
    fewer pairs than ``--pairs`` asks for says how many it has (the sample: 25 of 200)."""
    from fbagent.progress.events import Message
    from fbagent.verifier.margin import FEW_SENTENCES

    tiny_lexicon(tmp_path / "t.db")
    asyncio.run(calibrate(tmp_path / "t.db", tiny_options(), encoder=KeywordEncoder()))
    db = open_db(tmp_path / "t.db")
    lexicon = dict(next(iter(db.query("SELECT * FROM lexicons WHERE name = 'tiny'"))))
    assert "scored only 4 held-out sentences, too few for a stable precision" in auto_margin(
        db, lexicon, "encoder", 0.75).text

    notes: list[str] = []
    res = asyncio.run(calibrate(tmp_path / "s.db", calibrate_options(signal="encoder", min_exemplars=2, n_boot=200),
                                encoder=KeywordEncoder(),
                                on_event=lambda e: notes.append(e.text) if isinstance(e, Message) else None))
    assert res["n_pairs"] == 25 and res["n_sentences"] >= FEW_SENTENCES
    assert "note: lexicon 'sample-en' has 25 eligible frame pairs, fewer than the 200 of --pairs: all 25 are used" in notes
    sample = dict(next(iter(open_db(tmp_path / "s.db").query("SELECT * FROM lexicons"))))
    margin = auto_margin(open_db(tmp_path / "s.db"), sample, "encoder", 0.5)
    assert "too few" not in margin.text


def test_held_out_exemplars_are_never_references():
    rows = [{"id": i, "text": f"s{i}", "target_start": 0, "target_end": 1} for i in range(12)]
    rows.append({"id": 99, "text": "no span", "target_start": None, "target_end": None})
    for seed in range(5):
        split = split_exemplars(rows, seed=seed, lexicon="x", frame="F", verb="v", max_references=6)
        held = {r["id"] for r in split.held_out}
        refs = {r["id"] for r in split.references}
        assert len(held) == 2 and len(refs) == 6 and not held & refs and 99 not in held | refs
    again = split_exemplars(rows, seed=3, lexicon="x", frame="F", verb="v", max_references=6)
    assert [r["id"] for r in again.held_out] == [r["id"] for r in split_exemplars(
        rows, seed=3, lexicon="x", frame="F", verb="v", max_references=6).held_out]


def test_metrics_bootstrap_over_pairs_and_items():
    # two pairs: pair 0 all correct (d = 0.3), pair 1 one wrong sentence
    rows = [{"pair": 0, "encoder": {"sim_own": 0.5, "sim_other": 0.2}, "error": None} for _ in range(4)]
    rows += [{"pair": 1, "encoder": {"sim_own": 0.5, "sim_other": 0.2}, "error": None} for _ in range(3)]
    rows.append({"pair": 1, "encoder": {"sim_own": 0.1, "sim_other": 0.2}, "error": None})
    rows.append({"pair": 1, "encoder": None, "error": "define: HTTP 500"})
    s = signal_summary(rows, "encoder", n_boot=200)
    assert s["n_sentences"] == 8 and s["n_unscored"] == 1 and s["accuracy"] == pytest.approx(7 / 8)
    lo, hi = s["ci95"]
    assert 0.75 <= lo <= 7 / 8 <= hi <= 1.0  # resampling pairs: 6/8 (pair 1 twice) .. 8/8 (pair 0 twice)
    assert s["items_verified"] == 0.5  # pair 0 verified, pair 1 not (its fifth row failed: 4 scored)
    by = {r["margin"]: r for r in s["by_margin"]}
    # margin 0.2: pair 0's variants with one sentence flipped (-0.3) fail; pair 1 is not verified at all
    assert by[0.2]["items_verified"] == 0.5 and by[0.2]["items_false_verified"] == 0.0


# ----------------------------------------------------------------------------- the embedded sample


def test_embedded_sample_counts(tmp_path):
    res = asyncio.run(calibrate(tmp_path / "s.db", calibrate_options(signal="encoder", min_exemplars=2, n_boot=200),
                                encoder=KeywordEncoder()))
    lex = res["by_lexicon"][0]
    assert lex["lexicon"] == "sample-en" and lex["language"] == "en"
    # 26 candidate pairs, 25 eligible (the filters of `pairs select`), all with 2+ exemplars per frame
    assert lex["pair_counts"] == {"candidates": 26, "eligible": 25, "too_few_exemplars": 0, "sampled": 25}
    assert res["n_pairs"] == 25 and res["n_sentences"] == 100  # 2 held out per frame, 4 per pair
    with pytest.raises(FbagentError, match="has 3\\+ exemplars"):  # the sample has 2-3 per LU
        asyncio.run(calibrate(tmp_path / "s.db", calibrate_options(signal="encoder"), encoder=KeywordEncoder()))


def run_cli(*args: str, db: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args, "--db", str(db)], capture_output=True,
                          text=True, timeout=300)


def test_cli_calibrate_json_then_margin_auto_in_a_dry_run(tmp_path):
    db = tmp_path / "c.db"
    res = run_cli("verifier", "calibrate", "--signal", "encoder", "--min-exemplars", "2", "--json", "--n-boot", "200",
                  db=db)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    for key in ("accuracy", "ci95", "precision", "recall", "n_pairs", "n_sentences", "by_margin", "seconds"):
        assert key in out
    assert out["n_pairs"] == 25 and out["n_sentences"] == 100 and 0.0 <= out["accuracy"] <= 1.0
    listed = run_cli("verifier", "list", db=db)
    assert listed.returncode == 0 and "calibrate-sample-en-encoder-s0-1" in listed.stdout
    plan = run_cli("generate", "--pairs", "2", "--dry-run", "--margin", "auto", "--verifier", "encoder",
                   "--target-precision", "0.5", db=db)
    assert plan.returncode == 0, plan.stderr
    assert "--margin auto: margin" in plan.stdout and "calibrate-sample-en-encoder-s0-1" in plan.stdout


@pytest.mark.parametrize("args, message", [
    (("verifier", "calibrate", "--signal", "nope"), "unknown verifier signal 'nope'"),
    (("verifier", "calibrate", "--signal", "encoder", "--min-exemplars", "1"), "--min-exemplars must be at least 2"),
    (("verifier", "calibrate", "--signal", "encoder", "--lexicon", "nosuch"), "unknown lexicon 'nosuch'"),
    (("generate", "--pairs", "1", "--dry-run", "--margin", "auto"), "no calibration of lexicon 'sample-en'"),
    (("generate", "--pairs", "1", "--dry-run", "--margin", "wide"), "--margin must be a number or 'auto'"),
    (("generate", "--pairs", "1", "--dry-run", "--verifier", "exemplars"), "unknown verifier signal 'exemplars'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    res = run_cli(*args, db=tmp_path / "b.db")
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert "Traceback" not in res.stderr


# ----------------------------------------------------------------------------- generation with the encoder check


async def test_generate_with_the_encoder_verifier_calls_no_define(tmp_path):
    from factories import generate_options
    from gen_responder import FrameResponder

    from fbagent.generation import generate
    from fbagent.store.items import run_items

    with OpenAIStub(FrameResponder()) as stub:
        opts = generate_options(pairs=2, generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                               screen=False, verifier="encoder")
        summary = await generate(tmp_path / "g.db", opts, command="fbagent generate (test)")
        schemas = [schema_name(r) for r in stub.requests]
    assert "Definition" not in schemas and summary.entries_done == 2
    db = open_db(tmp_path / "g.db")
    run = next(iter(db.query("SELECT options FROM runs WHERE kind = 'generate'")))
    assert json.loads(run["options"])["verifier"] == "encoder"
    for item in run_items(db, summary.run_id):
        ver = item["verifier"]
        assert ver["signal"] == "encoder"
        for key, s in ver["sentences"].items():
            assert s["definition"] is None and s["sim_own"] is None
            check = s["encoder_check"]
            assert -1.0 <= check["sim_own"] <= 1.0 and s["pass"] == (check["sim_own"] - check["sim_other"] > 0.0)
            if not s["pass"]:
                assert any(r.startswith(f"{key}: the verb is not closer") for r in item["reasons"])


def test_default_run_names_do_not_change_with_the_default_verifier():
    from factories import generate_options

    assert "verifier" not in generate_options().result_options()
    assert generate_options(verifier="both").result_options()["verifier"] == "both"


# ----------------------------------------------------------------------------- real FrameNet data


@pytest.mark.realdata
@pytest.mark.slow
@pytest.mark.parametrize("fixture, lexicon", [("en_db", "framenet-en-1.5"), ("fr_db", "framenet-fr-asfalda")])
def test_real_lexicons_with_the_offline_encoder(request, tmp_path, fixture, lexicon):
    import shutil

    db, _ = request.getfixturevalue(fixture)
    path = tmp_path / "real.db"
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(db.conn.execute("PRAGMA database_list").fetchone()[2], path)
    res = asyncio.run(calibrate(path, calibrate_options(lexicons=[lexicon], signal="encoder", pairs=6, n_boot=200)))
    lex = res["by_lexicon"][0]
    assert lex["n_pairs"] == 6 and res["n_sentences"] == 24 and res["n_failed"] == 0
    assert lex["pair_counts"]["sampled"] == 6 and lex["pair_counts"]["too_few_exemplars"] > 0
    assert 0.0 <= res["accuracy"] <= 1.0 and res["ci95"] is not None
    stored = list_calibrations(open_db(path))[0]
    ids = [s["exemplar_id"] for s in stored["options"]["sentences"]]
    assert len(set(ids)) == len(ids)


@pytest.mark.realdata
@pytest.mark.slow
def test_framenet_roundtrip_with_a_scripted_verifier(en_db, tmp_path):
    import shutil

    db, _ = en_db
    path = tmp_path / "rt.db"
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(db.conn.execute("PRAGMA database_list").fetchone()[2], path)

    def define(request):
        return {"definition": "to move somewhere"} if schema_name(request) == "Definition" else None

    with OpenAIStub(define) as stub:
        opts = calibrate_options(lexicons=["framenet-en-1.5"], signal="roundtrip", pairs=3, generator="openai",
                                base_url=stub.base_url, model="stub-model", backoff_s=0.01, n_boot=200)
        res = asyncio.run(calibrate(path, opts, encoder=KeywordEncoder()))
        assert stub.request_count == 12
    assert res["n_sentences"] == 12 and res["by_lexicon"][0]["llm"]["calls"] == 12


def test_verifier_help_imports_no_heavy_module():
    probe = ("import sys\nfrom typer.testing import CliRunner\nfrom fbagent.cli import app\n"
             "for args in (['verifier', '--help'], ['verifier', 'calibrate', '--help'], ['verifier', 'list', '--help']):\n"
             "    r = CliRunner().invoke(app, args)\n    assert r.exit_code == 0, r.output\n"
             "print(','.join(m for m in ('torch', 'numpy', 'scipy', 'sklearn', 'statsmodels', 'langgraph', "
             "'sentence_transformers') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_cli_prompt_style_reaches_the_verifier(tmp_path):
    """`verifier calibrate --prompt-style fewshot` (the Model group's flag, as in generate): the definition
    requests are the few-shot ones and the stored calibration records the style."""
    from fbagent.prompting.messages import load_prompts

    db = tmp_path / "t.db"
    tiny_lexicon(db)
    with OpenAIStub(echo_definition) as stub:
        res = run_cli("verifier", "calibrate", "--lexicon", "tiny", "--signal", "roundtrip", "--min-exemplars", "2",
                      "--n-boot", "200", "--generator", "openai", "--base-url", stub.base_url, "--model", "m",
                      "--prompt-style", "fewshot", "--json", db=db)
        texts = [request_text(r) for r in stub.requests]
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["by_lexicon"][0]["llm"]["calls"] == 4
    (define,) = load_prompts("en", "chat", "fewshot").define_messages("run", "They run fast .")
    assert sum(define["content"] in t for t in texts) == 1
    stored = latest_calibration(open_db(db), 1, "roundtrip")
    assert stored["options"]["calibration"]["prompt_style"] == "fewshot"
    assert stored["prompt_versions"]["verifier_prompt_style"] == "fewshot"
