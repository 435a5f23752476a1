"""Issue 45: a decision belongs to the text it was taken on. A revision (revise mode) after the lead's decision sets
it aside (the judgments of the new text decide, report and exports say which decision and why); reverting the
text brings it back; deciding again on the new text applies; older databases (schema 12) upgrade with each
decision tied to the text of its time."""

from __future__ import annotations

import json
import sqlite3

import jsonschema
from factories import make_db
from test_validation import E, scripted_answers

from fbagent.publish.jsonl import SCHEMA_PATH, export_records
from fbagent.store import adjudications, open_db
from fbagent.store.revisions import save_revision
from fbagent.tui.adjudicate_session import AdjudicateSession
from fbagent.tui.session import Selection
from fbagent.validation.aggregate import report, score_entries, tables

STATUSES = ("verified", "flagged", "verified", "flagged", "verified", "rejected")
NEW_A_PRIME = "After the long argument, the guests left the house quickly."


def three(path):
    db = make_db(path, n=6, statuses=STATUSES)
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    return db


def test_a_revision_sets_the_decision_aside_until_reverted_or_decided_again(tmp_path):
    db = three(tmp_path / "v.db")
    # SCRIPT: E3 has 1 correct, 2 acceptable of 3: the votes drop it; the lead keeps it
    adjudications.record(db, E[2], "lead", "keep", "the wrong votes misread S_B", {})
    e3 = score_entries(db, E)[E[2]]
    assert (e3.kept, e3.outcome, e3.set_aside) == (True, "adjudicated keep", None)
    original = next(db.query("SELECT sentence_a_prime FROM items WHERE id = ?", [E[2]]))["sentence_a_prime"]

    save_revision(db, E[2], "sentence_a_prime", NEW_A_PRIME, "lead")      # what revise mode stores
    e3 = score_entries(db, E)[E[2]]
    # the decision no longer applies; S_A' is in the extended and the both-correct pair: those judgments are
    # stale, nobody has an entry score of the new text, so the votes (none) drop it
    assert e3.adjudication is None and e3.outcome == "votes" and e3.kept is False and not e3.scores
    assert e3.set_aside is not None and e3.set_aside["decision"] == "keep"
    assert e3.set_aside["revised"] == ["sentence_a_prime"]
    assert e3.set_aside["why"].startswith("the entry was revised after the decision (sentence_a_prime)")

    rep = report(db)
    assert rep["adjudication"]["entries"] == []
    assert [(r["entry"], r["decision"], r["revised"], r["kept"]) for r in rep["adjudication"]["set_aside"]] == [
        (E[2], "keep", ["sentence_a_prime"], False)]
    titles = [t for t, _, _ in tables(rep)]
    assert any(t.startswith("Adjudications set aside") for t in titles)
    # the export says it too (and stays valid under its JSON Schema)
    rec = {r["id"]: r for r in export_records(db)}[E[2]]
    assert rec["human"]["adjudication"] is None and rec["human"]["outcome"] == "votes"
    assert rec["human"]["adjudication_set_aside"] == {
        "decision": "keep", "reason": "the wrong votes misread S_B", "revised": ["sentence_a_prime"],
        "why": e3.set_aside["why"]}
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    for r in export_records(db):
        validator.validate(r)
    # the lead sees it again in adjudicate mode, marked
    session = AdjudicateSession.open(db, "lead", Selection())
    assert E[2] in session.item_ids and session.entries[E[2]].set_aside is not None

    # reverting the text brings the decision back (its text again), as judgments come back
    save_revision(db, E[2], "sentence_a_prime", original, "lead")
    e3 = score_entries(db, E)[E[2]]
    assert (e3.kept, e3.outcome, e3.set_aside) == (True, "adjudicated keep", None)

    # revised again, the lead decides on the new text: that decision applies
    save_revision(db, E[2], "sentence_a_prime", NEW_A_PRIME, "lead")
    assert score_entries(db, E)[E[2]].set_aside is not None
    adjudications.record(db, E[2], "lead", "drop", "the revision made it worse", {})
    e3 = score_entries(db, E)[E[2]]
    assert (e3.kept, e3.outcome, e3.set_aside) == (False, "adjudicated drop", None)
    # entries nobody revised keep their decisions and the vote filter as before
    others = score_entries(db, E)
    assert [others[e].outcome for e in (E[0], E[1], E[3], E[4])] == ["votes"] * 4


