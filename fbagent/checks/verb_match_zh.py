"""The Chinese verb check: words from an analyser, never a substring (Korean: :mod:`fbagent.checks.verb_match_ko`).

Chinese (jieba ``posseg``, :func:`fbagent.checks.analysers.jieba_words`): the LU lemma (说, 学习)
is found when it is a word of the segmented sentence, or a reduplication of it (看看, 看一看, 看了看),
and it does not follow a numeral, a measure word, 的 or a demonstrative (一幅画, 我的画: a noun). A character inside another word never counts: 小说
(novel) is not 说, 打算 (plan) is not 打, 看法 (opinion) is not 看, 开关 (switch) is not 开.

It returns ``(start, end, surface, note)``: the character span of the verb's word, or None with ``note`` saying what was seen instead.
"""

from __future__ import annotations

from fbagent.checks.analysers import jieba_posseg, jieba_words
from fbagent.checks.verb_context_zh import (
    ZH_COVERBS,
    coverb_before_predicate,
    nominal_use,
    particle_de,
    passive_agent_glued,
)
from fbagent.checks.verb_function_zh import (
    adverb_word,
    function_word,
    glued_before,
    localiser_use,
    nominal_subject,
    pronoun_glued,
    resegmented_verb,
    spend_time,
)

Word = tuple[int, int, str, str]


