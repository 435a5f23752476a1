"""`generate` and frame-pair selections: the reuse rule, eligibility options, run identity, events, bookkeeping.

Real openai + instructor + LangGraph + encoder against the scripted server on
127.0.0.1 (tests/openai_stub.py, tests/gen_responder.py), the embedded sample
lexicon, a fresh SQLite file per test.
"""

from __future__ import annotations

import io
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from factories import generate_options  # noqa: E402
from gen_responder import FrameResponder  # noqa: E402
from openai_stub import OpenAIStub  # noqa: E402
from rich.console import Console  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from fbagent.cli import app  # noqa: E402
from fbagent.commands.generate_view import GenerateView  # noqa: E402
from fbagent.errors import FbagentError  # noqa: E402
from fbagent.generation import (  # noqa: E402
    EntriesStarted,
    EntriesStopped,
    LexiconNote,
    PlanMade,
    Progress,
    SelectionChosen,
    SessionEnded,
    default_run_name,
    estimate_tokens,
    generate,
)
from fbagent.store.db import open_db  # noqa: E402
from fbagent.store.runs import get_run, sessions  # noqa: E402

runner = CliRunner()


def options(stub: OpenAIStub, **kw) -> Any:
    kw.setdefault("pairs", 2)
    kw.setdefault("screen", False)
    return generate_options(generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01, **kw)


async def run(db_path: Path, opts: Any, command: str = "fbagent generate (test)"):
    out = io.StringIO()
    summary = await generate(db_path, opts, on_event=GenerateView(Console(file=out, width=200)), command=command)
    return summary, " ".join(out.getvalue().split())


