"""Language codes (BCP 47 / ISO 639, through langcodes): normalisation, base code, English name.

- :func:`normalize_lang` checks a code given by a user and returns its
  canonical tag: ``nld`` -> ``nl``, ``nl_BE`` / ``nl-be`` -> ``nl-BE`` (region
  kept), ``fre`` -> ``fr``, ``iw`` -> ``he``. Language names (``Dutch``) are
  refused with the code to use; an unknown code (``xx``) is refused with how to
  go on anyway.
- :func:`base_lang` is the language subtag every per-language resource is keyed
  by (prompts, question patterns, lemmatisers): ``nl-BE`` -> ``nl``, ``nld`` -> ``nl``.
- :func:`language_name` names a language in generic prompts: the
  ``[language_names]`` of ``prompts/generate/patterns.toml`` first (a data
  change), then langcodes' English name (``eu`` -> ``Basque``), else the code.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from types import ModuleType

from fbagent.errors import FbagentError

try:
    import langcodes
except ImportError:   # a core dependency: a broken install; _langcodes() raises naming the package
    langcodes = None  # type: ignore[assignment]

NO_SPACE_LANGS = frozenset({"ja", "zh", "th", "lo", "km", "my", "cmn", "yue", "wuu"})

GENERIC_FALLBACK = (
    "a code fbagent has no data for uses the generic prompts (naming the language by its code), "
    "no lemmatiser (the verb check falls back to the generator's verb_form) and the generic question check"
)


def _langcodes() -> ModuleType:
    """The langcodes module; raises :class:`FbagentError` when it is not installed (a broken install)."""
    if langcodes is None:
        raise FbagentError("langcodes is not installed (language codes)",
                           "reinstall fbagent with its dependencies: pip install -e . (or pip install langcodes)")
    return langcodes


def _name_match(text: str) -> langcodes.Language | None:
    """The language whose English name or autonym is ``text`` (case-insensitive), or None."""
    langcodes = _langcodes()
    try:
        found = langcodes.find(text)
    except (LookupError, ImportError):  # no such name; language_data missing (names only)
        return None
    names = {found.display_name().casefold(), found.autonym().casefold()}
    return found if text.casefold() in names else None


@lru_cache(maxsize=256)
def normalize_lang(code: str) -> str:
    """The canonical BCP 47 tag of ``code``: ``"nld"`` -> ``"nl"``, ``"nl_BE"`` -> ``"nl-BE"``.

    Private-use languages ``qaa`` ... ``qtz`` are accepted (for a language with
    no ISO 639 code). Raises :class:`FbagentError` (problem + fix, one line) for
    an empty value, a language name instead of a code, ``und``, a private-use
    tag without a language (``x-...``) and any code the IANA registry does not
    hold (``xx``, ``nl-XY``).
    """
    text = (code or "").strip().replace("_", "-")
    if not text:
        raise FbagentError("no language code given", "give a code such as en, fr, nl, pt-BR or nld")
    langcodes = _langcodes()
    try:
        lang = langcodes.Language.get(text)
    except (ValueError, LookupError):  # LanguageTagError is a ValueError: not tag syntax at all
        lang = None
    if lang is None or not lang.is_valid() or lang.language in (None, "und") or text.lower().startswith("x-"):
        named = _name_match(code.strip())
        if named is not None:
            raise FbagentError(f"{code!r} is a language name, not a code",
                               f"give its code: {named.to_tag()} ({named.display_name()})")
        raise FbagentError(
            f"language {code!r} is not a language code of the BCP 47 / ISO 639 registry",
            "give its ISO 639-1 or 639-3 code (e.g. nl, nld, nl-BE; look one up with: "
            "python -c \"import langcodes; print(langcodes.find('Dutch'))\"), or to go on anyway a private-use "
            f"code qaa..qtz (e.g. qaa); {GENERIC_FALLBACK}",
        )
    return lang.to_tag()


@lru_cache(maxsize=256)
def base_lang(lang: str) -> str:
    """Base language code of a tag: ``"en-US"`` -> ``"en"``, ``"pt_BR"`` -> ``"pt"``, ``"nld"`` -> ``"nl"``; empty -> ``"en"``.

    Never raises: a tag langcodes cannot parse gives its first subtag, lower-cased.
    """
    text = (lang or "en").strip().replace("_", "-")
    if len(text) == 2 and text.isalpha() and text.islower() and text in _language_names():
        return text  # a current code fbagent has prompts for: langcodes (60-80 ms to import) would return it
    plain = text.split("-")[0].lower() or "en"
    try:
        found = _langcodes().Language.get(text).language
    except (ValueError, LookupError):
        return plain
    return found or plain


@lru_cache(maxsize=1)
def _language_names() -> dict[str, str]:
    node = resources.files("fbagent.prompts").joinpath("generate", "patterns.toml")
    return dict(tomllib.loads(node.read_text(encoding="utf-8")).get("language_names", {}))


@lru_cache(maxsize=256)
def language_name(lang: str) -> str:
    """English name of a language code (``fr`` -> ``French``, ``eu`` -> ``Basque``); the code itself when unknown."""
    code = base_lang(lang)
    if code in _language_names():
        return _language_names()[code]
    try:
        tag = _langcodes().Language.get(code)
        if tag.is_valid() and tag.language and not ("qaa" <= tag.language <= "qtz"):
            name = tag.display_name()
            if name and not name.startswith("Unknown language"):
                return name
    except (ValueError, LookupError, ImportError):  # unparsable code; language_data (names) missing
        pass
    return lang


def written_without_spaces(lang: str) -> bool:
    """True for languages whose similarity is measured over characters (ja, zh, th, lo, km, my)."""
    return base_lang(lang) in NO_SPACE_LANGS
