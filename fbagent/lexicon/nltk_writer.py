"""Write a :class:`LexiconData` in the NLTK FrameNet XML layout.

Used to build the embedded sample (``fbagent/data/sample_en``) from its JSONL
source (``fbagent/data/sample_en_jsonl``) and by tests that need a small,
editable NLTK-layout resource. Output: ``frameIndex.xml``, ``luIndex.xml``,
``frRelation.xml``, ``frame/<Name>.xml`` and ``lu/lu<ID>.xml`` (exemplars;
FrameNet label ends are inclusive). Reading the result back with
:func:`fbagent.lexicon.nltk_reader.read_nltk` gives the same frames, FEs,
LUs, relations and exemplars.

Command line: ``python -m fbagent.lexicon.nltk_writer SRC OUT_DIR`` (SRC as
accepted by :func:`fbagent.lexicon.jsonl_reader.read_jsonl`).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from fbagent.framenet.model import LexiconData
from fbagent.lexicon.jsonl_reader import read_jsonl

FN_NS = "http://framenet.icsi.berkeley.edu"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'


def _attrs(**kw: object) -> str:
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def write_nltk_layout(data: LexiconData, out: str | Path) -> Path:
    """Write ``data`` as an NLTK-layout FrameNet under ``out`` (created; files overwritten).

    Frames, LUs and FEs without an ID get sequential ones (frames from 1, LUs
    from 1, FEs from 1, skipping IDs already used). Returns the output folder.
    """
    out = Path(out)
    (out / "frame").mkdir(parents=True, exist_ok=True)
    (out / "lu").mkdir(exist_ok=True)
    new_frame_id = _allocator({f.frame_id for f in data.frames if f.frame_id is not None})
    frame_ids = {f.name: f.frame_id if f.frame_id is not None else new_frame_id() for f in data.frames}
    new_lu_id = _allocator({lu.lu_id for lu in data.lexical_units if lu.lu_id is not None})
    lu_ids = [lu.lu_id if lu.lu_id is not None else new_lu_id() for lu in data.lexical_units]
    _write_indexes(data, out, frame_ids, lu_ids)
    _write_relations(data, out, frame_ids)
    _write_frames(data, out, frame_ids, lu_ids)
    _write_lu_files(data, out, frame_ids, lu_ids)
    return out


def _allocator(used: set[int]) -> Callable[[], int]:
    """A function that returns the smallest ID from 1 not in ``used`` and adds it there."""
    nxt = 1

    def take() -> int:
        nonlocal nxt
        while nxt in used:
            nxt += 1
        used.add(nxt)
        return nxt

    return take


def _write_indexes(data: LexiconData, out: Path, frame_ids: dict[str, int], lu_ids: list[int]) -> None:
    """``frameIndex.xml`` and ``luIndex.xml``."""
    rows = "".join(f"    <frame{_attrs(ID=frame_ids[f.name], name=f.name)}/>\n" for f in data.frames)
    (out / "frameIndex.xml").write_text(f'{_HEAD}<frameIndex xmlns="{FN_NS}">\n{rows}</frameIndex>\n', "utf-8")

    rows = "".join(
        f"    <lu{_attrs(hasAnnotation=str(bool(lu.exemplars)).lower(), frameID=frame_ids[lu.frame], frameName=lu.frame, status='Finished_Initial', name=lu.name, ID=lid)}/>\n"
        for lu, lid in zip(data.lexical_units, lu_ids, strict=True)
    )
    (out / "luIndex.xml").write_text(f'{_HEAD}<luIndex xmlns="{FN_NS}">\n{rows}</luIndex>\n', "utf-8")


def _write_relations(data: LexiconData, out: Path, frame_ids: dict[str, int]) -> None:
    """``frRelation.xml``: one ``frameRelationType`` per relation type (sorted), relations numbered from 1."""
    by_type: dict[str, list] = defaultdict(list)
    for rel in data.relations:
        by_type[rel.type].append(rel)
    parts = []
    rel_id = 0
    for t_id, (rtype, rels) in enumerate(sorted(by_type.items()), start=1):
        inner = []
        for rel in rels:
            rel_id += 1
            inner.append(
                f"        <frameRelation{_attrs(subID=frame_ids.get(rel.sub_frame, 0), supID=frame_ids.get(rel.super_frame, 0), subFrameName=rel.sub_frame, superFrameName=rel.super_frame, ID=rel_id)}/>\n"
            )
        parts.append(
            f"    <frameRelationType{_attrs(subFrameName='Child', superFrameName='Parent', name=rtype, ID=t_id)}>\n"
            + "".join(inner)
            + "    </frameRelationType>\n"
        )
    (out / "frRelation.xml").write_text(f'{_HEAD}<frameRelations xmlns="{FN_NS}">\n{"".join(parts)}</frameRelations>\n', "utf-8")


def _write_frames(data: LexiconData, out: Path, frame_ids: dict[str, int], lu_ids: list[int]) -> None:
    """``frame/<Name>.xml``: definition, FEs (IDs numbered from 1 across all frames) and the frame's LUs."""
    new_fe_id = _allocator(set())
    lus_by_frame: dict[str, list[tuple]] = defaultdict(list)
    for lu, lid in zip(data.lexical_units, lu_ids, strict=True):
        lus_by_frame[lu.frame].append((lu, lid))
    for f in data.frames:
        markup = f.definition_markup
        body = [f"    <definition>{escape(markup)}</definition>\n"]
        for fe in f.frame_elements:
            body.append(
                f"    <FE{_attrs(coreType=fe.core_type, abbrev=fe.name[:3], name=fe.name, ID=new_fe_id())}>\n"
                f"        <definition>{escape(fe.definition)}</definition>\n    </FE>\n"
            )
        for lu, lid in lus_by_frame[f.name]:
            n = lu.n_annotated
            body.append(
                f"    <lexUnit{_attrs(status='Finished_Initial', POS=lu.pos, name=lu.name, ID=lid)}>\n"
                f"        <definition>{escape(lu.definition)}</definition>\n"
                f"        <sentenceCount{_attrs(annotated=n, total=n)}/>\n"
                f"        <lexeme{_attrs(order=1, headword='false', breakBefore='false', POS=lu.pos, name=lu.lemma)}/>\n"
                "    </lexUnit>\n"
            )
        (out / "frame" / f"{f.name}.xml").write_text(
            f'{_HEAD}<frame{_attrs(ID=frame_ids[f.name], name=f.name)} xmlns="{FN_NS}">\n{"".join(body)}</frame>\n', "utf-8"
        )


