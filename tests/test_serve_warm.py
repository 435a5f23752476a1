"""The server's shared inflection table: an app process re-finds a revised verb without loading lemminflect."""

from __future__ import annotations

import json
import subprocess
import sys

from factories import make_db

from fbagent.serve.warm import InflectionFile, item_verbs
from fbagent.store.revisions import inflection_table

PROBE = """
import json, sys
from fbagent.serve.warm import load_inflections
from fbagent.store.revisions import find_verb_span
n = load_inflections(sys.argv[1])
print(json.dumps([n, find_verb_span("He is leaving now.", "left", "leave"), "lemminflect" in sys.modules]))
"""


def test_the_table_answers_like_lemminflect_and_keeps_it_out_of_the_app(tmp_path):
    db = make_db(tmp_path / "a.db", n=2)
    verbs = item_verbs(db)
    assert verbs and all(isinstance(v, str) for v in verbs)
    shared = InflectionFile()
    try:
        path = shared.update(verbs | {"leave"})
        table = json.loads(open(path).read())
        assert table["leave"] == inflection_table(["leave"])["leave"]
        assert {"leaving", "left", "leaves", "leave"} <= set(table["leave"])
        assert shared.update(["leave"]) == path  # nothing new: the same file
        out = json.loads(subprocess.run([sys.executable, "-c", PROBE, path], capture_output=True, text=True,
                                        check=True).stdout)
        assert out == [len(verbs | {"leave"}), [6, 13], False]
        missing = json.loads(subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "none.json")],
                                            capture_output=True, text=True, check=True).stdout)
        assert missing == [0, [6, 13], True]  # no table: the app falls back to lemminflect
    finally:
        shared.close()
    assert not shared.folder.exists()
