"""One `fbagent generate` process for ``benchmarks/bench_generate.py``: the real CLI, with probes.

Usage (by the benchmark): ``python benchmarks/generate_child.py RESULT.json ENCODER -- fbagent-args...``

Runs ``fbagent generate ARGS`` as users run it: under the crash supervisor
(:func:`fbagent.crash.supervise`; a parent that only waits, the command in a child
process) unless ``FBAGENT_SUPERVISE=0``. This script is both: started by the
benchmark it is the supervising parent and names itself as the child's command
line, so the child is this script again, with the supervisor's environment; the
child installs the probes and runs the command through :func:`fbagent.cli.main`
exactly as the console script does (Typer, the Rich view, ``asyncio.run``). The
child writes ``RESULT.json`` at exit with what only the process that runs the
command can measure:

- ``entries_started_t`` / ``entries_stopped_t``: ``time.time()`` of the
  ``EntriesStarted`` / ``EntriesStopped`` events; ``cpu_started_s`` /
  ``cpu_stopped_s``: process CPU seconds (all threads) at those moments;
- ``steady_done`` / ``steady_cpu_s`` and ``steady_end_done`` / ``steady_end_cpu_s``:
  entries done and process CPU at the first ``Progress`` event with a quarter,
  and with three quarters, of the entries done (between the two: the steady
  state, without the first entries' one-time work);
- ``cpu_total_s``, ``peak_rss_mb``: ``getrusage`` at exit; ``exit_code``;
- ``encoder_worker``: the encoder worker's ``batches`` (encode calls), ``encoded`` (texts through the
  encoder) and ``cache_hits`` (texts answered from the rows kept by text);
- ``imports_done_t``: ``time.time()`` when the CLI module was imported;
- with ``FBBENCH_CALLGRIND=1`` (the child runs under ``valgrind --tool=callgrind --instr-atstart=no``):
  callgrind's instrumentation is switched on at ``EntriesStarted`` and off at ``EntriesStopped``
  (``callgrind_control -i on|off PID``), so the profile counts the instructions of the entry phase only,
  per thread with ``--separate-threads=yes``: repeatable on a loaded machine, where CPU seconds are not;
  ``FBBENCH_CALLGRIND=steady``: from the quarter to the three quarters of the entries done instead (the
  steady state: ``steady_end_done - steady_done`` entries, without the first entries' one-time work such as
  loading the tagger's model);
- with ``FBBENCH_COUNT_CHECKPOINTS=1``: ``checkpointer`` = calls and seconds of
  each method of fbagent's checkpointer (``LoopSqliteSaver``: ``aput``,
  ``aput_writes``, ``aget_tuple``, ``adelete_thread``; they run on the event loop
  thread, so the seconds are its CPU), for the checkpointer's cost per node.

``ENCODER``: ``stand-in`` replaces the sentence encoder by :class:`HashEncoder`
(hashed bag of words, no torch), ``real`` keeps fbagent's default MiniLM.
"""

from __future__ import annotations

import cProfile
import json
import os
import resource
import sys
import threading
import time
import zlib

START_T = time.time()


