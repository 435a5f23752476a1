"""Chinese context rules: when a jieba word that is a form of the verb lemma is no verb in its sentence.

:func:`fbagent.checks.verb_match_zh.find_verb_zh` finds the forms of the lemma among jieba's words; the rules
here weigh one such word against the words around it (jieba ``posseg`` flags, ICTCLAS tag set) and name, in
one phrase, why it is not the verb:

- a coverb (在, 给, 跟, 比, 对 ...) is a preposition when another predicate follows its object in the same
  clause (在公园里放风筝, 给你打电话, 比我高); it is the verb only when its object ends the clause (他现在在家吗,
  我给你一本书). Li & Thompson 1981, *Mandarin Chinese*, ch. 9 (coverbs);
- 得 right after a verb or an adjective is the structural particle of a complement of manner or degree
  (跑得快, de), not the verb 得 (dé, obtain);
- a verbal noun that is the subject of a 被 passive with a noun before it (我们的旅行计划被取消了), or that a
  place noun modifies before 的 (城市生活的节奏): a noun;
- after a demonstrative with its measure word (这项研究, 那种生活): a noun (ch. 4.2: a classifier phrase
  modifies a noun).

Each rule returns None when it does not apply, else the reason (a phrase naming the form and the context).
"""

from __future__ import annotations

from fbagent.checks.analysers import jieba_posseg
from fbagent.checks.verb_function_zh import dictionary_split

Word = tuple[int, int, str, str]

#: coverbs: verbs that stand before another predicate as prepositions (Li & Thompson 1981, ch. 9). 到, 用, 让, 叫
#: are left out: their verb reading before a second verb is common (用筷子吃饭 is read as 'use' by many annotators)
ZH_COVERBS = frozenset({"在", "给", "跟", "比", "对", "向", "往", "从", "离", "和", "同", "替", "为", "朝", "被", "把"})
#: jieba flags of the words that may make up a coverb's object (a noun phrase: nouns, pronouns, place and time words,
#: localisers, numerals and measure words, 的, the plural suffix 们)
ZH_OBJECT_PHRASE_FLAGS = ("n", "nr", "ns", "nt", "nz", "ng", "r", "s", "f", "m", "q", "mq", "uj", "k", "t", "nrt", "nrfg")
#: what may end a clause after the coverb's object without making it a preposition: sentence-final particles (吗, 呢,
#: 吧), the aspect particle 了 and punctuation
ZH_CLAUSE_END_FLAGS = ("x", "y", "ul", "e")
#: demonstratives and quantifiers that take a measure word (这项研究, 每种方法)
ZH_DEMONSTRATIVES = "这那每各哪某该本"
#: demonstratives and quantifiers as jieba's words of their own (那 | 项 | 研究)
ZH_DEMONSTRATIVE_WORDS = frozenset({"这", "那", "每", "各", "哪", "某", "这些", "那些"})
#: nominal measure words (classifiers of nouns). The verbal ones (次, 回, 趟, 遍, 下) are left out: 这次去 is an
#: adverbial of the verb
ZH_NOMINAL_CLASSIFIERS = frozenset(
    "个项种些位件本条张家份类批场篇部首段门名台辆座所支只双对套幅封句棵片块层群队届款样"
    "把盏扇架顶颗粒枝朵间根副匹头")   # issue 41g: 这把锁, 那盏灯 (把 after a demonstrative is the classifier, not 'ba')
#: words with a demonstrative first that are adverbs or pronouns, not a demonstrative with a classifier
ZH_DEMONSTRATIVE_ADVERBS = frozenset({"这样", "那样", "这么", "那么", "这儿", "那儿", "这里", "那里", "哪里", "哪儿",
                                      "这边", "那边", "本来", "本人", "各位", "该样"})
#: the markers of a passive: the word before the agent (被雨淋湿, 给雨淋湿, 叫狗咬了, 让人骗了)
ZH_PASSIVE_MARKERS = frozenset({"被", "给", "叫", "让"})
#: jieba flags of a noun that may modify a verbal noun as a place or field (城市生活, 校园生活, 地铁站出口)
ZH_PLACE_FLAGS = ("ns", "s", "nt")
#: jieba flags of a predicate a coverb phrase may stand before (verbs, adjectives, idioms, verb-object phrases
#: jieba calls nouns are covered by "anything else" in :func:`coverb_before_predicate`)
_NOUN_FLAGS = ("n", "vn", "nz", "ns", "nt", "s", "ng")


