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
"""
