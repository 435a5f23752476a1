"""Which verb check each language gets, said in one line, and never guesswork without the user's word.

:func:`verb_check_kind` names what vouches for the verb of a sentence in a language (the value every
entry stores in its ``verb_check`` field, :func:`entry_verb_check`):

- ``analyser``: a part-of-speech or morphological analyser reads the sentence (HanTa: de, nl, en;
  spaCy: fr; fugashi: ja; jieba: zh; Kiwi: ko; :mod:`fbagent.checks.analysers`);
- ``conjugation tables``: the verb's paradigm and context rules (es, pt, it, sv, lv, tr;
  :mod:`fbagent.checks.conjugation`; Latvian conjugation classes in :mod:`fbagent.checks.conjugation_lv`,
  Turkish suffix chains in :mod:`fbagent.checks.conjugation_tr`);
- ``dictionary only``: simplemma's one-lemma-per-word dictionary, no grammar: a noun spelled like
  the verb passes and a form the dictionary gives to another word is missed (Catalan and Romanian
  among them: their ``morphology.toml`` entries have articles and clitics, not paradigm rules);
- ``surface match``: nothing: the lemma as written or the generator's declared form.

A run in a language of the last two kinds is refused (:func:`require_verb_check`) until the user
picks ``--verb-check llm`` (the verifier's model confirms the verb in each sentence, one cached call
per sentence: :mod:`fbagent.checks.llm_verb_check`) or ``--verb-check surface`` (the match above,
accepted knowingly). An analyser language whose package is missing (fugashi, jieba, kiwipiepy) is
refused the same way, naming its extra; so is a language whose rules read a Hunspell dictionary (Swedish and
Latvian noun and adjective readings, ``lexicon_nouns`` / ``hunspell_adjectives`` in ``morphology.toml``:
:mod:`fbagent.checks.lexicon_hunspell`) or Turkish, whose rules read zeyrek's analyses
(:mod:`fbagent.checks.analyser_tr`, extra ``fbagent[tr]``), when its package is missing, since the same sentences would then be
judged by fewer rules than a run with it and the two runs' numbers would not compare.
"""

from __future__ import annotations

from fbagent.checks.analyser_tr import has_zeyrek
from fbagent.checks.analysers import SEGMENTERS, segmenter_installed, tagger_name
from fbagent.checks.defaults import DEFAULT_VERB_CHECK, VERB_CHECKS
from fbagent.checks.lemmas import _fugashi_tagger, analyser_note, lemma_sources
from fbagent.checks.lexicon_hunspell import dictionary_package, has_lexicon
from fbagent.checks.morphology import morphology
from fbagent.errors import FbagentError
from fbagent.languages import base_lang

#: kinds of :func:`verb_check_kind`, most trusted first
KINDS = ("analyser", "conjugation tables", "dictionary only", "surface match")


def check_verb_check(value: str) -> str:
    """``value`` if it is a ``--verb-check`` value; else :class:`FbagentError` naming the choices."""
    if value not in VERB_CHECKS:
        raise FbagentError(f"unknown --verb-check {value!r}", "pass --verb-check auto, llm or surface")
    return value


def verb_check_kind(lang: str) -> str:
    """What serves the verb check of ``lang``'s base language: one of :data:`KINDS` (see the module doc).

    An analyser language counts as ``analyser`` even when its package is missing (:func:`require_verb_check`
    refuses that run)."""
    code = base_lang(lang)
    if tagger_name(code) is not None:
        return "analyser"
    if morphology(code).tables:
        return "conjugation tables"
    if lemma_sources(code):
        return "dictionary only"
    return "surface match"


def _detail(code: str, kind: str) -> str:
    if kind == "analyser":
        return tagger_name(code) or ""
    if kind == "conjugation tables" and morphology(code).paradigm_rules == "tr":
        return ("stem + verbal suffix chain by rule (vowel harmony, consonant alternation) and simplemma; nouns by their "
                "nominal suffixes")
    if kind == "conjugation tables" and morphology(code).paradigm_rules == "lv":
        return ("the paradigm of each conjugation class, reflexive -ties forms, ne- and the debitive jā- stripped, "
                "and simplemma")
    if kind == "conjugation tables":
        return "paradigms from prompts/verbs/morphology.toml and simplemma, clitics stripped, nouns after articles refused"
    if kind == "dictionary only":
        return "simplemma's lemmas, no grammar: a noun spelled like the verb may pass"
    return "no lemmatiser: the lemma as written or the generator's declared form"


