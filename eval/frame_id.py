"""``fbagent eval frame-id``: frame identification (FrameBench, Yano and Sasano 2026, appendix B.5).

For each verb-frame pair (verb, frame A, frame B) of a lexicon in the store,
one exemplar sentence of each frame's LU becomes a problem: the target verb
is marked, the options are frame A and frame B (name: definition) and
"Neither frame is evoked", numbered 1-3 by a seeded shuffle per problem, and
the answer is decoded under constraint to ``"1".."3"``. The gold option is
the frame of the LU the exemplar is annotated with. k-shot: ``shots`` solved
problems of OTHER verbs (seeded) precede the question.

Pairs come from the latest frame-pair selection of the lexicon (table
``frame_pairs``, status ``selected``), or, when the lexicon has no
selection, from its lexical units: every two frames of a verb lemma whose LUs
have exemplars (seeded order). Pairs whose LUs lack exemplars are skipped and
counted.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent.errors import FbagentError
from fbagent.eval.metrics import DEFAULT_SCORING, Scoring, frame_id_summary
from fbagent.eval.runner import ChoiceJob, base_versions, choice_fields
from fbagent.eval.task import EvalTask, choice_task, run_task
from fbagent.limits import DEFAULT_N_BOOT
from fbagent.progress.events import OnEvent, callbacks, chain
from fbagent.prompting.files import load_prompt, prompt_exists
from fbagent.providers.base import Backend, ChoiceResult, ReasoningConfig
from fbagent.seeds import DEFAULT_SEED
from fbagent.store import open_db
from fbagent.store.exemplars import frame_definition, lu_frame_exemplars, verb_lus_with_exemplars
from fbagent.store.lexicon import lexicons_by_id
from fbagent.store.pairs import latest_selection_id, selection_in_lexicon, selection_pairs
from fbagent.store.rows import LexiconName

if TYPE_CHECKING:
    import sqlite_utils

FRAME_LABELS = ("frame_a", "frame_b", "neither")
CHOICES = ("1", "2", "3")


@dataclass
class FrameIdSettings:
    """Options of one ``eval frame-id`` run (``scoring``: failures counted as wrong or excluded;
    ``label``: the name reports show)."""

    db: Path
    lexicon: str | None = None
    selection: int | None = None
    shots: int = 3
    limit: int | None = None
    seed: int = DEFAULT_SEED
    lang: str | None = None
    concurrency: int | None = None
    batch_size: int | None = None
    definition_chars: int = 300
    n_boot: int = DEFAULT_N_BOOT
    scoring: Scoring = field(default_factory=lambda: DEFAULT_SCORING)
    label: str | None = None


@dataclass(frozen=True)
class Exemplar:
    """An annotated sentence: ``id`` (exemplars.id), text and the target's character span."""

    id: int
    text: str
    start: int | None
    end: int | None


@dataclass
class FramePair:
    """A verb with two frames, their definitions and the exemplars of the two LUs."""

    pair_id: str
    verb: str
    lu_a: str
    lu_b: str
    frame_a: str
    frame_b: str
    definition_a: str
    definition_b: str
    exemplars_a: list[Exemplar] = field(default_factory=list)
    exemplars_b: list[Exemplar] = field(default_factory=list)


@dataclass(frozen=True)
class FrameIdProblem:
    """One frame identification question (``side``: which frame's exemplar is shown)."""

    problem_id: str
    pair: FramePair
    side: str
    exemplar: Exemplar
    mapping: dict[str, str]

    @property
    def gold(self) -> str:
        return "frame_a" if self.side == "a" else "frame_b"

    @property
    def gold_choice(self) -> str:
        return next(n for n, label in self.mapping.items() if label == self.gold)

    def outcome(self, choice: str | None) -> str | None:
        """``correct`` / ``other_frame`` / ``neither``, or None for a failed answer."""
        label = self.mapping.get(choice) if choice else None
        if label is None:
            return None
        if label == self.gold:
            return "correct"
        return "neither" if label == "neither" else "other_frame"


