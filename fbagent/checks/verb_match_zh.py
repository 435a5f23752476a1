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
#: the passive and causative light verbs of a noun + 하다 verb (교체하다: 교체되다, 교체시키다): the Korean
#: FrameNet annotates them as the 하다 LU (its exemplars of 교체하다, 통제하다, 저장하다 use them)
KO_HADA_VOICES = ("되", "시키")


def find_verb_zh(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first word of ``sentence`` that is the verb ``lemma`` (see the module doc), else a refusal.

    Returns ``(start, end, surface, "")`` when found; ``(-1, -1, "", note)`` when the lemma's characters
    occur only inside other words or as a noun; None when they do not occur at all.
    """
    words = jieba_words(sentence)
    forms = {lemma, lemma + lemma, lemma + "一" + lemma, lemma + "了" + lemma}
    if len(lemma) == 2:   # a verb-object word reduplicates its verb only (散散步, 聊聊天, 洗了洗澡)
        forms |= {lemma[0] + lemma, lemma[0] + "一" + lemma, lemma[0] + "了" + lemma}
    inside: list[str] = []
    for k, (start, end, word, flag) in enumerate(words):
        prev = words[k - 1] if k > 0 else None
        if word in forms:
            if (noun := _noun_marker(words, k)) is not None:
                inside.append(f"'{word}' follows '{noun}' and is read as a noun")
                continue
            return start, end, word, ""
        if word.startswith(lemma) and _noun_marker(words, k) is None and not _adjectival(prev) \
                and (_complement(word[len(lemma):]) or _verb_object(lemma, word, flag, prev)):
            return start, start + len(lemma), lemma, ""
        if (hit := _after_adverb(lemma, word, flag)) is not None:
            return start + hit, start + hit + len(lemma), lemma, ""
        if (split := _separated(words, k, lemma)) is not None:
            skip = 1 if not words[k][2].startswith(lemma[:1]) else 0
            return start + skip, split, sentence[start + skip:split], ""
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
#: numerals jieba tags "m" that stand before a verb as adverbs of degree (多吃点儿, 少说话): no noun marker
ZH_DEGREE_ADVERBS = frozenset({"多", "少", "多多", "少少"})
#: one-character adverbs jieba may glue to the verb that follows them (不信, 多喝水, 别走)
ZH_PREVERBAL = frozenset("多少不没别再快常先也都就还又才刚")
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
#: adverbs of degree before an adjective: a verb-object word after one is an adjective (很开心, 非常生气)
ZH_DEGREE_BEFORE_ADJECTIVE = frozenset({"很", "非常", "太", "真", "特别", "十分", "挺", "最", "更", "比较", "有点", "有点儿",
                                        "相当", "极其", "格外", "越来越", "那么", "这么", "多么"})
#: the copula: a noun-tagged word after it is its predicate noun (都是活鱼), not a verb with its object
ZH_COPULA = frozenset({"是", "叫", "像", "成为"})
#: one-character words jieba glues before a verb (去理了个发, 想请两天假): motion verbs and modals
ZH_GLUED_BEFORE = frozenset("去来想要会能可该敢肯")
#: quantity words that may stand inside a separable verb-object word (操了不少心, 费了很多劲)
ZH_INFIX_WORDS = frozenset({"不少", "很多", "好多", "太多", "许多", "一点", "一点儿", "点儿", "一会儿", "半天", "大", "什么"})
#: what may stand inside a separable verb-object word (睡了一个好觉, 帮我一个忙, 生我的气, 散一会儿步):
#: aspect markers, numerals and measure words, pronouns with 的, adjectives (jieba flags)
ZH_INFIX_FLAGS = ("ul", "ug", "uz", "uj", "u", "m", "q", "mq", "r", "a", "t", "n", "ud")
ZH_MAX_INFIX = 5
#: jieba flags of what may follow a verb inside one segmented word: its object or a preposition (打篮球, 开门, 坐在)
ZH_OBJECT_FLAGS = ("n", "nr", "ns", "nz", "p", "f", "s", "q")
_NUMERALS = "0123456789０１２３４５６７８９一二三四五六七八九十两几半百千万零"


def _noun_marker(words: tuple[tuple[int, int, str, str], ...], k: int) -> str | None:
    """The word that makes word ``k`` a noun: a numeral or measure word (with adjectives or 的 between:
    一把新锁, 一个很好的建议), 的, or a demonstrative just before it; None when there is none. 多 / 少
    before a verb are adverbs of degree (多吃), not numerals."""
    for i in range(k - 1, max(-1, k - 4), -1):
        word, flag = words[i][2], words[i][3]
        if word in ZH_DEGREE_ADVERBS:
            return None
        if flag in ZH_NOUN_BEFORE or word in ZH_NOUN_WORDS_BEFORE or _numeral_phrase(word):
            return word
        if flag != "a":   # only adjectives stand between a numeral phrase and its noun
            return None
    return None


def _adjectival(prev: tuple[int, int, str, str] | None) -> bool:
    """Whether the word before is an adverb of degree (很, 非常): what follows it is an adjective (很开心)."""
    return prev is not None and prev[2] in ZH_DEGREE_BEFORE_ADJECTIVE


def _numeral_phrase(word: str) -> bool:
    """A numeral with its measure word written as one jieba word (两封, 三幅, 一把): starts with a numeral."""
    return len(word) >= 2 and word[0] in _NUMERALS and word not in ZH_DEGREE_ADVERBS


def _complement(rest: str) -> bool:
    """Whether ``rest`` (what follows the verb in its jieba word) is a resultative or directional complement,
    or the potential form of one (看不清楚, 听得懂, 吃不了, 买不起)."""
    if rest in ZH_COMPLEMENTS:
        return True
    return len(rest) >= 2 and rest[0] in "不得" and (rest[1:] in ZH_COMPLEMENTS or rest[1:] in ("起", "动", "及", "惯"))


def _after_adverb(lemma: str, word: str, flag: str) -> int | None:
    """The offset of ``lemma`` in ``word`` when jieba glued a one-character adverb before the verb (不信,
    多喝水: the adverb, then the verb alone, with a complement or with its object); None otherwise. A word the
    dictionary knows as a noun (先生) is not an adverb and a verb."""
    if len(word) <= len(lemma) or word[0] not in ZH_PREVERBAL or not word[1:].startswith(lemma) or flag.startswith("n"):
        return None
    rest = word[1 + len(lemma):]
    tags = jieba_posseg().dt.word_tag_tab
    return 1 if not rest or _complement(rest) or tags.get(rest, "") in ZH_OBJECT_FLAGS or _numeral_phrase(rest) else None


def _separated(words: tuple[tuple[int, int, str, str], ...], k: int, lemma: str) -> int | None:
    """The end of a separable verb-object word ``lemma`` (睡觉, 帮忙, 洗澡) split around word ``k``: the verb
    character begins word ``k`` (睡, 洗完, 结了婚) and its object character ends a word in the same clause,
    with only aspect markers, numerals, measure words, pronouns, 的 and adjectives between (睡了一个好觉,
    帮我一个忙, 生了我的气, 散了一会儿步); None otherwise."""
    if len(lemma) not in (2, 3):
        return None
    verb, obj = lemma[0], lemma[1:]
    word = words[k][2]
    if len(word) >= 2 and word[0] in ZH_GLUED_BEFORE and word[1] == verb:
        word = word[1:]   # 去理了个发, 想请两天假: a motion verb or modal glued before the verb
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


def _verb_object(lemma: str, word: str, flag: str, prev: tuple[int, int, str, str] | None) -> bool:
    """Whether ``word`` is the verb ``lemma`` written together with its object or a preposition, as jieba
    segments verb-object phrases (打篮球, 开门, 写信, 坐在): jieba's dictionary tags the lemma a verb and
    the rest a noun, place word or preposition, and the whole a verb; or the whole a noun (读书, 锁门) that
    stands where a verb stands: after an adverb, a pronoun or another verb (请锁门, 多读书), never first in
    its sentence or after a numeral, a measure word or 的 (打火机在桌上, 他的写字台). 看法 (rest 法: an
    abbreviation), 打算 and 开关 (rest a verb), 走廊 and 读者 (a one-character bound rest) are not the verb."""
    tags = jieba_posseg().dt.word_tag_tab
    rest = word[len(lemma):]
    rest_tag = tags.get(rest, "")
    if flag == "v" and len(word) == 2 and rest_tag == "zg":
        rest_tag = "n"   # 开车: jieba's dictionary calls the verb-object word a verb and the bound object "zg"
    if not rest or not tags.get(lemma, "").startswith("v") or rest_tag not in ZH_OBJECT_FLAGS:
        return False
    if flag.startswith("v"):
        return True
    if prev is not None and prev[2] in ZH_COPULA:
        return False   # 都是活鱼: the copula's predicate noun
    if prev is not None and prev[2] in ZH_DEGREE_ADVERBS:
        return True
    return prev is not None and prev[3] not in (*ZH_NOUN_BEFORE, "x") and not prev[3].startswith("n") \
        and prev[2] not in ZH_NOUN_WORDS_BEFORE


def _ko_stem(lemma: str) -> str:
    lemma = lemma.replace(" ", "").replace("_", "")
    return lemma[:-1] if lemma.endswith("다") and len(lemma) > 1 else lemma


def find_verb_ko(sentence: str, lemma: str) -> tuple[int, int, str, str] | None:
    """The first predicate of ``sentence`` whose stem is ``lemma``'s (see the module doc), else a refusal.

    A noun + 하다 lemma is also found as the noun + 되다 (passive) or + 시키다 (causative), as the Korean
    FrameNet annotates them (:data:`KO_HADA_VOICES`); a multi-word lemma's ``_`` is dropped (손에_넣다); a
    word that begins with the stem's spelling where Kiwi reads a verb there counts (해보았지만 for 해보다,
    the 하 + 어 contraction Kiwi splits).

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
            hada = stem.endswith("하") and form in KO_HADA_VOICES and base in KO_SUFFIX_TAGS
            for k in range(j - 1, max(-1, j - KO_MAX_PREFIX - 1), -1):
                joined = "".join(m[2] for m in morphemes[k:j])
                if joined + form == stem or (hada and joined == stem[:-1]):
                    return _word(sentence, morphemes[k][0])
        if base in KO_VERB_TAGS and (_auxiliary_compound(form, stem) or _l_dropped(morphemes, j, stem)):
            return _word(sentence, start)
        if base in KO_VERB_TAGS and len(stem) >= 2 and _contracted_auxiliary(morphemes, j) \
                and _word(sentence, start)[2].startswith(stem) and _word(sentence, start)[0] == start:
            return _word(sentence, start)   # an auxiliary contracted with its verb: 해보았지만 (하 + 어 + 보)
    if (dropped := _l_dropped_word(sentence, morphemes, stem)) is not None:
        return _word(sentence, dropped)
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
                and _next_is_noun(morphemes, start + len(core)):
            return start
    return None


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
