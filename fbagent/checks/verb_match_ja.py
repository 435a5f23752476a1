"""The Japanese verb check: fugashi + UniDic, by lemma and by reading (used by :mod:`fbagent.checks.verb_match`).

An LU lemma (``取る``, ``とる``, ``勉強する``) is found in a sentence when a word that UniDic reads as
a verb (``pos1 == 動詞``) ends it, and the words before that verb spell the rest of the lemma:

- by writing: the verb's dictionary form (``orthBase``, or UniDic's ``lemma``, which joins
  spellings of one lexeme: 撮る is 取る) completes the surfaces before it
  (``勉強`` + ``する``, ``電話を`` + ``かける``);
- by reading, when the lemma is written in kana: the verb's dictionary reading (``kanaBase`` /
  ``lForm``, in hiragana) completes the readings before it, so ``とる.v`` meets 取った and 撮る,
  and ``かける.v`` meets 掛けた.

A noun that shares the verb's kanji or reading (出口, 出発, かけ算) is never a verb word, so it never
matches. Shapes: :func:`find_verb_ja` returns ``(start, end, surface, "")`` character offsets of the
matched words (the verb, the words before it that spell the lemma, and the auxiliaries after it
that inflect it: 取った, 出ます), or None. A contracted causative-passive (待たされた, 飲まされた), which
UniDic reads as the verb 待たす, is the verb 待つ (:func:`causative_base`).
"""

from __future__ import annotations

from typing import Any

#: UniDic's pos1 of a verb word
VERB_POS = "動詞"
#: UniDic's pos1 of an auxiliary (た, ます, ない): taken into the verb's span, as the inflection
AUX_POS = "助動詞"
#: how many words before the verb may spell the start of the lemma (勉強 + する, 電話 を + かける)
MAX_PREFIX_WORDS = 3


def to_hiragana(text: str) -> str:
    """Katakana letters of ``text`` as hiragana (``トル`` -> ``とる``); other characters unchanged."""
    return "".join(chr(ord(ch) - 0x60) if "\u30a1" <= ch <= "\u30f6" else ch for ch in text)


def is_kana(text: str) -> bool:
    """True when every character of ``text`` is hiragana or katakana (the prolonged sound mark included)."""
    return bool(text) and all("\u3040" <= ch <= "\u30ff" for ch in text)


#: the a-row kana of a godan verb's causative stem -> the u-row kana of its dictionary form (待た -> 待つ)
_A_TO_U = dict(zip("かがさざただなばぱまらわ", "くぐすずつづぬぶぷむるう", strict=True))


def causative_base(form: str) -> str:
    """The verb of a contracted (short) causative in dictionary form: ``待たす`` -> ``待つ``, ``やらす`` ->
    ``やる``, ``飲ます`` -> ``飲む``; "" for any other form. UniDic reads the contracted causative-passive
    (``待たされた``: 待たさ + れ + た) as a verb of its own, ``待たす`` (Kaiser et al. 2013, *Japanese: A
    Comprehensive Grammar*, § 7.3: -(a)su, the colloquial short causative of godan verbs)."""
    if len(form) >= 3 and form.endswith("す") and form[-2] in _A_TO_U:
        return form[:-2] + _A_TO_U[form[-2]]
    return ""


#: the endings of the doublets of Sino-Japanese verbs (Kaiser et al. 2013, § 7.1.3): the -zuru / -jiru verbs (信ずる
#: = 信じる, 感ずる = 感じる; UniDic's lemma is the -ずる form) and the -suru / -su verbs (愛する = 愛す, 訳する = 訳す)
JA_DOUBLET_ENDINGS = (("ずる", "じる"), ("じる", "ずる"), ("する", "す"))


def doublet(form: str) -> str:
    """The other member of a Sino-Japanese verb's doublet: ``信ずる`` -> ``信じる``, ``感じる`` -> ``感ずる``,
    ``愛する`` -> ``愛す``, ``愛す`` -> ``愛する``; "" for any other form (one kanji or more before the ending, so
    plain する, ずる and the godan す verbs written in kana are left alone)."""
    for ending, other in JA_DOUBLET_ENDINGS:
        if form.endswith(ending) and len(form) > len(ending) and not is_kana(form[:-len(ending)]):
            return form[:-len(ending)] + other
    if form.endswith("す") and len(form) == 2 and not is_kana(form[0]):
        return form + "る"   # 愛す -> 愛する (two characters: 押す -> 押する is no verb, but is never a lemma)
    return ""


