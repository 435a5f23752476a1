"""FrameNet's own LU lemma notation: grouping key and matchable parts.

FrameNet LU names carry more than a word: ``sleep (together/with).v``,
``abide_((by)).v``, ``be_supposed_(to).v``, ``get_a(n)_eyeful.v``,
``band_together.v`` next to ``band together.v``. Two things are derived from
the lemma part (the name without its ``.pos`` suffix, see
:func:`fbagent.framenet.model.split_lu_name`):

- :func:`group_lemma`: the key under which verb LUs are grouped into one
  polysemous verb (FrameBench step 1). Parentheticals are set aside and ``_``
  counts as a space, so ``sleep (together/with)``, ``sleep_(with)`` and
  ``sleep`` are one verb; the full LU names stay stored and shown.
- :func:`lemma_parts`: the parts a sentence must contain, in order, for the
  verb check (:mod:`fbagent.checks.verb_match`). A parenthesised part is optional,
  ``a/b`` (or ``a|b``) are alternatives, ``a(n)`` is ``a`` or ``an``.

Pure functions over strings; no I/O.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_PAREN_GROUP = re.compile(r"\(+[^()]*\)+")
_SPACES = re.compile(r"\s+")
_WORD = re.compile(r"\w+", re.UNICODE)
# A parenthesised group standing alone, or a word with optional letters glued in ("a(n)").
_ITEM = re.compile(r"\(+[^()]*\)+|[^\s()]+(?:\([^()\s]*\)[^\s()]*)*")


def _clean(lemma: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFC", lemma).replace("_", " ")).strip()


def group_lemma(lemma: str) -> str:
    """The grouping key of an LU lemma: parentheticals set aside, ``_`` as a space, NFC.

    ``"sleep (together/with)"`` -> ``"sleep"``; ``"abide_((by))"`` -> ``"abide"``;
    ``"band_together"`` -> ``"band together"``; ``"get_a(n)_eyeful"`` -> ``"get a eyeful"``.
    Case is kept. A lemma that is all parenthetical (``"(x)"``) keeps its words
    without the brackets, so the key is never empty for a non-empty lemma.
    """
    text = _clean(lemma)
    stripped = text
    while True:
        reduced = _PAREN_GROUP.sub(" ", stripped)
        if reduced == stripped:
            break
        stripped = reduced
    stripped = _SPACES.sub(" ", stripped).strip()
    return stripped or _SPACES.sub(" ", text.replace("(", " ").replace(")", " ")).strip()


@dataclass(frozen=True)
class LemmaPart:
    """One part of a lemma for matching.

    ``alternatives``: the forms the part may take, each a tuple of lower-cased
    word tokens (``("put",)``; ``("someone", "s")`` for ``someone's``);
    ``optional``: True for a parenthesised part, which a sentence may leave out.
    """

    alternatives: tuple[tuple[str, ...], ...]
    optional: bool = False


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(text))


def _alternatives(texts: list[str]) -> tuple[tuple[str, ...], ...]:
    out: list[tuple[str, ...]] = []
    for t in texts:
        words = _words(t)
        if words and words not in out:
            out.append(words)
    return tuple(out)


def lemma_parts(lemma: str) -> list[LemmaPart]:
    """Split an LU lemma into :class:`LemmaPart` s, in order.

    - ``_`` is a space; words are Unicode ``\\w+`` runs, lower-cased.
    - ``(x)`` and ``((x))`` standing alone are optional parts; inside them
      ``/``, ``|``, ``_`` and spaces separate alternatives (``(together/with)``,
      ``(with_to)``).
    - ``a/b`` (or ``a|b``) outside parentheses: one part with two alternatives.
    - letters in parentheses inside a word are optional: ``a(n)`` -> ``a`` or ``an``.

    ``"sleep (together/with)"`` -> ``[sleep], [together | with]?``. Returns an
    empty list for a lemma without any word character.
    """
    parts: list[LemmaPart] = []
    for m in _ITEM.finditer(_clean(lemma)):
        item = m.group()
        if item.startswith("("):
            inner = item.strip("()")
            alts = _alternatives(re.split(r"[/|\s]+", inner))
            if alts:
                parts.append(LemmaPart(tuple((w,) for alt in alts for w in alt), optional=True))
            continue
        texts: list[str] = []
        for alt in re.split(r"[/|]", item):
            if "(" in alt:
                texts += [re.sub(r"\([^()]*\)", "", alt), alt.replace("(", "").replace(")", "")]
            else:
                texts.append(alt)
        alts = _alternatives(texts)
        if not alts:
            continue
        if len(alts) == 1 and len(alts[0]) > 1:  # "someone's" -> someone, s (both required, in a row)
            parts.extend(LemmaPart(((w,),)) for w in alts[0])
        else:
            parts.append(LemmaPart(alts))
    return parts


FORBIDDEN_IN_NAMES = "a backslash (\\) or a control character (tab, newline, ...)"


def lu_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an LU name (``lemma.pos``), or None when it can.

    Any character is allowed except a backslash and control characters; the
    name must not start with a dot or a space and must end with ``.POS``
    (letters only, e.g. ``.v``). ``"sleep (together/with).v"`` is fine.
    """
    bad = sorted({ch for ch in name if ch == "\\" or unicodedata.category(ch) == "Cc"})
    if bad:
        shown = ", ".join(repr(ch) for ch in bad)
        return f"contains {shown}; an LU name may hold any character except {FORBIDDEN_IN_NAMES}"
    if not name.strip():
        return "is empty"
    if name[0] in ". " or name[0].isspace():
        return "starts with a dot or a space"
    lemma, dot, pos = name.rpartition(".")
    if not dot or not lemma.strip() or not pos.isascii() or not pos.isalpha():
        return "does not end with .POS (lemma.pos, e.g. leave.v; the part after the last dot is the POS, v = verb)"
    return None
