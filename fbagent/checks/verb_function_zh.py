"""Chinese function-word readings of verb characters, and words jieba glues onto the verb from outside.

:func:`fbagent.checks.verb_match_zh.find_verb_zh` asks these rules about one jieba word (ICTCLAS flags):

- a verb character that is a function word here, not the verb (Li & Thompson 1981, *Mandarin Chinese*):
  过 right after a verb is the experiential aspect marker guo (学过, 见过: ch. 6.3), not the verb guò (cross,
  spend); 还 before a predicate is the adverb hái (still: 还没来, 还在睡觉, 还不错: ch. 8), not the verb huán
  (give back: 还你钱, 还了, 按时还);
- a fixed adverb or conjunction written with the verb's character (到底, 到处, 过于, 还是, 看来, 说不定: ch. 8
  and the evidential adverbs of ch. 23): never the verb;
- a word jieba made of the verb and something that belongs outside it: a modal or motion verb before it (会来,
  能来: 会 | 来), a localiser that closes the place phrase before it (比赛中 | 得了, 桌子上 | 有). Only where jieba's
  dictionary does not hold the whole as a word of its own (:func:`fbagent.checks.analysers.jieba_frequency`
  below :data:`ZH_LEXICALISED_FREQUENCY`: 想来 'presumably' and 可爱 'lovely' are words, 会来 is not).

Each rule returns None when it does not apply; the refusals return a phrase naming the form and the reason.
"""

from __future__ import annotations

import math

from fbagent.checks.analysers import jieba_frequency, jieba_posseg

Word = tuple[int, int, str, str]

#: dictionary counts below this are combinations jieba's dict.txt stores without lexicalising them (会来, 能来,
#: 上有: 3); words of their own count dozens or more (想开 29, 想来 824)
ZH_LEXICALISED_FREQUENCY = 20
#: modal and motion verbs jieba may glue before the verb (会来, 能来, 要走, 肯去): Li & Thompson 1981, ch. 6.4
#: (auxiliary verbs) and ch. 7 (serial verbs with 来/去)
ZH_MODALS = frozenset("会能要想可该敢肯去来")
#: the modal verbs a bare 过 after them is the verb guò after (要过马路, 想过一个安静的生日, 能过关)
ZH_MODAL_WORDS = frozenset({"要", "想", "会", "能", "可以", "应该", "该", "得", "愿意", "敢", "肯", "打算", "准备",
                            "想要", "需要", "必须", "不能", "不要", "不会", "不想", "不敢", "不肯", "能够"})
#: coverbs of place that open the phrase a localiser closes (在比赛中, 从桌子上): ch. 9 and 11
ZH_PLACE_COVERBS = frozenset({"在", "从", "于", "当", "到"})
#: localisers that close a place or range phrase before the verb (比赛中, 桌子上, 会议上): ch. 11
ZH_LOCALISERS = frozenset("上里中下内外前后")
#: fixed adverbs and conjunctions written with a verb's character that jieba's dictionary does not tag as adverbs:
#: degree 过于 (too), the evidential 看来 / 看起来 / 看上去 / 看样子 (it seems), 说不定 (maybe). Words tagged "d" or
#: "c" (到底, 到处, 还是, 还要, 难道) are found by their tag
ZH_ADVERB_WORDS = frozenset({"过于", "看来", "看起来", "看上去", "看样子", "说不定", "到时", "到时候"})
#: jieba flags of what follows the adverb 还 (hái): a verb, adverb, adjective, preposition or conjunction
_HAI_BEFORE = ("v", "d", "a", "p", "c", "l", "i")
#: what may follow the verb 还 (huán) although jieba tags it like a predicate: the recipient's 给 and complements
_HUAN_BEFORE = frozenset({"给", "清", "完", "回", "回去", "回来", "上", "掉"})


