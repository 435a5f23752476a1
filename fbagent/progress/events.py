"""Progress events: what a long library call reports while it runs (it prints nothing).

Four kinds, each a base class that a library may subclass with its own fields:

- :class:`Started`: a counted phase starts (``total`` units, ``done`` of them already stored, e.g.
  on resume); :class:`Stopped` closes it (finished, interrupted or failed);
- :class:`Progress`: a snapshot of the phase: ``done`` of ``total`` (not an increment);
- :class:`Note`: something to tell the user as text lines (:meth:`Note.lines`), with a ``level``
  (``info`` | ``warning`` | ``error``);
- :class:`Summary`: the call's result, last (``data``; :class:`Finished` is the plain one).

A caller passes one callable ``on_event(event)`` (:data:`OnEvent`) and renders what it wants;
``fbagent/commands/progress_view.py`` is the CLI's renderer. The order is free except that a
:class:`Progress` comes between a :class:`Started` and its :class:`Stopped`. :func:`callbacks` turns
the older pair ``on_start(total, done)`` / ``on_progress(n)`` of the eval tasks into an ``on_event``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeAlias


@dataclass(frozen=True)
class Started:
    """A counted phase starts: ``total`` units (entries, pairs, answers), ``done`` of them already
    finished before (a resumed run starts there); ``label``: what the bar is called; ``text``: a line
    shown before the bar (empty: none)."""

    total: int
    done: int = 0
    label: str = ""
    text: str = ""


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` units of the current phase are finished (a snapshot, counting ``Started.done``)."""

    done: int
    total: int


@dataclass(frozen=True)
class Stopped:
    """The current phase ended (finished, interrupted or failed)."""


class Note:
    """Something to tell the user: :meth:`lines` (plain text, no markup), ``level`` ``info`` | ``warning``
    (shown as ``warning: ...``) | ``error``; ``bold``: a part of the text to emphasise (a run name), and
    ``highlight``: whether numbers may be coloured. Subclasses are frozen dataclasses with their own fields;
    :class:`Message` is the plain one."""

    level: ClassVar[str] = "info"
    highlight: ClassVar[bool] = False

    @property
    def bold(self) -> str:
        return ""

    def lines(self) -> list[str]:
        """The note as lines of text (one by default)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Message(Note):
    """A note of one line, ``text``."""

    text: str

    def lines(self) -> list[str]:
        return [self.text]


class Summary:
    """The call's result (:attr:`data`: its summary object or dict): the last event of a call that ended.
    Subclasses are frozen dataclasses naming their own field; :class:`Finished` is the plain one."""

    @property
    def data(self) -> object:
        raise NotImplementedError


@dataclass(frozen=True)
class Finished(Summary):
    """The call ended with ``result``."""

    result: object

    @property
    def data(self) -> object:
        return self.result


#: every event a library call emits (subclasses of these: a room's own notes, progress and summaries)
Event: TypeAlias = "Started | Progress | Stopped | Note | Summary"
OnEvent = Callable[[Event], None]


def ignore(event: Event) -> None:
    """The default ``on_event``: drop every event."""


def callbacks(on_start: Callable[..., None] | None = None, on_progress: Callable[[int], None] | None = None,
              *, with_done: bool = True) -> OnEvent:
    """An ``on_event`` that calls ``on_start(total, done)`` (``on_start(total)`` when not ``with_done``) at
    :class:`Started` and ``on_progress(n)`` with the units finished since the last :class:`Progress`
    (the callbacks the eval tasks took before the protocol; either may be ``None``)."""
    last = 0

    def on_event(event: Event) -> None:
        nonlocal last
        if isinstance(event, Started):
            last = event.done
            if on_start is not None:
                on_start(event.total, event.done) if with_done else on_start(event.total)
        elif isinstance(event, Progress):
            step, last = event.done - last, event.done
            if on_progress is not None and step:
                on_progress(step)

    return on_event


def chain(*handlers: OnEvent | None) -> OnEvent:
    """One ``on_event`` calling each of ``handlers`` (``None`` skipped) in turn."""
    live = [h for h in handlers if h is not None]
    if not live:
        return ignore

    def on_event(event: Event) -> None:
        for h in live:
            h(event)

    return on_event
