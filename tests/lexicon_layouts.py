"""Small lexicons written by hand in each published layout fbagent reads (none of them copied from a release).

Each ``write_*`` function writes one into a folder and returns the path to pass to ``lexicon add``. The frame
names and ids are those of the embedded English sample (``sample-en``: Departing 57, Quitting 1402, Birth 1418),
so ``--frames-from`` can be tested against it; ``Giving_birth`` is FrameNet 1.7's name of 1.5's ``Birth``.
"""

from __future__ import annotations

import json
from pathlib import Path

KFN_LUS = {
    "11": {"lu": "떠나다.v.Departing", "pos": "v", "lexeme": "떠나다", "frame": "Departing", "fid": 57,
           "surface_forms": ["떠났다."], "annotation_ids": [0, 1, 2]},
    "12": {"lu": "떠나다.v.Quitting", "pos": "v", "lexeme": "떠나다", "frame": "Quitting", "fid": 1402,
           "surface_forms": ["떠났다."], "annotation_ids": [3]},
    "13": {"lu": "출발.n.Departing", "pos": "n", "lexeme": "출발", "frame": "Departing", "fid": 57,
           "surface_forms": [], "annotation_ids": []},
    "14": {"lu": "낳다.v.Giving_birth", "pos": "v", "lexeme": "낳다", "frame": "Giving_birth", "fid": 1418,
           "surface_forms": [], "annotation_ids": []},
}
KFN_INFO = {"Departing": {"definition": "An object (the Theme) moves away from a Source.  'He left.'",
                          "arguments": [{"fe": "Theme", "definition": "What moves.", "semType": [], "coreType": "Core"},
                                        {"fe": "Source", "definition": "Where from.", "semType": [],
                                         "coreType": "Core"}]}}
KFN_TSV = """#anno-id:1
#text:그는 아침에 집을 떠났다.
0\t그는\t_\t_\tB-Theme
1\t아침에\t_\t_\tB-Time
2\t집을\t_\t_\tB-Source
3\t떠났다.\t떠나다.v\tDeparting\tO

#anno-id:2
#text:그녀는 회사를 떠났다.
0\t그녀는\t_\t_\tB-Employee
1\t회사를\t_\t_\tB-Employer
2\t떠났다.\t떠나다.v\tQuitting\tO

"""


def write_kfn(folder: Path, *, tsv: str = KFN_TSV, lus_json: str | None = None) -> Path:
    """A Korean FrameNet checkout (version 1.2): 4 LUs in 3 frames, frame info for Departing, 2 TSV sentences."""
    (folder / "resource" / "1.2").mkdir(parents=True)
    (folder / "resource" / "info").mkdir()
    (folder / "data" / "1.2").mkdir(parents=True)
    (folder / "resource" / "1.2" / "KFN_lus.json").write_text(
        lus_json if lus_json is not None else json.dumps(KFN_LUS, ensure_ascii=False, indent=4), "utf-8")
    (folder / "resource" / "info" / "frame_info_full.json").write_text(json.dumps(KFN_INFO, indent=4), "utf-8")
    (folder / "resource" / "info" / "FN17_frame2id.json").write_text(
        json.dumps({"Departing": 57, "Quitting": 1402, "Giving_birth": 1418}), "utf-8")
    (folder / "data" / "1.2" / "dev.tsv").write_text(tsv, "utf-8")
    return folder


def _row(i: int, form: str, lemma: str, upos: str, fill: str = "_", pred: str = "_", arg: str = "_") -> str:
    return "\t".join([str(i), form, lemma, upos, "x", "_", "0", "dep", "0:dep", fill, pred, arg])


