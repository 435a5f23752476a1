"""The Korean verb check: morphemes from an analyser, never a substring.

Korean (Kiwi, :func:`fbagent.checks.analysers.kiwi_morphemes`): the lemma's stem (the dictionary
form minus 다: 먹다 -> 먹) is found when a morpheme tagged as a verb, auxiliary verb or adjective
(``VV``, ``VX``, ``VA``, irregular stems ``-I``/``-R`` included) has that form, or when the
morphemes before a verb suffix spell it (공부 + 하 for 공부하다); the endings that follow inflect it
(먹었다 = 먹 + 었 + 다, 갔다 = 가 + 었 + 다, 들었어요 = 듣 + 었 + 어요, 만드셨다 = 만들 + 시 + 었 + 다).
A noun sharing the syllables (먹이, 걸음, 가방) is never a verb morpheme.

It returns ``(start, end, surface, note)``: the character span of the whole space-separated word, or None with
``note`` saying what was seen instead.
"""

from __future__ import annotations

from fbagent.checks.analysers import kiwi_morphemes
from fbagent.checks.verb_homographs_ko import adjective_homograph, d_l_homograph, d_l_partner

#: Sejong tags of a Korean predicate stem (irregular markers -I / -R are cut off first)
KO_VERB_TAGS = ("VV", "VX", "VA")
#: Sejong tags of a verb-deriving suffix (공부 + 하, 깨끗 + 하)
KO_SUFFIX_TAGS = ("XSV", "XSA")
#: how many morphemes before a verb suffix may spell the start of the lemma
KO_MAX_PREFIX = 3
#: the passive and causative light verbs of a noun + 하다 verb (교체하다: 교체되다, 교체시키다): the Korean
#: FrameNet annotates them as the 하다 LU (its exemplars of 교체하다, 통제하다, 저장하다 use them)
KO_HADA_VOICES = ("되", "시키")


def _ko_stem(lemma: str) -> str:
    lemma = lemma.replace(" ", "").replace("_", "")
    return lemma[:-1] if lemma.endswith("다") and len(lemma) > 1 else lemma


