"""Native crashes become one line: the long commands run in a supervised child process.

``generate``, ``verifier calibrate`` and ``eval run|frame-id|sembench`` load native engines
(llama.cpp, PyTorch, vLLM) whose faults (``SIGSEGV``, ``SIGILL``, ``SIGBUS``, ``SIGABRT``) would kill
the Python process with no word but the shell's "Segmentation fault". On Linux, :func:`supervise`
runs such a command as a child process of a small parent that only waits:

- the child writes Python's fault traceback (:mod:`faulthandler`, every thread) to a crash log in
  ``~/.cache/fbagent/crashes/`` (``XDG_CACHE_HOME`` respected); nothing of it reaches the terminal;
- when the child dies of a signal, the parent prints one line: the signal, the engine whose frames
  the crashing thread was running (:func:`engine_of`), the log, that finished work is stored and the
  same command resumes, and the engine's fix; exit code 1. It also leaves a crash record, so that the
  next run of the command, which finds the session "killed before it finished", says why
  (:func:`crash_note`);
- SQLite commits are atomic (WAL), so a crash loses at most the entries in flight.

Signals: Ctrl-C in a terminal reaches both processes (one process group); the child handles it as
before, and the parent kills the child when it has not stopped :func:`interrupt_grace_s` after the first
Ctrl-C (exit 130, one line; nothing stored is lost: SQLite commits are atomic, predictions fsync'd). A signal sent to the parent alone (``kill -INT``, ``kill -TERM``) is
passed on to the child; if the parent is killed outright (``kill -9``), the kernel kills the child too
(``PR_SET_PDEATHSIG``), and the child's lifeline (below) ends it on any platform. ``FBAGENT_SUPERVISE=0``
runs every command in one process.

Lifelines (:func:`lifeline`, :func:`die_with_parent`): a child that must not outlive its parent (the
supervised command, the sentence encoder, the browser server's app processes) gets the read end of a pipe
whose only write end stays in the parent. When the parent ends, however it ends (``kill -9`` included), the
kernel closes that write end and the child's read returns end-of-file: the child then ends (a signal to
itself, then ``_exit`` after a grace). This works wherever pipes do, needs no ``PR_SET_PDEATHSIG`` (Linux
only, and tied to the thread that started the child) and, with ``watchdog="process"``, does not wait for the
child's interpreter lock either (a child loading torch holds it for seconds): a forked watchdog process
blocks on the pipe and signals the child.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

CHILD_ENV = "FBAGENT_CRASH_LOG"
PARENT_ENV = "FBAGENT_SUPERVISOR_PID"
CRASH_SIGNALS = {signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGABRT, signal.SIGKILL}
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
_PR_SET_PDEATHSIG = 1
#: In a child started with :func:`lifeline`: ``"FD:PID"``, the pipe's read end and the parent's pid.
LIFELINE_ENV = "FBAGENT_LIFELINE"
_lifeline_pipe: tuple[int, int] | None = None   # (read end, write end) of this process's lifeline

# engine -> (the frames that name it, the fix)
ENGINES: dict[str, tuple[tuple[str, ...], str]] = {
    "llama.cpp (llama-cpp-python)": (
        ("/llama_cpp/",),
        "set FBAGENT_LLAMA_EXTRA_BUFTS=0, or reinstall a portable build: CMAKE_ARGS='-DGGML_NATIVE=OFF' "
        "pip install --force-reinstall --no-cache-dir --no-deps llama-cpp-python"),
    "vLLM": (("/vllm/",), "check the GPU driver and the vLLM/torch versions (scripts/gpu_check_vllm.py)"),
    "PyTorch": (
        ("/torch/", "/sentence_transformers/", "/transformers/"),
        "reinstall the CPU build of PyTorch (pip install --force-reinstall torch==2.13.0), or set "
        "OMP_NUM_THREADS=1 to rule out a threading fault"),
}


def crash_dir() -> Path:
    """Where crash logs and records go: ``$XDG_CACHE_HOME/fbagent/crashes`` or ``~/.cache/fbagent/crashes``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fbagent" / "crashes"


def command_words(argv: list[str]) -> str:
    """The words of ``argv`` before its first option, two at most (``"eval run"``), for the crash line."""
    words: list[str] = []
    for arg in argv:
        if arg.startswith("-") or len(words) == 2:
            break
        words.append(arg)
    return " ".join(words)


def engine_of(log: str) -> tuple[str, str] | None:
    """``(engine, fix)`` whose frames the crashing thread ran, from a :mod:`faulthandler` log; ``None``
    when no known engine is on that stack."""
    current = re.search(r"(?ms)^Current thread 0x[0-9a-f]+ \(most recent call first\):\n(.*?)(?:\n\n|\Z)", log)
    block = current.group(1) if current else log
    for engine, (marks, fix) in ENGINES.items():
        if any(mark in block for mark in marks):
            return engine, fix
    return None