def find_verb_zh(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first word of ``sentence`` that is the verb ``lemma`` (see the module doc), else a refusal.

    Returns ``(start, end, surface, "")`` when found; ``(-1, -1, "", note)`` when the lemma's characters
    occur only inside other words or as a noun; None when they do not occur at all.
    """
    words = jieba_words(sentence)
    if (fused := _fused_question_or_potential(sentence, words, lemma)) is not None:
        return fused
    forms = {lemma, lemma + lemma, lemma + "一" + lemma, lemma + "了" + lemma, lemma + "来" + lemma + "去"}   # 看来看去
    if len(lemma) == 2:   # a verb-object word reduplicates its verb only (散散步, 聊聊天, 洗了洗澡)
        forms |= {lemma[0] + lemma, lemma[0] + "一" + lemma, lemma[0] + "了" + lemma}
    inside: list[str] = []
    for k, (start, end, word, _flag) in enumerate(words):
        if word == lemma and k + 1 < len(words) and words[k + 1][2] in ("一" + lemma, "了" + lemma):
            return start, words[k + 1][1], sentence[start:words[k + 1][1]], ""   # 聊 | 一聊: jieba split V一V
        if word in forms:
            if (why := _not_a_verb_here(words, k, lemma)) is not None:
                inside.append(why)
                continue
            return start, end, word, ""
        if (hit := _verb_in_word(words, k, lemma)) is not None:
            if (why := coverb_before_predicate(words, k, lemma)) is not None:
                inside.append(why)
                continue
            return start + hit, start + hit + len(lemma), lemma, ""
        if not _suffixed_noun(word) and (part := resegmented_verb(words, k, lemma)) is not None:
            return start + part, start + part + len(lemma), lemma, ""
        if (ba := _after_ba_object(words, k, lemma)) is not None:
            return start + ba, end, lemma, ""
        if (split := _separated(words, k, lemma)) is not None:
            skip = 1 if not words[k][2].startswith(lemma[:1]) else 0
            return start + skip, split, sentence[start + skip:split], ""
        if lemma in word:
            inside.append(_why_inside(words, k, lemma))
    if not inside:
        return None
    return -1, -1, "", f"'{lemma}' is no verb word of its own here: " + ", ".join(
        x if " " in x else f"it is inside {x}" for x in inside[:3])


def _not_a_verb_here(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why word ``k`` (a form of ``lemma``) is no verb in its context, as a phrase for the refusal's note: after a
    numeral, measure word, 的 or demonstrative (:func:`_noun_marker`), a coverb before its predicate, the
    particle 得, a noun by its context (:mod:`fbagent.checks.verb_context_zh`); None when it is the verb."""
    word = words[k][2]
    verbal = word != lemma and word[len(lemma):len(lemma) + 1] in ("一", "了") and word.endswith(lemma)
    if not verbal and (noun := _noun_marker(words, k)) is not None:   # 比一比, 看了看: a reduplicated verb is no noun
        return f"'{word}' follows '{noun}' and is read as a noun"
    if word == lemma and len(word) == 1 and words[k][3] == "a" and k > 0 \
            and (words[k - 1][2] in ZH_DEGREE_BEFORE_ADJECTIVE or words[k - 1][2] == "又"):
        return f"'{word}' is an adjective after '{words[k - 1][2]}' (jieba reads it as one), not the verb"
    coverb = coverb_before_predicate(words, k, lemma) if word == lemma else None
    return coverb or particle_de(words, k, lemma) or function_word(words, k, lemma) or nominal_use(words, k) \
        or nominal_subject(words, k, lemma) or localiser_use(words, k, lemma)


def _verb_in_word(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The offset of ``lemma`` inside jieba's word ``k`` when the word is the verb with more glued on: a
    complement or an object after it (搬到, 打篮球, 做完作业, 在家), a one-character adverb or 地 before it (不信,
    慢慢地走了), the agent of a passive before it (给雨淋湿); None otherwise."""
    _, _, word, flag = words[k]
    prev = words[k - 1] if k > 0 else None
    tags = jieba_posseg().dt.word_tag_tab
    if adverb_word(word, lemma) is not None:
        return None   # 到底, 过于, 看来: a fixed adverb
    if spend_time(word, lemma) and _noun_marker(words, k) is None:
        return 0   # 过年, 过生日: 过 (spend) with its time object
    if lemma in ZH_COVERBS and word.startswith(lemma) and tags.get(word[len(lemma):], "").startswith(("n", "s", "r", "f", "q")):
        return 0   # 在家 (吗): the coverb with its object; the caller asks whether a predicate follows
    if word.startswith(lemma) and _noun_marker(words, k) is None and not _adjectival(prev) \
            and not _suffixed_noun(word) and nominal_use(words, k) is None and not _before_localiser(words, k) \
            and (_complement(word[len(lemma):]) or _verb_object(lemma, word, flag, prev, words[k - 2] if k >= 2 else None)
                 or _complement_object(word[len(lemma):])):
        return 0
    if (hit := _after_adverb(lemma, word, flag)) is not None:
        return hit
    if word[:1] in ZH_GLUED_UNKNOWN and word[1:] == lemma and word not in tags:
        return 1
    rest = word[1 + len(lemma):]
    if (hit := glued_before(words, k, lemma, not rest or _complement(rest))) is not None:
        return hit   # 会来, 比赛中 | 得了: a modal or a localiser glued before the verb
    if (hit := pronoun_glued(words, k, lemma)) is not None:
        return hit   # 我爱你, 我会 | 说: the subject pronoun glued before the verb   # 请关: jieba's HMM glued 请 (please) to a verb its dictionary does not join it with
    if (hit := _subject_glued(words, k, lemma)) is not None:
        return hit   # 风吹 | 得很厉害: the one-character subject noun glued before the verb
    if word.startswith("地" + lemma) and prev is not None and (prev[3] in ("d", "ad", "z", "a") or _reduplicated(prev[2])):
        rest = word[1 + len(lemma):]
        return 1 if not rest or _complement(rest) else None
    if (p := passive_agent_glued(words, k, lemma, tags)) is not None:
        rest = word[p + len(lemma):]
        return p if not rest or _complement(rest) else None
    return None


def _subject_glued(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The offset of ``lemma`` in jieba's verb word ``k`` when it is a one-character noun (jieba's dictionary) glued
    before the verb, and the particle of a complement (得) or an aspect marker (了, 着, 过) follows the word: the
    subject and its predicate (外面的风吹得很厉害: 风 | 吹; Li & Thompson 1981, ch. 3.2 and 6 on aspect and
    complements, which attach to the verb, never to a noun); None otherwise."""
    _, _, word, flag = words[k]
    if not flag.startswith("v") or len(word) != 1 + len(lemma) or word[1:] != lemma or k + 1 >= len(words) \
            or words[k + 1][2] not in ("得", "了", "着", "过"):
        return None
    return 1 if jieba_posseg().dt.word_tag_tab.get(word[0], "").startswith("n") else None


#: localisers of place (Li & Thompson 1981, ch. 11.2): they follow a noun to make a place phrase (跑道上, 房间里); a verb
#: takes a directional complement before its object instead. Those of time (前, 后, 时) and 中 / 下 also follow verbs
ZH_PLACE_LOCALISERS = frozenset({"上", "里", "内", "外", "旁", "边", "旁边", "上面", "里面", "下面", "底下", "附近",
                                 "周围", "对面", "上边", "里边", "外面", "外边"})


#: what may follow the verb of a 把 construction in the word after the object (Li & Thompson 1981, ch. 15: the verb
#: of 把 needs something after it: an aspect marker, a complement, or the clause's end)
ZH_BA_AFTER = ("ul", "uz", "ug", "x", "f", "a", "v")


def _after_ba_object(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The offset of ``lemma`` at the end of jieba's word ``k`` right after 把 (ba), where jieba glued the object noun
    and the verb into one noun (把 | 门锁 | 了: 门 + 锁): the part before the verb is a noun of jieba's dictionary, and
    what follows is an aspect marker, a complement or the clause's end, with no other verb in the clause (the verb of
    a 把 construction follows its object: Li & Thompson 1981, ch. 15). None otherwise."""
    word = words[k][2]
    if k == 0 or words[k - 1][2] != "把" or len(word) <= len(lemma) or not word.endswith(lemma):
        return None
    tags = jieba_posseg().dt.word_tag_tab
    if not tags.get(word[:-len(lemma)], "").startswith("n") or not tags.get(lemma, "").startswith("v"):
        return None
    after = words[k + 1:]
    if after and after[0][3] not in ZH_BA_AFTER:
        return None
    if any(w[3].startswith("v") for w in after[1:] if w[2] not in "，。！？；"):
        return None
    return len(word) - len(lemma)


def _before_localiser(words: tuple[Word, ...], k: int) -> bool:
    """Whether a localiser of place (:data:`ZH_PLACE_LOCALISERS`) follows jieba's word ``k``: the word is the noun of a
    place phrase (飞机在跑道上滑行: 跑道 is a runway, not 跑 + an object)."""
    return k + 1 < len(words) and words[k + 1][2] in ZH_PLACE_LOCALISERS


def _why_inside(words: tuple[Word, ...], k: int, lemma: str) -> str:
    """The note for jieba's word ``k`` that holds ``lemma`` but is not the verb: a suffixed noun (打火机), a noun by its
    context (在地铁站出口等你), else the word and jieba's flag."""
    word, flag = words[k][2], words[k][3]
    if word.startswith(lemma) and _suffixed_noun(word):
        return f"'{word}' is a noun ('{word[:-1]}' + the suffix '{word[-1]}')"
    if _before_localiser(words, k):
        return f"'{word}' is the noun of a place phrase (before the localiser '{words[k + 1][2]}')"
    if word.startswith(lemma) and (why := nominal_use(words, k)) is not None:
        return why
    if (why := adverb_word(word, lemma)) is not None:
        return why
    return f"'{word}'({flag})"


def _reduplicated(word: str) -> bool:
    """Whether ``word`` is a reduplicated adverb or adjective (慢慢, 高高兴兴): the adverbs that take 地."""
    half = len(word) // 2
    return len(word) in (2, 4) and (word[:half] == word[half:] or (half == 2 and word[0] == word[1] and word[2] == word[3]))


#: what makes a potential (V不C, V得C) or an A-not-A question (V不V, A不AB, V没V) of a verb (Li & Thompson 1981,
#: ch. 3.3.2 and 18.3): 打不开 / 打得开 of 打开, 知不知道 of 知道, 去不去 of 去
ZH_NEGATIONS = ("不", "没")


def _fused_question_or_potential(sentence: str, words: tuple[Word, ...], lemma: str) -> tuple[int, int, str, str] | None:
    """The span of the A-not-A question (知不知道, 喜欢不喜欢, 去没去) or, for a verb + complement lemma (打开,
    听懂, 拿出来), the potential form (打不开, 听得懂, 拿不出来), where it begins one of jieba's words (jieba keeps
    them as one word or splits them); None when there is none."""
    patterns = [lemma + neg + lemma for neg in ZH_NEGATIONS]
    if len(lemma) >= 2:
        patterns += [lemma[0] + neg + lemma for neg in ZH_NEGATIONS]
        if _complement(lemma[1:]) or lemma[1:] in ZH_POTENTIAL_ONLY:
            patterns += [lemma[0] + "不" + lemma[1:], lemma[0] + "得" + lemma[1:]]
    starts = {w[0] for w in words}
    for pattern in patterns:
        at = sentence.find(pattern)
        while at >= 0:
            if at in starts:
                return at, at + len(pattern), pattern, ""
            at = sentence.find(pattern, at + 1)
    return None


#: nominal suffixes of instruments, agents and places made from a verb-object word (打火 + 机, 开瓶 + 器,
#: 读书 + 会): the whole is a noun
ZH_NOMINAL_SUFFIXES = frozenset("机器者员家会馆室厂店站费法具")


def _suffixed_noun(word: str) -> bool:
    """Whether ``word`` is a verb-object word + a nominal suffix (打火机, 洗衣机): jieba's dictionary knows the
    word without its last character (打火, 洗衣) as a word of its own (坐飞机 is 坐 + 飞机: 坐飞 is no word)."""
    if len(word) < 3 or word[-1] not in ZH_NOMINAL_SUFFIXES:
        return False
    return word[:-1] in jieba_posseg().dt.word_tag_tab


def _complement_object(rest: str) -> bool:
    """Whether ``rest`` (what follows the verb in its jieba word) is a complement and then the verb's object (做完作业,
    写好报告, 吃完饭): a resultative complement and a word jieba's dictionary tags as a noun; or the object and 来 / 去
    (上楼去)."""
    tags = jieba_posseg().dt.word_tag_tab
    if len(rest) >= 2 and rest[-1] in "来去" and tags.get(rest[:-1], "").startswith(("n", "q", "s")):
        return True   # 上楼去, 回家来: the verb, its object and a simple directional complement
    return any(_complement(rest[:i]) and rest[:i] not in ("了", "着", "过") and tags.get(rest[i:], "").startswith("n")
               for i in (1, 2) if len(rest) > i)


#: jieba flags after which a word is a noun (numeral, measure word, 的): 一幅画, 我的画. jieba's own flag of a
#: word comes from its dictionary, whatever the context (学 is "n"), so it does not decide
ZH_NOUN_BEFORE = ("m", "q", "mq", "uj")
ZH_NOUN_WORDS_BEFORE = frozenset({"的", "这", "那", "这个", "那个", "每", "各"})
#: numerals jieba tags "m" that stand before a verb as adverbs of degree (多吃点儿, 少说话): no noun marker
ZH_DEGREE_ADVERBS = frozenset({"多", "少", "多多", "少少"})
#: one-character adverbs jieba may glue to the verb that follows them (不信, 多喝水, 别走)
ZH_PREVERBAL = frozenset("多少不没别再快常先也都就还又才刚稍")   # 稍: 稍等一下, 稍坐
#: resultative and directional complements (Li & Thompson 1981, Mandarin Chinese, ch. 3.3 and 3.4), and the
#: aspect markers jieba may keep on the verb: 搬到, 偷走, 关上, 拿出来, 写完, 学会, 看清楚
ZH_COMPLEMENTS = frozenset({
    "到", "走", "上", "下", "进", "出", "回", "过", "起", "开", "来", "去", "完", "好", "住", "掉", "成", "懂", "见", "会",
    "清", "破", "倒", "满", "错", "对", "在", "给", "跑", "光", "够", "透", "死", "坏", "醒", "着", "了",
    "碎", "断", "伤", "翻", "湿", "脏", "饱", "醉", "累", "哭", "亮", "穿", "紧", "松", "直", "弯", "歪", "齐", "遍",
    "熟", "烂", "丢", "晕", "胖", "瘦", "红", "黑", "疯", "通",
    "进来", "出来", "上来", "下来", "回来", "过来", "起来", "进去", "出去", "上去", "下去", "回去", "过去", "开来",
    "清楚", "干净", "明白", "完了", "好了", "到了", "走了", "上了", "下了", "出了", "进了", "过了", "起了",
})
#: complements that occur in the potential form (买不起, 搬不动, 来不及, 吃不惯) and in verb + complement lemmas (搬动)
ZH_POTENTIAL_ONLY = frozenset({"起", "动", "及", "惯"})
#: numerals that count people and stand in apposition after a personal pronoun (我们俩, 他们仨): Li & Thompson 1981, ch. 4.2
ZH_PERSON_NUMERALS = frozenset({"俩", "仨"})
#: words jieba tags as numerals that are adverbs before a verb (一起唱, 一下子跳, 一直走): no noun marker
ZH_ADVERBIAL_NUMERALS = frozenset({"一起", "一下子", "一下", "一直", "一边", "一定", "一共", "一块儿", "一再", "一齐",
                                   "一同", "一向", "一连", "一口气", "一一", "一并", "一道", "一时", "一旦", "一律",
                                   "一心", "一举", "一早", "一经", "一概", "一来", "一转眼", "一个劲", "一个劲儿",
                                   "一溜烟", "一窝蜂", "几乎", "几时", "一下儿", "一阵", "一阵子", "一眼"})
#: verbal measure phrases after a verb and its aspect marker (咬了一口, 看了一眼, 去过一次): Li & Thompson 1981, ch. 2.2
ZH_VERBAL_MEASURES = frozenset(n + m for n in "一两几三" for m in ("口", "下", "次", "遍", "眼", "趟", "回", "顿", "声", "脚", "拳"))
#: adverbs of degree before an adjective: a verb-object word after one is an adjective (很开心, 非常生气)
ZH_DEGREE_BEFORE_ADJECTIVE = frozenset({"很", "非常", "太", "真", "特别", "十分", "挺", "最", "更", "比较", "有点", "有点儿",
                                        "相当", "极其", "格外", "越来越", "那么", "这么", "多么"})
#: the copula: a noun-tagged word after it is its predicate noun (都是活鱼), not a verb with its object
ZH_COPULA = frozenset({"是", "叫", "像", "成为"})
#: one-character words jieba glues before a verb (去理了个发, 想请两天假): motion verbs and modals
ZH_GLUED_BEFORE = frozenset("去来想要会能可该敢肯")
#: one-character verbs jieba's HMM may glue before the verb of an imperative (请关好窗户); only where the
#: dictionary does not know the whole (请教, 请问 are words of their own)
ZH_GLUED_UNKNOWN = frozenset("请")
#: quantity words that may stand inside a separable verb-object word (操了不少心, 费了很多劲)
ZH_INFIX_WORDS = frozenset({"不少", "很多", "好多", "太多", "许多", "一点", "一点儿", "点儿", "一会儿", "半天", "大", "什么"})
#: what may stand inside a separable verb-object word (睡了一个好觉, 帮我一个忙, 生我的气, 散一会儿步):
#: aspect markers, numerals and measure words, pronouns with 的, adjectives (jieba flags)
ZH_INFIX_FLAGS = ("ul", "ug", "uz", "uj", "u", "m", "q", "mq", "r", "a", "t", "n", "ud")
ZH_MAX_INFIX = 5
#: jieba flags of what may follow a verb inside one segmented word: its object or a preposition (打篮球, 开门, 坐在)
ZH_OBJECT_FLAGS = ("n", "nr", "ns", "nz", "p", "f", "s", "q")
_NUMERALS = "0123456789０１２３４５６７８９一二三四五六七八九十两几半百千万零〇"


def _relative_clause(words: tuple[Word, ...], k: int) -> bool:
    """Whether word ``k`` opens a relative clause before 的: a verb (jieba's dictionary) follows it and 的 closes the
    phrase before the clause ends (一个会做饭的人, 一位爱笑的女孩: the measure word counts the noun after 的; Li &
    Thompson 1981, ch. 20 on relative clauses)."""
    if k + 1 >= len(words) or not words[k + 1][3].startswith(("v", "l", "i")):
        return False
    for w in words[k + 1:]:
        if w[3] == "x":
            return False
        if w[2] == "的":
            return True
    return False


def _noun_marker(words: tuple[Word, ...], k: int) -> str | None:
    """The word that makes word ``k`` a noun: a numeral or measure word (with adjectives or 的 between:
    一把新锁, 一个很好的建议), 的, or a demonstrative just before it; None when there is none. 多 / 少
    before a verb are adverbs of degree (多吃), not numerals."""
    for i in range(k - 1, max(-1, k - 4), -1):
        word, flag = words[i][2], words[i][3]
        if word in ZH_DEGREE_ADVERBS or word in ZH_ADVERBIAL_NUMERALS:
            return None   # 多吃, 一直走, 一时想不起来: adverbs jieba may tag as numerals
        if word in ZH_PERSON_NUMERALS and i > 0 and words[i - 1][3] == "r":
            return None   # 我们俩比一比: the numeral is in apposition to the pronoun subject
        verb_after = jieba_posseg().dt.word_tag_tab.get(words[k][2], "") == "v"
        if _time_point(_with_numerals_before(words, i), words[i - 1][2] if i > 0 else "", verb_after):
            return None   # 一九九八年毕业, 十月出发: a date or clock time is an adverbial of the verb
        if (flag in ("m", "mq") or _numeral_phrase(word)) and i == k - 1 and _verb_with_aspect(words, k):
            return None   # 一口喝了下去, 一把抓住了: a verbal measure phrase before the verb is an adverbial of manner
        if (flag in ("m", "mq") or _numeral_phrase(word)) and i == k - 1 and _relative_clause(words, k):
            return None   # 一个会做饭的人: the measure word counts the noun after 的; the word opens its relative clause
        if flag in ZH_NOUN_BEFORE or word in ZH_NOUN_WORDS_BEFORE or _numeral_phrase(word):
            return word
        if flag != "a":   # only adjectives stand between a numeral phrase and its noun
            return None
    return None


def _verb_with_aspect(words: tuple[Word, ...], k: int) -> bool:
    """Whether word ``k`` is a verb by jieba's dictionary only (v / vg, not a noun or verbal noun) and an aspect
    marker (了, 着, 过) or a directional complement (下去, 起来) follows it: a noun takes neither (Li & Thompson
    1981, ch. 6 and 3.3), so a numeral phrase before it counts the action (一口喝了下去), not the noun."""
    if jieba_posseg().dt.word_tag_tab.get(words[k][2], "") not in ("v", "vg") or k + 1 >= len(words):
        return False
    nxt = words[k + 1][2]
    return nxt in ("了", "着", "过") or len(nxt) == 2 and nxt in ZH_COMPLEMENTS


def _adjectival(prev: Word | None) -> bool:
    """Whether the word before is an adverb of degree (很, 非常): what follows it is an adjective (很开心)."""
    return prev is not None and prev[2] in ZH_DEGREE_BEFORE_ADJECTIVE


def _with_numerals_before(words: tuple[Word, ...], i: int) -> str:
    """Word ``i`` with the numerals jieba split off before it (二 〇 一 | 五年 -> 二〇一五年, 2019 | 年)."""
    joined = words[i][2]
    for j in range(i - 1, max(-1, i - 6), -1):
        if not words[j][2] or any(ch not in _NUMERALS for ch in words[j][2]):
            break
        joined = words[j][2] + joined
    return joined


#: time words before a clock time (下午三点开会, 每天八点上班)
ZH_TIMES_OF_DAY = frozenset({"早上", "上午", "中午", "下午", "晚上", "凌晨", "傍晚", "夜里", "明天", "今天", "昨天",
                             "每天", "天天", "平时", "通常", "一般", "早晨", "半夜"})
#: the directional verbs jieba's dictionary tags as localisers (上, 下): with an object they are verbs (上班, 下雨)
ZH_DIRECTIONAL_VERBS = frozenset("上下")


def _time_point(word: str, before: str, verb_after: bool = False) -> bool:
    """Whether ``word`` (a numeral phrase) names a point in time, not a quantity of a noun: a year of three or
    more digits (一九九八年, 2020年), a month or a day (十月, 五号, 三日), a clock time after a time of day
    (下午三点), with 钟/半 (三点钟), asked for (几点) or before a word jieba's dictionary calls a verb only
    (``verb_after``: 七点起床; 三点意见 is a quantity). 五年计划, 三点建议 stay quantities."""
    digits = word.rstrip("年月日号点钟半")
    if not digits or len(digits) == len(word) or any(ch not in _NUMERALS for ch in digits):
        return False
    unit = word[len(digits):]
    if unit == "年":
        return len(digits) >= 3
    if unit in ("月", "日", "号"):
        return True
    clock = unit == "点" and (before in ZH_TIMES_OF_DAY or digits == "几" or verb_after and len(digits) <= 2)
    return unit in ("点钟", "点半") or clock


def _numeral_phrase(word: str) -> bool:
    """A numeral with its measure word written as one jieba word (两封, 三幅, 一把): starts with a numeral."""
    return len(word) >= 2 and word[0] in _NUMERALS and word not in ZH_DEGREE_ADVERBS and word not in ZH_ADVERBIAL_NUMERALS


def _complement(rest: str) -> bool:
    """Whether ``rest`` (what follows the verb in its jieba word) is a resultative or directional complement,
    or the potential form of one (看不清楚, 听得懂, 吃不了, 买不起)."""
    if rest in ZH_COMPLEMENTS:
        return True
    if len(rest) == 3 and rest[0] == "了" and rest[1:] in ZH_COMPLEMENTS:
        return True   # 笑了起来, 走了出来: the aspect marker between the verb and a compound directional complement
    if len(rest) >= 3 and rest[0] in "了过" and rest[1:] in ZH_VERBAL_MEASURES:
        return True   # 咬了一口, 看过一遍: the aspect marker and a verbal measure (how often, how much)
    return len(rest) >= 2 and rest[0] in "不得" and (rest[1:] in ZH_COMPLEMENTS or rest[1:] in ZH_POTENTIAL_ONLY)


def _after_adverb(lemma: str, word: str, flag: str) -> int | None:
    """The offset of ``lemma`` in ``word`` when jieba glued a one-character adverb before the verb (不信,
    多喝水, 快上车: the adverb, then the verb alone, with a complement or with its object); None otherwise. A word the
    dictionary knows as a noun (先生) is not an adverb and a verb (a noun jieba's HMM made up may be)."""
    tags = jieba_posseg().dt.word_tag_tab
    if len(word) <= len(lemma) or word[0] not in ZH_PREVERBAL or not word[1:].startswith(lemma) \
            or (flag.startswith("n") and word in tags):
        return None
    rest = word[1 + len(lemma):]
    return 1 if not rest or _complement(rest) or tags.get(rest, "") in ZH_OBJECT_FLAGS or _numeral_phrase(rest) \
        or rest in ZH_VERBAL_MEASURES else None   # 稍等一下: the adverb, the verb and its verbal measure


def _separated(words: tuple[Word, ...], k: int, lemma: str) -> int | None:
    """The end of a separable verb-object word ``lemma`` (睡觉, 帮忙, 洗澡) split around word ``k``: the verb
    character begins word ``k`` (睡, 洗完, 结了婚) and its object character ends a word in the same clause,
    with only aspect markers, numerals, measure words, pronouns, 的 and adjectives between (睡了一个好觉,
    帮我一个忙, 生了我的气, 散了一会儿步); None otherwise."""
    if len(lemma) not in (2, 3):
        return None
    verb, obj = lemma[0], lemma[1:]
    word = words[k][2]
    if len(word) >= 2 and (word[0] in ZH_GLUED_BEFORE or word[0] in ZH_PREVERBAL) and word[1] == verb:
        word = word[1:]   # 去理了个发, 想请两天假, 再生他的气: a modal or an adverb glued before the verb
    if not word.startswith(verb):
        return None
    if len(word) > len(lemma) and word.endswith(obj) and all(ch in "了过着完好个一" for ch in word[1:-len(obj)]):
        return words[k][1]   # 结了婚, 见过面 as one word
    if len(word) > 1 and not _complement(word[1:]):
        return None
    for j in range(k + 1, min(len(words), k + 2 + ZH_MAX_INFIX)):
        w, flag = words[j][2], words[j][3]
        separated = j > k + 1 or len(word) > 1 or _complement(w[:-len(obj)]) or all(ch in "了过着" for ch in w[:-len(obj)])
        if w.endswith(obj) and (separated or w == obj) and len(w) <= ZH_MAX_INFIX + len(obj) - 1:
            return words[j][1]
        if flag == "x" or not (flag in ZH_INFIX_FLAGS or _complement(w) or w in ZH_INFIX_WORDS):
            return None
    return None


def _verb_object(lemma: str, word: str, flag: str, prev: Word | None, before: Word | None = None) -> bool:
    """Whether ``word`` is the verb ``lemma`` written together with its object or a preposition, as jieba
    segments verb-object phrases (打篮球, 开门, 写信, 坐在, 下雨): jieba's dictionary tags the lemma (or the whole) a verb and
    the rest a noun, place word or preposition, and the whole a verb; or the whole a noun (读书, 锁门) that
    stands where a verb stands: after an adverb, a pronoun or another verb (请锁门, 多读书), never first in
    its sentence or after a numeral, a measure word or 的 (打火机在桌上, 他的写字台). 看法 (rest 法: an
    abbreviation), 打算 and 开关 (rest a verb), 走廊 and 读者 (a one-character bound rest) are not the verb, nor a noun after
    a verb and its aspect marker (穿着睡衣, 买了 | 读书灯: ``prev``, and ``before`` the word before it)."""
    tags = jieba_posseg().dt.word_tag_tab
    rest = word[len(lemma):]
    rest_tag = tags.get(rest, "")
    if flag == "v" and len(word) == 2 and rest_tag == "zg":
        rest_tag = "n"   # 开车: jieba's dictionary calls the verb-object word a verb and the bound object "zg"
    verb = tags.get(lemma, "").startswith("v") or flag == "v" or lemma in ZH_DIRECTIONAL_VERBS
    if not rest or not verb or rest_tag not in ZH_OBJECT_FLAGS:
        return False
    if len(lemma) >= 2 and len(rest) == 1 and rest_tag.startswith("n"):
        return False   # 结婚照, 游泳池: a two-character verb + a one-character head noun is a compound noun
    if flag.startswith("v"):
        return True
    if prev is not None and prev[2] in ZH_COPULA:
        return False   # 都是活鱼: the copula's predicate noun
    if prev is not None and prev[2] in ZH_DEGREE_ADVERBS:
        return True
    if prev is not None and (len(prev[2]) >= 2 and prev[2][-1] in "着了过" and prev[3].startswith("v")
                             or prev[2] in ("着", "了", "过") and before is not None and before[3].startswith("v")):
        return False   # 穿着睡衣, 买了 | 读书灯: the object noun of a verb that already has its aspect marker
    return prev is not None and prev[3] not in (*ZH_NOUN_BEFORE, "x") and not prev[3].startswith("n") \
        and prev[2] not in ZH_NOUN_WORDS_BEFORE
