"""The FrameBench authors' frame-pair selection, rule for rule (protocol ``framebench``).

Source: Yano and Sasano 2026, sec. 3.1 and their code (SasanoLab/FrameBench,
``src/generation/1-1_frame_parse.py``, ``1-2_lu_driven_edit.py``, ``2_generate_frame_qa.py``):

1. keep the lexical units that have at least one annotated sentence (``sentenceCount
   annotated >= 1``; here ``lexical_units.n_annotated``);
2. group them by LU name (``leave.v``), in the order the frames are read;
3. a polysemous verb is an LU name of POS ``V`` found in more than one frame;
4. every 2-combination of its frames (``itertools.combinations``, in frame order) is a pair;
5. with N smaller than the number of pairs, shuffle all pairs once with the seed (pandas
   ``DataFrame.sample(frac=1, random_state=seed)``, default seed 42) and keep the first N;
   with N at least the number of pairs, all pairs are kept in order (no shuffle).

No other filter, no screening, no stratification. The authors read frames in the order of an
unsorted directory listing (``Path.glob``), which differs between file systems; here frames are
read sorted by name and LUs in import order within a frame, so the pool order, and with it the
pairs a seed picks, are reproducible everywhere. The rules and the distribution of the sample are
the authors'; row-for-row equality with their 800 pairs needs their file order (``docs/pairs.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from fbagent.pairs.options import FRAMEBENCH_MAX_SEED as MAX_SEED
from fbagent.store.rows import AnnotatedVerbLU

#: The authors' default seed (``2_generate_frame_qa.py --seed``).
FRAMEBENCH_SEED = 42


@dataclass(frozen=True)
class Pool:
    """The authors' candidate pool: ``pairs`` in pool order (dicts with ``verb``, ``lu_a``, ``lu_b``,
    ``frame_a``, ``frame_b``), and the counts of each step: ``verb_lus`` (POS V LUs read),
    ``unannotated`` (of those, without an annotated sentence: dropped), ``lu_names`` (distinct
    names kept) and ``polysemous`` (names in two or more frames)."""

    pairs: list[dict[str, str]]
    verb_lus: int
    unannotated: int
    lu_names: int
    polysemous: int


def verb_of(lu_name: str) -> str:
    """The verb an LU name stands for, as the authors write it into prompts: the text before the
    first ``.`` (``leave.v`` -> ``leave``; ``sleep (together/with).v`` -> ``sleep (together/with)``)."""
    return lu_name.split(".")[0]


def pool(verb_lus: Iterable[AnnotatedVerbLU]) -> Pool:
    """Steps 1-4 over the verb LUs of a lexicon.

    Args:
        verb_lus: rows ``{"lu", "frame", "n_annotated"}`` of the POS V lexical units, in the order
            frames are read (:func:`fbagent.store.pairs.verb_lexical_units` gives frames sorted by
            name, LUs in import order).

    Returns:
        :class:`Pool`; each pair has ``lu_a == lu_b`` (the LU name) and ``frame_a``/``frame_b`` in
        the order of the frames (a 2-combination), as the authors' ``frame_pair``.
    """
    rows = list(verb_lus)
    frames_of: dict[str, list[str]] = {}
    unannotated = 0
    for row in rows:
        if int(row.get("n_annotated") or 0) < 1:
            unannotated += 1
            continue
        frames = frames_of.setdefault(row["lu"], [])
        if row["frame"] not in frames:
            frames.append(row["frame"])
    pairs = [{"verb": verb_of(name), "lu_a": name, "lu_b": name, "frame_a": a, "frame_b": b}
             for name, frames in frames_of.items() for a, b in combinations(frames, 2)]
    return Pool(pairs=pairs, verb_lus=len(rows), unannotated=unannotated, lu_names=len(frames_of),
                polysemous=sum(1 for f in frames_of.values() if len(f) > 1))


def shuffled_order(n: int, seed: int) -> list[int]:
    """The row order of pandas ``df.sample(frac=1, random_state=seed)`` on ``n`` rows.

    pandas draws ``RandomState(seed).choice(n, size=n, replace=False)``, which is
    ``RandomState(seed).permutation(n)``; computed here with numpy alone, so pandas need not be
    installed. Raises ``ValueError`` for a seed outside 0..2**32-1 (numpy's limit)."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is outside 0..{MAX_SEED}")
    return [int(i) for i in np.random.RandomState(seed).permutation(n)]


def take(pairs: list[dict[str, str]], n: int, seed: int) -> tuple[list[dict[str, str]], list[dict[str, str]], bool]:
    """Step 5: ``(selected, rest, took_all)``. With ``n < len(pairs)``: one seeded shuffle
    (:func:`shuffled_order`), the first ``n`` selected, the rest in shuffled order; otherwise every
    pair in pool order (the authors shuffle only when they cut), ``took_all`` true when ``n`` exceeds
    the pool."""
    if n < len(pairs):
        order = [pairs[i] for i in shuffled_order(len(pairs), seed)]
        return order[:n], order[n:], False
    return list(pairs), [], n > len(pairs)
