"""Benchmark: the verb check on a lexicon's own annotated verb sentences, per language (issue 40, item 4).

Usage: python benchmarks/bench_lexicon_verbs.py --db DB [--lexicon NAME ...] [--n 300] [--seed 0]
                                                [--misses 10] [--conll-lv FOLDER]

Reads a database made by ``fbagent lexicon add`` (any reader: Berkeley XML, ASFALDA, JSONL, and the Korean,
Latvian and Turkish readers of issue 40), read-only (``mode=ro``: nothing is written, no WAL file). For each
lexicon (default: every lexicon in the database) it draws ``--n`` exemplars of verb LUs (``pos = 'V'``) that
have a target span, with a seeded random sample (``random.Random(seed).sample`` over the exemplar ids in
order), and runs the verb check (:func:`fbagent.checks.verb_match.find_verb`) on the sentence with the LU's
lemma and the lexicon's language, without a declared form: the annotator's target span is the gold verb.

Counts per language: ``found at target`` (the check finds the verb and its span overlaps the target span),
``found elsewhere`` (found, but on another word: mostly an earlier occurrence of the same verb), ``missed``.
``found`` is (at target + elsewhere) / n, the measure of issue 40 (">= 95% found"); ``at target`` is the
stricter share.
Two figures per language, side by side: ``found`` of all sampled targets (the headline, every miss counted), and
``found`` of the verbal uses: the sampled targets less the nominal uses, targets that stand as nominalised
infinitives ("bij het [neerhalen] van", a noun by the language's grammar, refused by the gate by convention, filed
by the source under the verb's LU). The rule is :mod:`nominal_uses` (the same grammar for nl, de, es, it, pt; no
rule, so no nominal uses, elsewhere); it is printed above the table, and every nominal use is listed with whether
the check found it, never silently dropped. ``--misses N`` prints N of the other misses per lexicon with the
check's note (gate misses, and the source's own POS or lemma errors, which a reader judges line by line).

``--kenet XML [--tr-framenet XML]``: the same on KeNet's example sentences of the Turkish FrameNet's verb
synsets, read directly (KeNet marks no target: a find anywhere counts).

``--conll-lv FOLDER``: without a Latvian reader in this checkout, the same count on the Latvian FrameNet's
CoNLL-2009 files read directly (``framenet-lv-fullstack/data/*.conll2009``: the target word, FILLPRED ``Y``,
whose UPOS is VERB, with its LEMMA as the LU's lemma; the sentence rebuilt from its tokens), so the Latvian check can be
measured before the reader lands. Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from nominal_uses import GRAMMARS, nominal_use

from fbagent.checks.verb_match import find_verb

RULE = ("a target that is the LU's infinitive (German: capitalised) after a determiner, possessive or "
        "preposition fused with an article, at most two adjectives or the negation between, in one clause; "
        "a determiner that is also an object pronoun (nl het/dit/haar, it lo, pt o) counts only right "
        "after a preposition (not pt) or with the noun's 'of' (van, von, di, de) right after the target")


@dataclass(frozen=True)
class Sample:
    """One annotated verb sentence: text, the LU's lemma, the target's character span ``[start, end)``."""

    text: str
    lemma: str
    start: int
    end: int


def lexicon_samples(db: Path, n: int, seed: int, names: list[str] | None) -> dict[tuple[str, str], list[Sample]]:
    """``(lexicon name, language) -> samples`` drawn from ``db`` (opened read-only)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        lexicons = con.execute("SELECT id, name, lang FROM lexicons ORDER BY id").fetchall()
        out: dict[tuple[str, str], list[Sample]] = {}
        for lex_id, name, lang in lexicons:
            if names and name not in names:
                continue
            rows = con.execute(
                "SELECT e.id, e.text, lu.lemma, e.target_start, e.target_end FROM exemplars e "
                "JOIN lexical_units lu ON lu.id = e.lu_pk WHERE lu.lexicon_id = ? AND upper(lu.pos) = 'V' "
                "AND e.target_start IS NOT NULL AND e.target_end > e.target_start ORDER BY e.id", (lex_id,)).fetchall()
            chosen = random.Random(seed).sample(rows, min(n, len(rows)))
            out[name, lang] = [Sample(text, lemma, start, end) for _, text, lemma, start, end in chosen]
        return out
    finally:
        con.close()