class HashEncoder:
    """A stand-in sentence encoder that costs almost nothing: hashed bag of words, 384-d, L2-normalised rows."""

    name = "hash-bow-384"

    def encode(self, texts: list[str]):
        import numpy as np

        out = np.zeros((len(texts), 384), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().split():
                out[i, zlib.crc32(word.encode()) % 384] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of each live thread of this process, by thread name, from
    /proc/self/task/TID/stat (Linux; empty elsewhere). A thread that ended is not in it."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for t in threading.enumerate():
        try:
            with open(f"/proc/self/task/{t.native_id}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[t.name] = out.get(t.name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def _count_checkpoints(result: dict) -> None:
    from fbagent.generation.checkpoints import LoopSqliteSaver

    counts = result.setdefault("checkpointer", {})
    for name in ("aput", "aput_writes", "aget_tuple", "adelete_thread"):
        real = getattr(LoopSqliteSaver, name)

        def wrap(real=real, name=name):
            async def probe(self, *args, **kwargs):
                t = time.perf_counter()
                try:
                    return await real(self, *args, **kwargs)
                finally:
                    c = counts.setdefault(name, {"calls": 0, "awaited_s": 0.0})
                    c["calls"] += 1
                    c["awaited_s"] += time.perf_counter() - t
            return probe

        setattr(LoopSqliteSaver, name, wrap())


def _profile_checks(path: str) -> None:
    """FBBENCH_PROFILE_CHECKS=FILE: cProfile (thread CPU clock) of every call the checks' worker thread runs,
    written to FILE (pstats format) when the process exits."""
    import atexit

    from fbagent.agents import entry_graph

    profiler = cProfile.Profile(time.thread_time)
    run_in_thread = entry_graph.off_loop

    async def profiled(fn, /, *args, **kwargs):
        return await run_in_thread(profiler.runcall, fn, *args, **kwargs)

    entry_graph.off_loop = profiled
    atexit.register(profiler.dump_stats, path)


def _callgrind_instrument(state: str) -> None:
    """Switch callgrind's instrumentation of this process ``on`` or ``off`` (FBBENCH_CALLGRIND)."""
    import subprocess

    subprocess.run(["callgrind_control", "-i", state, str(os.getpid())], check=True, capture_output=True)


def main() -> None:
    result_path, encoder = sys.argv[1], sys.argv[2]
    args = sys.argv[sys.argv.index("--") + 1:]
    from fbagent import crash

    # the supervising parent (as `fbagent generate` is for users): it runs this script again as its child
    supervised = crash.supervise(["generate", *args], child=[sys.executable, os.path.abspath(__file__), *sys.argv[1:]])
    if supervised is not None:
        if supervised and not os.path.exists(result_path):   # the child died before writing: say so
            with open(result_path, "w", encoding="utf-8") as fh:
                json.dump({"exit_code": supervised, "supervised": True}, fh)
        sys.exit(supervised)
    result: dict = {"start_t": START_T, "supervised": os.environ.get(crash.CHILD_ENV) is not None}

    from fbagent import cli
    from fbagent.commands import generate_view
    from fbagent.generation import events

    result["imports_done_t"] = time.time()
    if encoder == "stand-in":
        from fbagent.verifier import startup as backends

        backends.load_encoder = lambda name: HashEncoder()
    if os.environ.get("FBBENCH_COUNT_CHECKPOINTS"):
        _count_checkpoints(result)

    shown = generate_view.GenerateView.__call__
    # FBBENCH_PROFILE=FILE: cProfile of the entry phase (main thread), written to FILE (pstats format)
    # (FBBENCH_PROFILE_CLOCK=cpu: the main thread's CPU clock instead of wall time, for a loaded machine)
    clock = time.thread_time if os.environ.get("FBBENCH_PROFILE_CLOCK") == "cpu" else time.perf_counter
    profiler = cProfile.Profile(clock) if os.environ.get("FBBENCH_PROFILE") else None

    callgrind = os.environ.get("FBBENCH_CALLGRIND", "")

    def probe(self, event):
        if isinstance(event, events.EntriesStarted):
            if callgrind and callgrind != "steady":
                _callgrind_instrument("on")
            result.update(entries_started_t=time.time(), cpu_started_s=time.process_time(), entries_todo=event.total,
                          threads_started=thread_cpu())
            if profiler is not None:
                profiler.enable()
        elif isinstance(event, events.Progress) and "steady_done" not in result and event.done * 4 >= event.total:
            result.update(steady_done=event.done, steady_cpu_s=time.process_time(), steady_t=time.time())
            if callgrind == "steady":
                _callgrind_instrument("on")
        elif isinstance(event, events.Progress) and "steady_end_done" not in result and event.done * 4 >= 3 * event.total:
            result.update(steady_end_done=event.done, steady_end_cpu_s=time.process_time(), steady_end_t=time.time())
            if callgrind == "steady":
                _callgrind_instrument("off")
        elif isinstance(event, events.EntriesStopped):
            if callgrind and callgrind != "steady":
                _callgrind_instrument("off")
            result.update(entries_stopped_t=time.time(), cpu_stopped_s=time.process_time(),
                          threads_stopped=thread_cpu())
            if profiler is not None:
                profiler.disable()
                profiler.dump_stats(os.environ["FBBENCH_PROFILE"])
        elif isinstance(event, events.SessionEnded):
            s = event.summary
            result.update(entries_done=s.entries_done, counts=s.counts, calls=s.calls, failures=s.failures,
                          cache_hits=s.cache_hits, entries_wall_s=s.entries_wall_s, wall_s=s.wall_s)
        return shown(self, event)

    generate_view.GenerateView.__call__ = probe
    if os.environ.get("FBBENCH_PROFILE_CHECKS"):
        _profile_checks(os.environ["FBBENCH_PROFILE_CHECKS"])
    from fbagent.verifier.encoder_batch import BatchEncoder

    closing = BatchEncoder.close

    def close_probe(self):   # the encoder worker's counters: encode calls, texts encoded, texts kept by text
        result["encoder_worker"] = {"batches": self.batches, "encoded": self.encoded, "cache_hits": self.cache_hits}
        loaded = getattr(self.encoder, "loaded", None)   # the encoder's own process: its CPU, load and encoding
        model = loaded.result() if loaded is not None and loaded.done() and loaded.exception() is None else None
        if getattr(model, "load_cpu_s", None) is not None:
            result["encoder_process"] = {"load_cpu_s": round(model.load_cpu_s, 3),
                                         "encode_cpu_s": round(model.cpu_s - model.load_cpu_s, 3)}
        return closing(self)

    BatchEncoder.close = close_probe
    sys.argv = ["fbagent", "generate", *args]
    code = 0
    try:
        cli.main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        result.update(exit_code=code, cpu_total_s=usage.ru_utime + usage.ru_stime, peak_rss_mb=usage.ru_maxrss / 1024,
                      end_t=time.time())
        with open(result_path, "w", encoding="utf-8") as fh:
            json.dump(result, fh)


if __name__ == "__main__":
    main()