CONLL = "\n".join([
    "# sent_id = t1",
    "# text = Viņš aizbrauca no Rīgas.",
    _row(1, "Viņš", "viņš", "PRON", arg="Theme"),
    _row(2, "aizbrauca", "aizbraukt", "VERB", "Y", "Departing"),
    _row(3, "no", "no", "ADP"),
    _row(4, "Rīgas", "Rīga", "PROPN", arg="Source"),
    _row(5, ".", ".", "PUNCT"),
    "",
    "# sent_id = t2",
    "# text = Viņa aizbrauca no darba.",
    _row(1, "Viņa", "viņa", "PRON", arg="Employee"),
    _row(2, "aizbrauca", "aizbraukt", "VERB", "Y", "Quitting"),
    _row(3, "no", "no", "ADP"),
    _row(4, "darba", "darbs", "NOUN", arg="Employer"),
    _row(5, ".", ".", "PUNCT"),
    "",
    "# sent_id = t3",
    "# text = Kaķis dzemdēja.",
    _row(1, "Kaķis", "kaķis", "NOUN", arg="Mother"),
    _row(2, "dzemdēja", "dzemdēt", "VERB", "Y", "Giving_birth"),
    "",
    "# sent_id = t4",
    "# text = Bez mērķa.",
    _row(1, "Bez", "bez", "ADP"),
    _row(2, "mērķa", "mērķis", "NOUN"),
    "",
    "",
])


def write_conll(folder: Path, text: str = CONLL, *, readme: bool = True) -> Path:
    """A CoNLL-2009 FrameNet folder (12 columns): 3 annotation sets (aizbraukt in Departing and Quitting, dzemdēt
    in Giving_birth) and one sentence without a target; with ``readme``, a README naming the Latvian FullStack."""
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "a.conll2009").write_text(text, "utf-8")
    if readme:
        (folder / "README.md").write_text("# FrameNet\n\nA Latvian FrameNet layer of the FullStack corpus.\n", "utf-8")
    return folder


TR_XML = """<FRAMENET>
    <FRAME NAME="Departing">
        <LEXICAL_UNITS>
            <LEXICAL_UNIT>TUR10-0000100</LEXICAL_UNIT>
        </LEXICAL_UNITS>
        <FRAME_ELEMENTS>
            <FRAME_ELEMENT>Theme</FRAME_ELEMENT>
            <FRAME_ELEMENT>Yön</FRAME_ELEMENT>
        </FRAME_ELEMENTS>
    </FRAME>
    <FRAME NAME="Quitting">
        <LEXICAL_UNITS>
            <LEXICAL_UNIT>TUR10-0000200</LEXICAL_UNIT>
            <LEXICAL_UNIT>TUR10-9999999</LEXICAL_UNIT>
        </LEXICAL_UNITS>
        <FRAME_ELEMENTS>
            <FRAME_ELEMENT>Employee</FRAME_ELEMENT>
        </FRAME_ELEMENTS>
    </FRAME>
</FRAMENET>
"""
KENET_XML = """<SYNSETS>
<SYNSET><ID>TUR10-0000100</ID><SYNONYM><LITERAL>ayrılmak<SENSE>1</SENSE></LITERAL><LITERAL>gitmek<SENSE>2</SENSE></LITERAL></SYNONYM><POS>v</POS><DEF>Bir yerden uzaklaşmak</DEF><EXAMPLE>Sabah erkenden evden ayrıldı.</EXAMPLE></SYNSET>
<SYNSET><ID>TUR10-0000200</ID><SYNONYM><LITERAL>ayrılmak<SENSE>3</SENSE></LITERAL></SYNONYM><POS>v</POS><DEF>İşini bırakmak</DEF></SYNSET>
<SYNSET><ID>TUR10-0000300</ID><SYNONYM><LITERAL>ev<SENSE>1</SENSE></LITERAL></SYNONYM><POS>n</POS><DEF>Konut</DEF></SYNSET>
</SYNSETS>
"""


def write_starlang(folder: Path, xml: str = TR_XML) -> Path:
    """A Turkish FrameNet ``framenet.xml`` (2 frames, 3 synset ids, one unknown to :data:`KENET_XML`)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "framenet.xml").write_text(xml, "utf-8")
    return folder


def write_kenet(path: Path) -> Path:
    """A KeNet XML with the synsets :data:`TR_XML` names (KeNet's own element names)."""
    path.write_text(KENET_XML, "utf-8")
    return path


LU_CSV = """Word,Tag,FN_frame,Sentence
partir,verb,Departing,Il va <t>partir</t> demain.
partir,verb,Quitting,Elle a voulu <t>partir</t> de la société.
quitter,verb,Quitting,
accoucher,verb,Giving_birth,
départ,noun,Departing,
"""
