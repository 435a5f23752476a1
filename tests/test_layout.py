"""Layout rules of docs/architecture.md, checked by the two scripts anyone can run.

- ``python scripts/import_graph.py``: no import cycle (function-local imports included), no import
  from a lower room to a higher one, at most 10 modules at the ``fbagent/`` root;
- ``python scripts/long_functions.py``: no function or method over 80 lines in fbagent/, store/,
  tui/ or eval/ unless a docstring line ``Long because: ...`` gives the reason.

Each test fails with the script's own report, which names every offending import, or every long
function with its file, line and length, so the fix is visible in the test output.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(REPO / "scripts" / script)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.layout
def test_import_graph_has_no_cycle_no_upward_import_and_few_root_modules():
    res = _run("import_graph.py")
    assert res.returncode == 0, f"LAYOUT: scripts/import_graph.py found a broken rule:\n{res.stdout}{res.stderr}"
    assert "cycles: 0" in res.stdout and "upward imports: 0" in res.stdout


@pytest.mark.layout
def test_no_function_over_80_lines_without_a_reason():
    res = _run("long_functions.py")
    assert res.returncode == 0, (
        "LAYOUT: functions over 80 lines without a 'Long because:' docstring line "
        f"(path:line: name is N lines):\n{res.stdout}{res.stderr}"
    )
    assert "long functions without a reason: 0" in res.stdout


def test_long_functions_counts_lines_and_reads_the_reason(tmp_path, monkeypatch):
    """The checker's own rule on a made-up module: length from ``def`` to the last line, nested
    functions included unless ``own``; a ``Long because:`` docstring line passes the function."""
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import import_graph
        import long_functions
    finally:
        sys.path.remove(str(REPO / "scripts"))
    body = "\n".join(f"    x{i} = {i}" for i in range(85))
    (tmp_path / "fbagent").mkdir()
    (tmp_path / "fbagent" / "m.py").write_text(
        f"def long():\n{body}\n\n"
        f'def excused():\n    """Short summary.\n\n    Long because: one flat table.\n    """\n{body}\n\n'
        "def outer():\n    def inner():\n" + "\n".join(f"        y{i} = {i}" for i in range(85)) + "\n    return inner\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(import_graph, "REPO", tmp_path)
    monkeypatch.setattr(long_functions, "REPO", tmp_path)
    monkeypatch.setattr(import_graph, "FOLDERS", {"fbagent": "fbagent"})
    found = {f.name: f for f in long_functions.long_functions()}
    assert (found["fbagent.m.long"].lines, found["fbagent.m.long"].line, found["fbagent.m.long"].reason) == (86, 1, None)
    assert found["fbagent.m.excused"].reason == "one flat table."
    assert found["fbagent.m.excused"].lines == 90  # def + 4 docstring lines + 85
    assert found["fbagent.m.outer"].lines == 88 and found["fbagent.m.outer.inner"].lines == 86
    own = {f.name for f in long_functions.long_functions(own=True)}
    assert own == {"fbagent.m.long", "fbagent.m.excused", "fbagent.m.outer.inner"}
