"""Gemini batch mode endpoints on the scripted stub (tests/openai_stub.py), as google-genai calls them.

``GeminiBatchStub(stub).install()`` adds ``POST /v1beta/models/{model}:batchGenerateContent`` (inlined requests:
``{"batch": {"inputConfig": {"requests": {"requests": [{"request", "metadata"}]}}}}``), ``GET
/v1beta/batches/{id}`` and ``POST /v1beta/batches/{id}:cancel``. A job is ``BATCH_STATE_RUNNING`` for ``polls``
status reads, then ``BATCH_STATE_SUCCEEDED`` with its inlined responses (each with its request's metadata),
or ``BATCH_STATE_EXPIRED`` when ``expire_next`` is set (only the first half of its lines answered). Each line is
answered by the stub's responder as ``:generateContent`` would; the first ``fail_next`` lines of the next job
to finish get an error instead (partial failure).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from openai_stub import OpenAIStub


@dataclass
class GeminiBatchStub:
    stub: OpenAIStub
    polls: int = 1
    fail_next: int = 0
    expire_next: bool = False
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    lines: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reads: dict[str, int] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)

    def install(self) -> GeminiBatchStub:
        self.stub.routes = self.route
        return self

    def route(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any] | None:
        if method == "POST" and path.endswith(":batchGenerateContent"):
            return self._create(path.split("/models/")[-1].split(":")[0], json.loads(body))
        if "/batches/" not in path:
            return None
        name = "batches/" + path.split("/batches/")[-1]
        if method == "POST" and name.endswith(":cancel"):
            name = name.removesuffix(":cancel")
            self.cancelled.append(name)
            self.jobs[name]["metadata"]["state"] = "BATCH_STATE_CANCELLED"
            return 200, {}
        if method == "GET":
            return self._read(name)
        return None

    def _create(self, model: str, request: dict[str, Any]) -> tuple[int, Any]:
        name = f"batches/job{len(self.jobs) + 1}"
        self.created.append(name)
        batch = request["batch"]
        self.lines[name] = batch["inputConfig"]["requests"]["requests"]
        self.jobs[name] = {"name": name, "metadata": {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch", "name": name,
            "model": f"models/{model}", "displayName": batch.get("displayName", ""), "state": "BATCH_STATE_PENDING",
            "createTime": "2026-01-01T00:00:00Z"}}
        self.reads[name] = 0
        return 200, self.jobs[name]

    def _read(self, name: str) -> tuple[int, Any]:
        job = self.jobs[name]
        self.reads[name] += 1
        if job["metadata"]["state"] in ("BATCH_STATE_PENDING", "BATCH_STATE_RUNNING"):
            job["metadata"]["state"] = "BATCH_STATE_RUNNING"
            if self.reads[name] > self.polls:
                self._finish(name, job)
        return 200, job

    def _finish(self, name: str, job: dict[str, Any]) -> None:
        lines = self.lines[name]
        expired, self.expire_next = self.expire_next, False
        if expired:
            lines = lines[: len(lines) // 2]
        failing, self.fail_next = self.fail_next, 0
        out = []
        for i, line in enumerate(lines):
            if i < failing:
                out.append({"error": {"code": 13, "message": "scripted line failure"}, "metadata": line.get("metadata")})
                continue
            _, body = self.stub._gemini_body(line["request"], self.stub._reply_for(line["request"]))
            out.append({"response": body, "metadata": line.get("metadata")})
        job["metadata"]["state"] = "BATCH_STATE_EXPIRED" if expired else "BATCH_STATE_SUCCEEDED"
        job["metadata"]["output"] = {"inlinedResponses": {"inlinedResponses": out}}
        job["done"] = True
