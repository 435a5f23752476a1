"""The protocol choices the commands offer, declared once and light (no imports): ``--orders`` and ``--templates``.

:data:`ORDER_CHOICES` names the sentence orders each ``--orders`` value asks (FrameBench, Yano and Sasano
2026, section 4: every pair in both orders; the authors' evaluator by default: the canonical order only);
:data:`ALL_TEMPLATES` is the ``--templates`` value that asks every template. ``eval run``, ``export --format
lm-eval``, ``audit``, :class:`fbagent.eval.framebench.RunSettings` and
:class:`fbagent.publish.options.LmEvalOptions` read them from here, so ``--help`` loads nothing else.
"""

from __future__ import annotations

#: the two sentence orders of a pair (:mod:`fbagent.eval.problems`)
ORDERS = ("canonical", "swapped")
#: the ``--orders`` choices and the sentence orders each asks
ORDER_CHOICES = {"both": ORDERS, "canonical": ("canonical",)}
#: ``--orders`` when none is given
DEFAULT_ORDERS = "both"
#: the ``--templates`` value that asks every template (the default of eval run and export --format lm-eval)
ALL_TEMPLATES = "all"
