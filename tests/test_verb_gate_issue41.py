"""The verb gate on the kinds of issue 41 (tests/data/verb_sentences_issue41_dev.jsonl, written for the issue's
kinds, never for another set's sentences), the Latvian and Turkish checks of issue 40 (item 4), and
``--verb-check llm`` with a verifier that answers right and one that answers wrong: the stored ``verb_check``
and the entry's fate are what docs/generate.md says (verified; rejected after R + 1 self-checks)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import Console  # noqa: E402
from test_verb_check_languages import VerbUseResponder, _basque_db  # noqa: E402
from verb_gate_floors import ALL, assert_floor  # noqa: E402
from verb_gate_floors import installed as _installed  # noqa: E402

from fbagent.checks.conjugation_lv import lv_classes, lv_forms, lv_root_pattern  # noqa: E402
from fbagent.checks.conjugation_tr import tr_form_of, tr_other_lemma, tr_stems  # noqa: E402
from fbagent.checks.coverage import require_verb_check, verb_check_kind  # noqa: E402
from fbagent.checks.llm_verb_check import match_from_answer  # noqa: E402
from fbagent.checks.verb_match import find_verb  # noqa: E402
from fbagent.schemas import VerbUse  # noqa: E402

DEV = Path(__file__).resolve().parent / "data" / "verb_sentences_issue41_dev.jsonl"


@pytest.mark.parametrize("lang", ["de", "en", "es", "fr", "it", "ja", "nl", "pt", "sv", "zh"])
def test_issue41_dev_set_per_language(lang: str) -> None:
    """Found >= 95% of the verbs and refused every non-use but the known trade-offs, per language (measured at the
    end of issue 41: benchmarks/bench_verbs.py --data tests/data/verb_sentences_issue41_dev.jsonl; no declared form)."""
    floor = {"fr": (3, 6), "nl": (3, 8), "es": (41, 5), "sv": (29, 4)}
    assert_floor("issue41_dev", lang, floor.get(lang, (ALL, ALL)), declared_form=False)


@pytest.mark.parametrize(("sentence", "lemma", "lang", "present", "why"), [
    ("他昨天睡了一个好觉。", "睡觉", "zh", True, ""),
    ("请把门关上。", "关", "zh", True, ""),
    ("你听得懂我的话吗？", "听", "zh", True, ""),
    ("你多吃点儿蔬菜。", "吃", "zh", True, ""),
    ("他买了一把新锁。", "锁", "zh", False, "follows '一把'"),
    ("彼は一時間も待たされた。", "待つ", "ja", True, ""),
    ("Der Hund sprang so hoch, dass alle staunten.", "springen", "de", True, ""),
    ("She is a well-known writer.", "know", "en", False, "compound 'well-known'"),
    ("She turned and walked down the street.", "turn down", "en", False, ""),
    ("Het was een koude dag in januari.", "wassen", "nl", False, "form of 'zijn'"),
    ("Het lezen van dit boek kost veel tijd.", "lezen", "nl", False, ""),
    ("No tengo nada que hacer hoy.", "nadar", "es", False, "function word"),
    ("La vi ayer en el parque.", "ver", "es", True, ""),
    ("Yo escojo el vestido rojo.", "escoger", "es", True, ""),
    ("Ha tradotto la lettera.", "tradurre", "it", True, ""),
    ("Chiese aiuto ai vicini.", "chiedere", "it", True, ""),
    ("Ele foi eleito presidente.", "eleger", "pt", True, ""),
    ("Vi träffades i Paris.", "träffas", "sv", True, ""),
    ("Laget vann matchen.", "vinna", "sv", True, ""),
    ("« Le prix est trop haut », regrette le directeur de la banque.", "regretter", "fr", True, ""),
    ("Si vous en déduisez une règle, dites-le.", "déduire", "fr", True, ""),
])
def test_each_kind_and_the_reason_named(sentence: str, lemma: str, lang: str, present: bool, why: str) -> None:
    if not _installed(lang):
        pytest.skip(f"the analyser of {lang!r} is not installed")
    m = find_verb(sentence, lemma, lang)
    assert m.found == present, m
    assert why in m.note


def test_turkish_suffix_chains_by_hand() -> None:
    assert tr_stems("gitmek") == (("git", "stem"), ("gid", "voiced"))
    for token, lemma in [("gitti", "gitmek"), ("gidiyor", "gitmek"), ("gidemeyeceklerini", "gitmek"),
                         ("bekliyor", "beklemek"), ("diyor", "demek"), ("kaybedildi", "kaybetmek"),
                         ("yapıldı", "yapmak"), ("almışlardı", "almak"), ("gelince", "gelmek"), ("kesmeyi", "kesmek"),
                         ("kaçırıveririm", "kaçırmak"), ("Gidiyor", "gitmek")]:
        assert tr_form_of(token, lemma), token
    for token, lemma in [("yazı", "yazmak"), ("elma", "almak"), ("okul", "okumak"), ("de", "demek"), ("kalem", "kalmak"),
                         ("öldürdü", "ölmek"), ("tanıştık", "tanımak"), ("görünüyor", "görmek"), ("çalıştı", "çalmak"),
                         ("atlar", "atmak"), ("okuldan", "okumak"), ("giriş", "girmek"), ("girişe", "girmek")]:
        assert not tr_form_of(token, lemma), token   # lexical_voice verbs of their own; the action noun -(y)Iş
    for token, lemma in [("yaptırdı", "yapmak"), ("yıkattı", "yıkamak"), ("ezberletti", "ezberlemek"),
                         ("giyiniyor", "giymek"), ("öpüştüler", "öpmek"), ("yaptırıldı", "yapmak"), ("at", "atmak"),
                         ("oturuver", "oturmak"), ("söyleyişi", "söylemek")]:
        assert tr_form_of(token, lemma), token   # voice forms (the lead's convention), bare and compound imperatives
    for token, lemma in [("bilmiyordu", "bilmek"), ("yapamıyor", "yapmak")]:
        assert tr_form_of(token, lemma), token   # the negation's vowel follows -Iyor's harmony
    assert find_verb("Yarın okula gidemeyeceğim.", "gitmek", "tr").found
    assert find_verb("Annem bana izin vermedi.", "izin vermek", "tr").found
    assert not find_verb("Masada bir elma var.", "almak", "tr").found


def test_latvian_conjugation_classes_by_hand() -> None:
    runat = lv_forms("runāt")
    assert {"runāju", "runā", "runājam", "runāja", "runās", "runātu", "runājis", "runāts", "runādams"} <= runat
    assert {"redzu", "redz", "redzam", "redzēja", "redzēs", "redzot"} <= lv_forms("redzēt")
    assert {"mazgājos", "mazgājas", "mazgājās", "mazgāsies", "mazgājoties"} <= lv_forms("mazgāties")
    for sentence, lemma in [("Viņš neredzēja mašīnu.", "redzēt"), ("Mums jārunā par to.", "runāt"),
                            ("Bērni aizgāja mājās.", "aiziet"), ("Viņa katru rītu mazgājas.", "mazgāties"),
                            ("Mēs izlēmām palikt.", "izlemt")]:
        assert find_verb(sentence, lemma, "lv").found, sentence
    assert not find_verb("Galds ir liels.", "runāt", "lv").found


def test_latvian_and_turkish_need_no_verb_check_option() -> None:
    for lang in ("lv", "tr"):
        assert verb_check_kind(lang) == "conjugation tables"
        require_verb_check(lang)  # no FbagentError: generate accepts the lexicon as it is


@pytest.mark.parametrize("row", [r for r in json.loads("[" + ",".join(
    x for x in DEV.read_text("utf-8").splitlines() if x.strip()) + "]") if r["lang"] in ("es", "sv", "en")][:40],
    ids=lambda r: r["lemma"])
def test_llm_answers_on_our_sentences(row: dict[str, Any]) -> None:
    """A right answer (used, in the declared form) is found at that form; a wrong one is refused with the reason."""
    right = match_from_answer(row["sentence"], VerbUse(used_as_verb=True, form=row["verb_form"]))
    assert right.found and right.surface.lower() == row["verb_form"].lower().split()[0]
    wrong = match_from_answer(row["sentence"], VerbUse(used_as_verb=False, form=""))
    assert not wrong.found and "not used as a verb" in wrong.note
    absent_form = match_from_answer(row["sentence"], VerbUse(used_as_verb=True, form="zzzq"))
    assert not absent_form.found and "'zzzq'" in absent_form.note


class WrongVerbUse(VerbUseResponder):
    """The verifier's model says "not used as a verb" for every sentence (a wrong answer)."""

    def _VerbUse(self, text: str) -> dict[str, Any]:  # noqa: N802
        return {"used_as_verb": False, "form": ""}


