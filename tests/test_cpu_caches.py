"""The per-entry caches and fast paths of the checks return what the uncached code returns.

- :func:`fbagent.checks.self_check.levenshtein` (common prefix/suffix dropped, unrolled minimum) against the
  textbook two-row programme on random sequences;
- :func:`fbagent.checks.verb_match.find_verb` and :func:`fbagent.checks.self_check.self_check` /
  :func:`fbagent.checks.self_check.extension_check` with warm caches (the per-sentence analysis, the tokens,
  the lemma parts, the question regexes) against the same calls after
  :func:`fbagent.checks.verb_match.clear_caches`, in several languages;
- :func:`fbagent.checks.lemmas.token_lemmas` (cached per word) against the lemma sources asked directly.
"""

from __future__ import annotations

import random
from dataclasses import asdict

from fbagent.checks import lemmas, verb_match
from fbagent.checks import self_check as checks
from fbagent.checks.verb_match import find_verb, tokenize


def _reference_levenshtein(a: list[str], b: list[str]) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def test_levenshtein_equals_the_textbook_programme():
    rng = random.Random(7)
    words = ["a", "b", "c", "d", "<V>"]
    for _ in range(3000):
        a = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        b = [rng.choice(words) for _ in range(rng.randint(0, 9))]
        if rng.random() < 0.5:  # shared prefixes and suffixes, as in a base pair
            pre, post = [rng.choice(words) for _ in range(3)], [rng.choice(words) for _ in range(2)]
            a, b = pre + a + post, pre + b + post
        assert checks.levenshtein(a, b) == _reference_levenshtein(a, b), (a, b)
        assert checks.levenshtein(tuple(a), b) == _reference_levenshtein(a, b)


CASES = [
    ("She left the box near the door before noon.", "leave", "en", "left"),
    ("They leave the departing box near the placing today.", "leave", "en", None),
    ("He will take off his coat, then take the train.", "take off", "en", "take"),
    ("The dispute led to a strike.", "lead (to)", "en", "led"),
    ("Hij vat het verhaal samen.", "samenvatten", "nl", "vat"),
    ("Er stand früh auf, und dann ging er.", "aufstehen", "de", "stand"),
    ("Il est parti hier soir.", "partir", "fr", "parti"),
    ("Mikelek lana uzten du.", "utzi", "eu", "uzten"),
    ("彼は昨日東京へ行った。", "行く", "ja", "行った"),
]


def _all_matches() -> list[dict]:
    out = []
    for sentence, lemma, lang, form in CASES:
        for vf in (form, None):
            out.append(asdict(find_verb(sentence, lemma, lang, vf)))
        out.append([asdict(t) for t in tokenize(sentence, lang)])
        out.append([asdict(t) for t in verb_match.sentence_tokens(sentence, lang)])
    return out


def test_find_verb_with_warm_caches_equals_a_cold_run():
    verb_match.clear_caches()
    cold = _all_matches()
    warm = _all_matches()             # every sentence analysed before: served from the caches
    verb_match.clear_caches()
    assert warm == cold == _all_matches()
    # the same sentence searched for another lemma reuses its analysis but not its answer
    assert find_verb(CASES[0][0], "put", "en").found is False
    assert find_verb(CASES[0][0], "leave", "en").found is True


def _entry_checks() -> list[dict]:
    base = {"condition": "something was done to a box",
            "question": "Which sentence implies that something was done to a box?",
            "sentence_a": "They leave the departing box near the placing today.",
            "sentence_b": "They leave the placing box near the departing tonight.",
            "verb_form_a": "leave", "verb_form_b": "leave"}
    ext = "Last winter several departing workers wanted to leave a box near pier 17."
    out = [checks.self_check(base, lemma="leave", lang="en", frame_names=["Departing", "Placing"],
                             fe_names=["Theme", "Source", "Goal"], similarity_threshold=0.5)]
    bad = dict(base, question="Which sentence shows the Theme of Departing?")
    out.append(checks.self_check(bad, lemma="leave", lang="en", frame_names=["Departing", "Placing"],
                                 fe_names=["Theme"], similarity_threshold=0.5))
    for side in ("sentence_a", "sentence_b"):
        out.append(checks.extension_check(ext, base[side], key=side + "_prime", lemma="leave", lang="en",
                                          verb_form="leave", near_copy_threshold=0.7,
                                          others=[base["sentence_a"], base["sentence_b"]]))
    out.append(checks.check_question("Quelle phrase implique que la boîte est partie ?", "fr", ["Departing"], []))
    out.append(checks.lexical_similarity("Hij vat het verhaal samen.", "Zij vat de film samen.", "samenvatten", "nl"))
    return out


def test_entry_checks_with_warm_caches_equal_a_cold_run():
    verb_match.clear_caches()
    checks.question_pattern.cache_clear()
    cold = _entry_checks()
    warm = _entry_checks()
    assert warm == cold
    assert cold[1]["passed"] is False and any("frame element 'Theme'" in r for r in cold[1]["reasons"])


def test_token_lemmas_cached_equals_the_sources_asked_directly():
    lemmas.clear_caches()
    for token, lang in [("left", "en"), ("went", "en"), ("parti", "fr"), ("ging", "de"), ("uzten", "eu")]:
        code = lemmas.base_lang(lang)
        direct = {token}
        for name in lemmas.lemma_sources(code):
            if name != "hanta":
                direct |= lemmas.SOURCES[name]([token], code)[0]
        assert lemmas.token_lemmas(token, lang) == frozenset(direct)
        assert lemmas.token_lemmas(token, lang) == frozenset(direct)   # now from the cache


def test_memoised_hanta_tags_and_lemmas_equal_a_fresh_tagger():
    """HanTa's word steps memoised (:func:`fbagent.checks.analysers.memoise_words`: ``analyze_forward``,
    ``_tag_word``, ``_analyze``) tag and lemmatise every sentence as HanTa itself does, also when the memo
    answers a second time and when a word comes back with another case or position."""
    from HanTa import HanoverTagger as ht

    from fbagent.checks import analysers

    sentences = {
        "en": [["The", "old", "man", "left", "the", "room", "quickly", "."],
               ["Left", "alone", ",", "she", "was", "leaving", "the", "flustered", "zorblax", "behind", "."],
               ["They", "have", "left", "and", "the", "man", "is", "old", "."]],
        "de": [["Der", "Hund", "lief", "schnell", "über", "die", "Straße", "."],
               ["Schnell", "lief", "der", "Hund", "zur", "Haustür", "und", "bellte", "."]],
        "nl": [["De", "kinderen", "speelden", "in", "de", "tuin", "."]],
    }
    for code, sents in sentences.items():
        fresh = ht.HanoverTagger(analysers.HANTA_MODELS[code])
        memoised = analysers.memoise_words(ht.HanoverTagger(analysers.HANTA_MODELS[code]))
        assert hasattr(memoised._tag_word, "cache_clear")
        for _ in range(2):   # the second round is answered by the memo
            for sent in sents:
                for level in (1, 3):
                    assert memoised.tag_sent(list(sent), taglevel=level) == fresh.tag_sent(list(sent), taglevel=level)
                for word in sent:
                    assert memoised.tag_word(word) == fresh.tag_word(word)
                    assert memoised.analyze(word) == fresh.analyze(word)
