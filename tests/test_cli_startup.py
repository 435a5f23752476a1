"""`fbagent --help` must stay light: no torch, langgraph, textual, vllm (lazy imports)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = (
    "torch",
    "langgraph",
    "textual",
    "vllm",
    "transformers",
    "sentence_transformers",
    "instructor",
    "openai",
    "nltk",
    "matplotlib",
    "statsmodels",
)

PROBE = """
import sys
from typer.testing import CliRunner
from fbagent.cli import app
runner = CliRunner()
for args in (["--help"], ["lexicon", "--help"], ["generate", "--help"], ["eval", "--help"],
             ["annotate", "--help"], ["export", "--help"], ["validate", "--help"], ["runs", "--help"],
             ["pairs", "--help"], ["audit", "--help"], ["annotators", "--help"], ["db", "--help"],
             ["verifier", "--help"]):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, (args, result.output)
print(",".join(sorted(m for m in %r if m in sys.modules)))
"""


def test_help_imports_no_heavy_module():
    out = subprocess.run(
        [sys.executable, "-c", PROBE % (HEAVY,)], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"--help imported heavy modules: {out}"


def test_help_lists_command_groups():
    out = subprocess.run(
        [sys.executable, "-m", "fbagent.cli", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for group in ("lexicon", "pairs", "generate", "runs", "annotate", "validate", "export", "eval"):
        assert group in out
