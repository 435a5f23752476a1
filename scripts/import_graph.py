"""Import graph of fbagent: cycles, upward imports between rooms, root modules, function-local imports, lazy packages.

Usage: python scripts/import_graph.py [--edges] [--rooms] [--measure]

Reads every ``.py`` file under ``fbagent/``, ``store/``, ``eval/`` and ``tui/`` with :mod:`ast`
(nothing is imported), maps the top-level folders into the ``fbagent`` namespace as pyproject
installs them (``store/db.py`` is ``fbagent.store.db``), and collects every import statement
anywhere in a module: top level, inside functions, under ``if TYPE_CHECKING``. An edge goes to
the most specific fbagent module the statement names (``from fbagent.store import db`` is an
edge to ``fbagent.store.db``; ``from fbagent.store import open_db`` one to the package
``fbagent.store``, i.e. its ``__init__``).

Prints:

- ``cycles``: strongly connected components of more than one module (or a module importing
  itself), each listed;
- ``upward imports``: edges from a module in a lower room to one in a higher room, by the
  ranks in :data:`RANKS`, one per room and none for a single module (docs/architecture.md: cli ->
  commands -> serve -> publish -> audit -> tui/eval -> generation -> validation -> agents -> verifier/pairs -> checks
  -> prompting -> llm -> providers -> lexicon -> store -> framenet (the lexicon's data model) -> shared
  root helpers);
- ``root modules``: modules directly in ``fbagent/`` besides ``__init__.py`` (target: <= 10);
- ``function-local imports`` (the import rule, issue 32): of fbagent modules (target 0: every fbagent import
  is at module level or under ``if TYPE_CHECKING``; each one left is listed below as ``path:line: module``);
  of third-party packages: the :data:`HEAVY` list's, by package, and the others (target 0: a light package
  is imported at module level, an optional extra there in ``try``/``except ImportError``), by ``path:line``;
- ``lazy packages``: each package whose ``__init__`` has a module-level ``__getattr__`` (PEP 562: a
  command imports the package for its ``--help`` and the names load on first use), the names it defers
  by the module they come from, and the heavy packages those modules load;
- with ``--measure``: the import time of each :data:`HEAVY` package (the module listed there) in a fresh
  interpreter after ``import fbagent.cli``, the minimum of 3 runs, against :data:`THRESHOLD_MS` (textual.app's
  cost), so that the list can be checked and extended: a package above the threshold belongs in it, one
  below (outside the issue's list) does not. A package not installed is shown as such.

Exit status 0 when there are no cycles, no upward imports and at most 10 root modules, else 1.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FOLDERS = {"fbagent": "fbagent", "store": "fbagent.store", "eval": "fbagent.eval", "tui": "fbagent.tui"}
ROOT_LIMIT = 10

# Rank of each room: a module may import from its own room and from rooms of a lower rank only.
# Rooms are the first name below ``fbagent``; root modules are rooms of their own.
RANKS: dict[str, int] = {
    "cli": 90,
    "commands": 80,
    "serve": 65,        # annotate --serve: the Textual app behind a web server
    "publish": 62,      # the one export room (JSONL, hf and lm-eval folders: they take eval's templates and protocol)
    "audit": 61,        # the shortcut audit over eval's problems (publish runs it over what it exports)
    "tui": 60,
    "eval": 60,
    "generation": 50,
    "validation": 45,
    "agents": 40,
    "verifier": 30,
    "pairs": 30,
    "checks": 25,
    "prompting": 22,    # prompt files -> messages per task, language and style; question patterns
    "llm": 20,
    "providers": 18,    # the provider classes (one module each), their protocol and registry
    "lexicon": 12,
    "store": 10,
    "framenet": 5,      # the lexicon's data model (records, markup, LU names): what the store writes and reads
    # shared root helpers and data (schemas, errors, ...): rank 0 unless listed above
}

def module_name(path: Path) -> str:
    """``store/db.py`` -> ``fbagent.store.db``; a package's ``__init__.py`` -> the package."""
    rel = path.relative_to(REPO)
    parts = list(rel.with_suffix("").parts)
    parts[0] = FOLDERS[parts[0]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def collect_modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for folder in FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            if ".venv" in path.parts or "__pycache__" in path.parts:
                continue
            mods[module_name(path)] = path
    return mods


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every fbagent module ``name`` imports, at any depth of its syntax tree."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out: set[str] = set()

    def resolve(target: str) -> str | None:
        while target:
            if target in modules:
                return target
            target = target.rpartition(".")[0]
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "fbagent":
                    hit = resolve(alias.name)
                    if hit:
                        out.add(hit)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "fbagent":
                continue
            for alias in node.names:
                hit = resolve(f"{base}.{alias.name}") if f"{base}.{alias.name}" in modules else resolve(base)
                if hit:
                    out.add(hit)
    out.discard(name)
    return out


#: the import time (ms) above which a third-party package is heavy: textual.app's (52 ms after ``import fbagent.cli``
#: in a fresh process, min of 3, on an idle machine), the heaviest of the issue's list that start-up met
THRESHOLD_MS = 50

#: third-party packages imported only inside the function that uses them (issue 32; IMPORTS32 rule 2); every
#: other third-party import is at module level (an optional extra there in ``try``/``except ImportError``).
#: Key: the package, or a submodule where only it is heavy (``jieba.posseg``; ``jieba`` itself is light);
#: value: the module ``--measure`` imports to time it (the one fbagent imports). Comments: its import time
#: after ``import fbagent.cli``, fresh process, min of 3 (``python scripts/import_graph.py --measure``,
#: 2026-12-05, on 2 shared cores where textual.app took 100 ms), then in brackets the idle-machine time
#: that put it on the list (textual.app 52 ms there).
HEAVY: dict[str, str] = {
    # the list
    "torch": "torch",                                    # 1.8 s
    "transformers": "transformers",                      # 890 ms
    "vllm": "vllm",                                      # not installed here (the gpu extra)
    "llama_cpp": "llama_cpp",                            # 190 ms
    "sentence_transformers": "sentence_transformers",    # 7 s (torch, transformers)
    "spacy": "spacy",                                    # 1.4 s
    "datasets": "datasets",                              # 555 ms
    "textual": "textual.app",                            # 100 ms (52 ms): the threshold's reference
    # measured heavier than textual.app
    "langgraph": "langgraph.graph",                      # 815 ms (830 ms)
    "openai": "openai",                                  # 630 ms (480 ms)
    "instructor": "instructor.core.hooks",               # 120 ms (80-500 ms: its submodules import openai)
    "nltk": "nltk",                                      # 1.2 s (1.4 s)
    "matplotlib": "matplotlib.pyplot",                   # 290 ms (400 ms)
    "statsmodels": "statsmodels.api",                    # 920 ms (1.35 s)
    "scipy": "scipy.stats",                              # 770 ms (580 ms)
    "sklearn": "sklearn.metrics",                        # 985 ms (1.07 s)
    "lemminflect": "lemminflect",                        # 2 s (2.3 s; 90 ms with spaCy hidden: checks/paradigms)
    "google.genai": "google.genai",                      # 350 ms (295 ms)
    "lm_eval": "lm_eval.loggers.utils",                  # 810 ms (477 ms)
    "pyarrow": "pyarrow.parquet",                        # 160 ms (56 ms)
    "jieba.posseg": "jieba.posseg",                      # 200 ms (its tables load on import; jieba: 9 ms)
    "textual_serve": "textual_serve.server",             # 125 ms (subclassed at module level: the serve extra)
    "zeyrek": "zeyrek",                                  # 5 s (imports nltk; the tr extra; its lexicon loads on first use)
}


def heavy_entry(dotted: str) -> str | None:
    """The key of :data:`HEAVY` that the imported name ``dotted`` (``google.genai.types``) falls under, or None."""
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in HEAVY:
            return ".".join(parts[:n])
    return None


def imported_names(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an absolute import statement binds: ``import a.b`` -> ``a.b``; ``from a import b, c``
    -> ``a.b``, ``a.c`` (``b`` may be a submodule); ``[]`` for a relative import."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level or not node.module:
        return []
    return [f"{node.module}.{a.name}" for a in node.names]


def module_level_imports(path: Path) -> tuple[set[str], set[str]]:
    """``(fbagent module names, third-party dotted names)`` that ``path`` imports when it is imported:
    statements at module level, in ``if``/``try`` blocks, not under ``if TYPE_CHECKING``, not in functions
    or classes. The fbagent names are as written (``fbagent.store.db``, or ``fbagent.store`` + ``.name``);
    the third-party ones as :func:`imported_names` gives them (``textual.app.App``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own: set[str] = set()
    third: set[str] = set()

    def block(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, ast.If) and "TYPE_CHECKING" not in ast.unparse(st.test):
                block(st.body)
                block(st.orelse)
            elif isinstance(st, ast.Try):
                block(st.body)
            elif isinstance(st, ast.Import | ast.ImportFrom):
                for name in imported_names(st):
                    top = name.split(".")[0]
                    if top == "fbagent":
                        own.add(name)
                    elif top not in sys.stdlib_module_names:
                        third.add(name)

    block(tree.body)
    return own, third


def deferred_loads(modules: dict[str, Path], *, every: bool = False) -> dict[str, set[str]]:
    """For each fbagent module: the :data:`HEAVY` packages that importing it loads (its module-level imports,
    those of the fbagent modules and parent packages they import, transitively); ``every``: all the
    third-party packages it loads (top-level names), light ones too."""
    direct: dict[str, tuple[set[str], set[str]]] = {}
    for name, path in modules.items():
        own, third = module_level_imports(path)
        targets = set()
        for target in own:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target:
                targets.add(target)
        parts = name.split(".")
        targets.update(".".join(parts[:i]) for i in range(2, len(parts)) if ".".join(parts[:i]) in modules)
        targets.discard(name)
        direct[name] = (targets, {t.split(".")[0] for t in third} if every else
                        {h for t in third if (h := heavy_entry(t))})
    memo: dict[str, set[str]] = {}
    for start in modules:
        seen, stack, found = {start}, [start], set()
        while stack:
            mod = stack.pop()
            targets, packages = direct[mod]
            found |= packages
            for t in targets - seen:
                seen.add(t)
                stack.append(t)
        memo[start] = found
    return memo


def _bound_names(body: list[ast.stmt]) -> set[str]:
    """Names a module body binds when it runs: imports (not under ``if TYPE_CHECKING``), assignments,
    functions and classes, also inside ``if`` and ``try`` blocks."""
    out: set[str] = set()
    for st in body:
        if isinstance(st, ast.If) and "TYPE_CHECKING" not in ast.unparse(st.test):
            out |= _bound_names(st.body) | _bound_names(st.orelse)
        elif isinstance(st, ast.Try):
            out |= _bound_names(st.body) | _bound_names([s for h in st.handlers for s in h.body])
        elif isinstance(st, ast.Import | ast.ImportFrom):
            out |= {(a.asname or a.name).split(".")[0] for a in st.names}
        elif isinstance(st, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(st.name)
        elif isinstance(st, ast.Assign | ast.AnnAssign):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            out |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _lazy_sources(body: list[ast.stmt]) -> dict[str, str]:
    """Where a lazy package's names come from (name -> fbagent module): its ``if TYPE_CHECKING:`` imports and
    its tables, ``{module: (names...)}`` (``_MODULES``) or ``{name: module}`` (``_EXPORTS``)."""
    out: dict[str, str] = {}
    for st in body:
        if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
            for node in st.body:
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    out.update({a.asname or a.name: node.module for a in node.names})
        elif isinstance(st, ast.Assign | ast.AnnAssign) and st.value is not None:
            try:
                table = ast.literal_eval(st.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if not isinstance(table, dict):
                continue
            for key, value in table.items():
                if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
                    out.update({v: key for v in value})
                elif isinstance(value, str) and value.startswith("fbagent."):
                    out[key] = value
    return out


def lazy_packages(modules: dict[str, Path]) -> dict[str, dict[str, list[str]]]:
    """The PEP 562 lazy packages: each ``__init__`` with a module-level ``__getattr__``, with the names it
    defers (in ``__all__`` or its tables, not bound when it is imported), by the module each comes from
    (``"?"``: computed by ``__getattr__`` itself): ``{"fbagent.store": {"fbagent.store.db": ["open_db", ...]}}``."""
    out: dict[str, dict[str, list[str]]] = {}
    for name, path in sorted(modules.items()):
        if path.name != "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if not any(isinstance(st, ast.FunctionDef) and st.name == "__getattr__"
                   or isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__getattr__"
                                                         for t in st.targets) for st in tree.body):
            continue
        sources = _lazy_sources(tree.body)
        public: set[str] = set(sources)
        for st in tree.body:
            if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in st.targets):
                try:
                    public |= set(ast.literal_eval(st.value))
                except ValueError:   # computed (sorted(_EXPORTS)): the tables name them
                    pass
        by_module: dict[str, list[str]] = defaultdict(list)
        for deferred in sorted(public - _bound_names(tree.body)):
            by_module[sources.get(deferred, "?")].append(deferred)
        out[name] = dict(by_module)
    return out


def local_fbagent_imports(path: Path, modules: dict[str, Path]) -> list[tuple[int, str]]:
    """The fbagent modules ``path`` imports inside a function: ``(line, module)``, one per ``import``
    name and one per ``from ... import`` statement, resolved to the most specific module of ``modules``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str]] = []
    for node in _function_imports(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names if a.name.split(".")[0] == "fbagent"]
        elif not node.level and (node.module or "").split(".")[0] == "fbagent":
            names = [f"{node.module}.{a.name}" for a in node.names[:1]]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            out.append((node.lineno, name))
    return out