def coverb_before_predicate(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why word ``k`` (the coverb ``lemma`` alone, or with its object glued: 在家) is a preposition: its object
    phrase (nouns, pronouns, numerals, localisers, 的) is followed, in the same clause, by another predicate
    (在公园里放风筝, 跟他一起去, 比我高); None when the object phrase ends the clause (在家吗, 给你一本书)."""
    if lemma not in ZH_COVERBS and not (lemma == "到" and _after_cong(words, k)) or not words[k][2].startswith(lemma):
        return None
    closed = False   # a localiser (里, 上, 中) ends a place phrase: 在公园里 | 放风筝
    for j in range(k + 1, len(words)):
        word, flag = words[j][2], words[j][3]
        if flag in ZH_CLAUSE_END_FLAGS or word in ("。", "，", "？", "！", "；", "、"):
            return None
        predicate = closed or (flag == "nz" and verb_object_shape(word)) \
            or _rare_verb_phrase(word)   # 跟朋友聊天: jieba calls 聊天 a noun; 打了个 a noun of frequency 3
        if not predicate and flag in ZH_OBJECT_PHRASE_FLAGS and not (flag == "m" and word in ("一起", "一直", "一定", "一边")):
            closed = flag == "f"
            continue
        if not predicate and place_with_localiser(word):
            closed = True   # 操场上 as one word (jieba's HMM may tag it a verb)
            continue
        return f"'{lemma}' is a preposition here (a coverb): '{word}' after its object is the predicate"
    return None


#: localisers that close a place phrase (Li & Thompson 1981, ch. 11: locative particles)
ZH_LOCALISERS = frozenset("上里中下内外边前后旁")


def _after_cong(words: tuple[Word, ...], k: int) -> bool:
    """Whether 从 (from) stands before word ``k`` in its clause: 到 is then the preposition of the 从 ... 到 frame
    (从北京到上海坐高铁), a coverb as the others (Li & Thompson 1981, ch. 9)."""
    for j in range(k - 1, max(-1, k - 6), -1):
        if words[j][3] == "x":
            return False
        if words[j][2] == "从":
            return True
    return False


def _rare_verb_phrase(word: str) -> bool:
    """Whether ``word`` is a phrase jieba's dictionary holds as one rare word whose first part is a verb (打了个,
    提前完成 is an adverb first: no): :func:`fbagent.checks.verb_function_zh.dictionary_split`."""
    cut = dictionary_split(word)
    return cut is not None and jieba_posseg().dt.word_tag_tab.get(cut[0], "").startswith("v")


def place_with_localiser(word: str) -> bool:
    """Whether ``word`` is a noun with a localiser glued on (操场上, 桌子上面 as one word): the noun without its
    last character is a noun or place word in jieba's dictionary."""
    if len(word) < 2 or word[-1] not in ZH_LOCALISERS:
        return False
    return jieba_posseg().dt.word_tag_tab.get(word[:-1], "").startswith(("n", "s"))


def verb_object_shape(word: str) -> bool:
    """Whether ``word`` is a verb + its object by jieba's dictionary (回家, 聊天, 放风筝): two or three characters,
    the first a verb, the rest a noun, measure word or place word."""
    tags = jieba_posseg().dt.word_tag_tab
    return len(word) in (2, 3) and tags.get(word[0], "").startswith("v") \
        and tags.get(word[1:], "").startswith(("n", "q", "s"))


def particle_de(words: tuple[Word, ...], k: int, lemma: str) -> str | None:
    """Why 得 (word ``k``) is not the verb 得 (dé, obtain): the structural particle de after a verb or an adjective
    (跑得快, 高兴得跳起来), or the modal děi before a verb or adverb (我得走了, 你得早点儿回家)."""
    if lemma != "得" or words[k][2] != "得" or k == 0:
        return None
    prev_word, prev_flag = words[k - 1][2], words[k - 1][3]
    if prev_flag.startswith(("v", "a")) or prev_flag in ("l", "i", "z", "b"):
        return f"'得' after '{prev_word}' is the particle of a complement (de), not the verb 得 (dé)"
    nxt = words[k + 1] if k + 1 < len(words) else None
    if nxt is not None and nxt[2] not in ("了", "过", "着", "到") \
            and (nxt[3].startswith(("v", "d", "p")) or nxt[3] in ("l", "i") or verb_object_shape(nxt[2])):
        return f"'得' before '{nxt[2]}' is the modal děi (must), not the verb 得 (dé)"
    return None


