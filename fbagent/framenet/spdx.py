"""A licence given on the command line (``lexicon add --license``, ``export --license``), read as an SPDX id.

``--license cc-by-4`` was stored as typed and read as CC BY without a word. :func:`read_licence` now tells three
cases apart, with the SPDX licence list that ``packaging`` ships (``packaging.licenses``, PEP 639):

- an SPDX id in any case (``cc-by-sa-4.0``) is stored in the list's spelling (``CC-BY-SA-4.0``), and so is a
  near miss fbagent can repair without guessing (:func:`repair`: ``cc-by-4`` -> ``CC-BY-4.0``, ``CC BY-NC-SA 4.0``
  -> ``CC-BY-NC-SA-4.0``, ``GPLv3`` -> ``GPL-3.0-only``, ``apache2`` -> ``Apache-2.0``), with a line saying what was
  stored;
- one word that is no SPDX id but close to some (``CC-BY-NC-SA`` without its version, ``Apach-2.0``) is refused in
  one line listing the close ids (``difflib``);
- anything else (``"CC BY-NC-SA (https://...)"``, ``"free for research use"``, ``LGPL-LR``) is the source's own words,
  stored as given (:func:`fbagent.framenet.licences.terms` reads what it obliges).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache

from fbagent.errors import FbagentError
from fbagent.framenet.licences import hub_id

#: ids that are no SPDX id but name a licence or a state fbagent reads (Hub ``other``/``unknown``; LGPL-LR)
OWN_IDS = {"lgpl-lr": "LGPL-LR", "unknown": "unknown", "other": "other", "noassertion": "NOASSERTION"}
_CC = re.compile(r"^(?:cc|creative[-_ ]?commons)[-_ ]*((?:by|nc|nd|sa)(?:[-_ ]*(?:by|nc|nd|sa))*)[-_ ]*v?"
                 r"(\d)(?:[._](\d))?$", re.I)
_GPL = re.compile(r"^(a|l)?gpl[-_ ]*v?(\d)(?:[._](\d))?[-_ ]*(\+|or[-_ ]?later|only)?$", re.I)
_NUMBERED = re.compile(r"^([a-z][a-z0-9.+-]*?)[-_ ]*v?(\d+)$", re.I)  # a version without its ".0": apache2, mpl-2
_WORD = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_-]*$")


@dataclass(frozen=True)
class ReadLicence:
    """A licence as read: ``text`` (what to store: the SPDX id, or the source's words as given) and ``note`` (one
    line saying what was stored when that differs from what was typed; ``None`` otherwise)."""

    text: str
    note: str | None = None


@cache
def spdx_ids() -> dict[str, str]:
    """``{lower-case id: id}`` of every licence on the SPDX list ``packaging`` ships (about 700)."""
    from packaging.licenses._spdx import LICENSES  # the list behind canonicalize_license_expression

    return {key: entry["id"] for key, entry in LICENSES.items()}


def _cc_elements(text: str) -> list[str]:
    """The Creative Commons elements named in ``text`` (``by_nc_sa``), BY first: ``["BY", "NC", "SA"]``."""
    elements = [e.upper() for e in re.findall(r"by|nc|nd|sa", text.lower())]
    return elements if elements[:1] == ["BY"] else ["BY", *elements]


def repair(word: str) -> str | None:
    """The SPDX id a near miss means when only one reading is possible, else ``None``: a Creative Commons id with
    spaces, underscores or a version without ``.0`` (``cc-by-4``, ``CC_BY_NC_SA_4.0``), a GPL-family id
    (``GPLv3`` -> ``GPL-3.0-only``: SPDX's reading of the deprecated ``GPL-3.0``; ``gpl-3+`` -> ``GPL-3.0-or-later``),
    or another id whose version lacks ``.0`` (``apache2`` -> ``Apache-2.0``)."""
    ids = spdx_ids()
    if cc := _CC.match(word):
        candidate = f"cc-{'-'.join(_cc_elements(cc.group(1)))}-{cc.group(2)}.{cc.group(3) or 0}".lower()
        return ids.get(candidate)
    if gpl := _GPL.match(word):
        later = (gpl.group(4) or "").lower()
        suffix = "or-later" if later in ("+", "or-later", "orlater", "or_later", "or later") else "only"
        return ids.get(f"{(gpl.group(1) or '').lower()}gpl-{gpl.group(2)}.{gpl.group(3) or 0}-{suffix}")
    if num := _NUMBERED.match(word):
        return ids.get(f"{num.group(1).lower()}-{num.group(2)}.0")
    return None


def read_licence(text: str, option: str = "--license") -> ReadLicence:
    """Read a licence given with ``option`` (module docstring). ``text``: as typed (spacing already collapsed).

    Raises :class:`FbagentError` for one word that is no SPDX id but close to some: the close ids and the fix
    (one of them, or the source's own words in quotes).
    """
    ids = spdx_ids()
    key = text.lower()
    if key in ids or key in OWN_IDS:
        spelt = ids.get(key) or OWN_IDS[key]
        return ReadLicence(spelt, None if spelt == text else f"{option} {text} stored as {spelt} (its SPDX spelling)")
    fixed = repair(text.strip())
    if fixed is not None:
        return ReadLicence(fixed, f"{option} {text!r} is not an SPDX id; stored as {fixed}, the id it stands for")
    if not _WORD.match(text):
        return ReadLicence(text)  # the source's own words
    bare_cc = re.fullmatch(r"(?:cc|creative[-_ ]?commons)[-_ ]*((?:by|nc|nd|sa)(?:[-_ ]*(?:by|nc|nd|sa))*)", key)
    if bare_cc:  # CC-BY-SA without its version: every version of it
        prefix = "cc-" + "-".join(_cc_elements(bare_cc.group(1))).lower()
        close = sorted((k for k in ids if re.fullmatch(re.escape(prefix) + r"-\d\.\d", k)), reverse=True)
    else:
        close = difflib.get_close_matches(key, list(ids), n=6, cutoff=0.75)
    if not close:
        return ReadLicence(text)
    raise FbagentError(f"{option} {text!r} is not an SPDX licence id (close ones: {', '.join(ids[c] for c in close)})",
                       f"pass the SPDX id the source states (https://spdx.org/licenses/), or its own words in quotes "
                       f"(e.g. {option} 'CC BY-NC-SA, as its README says')")


def export_licence(text: str | None, option: str = "--license") -> ReadLicence | None:
    """``export --license`` read as a Hugging Face Hub licence id: an SPDX or Hub id (any case) and the source's own
    words pass as given; a near miss becomes the Hub id of the SPDX id it stands for (``cc-by-4`` -> ``cc-by-4.0``,
    said in the note); a word close to SPDX ids but none of them is refused (:func:`read_licence`). ``None`` for
    ``None``."""
    if text is None:
        return None
    if text.lower() in spdx_ids() or text.lower() in OWN_IDS or not _WORD.match(text):
        return ReadLicence(text)
    read = read_licence(text, option)
    if read.text == text:
        return read
    hub = hub_id(read.text)
    return ReadLicence(hub, f"{option} {text!r} is not a licence id; read as {hub}, the card's id for {read.text}")
