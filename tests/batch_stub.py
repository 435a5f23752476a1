"""OpenAI Batch API endpoints on the scripted stub (tests/openai_stub.py): files, batches, results.

``BatchStub(stub).install()`` adds ``POST /v1/files`` (multipart, purpose=batch), ``POST /v1/batches``,
``GET /v1/batches/{id}``, ``POST /v1/batches/{id}/cancel`` and ``GET /v1/files/{id}/content``. A batch is
``in_progress`` for ``polls`` status reads, then ``completed`` (or ``expired`` when ``expire_next`` is set:
only the first half of its lines are answered). Each line is answered by the stub's responder, as
``/v1/chat/completions`` would; the first ``fail_next`` lines of the next batch to finish get an error line
instead (partial failure).
"""

from __future__ import annotations

import email.parser
import email.policy
import json
from dataclasses import dataclass, field
from typing import Any

from openai_stub import OpenAIStub


@dataclass
class BatchStub:
    stub: OpenAIStub
    polls: int = 1
    fail_next: int = 0
    expire_next: bool = False
    files: dict[str, str] = field(default_factory=dict)
    batches: dict[str, dict[str, Any]] = field(default_factory=dict)
    reads: dict[str, int] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)
    cancelled: list[str] = field(default_factory=list)

    def install(self) -> BatchStub:
        self.stub.routes = self.route
        return self

    def route(self, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any] | None:
        parts = path.rstrip("/").split("/")
        if method == "POST" and path.endswith("/v1/files"):
            return self._upload(headers, body)
        if method == "POST" and path.endswith("/v1/batches"):
            return self._create(json.loads(body))
        if method == "GET" and len(parts) >= 2 and parts[-2] == "batches":
            return self._read(parts[-1])
        if method == "POST" and parts[-1] == "cancel":
            self.cancelled.append(parts[-2])
            self.batches[parts[-2]]["status"] = "cancelled"
            return 200, self.batches[parts[-2]]
        if method == "GET" and parts[-1] == "content":
            return 200, self.files[parts[-2]]
        return None

    def _upload(self, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        content_type = next(v for k, v in headers.items() if k.lower() == "content-type")
        msg = email.parser.BytesParser(policy=email.policy.default).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        data = next(p.get_payload(decode=True) for p in msg.iter_parts() if p.get_filename())
        fid = f"file-{len(self.files) + 1}"
        self.files[fid] = data.decode("utf-8")
        return 200, {"id": fid, "object": "file", "purpose": "batch", "bytes": len(data), "filename": "batch.jsonl"}

    def _create(self, request: dict[str, Any]) -> tuple[int, Any]:
        bid = f"batch_{len(self.batches) + 1}"
        self.created.append(bid)
        self.batches[bid] = {"id": bid, "object": "batch", "endpoint": request["endpoint"], "status": "in_progress",
                             "input_file_id": request["input_file_id"], "output_file_id": None,
                             "error_file_id": None, "completion_window": request["completion_window"],
                             "created_at": 0, "request_counts": {"total": 0, "completed": 0, "failed": 0}}
        self.reads[bid] = 0
        return 200, self.batches[bid]

    def _read(self, bid: str) -> tuple[int, Any]:
        batch = self.batches[bid]
        self.reads[bid] += 1
        if batch["status"] == "in_progress" and self.reads[bid] > self.polls:
            self._finish(batch)
        return 200, batch

    def _finish(self, batch: dict[str, Any]) -> None:
        lines = [json.loads(ln) for ln in self.files[batch["input_file_id"]].splitlines() if ln.strip()]
        expired = self.expire_next
        self.expire_next = False
        if expired:
            lines = lines[: len(lines) // 2]
        out, err = [], []
        failing, self.fail_next = self.fail_next, 0
        for i, line in enumerate(lines):
            if i < failing:
                err.append({"id": f"req-{line['custom_id']}", "custom_id": line["custom_id"], "response": None,
                            "error": {"code": "server_error", "message": "scripted line failure"}})
                continue
            status, body = self.stub._openai_body(line["body"], self.stub._reply_for(line["body"]))
            out.append({"id": f"req-{line['custom_id']}", "custom_id": line["custom_id"],
                        "response": {"status_code": status, "request_id": "r", "body": body}, "error": None})
        for name, rows in (("output_file_id", out), ("error_file_id", err)):
            if rows:
                fid = f"file-{len(self.files) + 1}"
                self.files[fid] = "".join(json.dumps(r) + "\n" for r in rows)
                batch[name] = fid
        batch["status"] = "expired" if expired else "completed"
        batch["request_counts"] = {"total": len(lines), "completed": len(out), "failed": len(err)}
