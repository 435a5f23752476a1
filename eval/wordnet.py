"""WordNet 3.0 through NLTK's ``WordNetCorpusReader``, reading a Debian ``wordnet-base`` folder or nltk_data.

Debian's ``wordnet-base`` installs the WordNet 3.0 database under
``/usr/share/wordnet`` without two files NLTK's reader opens: ``lexnames``
(the 45 lexicographer file names, fixed for WordNet 3.0 and listed in
:data:`LEXNAMES` from the ``lexnames(5WN)`` manual) and ``index.sense``
(only needed to map other WordNet versions onto this one). The reader
subclass below serves ``lexnames`` from memory and skips that mapping, so
the system copy is read in place; the folder is added to ``nltk.data.path``
because NLTK 3.10 only reads corpora under its data paths.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING

from fbagent.errors import FbagentError

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

DEBIAN_WORDNET = Path("/usr/share/wordnet")

# WordNet 3.0 lexicographer files: (number, name, syntactic category 1=noun 2=verb 3=adj 4=adv).
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling",
    "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
    "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation",
    "noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition",
    "verb.communication", "verb.competition", "verb.consumption", "verb.contact", "verb.creation",
    "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
)
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}


def lexnames_text() -> str:
    """The ``lexnames`` file of WordNet 3.0 (``NN<TAB>name<TAB>category`` lines)."""
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))


def find_wordnet_dir(explicit: Path | None = None) -> Path:
    """The WordNet 3.0 database folder: ``explicit``, else ``/usr/share/wordnet``, else nltk_data's copy.

    Raises :class:`FbagentError` when none has ``data.verb``.
    """
    candidates = [Path(explicit)] if explicit else [DEBIAN_WORDNET]
    if not explicit:
        try:
            import nltk

            for base in nltk.data.path:
                candidates.append(Path(base) / "corpora" / "wordnet")
        except ImportError:
            pass
    for c in candidates:
        if (c / "data.verb").is_file() and (c / "index.verb").is_file():
            return c
    raise FbagentError("WordNet 3.0 was not found" + (f" in {explicit}" if explicit else ""),
                       "apt-get install wordnet-base (or pass --wordnet-dir with a WordNet 3.0 dict folder)")


def load_wordnet(folder: Path | None = None) -> WordNetCorpusReader:
    """An NLTK ``WordNetCorpusReader`` on the WordNet 3.0 folder (cached per resolved folder).

    Raises :class:`FbagentError` when the folder is missing or NLTK refuses it.
    """
    return _load_wordnet(find_wordnet_dir(folder).resolve())


@lru_cache(maxsize=2)
def _load_wordnet(path: Path) -> WordNetCorpusReader:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class _Reader(WordNetCorpusReader):
        def open(self, file: str) -> IO[str]:
            if file == "lexnames" and not (path / "lexnames").exists():
                return io.StringIO(lexnames_text())
            return super().open(file)

        def map_wn(self, version: str = "wordnet") -> None:  # this IS WordNet 3.0: no cross-version mapping
            return None

    if str(path) not in [str(p) for p in nltk.data.path]:
        nltk.data.path.append(str(path))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "multilingual functions are not available"
            return _Reader(str(path), None)
    except (OSError, PermissionError, ValueError) as err:
        raise FbagentError(f"NLTK cannot read WordNet in {path} ({err})",
                           "check the folder's permissions (chmod go-w) or pass --wordnet-dir") from err


@dataclass
class Sense:
    """One sense of a word: ``key`` (e.g. a WordNet synset name), its gloss and usage examples."""

    key: str
    definition: str
    examples: list[str] = field(default_factory=list)


@dataclass
class DictWord:
    """A dictionary headword with its senses (same part of speech)."""

    word: str
    pos: str
    senses: list[Sense]


def example_uses_word(wn: WordNetCorpusReader, example: str, word: str, pos: str) -> bool:
    """True when a token of ``example`` is ``word`` or inflects to it (WordNet ``morphy``)."""
    for tok in example.replace("'", " ").replace('"', " ").split():
        t = tok.strip(".,;:!?()[]").lower()
        if t == word or (t and wn.morphy(t, pos) == word):
            return True
    return False


def wordnet_words(wn: WordNetCorpusReader, pos: str, min_senses: int) -> list[DictWord]:
    """Single-word lemmas of ``pos`` with at least ``min_senses`` senses with distinct glosses.

    Senses keep only examples that use the word; order is WordNet's (by frequency).
    """
    out = []
    for lemma in sorted(wn.all_lemma_names(pos=pos)):
        if not lemma.isalpha():
            continue
        synsets = wn.synsets(lemma, pos=pos)
        if len(synsets) < min_senses:
            continue
        senses, seen = [], set()
        for s in synsets:
            if lemma not in [ln.lower() for ln in s.lemma_names()]:
                continue  # reached through morphology only
            d = s.definition().strip()
            if not d or d in seen:
                continue
            seen.add(d)
            senses.append(Sense(s.name(), d, [e for e in s.examples() if example_uses_word(wn, e, lemma, pos)]))
        if len(senses) >= min_senses:
            out.append(DictWord(lemma, pos, senses))
    return out
