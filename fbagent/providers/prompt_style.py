"""Which prompt style a model gets (``--prompt-style auto|chat|fewshot``), decided from GGUF metadata.

- ``chat``: the instruction prompts of ``prompts/`` as chat messages; for chat
  models (every API model; a GGUF whose metadata has a chat template).
- ``fewshot``: completion prompts with worked examples
  (:mod:`fbagent.prompting.fewshot`), completed under the response model's JSON
  grammar; for base models (a GGUF without a chat template, such as the offline
  Gemma 3 270M, which prompted like a chat model echoes its prompt).
- ``auto`` (default): ``fewshot`` for a local GGUF without
  ``tokenizer.chat_template`` in its metadata, ``chat`` for everything else.

The metadata is read from the GGUF header by :func:`read_gguf_metadata` (plain
Python, no llama.cpp and no model load), so a dry run or the run's naming can
decide before any model is loaded; :class:`fbagent.providers.local.LlamaCppBackend`
applies the same rule (:func:`style_from_metadata`) to the metadata llama.cpp reads.
"""

from __future__ import annotations

import functools
import mmap
import os
import struct
from typing import Any

from fbagent.errors import FbagentError
from fbagent.providers.gguf import default_gguf_path

PROMPT_STYLE_CHOICES = ("auto", "chat", "fewshot")
CHAT_TEMPLATE_KEY = "tokenizer.chat_template"

# GGUF value types (gguf.h): scalar struct formats, little endian; 8 = string, 9 = array
_SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def check_prompt_style(style: str) -> str:
    """``style`` when it is one of ``auto | chat | fewshot``; else :class:`FbagentError` (one line, with the fix)."""
    if style not in PROMPT_STYLE_CHOICES:
        raise FbagentError(f"unknown prompt style {style!r}", f"pass --prompt-style {' | '.join(PROMPT_STYLE_CHOICES)}")
    return style


def style_from_metadata(metadata: dict[str, Any]) -> str:
    """``chat`` when GGUF ``metadata`` holds a non-empty chat template (``tokenizer.chat_template`` or a
    named ``tokenizer.chat_template.NAME``), else ``fewshot`` (a base model)."""
    for key, value in metadata.items():
        if (key == CHAT_TEMPLATE_KEY or key.startswith(CHAT_TEMPLATE_KEY + ".")) and str(value or "").strip():
            return "chat"
    return "fewshot"


def read_gguf_metadata(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The key/value metadata of a GGUF file (versions 2 and 3): scalars and strings as Python values,
    arrays as their length (``int``; a tokenizer's 262k tokens are skipped, not decoded).

    Reads only the header, through ``mmap``, in well under a second for a tokenizer of 262k tokens.
    Raises :class:`FbagentError` for a missing, truncated or non-GGUF file.
    """
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            return _parse_header(buf)
    except (OSError, ValueError, struct.error, UnicodeDecodeError, IndexError) as err:
        raise FbagentError(f"could not read the GGUF metadata of {path} ({type(err).__name__}: {err})",
                           "pass --model-path with a valid GGUF file, or --prompt-style chat|fewshot") from err


def _parse_header(buf: Any) -> dict[str, Any]:
    if buf[:4] != b"GGUF":
        raise ValueError("not a GGUF file (no GGUF magic)")
    (version,) = struct.unpack_from("<I", buf, 4)
    if version < 2:
        raise ValueError(f"GGUF version {version} is not supported (2 or 3 expected)")
    _n_tensors, n_kv = struct.unpack_from("<QQ", buf, 8)
    pos = 24
    out: dict[str, Any] = {}
    for _ in range(n_kv):
        key, pos = _string(buf, pos)
        (kind,) = struct.unpack_from("<I", buf, pos)
        out[key], pos = _value(buf, pos + 4, kind)
    return out


def _string(buf: Any, pos: int) -> tuple[str, int]:
    (n,) = struct.unpack_from("<Q", buf, pos)
    end = pos + 8 + n
    if end > len(buf):
        raise ValueError("the file ends inside its metadata")
    return bytes(buf[pos + 8:end]).decode("utf-8"), end


def _value(buf: Any, pos: int, kind: int) -> tuple[Any, int]:
    if kind in _SCALAR:
        fmt = _SCALAR[kind]
        return struct.unpack_from(fmt, buf, pos)[0], pos + struct.calcsize(fmt)
    if kind == _STRING:
        return _string(buf, pos)
    if kind == _ARRAY:
        item, count = struct.unpack_from("<IQ", buf, pos)
        pos += 12
        if item in _SCALAR:
            pos += count * struct.calcsize(_SCALAR[item])
        else:
            for _ in range(count):
                _, pos = _value(buf, pos, item)
        if pos > len(buf):
            raise ValueError("the file ends inside its metadata")
        return count, pos
    raise ValueError(f"unknown GGUF value type {kind}")


def gguf_prompt_style(path: str | os.PathLike[str]) -> str:
    """:func:`style_from_metadata` of the GGUF file at ``path``, read once per file version (path, size,
    modification time). Raises :class:`FbagentError` if unreadable."""
    try:
        st = os.stat(path)
    except OSError as err:
        raise FbagentError(f"could not read the GGUF metadata of {path} ({err})",
                           "pass --model-path with a valid GGUF file, or --prompt-style chat|fewshot") from err
    return _cached_style(os.fspath(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _cached_style(path: str, _size: int, _mtime_ns: int) -> str:
    return style_from_metadata(read_gguf_metadata(path))


def resolve_prompt_style(requested: str, backend: str, model_path: str | None = None) -> str:
    """The style a model gets: ``requested`` unless it is ``auto``; for ``auto`` a ``local`` backend's
    GGUF decides (``model_path``, default: the offline Gemma file), every API backend gets ``chat``.

    A local model file that does not exist (yet) counts as ``chat``: loading it fails later with its
    own error line. Raises :class:`FbagentError` for an unknown style or an unreadable GGUF.
    """
    check_prompt_style(requested)
    if requested != "auto":
        return requested
    if backend not in ("local", "llamacpp"):
        return "chat"
    if model_path is None:
        model_path = default_gguf_path()
    if not model_path or not os.path.isfile(model_path):
        return "chat"
    return gguf_prompt_style(model_path)
