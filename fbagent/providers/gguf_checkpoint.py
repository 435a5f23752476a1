"""A GGUF model as a Hugging Face checkpoint folder, converted once and cached (the wheel-only offline engine).

transformers reads a GGUF file itself (``from_pretrained(..., gguf_file=...)``: the ``gguf`` package's
vectorised numpy dequantisation, the tokenizer converted to a ``tokenizers`` fast tokenizer), but every
load parses the file's metadata again (Gemma 3's 262,144-token vocabulary: about 13 s per parse on one
core, three parses per load). So the file is converted once: :func:`prepare_checkpoint` writes
``model.safetensors`` (the weights dequantised to float32), ``config.json``, ``tokenizer.json`` and
``tokenizer_config.json`` into ``<cache>/<sha256[:16]>-float32/`` (:func:`checkpoint_folder`), built in a
temporary folder and renamed into place (two processes converting at once both finish; the later rename
finds the folder there and keeps it). Later loads only hash the file (about 0.5 s for 250 MB) and read
the folder (about 6 s with the tokenizer and llguidance's token table).

The cache is ``$FBAGENT_MODEL_CACHE`` or ``~/.cache/fbagent/checkpoints`` (:func:`cache_root`). ``fbagent models prepare``
runs the conversion at install time (README command 1), so the first ``generate`` does not pay it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TypedDict

from fbagent.errors import FbagentError

#: the one dtype the offline engine uses: float32 on the CPU (determinism, issue 42)
CHECKPOINT_DTYPE = "float32"


class CheckpointSource(TypedDict):
    """``source.json`` of a converted checkpoint: what it was made from."""

    gguf: str
    sha256: str
    dtype: str
    seconds: float


def cache_root() -> Path:
    """Folder holding converted checkpoints: ``$FBAGENT_MODEL_CACHE``, else ``$XDG_CACHE_HOME/fbagent/checkpoints``,
    else ``~/.cache/fbagent/checkpoints``."""
    env = os.environ.get("FBAGENT_MODEL_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "fbagent" / "checkpoints"


def file_sha256(path: str | Path) -> str:
    """SHA-256 of the file at ``path`` (hex digest), read in 4 MiB blocks. Raises ``OSError``."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()


def checkpoint_folder(gguf_path: str | Path, sha256: str | None = None) -> Path:
    """Where the checkpoint of ``gguf_path`` lives (whether built or not): ``<cache>/<sha256[:16]>-float32``."""
    key = sha256 or file_sha256(gguf_path)
    return cache_root() / f"{key[:16]}-{CHECKPOINT_DTYPE}"


def is_prepared(folder: Path) -> bool:
    """Whether ``folder`` holds a complete converted checkpoint (its ``source.json`` is written last)."""
    return (folder / "source.json").is_file() and (folder / "model.safetensors").is_file()


def prepare_checkpoint(gguf_path: str | Path) -> tuple[Path, float | None]:
    """The checkpoint folder of ``gguf_path``, converting the GGUF first when it is not cached.

    Returns ``(folder, seconds the conversion took)``; the seconds are ``None`` when the folder was
    already there. Raises :class:`FbagentError` for a missing package, a file transformers cannot read
    as a GGUF model, or a cache folder that cannot be written.
    """
    gguf_path = Path(gguf_path)
    try:
        key = file_sha256(gguf_path)
    except OSError as err:
        raise FbagentError(f"cannot read the GGUF file {gguf_path} ({err.strerror})",
                           "pass --model-path with an existing .gguf file") from err
    target = checkpoint_folder(gguf_path, key)
    if is_prepared(target):
        return target, None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".convert-", dir=target.parent))
    except OSError as err:
        raise FbagentError(f"cannot write the model cache {target.parent} ({err.strerror})",
                           "set FBAGENT_MODEL_CACHE to a writable folder") from err
    try:
        start = time.perf_counter()
        _convert(gguf_path, tmp)
        seconds = time.perf_counter() - start
        source: CheckpointSource = {"gguf": gguf_path.name, "sha256": key, "dtype": CHECKPOINT_DTYPE,
                                    "seconds": round(seconds, 1)}
        (tmp / "source.json").write_text(json.dumps(source, indent=1), encoding="utf-8")
        try:
            os.replace(tmp, target)
        except OSError:
            if not is_prepared(target):   # another process renamed its copy first: keep that one
                raise
        return target, seconds
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _convert(gguf_path: Path, out: Path) -> None:
    """Write the transformers checkpoint of ``gguf_path`` into ``out`` (transformers' own GGUF reader)."""
    try:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from transformers.utils import logging as hf_logging
    except ImportError as err:
        raise FbagentError("the offline engine needs torch, transformers and gguf",
                           "pip install 'fbagent[local]'") from err
    hf_logging.disable_progress_bar()
    folder, name = str(gguf_path.parent), gguf_path.name
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    except ImportError as err:
        raise FbagentError(f"cannot read {gguf_path} ({err})", "pip install 'fbagent[local]'") from err
    except (ValueError, OSError, KeyError) as err:
        raise FbagentError(f"transformers cannot read {gguf_path} as a GGUF model ({type(err).__name__}: {err})",
                           "pass --model-path with a GGUF of an architecture transformers supports, "
                           "or use --generator llamacpp") from err
    model.hf_quantizer = None   # the GGUF "quantizer" only dequantised at load: the weights are plain tensors
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
