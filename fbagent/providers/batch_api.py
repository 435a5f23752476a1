"""What every provider batch API offers (OpenAI Batch, Gemini batch mode): submit many requests as one job at
half the price, answered within 24 hours; poll it; read its answers; cancel it.

:class:`BatchAPI` is the protocol :mod:`fbagent.providers.openai_batch` and :mod:`fbagent.providers.gemini_batch`
implement; :class:`BatchStatus` one status read. A line is a ``{custom_id: request body}`` entry; the body is
the provider's own request (a Chat Completions body; a Gemini ``GenerateContentRequest``), and an answer the
provider's own response (a chat completion; a ``GenerateContentResponse`` as JSON). Lines that an ``expired``,
``failed`` or ``cancelled`` job did not answer are submitted again by the caller.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Protocol

#: statuses after which a batch changes no more (fbagent's names; Gemini's JOB_STATE_* map onto them)
FINAL = ("completed", "expired", "failed", "cancelled")
ENV_POLL = "FBAGENT_BATCH_POLL_S"
POLL_S = 30.0


def poll_seconds() -> float:
    """Seconds between status reads of a job: ``FBAGENT_BATCH_POLL_S`` (default :data:`POLL_S`; a value that
    is not a number gives the default)."""
    try:
        return max(0.0, float(os.environ.get(ENV_POLL) or POLL_S))
    except ValueError:
        return POLL_S


@dataclass(frozen=True)
class BatchStatus:
    """One status read: ``id``, ``status`` (``validating``, ``in_progress``, ``finalizing``, ``cancelling``
    or one of :data:`FINAL`), where its answers are (``output_file_id`` / ``error_file_id`` for OpenAI; the
    result file's name, or ``None`` for inlined answers, for Gemini), counts of lines answered and failed."""

    id: str
    status: str
    output_file_id: str | None
    error_file_id: str | None
    completed: int = 0
    failed: int = 0

    @property
    def final(self) -> bool:
        return self.status in FINAL


class BatchAPI(Protocol):
    """A provider's batch jobs (see the module docstring). Every method does blocking HTTP: call it in a thread."""

    #: the provider's name (``openai``, ``gemini``), stored with each job
    provider: str

    def submit(self, requests: dict[str, dict[str, Any]], metadata: dict[str, str] | None = None) -> str:
        """Create one job of ``{custom_id: request body}``; returns the job's id."""
        ...

    def poll(self, batch_id: str) -> BatchStatus:
        """The job's status now."""
        ...

    def results(self, status: BatchStatus) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        """``(answers, errors)`` of a finished job: ``{custom_id: response}`` for the lines answered,
        ``{custom_id: one-line error}`` for the lines that failed (lines never answered are in neither)."""
        ...

    def cancel(self, batch_id: str) -> None:
        """Ask the provider to cancel the job (lines already answered stay in its results)."""
        ...
