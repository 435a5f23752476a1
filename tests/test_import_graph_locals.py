"""scripts/import_graph.py's count of function-local imports (issue 32): a local import of an fbagent module
whose import loads a lazy package (heavy list, optional extras, deferred) is counted apart from the others;
third-party local imports by category."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_local_imports_are_counted_by_what_they_load(tmp_path, monkeypatch):
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import import_graph
    finally:
        sys.path.remove(str(REPO / "scripts"))
    pkg = tmp_path / "fbagent"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "screen.py").write_text("import textual\n")                       # loads a heavy package
    (pkg / "wrapper.py").write_text("from fbagent import screen\n")         # ... through another module
    (pkg / "light.py").write_text("import json\n")
    (pkg / "lazy").mkdir()                                                  # loads its names on first use
    (pkg / "lazy" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fbagent.screen import App\n"
        "def __getattr__(name):\n    raise AttributeError(name)\n")
    (pkg / "user.py").write_text(
        "def a():\n    from fbagent.wrapper import screen\n\n"
        "def b():\n    from fbagent import light\n\n"
        "def d():\n    from fbagent.lazy import App\n\n"
        "def c():\n    import torch\n    import jieba\n    import langgraph\n    import rich\n"
        "    def inner():\n        import rich.console\n")
    monkeypatch.setattr(import_graph, "REPO", tmp_path)
    monkeypatch.setattr(import_graph, "FOLDERS", {"fbagent": "fbagent"})
    modules = import_graph.collect_modules()
    assert import_graph.deferred_loads(modules)["fbagent.wrapper"] == {"textual"}
    assert import_graph.deferred_loads(modules)["fbagent.light"] == set()
    line = import_graph.local_imports_line(modules)
    assert ("of fbagent modules 3: of modules that load a lazy package 2 [fbagent.lazy:names (textual), "
            "fbagent.wrapper (textual)]") in line
    assert "other 1 (fbagent.light 1)" in line
    assert ("of third-party packages 5: heavy list 1 (torch 1); optional extras 1 (jieba 1); "
            "deferred 1 (langgraph 1); other 2 (rich 2)") in line
