"""Checks of generated items that need no LLM (FrameBench steps 1-2 quality gates), as pure functions.

- :mod:`.self_check`: lexical similarity of the base pair, the verb in every sentence, the
  question's form, the extension checks;
- :mod:`.verb_match`: is the target verb in a sentence (inflection, separable and multi-word
  verbs, any language);
- :mod:`.verb_match_ja`: the Japanese verb check (fugashi readings);
- :mod:`.analysers`: the part-of-speech analysers behind it (HanTa, spaCy, fugashi);
- :mod:`.lemmas`: lemma sources per language;
- :mod:`.morphology`: inflection tables and rules per language;
- :mod:`.warmup`: the lemma tables loaded in a background thread while a run starts.

The question patterns the self-check holds questions against are prompt data (:mod:`fbagent.prompting.patterns`).

:func:`verb_check_line` (:mod:`.coverage`) loads on first use (:func:`fbagent.lean_imports.lazy_attributes`):
``fbagent lexicon --help`` imports this package, not the analysers and lemma tables (HanTa, simplemma, kiwipiepy,
jieba, fugashi: about 100 ms together) that the line reports on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.checks.coverage import verb_check_line

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.checks.coverage": ("verb_check_line",),
}
__all__ = ["verb_check_line"]

__getattr__ = lazy_attributes(__name__, _MODULES)
