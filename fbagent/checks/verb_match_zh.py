"""The Chinese and Korean verb checks: words and morphemes from an analyser, never a substring.

Chinese (jieba ``posseg``, :func:`fbagent.checks.analysers.jieba_words`): the LU lemma (说, 学习)
is found when it is a word of the segmented sentence, or a reduplication of it (看看, 看一看, 看了看),
and it does not follow a numeral, a measure word, 的 or a demonstrative (一幅画, 我的画: a noun). A character inside another word never counts: 小说
(novel) is not 说, 打算 (plan) is not 打, 看法 (opinion) is not 看, 开关 (switch) is not 开.

Korean (Kiwi, :func:`fbagent.checks.analysers.kiwi_morphemes`): the lemma's stem (the dictionary
form minus 다: 먹다 -> 먹) is found when a morpheme tagged as a verb, auxiliary verb or adjective
(``VV``, ``VX``, ``VA``, irregular stems ``-I``/``-R`` included) has that form, or when the
morphemes before a verb suffix spell it (공부 + 하 for 공부하다); the endings that follow inflect it
(먹었다 = 먹 + 었 + 다, 갔다 = 가 + 었 + 다, 들었어요 = 듣 + 었 + 어요, 만드셨다 = 만들 + 시 + 었 + 다).
A noun sharing the syllables (먹이, 걸음, 가방) is never a verb morpheme.

Both return ``(start, end, surface, note)``: the character span of the verb's word (the whole
space-separated word in Korean), or None with ``note`` saying what was seen instead.
"""

from __future__ import annotations

from fbagent.checks.analysers import jieba_posseg, jieba_words, kiwi_morphemes

#: Sejong tags of a Korean predicate stem (irregular markers -I / -R are cut off first)
KO_VERB_TAGS = ("VV", "VX", "VA")
#: Sejong tags of a verb-deriving suffix (공부 + 하, 깨끗 + 하)
KO_SUFFIX_TAGS = ("XSV", "XSA")
#: how many morphemes before a verb suffix may spell the start of the lemma
KO_MAX_PREFIX = 3


def find_verb_zh(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first word of ``sentence`` that is the verb ``lemma`` (see the module doc), else a refusal.

    Returns ``(start, end, surface, "")`` when found; ``(-1, -1, "", note)`` when the lemma's characters
    occur only inside other words or as a noun; None when they do not occur at all.
    """
    words = jieba_words(sentence)
    forms = {lemma, lemma + lemma, lemma + "一" + lemma, lemma + "了" + lemma}
    inside: list[str] = []
    for k, (start, end, word, flag) in enumerate(words):
        if word in forms:
            if k > 0 and (words[k - 1][3] in ZH_NOUN_BEFORE or words[k - 1][2] in ZH_NOUN_WORDS_BEFORE):
                inside.append(f"'{word}' follows '{words[k - 1][2]}' and is read as a noun")
                continue
            return start, end, word, ""
        if word.startswith(lemma) and _verb_object(lemma, word, flag):
            return start, start + len(lemma), lemma, ""
        if lemma in word:
            inside.append(f"'{word}'({flag})")
    if not inside:
        return None
    return -1, -1, "", f"'{lemma}' is no verb word of its own here: " + ", ".join(
        x if " " in x else f"it is inside {x}" for x in inside[:3])


#: jieba flags after which a word is a noun (numeral, measure word, 的): 一幅画, 我的画. jieba's own flag of a
#: word comes from its dictionary, whatever the context (学 is "n"), so it does not decide
ZH_NOUN_BEFORE = ("m", "q", "mq", "uj")
ZH_NOUN_WORDS_BEFORE = frozenset({"的", "这", "那", "这个", "那个", "每", "各"})
#: jieba flags of what may follow a verb inside one segmented word: its object or a preposition (打篮球, 开门, 坐在)
ZH_OBJECT_FLAGS = ("n", "nr", "ns", "nz", "p", "f", "s")


def _verb_object(lemma: str, word: str, flag: str) -> bool:
    """Whether ``word`` is the verb ``lemma`` written together with its object or a preposition, as jieba
    segments verb-object phrases (打篮球, 开门, 写信, 坐在): jieba's dictionary tags the lemma a verb and
    the rest a noun, place word or preposition, and the whole a verb, or the rest has two characters or
    more. 看法 (rest 法: an abbreviation), 打算 and 开关 (rest a verb), 走廊 and 读者 (a noun with a
    one-character bound rest) are not the verb."""
    tags = jieba_posseg().dt.word_tag_tab
    rest = word[len(lemma):]
    if not rest or not tags.get(lemma, "").startswith("v"):
        return False
    return tags.get(rest, "") in ZH_OBJECT_FLAGS and (flag.startswith("v") or len(rest) >= 2)


def _ko_stem(lemma: str) -> str:
    lemma = lemma.replace(" ", "")
    return lemma[:-1] if lemma.endswith("다") and len(lemma) > 1 else lemma


def find_verb_ko(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first predicate of ``sentence`` whose stem is ``lemma``'s (see the module doc), else a refusal.

    Returns ``(start, end, surface, "")`` (the whole space-separated word) when found;
    ``(-1, -1, "", note)`` when the stem is seen only as another part of speech; None otherwise.
    """
    stem = _ko_stem(lemma)
    morphemes = kiwi_morphemes(sentence)
    for j, (start, _, form, tag) in enumerate(morphemes):
        base = tag.split("-")[0]
        if base in KO_VERB_TAGS and form == stem:
            return _word(sentence, start)
        if base in KO_SUFFIX_TAGS or base in KO_VERB_TAGS:
            for k in range(j - 1, max(-1, j - KO_MAX_PREFIX - 1), -1):
                if "".join(m[2] for m in morphemes[k:j + 1]) == stem:
                    return _word(sentence, morphemes[k][0])
    seen = [f"'{m[2]}' ({m[3]})" for m in morphemes if stem[:1] and m[2].startswith(stem[:1]) and len(m[2]) >= 1]
    if not seen:
        return None
    return -1, -1, "", f"no verb with the stem '{stem}': Kiwi reads " + ", ".join(seen[:3])


def _word(sentence: str, start: int) -> tuple[int, int, str, str]:
    """The space-separated word around character ``start`` (the verb with its endings), minus final punctuation."""
    left = sentence.rfind(" ", 0, start) + 1
    right = sentence.find(" ", start)
    right = len(sentence) if right < 0 else right
    while right > left and not sentence[right - 1].isalnum():
        right -= 1
    return left, right, sentence[left:right], ""
