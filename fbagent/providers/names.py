"""Provider names and aliases, API-key variables, server URLs and optional packages.

One :class:`Provider` per outside service or in-process engine; generation
(``fbagent.llm``) and evaluation (``fbagent.eval``) both resolve names,
keys and URLs here.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import SplitResult, urlsplit, urlunsplit

from fbagent.errors import FbagentError

#: what provider ``local`` runs on since issue 42 (stored in a generation run's options; fbagent before it ran
#: ``local`` on llama.cpp, so a ``local`` run that stores no engine was made by llama.cpp)
EMBEDDED_ENGINE = "transformers+llguidance"

#: the two uses of a model: generation (and the verifier) or evaluation (scoring)
GENERATION = "generation"
EVALUATION = "evaluation"
USES = (GENERATION, EVALUATION)


@dataclass(frozen=True)
class Provider:
    """One outside service or in-process engine that answers prompts: one line of the registry
    :data:`PROVIDERS`.

    ``name``: the one spelling shown in help; ``label``: one line for ``--help``; ``cls``: the provider
    class as ``"module:Class"`` (:class:`fbagent.providers.base.Backend`; imported when a model is
    built, so that naming a provider loads no engine); ``uses``: :data:`GENERATION` and/or
    :data:`EVALUATION`; ``aliases``: other accepted spellings; ``key_vars``: environment variables
    holding the API key, in lookup order (empty: no key); ``base_url_var``: environment variable with
    the server URL; ``default_endpoint``: URL used without one (error texts); ``packages``:
    ``(import name, distribution)`` pairs the provider needs; ``extra``: the fbagent extra that
    installs them.
    """

    name: str
    label: str
    cls: str = ""
    uses: tuple[str, ...] = USES
    aliases: tuple[str, ...] = ()
    key_vars: tuple[str, ...] = ()
    base_url_var: str | None = None
    default_endpoint: str | None = None
    packages: tuple[tuple[str, str], ...] = ()
    extra: str | None = None

    def load(self) -> type:
        """The provider class named by :attr:`cls` (its module imported now)."""
        module, _, attr = self.cls.partition(":")
        return getattr(importlib.import_module(module), attr)


#: The registry: canonical name -> :class:`Provider`. A new provider is its module (one class,
#: :class:`fbagent.providers.base.Backend`) plus one line here (or :func:`register` at run time).
#: The order is the order in ``--help``.
PROVIDERS: dict[str, Provider] = {p.name: p for p in (
    Provider("vllm", "vLLM in process (GPU)", "fbagent.providers.vllm:VllmBackend", (EVALUATION,),
             packages=(("vllm", "vllm"),), extra="gpu"),
    Provider("transformers", "Hugging Face transformers in process",
             "fbagent.providers.transformers:TransformersBackend", (EVALUATION,),
             packages=(("transformers", "transformers"),), extra="dev"),
    Provider("openai", "OpenAI or any OpenAI-compatible server (vLLM serve, llama.cpp server, Ollama)",
             "fbagent.providers.openai:OpenAIBackend", key_vars=("OPENAI_API_KEY",), base_url_var="OPENAI_BASE_URL",
             default_endpoint="https://api.openai.com/v1", packages=(("openai", "openai"),)),
    Provider("gemini", "Google Gemini through google-genai", "fbagent.providers.gemini:GeminiBackend",
             aliases=("google",), key_vars=("GEMINI_API_KEY", "GOOGLE_API_KEY"),
             default_endpoint="https://generativelanguage.googleapis.com",
             packages=(("google.genai", "google-genai"), ("jsonref", "jsonref")), extra="gemini"),
    Provider("local", "the offline Gemma 3 270M (or --model-path FILE.gguf): transformers + llguidance on the CPU, "
             "wheels only", "fbagent.providers.embedded:EmbeddedBackend",
             packages=(("torch", "torch"), ("transformers", "transformers"), ("accelerate", "accelerate"),
                       ("llguidance", "llguidance"), ("gguf", "gguf")), extra="local"),
    Provider("llamacpp", "llama.cpp in process on a GGUF file (llama-cpp-python, compiled at install)",
             "fbagent.providers.local:LlamaCppBackend", aliases=("llama.cpp", "llama-cpp"),
             packages=(("llama_cpp", "llama-cpp-python"),), extra="llama"),
)}

#: generation's providers in the order of its ``--help`` (then any added with :func:`register`)
_GENERATION_ORDER = ("openai", "gemini", "local", "llamacpp")
#: evaluation's providers in the order of its ``--help``
_EVAL_ORDER = ("vllm", "transformers", "local", "llamacpp", "openai", "gemini")


def register(p: Provider) -> None:
    """Add (or replace) the registry line of ``p`` (a provider that lives outside this package, a test's fake)."""
    PROVIDERS[p.name] = p


def names_for(use: str) -> tuple[str, ...]:
    """The canonical names of the providers that serve ``use`` (:data:`GENERATION` | :data:`EVALUATION`),
    in ``--help`` order."""
    order = _GENERATION_ORDER if use == GENERATION else _EVAL_ORDER
    serving = [name for name, p in PROVIDERS.items() if use in p.uses]
    return tuple(sorted(serving, key=lambda n: order.index(n) if n in order else len(order)))


def __getattr__(attr: str) -> tuple[str, ...]:   # PEP 562: the two lists follow register()
    if attr == "GENERATION_PROVIDERS":
        return names_for(GENERATION)
    if attr == "EVAL_PROVIDERS":
        return names_for(EVALUATION)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def provider(name: str | None, *, among: tuple[str, ...] | None = None, kind: str = "backend") -> Provider:
    """The :class:`Provider` called ``name`` (canonical name or alias, any case), limited to ``among``
    (default: every provider of the registry).

    ``kind`` names the role in the error text (``"LLM backend"``, ``"backend"``).
    Raises :class:`FbagentError` for an unknown name, listing the names of ``among``.
    """
    among = tuple(PROVIDERS) if among is None else among
    wanted = (name or "").strip().lower()
    for key in among:
        p = PROVIDERS[key]
        if wanted == p.name or wanted in p.aliases:
            return p
    raise FbagentError(f"unknown {kind} {name!r}", f"use one of: {', '.join(among)}")


def help_names(among: tuple[str, ...]) -> str:
    """``"openai | gemini | local"``: the canonical spellings for ``--help`` texts."""
    return " | ".join(among)


# --------------------------------------------------------------------------- keys and URLs


_REGISTERED: set[str] = set()
MIN_SECRET = 6  # shorter strings are not removed as secrets (they would match ordinary words)


def register_secret(value: str | None) -> None:
    """Add ``value`` (an API key given in code rather than in the environment) to what
    :func:`fbagent.providers.redact.redact` removes."""
    if value and len(value) >= MIN_SECRET:
        _REGISTERED.add(value)


def registered_secrets() -> frozenset[str]:
    """The keys given in code so far (:func:`register_secret`)."""
    return frozenset(_REGISTERED)


NO_KEY = "not-needed"  # sent to OpenAI-compatible servers that take no key (vLLM, llama.cpp, Ollama)


def has_api_key(p: Provider) -> bool:
    """True when one of ``p.key_vars`` is set (or ``p`` needs no key)."""
    return not p.key_vars or any(os.environ.get(v) for v in p.key_vars)


def api_key(p: Provider, explicit: str | None = None, *, server_url: str | None = None) -> str | None:
    """The API key for ``p``: ``explicit``, else the first of ``p.key_vars`` that is set.

    For ``openai`` with a ``server_url`` (a local OpenAI-compatible server) a
    missing key is fine: :data:`NO_KEY` is returned. Providers without key
    variables return ``None``. The key is registered for :func:`redact`.
    Raises :class:`FbagentError` (problem + fix) when a needed key is missing.
    """
    if not p.key_vars:
        return None
    key = explicit or next((os.environ[v] for v in p.key_vars if os.environ.get(v)), None)
    if key:
        register_secret(key)
        return key
    if p.name == "openai" and server_url:
        return NO_KEY
    first, others = p.key_vars[0], p.key_vars[1:]
    if others:
        problem = f"the {p.name} backend needs an API key and neither {first} nor {' nor '.join(others)} is set"
    else:
        problem = f"the {p.name} backend needs an API key and {first} is not set"
    if p.name == "openai":
        fix = (f"export {first}=..., or give the URL of an OpenAI-compatible server (vLLM, llama.cpp) "
               f"with --base-url or {p.base_url_var}")
    else:
        fix = f"export {first}=<your key>" + (f" (or {', '.join(others)})" if others else "")
    raise FbagentError(problem, fix)


def base_url(p: Provider, flag: str | None = None) -> str | None:
    """The server URL for ``p``: ``flag`` when given, else ``p.base_url_var`` from the environment, else ``None``.

    Raises :class:`FbagentError` when the URL is not an http(s) URL with a host (:func:`check_base_url`).
    """
    if flag:
        return check_base_url(flag)
    url = (os.environ.get(p.base_url_var) or None) if p.base_url_var else None
    return check_base_url(url, source=p.base_url_var) if url else None


_HOST = re.compile(r"[^\W_]([\w.-]*[^\W_])?")   # letters (IDN too), digits, dots, hyphens, underscores


def check_base_url(url: str | None, *, source: str | None = None) -> str | None:
    """``url`` when it is ``None`` or an ``http://`` / ``https://`` URL with a host (and a valid port);
    raises :class:`FbagentError` otherwise (``ftp://...``, ``localhost:8000`` without a scheme, a
    control character, a space, a host name with other characters than letters, digits, ``.-_``), naming ``source`` (an environment variable) when the URL came from there."""
    if url is None:
        return None
    shown = public_url(url) if "://" in url else url
    where = f" (from {source})" if source else ""
    parts = urlsplit(url)
    problem = None
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in url):
        problem = "contains a control character"
    elif any(ch.isspace() for ch in url):
        problem = "contains a space"
    elif parts.scheme.lower() not in ("http", "https"):
        problem = f"has the scheme {parts.scheme!r}, not http or https" if parts.scheme else "has no http:// or https://"
    elif not parts.hostname:
        problem = "has no host"
    elif not (_HOST.fullmatch(parts.hostname) or ":" in parts.hostname):   # ":": an IPv6 literal
        problem = f"has a host name with characters no host name has ({parts.hostname!r})"
    else:
        try:
            parts.port  # noqa: B018 - raises ValueError for a port out of range or not a number
        except ValueError:
            problem = "has an invalid port"
    if problem:
        raise FbagentError(f"the server URL {shown!r}{where} {problem}",
                           "give the OpenAI-compatible server as http://HOST:PORT/v1 (or https://...)")
    return url


