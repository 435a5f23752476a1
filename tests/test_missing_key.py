"""A backend's missing API key is refused in one line before anything is read, printed or stored."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

KEY_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "GEMINI_API_KEY", "GOOGLE_API_KEY")


def _fbagent(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k != "FBAGENT_DB"}
    return subprocess.run([sys.executable, "-m", "fbagent.cli", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, var", [
    (("generate", "--pairs", "1", "--generator", "openai"), "OPENAI_API_KEY"),
    (("generate", "--pairs", "1", "--generator", "gemini"), "GEMINI_API_KEY"),
    (("generate", "--pairs", "1", "--generator", "local", "--verifier-generator", "openai"), "OPENAI_API_KEY"),
    (("verifier", "calibrate", "--generator", "openai"), "OPENAI_API_KEY"),
])
def test_a_missing_key_is_one_line_and_no_database(tmp_path, args, var):
    done = _fbagent(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the ") and var in lines[0] and "Fix: export" in lines[0], lines
    assert not list(tmp_path.iterdir())   # no database, no -wal, nothing


def test_a_dry_run_without_the_key_still_plans_and_warns(tmp_path):
    done = _fbagent(tmp_path, "generate", "--pairs", "1", "--generator", "openai", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "Plan (--dry-run" in done.stdout and "the real run needs OPENAI_API_KEY" in done.stderr + done.stdout


def test_a_missing_extra_is_named_before_anything_is_stored(tmp_path_factory):
    """The gemini backend without google-genai (blocked in every process of the command by a sitecustomize): the
    extra to install, in one line, before the embedded lexicon is imported into a new database (it used to be
    found only after that)."""
    block = tmp_path_factory.mktemp("block")
    (block / "sitecustomize.py").write_text("import sys\nsys.modules['google.genai'] = None\n")
    work = tmp_path_factory.mktemp("work")
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k != "FBAGENT_DB"}
    env.update(GEMINI_API_KEY="x", PYTHONPATH=str(block))
    done = subprocess.run([sys.executable, "-m", "fbagent.cli", "generate", "--pairs", "1", "--generator", "gemini"],
                          cwd=work, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert lines == ["error: the Python package 'google-genai' is not installed. Fix: pip install 'fbagent[gemini]'"]
    assert not list(work.iterdir())