def nominal_use(words: tuple[Word, ...], k: int) -> str | None:
    """Why word ``k`` is a noun by its context: the subject of a 被 passive after a noun or 的 (旅行计划被取消), a
    verbal noun a place noun modifies before 的 (城市生活的节奏), or the noun of a demonstrative with its measure
    word (这项研究, 那种生活); None otherwise."""
    word, flag = words[k][2], words[k][3]
    prev = words[k - 1] if k > 0 else None
    nxt = words[k + 1] if k + 1 < len(words) else None
    if prev is not None and (demonstrative_classifier(prev[2]) or k >= 2 and prev[2] in ZH_NOMINAL_CLASSIFIERS
                             and words[k - 2][2] in ZH_DEMONSTRATIVE_WORDS):
        return f"'{word}' follows '{prev[2]}' (a demonstrative with its measure word) and is read as a noun"
    if (why := _clause_final_noun(words, k)) is not None:
        return why
    if prev is None or nxt is None:
        return None
    modifier = prev[3].startswith(_NOUN_FLAGS) or prev[3] == "uj" or (prev[3] == "v" and k >= 2 and words[k - 2][3] == "uj")
    if nxt[2] == "被" and modifier:
        return f"'{word}' is the subject of the passive '被' after '{prev[2]}' and is read as a noun"
    if prev[2] in ZH_COPULA and flag == "n" and nxt[3].startswith("n"):
        return f"'{word}' modifies the noun '{nxt[2]}' after the copula '{prev[2]}' (jieba reads it as a noun)"
    if (coverb := _in_coverb_object(words, k)) is not None:
        return f"'{word}' is inside the place phrase of '{coverb}' (before the predicate '{nxt[2]}') and is a noun"
    if nxt[2] == "的" and flag in ("vn", "n") and prev[3] in ZH_PLACE_FLAGS \
            and not any(w[2] in ZH_COVERBS for w in words[max(0, k - 3):k - 1]):
        return f"'{word}' stands between the place noun '{prev[2]}' and '的' and is read as a noun ({prev[2]}{word})"
    return None


#: the copula: a word jieba tags as a noun after it is part of its predicate noun phrase (是活虾)
ZH_COPULA = frozenset({"是"})
#: coverbs of place whose object may end in a verbal noun (在地铁站出口等你, 从大门入口进去)
ZH_PLACE_COVERBS = frozenset({"在", "从", "到", "往", "向", "离", "朝"})


#: interrogative and quantifying determiners before a noun (什么打算, 任何计划, 哪些安排): Li & Thompson 1981, ch. 4
ZH_NOUN_DETERMINERS = frozenset({"什么", "任何", "哪些", "一些", "所有", "其他", "其它", "别的", "某些", "许多", "很多",
                                 "不少", "这种", "那种", "哪种"})
#: what may follow a noun phrase that ends a clause or is a subject: punctuation, sentence-final particles, the
#: copula, 都, 也 (before 被 the passive's own rule names the reason)
ZH_AFTER_NOUN_PHRASE = frozenset({"吗", "呢", "吧", "啊", "是", "都", "也"})


def _clause_final_noun(words: tuple[Word, ...], k: int) -> str | None:
    """Why word ``k`` is the head noun of a noun phrase that ends its clause or stands before 是 / 都 / 也: after a
    determiner of :data:`ZH_NOUN_DETERMINERS` (你有什么打算？) or after 的 and a noun modifier (我们明年的旅行计划。);
    None otherwise (a verb after 什么 has its own object or complement: 什么时候去)."""
    nxt = words[k + 1] if k + 1 < len(words) else None
    if not (nxt is None or nxt[3] in ("x", "y", "c") or nxt[2] in ZH_AFTER_NOUN_PHRASE) or k == 0:
        return None
    if nxt is not None and nxt[3] == "c" and _measure_before(words, k) is None:
        return None   # a conjunction after it: only a measure word's phrase is read as coordinated nouns
    prev = words[k - 1]
    if prev[2] in ZH_NOUN_DETERMINERS:
        return f"'{words[k][2]}' follows the determiner '{prev[2]}' and ends its noun phrase: a noun"
    if (measure := _measure_before(words, k)) is not None:
        return f"'{words[k][2]}' ends the noun phrase of the measure word '{measure}' and is read as a noun"
    if k >= 2 and words[k - 2][2] == "的" and prev[3] in ("n", "vn", "nz", "v") and words[k][3] in ("n", "vn", "v"):
        return f"'{words[k][2]}' ends the noun phrase '的 {prev[2]}{words[k][2]}' and is read as a noun"
    return None


