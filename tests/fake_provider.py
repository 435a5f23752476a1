"""A provider written the way a new one is added: this one module (one class under the provider protocol,
:class:`fbagent.providers.base.Backend`) plus one registry line (``tests/test_fake_provider.py``).

It answers in process, with no engine and no network:

- generation's structured calls (:meth:`FakeProvider.create`) by the frame-aware scripted generator of
  ``tests/gen_responder.py`` (the answers a perfect generator gives, so every entry is verified);
- evaluation's constrained choices (:meth:`FakeProvider.choose_one`) by an oracle that knows which
  sentence of ``tests/data/eval_entries_en.jsonl`` is which: the right answer for a base pair, and for
  an extended pair "Both" when S_B' is shown first, else "Neither" (always wrong: gold is "B only").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gen_responder import FrameResponder
from pydantic import BaseModel

from fbagent.eval.dataset import read_entries
from fbagent.providers.base import ChoiceResult, ConcurrentBackend, ReasoningConfig, TextResult
from fbagent.providers.hooks import CallHooks
from fbagent.providers.structured import openai_text, openai_usage

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
_SENTENCE = re.compile(r"^(?:Sentence (A|B): |\[Sentence (A|B)\] )(.+)$", re.M)
_OPTION = re.compile(r"^(?:\[(\d)\]|(\d)[.)]) (.+)$", re.M)


def _roles() -> dict[str, str]:
    roles: dict[str, str] = {}
    for e in read_entries(DATA):
        roles.update({e.sentence_a: "A", e.sentence_b: "B", e.sentence_a_prime: "A'", e.sentence_b_prime: "B'"})
    return roles


class FakeProvider(ConcurrentBackend):
    """The fake provider: ``create`` for generation, ``choose_one`` / ``generate_one`` for evaluation."""

    name = "fake"
    mode = "fake_json"

    def __init__(self, model: str, *, reasoning: ReasoningConfig | None = None, seed: int = 0) -> None:
        super().__init__(model or "fake-model", reasoning=reasoning, seed=seed)
        self.responder = FrameResponder()
        self.roles = _roles()

    async def create(self, *, response_model: type[BaseModel], messages: list[dict[str, Any]], temperature: float,
                     max_tokens: int, seed: int | None, max_reasks: int, hooks: CallHooks) -> BaseModel:
        request = {"model": self.model, "messages": messages, "seed": seed, "temperature": temperature,
                   "response_format": {"type": "json_schema", "json_schema": {"name": response_model.__name__}}}
        hooks.attempt(**request)
        answer = self.responder(request)
        content = json.dumps(answer)
        hooks.response({"choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
        return response_model.model_validate(answer)

    usage = staticmethod(openai_usage)
    text = staticmethod(openai_text)

    async def choose_one(self, prompt: str, choices: Sequence[str]) -> ChoiceResult:
        shown = {(m.group(1) or m.group(2)): m.group(3) for m in _SENTENCE.finditer(prompt)}
        options = {m.group(3): (m.group(1) or m.group(2)) for m in _OPTION.finditer(prompt)}
        first = self.roles[shown["A"]]
        if first in ("A", "B"):
            label = "Sentence A" if first == "A" else "Sentence B"
        else:
            label = "Both sentences" if first == "B'" else "Neither sentence"
        return ChoiceResult(raw=options[label], choice=options[label], input_tokens=10, output_tokens=1)

    async def generate_one(self, prompt: str, max_new_tokens: int, stop: Sequence[str]) -> TextResult:
        return TextResult(text="a fake definition", raw="a fake definition")
