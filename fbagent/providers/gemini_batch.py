"""Gemini batch mode (``models/{model}:batchGenerateContent``): many ``GenerateContentRequest`` as one job at
half the price, target turnaround 24 hours (https://ai.google.dev/gemini-api/docs/batch-api).

:class:`GeminiBatch` wraps google-genai's ``client.batches``: :meth:`submit` sends the lines as inlined
requests (``InlinedRequest`` = contents + config, its custom id in ``metadata["key"]``; up to the API's 20 MB
of inlined requests per job, a larger wave is refused with the fix), :meth:`poll` maps the job's
``JOB_STATE_*`` onto :data:`fbagent.providers.batch_api.FINAL`'s names, :meth:`results` reads the inlined
responses (each with its request's metadata) or, for a job whose answers went to a file, that JSONL file
(``{"key", "response"}`` or ``{"key", "error"}`` a line) into ``{custom_id: GenerateContentResponse as
JSON}`` and ``{custom_id: error line}``. A line is the request the direct call sends: the backend's
``batch_body`` / ``choice_body`` (:mod:`fbagent.providers.gemini`).
"""

from __future__ import annotations

import json
from typing import Any

from fbagent.errors import FbagentError
from fbagent.providers.batch_api import BatchStatus

#: the API's limit of inlined requests per job (bytes of the request JSON)
INLINE_LIMIT = 20 * 1024 * 1024
#: google-genai's job states -> fbagent's batch statuses
STATES = {
    "JOB_STATE_QUEUED": "validating", "JOB_STATE_PENDING": "validating", "JOB_STATE_RUNNING": "in_progress",
    "JOB_STATE_UPDATING": "in_progress", "JOB_STATE_PAUSED": "in_progress", "JOB_STATE_CANCELLING": "cancelling",
    "JOB_STATE_SUCCEEDED": "completed", "JOB_STATE_PARTIALLY_SUCCEEDED": "completed",
    "JOB_STATE_FAILED": "failed", "JOB_STATE_CANCELLED": "cancelled", "JOB_STATE_EXPIRED": "expired",
}


class GeminiBatch:
    """Batch jobs of ``model`` through ``client`` (a ``google.genai.Client``:
    :func:`fbagent.providers.gemini.gemini_client`) (:class:`fbagent.providers.batch_api.BatchAPI`)."""

    provider = "gemini"

    def __init__(self, model: str, client: Any) -> None:
        self.model = model
        self.client = client

    def submit(self, requests: dict[str, dict[str, Any]], metadata: dict[str, str] | None = None) -> str:
        """Create one job of ``{custom_id: {"contents", "config"}}`` as inlined requests; returns its name
        (``batches/...``). Raises :class:`FbagentError` past the 20 MB of inlined requests."""
        from google.genai import types

        size = len(json.dumps(requests, ensure_ascii=False).encode("utf-8"))
        if size > INLINE_LIMIT:
            raise FbagentError(f"one wave of {len(requests)} Gemini batch requests is {size / 2**20:.0f} MB, over the "
                               "20 MB of inlined requests a job takes",
                               "generate fewer entries per run (--pairs) and run again with more")
        src = [types.InlinedRequest(contents=body["contents"], config=body.get("config"), metadata={"key": cid})
               for cid, body in requests.items()]
        job = self.client.batches.create(model=self.model, src=src, config={"display_name": "fbagent"})
        return str(job.name)

    def poll(self, batch_id: str) -> BatchStatus:
        """The job's status now."""
        job = self.client.batches.get(name=batch_id)
        state = getattr(job.state, "name", None) or str(job.state)
        dest = job.dest
        stats = job.completion_stats
        return BatchStatus(str(job.name), STATES.get(state, "in_progress"), getattr(dest, "file_name", None), None,
                           int(getattr(stats, "successful_count", 0) or 0), int(getattr(stats, "failed_count", 0) or 0))

    def results(self, status: BatchStatus) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        """``(answers, errors)`` of a finished job (module docstring); lines never answered are in neither."""
        answers: dict[str, dict[str, Any]] = {}
        errors: dict[str, str] = {}
        job = self.client.batches.get(name=status.id)
        rows: list[tuple[str | None, Any, Any]] = []
        if job.dest is not None and job.dest.inlined_responses:
            rows = [((r.metadata or {}).get("key"), r.response, r.error) for r in job.dest.inlined_responses]
        elif status.output_file_id:
            text = self.client.files.download(file=status.output_file_id).decode("utf-8")
            rows = [(d.get("key"), d.get("response"), d.get("error"))
                    for d in (json.loads(ln) for ln in text.splitlines() if ln.strip())]
        for key, response, error in rows:
            if key is None:
                continue
            if error is not None or response is None:
                err = error if isinstance(error, dict) else (error.model_dump(exclude_none=True) if error else {})
                errors[key] = f"batch line failed: {err.get('code')}: {err.get('message') or ''}"[:300]
            else:
                answers[key] = (response if isinstance(response, dict)
                                else response.model_dump(mode="json", exclude_none=True))
        return answers, errors

    def cancel(self, batch_id: str) -> None:
        """Ask Google to cancel the job (lines already answered stay in its results)."""
        self.client.batches.cancel(name=batch_id)
