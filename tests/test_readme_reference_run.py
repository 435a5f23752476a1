"""README's reference run: `fbagent generate --pairs 3 --generator local` (the offline Gemma 3 270M through
transformers + llguidance, seed 0) gives the entries, statuses and LLM calls the README states.

The run takes about 104 CPU seconds (102 s on a quiet 2-core machine, 17 minutes at load 10), so it runs only when asked:
``FBAGENT_REFERENCE_RUN=1 python -m pytest -q tests/test_readme_reference_run.py`` (and needs the ``local`` extra). What the README
claims is read from its text, so README and test cannot drift apart; :func:`reference_counts` and
:func:`run_counts` are checked on every run of the suite.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from factories import make_db

from fbagent.providers import installed

ROOT = Path(__file__).resolve().parents[1]
FBAGENT = Path(sys.executable).with_name("fbagent")
CLAIM = re.compile(r"`generate` made (\d+) entries in [^(]*\((\d+) flagged, (\d+) rejected; (\d+) LLM calls\)")


def reference_counts(readme: str) -> dict[str, int]:
    """``{"entries", "flagged", "rejected", "calls"}`` as README.md states them for its reference run."""
    m = CLAIM.search(" ".join(readme.split()))
    assert m, "README.md no longer states the reference run as '`generate` made N entries in ... (F flagged, R rejected; C LLM calls)'"
    entries, flagged, rejected, calls = (int(g) for g in m.groups())
    return {"entries": entries, "flagged": flagged, "rejected": rejected, "calls": calls}


def run_counts(db: Path) -> dict[str, int]:
    """The same counts for the one run stored in ``db`` (read-only)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        status = dict(conn.execute("SELECT status, COUNT(*) FROM items GROUP BY status").fetchall())
        calls = conn.execute("SELECT COUNT(*) FROM llm_calls").fetchone()[0]
    finally:
        conn.close()
    return {"entries": sum(status.values()), "flagged": status.get("flagged", 0),
            "rejected": status.get("rejected", 0), "calls": calls}


def test_the_readme_states_its_reference_run():
    assert reference_counts((ROOT / "README.md").read_text(encoding="utf-8")) == {
        "entries": 3, "flagged": 1, "rejected": 2, "calls": 14}


def test_run_counts_reads_statuses_and_calls(tmp_path):
    db = make_db(tmp_path / "fb.db", n=3)   # 3 items of the factory's run, no LLM call
    db.conn.execute("UPDATE items SET status = 'flagged'")
    db.conn.commit()
    db.conn.close()
    assert run_counts(tmp_path / "fb.db") == {"entries": 3, "flagged": 3, "rejected": 0, "calls": 0}


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("FBAGENT_REFERENCE_RUN") != "1",
                    reason="the README's reference run takes about 104 CPU seconds: set FBAGENT_REFERENCE_RUN=1")
@pytest.mark.skipif(not installed("llguidance"), reason="needs the local extra (transformers, llguidance, gguf)")
def test_the_readme_command_gives_the_readme_numbers(tmp_path):
    proc = subprocess.run([str(FBAGENT), "generate", "--pairs", "3", "--generator", "local"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=3600, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert run_counts(tmp_path / "framebench.db") == reference_counts((ROOT / "README.md").read_text(encoding="utf-8"))
