"""Functions of fbagent longer than 80 lines whose docstring gives no reason.

Usage: python scripts/long_functions.py [--limit N] [--own] [--all]

Reads every ``.py`` file under ``fbagent/``, ``store/``, ``eval/`` and ``tui/`` (the folders
installed as ``fbagent.*``, as :mod:`import_graph` maps them) with :mod:`ast`; nothing is
imported. A function's length is its lines from the ``def`` line to its last line, functions
defined inside it included (they are read with it; issue 20 counted "13 functions over 80 lines"
this way), and each nested function is measured on its own too. ``--own`` leaves out the lines of
nested functions and classes (a ``register(app)`` that only wraps one long command is then not
listed twice).

A long function passes when one line of its docstring starts with ``Long because:`` followed by
the reason (for example a flat table of options that reads best in one piece).

Prints one line per offending function, ``path:line: module.qualname is N lines (limit 80)``,
longest first, then ``long functions without a reason: K``; ``--all`` also lists the long
functions that give a reason. Exit status 0 when K is 0, else 1.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from import_graph import REPO, collect_modules

LIMIT = 80
MARKER = "Long because:"

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True)
class LongFunction:
    """One function over the limit: where it is, its length in lines and its stated reason (or None)."""

    path: str
    line: int
    name: str
    lines: int
    reason: str | None


def _span(node: Definition) -> tuple[int, int]:
    """First and last line of a definition, decorators included."""
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    return first, node.end_lineno or node.lineno


def _nested(node: ast.AST) -> list[Definition]:
    """Functions and classes defined inside ``node``'s body (not below them)."""
    out: list[Definition] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(child)
        else:
            out.extend(_nested(child))
    return out


def _length(node: ast.FunctionDef | ast.AsyncFunctionDef, own: bool) -> int:
    total = (node.end_lineno or node.lineno) - node.lineno + 1
    if not own:
        return total
    for inner in _nested(node):
        first, last = _span(inner)
        total -= last - first + 1
    return total


def _reason(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for line in (ast.get_docstring(node) or "").splitlines():
        if line.strip().startswith(MARKER):
            return line.strip()[len(MARKER):].strip() or None
    return None


def long_functions(limit: int = LIMIT, own: bool = False) -> list[LongFunction]:
    """Every function or method over ``limit`` lines, longest first (see the module docstring)."""
    found: list[LongFunction] = []
    for module, path in collect_modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

        def visit(node: ast.AST, prefix: str, path: Path = path, module: str = module) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    name = f"{prefix}{child.name}"
                    n = _length(child, own)
                    if n > limit:
                        rel = path.relative_to(REPO).as_posix()
                        found.append(LongFunction(rel, child.lineno, f"{module}.{name}", n, _reason(child)))
                    visit(child, f"{name}.")
                elif isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")
                else:
                    visit(child, prefix)

        visit(tree, "")
    return sorted(found, key=lambda f: (-f.lines, f.path, f.line))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"longest allowed function in lines (default {LIMIT})")
    parser.add_argument("--own", action="store_true", help="leave nested functions out of their parent's length")
    parser.add_argument("--all", action="store_true", help="also list long functions that give a reason")
    args = parser.parse_args()

    found = long_functions(args.limit, args.own)
    bad = [f for f in found if f.reason is None]
    for f in found:
        if f.reason is None:
            print(f"{f.path}:{f.line}: {f.name} is {f.lines} lines (limit {args.limit})")
        elif args.all:
            print(f"{f.path}:{f.line}: {f.name} is {f.lines} lines, long because: {f.reason}")
    print(f"long functions without a reason: {len(bad)} (with a reason: {len(found) - len(bad)}; "
          f"split them along their steps, or add a docstring line '{MARKER} ...')")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
