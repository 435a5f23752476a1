"""The exemplar-based encoder check: does the verb in a sentence look like its frame's exemplars?

A second verifier signal that needs no LLM (``generate --verifier encoder|both``, ``verifier
calibrate --signal encoder|both``). The sentence encoder embeds the TARGET of a sentence (the verb
as used there: the encoder's contextual token vectors over the target span, mean-pooled and
L2-normalised, :func:`target_embeddings`) and the targets of the reference exemplars of each frame
(the annotated exemplar sentences of the verb's LU in that frame, FrameNet's gold data, target span
known), at the layer at two thirds of the encoder's depth. The similarity of the sentence to a frame
is the cosine between its target vector and the normalised CENTROID of that frame's reference target vectors (:func:`centroid_similarity`); the
sentence passes when ``sim_own - sim_other > margin``, as the round trip does
(:mod:`fbagent.verifier.roundtrip`).

Why these choices (measured on FrameNet 1.5 held-out exemplars, all-MiniLM-L6-v2, 100 pairs, 400
sentences; docs/verifier.md has the tables): whole-sentence embeddings score 72-74% (the topic of the
sentence dominates); the target's token vectors of the last layer 75%, of the layer at two thirds of
the depth (layer 4 of 6) 77%; the centroid beats the nearest neighbour (77% vs 74.5%) and costs one
dot product per frame; the exemplars of the frame's other LUs (other verbs) as references lower it
to 69%, a logistic regression on the references to 67%, mixing in the frame definition (a sentence
embedding, another space than a target vector) lowers it too, so none of these is used.

Held-out split (calibration): the exemplars that stand in for generated sentences are never among
the references they are compared with (:mod:`fbagent.verifier.calibration`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import sqlite_utils

from fbagent.seeds import DEFAULT_SEED
from fbagent.store.exemplars import frame_definition, lu_exemplars
from fbagent.store.rows import ExemplarRow
from fbagent.verifier.settings import DEFAULT_MAX_REFERENCES

#: characters of context kept on each side of the target before encoding (speed; the target's context)
CONTEXT_CHARS = 100
#: which hidden layer gives the target vector, as a fraction of the depth (layer 4 of 6 for MiniLM-L6)
LAYER_FRACTION = 2 / 3

Span = tuple[int, int] | list[int] | None


class TargetEncoder(Protocol):
    """A sentence encoder as the verifier uses it (:class:`fbagent.verifier.verify.SentenceEncoder`, an encoder in its
    own process, one still loading): sentence embeddings and target vectors, L2-normalised float32 rows of shape
    (len(texts), dim)."""

    def encode(self, texts: list[str]) -> np.ndarray: ...

    def encode_targets(self, texts: list[str], spans: list[Span]) -> np.ndarray: ...


def mark_target(text: str, span: Span, open_: str = "[", close: str = "]") -> str:
    """``text`` with the target span ``[start, end)`` (characters, end exclusive) wrapped in brackets;
    ``text`` unchanged when ``span`` is ``None`` or out of range."""
    if not span or len(span) != 2:
        return text
    start, end = int(span[0]), int(span[1])
    if not 0 <= start < end <= len(text):
        return text
    return f"{text[:start]}{open_}{text[start:end]}{close}{text[end:]}"


def valid_span(text: str, span: Span) -> tuple[int, int] | None:
    """``(start, end)`` when ``span`` is a usable character span of ``text``, else ``None``."""
    if not span or len(span) != 2 or span[0] is None or span[1] is None:
        return None
    start, end = int(span[0]), int(span[1])
    return (start, end) if 0 <= start < end <= len(text) else None


def clip_context(text: str, span: tuple[int, int], chars: int = CONTEXT_CHARS) -> tuple[str, tuple[int, int]]:
    """At most ``chars`` characters of ``text`` on each side of ``span`` (cut at a space), with the span
    moved into the clipped text. Long FrameNet exemplars (some over 500 characters) then cost no more
    than short ones."""
    start, end = span
    left = max(0, start - chars)
    if left:
        space = text.find(" ", left, start)
        left = space + 1 if space != -1 else left
    right = min(len(text), end + chars)
    if right < len(text):
        space = text.rfind(" ", end, right)
        right = space if space != -1 else right
    return text[left:right], (start - left, end - left)


def target_embeddings(model: Any, texts: Sequence[str], spans: Sequence[Span], batch_size: int = 64,
                      layer: int | None = None) -> np.ndarray:
    """Contextual embedding of each text's target: shape ``(len(texts), dim)``, float32, L2-normalised rows.

    ``model``: a ``sentence_transformers.SentenceTransformer`` whose first module is a Hugging Face
    transformer with a fast tokenizer (all-MiniLM-L6-v2 and most sentence-transformers models). The
    hidden states of layer ``layer`` (default: ``round(LAYER_FRACTION * number of layers)``; 0 is
    the embedding layer) of the tokens that overlap the span are mean-pooled; a text
    without a usable span (or whose span tokens were truncated away) gets the mean over all its
    tokens at that layer. Texts are clipped around the target
    (:func:`clip_context`) and encoded in batches sorted by length. Raises ``TypeError`` when the
    model has no such first module (use :meth:`ReferenceEncoder.encode_targets`, which falls back).
    """
    import torch

    first = model[0]
    tokenizer, transformer = getattr(first, "tokenizer", None), getattr(first, "auto_model", None)
    if tokenizer is None or transformer is None or not getattr(tokenizer, "is_fast", False):
        raise TypeError("the encoder's first module is not a Hugging Face transformer with a fast tokenizer")
    prepared = []
    for text, span in zip(texts, spans, strict=True):
        s = valid_span(text, span)
        prepared.append(clip_context(text, s) if s else (text, None))
    order = sorted(range(len(prepared)), key=lambda i: len(prepared[i][0]))
    dim = transformer.config.hidden_size
    n_layers = int(transformer.config.num_hidden_layers)
    layer = round(LAYER_FRACTION * n_layers) if layer is None else max(0, min(int(layer), n_layers))
    out = np.zeros((len(prepared), dim), dtype=np.float32)
    max_len = min(int(getattr(first, "max_seq_length", 256) or 256), 512)
    for b in range(0, len(order), batch_size):
        idx = order[b:b + batch_size]
        batch = tokenizer([prepared[i][0] for i in idx], return_offsets_mapping=True, padding=True,
                          truncation=True, max_length=max_len, return_tensors="pt")
        offsets = batch.pop("offset_mapping")
        with torch.inference_mode():
            hidden = transformer(**batch, output_hidden_states=True).hidden_states[layer]
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        sentence = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
        for row, i in enumerate(idx):
            vec = sentence[row]
            span = prepared[i][1]
            if span is not None:
                o = offsets[row]
                sel = ((o[:, 0] < span[1]) & (o[:, 1] > span[0]) & (o[:, 1] > o[:, 0])).nonzero().flatten()
                if len(sel):
                    vec = hidden[row, sel].mean(0)
            out[i] = torch.nn.functional.normalize(vec, dim=0).cpu().numpy()
    return out


def centroid_similarity(target: np.ndarray, references: np.ndarray) -> float:
    """Cosine between one L2-normalised target vector ``(dim,)`` and the normalised centroid of
    ``references`` ``(n, dim)``; in [-1, 1]. Raises ``ValueError`` when ``references`` is empty."""
    references = np.atleast_2d(references)
    if references.shape[0] == 0:
        raise ValueError("no reference exemplars to compare with")
    centroid = references.mean(axis=0)
    norm = float(np.linalg.norm(centroid))
    return float(centroid @ target / norm) if norm > 0 else 0.0


class ExemplarBank:
    """Target embeddings of each frame's reference exemplars, computed once per (frame, verb) and run.

    ``encoder``: a :class:`fbagent.verifier.verify.BatchEncoder`; ``rows_for(frame, verb)`` -> reference
    exemplars ``[{"text", "target_start", "target_end"}]`` (generation:
    :func:`generation_references`; calibration: the exemplars left after the
    held-out split). A frame without reference exemplars falls back to its definition
    (``definition_for(frame, verb)``, encoded as a sentence), so that the check still gives a number.
    """

    def __init__(self, encoder: Any, rows_for: Callable[[str, str], list[ExemplarRow]],
                 definition_for: Callable[[str, str], str] | None = None) -> None:
        self.encoder = encoder
        self.rows_for = rows_for
        self.definition_for = definition_for
        self._cache: dict[tuple[str, str], asyncio.Future[np.ndarray]] = {}
        self.sizes: dict[tuple[str, str], int] = {}

    async def get(self, frame: str, verb: str) -> np.ndarray:
        """Reference target embeddings of ``frame`` for ``verb``: shape (n, dim). Raises ``ValueError``
        when the frame has neither reference exemplars nor a definition."""
        key = (frame, verb)
        if key not in self._cache:
            fut: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
            self._cache[key] = fut
            try:
                rows = [r for r in self.rows_for(frame, verb) if (r.get("text") or "").strip()]
                if rows:
                    embs = await self.encoder.encode_targets(
                        [r["text"] for r in rows], [(r.get("target_start"), r.get("target_end")) for r in rows])
                else:
                    definition = (self.definition_for(frame, verb) if self.definition_for else "") or ""
                    if not definition.strip():
                        raise ValueError(f"frame {frame!r} has no reference exemplar of {verb!r} and no definition")
                    embs = await self.encoder.encode([definition])
                self.sizes[key] = len(rows)
                fut.set_result(np.asarray(embs))
            except BaseException as err:
                del self._cache[key]
                fut.set_exception(err)
                fut.exception()  # mark retrieved
                raise
        return await self._cache[key]

    async def score(self, sentence: str, span: Span, own_frame: str, other_frame: str, verb: str) -> tuple[float, float]:
        """``(sim_own, sim_other)``: :func:`centroid_similarity` of the sentence's target to each frame."""
        target = (await self.encoder.encode_targets([sentence], [span]))[0]
        own = await self.get(own_frame, verb)
        other = await self.get(other_frame, verb)
        return centroid_similarity(target, own), centroid_similarity(target, other)


