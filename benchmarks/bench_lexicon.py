"""Benchmark: lexicon import and frame-pair selection on the real FrameNets.

Usage: python benchmarks/bench_lexicon.py [--data ../shared/data] [--nltk-exemplars 60]

1. Import of framenet-en-1.5 and framenet-fr-asfalda into a fresh SQLite file
   (seconds), a re-import of the unchanged English resource ("unchanged"), and
   the phases of the English read (NLTK frames + LUs, direct lu/*.xml parse).
2. Exemplar loading: NLTK's per-LU ``lu(ID).exemplars`` against the direct
   ElementTree parse used by fbagent, on the first N English LU files,
   extrapolated to all 2,454 files.
3. ``pairs select --pairs 800 --seed 0`` on English: seconds, unique verbs,
   whether a second run gives the same pairs and seed 1 a different sample.
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import glob
import os
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from fbagent.lexicon.importer import import_lexicon
from fbagent.pairs.select import SelectionOptions, select_pairs
from fbagent.store.db import open_db


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(Path(__file__).resolve().parents[2] / "shared" / "data"))
    ap.add_argument("--nltk-exemplars", type=int, default=60)
    args = ap.parse_args()
    data = Path(args.data)
    en, fr = data / "framenet-en-1.5", data / "framenet-fr-asfalda"
    tmp = Path(tempfile.mkdtemp())
    db = open_db(tmp / "bench.db")

    print("== import")
    phases: dict[str, float] = {}
    last = [time.perf_counter(), None]

    def progress(stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if last[1] != stage:
            last[0], last[1] = now, stage
        phases[stage] = now - last[0]

    for path, lang in ((en, "en"), (fr, "fr")):
        r = import_lexicon(db, path, lang=lang, progress=progress if lang == "en" else None)
        print(f"{r.name}: {r.status} in {r.seconds:.1f} s ({r.counts})")
        if lang == "en":
            for stage, s in phases.items():
                print(f"   phase {stage}: {s:.1f} s")
    r = import_lexicon(db, en, lang="en")
    print(f"{r.name} again: {r.status} in {r.seconds:.2f} s")

    print("== exemplars: NLTK lu(ID).exemplars vs direct ElementTree parse")
    import nltk
    from nltk.corpus.reader.framenet import FramenetCorpusReader

    files = sorted(glob.glob(str(en / "lu" / "*.xml")))
    sub = files[: args.nltk_exemplars]
    nltk.data.path.insert(0, str(data))
    reader = FramenetCorpusReader(str(en), [])
    t = time.perf_counter()
    n = sum(len(reader.lu(int(os.path.basename(p)[2:-4])).exemplars) for p in sub)
    t_nltk = time.perf_counter() - t
    t = time.perf_counter()
    m = sum(1 for p in sub for _ in ET.parse(p).getroot().iter("{http://framenet.icsi.berkeley.edu}sentence"))
    t_et = time.perf_counter() - t
    scale = len(files) / len(sub)
    print(f"{len(sub)} LU files: NLTK {t_nltk:.2f} s ({n} sentences), ElementTree {t_et:.2f} s ({m} sentences); "
          f"all {len(files)} files: NLTK ~{t_nltk * scale:.0f} s, ElementTree ~{t_et * scale:.1f} s")

    print("== pairs select --pairs 800 --seed 0 (English)")
    lex = {"id": r.lexicon_id, "name": r.name}
    t = time.perf_counter()
    a = select_pairs(db, lex, SelectionOptions(pairs=800, seed=0))
    t_sel = time.perf_counter() - t
    b = select_pairs(db, lex, SelectionOptions(pairs=800, seed=0))
    c = select_pairs(db, lex, SelectionOptions(pairs=800, seed=1))
    key = lambda x: [(p["verb"], p["frame_a"], p["frame_b"]) for p in x["pairs"]]  # noqa: E731
    print(f"{a['counts']['selected']} pairs, {a['counts']['unique_verbs']} unique verbs, "
          f"{a['counts']['unique_lus']} unique LUs in {t_sel:.2f} s; same on rerun: {key(a) == key(b)}; "
          f"seed 1 shares {len(set(key(a)) & set(key(c)))} of 800 pairs")


if __name__ == "__main__":
    main()
