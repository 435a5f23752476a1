"""The provider layer (fbagent.providers): names, keys, URLs, redaction, and no secret stored or printed.

The end-to-end tests run the real CLI (`fbagent generate`, `fbagent eval run`) against a server on
127.0.0.1 whose 401 and 500 bodies echo the Authorization / x-goog-api-key headers and the request
path, with a base URL that carries user info and `?key=`; then every file the run wrote (database,
WAL, checkpoints, predictions.jsonl, manifest.json) and stdout/stderr are searched for the secrets.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from auth_echo import AuthEcho

from fbagent import providers
from fbagent.errors import FbagentError
from fbagent.providers import redact

DATA = Path(__file__).parent / "data" / "eval_entries_en.jsonl"
OPENAI_KEY = "sk-test-SECRET123"
GEMINI_KEY = "gm-test-SECRET456"
URL_SECRET = "URLSECRET789"
SECRETS = (OPENAI_KEY, GEMINI_KEY, URL_SECRET, "SECRET123", "SECRET456")


# --------------------------------------------------------------------------- redact()


@pytest.mark.parametrize(("text", "expected"), [
    ("Authorization: Bearer abc.def-ghi_jkl", "Authorization: Bearer ***"),
    ("{'authorization': 'Bearer tok_12345678'}", "{'authorization': 'Bearer ***'}"),
    ('"Authorization": "Basic dXNlcjpwYXNz"', '"Authorization": "Basic ***"'),
    ("x-goog-api-key: my-google-key-1", "x-goog-api-key: ***"),
    ('{"x-goog-api-key": "AIzaSyA-1234567890abc"}', '{"x-goog-api-key": "***"}'),
    ("proxy said Bearer eyJhbGciOi.J9.x", "proxy said Bearer ***"),
    ("http://user:pw1234@host:8000/v1", "http://***@host:8000/v1"),
    ("https://token@example.org/v1/chat", "https://***@example.org/v1/chat"),
    ("http://h/v1?key=abc123&model=m", "http://h/v1?key=***&model=m"),
    ("http://h/v1?model=m&api_key=abc123", "http://h/v1?model=m&api_key=***"),
    ("GET /x?token=t0k3n#frag", "GET /x?token=***#frag"),
    ("key sk-proj-ABCDEF123456 leaked", "key *** leaked"),
    ("masked sk-abc1*****************xyz9 too", "masked *** too"),
    ("google AIzaSyB0123456789abcdefg key", "google *** key"),
])
def test_redact_every_secret_form(text, expected):
    assert redact(text) == expected
    assert redact(expected) == expected  # idempotent


def test_redact_keys_known_to_the_process(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "plain-openai-key-1")
    monkeypatch.setenv("GOOGLE_API_KEY", "plain-google-key-2")
    providers.register_secret("registered-key-3")
    text = "a plain-openai-key-1 b plain-google-key-2 c registered-key-3 d"
    assert redact(text) == "a *** b *** c *** d"
    assert redact(None) is None
    ordinary = "The answer is 2. See http://127.0.0.1:8000/v1/models?limit=5 (HTTP 404)."
    assert redact(ordinary) == ordinary
    assert providers.redact_value({"cmd": ["--base-url", "http://u:p4ss@h/v1"], "n": 3}) == \
        {"cmd": ["--base-url", "http://***@h/v1"], "n": 3}


# --------------------------------------------------------------------------- names, keys, URLs


def test_provider_names_and_aliases():
    assert providers.provider("llamacpp").name == "llamacpp" and providers.provider("llama.cpp").name == "llamacpp"
    assert providers.provider("LOCAL", among=providers.EVAL_PROVIDERS).name == "local"
    assert providers.provider("google").name == "gemini"
    with pytest.raises(FbagentError, match="unknown LLM backend 'vllm'") as err:
        providers.provider("vllm", among=providers.GENERATION_PROVIDERS, kind="LLM backend")
    assert "openai, gemini, local" in str(err.value)
    assert providers.help_names(providers.EVAL_PROVIDERS) == "vllm | transformers | local | llamacpp | openai | gemini"


def test_api_key_lookup_order_and_base_url(monkeypatch):
    gemini = providers.PROVIDERS["gemini"]
    openai = providers.PROVIDERS["openai"]
    monkeypatch.setenv("GOOGLE_API_KEY", "google-key-b")
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-key-a")
    assert providers.api_key(gemini) == "gemini-key-a"
    monkeypatch.delenv("GEMINI_API_KEY")
    assert providers.api_key(gemini) == "google-key-b"
    monkeypatch.delenv("GOOGLE_API_KEY")
    with pytest.raises(FbagentError) as err:
        providers.api_key(gemini)
    assert err.value.line() == "the gemini backend needs an API key and neither GEMINI_API_KEY nor GOOGLE_API_KEY is set. Fix: export GEMINI_API_KEY=<your key> (or GOOGLE_API_KEY)"
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert providers.api_key(openai, server_url="http://127.0.0.1:1/v1") == providers.NO_KEY
    with pytest.raises(FbagentError, match="OPENAI_API_KEY is not set"):
        providers.api_key(openai)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert providers.base_url(openai) == "http://127.0.0.1:9/v1"
    assert providers.base_url(openai, "http://flag/v1") == "http://flag/v1"
    assert providers.base_url(gemini) is None


def test_eval_openai_backend_reads_openai_base_url(monkeypatch):
    from fbagent.providers.openai import OpenAIBackend

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    backend = OpenAIBackend("m")  # no key needed: a server URL came from the environment
    assert backend.base_url == "http://127.0.0.1:9/v1"


def test_transient_classification_and_retry_after():
    import httpx
    import openai

    def status_error(code: int, headers: dict | None = None) -> openai.APIStatusError:
        request = httpx.Request("POST", "http://h/v1/chat/completions")
        response = httpx.Response(code, headers=headers or {}, request=request)
        return openai.APIStatusError("e", response=response, body=None)

    assert providers.is_transient(status_error(429)) and providers.is_transient(status_error(503))
    assert not providers.is_transient(status_error(401)) and not providers.is_transient(ValueError("x"))
    wrapped = RuntimeError("instructor gave up")
    wrapped.__cause__ = status_error(500)
    assert providers.is_transient(wrapped)
    assert providers.retry_after_s(status_error(429, {"retry-after": "2"})) == 2.0
    policy = providers.RetryPolicy(retries=3, backoff_s=1.0, max_backoff_s=1.5)
    assert providers.retry_wait_s(policy, 1, status_error(429, {"retry-after": "9"})) == 1.5


# --------------------------------------------------------------------------- nothing stored or printed


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY", "FBAGENT_DB")}
    return {**env, **extra}


def _secret_url(root: str, path: str = "") -> str:
    scheme, rest = root.split("://", 1)
    return f"{scheme}://user:{URL_SECRET}@{rest}{path}?key={URL_SECRET}"


def _assert_no_secret(folder: Path, *texts: str) -> None:
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert files, f"nothing was written under {folder}"
    for path in files:
        data = path.read_bytes()
        for secret in SECRETS:
            assert secret.encode() not in data, f"{secret} stored in {path}"
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"{secret} printed: {text[-2000:]}"


@pytest.mark.parametrize("status", [401, 500])
def test_generate_openai_stores_and_prints_no_secret(tmp_path, status):
    db = tmp_path / "fb.db"
    with AuthEcho(status) as srv:
        proc = subprocess.run(
            [sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--generator", "openai",
             "--model", "echo-model", "--base-url", _secret_url(srv.url, "/v1"), "--no-screen",
             "--llm-retries", "1", "--db", str(db)],
            capture_output=True, text=True, env=_env(OPENAI_API_KEY=OPENAI_KEY), timeout=300)
        assert srv.hits >= 1
    assert proc.returncode == 1, proc.stderr  # every call failed: one line, exit 1, rows kept
    assert f"HTTP {status}" in proc.stderr
    _assert_no_secret(tmp_path, proc.stdout, proc.stderr)
    import sqlite3

    with sqlite3.connect(db) as conn:
        command = conn.execute("SELECT command FROM runs").fetchone()[0]
        errors = [r[0] for r in conn.execute("SELECT error FROM llm_calls")]
    assert "user:" not in command and "?key=***" in command and "***@127.0.0.1" in command
    # httpx turns the URL's user info into Basic auth: the echoed header is there, its value is not
    assert errors and all(f"HTTP {status}" in e and ("Basic ***" in e or "Bearer ***" in e) for e in errors)


def test_generate_gemini_stores_and_prints_no_secret(tmp_path):
    pytest.importorskip("google.genai")
    with AuthEcho(401) as srv:
        proc = subprocess.run(
            [sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--generator", "gemini",
             "--model", "gemini-test", "--base-url", srv.url, "--no-screen", "--llm-retries", "0",
             "--db", str(tmp_path / "fb.db")],
            capture_output=True, text=True, env=_env(GEMINI_API_KEY=GEMINI_KEY), timeout=300)
        assert srv.hits >= 1
    assert proc.returncode == 1, proc.stderr
    assert "HTTP 401" in proc.stderr
    _assert_no_secret(tmp_path, proc.stdout, proc.stderr)


@pytest.mark.parametrize(("backend", "status"), [("openai", 401), ("openai", 500), ("gemini", 401), ("gemini", 500)])
def test_eval_run_stores_and_prints_no_secret_and_closes_clients(tmp_path, backend, status):
    if backend == "gemini":
        pytest.importorskip("google.genai")
    out = tmp_path / "out"
    with AuthEcho(status) as srv:
        url = _secret_url(srv.url, "/v1") if backend == "openai" else srv.url
        env = _env(OPENAI_API_KEY=OPENAI_KEY) if backend == "openai" else _env(GEMINI_API_KEY=GEMINI_KEY)
        env["PYTHONDEVMODE"] = "1"  # unclosed sockets and transports print a ResourceWarning
        env["FBAGENT_BREAKER_CALLS"] = "0"  # every failed answer stored: no circuit breaker (tests/test_breaker.py)
        proc = subprocess.run(
            [sys.executable, "-W", "error::ResourceWarning", "-m", "fbagent.cli", "eval", "run",
             "--dataset", str(DATA), "--limit", "1", "--templates", "v1", "--backend", backend,
             "--model", "echo-model", "--base-url", url, "--out", str(out), "--concurrency", "2",
             "--max-retries", "1"],
            capture_output=True, text=True, env=env, timeout=300)
        assert srv.hits >= 4
    assert (out / "predictions.jsonl").is_file() and (out / "manifest.json").is_file(), proc.stderr
    _assert_no_secret(tmp_path, proc.stdout, proc.stderr)
    assert "ResourceWarning" not in proc.stderr, proc.stderr
    import json

    manifest = json.loads((out / "manifest.json").read_text())
    preds = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert all(p["error"] and f"HTTP {status}" in p["error"] for p in preds)
    assert srv.hits == len(preds) * (2 if status == 500 else 1)  # one transport retry on 500 only
    if backend == "openai":
        assert manifest["backend_options"]["base_url"] == f"{srv.url}/v1"
        assert any("***@127.0.0.1" in str(word) for word in manifest["command"])
