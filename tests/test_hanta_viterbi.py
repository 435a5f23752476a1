"""fbagent's search over HanTa's model (fbagent.checks.hanta_viterbi) gives HanTa's own tags, word for word.

Real HanTa models (German, Dutch, English), every sentence of the verb test sets in those languages, the
same sentences upper-cased, single words and shuffled word sequences (unknown words, odd orders: where
equal scores and the beam matter), each case-sensitive and not.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from HanTa import HanoverTagger

from fbagent.checks import analysers, hanta_viterbi

DATA = Path(__file__).parent / "data"
WORD = re.compile(r"\w+|[^\w\s]")


def _sentences(lang: str) -> list[list[str]]:
    out = []
    for path in sorted(DATA.glob("verb_sentences*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row["lang"] == lang:
                    out.append(WORD.findall(row["sentence"]))
    return out


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_the_same_tags_as_hantas_own_search(lang: str) -> None:
    tagger = analysers.hanta_tagger(lang)
    assert isinstance(tagger.tag_sent_viterbi, hanta_viterbi.SentenceViterbi)
    sentences = _sentences(lang)
    assert len(sentences) >= 40, f"too few {lang} sentences in tests/data to compare on"
    rng = random.Random(7)
    words = [w for s in sentences for w in s]
    cases = (sentences + [[w.upper() for w in s] for s in sentences[:60]] + [[w] for w in words[:150]]
             + [rng.sample(words, rng.randint(2, 30)) for _ in range(200)]
             + [[f"zq{rng.randint(0, 999)}x" for _ in range(rng.randint(1, 6))] for _ in range(20)])   # unknown words
    for case in cases:
        for casesensitive in (True, False):
            hanta = HanoverTagger.HanoverTagger.tag_sent_viterbi(tagger, list(case), casesensitive)
            ours = tagger.tag_sent_viterbi(list(case), casesensitive)
            assert ours == hanta, (case, casesensitive)
    # and through tag_sent, as fbagent calls it: lemmas and tag names equal too
    for case in sentences[:50]:
        assert tagger.tag_sent(list(case), taglevel=1) == [
            (case[i], tagger._analyze(case[i], t, taglevel=1)[0], tagger.int2tag[t])
            for i, t in enumerate(HanoverTagger.HanoverTagger.tag_sent_viterbi(tagger, list(case), True))]


def test_installing_twice_keeps_one_search() -> None:
    tagger = analysers.hanta_tagger("en")
    search = tagger.tag_sent_viterbi
    assert hanta_viterbi.install(tagger) is tagger
    assert tagger.tag_sent_viterbi is search
    assert type(tagger).tag_sent_viterbi is HanoverTagger.HanoverTagger.tag_sent_viterbi   # the class is untouched
