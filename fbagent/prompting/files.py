"""Prompt templates stored as files under ``prompts/`` (package ``fbagent.prompts``).

File format (UTF-8 text)::

    version: generate_base/en@1
    ---
    You are ... {frame_a_name} ...

The header holds ``key: value`` lines (``version`` is required) up to a line
``---``; the body is a :meth:`str.format` template. A run records the
``version`` of every prompt it used.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from fbagent.errors import FbagentError


@dataclass(frozen=True)
class PromptTemplate:
    """One prompt file: ``version`` (str), ``meta`` (header dict), ``body`` (template text)."""

    path: str
    version: str
    meta: dict[str, str]
    body: str

    def render(self, **values: object) -> str:
        """Fill the body's ``{name}`` slots. Raises :class:`FbagentError` for a missing slot."""
        try:
            return self.body.format(**values)
        except KeyError as err:
            raise FbagentError(f"prompt {self.path} needs the value {err}", "report this as a bug") from err


def parse_prompt(path: str, text: str) -> PromptTemplate:
    """Parse a prompt file's text. Raises :class:`FbagentError` when the header or version is missing."""
    head, sep, body = text.partition("\n---\n")
    if not sep:
        raise FbagentError(f"prompt file {path} has no '---' line after its header", "add 'version: ...' and '---' at the top")
    meta = {}
    for line in head.splitlines():
        if ":" in line:
            key, _, value = line.partition(":")
            meta[key.strip()] = value.strip()
    if "version" not in meta:
        raise FbagentError(f"prompt file {path} has no version line", "add 'version: NAME@N' to its header")
    return PromptTemplate(path=path, version=meta["version"], meta=meta, body=body.strip("\n") + "\n")


@lru_cache(maxsize=256)
def load_prompt(relpath: str) -> PromptTemplate:
    """Load ``prompts/<relpath>`` (e.g. ``"generate/en/generate_base.txt"``).

    Raises :class:`FbagentError` when the file does not exist.
    """
    node = resources.files("fbagent.prompts").joinpath(*relpath.split("/"))
    if not node.is_file():
        raise FbagentError(f"prompt file prompts/{relpath} does not exist", "reinstall fbagent or add the file")
    return parse_prompt(relpath, node.read_text(encoding="utf-8"))


def prompt_exists(relpath: str) -> bool:
    """True when ``prompts/<relpath>`` exists."""
    return resources.files("fbagent.prompts").joinpath(*relpath.split("/")).is_file()