#: second verbs of V-stem + V compounds (Kageyama 1993, *Bunpō to gokeisei*, ch. 3: syntactic and lexical
#: compound verbs): 押し込む, 書き直す, 食べ過ぎる; UniDic reads many of them as one verb
JA_COMPOUND_SECONDS = ("込む", "こむ", "出す", "だす", "始める", "はじめる", "続ける", "つづける", "終わる", "おわる",
                       "終える", "おえる", "合う", "あう", "直す", "なおす", "返す", "かえす", "切る", "きる", "過ぎる",
                       "すぎる", "上げる", "あげる", "回る", "まわる", "付ける", "つける", "取る", "とる", "抜く", "ぬく",
                       "忘れる", "わすれる", "損なう", "そこなう", "かける", "掛ける")
#: the u-row kana of a godan verb's dictionary form -> its i-row continuative (押す -> 押し)
_U_TO_I = dict(zip("うくぐすつぬぶむる", "いきぎしちにびみり", strict=True))


def compound_head(form: str, lemma: str) -> str:
    """``lemma`` when ``form`` is a compound verb made of ``lemma``'s continuative stem and one of
    :data:`JA_COMPOUND_SECONDS` (``押し込む`` for ``押す``, ``食べ過ぎる`` for ``食べる``); "" otherwise."""
    if len(lemma) < 2 or form == lemma:
        return ""
    stems = {lemma[:-1] + _U_TO_I[lemma[-1]]} if lemma[-1] in _U_TO_I else set()
    if lemma.endswith("る"):
        stems.add(lemma[:-1])   # an ichidan verb: 食べる -> 食べ
    for second in JA_COMPOUND_SECONDS:
        if form.endswith(second) and form[:-len(second)] in stems:
            return lemma
    return ""


def _field(feature: Any, name: str) -> str:
    value = getattr(feature, name, None)
    if not value or value == "*":
        return ""
    return str(value).split("-")[0]  # UniDic lemmas of loanwords carry "-origin": ペン-pen


def _words(sentence: str, tagger: Any) -> list[tuple[int, int, str, Any]]:
    out, pos = [], 0
    for word in tagger(sentence):
        start = sentence.find(word.surface, pos)
        if start < 0:
            continue
        pos = start + len(word.surface)
        out.append((start, pos, word.surface, word.feature))
    return out


#: UniDic lemmas of the verbs that close the honorific and humble frames お + continuative + に成る / 下さる / 為る /
#: 致す (Kaiser et al. 2013, § 11.2.2 and 11.3.2: o-V-ni naru, o-V-kudasai, o-V-suru / itasu)
JA_HONORIFIC_FRAMES = {"成る": "に", "下さる": "", "為る": "", "致す": ""}


def continuative(lemma: str) -> set[str]:
    """The continuative stems (ren'yōkei) of ``lemma``: 帰る -> {帰り, 帰}, 書く -> {書き}, 食べる -> {食べ} (a verb in
    -る may be godan or ichidan; both stems are given, the frame around them decides)."""
    stems = {lemma[:-1] + _U_TO_I[lemma[-1]]} if len(lemma) >= 2 and lemma[-1] in _U_TO_I else set()
    if len(lemma) >= 2 and lemma.endswith("る"):
        stems.add(lemma[:-1])
    return stems


def _honorific(words: list[tuple[int, int, str, Any]], lemma: str) -> tuple[int, int, str] | None:
    """The span of the subject-honorific or humble frame of ``lemma`` where UniDic reads the stem as a noun (お帰り
    になる, お読みになりますか): the prefix お / ご, ``lemma``'s continuative stem (:func:`continuative`), then に +
    なる or ください / する / いたす, with the auxiliaries after; None when there is none."""
    stems = continuative(lemma)
    for k in range(len(words) - 2):
        if _field(words[k][3], "pos1") != "接頭辞" or _field(words[k][3], "lemma") != "御" or words[k + 1][2] not in stems:
            continue
        j = k + 2
        if words[j][2] == "に" and j + 1 < len(words):
            j += 1
        closing = _field(words[j][3], "lemma")
        if _field(words[j][3], "pos1") != VERB_POS or closing not in JA_HONORIFIC_FRAMES \
                or words[j - 1][2] != "に" and JA_HONORIFIC_FRAMES[closing]:
            continue
        end = words[j][1]
        for _, aux_end, _, aux in words[j + 1:]:
            if _field(aux, "pos1") != AUX_POS:
                break
            end = aux_end
        return words[k][0], end, "".join(w[2] for w in words[k:] if w[1] <= end)
    return None