def _function_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement inside a function or method of ``tree`` (``if TYPE_CHECKING`` blocks are module
    level), each once (a nested function's not once per enclosing function), in source order."""
    found: dict[int, ast.Import | ast.ImportFrom] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.setdefault(id(node), node)
    return sorted(found.values(), key=lambda n: (n.lineno, n.col_offset))


def local_imports(path: Path) -> list[tuple[int, str, str | None]]:
    """Third-party imports inside a function of ``path`` (standard-library modules are not counted): one
    ``(line, dotted name, HEAVY key or None)`` per ``import`` name and per ``from ... import`` statement
    (heavy when one of its names is: ``from google import genai``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[tuple[int, str, str | None]] = []
    for node in _function_imports(tree):
        names = imported_names(node)
        groups = [[n] for n in names] if isinstance(node, ast.Import) else [names] if names else []
        for group in groups:
            top = group[0].split(".")[0]
            if top == "fbagent" or top in sys.stdlib_module_names or top == "__future__":
                continue
            shown = group[0] if isinstance(node, ast.Import) else node.module or ""
            out.append((node.lineno, shown, next((h for n in group if (h := heavy_entry(n))), None)))
    return out


def room(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def rank(name: str) -> int:
    """The rank of ``name``'s room in :data:`RANKS` (a root module not listed there: 0). No module or
    package is ranked apart from its room."""
    return RANKS.get(room(name), 0)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; returns the components with a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    comps: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph[node]:
                    comps.append(sorted(comp))
    return comps


def local_imports_report(modules: dict[str, Path]) -> list[str]:
    """The report on function-local imports: one summary line (of fbagent modules: target 0; of third-party
    packages: the :data:`HEAVY` ones by package, the others, target 0, by ``file:line``), then one line per
    fbagent module imported inside a function (``  path:line: module``)."""
    own: list[str] = []
    heavy: dict[str, int] = defaultdict(int)
    other: list[str] = []
    for path in modules.values():
        rel = path.relative_to(REPO)
        own += [f"  {rel}:{line}: {target}" for line, target in local_fbagent_imports(path, modules)]
        for line, name, entry in local_imports(path):
            if entry:
                heavy[entry] += 1
            else:
                other.append(f"{rel}:{line} {name}")
    by_package = ", ".join(f"{t} {n}" for t, n in sorted(heavy.items(), key=lambda kv: (-kv[1], kv[0])))
    summary = (f"function-local imports: of fbagent modules {len(own)}; of third-party packages: "
               f"heavy list {sum(heavy.values())}" + (f" ({by_package})" if heavy else "")
               + f", other {len(other)}" + (f" ({', '.join(other)})" if other else ""))
    return [summary, *own]


def local_imports_line(modules: dict[str, Path]) -> str:
    """The summary line of :func:`local_imports_report`."""
    return local_imports_report(modules)[0]


def lazy_packages_report(modules: dict[str, Path]) -> list[str]:
    """One line per PEP 562 lazy package (:func:`lazy_packages`): the names it defers by module, and what the
    boundary keeps out of an import of the package (the reason for it): the :data:`HEAVY` packages those
    modules load, and the light third-party packages they load that neither the package itself nor
    :mod:`fbagent.cli` loads."""
    loads = deferred_loads(modules)
    every = deferred_loads(modules, every=True)
    lines = []
    packages = lazy_packages(modules)
    for package, by_module in packages.items():
        heavy = sorted({h for module in by_module if module in loads for h in loads[module]})
        light = sorted({t for module in by_module if module in every for t in every[module]}
                       - every.get(package, set()) - every.get("fbagent.cli", set()) - {h.split(".")[0] for h in heavy})
        names = "; ".join(f"{module.removeprefix(package + '.') if module != '?' else 'by __getattr__'}: "
                          f"{', '.join(found)}" for module, found in sorted(by_module.items()))
        keeps = [f"heavy: {', '.join(heavy)}" if heavy else "", f"light: {', '.join(light)}" if light else ""]
        lines.append(f"  {package} defers {names} (keeps out {'; '.join(k for k in keeps if k) or 'nothing'})")
    return [f"lazy packages (PEP 562 __getattr__): {len(packages)}", *lines]


MEASURE_PROBE = """
import contextlib, importlib, importlib.util, io, time
import fbagent.cli
module = {module!r}
if importlib.util.find_spec(module.split(".")[0]) is None:
    print("not installed")
    raise SystemExit
start = time.perf_counter()
try:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        importlib.import_module(module)
except Exception as err:   # noqa: BLE001 - reported, not raised
    print(f"import fails: {{type(err).__name__}}")
else:
    print(f"{{(time.perf_counter() - start) * 1000:.1f}}")
"""


def measure_heavy(runs: int = 3) -> list[str]:
    """Time the import of each :data:`HEAVY` package (its module there) in a fresh interpreter after
    ``import fbagent.cli``, the minimum of ``runs``; one line each against :data:`THRESHOLD_MS`. A package
    not installed is shown as such (its import cannot be timed here)."""
    lines = [f"heavy packages: import time after `import fbagent.cli`, fresh process, min of {runs}; threshold "
             f"{THRESHOLD_MS} ms (textual.app's cost)"]
    best: dict[str, float] = {}
    for key, module in HEAVY.items():
        results = []
        for _ in range(runs):
            done = subprocess.run([sys.executable, "-c", MEASURE_PROBE.format(module=module)], cwd=REPO,
                                  capture_output=True, text=True, timeout=600)
            results.append(done.stdout.strip().splitlines()[-1] if done.stdout.strip() else f"exit {done.returncode}")
        times = [float(r) for r in results if r.replace(".", "", 1).isdigit()]
        if times:
            best[key] = min(times)
            verdict = "above" if best[key] > THRESHOLD_MS else "below"
            lines.append(f"  {key:22} {module:24} {best[key]:7.0f} ms  {verdict} {THRESHOLD_MS} ms")
        else:
            lines.append(f"  {key:22} {module:24} {results[-1]}")
    if "textual" in best:
        lines.append(f"textual.app took {best['textual']:.0f} ms in this run ({THRESHOLD_MS} ms on an idle machine: "
                     "on a loaded one every time grows, compare each package with textual.app's)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edges", action="store_true", help="print every edge")
    parser.add_argument("--rooms", action="store_true", help="print the room-to-room edges")
    parser.add_argument("--measure", action="store_true",
                        help="also time the import of each HEAVY package (fresh processes: a minute or two)")
    args = parser.parse_args()

    modules = collect_modules()
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    edges = sum(len(v) for v in graph.values())
    cycles = strongly_connected(graph)
    upward = sorted(
        (a, b) for a, targets in graph.items() for b in targets if rank(a) < rank(b)
    )
    roots = sorted(
        p.name for p in (REPO / "fbagent").glob("*.py") if p.name != "__init__.py"
    )

    if args.edges:
        for a in sorted(graph):
            for b in sorted(graph[a]):
                print(f"{a} -> {b}")
    if args.rooms:
        pairs: dict[tuple[str, str], int] = defaultdict(int)
        for a, targets in graph.items():
            for b in targets:
                if room(a) != room(b):
                    pairs[(room(a), room(b))] += 1
        for (ra, rb), n in sorted(pairs.items()):
            print(f"room {ra} -> {rb}: {n}")

    print(f"modules: {len(modules)}  edges: {edges}")
    print(f"cycles: {len(cycles)}")
    for comp in cycles:
        print("  cycle: " + " <-> ".join(comp))
    print(f"upward imports: {len(upward)}")
    for a, b in upward:
        print(f"  {a} ({room(a)}, rank {rank(a)}) -> {b} ({room(b)}, rank {rank(b)})")
    print(f"root modules: {len(roots)} (limit {ROOT_LIMIT}): {' '.join(roots)}")
    print("\n".join(local_imports_report(modules)))
    print("\n".join(lazy_packages_report(modules)))
    if args.measure:
        print("\n".join(measure_heavy()))
    ok = not cycles and not upward and len(roots) <= ROOT_LIMIT
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