def selection_count(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute("SELECT COUNT(*) FROM selections").fetchone()[0]


# --------------------------------------------------------------------------- run identity


def test_default_run_names_are_those_of_existing_runs():
    # pinned from the code before the eligibility options existed: existing runs keep their names
    assert default_run_name("sample-en", generate_options(screen=True)) == "sample-en-local-s0-4564b40a"
    assert default_run_name("sample-en", generate_options()) == "sample-en-local-s0-9a7e331b"
    opts = generate_options(pairs=3, generator="openai", model="stub-model", base_url="http://x", screen=True,
                           judge=True, max_per_verb=2, per_pair=2, seed=5)
    assert default_run_name("framenet-en-1.5", opts) == "framenet-en-1.5-openai-s5-ea162f1e"
    assert "min_examples" not in generate_options().result_options()


def test_eligibility_options_change_the_name_only_when_not_default():
    base = generate_options(screen=True)
    for change in ({"min_examples": 1}, {"require_definition": False}, {"require_core_fe": False},
                   {"exclude_related": False}):
        opts = generate_options(screen=True, **change)
        assert opts.result_options() == {**base.result_options(), **change}
        assert default_run_name("sample-en", opts) != default_run_name("sample-en", base)
    sel = generate_options(pairs=7, seed=3, per_pair=2, max_per_verb=1, min_examples=2,
                          exclude_related=False).selection
    assert (sel.pairs, sel.seed, sel.per_pair, sel.max_per_verb, sel.min_examples, sel.exclude_related,
            sel.require_definition, sel.require_core_fe) == (7, 3, 2, 1, 2, False, True, True)


async def test_bad_min_examples_is_one_error_line(tmp_path):
    with pytest.raises(FbagentError, match=r"--min-examples must be 0 or more, got -1"):
        await generate(tmp_path / "fb.db", generate_options(min_examples=-1))
    assert not (tmp_path / "fb.db").exists()


# --------------------------------------------------------------------------- the reuse rule


async def test_generate_uses_the_selection_pairs_select_made(tmp_path):
    db = tmp_path / "fb.db"
    made = runner.invoke(app, ["pairs", "select", "--pairs", "2", "--db", str(db)])
    assert made.exit_code == 0, made.output
    with sqlite3.connect(db) as conn:
        ((sel_id, lexicon_name),) = conn.execute(
            "SELECT s.id, l.name FROM selections s JOIN lexicons l ON l.id = s.lexicon_id").fetchall()
        picked = [r[0] for r in conn.execute(
            "SELECT id FROM frame_pairs WHERE selection_id = ? AND status = 'selected' ORDER BY rank", [sel_id])]
    with OpenAIStub(FrameResponder()) as stub:
        summary, out = await run(db, options(stub, lexicon=lexicon_name))
        assert (f"Using selection {sel_id} made by `pairs select` (same lexicon and selection options, used by no "
                "run): 2 frame pairs.") in out
        assert selection_count(db) == 1
        assert summary.selection["selection_id"] == sel_id and summary.selection["reused"] is True
        run_row = get_run(open_db(db), summary.run_name)
        assert run_row["selection_id"] == sel_id
        with sqlite3.connect(db) as conn:
            used = sorted(r[0] for r in conn.execute("SELECT DISTINCT pair_id FROM items"))
        assert used == sorted(picked)

        # another run (other result options) with the same selection options: a new selection,
        # because the first one belongs to the first run now
        other, out = await run(db, options(stub, lexicon=lexicon_name, max_retries=1))
        assert other.run_name != summary.run_name
        assert (f"Making selection {sel_id + 1} because selection {sel_id}, with the same options, belongs to run "
                f"'{summary.run_name}' (runs never share a selection: screening changes it): selected 2 frame "
                "pairs from 26 candidates.") in out
        assert selection_count(db) == 2

        # other selection options: a new one, naming the difference with the newest stored selection
        third, out = await run(db, options(stub, lexicon=lexicon_name, pairs=3))
        assert (f"Making selection {sel_id + 2} because no stored selection of lexicon '{lexicon_name}' has the "
                f"run's selection options (newest, {sel_id + 1}: pairs 2 -> 3): selected 3 frame pairs") in out
        # the first run, run again: its own selection, nothing new
        again, out = await run(db, options(stub, lexicon=lexicon_name))
        assert again.entries_skipped == 2 and "Making selection" not in out and "Using selection" not in out
    assert selection_count(db) == 3


async def test_a_fresh_database_makes_its_selection_and_says_why(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        summary, out = await run(tmp_path / "fb.db", options(stub))
    assert ("Making selection 1 because no selection of lexicon 'sample-en' is stored: selected 2 frame pairs "
            "from 26 candidates.") in out
    assert summary.selection["reused"] is False and summary.counts["verified"] == 2


async def test_dry_run_names_the_selection_it_would_use(tmp_path):
    db = tmp_path / "fb.db"
    assert runner.invoke(app, ["pairs", "select", "--pairs", "2", "--db", str(db)]).exit_code == 0
    with OpenAIStub(FrameResponder()) as stub:
        reused, _ = await run(db, options(stub, dry_run=True))
        other, _ = await run(db, options(stub, dry_run=True, pairs=3))
        assert stub.request_count == 0
    assert reused.plan["selection"] == "1 (stored, reused)" and reused.plan["pairs"] == 2
    assert other.plan["selection"] == "new" and other.plan["pairs"] == 3
    assert selection_count(db) == 1


# --------------------------------------------------------------------------- eligibility options end to end


def test_generate_offers_the_eligibility_options_of_pairs_select(tmp_path):
    db = str(tmp_path / "fb.db")
    with OpenAIStub(FrameResponder()) as stub:
        result = runner.invoke(app, ["generate", "--pairs", "2", "--generator", "openai", "--base-url", stub.base_url,
                                     "--model", "stub-model", "--no-screen", "--run", "elig", "--min-examples", "1",
                                     "--no-require-definition", "--no-require-core-fe", "--no-exclude-related",
                                     "--db", db])
    assert result.exit_code == 0, result.output
    conn = open_db(db)
    run_row = get_run(conn, "elig")
    assert {k: run_row["options"][k] for k in ("min_examples", "require_definition", "require_core_fe",
                                               "exclude_related")} == {
        "min_examples": 1, "require_definition": False, "require_core_fe": False, "exclude_related": False}
    stored = conn.execute("SELECT options FROM selections WHERE id = ?", [run_row["selection_id"]]).fetchone()[0]
    assert '"min_examples": 1' in stored and '"require_definition": false' in stored
    assert '"exclude_related": false' in stored and '"require_core_fe": false' in stored
    help_text = " ".join(runner.invoke(app, ["generate", "--help"], env={"COLUMNS": "200"}).output.split())
    for flag in ("--min-examples", "--no-require-definition", "--no-require-core-fe", "--no-exclude-related",
                 "--max-per-verb"):
        assert flag in help_text


def test_a_run_refuses_other_eligibility_options(tmp_path):
    db = str(tmp_path / "fb.db")
    with OpenAIStub(FrameResponder()) as stub:
        args = ["generate", "--pairs", "1", "--generator", "openai", "--base-url", stub.base_url, "--model", "M",
                "--no-screen", "--run", "r1", "--db", db]
        assert runner.invoke(app, args).exit_code == 0
        clash = runner.invoke(app, [*args, "--min-examples", "2"])
    assert isinstance(clash.exception, FbagentError)
    assert "run 'r1' exists with other options (min_examples: 0 -> 2)" in str(clash.exception)


# --------------------------------------------------------------------------- events, printing, plan


async def test_the_library_prints_nothing_and_reports_events(tmp_path, capsys):
    events = []
    with OpenAIStub(FrameResponder()) as stub:
        summary = await generate(tmp_path / "fb.db", options(stub), on_event=events.append, command="test")
        silent = await generate(tmp_path / "f2.db", options(stub), command="test")
    assert capsys.readouterr().out == ""
    assert silent.counts["verified"] == 2
    kinds = [type(e) for e in events if not isinstance(e, Progress)]
    assert kinds == [LexiconNote, LexiconNote, SelectionChosen, EntriesStarted, EntriesStopped, SessionEnded]
    # once per run: which analyser serves the verb check of the lexicon's language
    assert [e.text for e in events if isinstance(e, LexiconNote)][1].startswith(
        "note: verb check for 'en': part of speech by HanTa (morphmodel_en.pgz)")
    progress = [e for e in events if isinstance(e, Progress)]
    assert progress[-1].done == 2 and progress[-1].total == 2 and progress[-1].counts["verified"] == 2
    assert progress[-1].calls == summary.calls == 14
    assert events[-1].summary is summary and summary.status == "finished"


async def test_plan_counts_the_real_screening_prompt(tmp_path):
    from fbagent.lexicon.importer import import_embedded
    from fbagent.prompting.messages import load_prompts
    from fbagent.store.lexicon import frame_context

    import_embedded(open_db(tmp_path / "fb.db"))  # a dry run on a missing database stores nothing (issue 35)
    with OpenAIStub(FrameResponder()) as stub:
        screened, _ = await run(tmp_path / "fb.db", options(stub, pairs=3, screen=True, dry_run=True))
        plain, _ = await run(tmp_path / "fb.db", options(stub, pairs=3, screen=False, dry_run=True))
    from fbagent.pairs.screening import screen_pairs

    db = open_db(tmp_path / "fb.db")
    lexicon = next(db.query("SELECT * FROM lexicons"))
    made = await screen_pairs(db, lexicon, generate_options(pairs=3).selection, save=False)
    prompts = load_prompts("en")
    expected = 0
    for p in made["pairs"]:
        da = frame_context(db, lexicon["id"], p["frame_a"], p["verb"])["definition"]
        dbf = frame_context(db, lexicon["id"], p["frame_b"], p["verb"])["definition"]
        messages = prompts.screen_messages(p["verb"], p["frame_a"], da, p["frame_b"], dbf)
        expected += sum(estimate_tokens(m["content"]) for m in messages)
    assert screened.plan["screen_calls"] == 3 and plain.plan["screen_calls"] == 0
    assert screened.plan["input_tokens"] - plain.plan["input_tokens"] == expected
    assert expected != 3 * 250  # not the old constant
    assert screened.plan["output_tokens"] - plain.plan["output_tokens"] == 3 * 50


async def test_a_dry_run_reports_its_plan_as_one_event(tmp_path):
    events = []
    summary = await generate(tmp_path / "fb.db", generate_options(pairs=1, dry_run=True), on_event=events.append)
    (plan,) = [e for e in events if not isinstance(e, LexiconNote)]
    assert isinstance(plan, PlanMade) and plan.plan is summary.plan and summary.plan["entries"] == 1


# --------------------------------------------------------------------------- bookkeeping and secrets


async def test_run_status_is_stored_even_when_the_session_row_cannot_be(tmp_path, monkeypatch):
    import fbagent.store.runs as runs_store

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(runs_store, "finish_session", locked)
    with OpenAIStub(FrameResponder()) as stub:
        with pytest.raises(FbagentError) as err:
            await run(tmp_path / "fb.db", options(stub, pairs=1, run="locked"))
    assert "the end of session" in str(err.value) and "database is locked" in str(err.value)
    assert "run the same command again" in str(err.value)
    db = open_db(tmp_path / "fb.db")
    run_row = get_run(db, "locked")
    assert run_row["status"] == "finished"  # the run status was written although the session row was not
    assert [s["status"] for s in sessions(db, run_row["id"])] == ["running"]


async def test_stored_command_and_base_url_carry_no_secret(tmp_path):
    with OpenAIStub(FrameResponder()) as stub:
        url = stub.base_url.replace("http://", "http://user:SECRETPW1@")
        command = f"fbagent generate --pairs 1 --base-url '{url}?key=SECRETKEY2' --run s"
        opts = options(stub, pairs=1, run="s")
        opts = replace(opts, models=replace(opts.models, generator=replace(opts.models.generator, base_url=url)))
        summary, out = await run(tmp_path / "fb.db", opts, command=command)
        public = stub.base_url
    assert summary.counts["verified"] == 1
    db = open_db(tmp_path / "fb.db")
    run_row = get_run(db, "s")
    stored = [run_row["command"], str(run_row["options"]), *(s["command"] for s in sessions(db, run_row["id"]))]
    for text in stored:
        assert "SECRETPW1" not in text and "SECRETKEY2" not in text, text
    assert run_row["options"]["base_url"] == public
    assert "SECRET" not in out


async def test_a_dry_run_prices_its_tokens(tmp_path, monkeypatch):
    """Issue 46: the plan's tokens at a price file's prices, by hand: generator ($1 in / $2 out per 1M) for
    the entry calls (x max_retries + 1 with every retry) and screening, the same model as verifier for the
    definitions; at batch prices half of it."""
    from fbagent.lexicon.importer import import_embedded

    prices = tmp_path / "prices.toml"
    prices.write_text('[openai]\nbatch_discount = 0.5\n[openai.models]\n"stub-model" = { input = 1.0, output = 2.0 }\n')
    monkeypatch.setenv("FBAGENT_PRICES", str(prices))
    import_embedded(open_db(tmp_path / "fb.db"))
    with OpenAIStub(FrameResponder()) as stub:
        summary, text = await run(tmp_path / "fb.db", options(stub, pairs=3, screen=False, dry_run=True, max_retries=2))
    plan = summary.plan
    total = (plan["input_tokens"] * 1.0 + plan["output_tokens"] * 2.0) / 1e6
    assert plan["cost_usd"] == pytest.approx(total) and plan["cost_usd_batch"] == pytest.approx(total / 2)
    # with every retry (max_retries 2) the generator's base and extension calls count 3 times: 2 x more
    gen_in, gen_out = plan["tokens_by_role"]["generator"]
    assert gen_in > 0 and plan["cost_usd_retries"] == pytest.approx(total + 2 * (gen_in * 1.0 + gen_out * 2.0) / 1e6)
    assert sum(sum(v) for v in plan["tokens_by_role"].values()) == plan["input_tokens"] + plan["output_tokens"]
    assert "no retries / all retries / batch" in text
    prices.write_text("")
    monkeypatch.setenv("FBAGENT_PRICES", str(prices))
    with OpenAIStub(FrameResponder()) as stub:
        unpriced, text = await run(tmp_path / "fb.db", options(stub, pairs=3, screen=False, dry_run=True))
    assert unpriced.plan["cost_usd"] is None and unpriced.plan["price_missing"] == ["openai:stub-model"]
    assert "unknown: no price for openai:stub-model" in text
