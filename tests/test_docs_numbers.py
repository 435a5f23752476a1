"""The numbers README.md and docs/lexicon.md quote are what the commands print: the embedded sample's
(always checked) and FrameNet 1.5's and ASFALDA's (checked where ../shared/data has them). A changed
importer or sample shows up here, not in a newcomer's first hour."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fbagent.cli import app

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LEXICON_MD = (ROOT / "docs" / "lexicon.md").read_text(encoding="utf-8")


def show(db_path: str, name: str) -> dict:
    res = CliRunner().invoke(app, ["lexicon", "show", name, "--json", "--db", db_path])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["counts"]


def n(value: int) -> str:
    return f"{value:,}"


def test_the_sample_numbers_in_the_readme(tmp_path):
    c = show(str(tmp_path / "s.db"), "sample-en")
    assert f"`sample-en` ({c['polysemous_verbs']} polysemous verbs, {c['frames']} frames, our own wording)" in README


def _db_path(db) -> str:
    return next(r[2] for r in db.conn.execute("PRAGMA database_list") if r[1] == "main")


@pytest.mark.realdata
def test_framenet_numbers_in_readme_and_docs(en_db):
    db, result = en_db
    c = show(_db_path(db), "framenet-en-1.5")
    # README: what `lexicon add` prints, and what `lexicon show` adds
    assert f"# prints: {n(c['frames'])} frames, {n(c['lexical_units'])} LUs, ..." in README
    assert f"# frames, LUs by POS, {n(c['polysemous_verbs'])} verbs with 2+ frames" in README
    # docs/lexicon.md: the import line and the `lexicon show` table
    line = (f"Imported lexicon framenet-en-1.5 (en, nltk): {n(c['frames'])} frames, {n(c['frame_elements'])} FEs, "
            f"{n(c['lexical_units'])} LUs, {n(c['exemplars'])} exemplars,\n{n(c['frame_relations'])} frame relations")
    assert line in LEXICON_MD
    missing = next(w for w in result.warnings if "LU file(s) missing" in w)
    assert re.search(r": ([\d,]+) LU file", missing).group(1) in LEXICON_MD
    table = {"frames": c["frames"], "lexical units": c["lexical_units"], "verbs with 2+ frames": c["polysemous_verbs"],
             "candidate frame pairs": c["candidate_pairs"], "exemplars": c["exemplars"],
             "frame relations": c["frame_relations"], "frame <ex> examples": c["frame_examples"],
             "verbs (lemmas with a V LU)": c["verbs"]}
    for label, value in table.items():
        assert re.search(rf"^{re.escape(label)}\s+{re.escape(n(value))}$", LEXICON_MD, flags=re.M), (label, value)


@pytest.mark.realdata
def test_asfalda_numbers_in_the_readme(fr_db):
    db, _ = fr_db
    c = show(_db_path(db), "framenet-fr-asfalda")
    assert f"# prints: {n(c['frames'])} frames, {n(c['lexical_units'])} LUs, ..." in README
    # docs/lexicon.md's French paragraph: the same counts as `lexicon show`
    text = " ".join(LEXICON_MD.split())
    for phrase in (f"{n(c['frames'])} frames", f"{n(c['lexical_units'])} LUs", f"{n(c['verbs'])} verbs,",
                   f"{n(c['polysemous_verbs'])} verbs with 2+ frames", f"{n(c['candidate_pairs'])} candidate frame pairs",
                   f"{n(c['exemplars'])} exemplars", f"{n(c['frame_examples'])} frame `<ex>` examples"):
        assert "(`framenet-fr-asfalda`): " in text and phrase in text.split("(`framenet-fr-asfalda`): ", 1)[1][:400], phrase


def test_table1_of_pairs_select_in_docs(en_db):
    """docs/lexicon.md's `pairs select --pairs 800 --seed 0` block shows the Table 1 row and steps it prints."""
    db, _ = en_db
    res = CliRunner().invoke(app, ["pairs", "select", "--pairs", "800", "--seed", "0", "--lexicon", "framenet-en-1.5",
                                   "--json", "--db", _db_path(db)])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    c = out["counts"]
    row = re.search(r"^ +800 │ +([\d,]+) │ +([\d,]+) │ +800$", LEXICON_MD, flags=re.M)
    assert row, "docs/lexicon.md lost its Table 1 row"
    assert (row.group(1), row.group(2)) == (n(c["unique_lu_names"]), n(c["unique_verbs"]))


def _written_paths() -> set[str]:
    """The relative paths the example commands of README.md and docs/*.md write (``--out X``, ``--plots X``,
    ``export X``), placeholders (``OUT.jsonl``, ``DIR``) and ``results/*`` globs left out."""
    found: set[str] = set()
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for line in doc.read_text(encoding="utf-8").splitlines():
            command = line.strip().removeprefix("$ ").split("#")[0]
            if not command.startswith("fbagent "):
                continue
            words = command.split()
            for i, word in enumerate(words[:-1]):
                target = words[i + 1]
                if word in ("--out", "--plots") or (i == 1 and word == "export" and not target.startswith("-")):
                    if not re.search(r"[A-Z*<]", target) and not target.startswith(("/", "~", ".")):
                        found.add(target)
    return found


def test_what_the_documented_commands_write_in_the_checkout_is_ignored_by_git():
    import shutil
    import subprocess

    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    paths = _written_paths()
    assert {"bench-hf", "bench-tasks", "bench.jsonl", "report.md", "results/gemma270m"} <= paths, paths
    for path in sorted(paths):
        probe = path.rstrip("/") + ("/probe" if "." not in Path(path).name else "")
        res = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", probe], capture_output=True)
        assert res.returncode == 0, f"{path} (written by a documented command) is not in .gitignore"


def test_docs_name_the_fields_the_commands_print():
    """README's rating keys follow the English scale (only Natural counts); docs/generate.md explains every
    field of the progress line; docs/eval.md the summary rows under the names `eval run` shows."""
    from fbagent.eval.report import FRAMEBENCH_HEADERS
    from fbagent.generation.events import STATUSES
    from fbagent.tui.scales import THREE_LEVEL

    assert [lv.key for lv in THREE_LEVEL.positive] == ["n"]
    assert "only `n` counts as acceptable for the filter" in " ".join(README.split())
    generate_md = " ".join((ROOT / "docs" / "generate.md").read_text(encoding="utf-8").split())
    assert len(STATUSES) == 4 and "`ok`, `flag`, `rej`, `fail`" in generate_md
    for field in ("`calls 0+3` is 0 answered and 3 in flight", "`tok`", "`cache`"):
        assert field in generate_md, field
    eval_md = (ROOT / "docs" / "eval.md").read_text(encoding="utf-8")
    for row in ("Failed", "Think tok.", "Budget hit", "Parsed", "Dropped"):
        assert row in FRAMEBENCH_HEADERS and f"- `{row}`:" in eval_md, row


def test_the_readme_names_the_lm_eval_folder_the_export_ships():
    """The `hf` export's task folder is ``LM_EVAL_DIR`` (``lm_eval/``); README's download and lm_eval lines use it."""
    from fbagent.publish.card import LM_EVAL_DIR

    paths = re.findall(r"(?:tasks |\"|framebench/)(lm[-_]eval)\b(?![-_ ]?[a-z(])", README)
    assert paths and set(paths) == {LM_EVAL_DIR}, paths