def _record_path(host: str, pid: int) -> Path:
    return crash_dir() / f"{re.sub(r'[^A-Za-z0-9._-]', '_', host)}-{int(pid)}.json"


def crash_note(host: str | None, pid: int | None) -> str | None:
    """What the crash record of process ``pid`` on ``host`` says (``"it crashed with SIGSEGV in
    llama.cpp ...; crash log: PATH"``), or ``None`` when that process left none."""
    if host is None or pid is None:
        return None
    try:
        rec = json.loads(_record_path(host, pid).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    where = f" in {rec['engine']}" if rec.get("engine") else ""
    return f"it crashed with {rec.get('signal', 'a signal')}{where} (crash log: {rec.get('log')}; fix: {rec.get('fix')})"


def invocation_pid() -> int:
    """The pid of the command the user started: the supervisor's in a supervised child (what ``ps`` shows
    and ``kill`` is sent to; it lives exactly as long as the child), else this process's."""
    if os.environ.get(CHILD_ENV) is not None:
        try:
            return int(os.environ[PARENT_ENV])
        except (KeyError, ValueError):
            pass
    return os.getpid()


def _child_setup() -> None:  # runs in the child between fork and exec
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {*_FORWARDED, signal.SIGCHLD})
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux glibc: the child may outlive a killed parent
        pass


def lifeline(signum: int = signal.SIGTERM, grace_s: float = 1.0,
             watchdog: str = "thread") -> tuple[dict[str, str], tuple[int, ...]]:
    """What a child that must end with this process is started with: ``(env additions, pass_fds)``.

    Pass both to ``subprocess.Popen`` / ``asyncio.create_subprocess_exec`` (the env on top of the
    child's environment), and start the child with :func:`lifeline_argv` (it calls :func:`die_with_parent`
    before importing anything else) or call :func:`die_with_parent` first thing in it. When this process ends,
    ``signum`` is sent to the child, then SIGKILL ``grace_s`` seconds later; ``watchdog``: ``"thread"`` (a
    daemon thread of the child blocks on the pipe) or ``"process"`` (a forked process does: for a child whose
    interpreter lock is held for seconds, e.g. while torch loads). One pipe per process: its write end is
    never inherited (close-on-exec), so only this process keeps it open.
    """
    global _lifeline_pipe
    if _lifeline_pipe is None:
        _lifeline_pipe = os.pipe()   # both ends close-on-exec; pass_fds hands the read end to one child
    spec = f"{_lifeline_pipe[0]}:{os.getpid()}:{int(signum)}:{grace_s}:{watchdog}"
    return {LIFELINE_ENV: spec}, (_lifeline_pipe[0],)


#: the program of :func:`lifeline_argv`: the lifeline first (fbagent.crash imports the standard library only)
_LAUNCH = ("import runpy, sys\nfrom fbagent import crash\ncrash.die_with_parent()\ndel sys.argv[0]\n"
           "runpy.run_module(sys.argv[0], run_name='__main__', alter_sys=True)\n")


def lifeline_argv(module: str, *args: str) -> list[str]:
    """``python -c LAUNCH MODULE ARGS``: runs ``python -m MODULE ARGS`` after taking the lifeline, so that a child
    whose parent is killed while the child still imports (seconds on a busy machine) ends too."""
    return [sys.executable, "-c", _LAUNCH, module, *args]


def die_with_parent() -> bool:
    """In a child started with :func:`lifeline`: end this process when its parent ends (see the module doc and
    :func:`lifeline` for the signal, grace and watchdog). Returns whether a lifeline was found (a second call
    finds none). The variable is removed from the environment (not passed to grandchildren).
    """
    spec = os.environ.pop(LIFELINE_ENV, None)
    try:
        fd_text, _parent, sig_text, grace_text, watchdog = (spec or "").split(":")
        fd, signum, grace_s = int(fd_text), int(sig_text), float(grace_text)
        os.set_inheritable(fd, False)
    except (ValueError, OSError):
        return False
    me = os.getpid()
    if watchdog == "process" and os.fork() == 0:   # the watchdog: no interpreter lock shared with the child
        devnull = os.open(os.devnull, os.O_RDWR)
        for std in (0, 1, 2):   # it holds none of the child's pipes: the child's end is seen at once
            os.dup2(devnull, std)
        os.closerange(3, fd)
        os.closerange(fd + 1, 65536)
        _watch_pipe(fd, me, signum, grace_s, lambda: os.getppid() != me)
        os._exit(0)
    elif watchdog != "process":
        import threading

        threading.Thread(target=_watch_pipe, args=(fd, me, signum, grace_s, lambda: False),
                         name="fbagent-lifeline", daemon=True).start()
    return True


