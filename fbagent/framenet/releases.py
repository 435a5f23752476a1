"""Known FrameNet releases: their licence, citation (BibTeX) and home, given to a lexicon without asking.

A reader that recognises a release (the NLTK reader: Berkeley FrameNet 1.5 or 1.7 by its frame index, ASFALDA
by its name) fills :attr:`fbagent.framenet.model.LexiconData.provenance` with :func:`known_release`. The
licences are those the releases state: Berkeley FrameNet data is distributed under CC BY (the FrameNet
project's download page; FrameNet 1.7's README: Creative Commons Attribution 4.0); ASFALDA's terms are those
of its two corpora (the Sequoia part under LGPL-LR, the French Treebank part free for research use). The releases
of other layouts (Korean, Latvian, Turkish FrameNet) are their readers' (:mod:`fbagent.lexicon.releases`).
"""

from __future__ import annotations

from fbagent.framenet.model import Provenance

BAKER_1998 = """@inproceedings{baker-etal-1998-berkeley,
  title     = {The {B}erkeley {F}rame{N}et Project},
  author    = {Baker, Collin F. and Fillmore, Charles J. and Lowe, John B.},
  booktitle = {36th Annual Meeting of the Association for Computational Linguistics and 17th International Conference on Computational Linguistics, Volume 1},
  year      = {1998},
  address   = {Montreal, Quebec, Canada},
  publisher = {Association for Computational Linguistics},
  pages     = {86--90},
  url       = {https://aclanthology.org/P98-1013}
}"""

RUPPENHOFER_2016 = """@book{ruppenhofer-etal-2016-framenet,
  title     = {{FrameNet II}: Extended Theory and Practice},
  author    = {Ruppenhofer, Josef and Ellsworth, Michael and Petruck, Miriam R. L. and Johnson, Christopher R. and Baker, Collin F. and Scheffczyk, Jan},
  year      = {2016},
  publisher = {International Computer Science Institute},
  address   = {Berkeley, California},
  note      = {Revised November 1, 2016; the documentation of FrameNet release 1.7}
}"""

#: Berkeley FrameNet as its project asks to be cited: the project paper and the book of the release
BERKELEY_BIBTEX = BAKER_1998 + "\n\n" + RUPPENHOFER_2016
BERKELEY_URL = "https://framenet.icsi.berkeley.edu/"
BERKELEY_LICENSE = "CC-BY-4.0"

ASFALDA_BIBTEX = """@inproceedings{candito-etal-2014-developing,
  title     = {Developing a {F}rench {F}rame{N}et: Methodology and First Results},
  author    = {Candito, Marie and Amsili, Pascal and Barque, Lucie and Benamara, Farah and de Chalendar, Ga{\\"e}l and Djemaa, Marianne and Haas, Pauline and Huyghe, Richard and Mathieu, Yvette Yannick and Muller, Philippe and Sagot, Beno{\\^\\i}t and Vieu, Laure},
  booktitle = {Proceedings of the Ninth International Conference on Language Resources and Evaluation ({LREC}'14)},
  year      = {2014},
  address   = {Reykjavik, Iceland},
  pages     = {1372--1379}
}

@inproceedings{djemaa-etal-2016-corpus,
  title     = {Corpus Annotation within the {F}rench {F}rame{N}et: a Domain-by-domain Methodology},
  author    = {Djemaa, Marianne and Candito, Marie and Muller, Philippe and Vieu, Laure},
  booktitle = {Proceedings of the Tenth International Conference on Language Resources and Evaluation ({LREC}'16)},
  year      = {2016},
  address   = {Portoro{\\v{z}}, Slovenia},
  pages     = {3794--3801}
}"""
ASFALDA_LICENSE = "LGPL-LR (Sequoia part); free for research use (French Treebank part)"

#: release name -> its provenance (``license_source`` says it is a known release; ``reader`` is left to the reader)
KNOWN_RELEASES: dict[str, Provenance] = {
    "FrameNet 1.5": Provenance(BERKELEY_LICENSE, "known release: Berkeley FrameNet 1.5 (CC BY, the FrameNet project)",
                               BERKELEY_BIBTEX, BERKELEY_URL, "Berkeley FrameNet 1.5"),
    "FrameNet 1.7": Provenance(BERKELEY_LICENSE, "known release: Berkeley FrameNet 1.7 (CC BY 4.0, its README)",
                               BERKELEY_BIBTEX, BERKELEY_URL, "Berkeley FrameNet 1.7"),
    "ASFALDA French FrameNet": Provenance(
        ASFALDA_LICENSE, "known release: ASFALDA French FrameNet 1.3 (the terms of its Sequoia and French Treebank parts)",
        ASFALDA_BIBTEX, "https://sites.google.com/site/anrasfalda/", "ASFALDA French FrameNet 1.3"),
}


def known_release(name: str, reader: str = "") -> Provenance:
    """The provenance of the known release ``name`` (a key of :data:`KNOWN_RELEASES`) with ``reader`` filled.

    Raises ``KeyError`` for a name that is not a known release.
    """
    p = KNOWN_RELEASES[name]
    return Provenance(p.license, p.license_source, p.citation, p.url, p.name, reader)


def berkeley_release(n_frames: int) -> str | None:
    """Which Berkeley release an NLTK-layout English FrameNet is, by its size: ``FrameNet 1.5`` (1,019 frames),
    ``FrameNet 1.7`` (1,221 frames), else None (another release, a subset or a lexicon of one's own: its licence
    is not assumed)."""
    return {1019: "FrameNet 1.5", 1221: "FrameNet 1.7"}.get(n_frames)
