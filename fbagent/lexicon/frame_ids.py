"""The name a frame known only by its Berkeley FrameNet id has until ``--frames-from`` names it (``frame #262``).

An LU list may name its frames by FrameNet 1.7 id alone (the Arabic FrameNet's ``lus_ar.csv``); such a frame is
read as ``frame #ID`` and :func:`fbagent.lexicon.frames_from.borrow_frame_text` renames it to the reference
frame of that id.
"""

from __future__ import annotations

import re

_ID_NAME = re.compile(r"^frame #(\d+)$")


def id_name(frame_id: int) -> str:
    """``262`` -> ``"frame #262"``."""
    return f"frame #{frame_id}"


def is_id_name(name: str) -> bool:
    """Whether ``name`` is such a placeholder (``"frame #262"``)."""
    return bool(_ID_NAME.match(name))
