"""Korean homographs of two predicates that Kiwi's best analysis alone does not tell apart (issue 41, builder 41g).

:func:`fbagent.checks.verb_match_ko.find_verb_ko` takes Kiwi's best analysis of a sentence; these rules weigh it
against the predicate's other reading by the particles around it (the valency of each verb) and by Kiwi's own
scores of its next-best analyses:

- **ㄷ-irregular verbs and ㄹ verbs** (Sohn 1999, *The Korean Language*, § 6.2.2 on ㄷ-irregular stems, § 8.2 on
  valency): before a vowel ending the ㄷ of 걷다 (walk), 묻다 (ask), 듣다 (hear) turns into ㄹ, so 걸었다, 물었다,
  들었다 are also the pasts of 걸다 (hang), 물다 (bite), 들다 (lift). A place with bare 에 together with an object
  (벽에 사진을 걸었다) is 걸다's frame, never 걷다's (which takes a path object or 에서); a dative (에게, 께, 한테)
  is 묻다's (ask someone), which 물다 (bite) never takes; with no particle to decide, the ㄹ verb's reading within
  :data:`KO_SCORE_MARGIN` of Kiwi's best (Kiwi hesitates: 개가 기사를 물었다) is taken, since Kiwi's language model
  prefers the frequent 묻다 wherever it cannot tell (:func:`d_l_homograph`, :func:`d_l_partner`);
- **a verb and an adjective spelled alike** (쓰다 write / 쓰다 bitter): where Kiwi reads the sentence's morpheme as
  an adjective (``VA``) but the lemma alone as a verb (``VV``), it is the adjective (이 약은 너무 써서)
  (:func:`adjective_homograph`).
"""

from __future__ import annotations

from functools import lru_cache

from fbagent.checks.analysers import kiwi_analyser, kiwi_morphemes

Morpheme = tuple[int, int, str, str]

#: ㄷ-irregular stems and the ㄹ stem their forms before a vowel ending are spelled as
KO_D_L_PAIRS = {"걷": "걸", "묻": "물", "듣": "들"}
#: the dative particles (Sohn 1999, § 7.2.1): 묻다 (ask) takes the person asked in the dative
KO_DATIVES = frozenset({"에게", "께", "한테", "더러", "에게서"})
#: how far (Kiwi's log-score) an analysis with the other reading may stand below the best and still count as Kiwi
#: hesitating between the two
KO_SCORE_MARGIN = 3.0


def _clause_before(morphemes: tuple[Morpheme, ...], j: int) -> list[Morpheme]:
    """The morphemes before ``j`` back to the last clause-ending (EF) or connective (EC) ending."""
    out: list[Morpheme] = []
    for m in reversed(morphemes[:j]):
        if m[3] in ("EF", "EC", "SF"):
            break
        out.append(m)
    return out


def _frame(morphemes: tuple[Morpheme, ...], j: int) -> str | None:
    """The reading the particles before morpheme ``j`` select: ``"ㄹ"`` for bare 에 + an object (걸다's frame), ``"ㄷ"``
    for a dative (묻다's), None when neither stands in its clause."""
    before = _clause_before(morphemes, j)
    if any(m[3] == "JKB" and m[2] in KO_DATIVES for m in before):
        return "ㄷ"
    if any(m[3] == "JKB" and m[2] == "에" for m in before) and any(m[3] == "JKO" for m in before):
        return "ㄹ"
    return None


@lru_cache(maxsize=1024)
def _hesitates(sentence: str, start: int, other: str) -> bool:
    """Whether one of Kiwi's next analyses of ``sentence``, within :data:`KO_SCORE_MARGIN` of the best, reads the
    morpheme at character ``start`` as the stem ``other``."""
    results = kiwi_analyser().analyze(sentence, top_n=4)
    best = results[0][1]
    return any(score >= best - KO_SCORE_MARGIN and any(t.start == start and t.form == other for t in tokens)
               for tokens, score in results[1:])


def d_l_homograph(sentence: str, morphemes: tuple[Morpheme, ...], j: int, stem: str) -> str | None:
    """Why morpheme ``j``, the ㄷ-irregular ``stem`` (걷, 묻, 듣) as Kiwi reads it, is the ㄹ verb spelled alike here:
    the word spells the ㄹ syllable and the particles select the ㄹ verb's frame, or (묻 / 물) no dative stands in the
    clause and Kiwi hesitates (:func:`_hesitates`). None otherwise."""
    other = KO_D_L_PAIRS.get(stem)
    start = morphemes[j][0]
    if other is None or sentence[start:start + 1] != other[-1]:
        return None
    frame = _frame(morphemes, j)
    if frame == "ㄹ" or frame is None and stem == "묻" and _hesitates(sentence, start, other):
        why = "a place with '에' and an object before it" if frame == "ㄹ" else "no dative before it, and Kiwi weighs both"
        left = sentence.rfind(" ", 0, start) + 1
        word = sentence[left:].split(" ", 1)[0].rstrip(".,!?")
        return f"'{word}' is read as a form of '{other}다' here ({why})"
    return None


def d_l_partner(sentence: str, morphemes: tuple[Morpheme, ...], j: int, stem: str) -> bool:
    """Whether morpheme ``j``, a ㄷ-irregular stem Kiwi reads (걷), is ``stem``, the ㄹ verb spelled alike (걸), by
    :func:`d_l_homograph`'s reasons."""
    form = morphemes[j][2]
    return KO_D_L_PAIRS.get(form) == stem and d_l_homograph(sentence, morphemes, j, form) is not None


@lru_cache(maxsize=1024)
def _lemma_is_verb(stem: str) -> bool:
    """Whether Kiwi reads ``stem`` + 다 alone as a verb (``VV``)."""
    first = kiwi_morphemes(stem + "다")[:1]
    return bool(first) and first[0][2] == stem and first[0][3].split("-")[0] == "VV"


def adjective_homograph(stem: str, tag: str) -> str | None:
    """Why a morpheme ``stem`` Kiwi tags ``tag`` is the adjective spelled as the verb lemma: the tag is ``VA`` and
    the lemma alone is a verb; None otherwise."""
    if tag.split("-")[0] != "VA" or not _lemma_is_verb(stem):
        return None
    return f"'{stem}' is read as the adjective '{stem}다' here, not the verb"
