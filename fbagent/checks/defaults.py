"""The self-check's and the verb check's defaults, declared once (standard library only: ``generate --help``
reads them through :class:`fbagent.generation.RunOptions` and :class:`fbagent.verifier.settings.VerifierOptions`
without loading the checks themselves)."""

from __future__ import annotations

#: minimum lexical similarity of S_A and S_B, verb masked (0..1; :mod:`fbagent.checks.self_check`)
DEFAULT_SIMILARITY_THRESHOLD = 0.5
#: S_x' must have a lexical similarity to S_x below this (0..1)
DEFAULT_NEAR_COPY_THRESHOLD = 0.7
#: R: new generate_base / extend attempts after a failed self-check
DEFAULT_MAX_RETRIES = 2
#: what vouches for a sentence's verb (:mod:`fbagent.checks.coverage`): the language's own check, the verifier's
#: model, or the lemma or declared form as written
VERB_CHECKS = ("auto", "llm", "surface")
#: the verb check when none is given (``--verb-check``): the language's own check
DEFAULT_VERB_CHECK = "auto"
