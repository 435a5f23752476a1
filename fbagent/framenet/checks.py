"""Checks of a lexicon's records that every reader applies: frame names and ids, and no frame above itself.

A frame's name must be a usable name (not blank, no control or bidi character: U+202E shows text reversed and
``eval run`` refuses it in datasets) and its id an integer SQLite can store, used by one frame only
(:func:`frame_problem`).

Inheritance, Subframe, Perspective_on and Using order frames from the more general (``super_frame``) to the more
specific (``sub_frame``); FrameNet's relations of these types form a directed acyclic graph (Ruppenhofer et al.
2016, section 6). A frame related to itself, or a chain that comes back to where it began (``A -> B -> A``), is
an error of the resource: pair selection walks these relations (related frames are not confusable) and a cycle
makes "above" meaningless. See_also, Precedes, Causative_of, Inchoative_of and the others may relate frames both
ways and are not checked (a self-relation of any type is).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fbagent.errors import FbagentError
from fbagent.framenet.model import FrameRelation
from fbagent.text import check_name

#: relation types whose graph must have no cycle
ORDERING_TYPES = frozenset({"Inheritance", "Subframe", "Perspective_on", "Using"})


def relation_problem(relations: Iterable[FrameRelation]) -> str | None:
    """The first problem of ``relations`` as a phrase (``"frame A inherits from itself"``, ``"Inheritance
    relations form a cycle: A -> B -> A"``), or None when there is none. Cycles are looked for per type of
    :data:`ORDERING_TYPES` (depth-first search; ``super_frame -> sub_frame`` edges)."""
    graphs: dict[str, dict[str, list[str]]] = {}
    for rel in relations:
        if rel.super_frame == rel.sub_frame:
            return f"frame {rel.sub_frame} has a {rel.type} relation to itself"
        if rel.type in ORDERING_TYPES:
            graphs.setdefault(rel.type, {}).setdefault(rel.super_frame, []).append(rel.sub_frame)
    for kind, graph in sorted(graphs.items()):
        cycle = _cycle(graph)
        if cycle:
            return f"{kind} relations form a cycle: {' -> '.join(cycle)}"
    return None


def _cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """One cycle of ``graph`` as its frames, first repeated at the end; None when it has none (iterative DFS)."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    for start in sorted(graph):
        if state.get(start):
            continue
        path: list[str] = [start]
        stack = [iter(graph.get(start, []))]
        state[start] = 1
        while stack:
            child = next(stack[-1], None)
            if child is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(child) == 1:
                return path[path.index(child):] + [child]
            elif not state.get(child):
                state[child] = 1
                path.append(child)
                stack.append(iter(graph.get(child, [])))
    return None


def sqlite_integer(value: Any) -> bool:
    """Whether ``value`` is no integer, or an integer SQLite can store (-2**63 .. 2**63-1)."""
    return not isinstance(value, int) or -(2**63) <= value < 2**63


def frame_problem(name: str, fid: Any, id_owner: dict[int, str]) -> str | None:
    """What is wrong with a frame's ``name`` or id ``fid`` as a phrase, or None: a blank name, a name with a control
    or bidi character, an id outside SQLite's integer range, an id already used (``id_owner``: id -> where the
    frame that has it is, e.g. ``"line 3"``)."""
    if not name.strip():
        return f"frame name {name!r} is blank"
    try:
        check_name(name, "frame name")
    except FbagentError as err:
        return err.problem
    if not sqlite_integer(fid):
        return f"frame {name} has id {fid}, outside SQLite's integer range (at most {2**63 - 1:,})"
    if fid is not None and fid in id_owner:
        return f"frame {name} has id {fid}, already the id of the frame on {id_owner[fid]}"
    return None