def verb_check_line(lang: str, verb_check: str = DEFAULT_VERB_CHECK) -> str:
    """One line naming the check ``lang`` gets under ``--verb-check verb_check`` (for ``lexicon add`` and
    ``generate``): "verb check for 'eu': surface match (...); generate needs --verb-check llm|surface"."""
    code = base_lang(lang)
    kind = verb_check_kind(code)
    if verb_check == "llm":
        return f"verb check for {lang!r}: llm (the verifier's model confirms the verb in every sentence; own check: {kind})"
    if verb_check == "surface" and kind != "analyser":
        return f"verb check for {lang!r}: surface match accepted by --verb-check surface ({_detail(code, kind)})"
    if verb_check == "surface" and _analyser_missing(code):
        if code == "ja":
            return analyser_note(code, surface_verb_match=True)
        return (f"verb check for {lang!r}: surface match accepted by --verb-check surface ({SEGMENTERS[code][1]} is not "
                "installed: the lemma is matched as written, nouns sharing it pass)")
    if kind == "analyser" and not _analyser_missing(code) and code not in ("zh", "ko"):
        return f"{analyser_note(code)} (check: analyser)"  # names the analyser and the lemma sources
    line = f"verb check for {lang!r}: {kind} ({_detail(code, kind)})"
    if kind in ("dictionary only", "surface match"):
        line += "; generate refuses this language until you pass --verb-check llm|surface"
    elif _analyser_missing(code):
        line += f"; {SEGMENTERS[code][1]} is not installed: pip install 'fbagent[{SEGMENTERS[code][2]}]'"
    elif (missing := _lexicon_missing(code)) is not None:
        line += f"; its noun lexicon {missing[0]} is not installed: pip install 'fbagent[{missing[1]}]'"
    elif _reads_lexicon(code):
        line += f"; noun and adjective readings from {_reading_package(code)}"
    return line


def require_verb_check(lang: str, verb_check: str = DEFAULT_VERB_CHECK) -> None:
    """Refuse a run whose verb check would be guesswork nobody chose (see the module doc): a language of
    kind ``dictionary only`` / ``surface match`` under ``auto``, or an analyser language whose package is
    missing under anything but ``llm`` / ``surface``. Raises :class:`FbagentError` (one line, the fix names
    ``--verb-check llm|surface``)."""
    code = base_lang(lang)
    kind = verb_check_kind(code)
    if verb_check != "auto":
        return
    if kind in ("dictionary only", "surface match"):
        raise FbagentError(
            f"fbagent has no grammar for language {lang!r} (verb check: {kind}): nouns spelled like the verb "
            "would pass and regular forms be refused",
            "pass --verb-check llm (the verifier's model confirms the verb, one cached call per sentence) "
            "or --verb-check surface (accept the surface match)")
    if code != "ja" and _analyser_missing(code):  # Japanese: fbagent.checks.lemmas.require_verb_analyser
        name, package, extra = SEGMENTERS[code]
        raise FbagentError(f"the verb check for {lang!r} needs {name}, and {package} is not installed",
                           f"pip install 'fbagent[{extra}]', or pass --verb-check llm|surface")
    if (missing := _lexicon_missing(code)) is not None:
        raise FbagentError(f"the verb check for {lang!r} reads the word readings of {missing[0]}, which is "
                           "not installed (its noun and adjective readings would be off)",
                           f"pip install 'fbagent[{missing[1]}]', or pass --verb-check llm|surface")


#: languages whose rules read a morphological analyser's word readings: (package, extra)
_READING_ANALYSERS = {"tr": ("zeyrek", "tr")}


def _reads_lexicon(code: str) -> bool:
    """Whether ``code``'s verb-check rules read a Hunspell dictionary (``lexicon_nouns`` or ``hunspell_adjectives``)
    or an analyser's word readings (:data:`_READING_ANALYSERS`: Turkish zeyrek)."""
    m = morphology(code)
    return m.lexicon_nouns or m.hunspell_adjectives or code in _READING_ANALYSERS


def _reading_package(code: str) -> str:
    """The package whose word readings ``code``'s rules read ("hunspell-sv", "zeyrek")."""
    return _READING_ANALYSERS[code][0] if code in _READING_ANALYSERS else dictionary_package(code)


def _lexicon_missing(code: str) -> tuple[str, str] | None:
    """(package, extra) of the Hunspell dictionary or analyser ``code``'s rules read where it is not installed, else
    None."""
    if code in _READING_ANALYSERS:
        return None if has_zeyrek() else _READING_ANALYSERS[code]
    if not _reads_lexicon(code) or has_lexicon(code):
        return None
    package = dictionary_package(code)
    return package, "sv" if package == "hunspell-sv" else "lexicon"


def _analyser_missing(code: str) -> bool:
    """Whether ``code`` has a segmenting analyser (:data:`SEGMENTERS`) whose package is not installed."""
    if code == "ja":
        return _fugashi_tagger() is None
    return code in SEGMENTERS and not segmenter_installed(code)


def entry_verb_check(lang: str, verb_check: str = DEFAULT_VERB_CHECK) -> str:
    """The ``verb_check`` value an entry stores: ``llm``, ``surface`` (chosen), or the language's own
    :func:`verb_check_kind` (``analyser``, ``conjugation tables``)."""
    if verb_check in ("llm", "surface"):
        return verb_check
    return verb_check_kind(lang)
