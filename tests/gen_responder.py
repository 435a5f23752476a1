"""A frame-aware scripted "LLM" for the generation tests and benchmark (answers through tests/openai_stub.py).

It reads the real prompts that fbagent sends (verb, frame names and
definitions, example sentences) and answers like a perfect generator:

- ``BasePair``: S_A / S_B that contain the verb lemma and differ in one word,
  with a well-formed English question;
- ``ExtendedSentence``: a new sentence with the verb, far from the base sentence;
- ``Definition``: exactly the definition of the frame the sentence was written
  for (so the round trip passes: sim_own = 1);
- ``PairScreening``: accepts every pair, except verbs listed in ``reject_verbs``;
- ``FourChoiceAnswer``: the position of the frame-A sentence.

Scenario switches: ``verbless_attempts`` (the first N generate_base answers of
every entry drop the verb from S_B; a retry is recognised by the feedback text),
``verbless_verbs`` (only for these verbs), ``short_definitions`` (the first 12
words of the frame definition, dictionary-length, for benchmarks). Counters:
``seen[schema]``.
"""

from __future__ import annotations

import re
import threading
import zlib
from collections import Counter
from typing import Any

from openai_stub import request_text, schema_name

#: the noun of an entry's sentences: "box" for entry k = 0, others for k >= 1 (seed = seed + 1000 k + attempt)
NOUNS = ("box", "letter", "garden", "ticket", "bridge", "lamp", "river", "song")
_VERB = re.compile(r'verb "([^"]+)"')
_FRAME = re.compile(r"Frame name: (\S+)\nDefinition: (.*)")
_SENTENCE = re.compile(r"\nSentence: (.*)\n")
_EXAMPLE = re.compile(r"example sentence:\n\n(.*)\n\n")
_S1 = re.compile(r"Sentence 1: (.*)\n")
_S2 = re.compile(r"Sentence 2: (.*)\n")
FEEDBACK_MARK = "rejected by the automatic checks"


def _word(frame: str) -> str:
    """A frame name as one lower-case word token (``FR_Statement-manner`` -> ``frstatementmanner``)."""
    return re.sub(r"\W|_", "", frame.lower())


class FrameResponder:
    """Callable responder for :class:`openai_stub.OpenAIStub` (thread-safe)."""

    def __init__(self, *, verbless_attempts: int = 0, verbless_verbs: set[str] | None = None,
                 reject_verbs: set[str] | None = None, short_definitions: bool = False) -> None:
        self.verbless_attempts = verbless_attempts
        self.verbless_verbs = verbless_verbs
        self.reject_verbs = reject_verbs or set()
        self.short_definitions = short_definitions
        self.definitions: dict[str, str] = {}
        self.side: dict[str, str] = {}
        self.seen: Counter[str] = Counter()
        self._variant = NOUNS[0]
        self._lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request) or ""
        text = request_text(request)
        with self._lock:
            self.seen[name] += 1
            self._variant = NOUNS[(int(request.get("seed") or 0) // 1000) % len(NOUNS)]
            return getattr(self, f"_{name}")(text)

    # -- answers -------------------------------------------------------------
    def _BasePair(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb = _VERB.search(text).group(1)
        (fa, da), (fb, db) = _FRAME.findall(text)[:2]
        fa, fb = _word(fa), _word(fb)
        noun = self._variant
        a = f"They {verb} the {fa} {noun} near the {fb} today."
        b = f"They {verb} the {fb} {noun} near the {fa} today."
        retry = FEEDBACK_MARK in text
        drop = self.verbless_attempts and (self.verbless_verbs is None or verb in self.verbless_verbs)
        if drop and (not retry or self.verbless_attempts > 1):
            b = f"They moved the {fb} {noun} near the {fa} today."
        self.definitions[a], self.definitions[b] = da, db
        self.side[a], self.side[b] = "a", "b"
        if "test items in French" in text:  # the generic prompt, with the French pattern of patterns.toml
            return {"condition": f"quelque chose est arrivé à {noun}",
                    "question": f"Quelle phrase implique que quelque chose est arrivé à {noun} ?",
                    "sentence_a": a, "sentence_b": b, "verb_form_a": verb, "verb_form_b": verb}
        return {"condition": f"something was done to a {noun}",
                "question": f"Which sentence implies that something was done to a {noun}?",
                "sentence_a": a, "sentence_b": b, "verb_form_a": verb, "verb_form_b": verb}

    def _ExtendedSentence(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb = _VERB.search(text).group(1)
        frame, definition = _FRAME.findall(text)[0]
        side = "a" if "must also imply" in text else "b"
        base = _SENTENCE.search(text).group(1)
        s = (f"Last winter several {_word(frame)} workers wanted to {verb} a {self._variant} "
             f"near pier {zlib.crc32(base.encode()) % 1000}.")
        self.definitions[s] = definition
        self.side[s] = side
        return {"sentence": s, "verb_form": verb}

    def _Definition(self, text: str) -> dict[str, Any]:  # noqa: N802
        example = _EXAMPLE.search(text).group(1)
        definition = self.definitions.get(example, "an unrelated sense of some word")
        if self.short_definitions:  # dictionary-length: the first 12 words
            definition = " ".join(definition.split()[:12])
        return {"definition": definition}

    def _PairScreening(self, text: str) -> dict[str, Any]:  # noqa: N802
        verb = _VERB.search(text).group(1)
        ok = verb not in self.reject_verbs
        return {"evokes_both": ok, "distinguishable": ok,
                "reason": "both senses are common and distinct" if ok else "one sense is rare"}

    def _FourChoiceAnswer(self, text: str) -> dict[str, Any]:  # noqa: N802
        s1 = _S1.search(text).group(1)
        return {"answer": "1" if self.side.get(s1) == "a" else "2"}
