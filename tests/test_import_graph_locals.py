"""scripts/import_graph.py's count of function-local imports (issue 32; docs/architecture.md, "Checks that keep the layout"): every fbagent module
imported inside a function is counted (target 0) and listed by ``file:line``; third-party ones are the heavy
list's (by package: a listed submodule such as ``jieba.posseg`` or ``google.genai`` is heavy, its package is
not) or others (target 0, by ``file:line``); the PEP 562 lazy packages with the names they defer; ``--measure``
times each heavy package's import in a fresh process."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _import_graph():
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import import_graph
    finally:
        sys.path.remove(str(REPO / "scripts"))
    return import_graph


def test_local_imports_are_counted_fbagent_modules_and_heavy_or_other_packages(tmp_path, monkeypatch):
    import_graph = _import_graph()
    pkg = tmp_path / "fbagent"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "screen.py").write_text("import textual.app\n")                   # loads a heavy package
    (pkg / "wrapper.py").write_text("from fbagent import screen\n")         # ... through another module
    (pkg / "light.py").write_text("import json\ntry:\n    import jieba\nexcept ImportError:\n    jieba = None\n")
    (pkg / "lazy").mkdir()                                                  # loads its names on first use
    (pkg / "lazy" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fbagent.screen import App\n"
        "__all__ = ['App', 'VERSION']\nVERSION = 1\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n")
    (pkg / "assigned").mkdir()                                              # __getattr__ assigned, not defined
    (pkg / "assigned" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nfrom fbagent.lean import lazy_attributes\n"
        "if TYPE_CHECKING:\n    from fbagent.light import jieba\n"
        "_MODULES = {'fbagent.light': ('jieba',)}\n__getattr__ = lazy_attributes(__name__, _MODULES)\n")
    (pkg / "user.py").write_text(
        "def a():\n    from fbagent.wrapper import screen\n\n"
        "def b():\n    from fbagent import light\n\n"
        "def d():\n    from fbagent.lazy import App\n\n"
        "def c():\n    import torch\n    import jieba\n    import jieba.posseg\n    from google import genai\n"
        "    import langgraph\n    import rich\n    import os\n"
        "    def inner():\n        import rich.console\n")
    monkeypatch.setattr(import_graph, "REPO", tmp_path)
    monkeypatch.setattr(import_graph, "FOLDERS", {"fbagent": "fbagent"})
    modules = import_graph.collect_modules()
    assert import_graph.deferred_loads(modules)["fbagent.wrapper"] == {"textual"}
    assert import_graph.deferred_loads(modules)["fbagent.light"] == set()
    summary, *own = import_graph.local_imports_report(modules)
    assert summary == ("function-local imports: of fbagent modules 3; of third-party packages: heavy list 4 "
                       "(google.genai 1, jieba.posseg 1, langgraph 1, torch 1), other 3 (fbagent/user.py:12 jieba, "
                       "fbagent/user.py:16 rich, fbagent/user.py:19 rich.console)")
    assert own == ["  fbagent/user.py:2: fbagent.wrapper", "  fbagent/user.py:5: fbagent.light",
                   "  fbagent/user.py:8: fbagent.lazy"]
    assert import_graph.local_imports_line(modules) == summary
    assert import_graph.lazy_packages(modules) == {"fbagent.assigned": {"fbagent.light": ["jieba"]},
                                                   "fbagent.lazy": {"fbagent.screen": ["App"]}}
    assert import_graph.lazy_packages_report(modules) == [
        "lazy packages (PEP 562 __getattr__): 2",
        "  fbagent.assigned defers fbagent.light: jieba (keeps out light: jieba)",
        "  fbagent.lazy defers fbagent.screen: App (keeps out heavy: textual)"]


def test_heavy_entries_match_a_package_or_the_listed_submodule():
    import_graph = _import_graph()
    assert import_graph.heavy_entry("textual.app.App") == "textual"
    assert import_graph.heavy_entry("jieba.posseg") == "jieba.posseg" and import_graph.heavy_entry("jieba") is None
    assert import_graph.heavy_entry("google.genai.types") == "google.genai"
    assert import_graph.heavy_entry("google.protobuf") is None and import_graph.heavy_entry("numpy") is None
    assert import_graph.THRESHOLD_MS == 50 and import_graph.HEAVY["textual"] == "textual.app"


def test_measure_times_each_heavy_package_and_names_those_not_installed(monkeypatch):
    import_graph = _import_graph()
    monkeypatch.setattr(import_graph, "HEAVY", {"json": "json.decoder", "no_such_package_x": "no_such_package_x"})
    header, installed, missing = import_graph.measure_heavy(runs=1)
    assert "min of 1" in header and "threshold 50 ms (textual.app's cost)" in header
    assert installed.split()[:2] == ["json", "json.decoder"] and installed.endswith("ms  below 50 ms")
    assert missing.split() == ["no_such_package_x", "no_such_package_x", "not", "installed"]