def host_and_port(parts: SplitResult) -> str:
    """The ``host[:port]`` of a split URL without its user info; an IPv6 literal keeps its brackets."""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{parts.port}" if parts.port else host


@lru_cache(maxsize=64)
def public_url(url: str | None) -> str | None:
    """``url`` without user info and query string (which may carry keys): what is stored with a call.
    (Kept per URL: every stored call asks for its client's one URL.)"""
    if not url:
        return None
    parts = urlsplit(str(url))
    return urlunsplit((parts.scheme, host_and_port(parts), parts.path, "", ""))


def endpoint(p: Provider, url: str | None) -> str:
    """Where requests go, for error texts: ``url`` (public part) or the provider's default endpoint."""
    return public_url(url) or p.default_endpoint or p.name


# --------------------------------------------------------------------------- packages


def missing_package(distribution: str, extra: str | None) -> FbagentError:
    """The one-line error for a provider whose optional package is not installed."""
    fix = f"pip install 'fbagent[{extra}]'" if extra else f"pip install {distribution}"
    return FbagentError(f"the Python package {distribution!r} is not installed", fix)


def installed(module: str) -> bool:
    """Whether ``module`` can be found (:func:`importlib.util.find_spec`; nothing is imported but a parent package,
    ``google`` for ``google.genai``)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a missing parent package; a module in sys.modules as None (blocked)
        return False


def check_packages(p: Provider) -> None:
    """Raise :func:`missing_package`'s error for the first package ``p`` needs that is not installed (found with
    :func:`installed`: not imported, so it is cheap enough to ask before anything is stored)."""
    for module, distribution in p.packages:
        if not installed(module):
            raise missing_package(distribution, p.extra)


def require_packages(p: Provider) -> None:
    """Import every package ``p`` needs; raises :func:`missing_package`'s error for the first one missing."""
    for module, distribution in p.packages:
        try:
            importlib.import_module(module)
        except ImportError as exc:
            raise missing_package(distribution, p.extra) from exc
