"""What the LLM client learns from each attempt of one call, whichever path sends it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


@dataclass(frozen=True)
class CallHooks:
    """Callbacks for one structured call: ``attempt(**request)`` before each request is sent,
    ``response(completion)`` for each answer received (an SDK object or the parsed JSON ``dict``),
    ``parse_error(exc)`` for each answer that failed validation (it is re-asked or the call fails).

    The instructor paths get them as instructor ``Hooks`` (:meth:`to_instructor`, the
    ``completion:kwargs`` / ``completion:response`` / ``parse:error`` events); the
    direct JSON-schema path (:mod:`fbagent.providers.structured`) calls them itself.
    """

    attempt: Callable[..., None] = _nothing
    response: Callable[[Any], None] = _nothing
    parse_error: Callable[..., None] = _nothing

    def to_instructor(self) -> Any:
        """The same callbacks as an ``instructor.core.hooks.Hooks`` object."""
        from instructor.core.hooks import Hooks

        hooks = Hooks()
        hooks.on("completion:kwargs", self.attempt)
        hooks.on("completion:response", self.response)
        hooks.on("parse:error", self.parse_error)
        return hooks