#: what may stand before a measure word in one jieba word: numerals, 有 (有个会: 有一个), demonstratives
_MEASURE_OPENERS = "0123456789一二三四五六七八九十两几半百千万有这那每"


def _measure_before(words: tuple[Word, ...], k: int) -> str | None:
    """The numeral (or 有, a demonstrative) + nominal measure word written as one jieba word before word ``k``, with
    at most two noun or adjective modifiers between (一份扬州炒饭, 有个会): a measure word counts a noun, so the word
    that ends its phrase is the noun (Li & Thompson 1981, ch. 4.2.1). The caller asks that the phrase end there
    (punctuation, a final particle, a conjunction). None otherwise, and where a coverb (把, 被) stands before the
    measure word and modifiers follow it: its object ends before the verb (把这个电话号码记住)."""
    j = k - 1
    while j >= 0 and k - j <= 2 and words[j][3] in ("n", "ns", "nz", "nr", "a") and len(words[j][2]) >= 2:
        j -= 1
    if j < 0:
        return None
    word = words[j][2]
    if len(word) not in (2, 3) or word[0] not in _MEASURE_OPENERS or word[-1] not in ZH_NOMINAL_CLASSIFIERS \
            or word in ZH_DEMONSTRATIVE_ADVERBS:
        return None
    if j < k - 1 and j > 0 and words[j - 1][2] in ZH_COVERBS:
        return None   # 把这个电话号码记住: the coverb's object ends before its verb
    return word


def _in_coverb_object(words: tuple[Word, ...], k: int) -> str | None:
    """The coverb of place whose object phrase word ``k`` (a verbal noun after a noun: 地铁站出口) ends, where a
    verb follows (在地铁站出口等你); None otherwise (在家工作: the verb ends the clause)."""
    if words[k][3] not in ("vn", "n") or k < 2 or k + 1 >= len(words) or not words[k - 1][3].startswith(("n", "s", "m")):
        return None   # a numeral before: an ordinal (从二号出口出站)
    if not (words[k + 1][3].startswith("v") or words[k + 1][3] == "u" or verb_object_shape(words[k + 1][2])):
        return None   # 见面 after it: jieba calls the verb-object word a noun
    for i in range(k - 2, max(-1, k - 5), -1):
        if words[i][2] in ZH_PLACE_COVERBS:
            return words[i][2]
        if not words[i][3].startswith(("n", "s", "r", "uj", "m")):
            return None
    return None


def demonstrative_classifier(word: str) -> bool:
    """Whether ``word`` is a demonstrative or quantifier with a nominal measure word (这项, 那种, 每位, 这些)."""
    return len(word) in (2, 3) and word[0] in ZH_DEMONSTRATIVES and word not in ZH_DEMONSTRATIVE_ADVERBS \
        and word[-1] in ZH_NOMINAL_CLASSIFIERS and (len(word) == 2 or word[1] in "一几两")


def passive_agent_glued(words: tuple[Word, ...], k: int, lemma: str, tags: dict[str, str]) -> int | None:
    """The offset of ``lemma`` in word ``k`` when jieba glued the agent of a passive to the verb (给雨淋湿:
    '雨淋' after the passive marker 给, the agent a noun or pronoun by jieba's dictionary); None otherwise. The
    caller checks that only a complement follows the verb in the word."""
    if k == 0 or words[k - 1][2] not in ZH_PASSIVE_MARKERS:
        return None
    word = words[k][2]
    p = word.find(lemma, 1)
    return p if p >= 1 and tags.get(word[:p], "").startswith(("n", "r")) else None