def find_verb_ko(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first predicate of ``sentence`` whose stem is ``lemma``'s (see the module doc), else a refusal.

    A noun + 하다 lemma is also found as the noun + 되다 (passive) or + 시키다 (causative), as the Korean
    FrameNet annotates them (:data:`KO_HADA_VOICES`), and split by a particle (공부를 했다: :func:`_split_hada`);
    a verb's morphological passive or causative (잡히다, 물리다, 먹이다: :func:`voice_stem`) is the verb; a multi-word lemma's ``_`` is dropped (손에_넣다); a
    word that begins with the stem's spelling where Kiwi reads a verb there counts (해보았지만 for 해보다,
    the 하 + 어 contraction Kiwi splits).

    Returns ``(start, end, surface, "")`` (the whole space-separated word) when found;
    ``(-1, -1, "", note)`` when the stem is seen only as another part of speech; None otherwise.
    """
    stem = _ko_stem(lemma)
    morphemes = kiwi_morphemes(sentence)
    notes: list[str] = []
    for j, (start, _, form, tag) in enumerate(morphemes):
        base = tag.split("-")[0]
        if base in KO_VERB_TAGS and form == stem:
            if (other := _l_homograph(morphemes, j) or _derived_noun(morphemes, j) or adjective_homograph(stem, tag)
                    or d_l_homograph(sentence, morphemes, j, stem)) is not None:
                notes.append(other)
                continue
            return _word(sentence, start)
        if base in KO_VERB_TAGS and d_l_partner(sentence, morphemes, j, stem):
            return _word(sentence, start)   # 벽에 사진을 걸었다: 걸다, though Kiwi's best reading is 걷다
        if base in KO_SUFFIX_TAGS or base in KO_VERB_TAGS:
            hada = stem.endswith("하") and form in KO_HADA_VOICES and base in KO_SUFFIX_TAGS
            for k in range(j - 1, max(-1, j - KO_MAX_PREFIX - 1), -1):
                joined = "".join(m[2] for m in morphemes[k:j])
                if joined + form == stem or (hada and joined == stem[:-1]):
                    return _word(sentence, morphemes[k][0])
        if base in KO_VERB_TAGS and (_auxiliary_compound(form, stem) or _l_dropped(morphemes, j, stem)
                                     or voice_stem(form, stem)):
            return _word(sentence, start)
        if base in KO_VERB_TAGS and len(stem) >= 2 and _contracted_auxiliary(morphemes, j) \
                and _word(sentence, start)[2].startswith(stem) and _word(sentence, start)[0] == start:
            return _word(sentence, start)   # an auxiliary contracted with its verb: 해보았지만 (하 + 어 + 보)
    if (split := _split_hada(sentence, morphemes, stem)) is not None:
        return split
    if (dropped := _l_dropped_word(sentence, morphemes, stem)) is not None:
        return _word(sentence, dropped)
    if (honorific := _honorific_si_word(sentence, stem)) is not None:
        return _word(sentence, honorific)
    if notes:
        return -1, -1, "", notes[0]
    seen = [f"'{m[2]}' ({m[3]})" for m in morphemes if stem[:1] and m[2].startswith(stem[:1]) and len(m[2]) >= 1]
    if not seen:
        return None
    return -1, -1, "", f"no verb with the stem '{stem}': Kiwi reads " + ", ".join(seen[:3])


#: auxiliary verbs Kiwi may read as one verb with the connective form before them (도와주다 = 돕 + 아 + 주다)
KO_AUXILIARY_STEMS = ("주", "드리", "보", "버리", "놓", "두", "내", "가", "오", "있")
#: endings before which a stem's final ㄹ drops (살 + 는 -> 사는, 만들 + 세요 -> 만드세요), as Kiwi's tags and forms
KO_L_DROPPING = ("ETM", "는", "니", "세", "시", "ㅂ", "ㄴ", "오")


def _auxiliary_compound(form: str, stem: str) -> bool:
    """Whether the verb morpheme ``form`` is the connective form of ``stem`` with an auxiliary verb after it,
    which Kiwi reads as one verb (도와주 for 돕 + 아 + 주, 구워주 for 굽 + 어 + 주): the part before the
    auxiliary, analysed alone, is ``stem`` with a connective ending (irregular stems included)."""
    for aux in KO_AUXILIARY_STEMS:
        head = form[:-len(aux)]
        if form.endswith(aux) and head and head != stem and not form.startswith(stem + aux):
            parts = kiwi_morphemes(head)
            if parts and parts[0][2] == stem and parts[0][3].split("-")[0] in KO_VERB_TAGS \
                    and all(p[3] in ("EC", "EF") for p in parts[1:]):
                return True
    return False


def _l_dropped(morphemes: tuple[tuple[int, int, str, str], ...], j: int, stem: str) -> bool:
    """Whether verb morpheme ``j`` is ``stem`` (ending in ㄹ: 살, 만들) with its ㄹ dropped before an ending that
    drops it (사는, 만드세요), which Kiwi may read as another verb (사다); not after an object particle (빵을 사는)."""
    last = stem[-1:]
    if not last or not "\uac00" <= last <= "\ud7a3" or (ord(last) - 0xAC00) % 28 != 8:
        return False   # the stem does not end in the final consonant ㄹ
    if morphemes[j][2] != stem[:-1] + chr(ord(last) - 8) or j + 1 >= len(morphemes):
        return False
    nxt = morphemes[j + 1]
    return nxt[3] == "ETM" and nxt[2] in ("는", "ㄴ") or nxt[2].startswith(KO_L_DROPPING[1:])


#: open-syllable stems whose forms before an ㄹ-dropping ending (-는, -ㄴ, -니까, -세요, -ㅂ니다) are also the forms
#: of an ㄹ stem (사는: 사다 'buy' or 살다 'live'; 나는: 나다 'come out' or 날다 'fly'), with the case particle
#: of the argument before the verb that only the ㄹ verb takes: 살다 a place with bare 에 (근처에 사는; 사다 takes
#: 에서), 날다 a path object with 을/를 (하늘을 나는; 나다 takes no object). Sohn 1999, The Korean Language, 8.2
#: (valency) and 6.2.2 (ㄹ-deletion)
KO_L_HOMOGRAPHS: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "사": ("살", (("JKB", "에"),)),
    "나": ("날", (("JKO", "을"), ("JKO", "를"))),
}


#: what modifies a noun and never a verb (Sohn 1999, *The Korean Language*, § 6.2 and 9.3): a determiner (오랜, 이),
#: an adnominal ending (긴 = 길 + ㄴ) and the genitive particle 의
KO_NOUN_MODIFIERS = ("MM", "ETM", "JKG")


def _derived_noun(morphemes: tuple[tuple[int, int, str, str], ...], j: int) -> str | None:
    """Why verb morpheme ``j`` with the nominaliser -(으)ㅁ / -기 (ETN) after it is a derived noun: a determiner,
    an adnominal ending or 의 right before its word modifies it ("오랜 기다림", "빠른 걷기", "그의 웃음"); with an
    object or adverb before it the nominalised clause keeps the verb ("그를 기다림에 지쳤다"). None otherwise."""
    if j == 0 or j + 1 >= len(morphemes) or morphemes[j + 1][3] != "ETN":
        return None
    before = morphemes[j - 1]
    if before[3] not in KO_NOUN_MODIFIERS:
        return None
    word = morphemes[j][2] + morphemes[j + 1][2]
    return f"'{morphemes[j][2]}' + the nominaliser '{morphemes[j + 1][2]}' after '{before[2]}' ({before[3]}) is a noun ({word})"


def _l_homograph(morphemes: tuple[tuple[int, int, str, str], ...], j: int) -> str | None:
    """Why verb morpheme ``j`` (an open stem of :data:`KO_L_HOMOGRAPHS` before an ㄹ-dropping ending) is the ㄹ
    verb instead: the particle right before its word is one only the ㄹ verb takes; None otherwise."""
    form = morphemes[j][2]
    if form not in KO_L_HOMOGRAPHS or j == 0 or j + 1 >= len(morphemes):
        return None
    nxt = morphemes[j + 1]
    if not (nxt[3] == "ETM" and nxt[2] in ("는", "ㄴ", "ᆫ") or nxt[2].startswith(KO_L_DROPPING[1:])):
        return None
    other, cues = KO_L_HOMOGRAPHS[form]
    before = morphemes[j - 1]
    if (before[3], before[2]) in cues:
        return (f"'{form}{nxt[2]}' is a form of '{other}다' here: '{before[2]}' before it is a particle "
                f"'{form}다' does not take")
    return None


#: the endings that contract with a stem's final 시 (주무시 + 었 -> 주무셨다, 마시 + 어 -> 마셔, 계시 + ㅂ니다 ->
#: 계십니다), which Kiwi may read as a noun with the copula (주무 + 이 + 셨)
KO_SI_CONTRACTIONS = ("셨", "십", "셔")
#: verbs whose final 시 is the honorific -시- (lexical honorifics): only they contract 시 + 어요 to 세요 (주무세요,
#: 계세요, 드세요); 마시다 makes 마셔요, and 마세요 is 말다's
KO_HONORIFIC_STEMS = frozenset({"주무시", "계시", "드시", "잡수시", "편찮으시", "돌아가시"})


def _honorific_si_word(sentence: str, stem: str) -> int | None:
    """The start of a space-separated word that is ``stem`` (ending in the honorific 시: 주무시, 계시, 드시) with
    a contracted ending (주무세요, 계셨어요, 드십시오), where Kiwi did not read a verb; None otherwise."""
    if len(stem) < 2 or not stem.endswith("시"):
        return None
    head = stem[:-1]
    endings = KO_SI_CONTRACTIONS + (("세요", "세") if stem in KO_HONORIFIC_STEMS else ())
    pos = 0
    for word in sentence.split():
        start = sentence.find(word, pos)
        pos = start + len(word)
        if word.startswith(tuple(head + ending for ending in endings)):
            return start
    return None


def _l_dropped_word(sentence: str, morphemes: tuple[tuple[int, int, str, str], ...], stem: str) -> int | None:
    """The start of a space-separated word that spells ``stem`` (ending in ㄹ) with its ㄹ dropped before
    -는 + a noun, -니까, -세요, -십니다 or -ㅂ니다 (아는 사람, 여세요, 만듭니다), where Kiwi read the word as a
    noun or pronoun with a particle (아 + 는); None otherwise."""
    last = stem[-1:]
    if not last or not "\uac00" <= last <= "\ud7a3" or (ord(last) - 0xAC00) % 28 != 8:
        return None
    open_syllable = chr(ord(last) - 8)
    dropped = stem[:-1] + open_syllable
    polite = stem[:-1] + chr(ord(open_syllable) + 17) + "니"   # + final ㅂ: 압니다, 만듭니다
    pos = 0
    for word in sentence.split():
        start = sentence.find(word, pos)
        pos = start + len(word)
        core = word.rstrip(".,!?;:\"'")
        if core.startswith((dropped + "니까", dropped + "세요", dropped + "셨", dropped + "십", polite)):
            return start
        if core == dropped + "는" and any(m[0] > start + len(core) and m[3].startswith("N") for m in morphemes) \
                and _next_is_noun(morphemes, start + len(core)) and not _pronoun_topic(morphemes, start):
            return start
    return None


def _pronoun_topic(morphemes: tuple[tuple[int, int, str, str], ...], start: int) -> bool:
    """Whether Kiwi reads the word at character ``start`` as a pronoun (``NP``) + the topic particle 는 and no
    case-marked argument (a subject, object or adverbial particle) stands before it in the sentence: the topic
    opening its clause ("나는 대학에서 경제학을 전공했어요": I, not 날다's adnominal, which would follow its own
    arguments: "하늘을 나는 새"; Sohn 1999, § 7.2.2 on the topic marker)."""
    at = [m for m in morphemes if m[0] == start]
    if not at or at[0][3] != "NP":
        return False
    k = morphemes.index(at[0])
    return k + 1 < len(morphemes) and morphemes[k + 1][3] == "JX" \
        and not any(m[3] in ("JKS", "JKO", "JKB") for m in morphemes[:k])


def _next_is_noun(morphemes: tuple[tuple[int, int, str, str], ...], end: int) -> bool:
    """Whether the first morpheme after character ``end`` is a noun (the head of an adnominal -는)."""
    after = [m for m in morphemes if m[0] > end]
    return bool(after) and after[0][3].startswith(("NNG", "NNP", "NNB", "NP"))


def _contracted_auxiliary(morphemes: tuple[tuple[int, int, str, str], ...], j: int) -> bool:
    """Whether verb morpheme ``j`` is followed by a connective ending and an auxiliary verb (하 + 어 + 보:
    해보다), the only case where the word's spelling, not Kiwi's morphemes, is compared with the stem (a
    longer verb such as 가르치 for 가르다 has no auxiliary after it and stays refused)."""
    return j + 2 < len(morphemes) and morphemes[j + 1][3] == "EC" and morphemes[j + 2][3].split("-")[0] == "VX"


def _word(sentence: str, start: int) -> tuple[int, int, str, str]:
    """The space-separated word around character ``start`` (the verb with its endings), minus final punctuation."""
    left = sentence.rfind(" ", 0, start) + 1
    right = sentence.find(" ", start)
    right = len(sentence) if right < 0 else right
    while right > left and not sentence[right - 1].isalnum():
        right -= 1
    return left, right, sentence[left:right], ""


#: the passive / causative suffixes a consonant-final verb stem takes (Sohn 1999, *The Korean Language*, § 8.3.2 and
#: 8.3.3: -이-, -히-, -리-, -기-: 잡히다, 물리다, 안기다, 놓이다, 먹이다); the stems of the ㄷ-irregular verbs turn
#: ㄷ into ㄹ before them (듣다 -> 들리다, 싣다 -> 실리다)
KO_VOICE_SUFFIXES = ("이", "히", "리", "기")


def _final_consonant(syllable: str) -> int:
    """The index of ``syllable``'s final consonant (0: none; 7: ㄷ, 8: ㄹ), -1 for a character not a Hangul syllable."""
    if len(syllable) != 1 or not "\uac00" <= syllable <= "\ud7a3":
        return -1
    return (ord(syllable) - 0xAC00) % 28