def _write_lu_files(data: LexiconData, out: Path, frame_ids: dict[str, int], lu_ids: list[int]) -> None:
    """``lu/lu<ID>.xml`` for each LU with exemplars (sentences numbered from 1 across all files;
    the Target label's end is inclusive, as in FrameNet)."""
    sent_id = 0
    for lu, lid in zip(data.lexical_units, lu_ids, strict=True):
        if not lu.exemplars:
            continue
        sents = []
        for ex in lu.exemplars:
            sent_id += 1
            layer = ""
            if ex.target_start is not None and ex.target_end is not None:
                layer = (
                    f"                <annotationSet{_attrs(status='MANUAL', ID=sent_id)}>\n"
                    f"                    <layer{_attrs(rank=1, name='Target')}>\n"
                    f"                        <label{_attrs(end=ex.target_end - 1, start=ex.target_start, name='Target')}/>\n"
                    "                    </layer>\n                </annotationSet>\n"
                )
            sents.append(
                f"            <sentence{_attrs(ID=sent_id)}>\n                <text>{escape(ex.text)}</text>\n{layer}            </sentence>\n"
            )
        (out / "lu" / f"lu{lid}.xml").write_text(
            f'{_HEAD}<lexUnit{_attrs(status="Finished_Initial", POS=lu.pos, name=lu.name, ID=lid, frame=lu.frame, frameID=frame_ids[lu.frame], totalAnnotated=len(lu.exemplars))} xmlns="{FN_NS}">\n'
            f"    <definition>{escape(lu.definition)}</definition>\n"
            f"    <subCorpus name=\"manually-added\">\n{''.join(sents)}    </subCorpus>\n</lexUnit>\n",
            "utf-8",
        )


def main(argv: list[str] | None = None) -> int:
    """``python -m fbagent.lexicon.nltk_writer SRC OUT_DIR``: JSONL lexicon -> NLTK layout."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m fbagent.lexicon.nltk_writer SRC OUT_DIR", file=sys.stderr)
        return 2
    out = write_nltk_layout(read_jsonl(args[0]), args[1])
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
