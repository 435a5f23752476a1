"""Language codes: the base code of a tag and the English name used in generic prompts.

Names come from ``prompts/generate/patterns.toml`` (``[language_names]``), so a new
language needs a data change only.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


def base_lang(lang: str) -> str:
    """Base language code of a tag: ``"en-US"`` -> ``"en"``, ``"pt_BR"`` -> ``"pt"``; empty -> ``"en"``."""
    return (lang or "en").split("-")[0].split("_")[0].lower()


@lru_cache(maxsize=1)
def _language_names() -> dict[str, str]:
    node = resources.files("fbagent.prompts").joinpath("generate", "patterns.toml")
    return dict(tomllib.loads(node.read_text(encoding="utf-8")).get("language_names", {}))


def language_name(lang: str) -> str:
    """English name of a language code (``fr`` -> ``French``); the code itself when unknown."""
    return _language_names().get(base_lang(lang), lang)