def _watch_pipe(fd: int, child: int, signum: int, grace_s: float, child_gone: Callable[[], bool]) -> None:
    """Block until the lifeline ``fd`` ends (or ``child_gone()``), then signal ``child``: ``signum``, and
    SIGKILL after ``grace_s`` seconds."""
    import select

    while True:   # the write end is the parent's alone: end-of-file = the parent is gone
        ready, _, _ = select.select([fd], [], [], 0.5)
        if child_gone():
            return
        if ready and not os.read(fd, 1):
            break
    for sig, wait_s in ((signum, grace_s), (signal.SIGKILL, 0.0)):
        try:
            os.kill(child, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and not child_gone():
            time.sleep(0.05)
        if child_gone():
            return


def enable_in_child() -> None:
    """In a supervised child: die with the supervisor (its lifeline); stop on SIGTERM as on Ctrl-C (``timeout``,
    ``kill PID``, a service manager: the run is recorded ``interrupted`` and the same command resumes it); write
    fault tracebacks of every thread to the log the parent named."""
    die_with_parent()
    signal.signal(signal.SIGTERM, _term_as_interrupt)
    path = os.environ.get(CHILD_ENV)
    if not path:
        return
    import faulthandler

    try:  # a raw descriptor: it stays open for the process's life (no unclosed-file warning at exit)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    except OSError:
        return
    faulthandler.enable(file=fd, all_threads=True)


def _term_as_interrupt(signum: int, frame: object) -> None:
    """SIGTERM handler of a supervised child: raise SIGINT in this process, so that asyncio's runner cancels the
    command's task (or Python raises KeyboardInterrupt) exactly as for Ctrl-C."""
    os.kill(os.getpid(), signal.SIGINT)


def supervise(argv: list[str], child: list[str] | None = None) -> int | None:
    """Run ``fbagent ARGV`` in a supervised child (the CLI asks for :data:`fbagent.commands.supervised.SUPERVISED`; Linux only;
    not for ``--help``; not inside a child; not with ``FBAGENT_SUPERVISE=0``). Returns the exit code to
    exit with, or ``None`` when this process should run the command itself.

    ``child``: the child's command line (default ``python -m fbagent.cli ARGV``); a program that runs the
    CLI in-process with probes (``benchmarks/generate_child.py``) passes itself, so that its probes run
    where the command does."""
    if os.environ.get(CHILD_ENV) is not None:
        enable_in_child()
        return None
    if os.environ.get("FBAGENT_SUPERVISE", "1").strip() == "0" or not sys.platform.startswith("linux"):
        return None
    import subprocess

    folder = crash_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # nowhere to log: run unsupervised rather than not at all
    log = folder / f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.log"
    line_env, line_fds = lifeline(signal.SIGKILL, 0.0)
    env = {**os.environ, CHILD_ENV: str(log), PARENT_ENV: str(os.getpid()), **line_env}
    signal.pthread_sigmask(signal.SIG_BLOCK, {*_FORWARDED, signal.SIGCHLD})
    try:
        proc = subprocess.Popen(child or [sys.executable, "-m", "fbagent.cli", *argv], env=env,
                                preexec_fn=_child_setup, pass_fds=line_fds)
    except OSError:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {*_FORWARDED, signal.SIGCHLD})
        return None
    grace_s = interrupt_grace_s()
    interrupted_at: float | None = None   # the first Ctrl-C (or kill -INT / -TERM), monotonic seconds
    by = "Ctrl-C"                         # what stopped it, as the closing line names it
    stopped = False                       # the child outlived the grace after Ctrl-C and was killed
    while proc.poll() is None:
        info = signal.sigtimedwait({*_FORWARDED, signal.SIGCHLD}, 0.5 if interrupted_at is None else 0.05)
        if info is not None and info.si_signo != signal.SIGCHLD and info.si_code <= 0 and proc.poll() is None:
            os.kill(proc.pid, info.si_signo)  # sent to this process alone (kill, not a terminal key)
        if info is not None and info.si_signo in (signal.SIGINT, signal.SIGTERM) and interrupted_at is None:
            interrupted_at = time.monotonic()
            by = "Ctrl-C" if info.si_signo == signal.SIGINT else "SIGTERM"
        if interrupted_at is not None and time.monotonic() - interrupted_at > grace_s and proc.poll() is None:
            proc.kill()  # stored work is committed (SQLite) or fsync'd (predictions): a kill loses nothing stored
            proc.wait()
            stopped = True
    code = proc.returncode
    if interrupted_at is not None:   # the child left its database unclosed to stop at once: close it here
        checkpoint_after_interrupt(argv)
    if stopped:
        log.unlink(missing_ok=True)
        sys.stderr.write(f"interrupted: stopped {grace_s:g} s after {by}; everything finished so far "
                         "is stored; run the same command again to resume.\n")
        return 130
    if code >= 0 or -code not in CRASH_SIGNALS:
        log.unlink(missing_ok=True)
        return code if code >= 0 else 128 - code
    return _report(argv, os.getpid(), -code, log)


