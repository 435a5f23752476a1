"""Ctrl-C that lands in a callback from native code is not lost (fbagent.providers.cancel).

Each case runs a small script in a fresh interpreter (its own signal handlers) and reads what it
printed: ``lost`` when the script ran on after the interrupt, ``interrupted`` when the interrupt
reached the script's own ``except KeyboardInterrupt``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# libc's qsort calls a Python comparison function (a ctypes callback) for every comparison: the main
# thread spends its time inside callbacks called from C, as it does while llama.cpp loads a model and
# logs through llama-cpp-python's callback. The interrupt comes from a timer thread 0.3 s in.
QSORT = """
import ctypes, os, signal, threading, time
libc = ctypes.CDLL(None)
CMP = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int))
def compare(a, b):
    time.sleep(0.0005)
    return a[0] - b[0]
callback = CMP(compare)
values = (ctypes.c_int * 3000)(*range(3000, 0, -1))
def sort():
    libc.qsort(values, len(values), ctypes.sizeof(ctypes.c_int), callback)
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
t0 = time.monotonic()
try:
    {call}
    print("lost", round(time.monotonic() - t0, 2))
except KeyboardInterrupt:
    print("interrupted", round(time.monotonic() - t0, 2))
"""


def _run(script: str) -> list[str]:
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()


def test_qsort_in_the_main_thread_loses_the_interrupt_as_python_does():
    # the reference: without fbagent's help the interrupt is swallowed inside the callback
    word, _ = _run(QSORT.replace("{call}", "sort()"))
    assert word == "lost"


def test_a_native_call_in_a_worker_thread_is_interrupted_at_once():
    script = "from fbagent.providers.cancel import in_worker_thread\n" + QSORT.replace(
        "{call}", "in_worker_thread(sort)")
    word, seconds = _run(script)
    assert word == "interrupted" and float(seconds) < 2.0


@pytest.mark.parametrize("relay", [False, True])
def test_an_interrupt_swallowed_in_a_del_is_raised_again(relay):
    script = f"""
    import time
    from fbagent.providers.cancel import relay_swallowed_interrupts
    if {relay}:
        relay_swallowed_interrupts()
    class Holder:
        def __del__(self):
            raise KeyboardInterrupt  # what Python's handler raises when Ctrl-C lands in a __del__
    try:
        Holder()
        for _ in range(200):
            time.sleep(0.01)
        print("lost")
    except KeyboardInterrupt:
        print("interrupted")
    """
    assert _run(script) == (["interrupted"] if relay else ["lost"])


def test_in_worker_thread_returns_the_value_and_raises_the_error():
    from fbagent.providers.cancel import in_worker_thread

    assert in_worker_thread(lambda: 41 + 1) == 42
    with pytest.raises(ValueError, match="bad model file"):
        in_worker_thread(lambda: (_ for _ in ()).throw(ValueError("bad model file")))
