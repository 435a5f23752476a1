"""The verb gate on issue 41's third pass for zh, ja, ko (tests/data/verb_sentences_issue41g_dev.jsonl: 216
sentences written for the kinds, 10 or more per kind, not for any other set's sentences): each kind with the
reason a refusal names, and the dev set's per-language floor (tuned on: a floor against regressions)."""

from __future__ import annotations

import pytest
from verb_gate_floors import assert_floor, assert_kind


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why", "surface"), [
    # Chinese found: potential and A-not-A forms, V了 + directional / verbal measure, 地 + verb, complement + object
    ("这个瓶盖太紧了，我打不开。", "打开", "zh", True, "", "打不开"),
    ("这张桌子太重，我们搬不动。", "搬动", "zh", True, "", "搬不动"),
    ("你知不知道明天放假？", "知道", "zh", True, "", "知不知道"),
    ("你今天吃没吃早饭？", "吃", "zh", True, "", "吃没吃"),
    ("孩子一看到妈妈就哭了起来。", "哭", "zh", True, "", "哭"),
    ("他被狗咬了一口。", "咬", "zh", True, "", "咬"),
    ("他慢慢地站了起来。", "站", "zh", True, "", "站"),
    ("我已经写完作业了。", "写", "zh", True, "", "写"),
    ("她二〇一五年毕业于复旦大学。", "毕业", "zh", True, "", "毕业"),
    ("衣服给雨淋透了。", "淋", "zh", True, "", "淋"),
    ("大家一起唱了起来。", "唱", "zh", True, "", "唱"),
    # a quantity (not a date) before a noun stays a noun marker
    ("他提了三点建议。", "建议", "zh", False, "follows '三点'", ""),
    # Chinese coverbs: a preposition before another predicate, the verb where the object ends the clause
    ("孩子们在操场上踢球。", "在", "zh", False, "preposition here (a coverb): '踢球'", ""),
    ("他比我跑得快。", "比", "zh", False, "preposition here (a coverb)", ""),
    ("我家离学校很近。", "离", "zh", False, "preposition here (a coverb)", ""),
    ("妈妈不在家。", "在", "zh", True, "", "在"),
    ("孩子们都在操场上。", "在", "zh", True, "", "在"),
    ("我给你一百块钱。", "给", "zh", True, "", "给"),
    ("我们比一比谁跑得快。", "比", "zh", True, "", "比一比"),
    # 得: the particle after a verb or adjective; the verb 得 (dé)
    ("她唱得很好听。", "得", "zh", False, "'得' after '唱' is the particle of a complement (de)", ""),
    ("我得走了，明天见。", "得", "zh", False, "'得' before '走' is the modal děi (must)", ""),
    ("我每天跟朋友聊天。", "跟", "zh", False, "preposition here (a coverb): '聊天'", ""),
    ("今天下雨了。", "下", "zh", True, "", "下"),
    ("他每天八点上班。", "上", "zh", True, "", "上"),
    ("他高兴得跳了起来。", "得", "zh", False, "particle of a complement", ""),
    ("这次考试她得了满分。", "得", "zh", True, "", "得"),
    # nouns: demonstrative + measure word, subject of 被, place noun + X + 的, suffixed noun, coverb's place phrase
    ("这份工作很辛苦。", "工作", "zh", False, "follows '这份'", ""),
    ("那项研究得到了政府的支持。", "研究", "zh", False, "follows '项' (a demonstrative with its measure word)", ""),
    ("他的签证申请被拒绝了。", "申请", "zh", False, "subject of the passive '被'", ""),
    ("城市生活的节奏很快。", "生活", "zh", False, "between the place noun '城市' and '的'", ""),
    ("我家的洗衣机坏了。", "洗", "zh", False, "'洗衣机' is a noun ('洗衣' + the suffix '机')", ""),
    ("我们在地铁站出口等你。", "出", "zh", False, "inside the place phrase of '在'", ""),
    # Japanese: Sino-Japanese doublets
    ("彼の話はとても信じられない。", "信じる", "ja", True, "", "信じられない"),
    ("彼はその映画で主役を演じた。", "演じる", "ja", True, "", "演じた"),
    ("彼女を愛さない人はいない。", "愛する", "ja", True, "", "愛さない"),
    ("この部屋はいい感じだ。", "感じる", "ja", False, "", ""),
    # Korean: honorific -시- contractions; ㄹ-dropped homographs by the particle before them
    ("어머니는 피곤하셔서 벌써 주무세요.", "주무시다", "ko", True, "", "주무세요"),
    ("할머니는 지금 방에 계세요.", "계시다", "ko", True, "", "계세요"),
    ("거기에는 가지 마세요.", "마시다", "ko", False, "", ""),
    ("서울에 사는 친구가 놀러 왔다.", "사다", "ko", False, "'사는' is a form of '살다' here: '에' before it", ""),
    ("시장에서 사는 과일이 더 싸요.", "사다", "ko", True, "", "사는"),
    ("하늘을 나는 새를 보았다.", "나다", "ko", False, "'나는' is a form of '날다' here: '을' before it", ""),
    ("이상한 냄새가 나는 음식은 먹지 마.", "나다", "ko", True, "", "나는"),
    ("하늘을 나는 새를 보았다.", "날다", "ko", True, "", "나는"),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str,
                                        surface: str) -> None:
    assert_kind(sentence, lemma, lang, present, why, surface)


#: (found, refused) per language, measured at the end of issue 41g (benchmarks/bench_verbs.py --data
#: tests/data/verb_sentences_issue41g_dev.jsonl; before: zh 48/97 and 26/74, ja 3/15 and 2/2, ko 13/19 and 3/9).
#: The misses left: 快上车 (a dictionary noun), 农村生活的 (农村 is tagged a common
#: noun, not a place), 车站出口见面 (jieba tags 见面 a noun, so no predicate is seen after the place phrase)
FLOORS = {"ja": (15, 2), "ko": (19, 9), "zh": (96, 72)}   # zh 95 -> 96 found in 41i: 比赛中 | 得了 split


@pytest.mark.parametrize("lang", sorted(FLOORS))
def test_issue41g_dev_set_per_language(lang: str) -> None:
    assert_floor("issue41g_dev", lang, FLOORS[lang])
