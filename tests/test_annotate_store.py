"""Assignment, task building, answers with history, revisions: the store side of `fbagent annotate`."""

from __future__ import annotations

import pytest
from factories import make_db

from fbagent.errors import FbagentError
from fbagent.store import annotations as ann
from fbagent.store.revisions import (
    effective_item,
    find_verb_span,
    save_revision,
    set_unfixable,
    unfixable_ids,
)
from fbagent.tui.scales import BINARY, THREE_LEVEL, scale_for
from fbagent.tui.session import Selection, ValidateSession
from fbagent.validation.assignment import (
    PAIRS,
    Split,
    build_tasks,
    gold_label,
    parse_split,
    select_entries,
)


def test_gold_depends_on_shown_order():
    assert gold_label("base", "sentence_a", "sentence_b") == "A"
    assert gold_label("base", "sentence_b", "sentence_a") == "B"
    assert gold_label("extended", "sentence_b_prime", "sentence_a_prime") == "B"
    assert gold_label("extended", "sentence_a_prime", "sentence_b_prime") == "A"
    assert gold_label("both_correct", "sentence_a_prime", "sentence_a") == "both"
    assert gold_label("neither_correct", "sentence_b", "sentence_b_prime") == "neither"


def test_build_tasks_seeded_and_stable():
    ids = [f"r:{i}:0" for i in range(50)]
    a = build_tasks("alice", 7, ids)
    assert a == build_tasks("alice", 7, ids)
    assert len(a) == 200 and {t["pair"] for t in a} == set(PAIRS)
    # another seed: another order; adding entries does not move existing tasks
    assert [t["sort_key"] for t in build_tasks("alice", 8, ids)] != [t["sort_key"] for t in a]
    more = {(t["item_id"], t["pair"]): t for t in build_tasks("alice", 7, [*ids, "r:99:0"])}
    assert all(more[(t["item_id"], t["pair"])] == t for t in a)
    # sentence order is randomized: both orders occur for each pair kind, and gold follows it
    for pair, (first, _, _) in PAIRS.items():
        firsts = {t["shown_first"] for t in a if t["pair"] == pair}
        assert len(firsts) == 2 and first in firsts
    for t in a:
        assert t["gold"] == gold_label(t["pair"], t["shown_first"], t["shown_second"])


def test_split_share_overlap_range():
    ids = [str(i) for i in range(10)]
    # disjoint split: every entry exactly once
    parts = [select_entries(ids, parse_split(None, f"{n}/3", None)) for n in (1, 2, 3)]
    assert parts[0] == ["0", "3", "6", "9"] and sorted(sum(parts, []), key=int) == ids
    # 5 annotators, 3 per entry (the paper's three judgments per entry)
    parts = [select_entries(ids, parse_split(None, f"{n}/5", "3")) for n in range(1, 6)]
    for i in ids:
        assert sum(i in p for p in parts) == 3
    # default: everyone gets everything; --range is a 0-based slice
    assert select_entries(ids, Split()) == ids
    assert select_entries(ids, parse_split("2:5", None, None)) == ["2", "3", "4"]
    assert select_entries(ids, parse_split("8:", "1/2", None)) == ["8"]
    assert parse_split(None, "2/4", "all").overlap is None
    with pytest.raises(FbagentError, match="out of range"):
        parse_split(None, "3/2", None)
    with pytest.raises(FbagentError, match="out of range"):
        parse_split(None, "0/2", None)