def short_definition(text: str, limit: int) -> str:
    """Cut a frame definition to at most ``limit`` characters, at a sentence end when one is there."""
    text = re.sub(r"\s+", " ", text or "").strip()
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = max(cut.rfind(". "), cut.rfind("! "), cut.rfind("? "))
    return cut[: end + 1] if end > limit // 3 else cut.rstrip() + "..."


def _lexicon(db: sqlite_utils.Database, name: str | None) -> LexiconName:
    rows = lexicons_by_id(db)
    if not rows:
        raise FbagentError("the store has no lexicon", "import one with `fbagent lexicon add`")
    if name is None:
        if len(rows) > 1:
            raise FbagentError(f"the store has {len(rows)} lexicons ({', '.join(r['name'] for r in rows)})",
                               "pass --lexicon NAME")
        return rows[0]
    for r in rows:
        if r["name"] == name:
            return r
    raise FbagentError(f"no lexicon named {name!r}", f"use one of: {', '.join(r['name'] for r in rows)}")


def _exemplars(db: sqlite_utils.Database, lexicon_id: int, lu: str, frame: str) -> list[Exemplar]:
    return [Exemplar(r["id"], r["text"], r["target_start"], r["target_end"])
            for r in lu_frame_exemplars(db, lexicon_id, lu, frame)]


def load_pairs(settings: FrameIdSettings) -> tuple[list[FramePair], dict]:
    """Frame pairs with exemplars from the store -> ``(pairs, lexicon info)``.

    Lexicon info: ``name``, ``lang``, ``source`` (``selection:<id>`` or
    ``lexical_units``), ``skipped`` (pairs without exemplars). Raises
    :class:`FbagentError` for a missing store, lexicon or selection, or when no
    pair has exemplars for both frames.
    """
    if not Path(settings.db).exists():
        raise FbagentError(f"database {settings.db} does not exist", "pass --db, or import a lexicon with `fbagent lexicon add`")
    db = open_db(settings.db, read_only=True)
    lex = _lexicon(db, settings.lexicon)
    sel = settings.selection
    if sel is None:
        sel = latest_selection_id(db, lex["id"])
    elif not selection_in_lexicon(db, sel, lex["id"]):
        raise FbagentError(f"no frame-pair selection {sel} for lexicon {lex['name']!r}", "run `fbagent pairs` or omit --selection")
    candidates: list[tuple[str, str, str, str, str, str]] = []
    if sel is not None:
        for r in selection_pairs(db, sel):
            candidates.append((f"pair:{r['id']}", r["verb"], r["lu_a"], r["lu_b"], r["frame_a"], r["frame_b"]))
        source = f"selection:{sel}"
    else:
        by_lemma: dict[str, list[tuple[str, str]]] = {}
        for r in verb_lus_with_exemplars(db, lex["id"]):
            by_lemma.setdefault(r["lemma"], []).append((r["name"], r["frame"]))
        for lemma, lus in sorted(by_lemma.items()):
            for (lu_a, fa), (lu_b, fb) in combinations(lus, 2):
                candidates.append((f"{lemma}:{fa}:{fb}", lemma, lu_a, lu_b, fa, fb))
        random.Random(f"{settings.seed}|frame-id-pairs").shuffle(candidates)
        source = "lexical_units"
    pairs, skipped = [], 0
    for pid, verb, lu_a, lu_b, fa, fb in candidates:
        ex_a, ex_b = _exemplars(db, lex["id"], lu_a, fa), _exemplars(db, lex["id"], lu_b, fb)
        if not ex_a or not ex_b:
            skipped += 1
            continue
        pairs.append(FramePair(pid, verb, lu_a, lu_b, fa, fb,
                               short_definition(frame_definition(db, lex["id"], fa), settings.definition_chars),
                               short_definition(frame_definition(db, lex["id"], fb), settings.definition_chars),
                               ex_a, ex_b))
        if settings.limit is not None and len(pairs) >= settings.limit:
            break
    if not pairs:
        raise FbagentError(f"no verb-frame pair of lexicon {lex['name']!r} has exemplars for both frames",
                           "import a lexicon with annotated exemplars (FrameNet lu/ files)")
    return pairs, {"name": lex["name"], "lang": lex["lang"], "source": source, "skipped_pairs": skipped}


