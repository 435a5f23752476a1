"""Few-shot completion prompts for base models (``--prompt-style fewshot``), from ``prompts/**/fewshot_*.toml``.

A base model (a GGUF without a chat template, such as the offline Gemma 3 270M)
does not follow instructions; it continues text. So instead of the chat
prompts it gets worked examples: ``intro``, then ``shots`` examples from the
file (those whose verb is not the current pair's verb), each rendered as
``block`` followed by its answer as one line of JSON, then ``block`` for the
current request, left open after its cue (``Answer: ``). The backend completes
that text under the response model's JSON grammar. Every word the model reads
comes from the file; this module only fills slots.

File keys: ``version`` (recorded with the run), ``shots`` (examples per prompt),
``separator`` (between blocks), ``intro``, ``block`` (a :meth:`str.format`
template) and ``[[examples]]`` tables holding the block's slots, the ``verb``
they illustrate and ``answer`` (the response model's fields, in its order).

Slot helpers: :func:`meaning` (a one-line gloss of a frame as evoked by the
verb) and :func:`short_use` / :func:`pick_use` (the lexicon's shortest example of
the verb in a frame, cut after the words that follow the verb).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from fbagent.errors import FbagentError
from fbagent.store.rows import FrameContext, FrameExample

# words that end the phrase after the verb in :func:`short_use` (English function words); other
# languages keep up to MAX_USE_WORDS words
_PHRASE_END = frozenset(
    "with in on at for to from by into after before during because and but which who when while as so if "
    "than until about over through of that".split()
)
MAX_USE_WORDS = 3
_WORD = re.compile(r"[\w'’-]+|[^\w\s]")


@dataclass(frozen=True)
class FewShotPrompt:
    """One few-shot prompt file (see the module doc); ``path`` is relative to ``prompts/``."""

    path: str
    version: str
    shots: int
    separator: str
    intro: str
    block: str
    examples: tuple[dict[str, Any], ...]

    def render(self, verb: str | None = None, /, **slots: Any) -> str:
        """The completion prompt for one request: worked examples (not for ``verb``) and the open block.

        ``slots`` fill ``block`` for the current request; every example table fills it for its
        shot (``language`` and other slots the example lacks are taken from ``slots``).
        Raises :class:`FbagentError` when a slot is missing.
        """
        parts = [self.intro] if self.intro else []
        blocks = [self._block({**slots, **ex}) + json.dumps(ex["answer"], ensure_ascii=False)
                  for ex in self.examples_for(verb)]
        blocks.append(self._block(slots))
        parts.append(self.separator.join(blocks))
        return "".join(parts)

    def examples_for(self, verb: str | None) -> list[dict[str, Any]]:
        """The first ``shots`` examples whose verb differs from ``verb`` (compared by :func:`verb_key`)."""
        key = verb_key(verb) if verb else None
        return [ex for ex in self.examples if key is None or verb_key(str(ex.get("verb", ""))) != key][: self.shots]

    def _block(self, values: dict[str, Any]) -> str:
        try:
            return self.block.format(**values)
        except KeyError as err:
            raise FbagentError(f"prompt {self.path} needs the value {err}", "report this as a bug") from err


def verb_key(verb: str) -> str:
    """A verb's comparison key: lower case, first word, no LU suffix (``"Take off.v"`` -> ``"take"``)."""
    word = verb.strip().lower().split(" ")[0] if verb.strip() else ""
    return word.split(".")[0]


def parse_fewshot(path: str, text: str) -> FewShotPrompt:
    """Parse a few-shot TOML file. Raises :class:`FbagentError` for bad TOML or a missing key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise FbagentError(f"prompt file prompts/{path} is not valid TOML ({err})", "fix the file") from err
    missing = [k for k in ("version", "block", "examples") if k not in data]
    if missing:
        raise FbagentError(f"prompt file prompts/{path} lacks {', '.join(missing)}",
                           "add them (see fbagent/prompting/fewshot.py)")
    examples = tuple(data["examples"])
    if any("answer" not in ex for ex in examples):
        raise FbagentError(f"prompt file prompts/{path} has an example without an answer", "add its answer table")
    return FewShotPrompt(path=path, version=str(data["version"]), shots=int(data.get("shots", 3)),
                         separator=str(data.get("separator", "\n\n")), intro=str(data.get("intro", "")),
                         block=str(data["block"]), examples=examples)


@lru_cache(maxsize=64)
def load_fewshot(relpath: str) -> FewShotPrompt:
    """Load ``prompts/<relpath>`` (e.g. ``"generate/en/fewshot_base.toml"``).

    Raises :class:`FbagentError` when the file does not exist or is malformed.
    """
    node = resources.files("fbagent.prompts").joinpath(*relpath.split("/"))
    if not node.is_file():
        raise FbagentError(f"prompt file prompts/{relpath} does not exist", "reinstall fbagent or add the file")
    return parse_fewshot(relpath, node.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- slots


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to the first ``. `` / ``? `` / ``! ``), whitespace collapsed."""
    flat = " ".join((text or "").split())
    match = re.search(r"(?<=[.!?])\s", flat)
    return flat[: match.start()] if match else flat


def meaning(frame: FrameContext) -> str:
    """A one-line gloss of a frame as evoked by the verb: the LU definition, else the frame definition's
    first sentence (``frame`` is :func:`fbagent.store.lexicon.frame_context` output); no final period."""
    text = (frame.get("lu_definition") or "").strip() or first_sentence(frame.get("definition") or "")
    return " ".join(text.split()).rstrip(" .;:")


def short_use(example: FrameExample) -> str:
    """An example sentence cut after the verb and at most :data:`MAX_USE_WORDS` following words.

    The cut stops early at punctuation or at a function word (``with``, ``in``...) after the
    first word, so ``"She held the cup with both hands."`` -> ``"She held the cup."``. An example
    without a target span is returned whole.
    """
    text, end = example.get("text") or "", example.get("target_end")
    if example.get("target_start") is None or end is None or not 0 < end <= len(text):
        return " ".join(text.split())
    kept: list[re.Match[str]] = []
    for match in _WORD.finditer(text, end):
        word = match.group()
        if not (word[0].isalnum() or word[0] == "_") or (kept and word.lower() in _PHRASE_END):
            break
        kept.append(match)
        if len(kept) == MAX_USE_WORDS:
            break
    cut = kept[-1].end() if kept else end
    return " ".join(text[:cut].split()).rstrip(" ,;:") + "."


def pick_use(frame: FrameContext, rank: int = 0, whole: bool = False, avoid: str | None = None) -> str:
    """An example of the verb in ``frame`` for a prompt, from the LU's own exemplars (the frame's
    examples when the LU has none); ``""`` when there is none.

    By default the ``rank``-th shortest :func:`short_use` (0: the shortest; a retry asks for
    rank 1, another example); with ``whole`` the ``rank``-th longest whole example that is not
    ``avoid`` (for ``extend``: a use other than the base sentence). Ranks past the end give the last.
    """
    examples = frame.get("examples") or []
    own = [e for e in examples if e.get("source") == "exemplar"] or list(examples)
    if whole:
        texts = [" ".join((e.get("text") or "").split()) for e in own]
        texts = sorted({t for t in texts if t and t != avoid} or {t for t in texts if t}, key=lambda t: (-len(t), t))
    else:
        spanned = [e for e in own if e.get("target_start") is not None] or own
        texts = sorted({short_use(e) for e in spanned}, key=lambda t: (len(t), t))
    return texts[min(rank, len(texts) - 1)] if texts else ""