@pytest.mark.slow
@pytest.mark.parametrize(("responder", "status"), [(VerbUseResponder, "verified"), (WrongVerbUse, "rejected")])
async def test_llm_verb_check_fate_of_the_entry(tmp_path: Path, responder: type, status: str) -> None:
    """docs/generate.md: every entry stores ``verb_check`` = llm; a verb the model confirms passes the
    self-check (verified, as the stub's round trips pass); one it denies fails the self-check R + 1 times
    and the entry is rejected, its reasons naming the model's answer."""
    from factories import generate_options
    from openai_stub import OpenAIStub

    from fbagent.commands.generate_view import GenerateView
    from fbagent.generation import generate
    from fbagent.store.db import open_db
    from fbagent.store.items import run_items
    from fbagent.store.runs import get_run

    db_path = _basque_db(tmp_path)
    answer = responder()
    with OpenAIStub(answer) as stub:
        opts = generate_options(pairs=1, generator="openai", base_url=stub.base_url, model="stub-model", backoff_s=0.01,
                               screen=False, lexicon="fn-eu", require_definition=False, verb_check="llm", max_retries=1)
        summary = await generate(db_path, opts, on_event=GenerateView(Console(file=io.StringIO())), command="test")
    assert summary.counts[status] == 1, summary.counts
    db = open_db(db_path)
    run = get_run(db, summary.run_name)
    [item] = run_items(db, run["id"])
    assert item["verb_check"] == "llm" and item["status"] == status
    if status == "rejected":
        assert item["checks"]["self_check"]["verb_present_sentence_a"] == {"passed": False, "method": "llm", "surface": None}
        assert "not used as a verb" in json.dumps(item["reasons"], ensure_ascii=False)
        assert answer.seen["BasePair"] == 2  # max_retries = 1: R + 1 = 2 base pairs, each refused
    db.close()


