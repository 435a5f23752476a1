"""Lexicon readers (FrameNet XML via NLTK, JSONL) and the importer.

- :mod:`.importer`: ``fbagent lexicon add`` (any reader, into the store) and the lexicon a command names;
- :mod:`.nltk_reader`, :mod:`.jsonl_reader`, :mod:`.archive`, :mod:`.locate`: the readers and where corpora are;
- :mod:`.readers`: the readers of the published layouts, one module each (:mod:`.kfn_reader` Korean FrameNet,
  :mod:`.conll2009_reader` CoNLL-2009 / Latvian, :mod:`.starlang_reader` Turkish + KeNet, :mod:`.lu_list_reader`
  CSV/TSV/JSON LU lists), their licences and citations (:mod:`.releases`), and :mod:`.frames_from` (frame text
  borrowed from a Berkeley FrameNet);
- :mod:`.nltk_writer`: FrameNet XML written back (tests, other tools);
- :mod:`.provenance`: the licence, citation and source stored with a lexicon (reader, known release, options).

The records the readers return are :mod:`fbagent.framenet`'s (below the store).

The importer's names load on first use (:func:`fbagent.lean_imports.lazy_attributes`): ``fbagent lexicon --help``
and ``fbagent pairs --help`` import this package, not the readers (jsonschema, NLTK's corpus readers) or the verb
check's analysers that an import reports on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.lexicon.importer import (
        EMBEDDED_NAME,
        FORMAT_LABELS,
        FORMATS,
        ImportOptions,
        import_lexicon,
        needs_embedded,
        resolve_lexicon,
    )
    from fbagent.lexicon.jsonl_reader import LexiconFormatError
    from fbagent.lexicon.provenance import import_overrides, licence_note

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.lexicon.importer": ("EMBEDDED_NAME", "FORMATS", "FORMAT_LABELS", "ImportOptions", "import_lexicon", "needs_embedded",
                                 "resolve_lexicon"),
    "fbagent.lexicon.jsonl_reader": ("LexiconFormatError",),
    "fbagent.lexicon.provenance": ("import_overrides", "licence_note"),
}
__all__ = ["EMBEDDED_NAME", "FORMATS", "FORMAT_LABELS", "ImportOptions", "LexiconFormatError", "import_lexicon", "import_overrides",
           "licence_note", "needs_embedded", "resolve_lexicon"]

__getattr__ = lazy_attributes(__name__, _MODULES)
