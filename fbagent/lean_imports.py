"""Imports that load only what is used: sqlite-utils without pandas and numpy; a package's names on first use.

**sqlite-utils without pandas and numpy** (the store's import costs 50 ms instead of 280 ms).

``sqlite_utils.db`` imports pandas and numpy at module level whenever they are installed (they are: the
``datasets`` and sentence-encoder dependencies bring them), only to map ``numpy.int64``, ``numpy.float32``, ...
and ``pandas.Timestamp`` to column types when a table's columns are inferred from inserted values. That import
was 0.23 s of CPU (pandas 0.12, numpy 0.03, measured with ``python -X importtime``) in every command that opens
a database, ``fbagent runs list`` as much as ``generate``, and it put numpy into ``fbagent verifier --help``
(tests/test_calibration.py).

:func:`install` (called by :mod:`fbagent`'s ``__init__``, before any fbagent module imports sqlite-utils) puts a
finder first on ``sys.meta_path`` that wraps the loader of ``sqlite_utils.db``: while that one module runs,
in the importing thread only, pandas and numpy are "not installed" unless already loaded (sqlite-utils catches
the ``ImportError`` and skips them; another thread's imports are untouched). The column-type table then maps
numpy and pandas types on first use (:class:`ColumnTypes`), so a numpy value in an inserted row gets the
column type it got before. The finder does nothing after that import, nor when sqlite-utils was imported
before fbagent.

**A package's names on first use** (:func:`lazy_attributes`, PEP 562): the package ``__init__`` of a room that a
command calls into lists the names it hands out by module; ``fbagent COMMAND --help`` imports the command's module
and the package, and the room's modules (and the third-party packages they load at module level) load when the
command runs and first reads a name. ``python scripts/import_graph.py`` lists these packages and what each keeps out.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

#: the module whose import hides :data:`HIDDEN`, and the packages it hides
TARGET = "sqlite_utils.db"
HIDDEN = ("pandas", "numpy")

_state = threading.local()   # ``hiding``: True in the thread that runs ``sqlite_utils.db``, during that import


class ColumnTypes(dict):
    """sqlite-utils' ``COLUMN_TYPE_MAPPING`` (Python type -> SQLite column type) that answers for numpy and
    pandas types without importing either: a numpy integer type -> ``"INTEGER"``, a numpy floating type ->
    ``"REAL"``, ``pandas.Timestamp`` -> ``"TEXT"``, as sqlite-utils maps them when it imports both. Any other
    unknown type raises ``KeyError`` (as the plain dict did)."""

    def __missing__(self, key: object) -> str:
        module = getattr(key, "__module__", "") or ""
        numpy = sys.modules.get("numpy")
        if numpy is not None and module.split(".")[0] == "numpy" and isinstance(key, type):
            if issubclass(key, numpy.integer):
                return "INTEGER"
            if issubclass(key, numpy.floating):
                return "REAL"
        if module.split(".")[0] == "pandas" and getattr(key, "__name__", "") == "Timestamp":
            return "TEXT"
        raise KeyError(key)


class _HidingLoader:
    """The loader of ``sqlite_utils.db``, run with :data:`HIDDEN` hidden from this thread. (No
    ``importlib.abc`` base class, here nor in :class:`LeanFinder`: the import system needs only the methods,
    and ``importlib.abc`` loads ``importlib.resources``, ``tempfile`` and ``shutil``: 10 ms of every start-up.)"""

    def __init__(self, loader: Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        _state.hiding = True
        try:
            self._loader.exec_module(module)
        finally:
            _state.hiding = False
        mapping = getattr(module, "COLUMN_TYPE_MAPPING", None)
        if isinstance(mapping, dict) and not isinstance(mapping, ColumnTypes):
            module.COLUMN_TYPE_MAPPING = ColumnTypes(mapping)   # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:   # get_source, get_filename, ... as the real loader answers
        return getattr(self._loader, name)


class LeanFinder:
    """Finds ``sqlite_utils.db`` as the other finders do, with :class:`_HidingLoader` around its loader; while
    that module runs (in its thread) answers "no module named ..." for :data:`HIDDEN` packages."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if getattr(_state, "hiding", False) and fullname.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {fullname!r} (hidden while sqlite-utils loads)", name=fullname)
        if fullname != TARGET:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = cast("Loader", _HidingLoader(spec.loader))   # a loader by its methods
                return spec
        return None


def install() -> None:
    """Put :class:`LeanFinder` first on ``sys.meta_path`` (once), unless sqlite-utils is already imported."""
    if TARGET in sys.modules or any(isinstance(f, LeanFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, LeanFinder())


def lazy_attributes(package: str, modules: Mapping[str, tuple[str, ...]]) -> Callable[[str], Any]:
    """The module-level ``__getattr__`` (PEP 562) of the package ``package`` (its ``__name__``) that hands out
    the names of ``modules`` (``{"fbagent.audit.audit": ("AuditOptions", "run_audit")}``): the first read of a
    name imports its module and returns the module's attribute (Python keeps no copy: each read asks again, and
    the import is a dictionary lookup once the module is loaded). Raises ``AttributeError`` for any other name,
    as a module does. A name must not be a submodule's name as well (once imported, the submodule would hide it).

    Declare the names for type checkers too, in the package's ``if TYPE_CHECKING:`` block:
    ``from fbagent.audit.audit import AuditOptions, run_audit``.
    """
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> Any:
        if name in where:
            return getattr(importlib.import_module(where[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
