"""The real FrameNet copies in ../shared/data (skipped with a reason when absent)."""

from __future__ import annotations

import pytest

from fbagent.lexicon.importer import import_lexicon
from fbagent.store.lexicon import frame_context, frame_reference_texts, lexicon_stats

pytestmark = [pytest.mark.realdata, pytest.mark.slow]


def test_english_framenet_counts(en_db):
    db, result = en_db
    assert result.status == "imported"
    # issue 12: the copy in ../shared/data ships lu/ files only for the verbs that evoke 2+ frames, so the
    # LUs that luIndex.xml marks hasAnnotation="true" without a file are named in one warning.
    assert len(result.warnings) == 1 and "5,963 LU file(s) missing" in result.warnings[0]
    assert "lu7787.xml (AK-47.n)" in result.warnings[0]
    stats = lexicon_stats(db, result.lexicon_id)
    assert stats["frames"] == 1019
    assert stats["lexical_units"] == 11829
    # issue 12: verbs grouped with parentheticals set aside and _ as a space (945 / 2,526 by raw lemma)
    assert stats["verbs"] == 3047
    assert stats["polysemous_verbs"] == 957
    assert stats["candidate_pairs"] == 2656
    assert stats["frame_relations"] == 1676
    # issue 19: 105 exemplar sentences that an LU file holds twice (same text, same target; nltk #1370)
    # are imported once, and a note says so (36,263 rows before)
    assert stats["exemplars"] == 36158
    assert any("105 exemplar sentence(s) repeated" in n for n in result.notes), result.notes
    assert stats["lus_by_pos"]["V"] == 4605 and stats["lus_by_pos"]["N"] == 4743


def test_english_frame_context_and_spans(en_db):
    db, result = en_db
    ctx = frame_context(db, result.lexicon_id, "Departing", "leave", max_examples=3)
    assert ctx["lu"] == "leave.v" and ctx["lu_definition"] == "go away from"
    assert ctx["definition"].startswith("An object (the Theme) moves away from a Source.")
    assert [fe["name"] for fe in ctx["core_fes"]] == ["Theme", "Source"]
    assert all(e["source"] == "exemplar" for e in ctx["examples"])
    for e in ctx["examples"]:
        assert e["text"][e["target_start"]:e["target_end"]].lower() in {"left", "leave", "leaves", "leaving"}
    # every stored span lies inside its sentence
    bad = db.execute(
        """SELECT COUNT(*) FROM exemplars WHERE target_start IS NOT NULL
           AND (target_start < 0 OR target_end > LENGTH(text) OR target_end <= target_start)"""
    ).fetchone()[0]
    assert bad == 0
    assert frame_reference_texts(db, result.lexicon_id, "Quitting", "leave")[1] == "quit a job"


def test_english_reimport_is_unchanged(en_db, shared_data):
    db, result = en_db
    again = import_lexicon(db, shared_data / "framenet-en-1.5", lang="en")
    assert again.status == "unchanged" and again.lexicon_id == result.lexicon_id


def test_french_asfalda_counts_and_quirks(fr_db):
    db, result = fr_db
    stats = lexicon_stats(db, result.lexicon_id)
    assert stats["frames"] == 121
    assert stats["polysemous_verbs"] == 641
    assert stats["frame_relations"] == 0           # no frRelation.xml
    assert stats["lexical_units"] == 3848          # puisque.conj points to a frame without a file
    assert stats["exemplars"] > 25000
    assert any("no frRelation.xml" in n for n in result.notes)
    assert any("puisque.conj" in w and "FR_Deduction" in w for w in result.warnings)
    ctx = frame_context(db, result.lexicon_id, "Adducing", "citer")
    assert ctx["lu"] == "citer.v" and ctx["examples"]
    assert "ASFALDA" not in " ".join(e["text"] for e in ctx["examples"])
