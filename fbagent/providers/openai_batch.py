"""The OpenAI Batch API (``POST /v1/files``, ``/v1/batches``): submit many Chat Completions requests as one
job, at half the price, answered within 24 hours (https://platform.openai.com/docs/guides/batch).

:class:`OpenAIBatch` wraps the openai SDK's ``files`` and ``batches`` calls: :meth:`submit` uploads one JSONL
line per request (``custom_id``, ``POST``, ``/v1/chat/completions``, the body the direct request would send)
and creates the job; :meth:`poll` reads its status; :meth:`results` reads its output and error files into
``{custom_id: completion}`` and ``{custom_id: error line}``. A job that ends ``expired``, ``failed`` or
``cancelled`` leaves the lines it did not answer to be submitted again by the caller.
"""

from __future__ import annotations

import io
import json
from typing import Any, Literal

from fbagent.providers.batch_api import FINAL, BatchStatus

__all__ = ["FINAL", "BatchStatus", "OpenAIBatch"]

ENDPOINT: Literal["/v1/chat/completions"] = "/v1/chat/completions"
WINDOW: Literal["24h"] = "24h"


class OpenAIBatch:
    """Batch jobs at ``base_url`` (``None``: OpenAI's) with ``api_key``; ``timeout_s`` per HTTP call
    (:class:`fbagent.providers.batch_api.BatchAPI`)."""

    provider = "openai"

    def __init__(self, base_url: str | None, api_key: str | None, timeout_s: float = 60.0) -> None:
        import openai

        self.client = openai.OpenAI(base_url=base_url, api_key=api_key or "none", timeout=timeout_s, max_retries=2)

    def submit(self, requests: dict[str, dict[str, Any]], metadata: dict[str, str] | None = None) -> str:
        """Upload ``{custom_id: chat body}`` as one JSONL file and create a batch on it; returns its id."""
        lines = "".join(json.dumps({"custom_id": cid, "method": "POST", "url": ENDPOINT, "body": body},
                                   ensure_ascii=False) + "\n" for cid, body in requests.items())
        upload = self.client.files.create(file=("fbagent-batch.jsonl", io.BytesIO(lines.encode("utf-8"))),
                                          purpose="batch")
        batch = self.client.batches.create(input_file_id=upload.id, endpoint=ENDPOINT, completion_window=WINDOW,
                                           metadata=metadata or None)
        return str(batch.id)

    def poll(self, batch_id: str) -> BatchStatus:
        """The batch's status now."""
        b = self.client.batches.retrieve(batch_id)
        counts = b.request_counts
        return BatchStatus(b.id, b.status, b.output_file_id, b.error_file_id,
                           int(getattr(counts, "completed", 0) or 0), int(getattr(counts, "failed", 0) or 0))

    def results(self, status: BatchStatus) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        """``(answers, errors)`` of a finished batch: ``{custom_id: chat completion}`` for the lines answered
        with a 2xx, ``{custom_id: one-line error}`` for the others (lines never answered appear in neither)."""
        answers: dict[str, dict[str, Any]] = {}
        errors: dict[str, str] = {}
        for file_id in (status.output_file_id, status.error_file_id):
            if not file_id:
                continue
            for line in self.client.files.content(file_id).text.splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                response = row.get("response") or {}
                if row.get("error") is None and 200 <= int(response.get("status_code") or 0) < 300:
                    answers[row["custom_id"]] = response.get("body") or {}
                else:
                    err = row.get("error") or {}
                    errors[row["custom_id"]] = (f"batch line failed: {err.get('code') or response.get('status_code')}"
                                                f": {err.get('message') or ''}")[:300]
        return answers, errors

    def cancel(self, batch_id: str) -> None:
        """Ask the provider to cancel the batch (lines already answered stay in its output)."""
        self.client.batches.cancel(batch_id)