def build_problems(pairs: list[FramePair], seed: int) -> list[FrameIdProblem]:
    """Two problems per pair (one exemplar of each frame, seeded choice), options shuffled (seeded)."""
    out = []
    for pair in pairs:
        for side, exs in (("a", pair.exemplars_a), ("b", pair.exemplars_b)):
            pid = f"{pair.pair_id}|{side}"
            rng = random.Random(f"{seed}|{pid}")
            ex = rng.choice(exs)
            order = list(FRAME_LABELS)
            rng.shuffle(order)
            out.append(FrameIdProblem(pid, pair, side, ex, {str(i + 1): lab for i, lab in enumerate(order)}))
    return out


class FrameIdPrompt:
    """Renders frame identification prompts from ``prompts/frame_id/<lang>/v1.txt`` and ``item.txt``."""

    def __init__(self, lang: str) -> None:
        folder = lang if prompt_exists(f"frame_id/{lang}/v1.txt") else "generic"
        self.main = load_prompt(f"frame_id/{folder}/v1.txt")
        self.item = load_prompt(f"frame_id/{folder}/item.txt")

    @property
    def versions(self) -> dict[str, str]:
        return {"main": self.main.version, "item": self.item.version}

    def mark(self, ex: Exemplar) -> str:
        """The sentence with the target marked (``target_format``), unchanged when the span is unknown."""
        if ex.start is None or ex.end is None or not (0 <= ex.start < ex.end <= len(ex.text)):
            return ex.text
        fmt = self.main.meta.get("target_format", "*{target}*")
        return ex.text[: ex.start] + fmt.format(target=ex.text[ex.start: ex.end]) + ex.text[ex.end:]

    def options(self, p: FrameIdProblem) -> str:
        texts = {"frame_a": f"{p.pair.frame_a}: {p.pair.definition_a}", "frame_b": f"{p.pair.frame_b}: {p.pair.definition_b}",
                 "neither": self.main.meta.get("neither", "Neither frame is evoked")}
        fmt = self.main.meta.get("option_format", "{number}. {label}")
        return "\n".join(fmt.format(number=n, label=texts[p.mapping[n]]) for n in sorted(p.mapping, key=int))

    def block(self, p: FrameIdProblem, answer: str = "") -> str:
        return self.item.render(sentence=self.mark(p.exemplar), verb=p.pair.verb, options=self.options(p),
                                answer=answer).rstrip()

    def render(self, p: FrameIdProblem, shots: list[FrameIdProblem]) -> str:
        examples = "".join(self.block(s, " " + s.gold_choice) + "\n\n" for s in shots)
        return self.main.render(examples=examples, problem=self.block(p)).rstrip()


def pick_shots(p: FrameIdProblem, pool: list[FrameIdProblem], k: int, seed: int) -> list[FrameIdProblem]:
    """``k`` solved problems of other verbs for ``p`` (seeded by problem id); fewer when the pool is small."""
    others = [q for q in pool if q.pair.verb != p.pair.verb]
    if k <= 0 or not others:
        return []
    return random.Random(f"{seed}|shots|{p.problem_id}").sample(others, min(k, len(others)))