def reference_sample(rows: list[ExemplarRow], limit: int, seed: int, key: str) -> list[ExemplarRow]:
    """The exemplars with a target span, at most ``limit`` of them (``random.Random(f"{seed}|{key}")``
    sample when there are more), in their stored order."""
    usable = [r for r in rows if r.get("target_start") is not None and r.get("target_end") is not None]
    if len(usable) <= limit:
        return usable
    keep = {id(r) for r in random.Random(f"{seed}|{key}").sample(usable, limit)}
    return [r for r in usable if id(r) in keep]


def generation_references(db: sqlite_utils.Database, lexicon_id: int, *, seed: int = DEFAULT_SEED, limit: int = DEFAULT_MAX_REFERENCES
                          ) -> tuple[Callable[[str, str], list[ExemplarRow]], Callable[[str, str], str]]:
    """``(rows_for, definition_for)`` of :class:`ExemplarBank` for a generation run: every exemplar of
    the verb's LU in the frame (:func:`fbagent.store.exemplars.lu_exemplars`), at most ``limit``
    (:func:`reference_sample`, seeded with the run's seed), and the frame's clean definition."""
    def rows_for(frame: str, verb: str) -> list[ExemplarRow]:
        return reference_sample(lu_exemplars(db, lexicon_id, frame, verb), limit, seed, f"references|{frame}|{verb}")

    def definition_for(frame: str, verb: str) -> str:
        return frame_definition(db, lexicon_id, frame)

    return rows_for, definition_for