#: UniDic lemmas of the humble and honorific verbs that stand for する after a verbal noun (Kaiser et al. 2013,
#: § 11.2.3 and 11.3.3: 確認いたします, 説明なさいます): the verbal noun + one of them is the noun + する verb
JA_SURU_HONORIFICS = ("致す", "為さる")
#: particles that may split a verbal noun from its する (Kaiser et al. 2013, § 7.1.3: 勉強をする, 勉強はしない,
#: 勉強もした): the noun + particle + する is the noun + する verb
JA_SURU_SPLITTERS = ("を", "は", "も")
#: UniDic lemmas of the nominal suffixes that make a verb's continuative a noun (Kaiser et al. 2013, § 4.4: 書き方
#: 'way of writing', 使い方)
JA_NOMINAL_SUFFIXES = ("方",)


def _split_suru(words: list[tuple[int, int, str, Any]], j: int, lemma: str) -> int | None:
    """The index of the verbal noun where verb word ``j`` (する or its honorific) closes ``lemma`` (勉強する) split by
    a particle of :data:`JA_SURU_SPLITTERS` (勉強をしている); None otherwise."""
    if j < 2 or not lemma.endswith("する") or len(lemma) < 4:
        return None
    if j >= 3 and _field(words[j - 1][3], "pos1") == "副詞":
        j -= 1   # 練習はもうした: an adverb between the particle and する
    particle, noun = words[j - 1], words[j - 2]
    if particle[2] in JA_SURU_SPLITTERS and _field(particle[3], "pos1") == "助詞" \
            and _field(noun[3], "pos1") == "名詞" and noun[2] == lemma[:-2]:
        return j - 2
    return None


def _spellings(feature: Any, lemma: str) -> tuple[set[str], set[str]]:
    """The dictionary spellings and readings a verb word stands for (its own, a contracted causative's verb, a
    doublet's other member, する for できる / いたす / なさる, a compound's head)."""
    kana_lemma = is_kana(lemma)
    spellings = {_field(feature, "orthBase"), _field(feature, "lemma")} - {""}
    reading = {to_hiragana(_field(feature, f)) for f in ("kanaBase", "lForm")} - {""}
    spellings |= {b for x in spellings if (b := causative_base(x))} | {b for x in spellings if (b := doublet(x))}
    reading |= {b for x in reading if (b := causative_base(x))} | {b for x in reading if (b := doublet(x))}
    if "出来る" in spellings or _field(feature, "lemma") in JA_SURU_HONORIFICS:   # 運転できる, 確認いたします
        spellings.add("する")
        reading.add("する")
    spellings |= {b for x in spellings if (b := compound_head(x, lemma))}
    reading |= {b for x in reading if kana_lemma and (b := compound_head(x, to_hiragana(lemma)))}
    return spellings, reading


def find_verb_ja(sentence: str, lemma: str, tagger: Any) -> tuple[int, int, str, str] | None:
    """The first verb occurrence of ``lemma`` in ``sentence`` (see the module doc; the honorific frame お帰りになる
    where UniDic reads the stem as a noun: :func:`_honorific`; a verbal noun with いたす / なさる or split from する by
    a particle: :func:`_split_suru`), or None.

    ``tagger``: a ``fugashi.Tagger`` with UniDic (unidic-lite). Returns ``(start, end, surface, "")``, or
    ``(-1, -1, "", note)`` when the only form of the lemma is a noun made with a nominal suffix (書き方).
    """
    words = _words(sentence, tagger)
    if (honorific := _honorific(words, lemma)) is not None:
        return (*honorific, "")
    kana_lemma = is_kana(lemma)
    lemma_reading = to_hiragana(lemma)
    note = ""
    for j, (_, end, _, feature) in enumerate(words):
        if _field(feature, "pos1") != VERB_POS:
            continue
        spellings, reading = _spellings(feature, lemma)
        starts = [k for k in range(j, max(-1, j - MAX_PREFIX_WORDS - 1), -1)
                  if any("".join(w[2] for w in words[k:j]) + b == lemma for b in spellings) or (
                      kana_lemma and any("".join(to_hiragana(_field(w[3], "kana") or w[2]) for w in words[k:j]) + r
                                         == lemma_reading for r in reading))]
        if not starts and "する" in spellings and (split := _split_suru(words, j, lemma)) is not None:
            starts = [split]
        if not starts:
            continue
        if j + 1 < len(words) and _field(words[j + 1][3], "pos1") == "接尾辞" \
                and _field(words[j + 1][3], "lemma") in JA_NOMINAL_SUFFIXES:
            note = note or (f"'{words[j][2]}{words[j + 1][2]}' is a noun (the continuative + the nominal suffix "
                            f"'{words[j + 1][2]}'), not a form of '{lemma}'")
            continue
        start = words[starts[0]][0]
        for _, aux_end, _, aux in words[j + 1:]:  # the inflection: auxiliaries (た, ます, ない) follow
            if _field(aux, "pos1") != AUX_POS:
                break
            end = aux_end
        return start, end, sentence[start:end], ""
    return (-1, -1, "", note) if note else None