def conll_lv_samples(folder: Path, n: int, seed: int) -> list[Sample]:
    """Latvian FrameNet sentences read from CoNLL-2009 files: one sample per verb target (FILLPRED ``Y``,
    UPOS ``VERB``), its lemma from the LEMMA column."""
    rows: list[Sample] = []
    for path in sorted(folder.glob("*.conll*")):
        block: list[list[str]] = []
        for line in [*path.read_text("utf-8").splitlines(), ""]:
            if line.strip() and not line.startswith("#"):
                block.append(line.split("\t"))
                continue
            if block:
                rows += _conll_sentence(block)
            block = []
    return random.Random(seed).sample(rows, min(n, len(rows)))


def kenet_samples(kenet: Path, framenet: Path | None, n: int, seed: int) -> list[Sample]:
    """Turkish sentences: KeNet's example sentences (``turkish_wordnet.xml`` of nlptoolkit-wordnet) of verb
    synsets (``<POS>v``), restricted to the Turkish FrameNet's LU synsets when ``framenet`` is given; one
    sample per example whose lemma is any of the synset's literals (``a|b``: the example may use any synonym
    of the LU's synset; KeNet marks no target, so the span is the whole sentence and any find counts)."""
    keep = set(re.findall(r"<LEXICAL_UNIT>([^<]+)</LEXICAL_UNIT>", framenet.read_text("utf-8"))) if framenet else None
    rows: list[Sample] = []
    for m in re.finditer(r"<SYNSET><ID>([^<]+)</ID>(.*?)</SYNSET>", kenet.read_text("utf-8")):
        body = m.group(2)
        if "<POS>v</POS>" not in body or (keep is not None and m.group(1) not in keep):
            continue
        literals = re.findall(r"<LITERAL>([^<]+)<SENSE>", body)
        for example in re.findall(r"<EXAMPLE>([^<]+)</EXAMPLE>", body):
            rows.append(Sample(example, "|".join(literals), 0, len(example)))
    return random.Random(seed).sample(rows, min(n, len(rows)))


def _conll_sentence(block: list[list[str]]) -> list[Sample]:
    text, spans = "", []
    for cols in block:
        if text:
            text += " "
        spans.append((len(text), len(text) + len(cols[1])))
        text += cols[1]
    out = []
    for k, cols in enumerate(block):
        if len(cols) > 10 and cols[9] == "Y" and cols[3] == "VERB":
            out.append(Sample(text, cols[2], *spans[k]))
    return out


@dataclass
class Score:
    """One lexicon's counts: ``counts`` = [found at target, found elsewhere, missed] over all samples;
    ``nominal`` the samples that are nominal uses by :func:`nominal_uses.nominal_use` (each line says whether the
    check found it), ``nominal_found`` how many of them it found; ``misses`` the other misses as lines; ``ms`` per
    sentence (the nominal-use rule's time excluded)."""

    counts: list[int]
    nominal: list[str]
    nominal_found: int
    misses: list[str]
    ms: float

    def verbal(self, n: int) -> tuple[int, int]:
        """``(found, total)`` over the verbal uses: all ``n`` samples less the nominal uses."""
        return self.counts[0] + self.counts[1] - self.nominal_found, n - len(self.nominal)


