"""The local llama.cpp engine (llama-cpp-python): the one place that builds a ``llama_cpp.Llama``.

Generation (``--generator local``) and evaluation (``--backend local``) both load their GGUF here, so
both get the same two safeguards:

1. **No AMX kernels by default on CPUs that report AMX.** pip builds llama-cpp-python from source with
   ``GGML_NATIVE=ON``; on a CPU whose ``/proc/cpuinfo`` lists ``amx_tile`` (Intel Xeon since Sapphire
   Rapids, common in clouds) ggml then offers its AMX buffer type, and its AMX matrix kernels fault on
   some of these machines (a general protection fault in ``libggml-cpu.so``, exit 139; llama.cpp
   issues about segfaults in the AMX matmul). The AMX path is only taken through ggml's *extra buffer
   types*, so on such CPUs the model is loaded with ``use_extra_bufts = false`` (llama.cpp's
   ``--no-extra-bufts``): weights stay in plain CPU buffers and the AVX-512/AVX2 kernels run. This
   holds for any build, also a native wheel that pip's cache keeps serving (its cache key ignores
   ``CMAKE_ARGS``). ``FBAGENT_LLAMA_EXTRA_BUFTS=1`` turns extra buffer types on anyway, ``=0`` off on
   every CPU. Elsewhere they stay on (weight repacking speeds up prompt processing).
2. **First use in a child process.** Before a model is loaded in process, a child process loads it
   with the same settings and completes a short prompt (:func:`probe`). A native crash there (any
   signal) becomes one :class:`FbagentError` naming the engine, the CPU and the fix, before the calling
   command has stored anything. A successful probe is remembered per engine build, model file, settings
   and CPU in ``~/.cache/fbagent/llama-probes.json`` (``XDG_CACHE_HOME`` respected), so it costs about
   a second once per machine, not per run. ``FBAGENT_LLAMA_PROBE=0`` skips it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fbagent.errors import FbagentError
from fbagent.providers.cancel import in_worker_thread
from fbagent.providers.config import DEFAULT_N_CTX

ENGINE = "llama.cpp (llama-cpp-python)"
PORTABLE_REBUILD = ("CMAKE_ARGS='-DGGML_NATIVE=OFF' pip install --force-reinstall --no-cache-dir --no-deps "
                    "llama-cpp-python")
PROBE_PROMPT = ("Frame semantics describes the meaning of a word by the situation it evokes. " * 6).strip()
PROBE_TIMEOUT_S = 600


@dataclass(frozen=True)
class LlamaSettings:
    """How one GGUF model is loaded: ``model_path`` (file), ``n_ctx`` (tokens of prompt + answer),
    ``n_threads`` (``None``: llama.cpp's default), ``n_gpu_layers`` (0: CPU only), ``seed`` (``None``:
    llama.cpp's default; each request may carry its own) and
    ``use_extra_bufts`` (ggml's extra buffer types: AMX, repacked weights; see the module doc)."""

    model_path: str
    n_ctx: int = DEFAULT_N_CTX
    n_threads: int | None = None
    n_gpu_layers: int = 0
    seed: int | None = None
    use_extra_bufts: bool = True


@functools.lru_cache(maxsize=1)
def _cpuinfo() -> dict[str, str]:
    """The first value of each key of ``/proc/cpuinfo`` (read once per process; empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                key, sep, value = line.partition(":")
                if sep:
                    fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return fields


def cpu_flags() -> frozenset[str]:
    """The CPU feature flags of ``/proc/cpuinfo`` (first ``flags`` line); empty where there is none."""
    return frozenset(_cpuinfo().get("flags", "").split())


def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (``"unknown CPU"`` where there is none)."""
    return " ".join(_cpuinfo().get("model name", "").split()) or "unknown CPU"


def extra_bufts_default() -> bool:
    """Whether models load with ggml's extra buffer types: ``FBAGENT_LLAMA_EXTRA_BUFTS`` (``1``/``0``)
    when set, else ``True`` unless the CPU reports ``amx_tile`` (see the module doc).

    Raises :class:`FbagentError` for another value of the variable.
    """
    value = os.environ.get("FBAGENT_LLAMA_EXTRA_BUFTS")
    if value is not None and value.strip() != "":
        if value.strip() not in ("0", "1"):
            raise FbagentError(f"FBAGENT_LLAMA_EXTRA_BUFTS={value!r} is neither 0 nor 1",
                               "set FBAGENT_LLAMA_EXTRA_BUFTS=0 (no AMX/repacked weights) or 1, or unset it")
        return value.strip() == "1"
    return "amx_tile" not in cpu_flags()


def check_gguf_file(path: str | Path) -> None:
    """Raise :class:`FbagentError` (one line, with the fix) when the GGUF model ``path`` is not a file."""
    if not os.path.isfile(path):
        raise FbagentError(f"GGUF model file {path} does not exist", "pass --model-path with an existing .gguf file")


def settings_for(model_path: str | Path, *, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None,
                 n_gpu_layers: int = 0, seed: int | None = None) -> LlamaSettings:
    """:class:`LlamaSettings` for ``model_path`` with the CPU-safe choice of extra buffer types."""
    return LlamaSettings(model_path=str(model_path), n_ctx=int(n_ctx), n_threads=n_threads,
                         n_gpu_layers=int(n_gpu_layers), seed=None if seed is None else int(seed), use_extra_bufts=extra_bufts_default())


@contextlib.contextmanager
def _model_defaults(use_extra_bufts: bool) -> Iterator[None]:
    """While the ``Llama`` is built, llama.cpp's default model parameters carry ``use_extra_bufts``
    (llama-cpp-python takes no keyword for it; it starts from ``llama_model_default_params()``)."""
    import llama_cpp.llama as llama_module

    native = llama_module.llama_cpp
    original = native.llama_model_default_params

    def defaults() -> object:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = use_extra_bufts
        return params

    native.llama_model_default_params = defaults
    try:
        yield
    finally:
        native.llama_model_default_params = original


def build_llama(settings: LlamaSettings, *, probe_first: bool = True,
                abort: Callable[[], bool] | None = None) -> Any:
    """The ``llama_cpp.Llama`` of ``settings`` (quiet: llama.cpp's set-up notes go nowhere).

    With ``probe_first`` (the default) the settings are first tried in a child process
    (:func:`probe`). ``abort`` (e.g. :meth:`fbagent.providers.cancel.CallGate.aborted`) is asked
    during every decode; when it returns true the decode stops (:func:`install_abort`). Raises
    :class:`FbagentError` when the probe crashed, and whatever ``Llama`` raises (``ValueError`` for
    an unreadable file) otherwise; ``ImportError`` without the package.
    """
    from llama_cpp import Llama

    if probe_first:
        probe(settings)
    quiet: Any = contextlib.nullcontext()
    try:  # llama.cpp prints context set-up notes to fd 2 even with verbose=False
        from llama_cpp._utils import suppress_stdout_stderr

        quiet = suppress_stdout_stderr(disable=False)
    except ImportError:  # pragma: no cover - older/newer layouts
        pass

    _quiet_after_abort()
    seed: dict[str, Any] = {} if settings.seed is None else {"seed": settings.seed}
    with quiet, _model_defaults(settings.use_extra_bufts):  # loaded in a worker thread: Ctrl-C is never lost
        llm = in_worker_thread(lambda: Llama(model_path=settings.model_path, n_ctx=settings.n_ctx,
                                             n_threads=settings.n_threads, n_gpu_layers=settings.n_gpu_layers,
                                             verbose=False, **seed), name="fbagent-llama-load")
    if abort is not None:
        install_abort(llm, abort)
    return llm


def install_abort(llm: Any, abort: Callable[[], bool]) -> None:
    """Make llama.cpp ask ``abort()`` between the graph nodes of every ``llama_decode`` of ``llm`` (its
    abort callback, ``llama_set_abort_callback``): prompt processing and each generated token stop
    within milliseconds once it returns true; the decode then returns 2 and llama-cpp-python raises
    ``RuntimeError("llama_decode returned 2")``. The callback is kept on ``llm`` (ctypes must not
    free it while llama.cpp holds it)."""
    import llama_cpp

    def check(_data: Any) -> bool:
        try:
            stop = bool(abort())
        except Exception:  # noqa: BLE001 - an exception must not cross into C
            stop = False
        _ABORTING.set() if stop else _ABORTING.clear()
        return stop

    callback = llama_cpp.ggml_abort_callback(check)
    llama_cpp.llama_set_abort_callback(llm._ctx.ctx, callback, None)
    llm._fbagent_abort_callback = callback


_ABORTING = threading.Event()  # set while a decode stops on its abort callback (its clean-up notes go nowhere)
_LOG_CALLBACK: Any = None


def _quiet_after_abort() -> None:
    """Install (once) llama.cpp's log callback as llama-cpp-python's own, but silent while a decode is
    being aborted: an abort (Ctrl-C) otherwise prints llama.cpp's "decode: removing memory module
    entries ..." between two copies of the progress bar."""
    global _LOG_CALLBACK
    if _LOG_CALLBACK is not None:
        return
    import ctypes

    import llama_cpp
    from llama_cpp import _logger

    def log(level: int, text: bytes, _data: Any) -> None:
        if _ABORTING.is_set():
            return
        if _logger.logger.level <= _logger.GGML_LOG_LEVEL_TO_LOGGING_LEVEL.get(level, 0):  # as llama-cpp-python
            print(text.decode("utf-8", "replace"), end="", flush=True, file=sys.stderr)

    _LOG_CALLBACK = llama_cpp.llama_log_callback(log)
    llama_cpp.llama_log_set(_LOG_CALLBACK, ctypes.c_void_p(0))


def uses_extra_bufts(llm: Any) -> bool:
    """Whether a loaded ``Llama`` was built with extra buffer types (its ``model_params``)."""
    return bool(getattr(llm.model_params, "use_extra_bufts", True))


# --------------------------------------------------------------------------- the child-process probe


def _cache_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fbagent" / "llama-probes.json"


def probe_key(settings: LlamaSettings) -> str:
    """What a successful probe vouches for: the engine build (version, ``libggml-cpu`` size and time),
    the model file (path, size, time), the settings but the seed, and the CPU (model name, flags)."""
    from importlib import metadata

    try:
        version = metadata.version("llama-cpp-python")
    except metadata.PackageNotFoundError:
        version = "?"
    import llama_cpp

    libs = sorted(str(p) for p in (Path(llama_cpp.__file__).parent / "lib").glob("libggml-cpu*"))
    stats = [(p, os.stat(p).st_size, int(os.stat(p).st_mtime)) for p in libs]
    model = Path(settings.model_path)
    st = model.stat()
    doc = {"version": version, "libs": stats, "model": [str(model.resolve()), st.st_size, int(st.st_mtime)],
           "settings": {k: v for k, v in asdict(settings).items() if k not in ("model_path", "seed")},
           "cpu": [cpu_model(), sorted(cpu_flags())]}
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


def _known_good(key: str) -> bool:
    try:
        return key in json.loads(_cache_file().read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):
        return False


def _remember(key: str) -> None:
    path = _cache_file()
    try:
        known = json.loads(path.read_text(encoding="utf-8"))
        known = known if isinstance(known, dict) else {}
    except (OSError, ValueError):
        known = {}
    known[key] = True
    with contextlib.suppress(OSError):  # a read-only home: the probe simply runs again next time
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(known), encoding="utf-8")
        os.replace(tmp, path)


def crash_error(signum: int, settings: LlamaSettings) -> FbagentError:
    """The one-line error for a llama.cpp process killed by signal ``signum`` with ``settings``."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    amx = "amx_tile" in cpu_flags()
    where = f"{cpu_model()}{', AMX' if amx else ''}; extra buffer types {'on' if settings.use_extra_bufts else 'off'}"
    fix = (f"set FBAGENT_LLAMA_EXTRA_BUFTS=0, or reinstall a portable build: {PORTABLE_REBUILD}"
           if settings.use_extra_bufts else f"reinstall a portable build: {PORTABLE_REBUILD}")
    return FbagentError(f"{ENGINE} crashed ({name}) loading or running {Path(settings.model_path).name} on this "
                        f"CPU ({where}); nothing was stored", fix)


def probe(settings: LlamaSettings) -> None:
    """Load ``settings`` in a child process and complete a short prompt (4 tokens after about 80).

    Returns at once when an earlier probe of the same key succeeded, or with ``FBAGENT_LLAMA_PROBE=0``.
    Raises :class:`FbagentError` (:func:`crash_error`) when the child is killed by a signal. Any other
    failure of the child (an unreadable file, a missing package) is left to the in-process load, which
    raises its own error.
    """
    if os.environ.get("FBAGENT_LLAMA_PROBE", "1").strip() == "0":
        return
    try:
        key = probe_key(settings)
    except OSError:
        return  # a missing model file: the in-process load says so
    if _known_good(key):
        return
    env = {**os.environ, "FBAGENT_LLAMA_PROBE": "0"}
    try:
        proc = subprocess.run([sys.executable, "-m", "fbagent.providers.llamacpp", json.dumps(asdict(settings))],
                              capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return  # a slow machine is not a crash; the in-process load goes on
    if proc.returncode < 0:
        raise crash_error(-proc.returncode, settings)
    if proc.returncode == 0 and proc.stdout.strip().endswith("ok"):
        _remember(key)


def _probe_main(argv: list[str]) -> int:
    """The child of :func:`probe`: build the engine from the JSON settings in ``argv[1]``, complete."""
    settings = LlamaSettings(**json.loads(argv[1]))
    llm = build_llama(settings, probe_first=False)
    llm.create_completion(PROBE_PROMPT, max_tokens=4, temperature=0.0)
    print("ok")
    return 0


if __name__ == "__main__":
    raise SystemExit(_probe_main(sys.argv))
