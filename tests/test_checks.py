"""Self-checks of generated items (fbagent.checks.self_check): lemma match, similarity formula, question form."""

from __future__ import annotations

import pytest

from fbagent.checks import self_check as checks


def test_levenshtein_and_normalized_similarity():
    assert checks.levenshtein(["a", "b", "c"], ["a", "x", "c"]) == 1
    assert checks.levenshtein([], ["a", "b"]) == 2
    assert checks.normalized_similarity(["a", "b", "c", "d"], ["a", "b", "x", "y"]) == 0.5
    assert checks.normalized_similarity([], []) == 1.0


def test_english_verb_found_by_lemma_not_substring():
    m = checks.find_verb("She left the room quickly.", "leave", "en")
    assert m.found and m.span == (4, 8) and m.surface == "left"
    # 'leaves' as a substring of another word does not count; 'sleeve' is not 'leave'
    assert not checks.find_verb("The sleeve was torn.", "leave", "en").found
    assert checks.find_verb("He went home.", "go", "en").surface == "went"


def test_multiword_lemma_needs_every_word():
    m = checks.find_verb("He took his coat off.", "take off", "en")
    assert m.found and m.mask == [(3, 7), (17, 20)]
    assert not checks.find_verb("He took his coat.", "take off", "en").found


def test_french_lemma_match_with_simplemma():
    m = checks.find_verb("Nous partirons demain matin.", "partir", "fr")
    assert m.found and m.surface == "partirons"
    assert not checks.find_verb("Nous restons ici.", "partir", "fr").found


def test_japanese_without_spaces_uses_words():
    # issue 29: fugashi's words, not characters (every kana would otherwise count)
    pytest.importorskip("fugashi", reason="fugashi not installed (pip install 'fbagent[ja]')")
    m = checks.find_verb("彼は部屋を出た。", "出る", "ja", "出た")
    assert m.found and m.surface == "出た"
    units = checks.masked_units("彼は部屋を出た。", "ja", m)
    assert units == ["彼", "は", "部屋", "を", checks.MASK]
    # 5 units vs 5 units, 1 substitution (部屋 -> 会社), verb masked in both: 1 - 1/5
    assert checks.lexical_similarity("彼は部屋を出た。", "彼は会社を出た。", "出る", "ja") == pytest.approx(1 - 1 / 5)


def test_lexical_similarity_masks_the_verb():
    # [she, <V>, the, room] vs [she, <V>, her, job]: 2 substitutions / 4 units
    assert checks.lexical_similarity("She left the room.", "She leaves her job.", "leave", "en") == 0.5
    assert checks.lexical_similarity("She left the room.", "She leaves the room.", "leave", "en") == 1.0


def test_question_pattern_english_and_four_choice():
    q = checks.check_question("Which sentence implies that someone moved away?", "en", ["Departing"], ["Theme"])
    assert q["passed"] and q["condition"] == "someone moved away"
    assert q["question_four_choice"] == "Select all sentences where someone moved away."
    echo = checks.check_question("Which sentence implies that [condition]?", "en", [], [])
    assert not echo["passed"] and "placeholder" in echo["reasons"][0]
    bad = checks.check_question("Does the Theme leave in the Departing sense?", "en", ["Departing"], ["Theme"])
    assert not bad["passed"]
    assert any("pattern" in r for r in bad["reasons"])
    assert any("frame 'Departing'" in r for r in bad["reasons"])
    assert any("frame element 'Theme'" in r for r in bad["reasons"])


def test_question_pattern_japanese_french_and_generic():
    ja = checks.check_question("部屋から離れたのはどちらの文ですか？", "ja", [], [])
    assert ja["passed"] and ja["question_four_choice"] == "部屋から離れた文をすべて選んでください。"
    fr = checks.check_question("Quelle phrase implique qu'il a quitté un lieu ?", "fr", [], [])
    assert fr["passed"] and fr["condition"] == "il a quitté un lieu"
    de = checks.check_question("Welcher Satz impliziert, dass jemand wegging?", "de", [], [])
    assert de["passed"] and de["question_four_choice"] is None
    assert not checks.check_question("Welcher Satz", "de", [], [])["passed"]


def test_self_check_passes_and_fails_with_reasons():
    good = {"condition": "someone moved", "question": "Which sentence implies that someone moved?",
            "sentence_a": "She left the room.", "sentence_b": "She left her job.",
            "verb_form_a": "left", "verb_form_b": "left"}
    r = checks.self_check(good, lemma="leave", lang="en", frame_names=["Departing", "Quitting"], fe_names=["Theme"])
    assert r["passed"], r["reasons"]
    assert r["lexical_similarity"] == 0.5
    assert r["target_spans"] == {"sentence_a": [4, 8], "sentence_b": [4, 8]}
    verbless = dict(good, sentence_b="She quit her job.")
    r = checks.self_check(verbless, lemma="leave", lang="en", frame_names=[], fe_names=[])
    assert not r["passed"]
    assert "sentence_b does not contain the verb 'leave' (any inflected form)" in r["reasons"]
    same = dict(good, sentence_b="She left the room!")
    assert "sentence_a and sentence_b are the same sentence" in checks.self_check(
        same, lemma="leave", lang="en", frame_names=[], fe_names=[])["reasons"]
    far = dict(good, sentence_b="Yesterday my old friend left his well-paid position.")
    r = checks.self_check(far, lemma="leave", lang="en", frame_names=[], fe_names=[], similarity_threshold=0.5)
    assert not r["checks"]["lexical_similarity"]["passed"]


def test_extension_check_near_copy_and_verb():
    ok = checks.extension_check("The train left the station at noon.", "She left the room.", key="sentence_a_prime",
                                lemma="leave", lang="en")
    assert ok["passed"] and ok["target_span"] == [10, 14]
    copy = checks.extension_check("She left the big room.", "She left the room.", key="sentence_a_prime",
                                  lemma="leave", lang="en")
    assert not copy["passed"] and "near-copy" in copy["reasons"][0]
    assert copy["similarity_to_base"] == pytest.approx(0.8)
    noverb = checks.extension_check("The train departed at noon.", "She left the room.", key="sentence_a_prime",
                                    lemma="leave", lang="en")
    assert not noverb["passed"] and "does not contain the verb" in noverb["reasons"][0]


def test_japanese_verb_final_and_perfective():
    base = {"question": "部屋から離れたのはどちらの文ですか？", "sentence_a": "彼は部屋を出た。", "sentence_b": "彼は会社を出た。",
            "verb_form_a": "出た", "verb_form_b": "出た"}
    ok = checks.self_check(base, lemma="出る", lang="ja", frame_names=[], fe_names=[], similarity_threshold=0.5)
    assert ok["passed"], ok["reasons"]
    bad = dict(base, sentence_b="彼は出る会社を見た。")
    r = checks.self_check(bad, lemma="出る", lang="ja", frame_names=[], fe_names=[], similarity_threshold=0.0)
    assert "sentence_b: the verb must come at the end of the sentence" in r["reasons"]
    present = dict(base, sentence_b="彼は会社を出る。", verb_form_b="出る")
    r = checks.self_check(present, lemma="出る", lang="ja", frame_names=[], fe_names=[], similarity_threshold=0.0)
    assert any("perfective" in x for x in r["reasons"])
