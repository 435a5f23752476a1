"""SemBench round-trip scoring: is a generated definition closer to its own sense than to another?

Shared by the generation verifier (definitions vs the two frames' reference
texts) and ``fbagent eval sembench`` (definitions vs dictionary glosses), so
there is one implementation of the comparison. Source: SemBench (round-trip
definition/example generation scored with a sentence encoder).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fbagent.verifier.encoder import embed
from fbagent.verifier.margin import DEFAULT_MARGIN


@dataclass(frozen=True)
class RoundTripScore:
    """Cosine similarities of one definition to its own and to the other reference; ``passed`` uses the margin."""

    sim_own: float
    sim_other: float
    margin: float
    passed: bool


def cosine_to_references(def_emb: np.ndarray, ref_embs: np.ndarray) -> float:
    """Max cosine similarity between one L2-normalised embedding (dim,) and references (n, dim).

    Returns a float in [-1, 1]; several references (frame definition, LU definition) count by
    their best match. Raises ValueError when ``ref_embs`` is empty.
    """
    ref_embs = np.atleast_2d(ref_embs)
    if ref_embs.shape[0] == 0:
        raise ValueError("no reference texts to compare with")
    return float(np.max(ref_embs @ def_emb))


def score(def_emb: np.ndarray, own_refs: np.ndarray, other_refs: np.ndarray, margin: float = DEFAULT_MARGIN) -> RoundTripScore:
    """Score one definition: pass when ``sim_own - sim_other > margin`` (cosine, unitless)."""
    own = cosine_to_references(def_emb, own_refs)
    other = cosine_to_references(def_emb, other_refs)
    return RoundTripScore(sim_own=own, sim_other=other, margin=margin, passed=(own - other) > margin)


def score_texts(definitions: list[str], own_refs: list[list[str]], other_refs: list[list[str]],
                margin: float = DEFAULT_MARGIN, encoder: str | None = None) -> list[RoundTripScore]:
    """Embed and score a batch: ``definitions[i]`` against ``own_refs[i]`` and ``other_refs[i]``.

    One encoder call embeds all texts (the encoder is loaded once per process, see
    :mod:`fbagent.verifier.encoder`). Raises :class:`fbagent.errors.FbagentError` when the encoder cannot load.
    """
    texts: list[str] = list(definitions)
    spans = []
    for own, other in zip(own_refs, other_refs, strict=True):
        start = len(texts)
        texts.extend(own)
        mid = len(texts)
        texts.extend(other)
        spans.append((start, mid, len(texts)))
    embs = embed(texts, encoder)
    return [score(embs[i], embs[a:b], embs[b:c], margin) for i, (a, b, c) in enumerate(spans)]
