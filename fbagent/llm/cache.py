"""Cache keys and stored request records for ``llm_calls``.

The cache key is the SHA-256 (hex) of a canonical JSON document holding
everything that determines the answer: backend, model, messages, the response
model's name and JSON schema, temperature, max_tokens and seed. API keys and
server URLs are not part of it (the same model behind another URL answers the
same request the same way; a key never changes an answer).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from pydantic import BaseModel

from fbagent.providers import public_url  # noqa: F401 - re-exported for older imports


@lru_cache(maxsize=256)
def schema_json(response_model: type[BaseModel]) -> str:
    """The response model's JSON schema as canonical JSON text (cached per class)."""
    return json.dumps(response_model.model_json_schema(), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def cache_key(
    *,
    backend: str,
    model: str,
    messages: list[dict[str, str]],
    response_model: type[BaseModel],
    temperature: float,
    max_tokens: int,
    seed: int | None,
) -> str:
    """SHA-256 hex digest (64 chars) identifying one request; equal inputs give equal keys.

    ``messages`` are OpenAI-style ``{"role", "content"}`` dicts; they must be JSON
    serialisable. Raises ``TypeError`` when they are not.
    """
    doc = {
        "backend": backend,
        "model": model,
        "messages": messages,
        "response_model": response_model.__name__,
        "schema": schema_json(response_model),
        "temperature": float(temperature),
        "max_tokens": int(max_tokens),
        "seed": seed,
    }
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