def adverb_word(word: str, lemma: str) -> str | None:
    """Why jieba's word ``word`` (longer than ``lemma``, holding it) is a fixed adverb or conjunction, not the verb:
    its dictionary tag is adverb or conjunction (到底, 到处, 还是) or it is in :data:`ZH_ADVERB_WORDS` (过于, 看来,
    说不定); None otherwise."""
    if word == lemma or not word.startswith(lemma):
        return None   # 不是, 还是 of 是: an adverb glued before the verb (found by the caller)
    tag = jieba_posseg().dt.word_tag_tab.get(word, "")
    if word in ZH_ADVERB_WORDS or tag in ("d", "c"):
        return f"'{word}' is a fixed {'conjunction' if tag == 'c' else 'adverb'}, not the verb '{lemma}'"
    return None


def function_word(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why word ``k`` (``lemma`` alone) is a function word here: 过 after a verb is the aspect marker guo (学过两年,
    没见过他), unless a modal stands before (要过马路); 还 before a predicate is the adverb hái (还没来, 还在, 还不错);
    None otherwise."""
    word = words[k][2]
    if word != lemma or lemma not in ("过", "还"):
        return None
    prev = words[k - 1] if k > 0 else None
    nxt = words[k + 1] if k + 1 < len(words) else None
    if lemma == "过" and prev is not None and prev[3].startswith("v") and not _modal_before(words, k):
        return f"'过' after the verb '{prev[2]}' is the aspect marker guo (experience), not the verb 过 (guò)"
    if lemma == "还" and nxt is not None and nxt[2] not in _HUAN_BEFORE \
            and (nxt[3].startswith(_HAI_BEFORE) or nxt[2][:1] in "没不"):
        return f"'还' before '{nxt[2]}' is the adverb hái (still, also), not the verb 还 (huán)"
    return None


def _modal_before(words: tuple[Word, ...], k: int) -> bool:
    """Whether the word before ``k`` is a modal verb (要过, 能过); 想 only where no 没 negates it (没想过 is the
    aspect marker: 没 negates the experience, 不 the wish)."""
    prev = words[k - 1][2]
    if prev not in ZH_MODAL_WORDS:
        return False
    return not (prev == "想" and any(w[2] in ("没", "没有", "从没", "从来没") for w in words[max(0, k - 3):k - 1]))


#: personal pronouns jieba may glue to the verb after them (我会 + 说, 我爱你): Li & Thompson 1981, ch. 5.1
ZH_PERSONAL_PRONOUNS = ("我们", "你们", "他们", "她们", "咱们", "我", "你", "您", "他", "她", "它")


#: time words 过 (guò, to spend) takes as its object in one jieba word (过年, 过节, 过生日, 过周末, 过日子)
ZH_SPENT_TIMES = frozenset({"年", "节", "生日", "周末", "日子", "春节", "新年", "暑假", "寒假", "圣诞节", "中秋节", "夏天", "冬天"})


def spend_time(word: str, lemma: str) -> bool:
    """Whether jieba's word ``word`` is the verb 过 (guò, spend) with its time object (过年, 过生日): jieba's dictionary
    tags 过 as the aspect marker and these words as time words, so the verb-object rule does not see them."""
    return lemma == "过" and word.startswith(lemma) and word[1:] in ZH_SPENT_TIMES


def pronoun_glued(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The offset of ``lemma`` in jieba's word ``k`` when a subject pronoun is glued before the verb, with at most an
    object pronoun after it (我爱你) or, where the dictionary holds the whole as another word (我会: an association),
    a verb right after it (我会 | 说: the modal); None otherwise. ``lemma`` must be a verb in jieba's dictionary."""
    word = words[k][2]
    pronoun = next((p for p in ZH_PERSONAL_PRONOUNS if word.startswith(p)), None)
    if pronoun is None or not word[len(pronoun):].startswith(lemma) \
            or not jieba_posseg().dt.word_tag_tab.get(lemma, "").startswith("v"):
        return None
    rest = word[len(pronoun) + len(lemma):]
    if rest and rest not in ZH_PERSONAL_PRONOUNS:
        return None
    nxt = words[k + 1] if k + 1 < len(words) else None
    if rest or jieba_frequency(word) < ZH_LEXICALISED_FREQUENCY or (nxt is not None and nxt[3].startswith("v")):
        return len(pronoun)
    return None


#: verbs that take a verbal noun as their subject at the start of a clause (研究表明, 调查显示, 学习是): the copula and
#: the verbs of showing and finding (Li & Thompson 1981, ch. 18.1: nominalisation as subject)
ZH_REPORTING_VERBS = frozenset({"是", "表明", "显示", "证明", "说明", "指出", "发现", "认为", "揭示", "预测", "估计"})
#: adverbs of degree before an adjectival predicate (经济发展很快, 城市生活很方便)
ZH_DEGREE_WORDS = frozenset({"很", "非常", "太", "真", "特别", "十分", "挺", "更", "比较", "越来越", "相当", "极其", "不太"})


def nominal_subject(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why word ``k`` (``lemma`` alone, a verbal noun) is a noun subject: it opens its clause and a copula or verb of
    showing follows (研究表明, 调查显示, 学习是一件快乐的事), or a noun modifies it and an adverb of degree follows
    (经济发展很快, 城市生活很方便: an adjectival predicate), with no coverb of place before; None otherwise."""
    if words[k][2] != lemma or k + 1 >= len(words):
        return None
    prev = words[k - 1] if k > 0 else None
    nxt = words[k + 1]
    opens = prev is None or prev[3] == "x"
    if opens and nxt[2] in ZH_REPORTING_VERBS:
        return f"'{lemma}' opens its clause before '{nxt[2]}' and is read as its subject (a verbal noun)"
    if prev is not None and prev[3] in ("n", "ns", "nz", "nt") and nxt[2] in ZH_DEGREE_WORDS \
            and not any(w[2] in ZH_PLACE_COVERBS or w[2] in ("在", "给", "跟", "对") for w in words[max(0, k - 4):k - 1]):
        return f"'{prev[2]}{lemma}' before '{nxt[2]}' is a noun phrase, the subject of an adjectival predicate"
    return None


#: the directional verbs that are localisers after a noun (桌子上, 树下): Li & Thompson 1981, ch. 11
ZH_LOCALISER_VERBS = frozenset("上下")


def localiser_use(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why word ``k`` (上 / 下 alone) is a localiser, not the verb: it follows a noun inside a coverb's place phrase (在桌子
    上, 在树下玩) or a noun before the clause's end, 的 or 有 (山下有一条河); None otherwise (他上了车, 雨下了)."""
    if lemma not in ZH_LOCALISER_VERBS or words[k][2] != lemma or k == 0 or not words[k - 1][3].startswith(("n", "s")):
        return None
    nxt = words[k + 1] if k + 1 < len(words) else None
    coverb = any(w[2] in ZH_PLACE_COVERBS or len(w[2]) == 2 and w[2][-1] in "在到" for w in words[max(0, k - 5):k - 1])
    if coverb or nxt is None or nxt[3] == "x" or nxt[2] in ("的", "有", "是"):
        return f"'{lemma}' after the noun '{words[k - 1][2]}' is a localiser (a place phrase), not the verb"
    return None


def glued_before(words: tuple[Word, ...], k: int, lemma: str, complement: bool) -> int | None:
    """The offset of ``lemma`` in jieba's word ``k`` when a modal or motion verb (会来, 能来) or, after a noun, a
    localiser (比赛中 | 得了, 桌子上 | 有) is glued before it and the dictionary does not hold the whole as a word of
    its own; ``complement``: whether what follows the lemma in the word is a complement. None otherwise."""
    word = words[k][2]
    if len(word) < 1 + len(lemma) or word[1:1 + len(lemma)] != lemma or not complement:
        return None
    if jieba_frequency(word) >= ZH_LEXICALISED_FREQUENCY:
        return None
    if word[0] in ZH_MODALS:
        return 1
    prev = words[k - 1] if k > 0 else None
    coverb = any(w[2] in ZH_PLACE_COVERBS for w in words[max(0, k - 5):k])
    if word[0] in ZH_LOCALISERS and prev is not None and prev[3].startswith(("n", "vn", "v", "s")) \
            and (coverb or word[0] not in "上下"):
        return 1   # 上 / 下 are verbs too (雨下得很大): as localisers only after a coverb of place (在桌子上 | 有)
    return None


#: jieba flags of the parts that may stand before the verb in a rare dictionary phrase (提前 | 完成): adverbs, modals
ZH_PHRASE_BEFORE_FLAGS = ("d", "ad", "v")
#: jieba flags of the parts that may follow the verb in a rare dictionary phrase (打 | 了 | 个, 骑车 | 去): aspect
#: particles, measure words, numerals, localisers, verbs (a noun after a verbal noun makes a compound noun: 生活节奏)
ZH_PHRASE_AFTER_FLAGS = ("ul", "uz", "ug", "q", "m", "f", "v")


def dictionary_split(word: str) -> tuple[str, ...] | None:
    """``word`` cut into two or three words of jieba's dictionary, each at least :data:`ZH_LEXICALISED_FREQUENCY`
    frequent, where the word itself is rarer: jieba's dictionary holds phrases with a frequency of 3 (提前完成, 骑车去,
    打了个) that are no words. The cut is the one jieba's own route would weigh highest (the product of the parts'
    relative frequencies: 操场 | 上, not 操 | 场上); None when there is no such cut or the word is a word of its own."""
    if len(word) < 3 or jieba_frequency(word) >= ZH_LEXICALISED_FREQUENCY:
        return None
    total = jieba_posseg().dt.tokenizer.total
    cuts: list[tuple[str, ...]] = [(word[:i], word[i:]) for i in range(1, len(word))]
    cuts += [(word[:i], word[i:j], word[j:]) for i in range(1, len(word) - 1) for j in range(i + 1, len(word))]
    best: tuple[float, tuple[str, ...]] | None = None
    for cut in cuts:
        freqs = [jieba_frequency(part) for part in cut]
        if min(freqs) < ZH_LEXICALISED_FREQUENCY:
            continue
        weight = sum(math.log(f / total) for f in freqs)
        if best is None or weight > best[0]:
            best = (weight, cut)
    return best[1] if best is not None else None


def resegmented_verb(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The offset of ``lemma`` in jieba's word ``k`` when the word is a rare dictionary phrase (:func:`dictionary_split`)
    with ``lemma`` as a verb part: adverbs or modals before it (提前 | 完成), aspect particles, measure words or verbs
    after it (打 | 了 | 个), a noun object after a verb by the dictionary (吹 | 头发), or ``lemma`` + its object before
    a motion verb (骑车 | 去). A noun before it or after a verbal noun makes a compound noun (校园生活, 生活节奏,
    读书笔记), and so does a one-character noun after a verb of two characters (结婚照, 游泳池: modifier + head, the
    shape of Chinese compound nouns; a verb's object of one character is a word of its own): None, as otherwise."""
    word = words[k][2]
    if lemma not in word or word == lemma or (cut := dictionary_split(word)) is None:
        return None
    tags = jieba_posseg().dt.word_tag_tab
    for i, part in enumerate(cut):
        before, after = cut[:i], cut[i + 1:]
        if not part.startswith(lemma) or not all(tags.get(p, "x").startswith(ZH_PHRASE_BEFORE_FLAGS) for p in before):
            continue
        if part == lemma:
            verb_object = tags.get(lemma) == "v" and len(after) == 1 and tags.get(after[0], "").startswith("n") \
                and not (len(lemma) >= 2 and len(after[0]) == 1)   # 结婚照, 游泳池: a two-character verb + a one-character head noun
            ok = tags.get(lemma, "").startswith("v") and (verb_object or all(tags.get(p, "x").startswith(
                ZH_PHRASE_AFTER_FLAGS) for p in after))
        else:   # the verb with its object, then a motion verb: 骑车 | 去
            ok = tags.get(lemma) == "v" and tags.get(part[len(lemma):], "").startswith(("n", "zg")) \
                and not tags.get(part, "").startswith(("d", "ad")) \
                and bool(after) and all(tags.get(p, "x") == "v" for p in after)
        if ok:
            return len("".join(before))
    return None
