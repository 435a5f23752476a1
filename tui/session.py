"""Annotation sessions without UI: build an annotator's queue, walk it, write every answer at once.

The screens (:mod:`fbagent.tui.validate_screen`, :mod:`fbagent.tui.revise_screen`)
only draw and forward keys; everything that touches the database is here,
so it is testable without a terminal and shared by the benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from fbagent.errors import FbagentError
from fbagent.store import annotations as ann
from fbagent.store import revisions as rev
from fbagent.store.clock import utc_now
from fbagent.store.items import ANNOTATED_STATUSES
from fbagent.tui.scales import Level, Scale, scale_for
from fbagent.validation.aggregate import score_entries, worst_first
from fbagent.validation.assignment import Split, build_tasks, select_entries


@dataclass
class Selection:
    """What to annotate: run, language, item statuses, and the work split."""

    run: str | None = None
    language: str | None = None
    statuses: Sequence[str] = ANNOTATED_STATUSES
    split: Split = field(default_factory=Split)
    #: only these entries (``annotate --second-round``: the entries sent to a second round); None = all
    only: tuple[str, ...] | None = None

    def as_options(self) -> dict[str, Any]:
        """JSON-friendly form recorded with the session."""
        extra = {} if self.only is None else {"second_round": list(self.only)}
        return {"run": self.run, "lang": self.language, "statuses": list(self.statuses), **self.split.as_options(),
                **extra}


def assigned_entries(db: sqlite_utils.Database, selection: Selection) -> list[dict[str, Any]]:
    """Items (``id``, ``language``, the four sentences) assigned under ``selection``, in the stable entry order.

    Raises :class:`FbagentError` for an unknown run, when no entry matches,
    or when the split leaves nothing.
    """
    rows = ann.select_items(
        db, run=selection.run, language=selection.language, statuses=selection.statuses,
        columns="id, language, sentence_a, sentence_b, sentence_a_prime, sentence_b_prime",
    )
    if not rows:
        raise ann.explain_no_items(db, run=selection.run, language=selection.language, statuses=selection.statuses)
    if selection.only is not None:
        rows = [r for r in rows if r["id"] in set(selection.only)]
        if not rows:
            raise FbagentError("no entry of the selection waits for a second round that this annotator has not seen",
                               "drop --second-round, or ask the lead to send entries on (annotate --mode adjudicate)")
    ids = set(select_entries([r["id"] for r in rows], selection.split))
    if not ids:
        raise FbagentError(
            f"--range/--share select none of the {len(rows)} matching entries",
            f"pick a range inside 0:{len(rows)} or a smaller M in --share N/M",
        )
    return [r for r in rows if r["id"] in ids]


class ValidateSession:
    """One annotator's validate-mode queue over pair tasks.

    ``tasks`` is the queue: the tasks revised since this annotator judged them
    first (FrameBench 3.3: revised items are judged again), then the rest, each
    group in the annotator's seeded order. ``index`` points at the task on
    screen (``index == len(tasks)`` is the "all done" page). Every answer is
    written to SQLite when given (:func:`fbagent.store.annotations.save_answer`)
    with the fingerprint of the text on screen; the seconds a task is on
    screen (not counting time with help or a dialog open, see :meth:`pause`)
    are added when the annotator leaves it.

    Navigation: :meth:`advance` (Enter) goes on to the next open task;
    :meth:`next` (→) walks the queue in order; past the last task it
    goes on to the tasks still open (the skipped ones) in queue order, in the
    same session (``revisiting`` is then True), and shows the "all done" page
    only when no other task is open. :meth:`next_open` jumps to the next open
    task. ``resume_note`` says where a reopened session resumes and why.
    """

    mode = "validate"

    def __init__(
        self,
        db: sqlite_utils.Database,
        annotator: str,
        tasks: list[ann.Task],
        session_id: int,
        languages: dict[str, str],
        clock: Callable[[], float] = time.monotonic,
    ):
        self.db = db
        self.annotator = annotator
        self.tasks = tasks
        self.session_id = session_id
        self._languages = languages
        self.clock = clock
        self.n_done = sum(1 for t in tasks if t.done)
        self.index = ann.resume_index(tasks)
        # resumed on a skipped task: only skipped tasks are open, walk those
        self.revisiting = bool(tasks) and tasks[self.index].skipped == 1 and not tasks[self.index].done
        self.first_time = False  # set by open(): no task existed for this annotator before
        self.resume_note = ""  # set by open()
        self._paused_at: float | None = None
        self._shown_at = self.clock()
        self._shown_iso = utc_now()
        self._item_cache: tuple[str, dict[str, Any]] | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def open(
        cls, db: sqlite_utils.Database, annotator: str, selection: Selection, seed: int | None = None
    ) -> ValidateSession:
        """Assign entries, build the missing pair tasks (seeded), load the queue, resume.

        Each task is compared with the current (revised) text of its entry: a
        task judged only on an older text is open again and comes first
        (``Task.revised``); a task whose text was reverted to one it was judged
        on gets that judgment back. Raises :class:`FbagentError` on bad input
        (unknown run, nothing to annotate, seed clash).
        """
        entries = assigned_entries(db, selection)
        item_ids = [r["id"] for r in entries]
        recorded_seed = ann.ensure_annotator(db, annotator, seed)
        session_id = ann.start_session(db, annotator, "validate", recorded_seed, selection.as_options(), 4 * len(item_ids))
        have = ann.existing_task_keys(db, annotator)
        missing = [i for i in item_ids if any((i, p) not in have for p in ann.PAIR_KINDS)]
        if missing:
            present = {r["id"]: {f for f in rev.SENTENCE_FIELDS if r[f]} for r in entries}
            ann.insert_tasks(db, build_tasks(annotator, recorded_seed, missing, session_id, present))
        tasks = ann.load_queue(db, annotator, item_ids)
        if not tasks:
            raise FbagentError(
                f"the {len(item_ids)} selected entries have no complete sentence pair to judge",
                "select generated entries with all four sentences (e.g. drop --status rejected,failed)",
            )
        texts = rev.effective_texts(db, item_ids)
        judgments = ann.judgments_by_task(db, item_ids, annotator=annotator)
        for t in tasks:
            fp = ann.task_fingerprint(texts.get(t.item_id, {}), t.shown_first, t.shown_second)
            t.current_fingerprint = fp
            history = judgments.get(t.id)
            if not history:
                continue
            judged = ann.latest_with(history, fp)
            if judged is None:
                t.revised = True
            elif t.fingerprint != fp or not t.done:
                ann.restore_judgment(db, t, judged, annotator=annotator)  # text reverted to what was judged
        tasks = [t for t in tasks if t.revised] + [t for t in tasks if not t.revised]
        session = cls(db, annotator, tasks, session_id, {r["id"]: r["language"] for r in entries})
        session.first_time = not have
        session.resume_note = session._resume_note(ann.previous_position(db, annotator, "validate", session_id))
        return session

    def _resume_note(self, last_task_id: int | None) -> str:
        """Where a reopened session starts and why (empty the first time)."""
        if self.first_time or not self.tasks:
            return ""
        n = self.total
        if self.n_open == 0:
            return f"Welcome back: all {n} tasks are answered. ←/→ browse them, q quits."
        here = f"task {self.index + 1}/{n}"
        n_revised = sum(1 for t in self.tasks if t.revised and not t.done)
        if n_revised:
            return (f"Resuming at {here}: {n_revised} task(s) were revised since you judged them; "
                    "they come first, marked REVISED.")
        why = "the first skipped task (nothing unanswered is left)" if self.current and self.current.skipped else (
            "the first task still open")
        left = next((i for i, t in enumerate(self.tasks) if t.id == last_task_id), None)
        tail = f"; you left off at task {left + 1}" if left is not None and left != self.index else ""
        return f"Resuming at {here}, {why}{tail}. o jumps to the next open task."

    # ------------------------------------------------------------------ state

    @property
    def total(self) -> int:
        """Number of assigned pair tasks."""
        return len(self.tasks)

    @property
    def finished(self) -> bool:
        """True on the "all done" page (past the last task)."""
        return self.index >= len(self.tasks)

    @property
    def current(self) -> ann.Task | None:
        """The task on screen, or None on the "all done" page."""
        return None if self.finished else self.tasks[self.index]

    def scale(self, task: ann.Task | None = None) -> Scale:
        """Acceptability scale of the language of ``task`` (default: current task)."""
        task = task or self.current
        return scale_for(self._languages.get(task.item_id) if task else None)

    def scales_in_queue(self) -> list[tuple[Scale, list[str]]]:
        """Every acceptability scale of the queue, in order of first appearance, with its languages."""
        out: dict[str, tuple[Scale, list[str]]] = {}
        for t in self.tasks:
            lang = self._languages.get(t.item_id) or "?"
            scale = scale_for(lang)
            langs = out.setdefault(scale.name, (scale, []))[1]
            if lang not in langs:
                langs.append(lang)
        return list(out.values())

    def item(self, task: ann.Task | None = None) -> dict[str, Any]:
        """The effective (revised) item of ``task`` (default: current), read fresh unless cached for this task."""
        task = task or self.current
        assert task is not None
        if self._item_cache is None or self._item_cache[0] != task.item_id:
            self._item_cache = (task.item_id, rev.effective_item(self.db, task.item_id) or {})
        return self._item_cache[1]

    def missing(self, task: ann.Task | None = None) -> list[str]:
        """What the task still needs, in words: ``["answer (1-4)", "acceptability (u/a/n)"]``, or []."""
        task = task or self.current
        if task is None:
            return []
        out = []
        if task.shown_choice is None:
            out.append("answer (1-4)")
        if task.shown_acceptability is None:
            out.append(f"acceptability ({self.scale(task).keys})")
        return out

    # ------------------------------------------------------------------ the task timer

    @property
    def paused(self) -> bool:
        """True while help or a dialog is open (the task timer is stopped)."""
        return self._paused_at is not None

    def pause(self) -> None:
        """Stop the task timer (help or a dialog opened)."""
        if self._paused_at is None:
            self._paused_at = self.clock()

    def resume(self) -> None:
        """Restart the task timer where :meth:`pause` stopped it."""
        if self._paused_at is not None:
            self._shown_at += self.clock() - self._paused_at
            self._paused_at = None

    def _now(self) -> float:
        return self._paused_at if self._paused_at is not None else self.clock()

    def seconds_on_task(self) -> float:
        """Seconds spent on the current task: earlier visits plus this one, without paused time."""
        task = self.current
        return (task.seconds if task else 0.0) + (self._now() - self._shown_at)

    # ------------------------------------------------------------------ answers (each one committed)

    def _save(self, **changes: str | int | None) -> list[str]:
        task = self.current
        if task is None:
            return []
        was_done = task.done
        fingerprint = None
        if "choice" in changes or "acceptability" in changes:
            item = self.item(task)
            fingerprint = ann.task_fingerprint(item, task.shown_first, task.shown_second)
        changed = ann.save_answer(
            self.db, task, annotator=self.annotator, seconds=self.seconds_on_task(), shown_at=self._shown_iso,
            fingerprint=fingerprint, **changes,
        )
        self._shown_at = self._now()
        self.n_done += int(task.done) - int(was_done)
        return changed

    def choose(self, choice: str) -> list[str]:
        """Record the correctness choice ``A``, ``B``, ``both`` or ``neither`` (shown labels)."""
        return self._save(choice=choice, skipped=0)

    def rate(self, level: Level) -> list[str]:
        """Record the acceptability level (and its binarized value)."""
        return self._save(acceptability=level.name, acceptable=int(level.positive), skipped=0)

    def comment(self, text: str | None) -> list[str]:
        """Record the optional comment (empty text clears it)."""
        return self._save(comment=(text or "").strip() or None)

    def skip(self) -> None:
        """Mark the current task skipped (it comes back after the unanswered ones) and move on (see :meth:`next`)."""
        if self.current is not None and not self.current.done:
            self._save(skipped=1)
        self.next()

    # ------------------------------------------------------------------ navigation

    def leave(self) -> None:
        """Add the time on screen to the current task (one short write)."""
        task = self.current
        if task is not None:
            ann.save_answer(self.db, task, annotator=self.annotator, seconds=self.seconds_on_task(), shown_at=self._shown_iso)
        self._shown_at = self._now()

    def go(self, index: int) -> None:
        """Leave the current task and show task ``index`` (clamped to 0..len, len = all-done page).

        The item is read fresh, so a revision made meanwhile is what the
        annotator sees (and an answer given before it is no longer counted).
        """
        self.leave()
        self.index = max(0, min(index, len(self.tasks)))
        self._shown_at = self._now()
        self._shown_iso = utc_now()
        self._item_cache = None
        task = self.current
        if task is not None:
            self._refresh(task)
            ann.touch_session(self.db, self.session_id, task.id)

    def _refresh(self, task: ann.Task) -> None:
        """Compare ``task`` with its entry's text now (the lead may have revised it meanwhile)."""
        item = self.item(task)
        if not item:
            return
        fp = ann.task_fingerprint(item, task.shown_first, task.shown_second)
        if fp == task.current_fingerprint:
            return
        was_done = task.done
        task.current_fingerprint = fp
        if task.fingerprint is not None and task.fingerprint != fp and task.choice is not None:
            task.revised = True
        self.n_done += int(task.done) - int(was_done)

    @property
    def n_open(self) -> int:
        """Tasks not done yet (unanswered, skipped, or revised since judged)."""
        return self.total - self.n_done

    def next_open_index(self) -> int:
        """Index of the next open task after the current one in queue order, wrapping to the start.

        The current task itself is never returned; ``len(tasks)`` (the "all
        done" page) when no other task is open.
        """
        n = len(self.tasks)
        order = list(range(self.index + 1, n)) + list(range(0, min(self.index, n)))
        return next((i for i in order if not self.tasks[i].done), n)

    def next(self) -> None:
        """Show the next task: the following one in the queue; past the last one, the next open (skipped) task."""
        if not self.revisiting and self.index + 1 < len(self.tasks):
            self.go(self.index + 1)
            return
        self.revisiting = True
        self.go(self.next_open_index())

    def advance(self) -> None:
        """Enter: go on to the next open task in queue order (wrapping), or the "all done" page when none is left.

        Done tasks ahead are passed over, so after going back with ← (or
        reopening) one Enter returns to the work.
        """
        target = self.next_open_index()
        if target <= self.index or target >= len(self.tasks):
            self.revisiting = True  # wrapped past the end: from now on skipping walks the open tasks
        self.go(target)

    def next_open(self) -> bool:
        """Jump to the next open task (wrapping); returns False, staying put, when no other task is open."""
        target = self.next_open_index()
        if target >= len(self.tasks):
            return False
        self.go(target)
        return True

    def previous(self) -> None:
        """Show the previous task."""
        self.go(self.index - 1)

    def close(self) -> None:
        """Record the time on the current task and the session's last activity and position."""
        self.leave()
        task = self.current
        ann.touch_session(self.db, self.session_id, task.id if task else None)