def make_record(p: FrameIdProblem, prompt: str, shots: list[FrameIdProblem], r: ChoiceResult) -> dict:
    """The stored prediction of one frame identification problem."""
    outcome = p.outcome(r.choice)
    return {
        "task": "frame_id", "key": p.problem_id, "problem_id": p.problem_id, "pair_id": p.pair.pair_id,
        "verb": p.pair.verb, "frame_a": p.pair.frame_a, "frame_b": p.pair.frame_b, "side": p.side,
        "exemplar_id": p.exemplar.id, "mapping": p.mapping, "gold_label": p.gold, "gold_choice": p.gold_choice,
        "label": p.mapping.get(r.choice) if r.choice else None, "outcome": outcome,
        "correct": None if outcome is None else outcome == "correct",
        "shots": [s.problem_id for s in shots], **choice_fields(r), "prompt": prompt,
    }


def frame_id_task(backend: Backend, settings: FrameIdSettings, *, reasoning: ReasoningConfig,
                  pairs: list[FramePair] | None = None, lexicon: dict | None = None,
                  command: list[str] | None = None) -> EvalTask:
    """Frame identification of ``settings`` as an :class:`~fbagent.eval.task.EvalTask`: one constrained job
    per problem (k-shot prompt), scored with :func:`fbagent.eval.metrics.frame_id_summary`. ``pairs`` and
    ``lexicon``: from :func:`load_pairs` (loaded here when None)."""
    if pairs is None or lexicon is None:
        pairs, lexicon = load_pairs(settings)
    lang = settings.lang or lexicon["lang"] or "en"
    prompt = FrameIdPrompt(lang)
    problems = build_problems(pairs, settings.seed)
    jobs = []
    for p in problems:
        shots = pick_shots(p, problems, settings.shots, settings.seed)
        text = prompt.render(p, shots)
        jobs.append(ChoiceJob(key=p.problem_id, group="v1", prompt=text, choices=CHOICES,
                              make_record=functools.partial(make_record, p, text, shots)))
    info = backend.info()
    manifest = {
        "task": "frame_id",
        "identity": {"task": "frame_id", "db": str(Path(settings.db).resolve()), "lexicon": lexicon["name"],
                     "pairs_source": lexicon["source"], "backend": info.name, "model": info.model,
                     "seed": settings.seed, "shots": settings.shots, "lang": lang, "reasoning": asdict(reasoning)},
        "command": command, "label": settings.label, "scoring": settings.scoring.as_dict(),
        "lexicon": lexicon, "backend": info.name, "model": info.model,
        "backend_options": info.options, "versions": {**base_versions(), **info.versions},
        "seed": settings.seed, "shots": settings.shots, "lang": lang, "prompts": prompt.versions,
        "reasoning": asdict(reasoning), "limit": settings.limit, "definition_chars": settings.definition_chars,
        "n_pairs": len(pairs), "n_problems": len(problems),
    }
    return choice_task("frame_id", manifest, jobs, lambda preds: frame_id_summary(
        preds, n_boot=settings.n_boot, seed=settings.seed, scoring=settings.scoring),
        batch_size=settings.batch_size, concurrency=settings.concurrency)


def run_frame_id(backend: Backend, settings: FrameIdSettings, out_dir: Path, *, reasoning: ReasoningConfig,
                 pairs: list[FramePair] | None = None, lexicon: dict | None = None, command: list[str] | None = None,
                 on_event: OnEvent | None = None, on_start: Callable[[int, int], None] | None = None,
                 on_progress: Callable[[int], None] | None = None) -> tuple[dict | None, dict]:
    """Run (or resume) frame identification into ``out_dir``; returns ``(summary, manifest)``.

    ``on_event``: the progress events of :func:`fbagent.eval.task.run_task`; ``on_start(total, done)``
    (answers of the run and how many are already stored) and ``on_progress(n)``: the same as callbacks.
    Calls that got no answer are asked again on resume.
    """
    task = frame_id_task(backend, settings, reasoning=reasoning, pairs=pairs, lexicon=lexicon, command=command)
    return run_task(backend, task, out_dir, on_event=chain(on_event, callbacks(on_start, on_progress)))
