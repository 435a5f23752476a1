"""Count option defaults written out in more than one place (issue 32's measure).

Usage: python scripts/repeated_defaults.py [--list] [ROOT]

Reads every ``.py`` file under ``fbagent/``, ``store/``, ``eval/`` and ``tui/`` of ROOT (default: this
checkout) with :mod:`ast` and collects each *literal* default of a named option: a keyword or positional
parameter default (``def f(seed: int = 0)``), a dataclass / class field (``seed: int = 0``) and the
default of a ``typer.Option`` parameter (``x: Annotated[int, typer.Option(...)] = 0``). Only literals count
(numbers, strings, booleans; not ``None``, not a named constant: reading a constant is not repeating a
default). An option's default is *repeated* when the same (name, literal) pair is written in more than one
place. Prints the options whose default is repeated, the number of places, and per 1,000 lines.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

FOLDERS = ("fbagent", "store", "eval", "tui")


def literal(node: ast.expr | None) -> object | None:
    """The value of a literal default (a negative number too), else ``None``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
        value = node.operand.value
        return -value if isinstance(value, int | float) and not isinstance(value, bool) else None
    if isinstance(node, ast.Constant) and node.value is not None and not isinstance(node.value, bytes):
        return node.value
    return None


def defaults(tree: ast.AST) -> list[tuple[str, object, int]]:
    """``(option name, literal default, line)`` of every parameter and class-field default in ``tree``."""
    out: list[tuple[str, object, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            positional = args.posonlyargs + args.args
            for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True):
                out.append((arg.arg, literal(default), default.lineno))
            for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
                if kw_default is not None:
                    out.append((arg.arg, literal(kw_default), kw_default.lineno))
        elif isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    out.append((stmt.target.id, literal(stmt.value), stmt.lineno))
    return [(name, value, line) for name, value, line in out if value is not None and not name.startswith("_")]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--list", action="store_true", help="list every repeated default and its places")
    args = parser.parse_args(argv)
    root = Path(args.root)
    places: dict[tuple[str, str], list[str]] = defaultdict(list)
    lines = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            lines += text.count("\n")
            for name, value, line in defaults(ast.parse(text)):
                places[(name, repr(value))].append(f"{path.relative_to(root)}:{line}")
    repeated = {key: where for key, where in places.items() if len(where) > 1}
    n_places = sum(len(where) for where in repeated.values())
    if args.list:
        for (name, value), where in sorted(repeated.items(), key=lambda kv: -len(kv[1])):
            print(f"{name}={value}: {len(where)} places: {', '.join(where)}")
    print(f"defaults repeated: {len(repeated)} (option, value) pairs in {n_places} places; "
          f"{1000 * n_places / max(lines, 1):.1f} places per 1,000 lines ({lines} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
