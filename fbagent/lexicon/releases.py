"""The published FrameNets fbagent knows by layout: their licence, citation and home, as their sources state them.

A reader that recognises one of these releases fills :attr:`fbagent.framenet.model.LexiconData.provenance`
with :func:`known`; any other resource read by the same reader gets ``license="unknown"`` and the reader's name.
Licences are SPDX ids where the source names a version, else the source's own words (the Korean FrameNet's
README says "CC BY-NC-SA" and links the 2.0 deed; no version is stated in words, so the words are kept with the
link: ``CC BY-NC-SA (https://creativecommons.org/licenses/by-nc-sa/2.0/)``, whose Hub id is ``cc-by-nc-sa-2.0``).
Citations are the papers the projects publish for these releases (the Korean and Latvian READMEs name none:
the Korean FrameNet's LREC papers and the FullStack/Latvian FrameNet papers are given, with FrameNet 1.7
whose frames they use, one text with the card's: :data:`fbagent.framenet.releases.RUPPENHOFER_2016`; the Turkish
README's own BibTeX entry is kept as written; the Open Dutch FrameNet Lexicon's README gives its three papers'
BibTeX, kept, and says MIT where its LICENSE file is Apache-2.0: the README's words are stored and the LICENSE named
in the licence source). SweFN (Språkbanken Text's resource page: CC BY 4.0) is cited with
the SweFN++ paper (Borin et al. 2010), the SweFN paper (Friberg Heppin and Toporowska Gronostaj 2012) and the data
set as its page asks.
"""

from __future__ import annotations

from dataclasses import replace

from fbagent.framenet.model import Provenance
from fbagent.framenet.releases import RUPPENHOFER_2016

KOREAN_BIBTEX = """@inproceedings{hahm2020crowdsourcing,
  title = {Crowdsourcing in the Development of a Multilingual {FrameNet}: A Case Study of {Korean FrameNet}},
  author = {Hahm, Younggyun and Noh, Youngbin and Han, Ji Yoon and Oh, Tae Hwan and Choe, Hyonsu and Kim, Hansaem and Choi, Key-Sun},
  booktitle = {Proceedings of the Twelfth Language Resources and Evaluation Conference (LREC 2020)},
  year = {2020},
  publisher = {European Language Resources Association}
}
@inproceedings{hahm2018semiautomatic,
  title = {Semi-automatic {Korean FrameNet} Annotation over {KAIST} Treebank},
  author = {Hahm, Younggyun and Kwon, Sunggoo and Kim, Jiseong and Choi, Key-Sun},
  booktitle = {Proceedings of the Eleventh International Conference on Language Resources and Evaluation (LREC 2018)},
  year = {2018},
  publisher = {European Language Resources Association}
}
""" + RUPPENHOFER_2016

LATVIAN_BIBTEX = """@inproceedings{nespore2018latvian,
  title = {{Latvian FrameNet}: Cross-Lingual Issues},
  author = {Ne{\\v{s}}pore-B{\\=e}rzkalne, Gunta and Saul{\\=\\i}te, Baiba and Gr{\\=u}z{\\=\\i}tis, Normunds},
  booktitle = {Human Language Technologies -- The Baltic Perspective (Baltic HLT 2018)},
  series = {Frontiers in Artificial Intelligence and Applications},
  pages = {96--103},
  year = {2018},
  publisher = {IOS Press},
  doi = {10.3233/978-1-61499-912-6-96}
}
@inproceedings{gruzitis2018fullstack,
  title = {Creation of a Balanced State-of-the-Art Multilayer Corpus for {NLU}},
  author = {Gr{\\=u}z{\\=\\i}tis, Normunds and Pretkalni{\\c{n}}a, Lauma and Saul{\\=\\i}te, Baiba and Rituma, Laura and Ne{\\v{s}}pore-B{\\=e}rzkalne, Gunta and Znoti{\\c{n}}{\\v{s}}, Art{\\=u}rs and Paikens, Peteris},
  booktitle = {Proceedings of the Eleventh International Conference on Language Resources and Evaluation (LREC 2018)},
  year = {2018},
  publisher = {European Language Resources Association}
}
""" + RUPPENHOFER_2016

TURKISH_BIBTEX = """@inproceedings{marsan20,
  title = {{B}uilding the {T}urkish {F}rame{N}et},
  year = {2021},
  author = {B. Marsan and N. Kara and M. Ozcelik and B. N. Arican and N. Cesur and A. Kuzgun and E. Saniyar and O. Kuyrukcu and O. T. Y{\\i}ld{\\i}z},
  booktitle = {Proceedings of GWC 2021}
}"""

SWEFN_BIBTEX = """@inproceedings{borin-etal-2010-past,
  title = {The Past Meets the Present in {Swedish FrameNet++}},
  author = {Borin, Lars and Dann{\\'e}lls, Dana and Forsberg, Markus and Toporowska Gronostaj, Maria and Kokkinakis, Dimitrios},
  booktitle = {Proceedings of the 14th EURALEX International Congress},
  pages = {269--281},
  address = {Leeuwarden},
  year = {2010}
}
@inproceedings{friberg-heppin-toporowska-gronostaj-2012-rocky,
  title = {The Rocky Road towards a {Swedish FrameNet} -- Creating {SweFN}},
  author = {Friberg Heppin, Karin and Toporowska Gronostaj, Maria},
  booktitle = {Proceedings of the Eighth International Conference on Language Resources and Evaluation (LREC'12)},
  pages = {256--261},
  address = {Istanbul, Turkey},
  publisher = {European Language Resources Association},
  year = {2012}
}
@misc{sprakbanken-2021-swefn,
  title = {Swedish {FrameNet} ({SweFN})},
  author = {{Spr{\\aa}kbanken Text}},
  year = {2021},
  note = {Data set, version of 2021-12-21},
  url = {https://spraakbanken.gu.se/resurser/swefn}
}"""

