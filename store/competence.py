"""Annotators' language competence, as each annotator stated it (table ``annotator_languages``).

The dataset card reports annotators only by what is recorded here: ``fbagent annotate`` asks for the
competence in each language of the entries on first use (or takes ``--competence``), ``fbagent
annotators invite NAME --competence LANG=LEVEL`` records it for a browser annotator. Nothing is
inferred: an annotator who never stated it is "not recorded".
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.languages import normalize_lang
from fbagent.store.clock import utc_now
from fbagent.store.transaction import transaction

#: the levels, most competent first (self-reported; CEFR-like coarse bands)
LEVELS = ("native", "near-native", "fluent", "basic")


def parse_competence(text: str, languages: Iterable[str] = ()) -> dict[str, str]:
    """``"native"`` (every language of ``languages``) or ``"en=native,ja=fluent"`` -> ``{lang: level}``.

    A language is stored as its canonical code (``eng`` -> ``en``). Raises :class:`FbagentError` for an unknown
    level, an empty language, a code that is no language (``xx``), or a bare level when ``languages`` is empty
    (which language it is for is then unknown).
    """
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        lang, _, level = part.rpartition("=")
        level = level.strip().lower()
        if level not in LEVELS:
            raise FbagentError(f"--competence {part!r}: {level!r} is not a level",
                               f"pass one of {', '.join(LEVELS)}, or LANG=LEVEL such as en=native")
        langs = [lang.strip()] if lang else list(languages)
        if not langs or not all(langs):
            raise FbagentError(f"--competence {part!r} names no language",
                               "pass LANG=LEVEL, e.g. --competence en=native (several: en=native,ja=fluent)")
        if lang:
            langs = [_language(part, lang.strip())]
        out.update(dict.fromkeys(langs, level))
    if not out:
        raise FbagentError("--competence is empty", f"pass a level ({', '.join(LEVELS)}) or LANG=LEVEL")
    return out


def _language(part: str, code: str) -> str:
    """``code`` as :func:`fbagent.languages.normalize_lang` gives it; its error names the ``--competence`` part."""
    try:
        return normalize_lang(code)
    except FbagentError as err:
        raise FbagentError(f"--competence {part!r}: {code!r} is not a language code",
                           "pass LANG=LEVEL with an ISO 639 code, e.g. en=native (several: en=native,ja=fluent)") from err


def record_competence(db: sqlite_utils.Database, annotator: str, levels: dict[str, str], source: str) -> None:
    """Store ``{lang: level}`` for ``annotator`` (a later statement for a language replaces the earlier one);
    ``source`` says where it was stated (``annotate`` | ``invite``)."""
    now = utc_now()
    with transaction(db) as conn:
        for lang, level in sorted(levels.items()):
            conn.execute("INSERT OR REPLACE INTO annotator_languages (annotator, lang, competence, source, recorded_at)"
                         " VALUES (?, ?, ?, ?, ?)", [annotator, lang, level, source, now])


def competence(db: sqlite_utils.Database) -> dict[str, dict[str, str]]:
    """``{annotator: {lang: level}}`` of every recorded statement (empty on a database without the table)."""
    if "annotator_languages" not in db.table_names():
        return {}
    out: dict[str, dict[str, str]] = {}
    for r in db.query("SELECT annotator, lang, competence FROM annotator_languages ORDER BY annotator, lang"):
        out.setdefault(r["annotator"], {})[r["lang"]] = r["competence"]
    return out


def missing_languages(db: sqlite_utils.Database, annotator: str, languages: Iterable[str]) -> list[str]:
    """The languages of ``languages`` (sorted) for which ``annotator`` has stated no competence."""
    have = competence(db).get(annotator, {})
    return sorted({lang for lang in languages if lang not in have})
