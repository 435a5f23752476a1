"""`lexicon add`'s note and `pairs select` group verb LUs the same way: `sleep.v` (Sleep) and
`sleep (together/with).v` (Sexual_activity) are one verb in two frames, so the import does not say
"no verb lexical unit evokes two or more frames" for a lexicon in which `pairs select` finds that pair."""

from __future__ import annotations

from fbagent.framenet.lu_names import group_lemma
from fbagent.framenet.model import LexicalUnit, LexiconData


def lexicon(*lus: tuple[str, str, str]) -> LexiconData:
    return LexiconData(frames=[], relations=[], source_hash="x",
                       lexical_units=[LexicalUnit(name=name, lemma=lemma, pos="V", frame=frame)
                                      for name, lemma, frame in lus])


def test_a_parenthesised_variant_is_the_same_verb():
    data = lexicon(("sleep.v", "sleep", "Sleep"), ("sleep (together/with).v", "sleep (together/with)", "Sexual_activity"))
    assert group_lemma("sleep (together/with)") == group_lemma("sleep") == "sleep"
    assert data.n_polysemous_verbs == 1


def test_one_frame_per_verb_is_not_polysemous():
    data = lexicon(("sleep.v", "sleep", "Sleep"), ("sleep (together/with).v", "sleep (together/with)", "Sleep"),
                   ("run.v", "run", "Self_motion"))
    assert data.n_polysemous_verbs == 0


def test_the_import_note_agrees_with_pairs_select(tmp_path):
    import json

    from typer.testing import CliRunner

    from fbagent.cli import app

    path = tmp_path / "fn.jsonl"
    frames = [
        {"frame": "Sleep", "definition": "A Sleeper sleeps.", "frame_elements": [{"name": "Sleeper", "core_type": "Core"}],
         "examples": ["She <t>slept</t> well."], "lexical_units": [{"name": "sleep.v", "definition": "rest in sleep"}]},
        {"frame": "Sexual_activity", "definition": "Partners have sex.",
         "frame_elements": [{"name": "Partner_1", "core_type": "Core"}], "examples": ["They <t>slept</t> together."],
         "lexical_units": [{"name": "sleep (together/with).v", "definition": "have sex with"}]},
    ]
    path.write_text("".join(json.dumps(f) + "\n" for f in frames), encoding="utf-8")
    db = str(tmp_path / "fb.db")
    added = CliRunner().invoke(app, ["lexicon", "add", str(path), "--lang", "en", "--name", "fn-sleep", "--db", db])
    assert added.exit_code == 0, added.output
    assert "evokes two or more frames" not in added.output
    picked = CliRunner().invoke(app, ["pairs", "select", "--pairs", "5", "--lexicon", "fn-sleep", "--json", "--db", db])
    assert picked.exit_code == 0, picked.output
    pairs = json.loads(picked.stdout)["pairs"]
    assert [(p["verb"], {p["frame_a"], p["frame_b"]}) for p in pairs] == [("sleep", {"Sleep", "Sexual_activity"})]