def score(lang: str, samples: list[Sample]) -> Score:
    """Run the check on every sample; mark each nominal use (:func:`nominal_uses.nominal_use`) whether found or
    not, and keep the other misses with the check's note."""
    counts, nominal, misses, nominal_found, elapsed = [0, 0, 0], [], [], 0, 0.0
    for s in samples:
        start = time.perf_counter()
        alternatives = s.lemma.split("|")
        m = find_verb(s.text, alternatives[0], lang)
        for alternative in alternatives[1:]:
            m = m if m.found else find_verb(s.text, alternative, lang)
        elapsed += time.perf_counter() - start
        found = m.found and m.span is not None and m.span[0] < s.end and s.start < m.span[1]
        counts[0 if found else 1 if m.found else 2] += 1
        line = (f"{s.lemma} | {s.text[:s.start]}[{s.text[s.start:s.end]}]{s.text[s.end:]}"
                + (f" [{m.note}]" if m.note and not m.found else ""))
        if nominal_use(s.text, s.start, s.end, s.lemma, lang):
            nominal_found += m.found
            nominal.append(("found" if m.found else "missed") + f": {line}")
        elif not m.found:
            misses.append(line)
    return Score(counts, nominal, nominal_found, misses, elapsed * 1000 / max(1, len(samples)))


def print_score(name: str, lang: str, n: int, sc: Score, show: int) -> None:
    """One table row (found of all sampled, then found of verbal uses), the nominal uses (all of them) and
    ``show`` other misses."""
    all_found = sc.counts[0] + sc.counts[1]
    v_found, v_total = sc.verbal(n)
    print(f"{name:<24}{lang:<6}{n:>5}{sc.counts[0]:>11}{sc.counts[1]:>11}{sc.counts[2]:>8}"
          f"{100 * all_found / max(1, n):>7.1f}%{100 * sc.counts[0] / max(1, n):>10.1f}%"
          f"{len(sc.nominal):>9}{f'{v_found}/{v_total}':>10}{100 * v_found / max(1, v_total):>7.1f}%{sc.ms:>7.2f}")
    rule = "by the rule" if lang.split("-")[0].lower() in GRAMMARS else "(no nominal-use rule for this language)"
    print(f"    nominal uses {rule}: {len(sc.nominal)} ({sc.nominal_found} found by the check, "
          f"{len(sc.nominal) - sc.nominal_found} missed); other misses: {len(sc.misses)}")
    for line in sc.nominal:
        print(f"    nominal {lang} {line}")
    for line in sc.misses[:show]:
        print(f"    missed {lang} {line}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--db", type=Path, default=None, help="database made by fbagent lexicon add")
    ap.add_argument("--lexicon", action="append", default=None, help="lexicon name (repeatable; default: all)")
    ap.add_argument("--n", type=int, default=300, help="sentences per lexicon (default 300)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--misses", type=int, default=0, help="print this many misses per lexicon")
    ap.add_argument("--conll-lv", type=Path, default=None, help="Latvian FrameNet data/ folder, read directly")
    ap.add_argument("--kenet", type=Path, default=None, help="KeNet turkish_wordnet.xml, read directly")
    ap.add_argument("--tr-framenet", type=Path, default=None, help="Turkish FrameNet framenet.xml (LU synsets)")
    args = ap.parse_args()
    sets: dict[tuple[str, str], list[Sample]] = {}
    if args.db is not None:
        sets.update(lexicon_samples(args.db, args.n, args.seed, args.lexicon))
    if args.conll_lv is not None:
        sets["lv (CoNLL-2009 files)", "lv"] = conll_lv_samples(args.conll_lv, args.n, args.seed)
    if args.kenet is not None:
        sets["tr (KeNet examples)", "tr"] = kenet_samples(args.kenet, args.tr_framenet, args.n, args.seed)
    print(f"verb check on annotated verb sentences, no declared form, n = {args.n} per lexicon, seed {args.seed}")
    print(f"nominal uses ({', '.join(GRAMMARS)}): {RULE}")
    print(f"{'lexicon':<24}{'lang':<6}{'n':>5}{'at target':>11}{'elsewhere':>11}{'missed':>8}{'found':>8}"
          f"{'at target':>11}{'nominal':>9}{'verbal':>10}{'found':>8}{'ms':>7}")
    for (name, lang), samples in sets.items():
        print_score(name, lang, len(samples), score(lang, samples), args.misses)

if __name__ == "__main__":
    main()
