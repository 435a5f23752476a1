"""SemBench round-trip verifier for generated items (the ``verify`` node of the entry graph).

For each of the four sentences (S_A, S_B, S_A', S_B') a verifier LLM writes a
short dictionary definition of the verb as used there (SemBench "from
example" prompt, ``prompts/roundtrip/<lang>/define_from_example.txt``). A
sentence encoder embeds that definition and the reference texts of both
frames (clean frame definition, plus the LU definition where the lexicon has
one); :func:`fbagent.verifier.roundtrip.score` gives ``sim_own`` and ``sim_other``
(cosine, max over each frame's reference texts). The sentence passes when
``sim_own - sim_other > margin``. Source: SemBench (round-trip definition
generation scored with a sentence encoder); FrameBench (Yano and Sasano 2026,
sec. 3) for the four sentences.

With ``judge=True`` the verifier also answers the four-choice question for the
base pair and the extended pair, each in both sentence orders (options 1:
sentence 1 only, 2: sentence 2 only, 3: both, 4: neither); the gold answer is
the position of the frame-A sentence.

Signals (``signal``; ``fbagent generate --verifier``): ``roundtrip`` (above, the default),
``encoder`` (the exemplar-based encoder check of :mod:`fbagent.verifier.encoder_check`: the verb's
target vector against each frame's exemplars; no LLM call) or ``both``. With ``both`` a
sentence passes when BOTH differences exceed the margin, i.e. ``min(d_roundtrip, d_encoder) >
margin`` (the stricter verdict: the sentence must look like its frame to the verifier LLM and
to the exemplars). ``fbagent verifier calibrate`` measures each signal on held-out exemplars
(docs/verifier.md).

The encoder runs in one worker thread (:class:`~fbagent.verifier.encoder_batch.BatchEncoder`), never
on the event loop; the requests of the entries in flight are batched into one ``encode`` call (a short
collection window), identical texts encoded once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Protocol, TypedDict, cast

import numpy as np

from fbagent.schemas import Definition, FourChoiceAnswer
from fbagent.verifier.encoder import DEFAULT_ENCODER, load_encoder, resolve_encoder, unit_float32
from fbagent.verifier.encoder_batch import BatchEncoder
from fbagent.verifier.encoder_check import ExemplarBank, Span, mark_target, target_embeddings
from fbagent.verifier.margin import DEFAULT_MARGIN
from fbagent.verifier.roundtrip import score
from fbagent.verifier.settings import DEFAULT_SIGNAL, SIGNALS

if TYPE_CHECKING:
    from fbagent.llm.client import CallResult, LLMClient
    from fbagent.prompting.messages import Prompts

SENTENCE_KEYS = ("sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime")


class Similarities(TypedDict):
    """The encoder check's cosines of a sentence's target to its own frame's and the other frame's exemplars."""

    sim_own: float
    sim_other: float


#: one sentence's row of :func:`verify_item` (``encoder_check`` only with signals encoder and both)
SentenceVerdict = TypedDict("SentenceVerdict", {
    "frame": str, "definition": str | None, "sim_own": float | None, "sim_other": float | None,
    "encoder_check": Similarities, "pass": bool, "call_id": int | None}, total=False)


class JudgeRow(TypedDict):
    """One four-choice judge question of :func:`verify_item`: the pair, its order, the answer and whether it is right."""

    pair: str
    order: str
    answer: str
    gold: str
    correct: bool
    call_id: int


class VerifierResult(TypedDict, total=False):
    """What :func:`verify_item` returns (stored as the ``verifier`` JSON of an entry)."""

    encoder: str | None
    margin: float
    error: str | None
    signal: str
    sentences: dict[str, SentenceVerdict]
    judge: list[JudgeRow]
    passed: bool


class _Ask(TypedDict):
    """Stored with each verifier call."""

    run_id: int | None
    item_id: str | None
    seed: int | None
#: frame side of each sentence: "a" sentences evoke frame A, "b" sentences frame B
SIDE = {"sentence_a": "a", "sentence_b": "b", "sentence_a_prime": "a", "sentence_b_prime": "b"}


class TextEncoder(Protocol):
    """Anything with ``encode(texts) -> float array (len(texts), dim)`` of L2-normalised rows."""

    def encode(self, texts: list[str]) -> np.ndarray: ...


class SentenceEncoder:
    """A sentence-transformers model (see :mod:`fbagent.verifier.encoder`) behind the :class:`TextEncoder` protocol."""

    def __init__(self, name_or_path: str | None = None, threads: int | None = None) -> None:
        """Load the model once. ``threads``: torch intra-op threads (default ``$FBAGENT_ENCODER_THREADS`` or 1).

        One thread is the default on purpose: with a busy or small machine torch's
        thread pool spins against other processes, and encoding 4 definitions
        measured 350-900 ms with 2 threads against 30 ms with 1 (2 shared cores).
        """
        import os

        import torch

        torch.set_num_threads(max(1, int(threads or os.environ.get("FBAGENT_ENCODER_THREADS") or 1)))

        self.name = name_or_path or DEFAULT_ENCODER
        self.path = resolve_encoder(name_or_path)
        self.model = load_encoder(name_or_path)

    def encode(self, texts: list[str]) -> np.ndarray:
        """L2-normalised float32 embeddings, shape (len(texts), dim)."""
        return unit_float32(self.model.encode(texts, normalize_embeddings=True, convert_to_numpy=True,
                                              show_progress_bar=False, batch_size=64))

    def encode_targets(self, texts: list[str], spans: list[Span]) -> np.ndarray:
        """L2-normalised float32 target vectors (the verb in context), shape (len(texts), dim): see
        :func:`fbagent.verifier.encoder_check.target_embeddings`. A model without a Hugging Face transformer as
        its first module embeds the sentences with the target bracketed instead."""
        try:
            return unit_float32(target_embeddings(self.model, texts, spans))
        except TypeError:
            return self.encode([mark_target(t, s) for t, s in zip(texts, spans, strict=True)])


class ReferenceBank:
    """Embeddings of each frame's reference texts, computed once per (frame, verb) and run.

    ``texts_for(frame_name, verb)`` -> list of reference texts (clean frame definition,
    LU definition); see :func:`fbagent.store.lexicon.frame_reference_texts`.
    """

    def __init__(self, encoder: BatchEncoder, texts_for: Callable[[str, str], list[str]]) -> None:
        self.encoder = encoder
        self.texts_for = texts_for
        self._cache: dict[tuple[str, str], asyncio.Future[np.ndarray]] = {}
        self.texts: dict[tuple[str, str], list[str]] = {}

    async def get(self, frame: str, verb: str) -> np.ndarray:
        """Reference embeddings of ``frame`` for ``verb``: shape (n_texts, dim). Raises ValueError if none."""
        key = (frame, verb)
        if key not in self._cache:
            fut: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
            self._cache[key] = fut
            try:
                texts = [t for t in self.texts_for(frame, verb) if t and t.strip()]
                if not texts:
                    raise ValueError(f"frame {frame!r} has no reference text (definition)")
                self.texts[key] = texts
                fut.set_result(await self.encoder.encode(texts))
            except BaseException as err:
                del self._cache[key]
                fut.set_exception(err)
                fut.exception()  # mark retrieved
                raise
        return await self._cache[key]


async def verify_item(
    *,
    client: LLMClient | None,
    prompts: Prompts,
    encoder: BatchEncoder,
    references: ReferenceBank,
    sentences: dict[str, str],
    verb: str,
    frame_a: str,
    frame_b: str,
    question_four_choice: str | None,
    margin: float = DEFAULT_MARGIN,
    judge: bool = False,
    run_id: int | None = None,
    item_id: str | None = None,
    seed: int | None = None,
    encoder_name: str | None = None,
    signal: str = DEFAULT_SIGNAL,
    exemplars: ExemplarBank | None = None,
    spans: Mapping[str, Span] | None = None,
) -> VerifierResult:
    """Verify the four sentences of one item with ``signal`` (module doc: roundtrip, encoder, both).

    ``client``: an :class:`fbagent.llm.client.LLMClient` (the verifier; unused with signal
    ``encoder`` unless ``judge``); ``prompts``: :class:`fbagent.prompting.messages.Prompts`;
    ``sentences``: the four texts keyed by :data:`SENTENCE_KEYS`; ``exemplars``: an
    :class:`fbagent.verifier.encoder_check.ExemplarBank` (signals ``encoder`` and ``both``); ``spans``:
    the target span ``[start, end)`` of each sentence (characters; a missing one makes the check
    use the whole sentence). Returns::

        {"encoder", "margin", "error": str | None, ["signal": "encoder" | "both"],
         "sentences": {key: {"frame", "definition", "sim_own", "sim_other", "pass", "call_id",
                             ["encoder_check": {"sim_own", "sim_other"}]}},
         "judge": [{"pair", "order", "answer", "gold", "correct", "call_id"}] (only with judge),
         "passed": bool (all four pass, and every judge answer correct when judging)}

    ``sim_own``/``sim_other`` are the round trip's cosines (``None`` with signal ``encoder``);
    ``encoder_check`` holds the encoder check's (signals ``encoder``, ``both``); ``pass`` is the
    signal's verdict at ``margin``. ``error`` is set (and ``passed`` false) when a verifier LLM
    call failed after its retries; the item then becomes ``failed``. Raises ``ValueError`` for an
    unknown ``signal`` or a missing ``exemplars`` bank.
    """
    if signal not in SIGNALS:
        raise ValueError(f"unknown verifier signal {signal!r} (one of {', '.join(SIGNALS)})")
    if signal != "roundtrip" and exemplars is None:
        raise ValueError(f"verifier signal {signal!r} needs an exemplar bank")
    own = {"a": frame_a, "b": frame_b}
    other = {"a": frame_b, "b": frame_a}
    keys = [k for k in SENTENCE_KEYS if sentences.get(k)]
    define_keys = keys if signal != "encoder" else []
    judge_specs = _judge_specs(sentences, question_four_choice) if judge else []
    calls = _llm_calls(client, prompts, verb, [sentences[k] for k in define_keys], question_four_choice or "",
                       judge_specs, {"run_id": run_id, "item_id": item_id, "seed": seed})
    # signal encoder or both: the caller passes the exemplars
    checks = [exemplars.score(sentences[k], (spans or {}).get(k), own[SIDE[k]], other[SIDE[k]], verb)
              for k in keys] if exemplars is not None and signal != "roundtrip" else []
    results = await _answers(calls, checks)
    define_results, judge_results = results[: len(define_keys)], results[len(define_keys):]
    out: VerifierResult = {"encoder": encoder_name, "margin": margin, "error": None, "sentences": {}}
    if signal != "roundtrip":
        out["signal"] = signal
    errors = [f"{'define' if i < len(define_keys) else 'judge'}: {r.error}" for i, r in enumerate(results) if r.error]
    if errors:
        for c in checks:
            c.close()   # never awaited: no "coroutine was never awaited" warning
        out["error"] = errors[0]
        out["passed"] = False
        return out
    encoder_sims = await asyncio.gather(*checks)
    sides = [(key, own[SIDE[key]], other[SIDE[key]]) for key in keys]
    out["sentences"], passed = await _sentence_rows(
        sides, verb, encoder, references, margin, define_results if signal != "encoder" else None,
        encoder_sims if signal != "roundtrip" else None)
    if judge:
        out["judge"], judged_right = _judge_rows(judge_specs, judge_results)
        passed &= judged_right
    out["passed"] = bool(passed) and len(keys) == len(SENTENCE_KEYS)
    return out


async def _answers(calls: list[Coroutine[object, None, CallResult]],
                   checks: list[Coroutine[object, None, tuple[float, float]]]) -> list[CallResult]:
    """The results of the LLM ``calls`` (coroutines), in order; when they are cancelled (Ctrl-C, a
    calibration that stops) the encoder ``checks`` (coroutines not yet awaited) are closed unrun."""
    try:
        return await asyncio.gather(*calls)
    except BaseException:
        for c in checks:
            c.close()
        raise


def _llm_calls(client: LLMClient | None, prompts: Prompts, verb: str, define_texts: list[str], question: str,
               judge_specs: list[tuple[str, str, str, str, str]], ask: _Ask) -> list[Coroutine[object, None, CallResult]]:
    """The verifier LLM's requests (not yet awaited): one definition per text, then one answer per judge
    question. ``ask``: run_id, item_id and seed, stored with each call (``client`` is ``None`` only when there is
    nothing to ask: the encoder signal without a judge)."""
    if not define_texts and not judge_specs:
        return []
    assert client is not None
    calls = [
        client.complete(
            task="define", messages=prompts.define_messages(verb, text), response_model=Definition,
            prompt_version=prompts.define.version, temperature=0.0, max_tokens=128, **ask,
        )
        for text in define_texts
    ]
    calls += [
        client.complete(
            task="judge", messages=prompts.judge_messages(question, s1, s2), response_model=FourChoiceAnswer,
            prompt_version=prompts.judge.version, temperature=0.0, max_tokens=16, **ask,
        )
        for (_, _, s1, s2, _) in judge_specs
    ]
    return calls


async def _sentence_rows(
    sides: list[tuple[str, str, str]], verb: str, encoder: BatchEncoder, references: ReferenceBank, margin: float,
    define_results: list[CallResult] | None, encoder_sims: list[tuple[float, float]] | None,
) -> tuple[dict[str, SentenceVerdict], bool]:
    """The ``sentences`` block of :func:`verify_item` and whether every sentence passes.

    ``sides``: (sentence key, own frame, other frame) per sentence; ``define_results``: the verifier's
    definitions, in the same order (None with signal ``encoder``); ``encoder_sims``: the encoder check's
    (sim_own, sim_other) per sentence (None with signal ``roundtrip``).
    """
    definitions = [cast(Definition, r.value).definition for r in define_results or []]   # no error: Definitions
    embs = await encoder.encode(definitions) if definitions else np.zeros((0, 1))
    rows: dict[str, SentenceVerdict] = {}
    passed = True
    for i, (key, frame, other_frame) in enumerate(sides):
        roundtrip = (definitions[i], embs[i], define_results[i].call_id) if define_results is not None else None
        rows[key], ok = await _sentence_row(
            frame, other_frame, verb, references, margin, roundtrip=roundtrip,
            encoder_sims=encoder_sims[i] if encoder_sims is not None else None,
        )
        passed &= ok
    return rows, passed


def _judge_specs(sentences: dict[str, str], question: str | None) -> list[tuple[str, str, str, str, str]]:
    """The judge questions of an item: ``(pair, order, sentence 1, sentence 2, gold)``, base and extended
    pair each in both orders (gold "1" when the frame-A sentence comes first); none without a question."""
    specs: list[tuple[str, str, str, str, str]] = []
    for pair, a_key, b_key in (("base", "sentence_a", "sentence_b"), ("extended", "sentence_a_prime", "sentence_b_prime")):
        if sentences.get(a_key) and sentences.get(b_key) and question:
            specs.append((pair, "AB", sentences[a_key], sentences[b_key], "1"))
            specs.append((pair, "BA", sentences[b_key], sentences[a_key], "2"))
    return specs


async def _sentence_row(
    frame: str, other_frame: str, verb: str, references: ReferenceBank, margin: float, *,
    roundtrip: tuple[str, np.ndarray, int] | None, encoder_sims: tuple[float, float] | None,
) -> tuple[SentenceVerdict, bool]:
    """One sentence's row of :func:`verify_item` and its verdict at ``margin``.

    ``roundtrip``: (definition, its embedding, call id) unless the signal is ``encoder``;
    ``encoder_sims``: the encoder check's (sim_own, sim_other) unless the signal is ``roundtrip``.
    With both, the sentence passes when both differences exceed the margin.
    """
    row: SentenceVerdict = {"frame": frame, "definition": None, "sim_own": None, "sim_other": None}
    diffs = []
    if roundtrip is not None:
        definition, emb, _ = roundtrip
        own_refs = await references.get(frame, verb)
        other_refs = await references.get(other_frame, verb)
        s = score(emb, own_refs, other_refs, margin)
        row["definition"], row["sim_own"], row["sim_other"] = definition, round(s.sim_own, 6), round(s.sim_other, 6)
        diffs.append(s.sim_own - s.sim_other)
    if encoder_sims is not None:
        e_own, e_other = encoder_sims
        row["encoder_check"] = {"sim_own": round(e_own, 6), "sim_other": round(e_other, 6)}
        diffs.append(e_own - e_other)
    ok = min(diffs) > margin
    row["pass"], row["call_id"] = bool(ok), roundtrip[2] if roundtrip is not None else None
    return row, bool(ok)


def _judge_rows(specs: list[tuple[str, str, str, str, str]], results: list[CallResult]) -> tuple[list[JudgeRow], bool]:
    """The judge block of :func:`verify_item` (one row per question) and whether every answer is right."""
    rows: list[JudgeRow] = []
    right = True
    for (pair, order, _, _, gold), r in zip(specs, results, strict=True):
        answer = cast(FourChoiceAnswer, r.value).answer   # no error: a FourChoiceAnswer
        correct = answer == gold
        right &= correct
        rows.append({"pair": pair, "order": order, "answer": answer, "gold": gold,
                     "correct": correct, "call_id": r.call_id})
    return rows, right


def verifier_reasons(result: VerifierResult) -> list[str]:
    """Human-readable reasons for every failed round trip, encoder check or judge answer of
    :func:`verify_item` output (a sentence failing with signal ``both`` names each failing part)."""
    reasons = []
    for key, s in (result.get("sentences") or {}).items():
        if s["pass"]:
            continue
        margin = result.get("margin", 0)
        check = s.get("encoder_check")
        encoder_failed = check is not None and bool(check) and not check["sim_own"] - check["sim_other"] > margin
        own, other = s.get("sim_own"), s.get("sim_other")
        # the round trip's line unless only the encoder check failed (every failed sentence gets a line)
        if own is not None and not (encoder_failed and own - (other or 0.0) > margin):
            reasons.append(
                f"{key}: the verifier's definition ({s['definition']!r}) is not closer to frame {s['frame']} "
                f"(sim_own {s['sim_own']:.3f}, sim_other {s['sim_other']:.3f}, margin {margin})"
            )
        if check and (encoder_failed or s.get("sim_own") is None):
            reasons.append(
                f"{key}: the verb is not closer to the exemplars of frame {s['frame']} (encoder check: "
                f"sim_own {check['sim_own']:.3f}, sim_other {check['sim_other']:.3f}, margin {margin})"
            )
    for j in result.get("judge") or []:
        if not j["correct"]:
            reasons.append(f"judge: {j['pair']} pair in order {j['order']} answered {j['answer']}, expected {j['gold']}")
    return reasons
