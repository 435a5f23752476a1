"""Word classes from a Hunspell dictionary installed by a PyPI package (the Swedish ``hunspell-sv``, LGPL-3.0).

A Hunspell dictionary lists stems with the suffix classes (flags) they take; the ``.aff`` file says what each
class adds. A stem that takes the comparison class (the rules adding ``-are`` and ``-ast`` to it: Swedish
"skarp" -> "skarpare", "skarpast") is an adjective, whatever verb form it is spelled as elsewhere, so the word
after it and a determiner is a noun ("en skarp såg"). :func:`is_adjective` answers that for one word (the stem,
or the stem with the neuter ``-t`` or the definite/plural ``-a``); the dictionary is read once (about 0.3 s for
Swedish's 280,000 stems) and only the comparison class's stems are kept. No download: the files are the ones
``pip install hunspell-sv`` put under the environment's ``share/hunspell`` (``sysconfig``'s data path); without
them every answer is False and the verb check keeps its suffix rules (``adjective_endings``).
"""

from __future__ import annotations

import re
import sysconfig
from functools import lru_cache
from pathlib import Path

#: the endings a comparison class adds (Swedish: the comparative and superlative)
_COMPARISON = {"sv": ("are", "ast")}
#: the dictionary file of each language under ``share/hunspell``
_FILES = {"sv": "sv_SE"}


def dictionary_path(lang: str) -> Path | None:
    """The ``.dic`` file of ``lang``'s dictionary package under this environment's (or the user's) data path
    (``<prefix>/share/hunspell/sv_SE.dic``); None where the package is not installed or the language has none."""
    name = _FILES.get(lang)
    if name is None:
        return None
    for scheme in (None, f"{'nt' if sysconfig.get_platform().startswith('win') else 'posix'}_user"):
        try:
            base = Path(sysconfig.get_path("data", scheme) if scheme else sysconfig.get_path("data"))
        except KeyError:
            continue
        path = base / "share" / "hunspell" / f"{name}.dic"
        if path.is_file() and path.with_suffix(".aff").is_file():
            return path
    return None


def comparison_flags(aff_text: str, endings: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    """The suffix classes of an ``.aff`` text (its ``SFX flag strip add condition`` lines) that add every one of
    ``endings`` to the stem without stripping: ``{flag: condition}``, the condition (Hunspell's pattern, a
    regular-expression subset) compiled to match the stem's end ("[^a]": a stem not ending in a)."""
    added: dict[str, set[str]] = {}
    condition: dict[str, str] = {}
    for line in aff_text.splitlines():
        parts = line.split()
        if len(parts) < 5 or parts[0] != "SFX" or parts[2] != "0":
            continue
        added.setdefault(parts[1], set()).add(parts[3].split("/")[0])
        condition.setdefault(parts[1], parts[4])
    return {flag: re.compile(f"(?:{condition[flag]})$") for flag, adds in added.items()
            if all(e in adds for e in endings)}


@lru_cache(maxsize=4)
def adjective_stems(lang: str) -> frozenset[str]:
    """The stems of ``lang``'s Hunspell dictionary that take its comparison class (see the module doc), lower
    case; empty where the dictionary package is not installed or the language has no entry here."""
    path = dictionary_path(lang)
    if path is None:
        return frozenset()
    aff = path.with_suffix(".aff").read_text("utf-8", errors="replace")
    flags = comparison_flags(aff, _COMPARISON[lang])
    if not flags:
        return frozenset()
    out: set[str] = set()
    for line in path.read_text("utf-8", errors="replace").splitlines()[1:]:
        stem, _, rest = line.partition("/")
        if not rest or not stem.islower():
            continue
        if any(f in flags and flags[f].search(stem) for f in rest.split()[0]):
            out.add(stem)
    return frozenset(out)


def is_adjective(word: str, lang: str) -> bool:
    """Whether ``word`` (lower case) is an adjective stem of ``lang``'s Hunspell dictionary, or one with the
    neuter ``-t`` or the definite/plural ``-a`` ("skarp", "skarpt", "skarpa"); False without the dictionary."""
    stems = adjective_stems(lang)
    if not stems:
        return False
    return word in stems or (len(word) > 3 and word[-1] in "ta" and word[:-1] in stems)
