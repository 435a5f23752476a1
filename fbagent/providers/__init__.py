"""The one way to reach each outside model service, for generation and evaluation alike.

Both LLM stacks (``fbagent.llm`` for generation, ``fbagent.providers`` backends for
scoring) take from here, and only from here:

- provider names and their aliases (:data:`PROVIDERS`, :func:`provider`):
  ``local`` and ``llamacpp`` name the same llama.cpp backend everywhere;
- which environment variables hold an API key, in which order
  (:func:`api_key`, :func:`has_api_key`), and the base URL (flag, then
  environment: :func:`base_url`);
- the error for a missing optional package (:func:`require_packages`);
- one async API client per event loop, and closing it (:class:`LoopClients`);
- which errors are worth another try (:func:`is_transient`), the backoff
  (:func:`retry_wait_s`, ``Retry-After`` honoured) and the retry loop itself
  (:func:`call_with_retries`, tenacity), and one line describing any failure
  (:func:`describe_error`);
- :func:`redact`, which every error text, command line, URL and manifest field
  that fbagent stores or prints passes through;
- the Chat Completions client over aiohttp that generation and evaluation both
  send OpenAI-compatible requests with, and the one reader of its answers
  (:mod:`fbagent.providers.chat_http`, imported from there: aiohttp loads on
  the first request, not with this package);
- the engines, each built in one module: llama.cpp (:mod:`fbagent.providers.llamacpp`)
  and the google-genai client (:mod:`fbagent.providers.gemini`).

Secrets are read from the environment and never stored: :func:`redact` removes
every API key the process knows (the variables of :data:`PROVIDERS` and keys
passed in code, see :func:`register_secret`), ``Authorization`` /
``x-goog-api-key`` header values, ``Bearer`` tokens, URL user info and
``key=`` / ``api_key=`` / ``token=`` query values.
"""

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes
from fbagent.providers import names as _names
from fbagent.providers.names import (
    EVALUATION,
    GENERATION,
    NO_KEY,
    PROVIDERS,
    Provider,
    api_key,
    base_url,
    check_base_url,
    check_packages,
    endpoint,
    has_api_key,
    help_names,
    installed,
    missing_package,
    names_for,
    provider,
    public_url,
    register,
    register_secret,
    require_packages,
)
from fbagent.providers.redact import (
    known_secrets,
    may_hold_secret,
    redact,
    redact_argv,
    redact_value,
)

if TYPE_CHECKING:
    GENERATION_PROVIDERS: tuple[str, ...]   # from names.__getattr__: they follow register()
    EVAL_PROVIDERS: tuple[str, ...]
    from fbagent.providers.clients import LoopClients
    from fbagent.providers.errors import (
        TRANSIENT_STATUS,
        RetryPolicy,
        call_with_retries,
        describe_error,
        exception_chain,
        is_network_error,
        is_transient,
        network_reason,
        one_line,
        retry_after_s,
        retry_wait_s,
        status_of,
    )

#: module -> the names it defines, loaded on first use (PEP 562): both load asyncio and tenacity (40 ms), which
#: every command's start-up (``fbagent.cli`` imports :func:`redact`) and ``--help`` do without
_MODULES = {
    "fbagent.providers.clients": ("LoopClients",),
    "fbagent.providers.errors": ("TRANSIENT_STATUS", "RetryPolicy", "call_with_retries", "describe_error",
                                 "exception_chain", "is_network_error", "is_transient", "network_reason", "one_line",
                                 "retry_after_s", "retry_wait_s", "status_of"),
}
_lazy = lazy_attributes(__name__, _MODULES)

__all__ = [
    "EVAL_PROVIDERS", "EVALUATION", "GENERATION", "GENERATION_PROVIDERS", "NO_KEY", "PROVIDERS", "TRANSIENT_STATUS", "LoopClients",
    "Provider", "RetryPolicy", "api_key", "base_url", "check_base_url", "check_packages", "call_with_retries", "describe_error", "endpoint",
    "exception_chain", "has_api_key", "help_names", "installed", "is_network_error", "is_transient", "known_secrets",
    "may_hold_secret", "missing_package", "names_for", "network_reason", "one_line", "provider", "public_url", "redact", "redact_argv",
    "redact_value", "register", "register_secret", "require_packages", "retry_after_s", "retry_wait_s", "status_of",
]


def __getattr__(attr: str) -> object:   # PEP 562: GENERATION_PROVIDERS / EVAL_PROVIDERS follow register()
    if attr in ("GENERATION_PROVIDERS", "EVAL_PROVIDERS"):
        return _names.__getattr__(attr)
    return _lazy(attr)
