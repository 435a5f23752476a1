"""HanTa's sentence tagging, the same best tag sequence in a fraction of the time.

HanTa's ``HanoverTagger.tag_sent`` finds the most probable tag sequence of a sentence with a
Viterbi search over tag bigram states (``LP_trans_word``: state -> next tag -> log probability),
keeping the states within reach of the five best of each word. For every kept state it walks
all of that state's transitions (about 64 in the English model) and drops those whose tag the
word cannot have; the word itself has a handful of tags (``_tag_word``, cut off 5 nats below
its best). That walk was 95% of HanTa's time per sentence in ``benchmarks/bench_generate.py``
(about 0.3 ms a sentence, four sentences an entry, on the checks' thread).

:class:`SentenceViterbi` is fbagent's own search over the same model tables with the same
scores: it visits only the word's own tags, in the order the state's transitions list them
(the order decides which of two equally scored paths is kept, so ties end alike), and adds the
same three log probabilities in the same order, so the sums are bit-identical. A word HanTa
knows no tag for (no tags, or only ``UNKNOWN``) may follow any transition, as in HanTa.
``tests/test_hanta_viterbi.py`` compares both on every sentence of the verb test sets in German,
Dutch and English and on shuffled word sequences.

:func:`install` puts it in place of ``tag_sent_viterbi`` on one loaded tagger (an attribute of that
object: HanTa's class and other taggers are untouched).
"""

from __future__ import annotations

import math
from typing import Any

# HanTa's reserved tag numbers (HanTa/HanoverTagger.py: EMPTY, START, END, UNKNOWN)
_EMPTY, _START, _END, _UNKNOWN = 0, 1, 2, 3
_FLOOR = -1e6          # a path scoring at or below this is dropped (HanTa's lower bound)
_BEAM = 5              # states within reach of the 5 best of the previous word are extended
_CUTOFF = 5            # a word's tags within 5 nats of its best (HanTa's tag_sent_viterbi)
MEMO_SIZE = 65536      # word forms, and (state, tags) pairs, kept by each tagger's search

State = tuple[int, int]


class SentenceViterbi:
    """``tagger.tag_sent_viterbi(sent, casesensitive=True)`` of a HanTa ``HanoverTagger``: the list of tag
    numbers of the words of ``sent`` (a list of str), equal to HanTa's own method's result.

    Memoised (pure functions of the loaded model, at most :data:`MEMO_SIZE` entries each, then emptied):
    a word form's tags (HanTa's ``_tag_word``) and, per state and set of tags, the transitions to take.
    Raises what HanTa raises where HanTa's search finds no path (it runs HanTa's method then)."""

    def __init__(self, tagger: Any) -> None:
        self.tagger = tagger
        self.original = tagger.tag_sent_viterbi
        self.transitions: dict[State, dict[int, float]] = tagger.LP_trans_word
        self._words: dict[tuple[str, bool], dict[int, float]] = {}
        self._moves: dict[tuple[State, tuple[int, ...]], list[tuple[int, float]]] = {}

    def _tags(self, word: str, casesensitive: bool) -> dict[int, float]:
        """The word's tags and their log probabilities, as HanTa's search asks for them ({} for none known)."""
        key = (word, casesensitive)
        tags = self._words.get(key)
        if tags is None:
            tags = dict(self.tagger._tag_word(word, cutoff=_CUTOFF, casesensitive=casesensitive, conditional=True))
            if len(tags) == 1 and _UNKNOWN in tags:
                tags = {}
            if len(self._words) >= MEMO_SIZE:
                self._words.clear()
            self._words[key] = tags
        return tags

    def _moves_from(self, state: State, tags: tuple[int, ...]) -> list[tuple[int, float]]:
        """``(tag, log p(tag | state))`` of the transitions of ``state`` to one of ``tags`` (all but END when
        ``tags`` is empty), in the order ``state`` lists its transitions."""
        key = (state, tags)
        moves = self._moves.get(key)
        if moves is None:
            wanted = set(tags)
            moves = [(tag, p) for tag, p in self.transitions[state].items()
                     if tag != _END and (not wanted or tag in wanted)]
            if len(self._moves) >= MEMO_SIZE:
                self._moves.clear()
            self._moves[key] = moves
        return moves

    def __call__(self, sent: list[str], casesensitive: bool = True) -> list[int]:
        if not sent:              # HanTa's tag_sent never asks; its method fails on it: the same failure
            return list(self.original(sent, casesensitive))
        columns: list[dict[State, State]] = []    # per word: state -> the previous state it was reached from
        scores: dict[State, float] = {(_EMPTY, _START): 0.0}
        for i, word in enumerate(sent):
            scores, came_from = self._step(scores, self._tags(word, casesensitive and i > 0))
            columns.append(came_from)
        best: State | None = None
        best_score = -math.inf
        for state, score in scores.items():
            total = score + self.transitions[state].get(_END, -math.inf)
            if total > best_score:
                best, best_score = state, total
        if best is None:          # no path (HanTa fails here too): let HanTa's own method say how
            return list(self.original(sent, casesensitive))
        tags_out: list[int] = []
        state = best
        for came_from in reversed(columns):
            tags_out.append(state[1])
            state = came_from[state]
        return tags_out[::-1]

    def _step(self, scores: dict[State, float], tags: dict[int, float]) -> tuple[dict[State, float], dict[State, State]]:
        """One word: the scores of the states reachable from ``scores`` with one of ``tags`` (any tag when
        ``tags`` is empty), and for each the state it came from (the first of equal scores wins)."""
        bound = sorted(scores.values(), reverse=True)[_BEAM] - 1 if len(scores) > _BEAM else _FLOOR
        row: dict[State, float] = {}
        came_from: dict[State, State] = {}
        wanted = tuple(tags)
        for state, score in scores.items():
            if score < bound:
                continue
            last = state[1]
            for tag, p_transition in self._moves_from(state, wanted):
                total = score + p_transition + tags.get(tag, 0)
                if total > _FLOOR:
                    new = (last, tag)
                    if new not in row or total > row[new]:
                        row[new] = total
                        came_from[new] = state
        return row, came_from


def install(tagger: Any) -> Any:
    """Make ``tagger`` (a loaded HanTa ``HanoverTagger``) search with :class:`SentenceViterbi`; returns it.
    Installing twice changes nothing."""
    if not isinstance(tagger.__dict__.get("tag_sent_viterbi"), SentenceViterbi):
        tagger.tag_sent_viterbi = SentenceViterbi(tagger)
    return tagger