class ReviseSession:
    """Revise mode: walk assigned entries, see every annotator's judgments, edit text, mark "cannot be fixed".

    Each save is an ``item_revisions`` row (:func:`fbagent.store.revisions.save_revision`);
    it makes the judgments of the pairs that show the field pending again
    (FrameBench 3.3). ``order`` is ``stable`` (the stable entry order) or
    ``worst-first`` (:func:`fbagent.validation.aggregate.worst_first`: lowest
    correctness, then acceptability, from current judgments). Resumes after
    the last entry this annotator revised.
    """

    mode = "revise"
    ORDERS = ("stable", "worst-first")

    def __init__(self, db: sqlite_utils.Database, annotator: str, item_ids: list[str], session_id: int,
                 order: str = "stable"):
        self.db = db
        self.annotator = annotator
        self.item_ids = item_ids
        self.session_id = session_id
        self.order = order
        self.index = 0
        last = rev.last_revised_item(db, annotator)
        if last in item_ids:
            self.index = min(item_ids.index(last) + 1, len(item_ids) - 1)

    @classmethod
    def open(cls, db: sqlite_utils.Database, annotator: str, selection: Selection, seed: int | None = None,
             order: str = "stable") -> ReviseSession:
        """Assign entries (in ``order``) and open the session. Raises :class:`FbagentError` on bad input."""
        if order not in cls.ORDERS:
            raise FbagentError(f"--order {order!r} is not an order", "pass --order stable or --order worst-first")
        item_ids = [r["id"] for r in assigned_entries(db, selection)]
        if order == "worst-first":
            item_ids = worst_first(score_entries(db, item_ids))
        recorded_seed = ann.ensure_annotator(db, annotator, seed)
        options = {**selection.as_options(), "order": order}
        session_id = ann.start_session(db, annotator, "revise", recorded_seed, options, len(item_ids))
        return cls(db, annotator, item_ids, session_id, order)

    @property
    def total(self) -> int:
        """Number of assigned entries."""
        return len(self.item_ids)

    @property
    def item_id(self) -> str:
        """Id of the entry on screen."""
        return self.item_ids[self.index]

    def item(self) -> dict[str, Any]:
        """The effective item on screen with frame and LU context and the human judgments.

        Adds ``context`` (:func:`fbagent.store.revisions.frame_context`) and
        ``review``, the entry's :class:`fbagent.validation.aggregate.EntryScore`
        (current judgments, task states, stale judgments, comments).
        """
        item = rev.effective_item(self.db, self.item_id) or {}
        item["context"] = rev.frame_context(self.db, item) if item else {}
        item["review"] = score_entries(self.db, [self.item_id])[self.item_id] if item else None
        return item

    def save(self, field_name: str, text: str) -> int | None:
        """Store a revision of ``field_name`` of the entry on screen; None when unchanged."""
        return rev.save_revision(self.db, self.item_id, field_name, text, self.annotator)

    def toggle_unfixable(self) -> bool:
        """Flip the "cannot be fixed" mark of the entry on screen; returns the new state."""
        new = not (rev.effective_item(self.db, self.item_id) or {}).get("unfixable", False)
        rev.set_unfixable(self.db, self.item_id, new, self.annotator)
        return new

    def go(self, index: int) -> None:
        """Show entry ``index`` (clamped)."""
        self.index = max(0, min(index, len(self.item_ids) - 1))

    def close(self) -> None:
        """Record the session's last activity."""
        ann.touch_session(self.db, self.session_id)