def voice_stem(form: str, stem: str) -> bool:
    """Whether verb morpheme ``form`` is ``stem``'s morphological passive or causative (:data:`KO_VOICE_SUFFIXES`),
    which Kiwi reads as a verb of its own: ``잡히`` for ``잡``, ``물리`` for ``물``, ``들리`` for ``듣``. Only a stem
    ending in a final consonant takes these suffixes as a derivation (가 + 리 = 가리다 is another verb)."""
    if len(form) != len(stem) + 1 or form[-1] not in KO_VOICE_SUFFIXES or not stem:
        return False
    last = _final_consonant(stem[-1])
    if last <= 0 or form[:-2] != stem[:-1]:
        return False
    if form[-2] == stem[-1]:
        return True
    return last == 7 and form[-1] == "리" and ord(form[-2]) == ord(stem[-1]) + 1   # ㄷ -> ㄹ: 듣 -> 들리


#: particles that may split a noun + 하다 verb (Sohn 1999, § 7.2.1: the light verb 하다 with its verbal noun as an
#: object or topic: 공부를 하다, 공부도 하다, 공부는 했다)
KO_SPLIT_PARTICLES = ("JKO", "JX")


def _split_hada(sentence: str, morphemes: tuple[tuple[int, int, str, str], ...],
                stem: str) -> tuple[int, int, str, str] | None:
    """The span from the verbal noun to the light verb where a noun + 하다 ``stem`` (공부하) is split by an object or
    topic particle, an adverb (MAG) allowed before 하다: ``공부를 했다``, ``공부도 열심히 했다``; None otherwise."""
    if len(stem) < 3 or not stem.endswith("하"):
        return None
    noun = stem[:-1]
    for k in range(len(morphemes) - 2):
        if morphemes[k][2] != noun or not morphemes[k][3].startswith("NN") \
                or morphemes[k + 1][3] not in KO_SPLIT_PARTICLES:
            continue
        j = k + 2 + (morphemes[k + 2][3] == "MAG")
        if j < len(morphemes) and morphemes[j][2] == "하" and morphemes[j][3].split("-")[0] in ("VV", "VX"):
            end = _word(sentence, morphemes[j][0])[1]
            start = morphemes[k][0]
            return start, end, sentence[start:end], ""
    return None