def test_issue41b_refusal_kinds() -> None:
    """Issue 41b's kinds, each with the reason it is refused (Latvian, Turkish) or found (Korean)."""
    # Latvian: the dictionary decides the conjugation class, so runāt has no 3rd-conjugation "runa" (a noun)
    assert lv_classes("runāt", lambda w: {"runājam": "runāt", "runam": "runa"}.get(w, w), lambda w: True) == (True, False)
    assert lv_classes("mācīt", lambda w: {"mācām": "mācīt"}.get(w, w), lambda w: w == "mācām") == (False, True)
    assert lv_classes("raudāt", lambda w: w, lambda w: False) == (True, True)
    assert "runa" in lv_forms("runāt") and "runa" not in lv_forms("runāt", classes=(True, False))
    assert lv_root_pattern("slimot") is None and lv_root_pattern("izlemt") is not None
    for sentence, lemma in [("Viņa runa bija gara.", "runāt"), ("Tā ir laba doma.", "domāt"),
                            ("Viņš šodien ir slims.", "slimot"), ("Lūdzu, aizveriet logu!", "lūgt"),
                            ("Viņš aizgāja bez atvadām.", "iet"), ("Viņa rakstīja vēstuli.", "uzrakstīt")]:
        assert not find_verb(sentence, lemma, "lv").found, sentence
    for sentence, lemma in [("Viņš runā skaļi.", "runāt"), ("Es tevi lūdzu palīdzēt.", "lūgt"),
                            ("Skolotāja māca bērnus.", "mācīt")]:
        assert find_verb(sentence, lemma, "lv").found, sentence
    # Turkish: a word the dictionary lists under a longer headword beginning with the stem is that word
    lex = {"okuldan": "okul", "dondurma": "dondurma", "bulunuyor": "bulun", "gelecek": "gelecek", "yazdı": "yaz"}
    assert tr_other_lemma("okuldan", "okumak", lambda w: lex.get(w, w), lambda w: w in lex) == "okul"
    assert tr_other_lemma("dondurma", "dondurmak", lambda w: lex.get(w, w), lambda w: w in lex) == "dondurma"
    assert tr_other_lemma("bulunuyor", "bulmak", lambda w: lex.get(w, w), lambda w: w in lex) == "bulun"
    assert tr_other_lemma("gelecek", "gelmek", lambda w: lex.get(w, w), lambda w: w in lex) == ""   # finite future
    assert tr_other_lemma("yazdı", "yazmak", lambda w: lex.get(w, w), lambda w: w in lex) == ""
    assert not find_verb("Çocuklar dondurma yedi.", "dondurmak", "tr").found
    assert not find_verb("Kitap masanın üstünde bulunuyor.", "bulmak", "tr").found
    assert find_verb("Mektup dün yazıldı.", "yazmak", "tr").found


#: the issue-41b dev set (tuned on: a floor against regressions, not a fresh measure); tr: 41e relabelled yaptırdılar
#: (the voice convention)
ISSUE41B_FLOORS = {"lv": (ALL, ALL), "tr": (ALL, 29), "sv": (ALL, 8), "es": (ALL, ALL), "it": (ALL, ALL),
                   "pt": (ALL, ALL), "en": (ALL, ALL)}


@pytest.mark.parametrize("lang", sorted(ISSUE41B_FLOORS))
def test_issue41b_dev_set_floors(lang: str) -> None:
    assert_floor("issue41b_dev", lang, ISSUE41B_FLOORS[lang])