ODFN_BIBTEX = """@inproceedings{Vos:Fok:Mak:Son:18,
  address = {Miyazaki, Japan},
  author = {Piek Vossen and Antske Fokkens and Isa Maks and Chantal Van Son},
  booktitle = {{Proceedings of the International FrameNet Workshop}},
  title = {{Open Dutch FrameNet}},
  url = {http://lrec-conf.org/workshops/lrec2018/W5/pdf/6_W5.pdf},
  year = {2018}
}
@inproceedings{postma-etal-2020-combining,
  address = {Marseille, France},
  author = {Postma, Marten and Remijnse, Levi and Ilievski, Filip and Fokkens, Antske and Titarsolej, Sam and Vossen, Piek},
  booktitle = {Proceedings of the International FrameNet Workshop 2020: Towards a Global, Multilingual FrameNet},
  pages = {31--40},
  publisher = {European Language Resources Association},
  title = {Combining Conceptual and Referential Annotation to Study Variation in Framing},
  url = {https://www.aclweb.org/anthology/2020.framenet-1.5},
  year = {2020}
}
@inproceedings{dfn-lrec2022,
  author = {Levi Remijnse and Piek Vossen and Antske Fokkens and Sam Titarsolej},
  booktitle = {Proceedings of the 13th Language Resources and Evaluation Conference, Marseille, June, 2022},
  title = {Introducing Frege to Fillmore: A FrameNet Dataset that Captures both Sense and Reference},
  url = {http://www.lrec-conf.org/proceedings/lrec2022/pdf/2022.lrec-1.5.pdf},
  year = {2022}
}
""" + RUPPENHOFER_2016

#: the deed the Korean FrameNet's README links from its words "CC BY-NC-SA" (kept with them: the Hub id follows it)
KOREAN_LICENSE_LINK = "https://creativecommons.org/licenses/by-nc-sa/2.0/"

#: release key -> its provenance (``reader`` is set by :func:`known`)
RELEASES: dict[str, Provenance] = {
    "korean-framenet": Provenance(
        license=f"CC BY-NC-SA ({KOREAN_LICENSE_LINK})", license_source="known release: Korean FrameNet (its README: "
        "`CC BY-NC-SA` Attribution-NonCommercial-ShareAlike, linking the 2.0 deed)",
        citation=KOREAN_BIBTEX, url="https://github.com/machinereading/koreanframenet", name="Korean FrameNet"),
    "latvian-framenet": Provenance(
        license="CC-BY-SA-4.0", license_source="known release: Latvian FrameNet (FullStack corpus, CC BY-SA 4.0)",
        citation=LATVIAN_BIBTEX, url="https://github.com/LUMII-AILab/FullStack/tree/master/FrameNet",
        name="Latvian FrameNet (FullStack)"),
    "turkish-framenet": Provenance(
        license="GPL-3.0-only", license_source="known release: Turkish FrameNet (its repository's LICENSE: GNU GPL "
        "version 3); lemmas, POS and examples from KeNet (nlptoolkit-wordnet, GPL-3.0)",
        citation=TURKISH_BIBTEX, url="https://github.com/StarlangSoftware/TurkishFrameNet", name="Turkish FrameNet"),
    "odfn": Provenance(
        license="MIT", license_source="known release: Open Dutch FrameNet Lexicon (its README: \"licensed under the "
        "MIT open source license\"; the repository's LICENSE file is the Apache License 2.0)",
        citation=ODFN_BIBTEX, url="https://github.com/cltl/OpenDutchFrameNetLexicon",
        name="Open Dutch FrameNet Lexicon"),
    "arabic-framenet": Provenance(
        license="unknown", license_source="known release: Arabic FrameNet layer 2 (its README: the licence of the "
        "Arabic additions is \"to be declared by the owner\"; its FrameNet 1.7 parts are used under CC BY 3.0)",
        citation=RUPPENHOFER_2016, url="https://github.com/hhiyassat/arabic-framenet", name="Arabic FrameNet"),
    "swefn": Provenance(
        license="CC-BY-4.0", license_source="known release: Swedish FrameNet (SweFN; its resource page at "
        "Språkbanken Text: CC BY 4.0); parts of speech from SALDO (CC BY 4.0) where saldo.xml lay beside it",
        citation=SWEFN_BIBTEX, url="https://spraakbanken.gu.se/resurser/swefn", name="Swedish FrameNet (SweFN)"),
}


def known(key: str, reader: str, version: str = "") -> Provenance:
    """The provenance of release ``key`` of :data:`RELEASES` read by ``reader``; ``version`` (``"1.2"``) is added to
    its name and licence source. Raises ``KeyError`` for an unknown key (a programming error)."""
    base = RELEASES[key]
    if not version:
        return replace(base, reader=reader)
    name = f"{base.name} {version}"
    return replace(base, reader=reader, name=name, license_source=base.license_source.replace(base.name, name, 1))


def unknown(reader: str) -> Provenance:
    """The provenance of a resource no known release matches: licence ``"unknown"``, read by ``reader``."""
    return Provenance(reader=reader)