def test_save_answer_history_and_resume(tmp_path):
    db = make_db(tmp_path / "a.db", n=2)
    s = ValidateSession.open(db, "alice", Selection())
    assert s.total == 8 and s.index == 0
    t = s.current
    assert s.choose("A") == ["choice"] and s.n_done == 0
    assert s.rate(THREE_LEVEL.by_name("acceptable")) == ["acceptability", "acceptable"] and s.n_done == 1
    assert s.choose("A") == []  # same answer: nothing written, no history
    s.choose("both")
    s.rate(THREE_LEVEL.by_name("natural"))
    hist = [(h["field"], h["old"], h["new"]) for h in ann.task_history(db, t.id)]
    assert hist == [("choice", "A", "both"), ("acceptability", "acceptable", "natural")]
    row = next(db.query("SELECT * FROM annotation_tasks WHERE id = ?", [t.id]))
    assert row["choice"] == "both" and row["correct"] == int(row["gold"] == "both") and row["acceptable"] == 1
    s.next()
    s.skip()  # task 2 skipped
    assert s.index == 2
    tasks = ann.load_queue(db, "alice")
    assert ann.resume_index(tasks) == 2  # first neither done nor skipped
    with pytest.raises(FbagentError, match="already has seed"):
        ann.ensure_annotator(db, "alice", seed=1)


def test_revisions_effective_text_and_unfixable(tmp_path):
    db = make_db(tmp_path / "a.db", n=2)
    assert save_revision(db, "run1:1:0", "sentence_b", "She left the office in a terrible mess.", "lead") is not None
    assert save_revision(db, "run1:1:0", "sentence_b", "She left the office in a terrible mess.", "lead") is None
    save_revision(db, "run1:1:0", "sentence_b", "The party left the office in a mess.", "lead2")
    eff = effective_item(db, "run1:1:0")
    assert eff["sentence_b"] == "The party left the office in a mess."
    assert eff["original"] == {"sentence_b": "She left the office in a mess."} and eff["n_revisions"] == 2
    assert eff["target_spans"]["sentence_b"] == [10, 14]
    olds = [r["old"] for r in db.query("SELECT old FROM item_revisions ORDER BY id")]
    assert olds == ["She left the office in a mess.", "She left the office in a terrible mess."]
    set_unfixable(db, "run1:2:0", True, "lead")
    assert unfixable_ids(db) == {"run1:2:0"}
    set_unfixable(db, "run1:2:0", False, "lead")
    assert unfixable_ids(db) == set()
    with pytest.raises(ValueError):
        save_revision(db, "run1:1:0", "frame_a", "x", "lead")


def test_find_verb_span():
    assert find_verb_span("She left early.", "left", "leave") == (4, 8)
    assert find_verb_span("He is leaving now.", "left", "leave") == (6, 13)  # lemminflect form
    assert find_verb_span("彼は家を出た", "出た", None) == (4, 6)  # no spaces: substring
    assert find_verb_span("Leftovers are left.", "left", None) == (14, 18)  # whole word first
    assert find_verb_span("nothing here", "left", "leave") is None


def test_scales():
    assert scale_for("en") is THREE_LEVEL and scale_for("en-GB") is THREE_LEVEL
    assert scale_for("ja") is BINARY and scale_for(None) is BINARY
    assert [lv.positive for lv in THREE_LEVEL.levels] == [False, False, True]
    # issue 10: the binary scale has its own levels (Unnatural / Natural) on keys with the same
    # binarized meaning as on the English scale (n positive, u negative); `a` is English only
    assert BINARY.by_key("n").positive and not BINARY.by_key("u").positive and BINARY.by_key("a") is None
    assert BINARY.by_name("acceptable") is BINARY.by_key("n")  # the pre-schema-4 name of the positive level


def test_pairs_with_missing_sentences_are_not_built(tmp_path):
    db = make_db(tmp_path / "a.db", n=2, statuses=("verified", "rejected"))
    db.execute("UPDATE items SET sentence_a_prime = NULL, sentence_b_prime = NULL WHERE id = 'run1:2:0'")
    db.conn.commit()
    s = ValidateSession.open(db, "alice", Selection(statuses=("verified", "rejected")))
    pairs = sorted(t.pair for t in s.tasks if t.item_id == "run1:2:0")
    assert pairs == ["base"] and s.total == 5
    db.execute("UPDATE items SET sentence_b = NULL WHERE id = 'run1:2:0'")  # now no pair is complete
    db.conn.commit()
    with pytest.raises(FbagentError, match="no complete sentence pair"):
        ValidateSession.open(db, "bob", Selection(statuses=("rejected",)))
