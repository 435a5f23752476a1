"""The verifier: does each generated sentence evoke its own frame rather than the other?

- :mod:`.verify`: the ``verify`` node of the entry graph (SemBench round trip per sentence,
  the encoder check, the optional four-choice judge, the verdict);
- :mod:`.roundtrip`: the round-trip comparison (definition vs references), shared with
  ``fbagent eval sembench``;
- :mod:`.encoder_check`: the exemplar-based encoder check (target vectors vs frame centroids);
- :mod:`.encoder`: the sentence encoder, loaded once per process;
- :mod:`.encoder_process`: the encoder in a process of its own (what ``generate`` and ``verifier calibrate`` use);
- :mod:`.encoder_batch`: the entries' encoder requests batched in one worker thread, rows kept by text;
- :mod:`.calibration`: ``fbagent verifier calibrate`` and ``generate --margin auto``;
- :mod:`.agreement`: the verifier's verdict against human validation;
- :mod:`.run_models`: the models a verifying run uses (generator, verifier LLM, encoder): the ``models`` group
  of ``generate``'s and ``verifier calibrate``'s options;
- :mod:`.settings`: how the verifier judges (signal, margin, verb check, judge): their ``verifier`` group;
- :mod:`.startup`: their start-up and shut-down (the encoder loads in the background), shared by
  ``fbagent generate`` and ``fbagent verifier calibrate``.

The encoder's names load on first use (:func:`fbagent.lean_imports.lazy_attributes`): ``fbagent audit --help`` and
``fbagent export --help`` import this package, not numpy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.verifier.encoder import DEFAULT_ENCODER, embed, load_encoder

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.verifier.encoder": ("DEFAULT_ENCODER", "embed", "load_encoder"),
}
__all__ = ["DEFAULT_ENCODER", "embed", "load_encoder"]

__getattr__ = lazy_attributes(__name__, _MODULES)
