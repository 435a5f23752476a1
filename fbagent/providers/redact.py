"""Secrets out of everything fbagent stores or prints: :func:`redact`.

Removes every API key the process knows (the key variables of
:data:`fbagent.providers.names.PROVIDERS` and keys registered in code),
``Authorization`` / ``x-goog-api-key`` header values, ``Bearer`` tokens, URL
user info and ``key=`` / ``api_key=`` / ``token=`` query values.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from typing import Any, overload

from fbagent.providers.names import MIN_SECRET, PROVIDERS, public_url, registered_secrets


def known_secrets() -> list[str]:
    """Every API key the process knows: registered ones and those in the providers' variables, longest first."""
    found = set(registered_secrets())
    for p in PROVIDERS.values():
        for var in p.key_vars:
            value = os.environ.get(var)
            if value and len(value) >= MIN_SECRET:
                found.add(value)
    return sorted(found, key=len, reverse=True)


_MASK = "***"
_SECRET_QUERY = r"(?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|token|password|secret|sig|signature)"
_PATTERNS: tuple[tuple[re.Pattern[str], Any], ...] = (
    # header values, as HTTP text, JSON or a Python dict repr: Authorization: Bearer x / "x-goog-api-key": "x"
    (re.compile(r"(?i)(\b(?:proxy-)?authorization|\bx-goog-api-key|\bx-api-key|\bapi-key)(\W{0,3}[:=]\s*[\"']?)"
                r"(?:(bearer|basic|token)\s+)?[^\s\"',;}&]+"),
     lambda m: f"{m.group(1)}{m.group(2)}{(m.group(3) + ' ') if m.group(3) else ''}{_MASK}"),
    (re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=\-*]{4,}"), lambda m: f"{m.group(1)} {_MASK}"),
    # URL user info: scheme://user:password@host -> scheme://***@host
    (re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@?#\"']+@"), lambda m: f"{m.group(1)}{_MASK}@"),
    # secret query values: ?key=..., &api_key=..., token=...
    (re.compile(rf"(?i)([?&;]{_SECRET_QUERY}=)[^&\s#\"']+"), lambda m: f"{m.group(1)}{_MASK}"),
    # key shapes of the providers, masked or not
    (re.compile(r"\bsk-[A-Za-z0-9_\-*]{6,}"), lambda m: _MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{10,}"), lambda m: _MASK),
)


#: every form of :data:`_PATTERNS` contains one of these (case-insensitive): text without any is left as it is
_MAY_HOLD = re.compile(r"(?i)authorization|api-key|bearer|://|=|sk-|aiza")


@overload
def redact(text: str, secrets: list[str] | None = None) -> str: ...
@overload
def redact(text: None, secrets: list[str] | None = None) -> None: ...
def redact(text: str | None, secrets: list[str] | None = None) -> str | None:
    """``text`` with every secret form replaced by ``***`` (``None`` stays ``None``).

    Removes: API keys known to the process (:func:`known_secrets`), values of
    ``Authorization`` / ``Proxy-Authorization`` / ``x-goog-api-key`` /
    ``x-api-key`` headers, ``Bearer`` tokens, URL user info
    (``http://user:pw@host`` -> ``http://***@host``), and ``key=``, ``api_key=``,
    ``token=`` (and similar) query values. Idempotent. ``secrets``: the keys to
    remove (default: :func:`known_secrets`, read now).
    """
    if text is None:
        return None
    out = str(text)
    for secret in known_secrets() if secrets is None else secrets:
        out = out.replace(secret, _MASK)
    if _MAY_HOLD.search(out) is None:
        return out
    for pattern, repl in _PATTERNS:
        out = pattern.sub(repl, out)
    return out


def may_hold_secret(text: str, secrets: list[str] | None = None) -> bool:
    """False when :func:`redact` would leave ``text`` unchanged for certain: no known secret (as it is or
    JSON-escaped, so ``text`` may be a JSON document) and none of the marks every secret form needs
    (``authorization``, ``api-key``, ``bearer``, ``://``, ``=``, ``sk-``, ``AIza``). A fast pre-check."""
    import json

    for secret in known_secrets() if secrets is None else secrets:
        if secret in text or json.dumps(secret)[1:-1] in text:
            return True
    return _MAY_HOLD.search(text) is not None


def redact_value(value: Any, secrets: list[str] | None = None) -> Any:
    """:func:`redact` applied to every string inside ``value`` (dicts, lists, tuples; keys too).

    ``secrets``: as for :func:`redact` (default: read once for the whole value).
    """
    if secrets is None:
        secrets = known_secrets()
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {redact_value(k, secrets): redact_value(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact_value(v, secrets) for v in value)
    return value


def redact_argv(argv: list[str] | tuple[str, ...]) -> list[str]:
    """A command line (list of words) with :func:`redact` applied to each word."""
    return [redact(str(a)) or "" for a in argv]


def stored_command(command: str | None = None) -> str:
    """The command line to store with a run and its sessions (``generate``, ``verifier calibrate``):
    ``command``, or this process's ``fbagent ...`` arguments, with secrets removed (:func:`redact`)."""
    if command is None:
        command = " ".join(shlex.quote(a) for a in ["fbagent", *sys.argv[1:]]) if sys.argv else "fbagent generate"
    return redact(command)


def stored_base_url(url: str | None) -> str | None:
    """A base URL as stored with a run: no userinfo, no query string, secrets redacted; ``None`` stays ``None``."""
    if not url:
        return None
    return redact(public_url(url) or "")