def test_a_revised_second_round_is_no_longer_handed_out(tmp_path):
    db = three(tmp_path / "v.db")
    adjudications.record(db, E[4], "lead", "second_round", "split vote", {})
    assert adjudications.second_round_for(db, "dave") == [E[4]]
    save_revision(db, E[4], "sentence_b", "Tom ran the bakery in Boston for years.", "lead")
    assert adjudications.second_round_for(db, "dave") == []
    e5 = score_entries(db, E)[E[4]]
    assert e5.outcome == "votes" and e5.set_aside["decision"] == "second_round"
    assert e5.set_aside["revised"] == ["sentence_b"]


def test_schema_12_decisions_upgrade_tied_to_the_text_of_their_time(tmp_path):
    path = tmp_path / "old.db"
    db = three(path)
    adjudications.record(db, E[2], "lead", "keep", "fine", {})          # E3: revised after the decision
    adjudications.record(db, E[1], "lead", "drop", "weak", {})          # E2: revised before the decision
    save_revision(db, E[2], "sentence_a_prime", NEW_A_PRIME, "lead")
    save_revision(db, E[1], "sentence_b", "Tom ran the bakery in Boston for years.", "lead")
    # the times as they happened: E2's revision an hour before its decision, E3's an hour after
    db.execute("UPDATE adjudications SET decided_at = '2026-03-01T12:00:00.000+00:00'")
    db.execute("UPDATE item_revisions SET created_at = CASE item_id WHEN ? THEN '2026-03-01T13:00:00.000+00:00' "
               "ELSE '2026-03-01T11:00:00.000+00:00' END", [E[2]])
    db.conn.commit()
    db.conn.close()
    # back to schema 12: the table without its fingerprint column
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE adjudications DROP COLUMN fingerprint")
    conn.execute("PRAGMA user_version = 12")
    conn.commit()
    conn.close()

    notes: list[dict] = []
    db = open_db(path, on_upgrade=notes.append)
    assert notes and notes[0]["from"] == 12 and notes[0]["to"] == 14
    assert all(r["fingerprint"] for r in db.query("SELECT fingerprint FROM adjudications"))
    entries = score_entries(db, E)
    assert entries[E[2]].set_aside is not None and entries[E[2]].set_aside["revised"] == ["sentence_a_prime"]
    assert entries[E[1]].set_aside is None and entries[E[1]].outcome == "adjudicated drop"


def test_a_second_round_task_in_the_decisions_millisecond_counts_as_after(tmp_path):
    """Timestamps have milliseconds: dave's task created in the same millisecond as the decision is his second
    round (handed out and counted; before, it was handed out but not counted: a flaky full-suite failure)."""
    from test_export_anonymised import judge_correct

    db = three(tmp_path / "v.db")
    adjudications.record(db, E[4], "lead", "second_round", "split vote", {})
    judge_correct(db, "dave", (E[4],))
    created = next(db.query("SELECT MIN(created_at) AS t FROM annotation_tasks WHERE annotator = 'dave'"))["t"]
    db.execute("UPDATE adjudications SET decided_at = ?", [created])
    db.conn.commit()
    e5 = score_entries(db, E)[E[4]]
    assert (e5.second_round, e5.outcome, e5.kept) == (["dave"], "second round", True)
    assert adjudications.second_round_for(db, "dave") == [E[4]] and adjudications.second_round_for(db, "alice") == []