def checkpoint_after_interrupt(argv: list[str]) -> None:
    """After a supervised command stopped on Ctrl-C (itself, or killed after the grace): copy the write-ahead
    logs of its database (``--db``, else ``FBAGENT_DB``, else ``framebench.db``) and of the generation
    checkpoints beside it into their files, so that no ``-wal`` is left and the ``.db`` file alone holds every
    committed row. The child leaves this to its supervisor on Ctrl-C (:func:`interrupted_child`): a
    checkpoint waits for the disk, and the child must stop within the grace. Database errors are ignored:
    the log is recovered by the next command that opens the file anyway."""
    import sqlite3

    db = db_path_of(argv)
    for path in (db, db.with_name(db.stem + ".checkpoints.db")):
        if not Path(f"{path}-wal").exists():
            continue
        try:
            conn = sqlite3.connect(str(path), timeout=5.0)
            try:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                conn.close()   # the last connection: SQLite removes the -wal and -shm files
        except sqlite3.Error:
            pass


def db_path_of(argv: list[str]) -> Path:
    """The database a command line ``argv`` works on: ``--db PATH`` / ``--db=PATH``, else ``FBAGENT_DB``,
    else ``framebench.db`` (the default of every command's ``--db``)."""
    db = Path(os.environ.get("FBAGENT_DB") or "framebench.db")
    for i, arg in enumerate(argv):
        if arg == "--db" and i + 1 < len(argv):
            db = Path(argv[i + 1])
        elif arg.startswith("--db="):
            db = Path(arg[len("--db="):])
    return db


def interrupted_child(exiting: BaseException | None) -> bool:
    """Whether this process is a supervised child leaving on Ctrl-C (``exiting``: the exception on its way
    out: ``KeyboardInterrupt`` or ``SystemExit(130)``); its supervisor then closes the database for it
    (:func:`checkpoint_after_interrupt`)."""
    if os.environ.get(CHILD_ENV) is None:
        return False
    return isinstance(exiting, KeyboardInterrupt) or (isinstance(exiting, SystemExit) and exiting.code == 130)


def interrupt_grace_s() -> float:
    """Seconds a supervised command may take to stop after Ctrl-C before the supervisor kills it
    (env ``FBAGENT_INTERRUPT_GRACE_S``, default 1.5): a command normally stops within a second
    (in-flight llama.cpp decodes are aborted, API requests cancelled); a call that cannot be
    interrupted (a library that swallows the cancellation, a native loop) must not keep the prompt."""
    try:
        return max(0.1, float(os.environ.get("FBAGENT_INTERRUPT_GRACE_S", "1.5")))
    except ValueError:
        return 1.5


def _report(argv: list[str], pid: int, signum: int, log: Path) -> int:
    """Say in one line that the command (``pid``: its :func:`invocation_pid`) died of ``signum``; leave the
    crash record under that pid; exit code 1."""
    name = signal.Signals(signum).name
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    found = engine_of(text)
    engine, fix = found if found else (None, "run the same command again (it resumes); if it crashes again, "
                                             f"report the crash log {log}")
    if signum == signal.SIGKILL:
        engine, fix = None, "free memory (the kernel kills processes that run out: dmesg says so) or lower --concurrency"
    command = command_words(argv)
    where = f" inside {engine}" if engine else ""
    kind = "was killed (SIGKILL: out of memory, or kill -9)" if signum == signal.SIGKILL else \
        f"crashed{where} ({name}, a native fault)"
    line = (f"error: fbagent {command} {kind}; finished work is stored and the same command resumes; "
            f"traceback: {log if text.strip() else 'none'}. Fix: {fix}")
    record = {"signal": name, "engine": engine, "fix": fix, "log": str(log), "command": command,
              "time": time.strftime("%Y-%m-%dT%H:%M:%S")}
    try:
        _record_path(socket.gethostname(), pid).write_text(json.dumps(record), encoding="utf-8")
    except OSError:
        pass
    colour = sys.stderr.isatty() and not os.environ.get("NO_COLOR")
    sys.stderr.write((f"\x1b[31m{line}\x1b[0m" if colour else line) + "\n")
    sys.stderr.flush()
    return 1
