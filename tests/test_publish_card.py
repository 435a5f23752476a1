"""The dataset card of `fbagent export --format hf`: the Hub's metadata schema (`DatasetCardData` round
trip), every section with the export's numbers, no placeholder, the FrameBench citation, `--repo-id` /
`--homepage` / `--curators`, plurals, annotators' stated language competence, contributed sections."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("datasets", reason="the publish extra (datasets) is not installed: pip install 'fbagent[publish]'")
hub = pytest.importorskip("huggingface_hub")

from annotate_factories import add_japanese_run  # noqa: E402
from factories import make_db  # noqa: E402
from test_validation import scripted_answers  # noqa: E402

from fbagent.publish import sections  # noqa: E402
from fbagent.publish.hf import export_hf  # noqa: E402
from fbagent.publish.options import HfOptions, Scope  # noqa: E402
from fbagent.store.competence import parse_competence, record_competence  # noqa: E402

SECTIONS = ["Using the data", "Languages", "Dataset structure", "Dataset creation", "Considerations for using the data",
            "Known shortcuts", "Human filter, adjudication and agreement",
            "Evaluation protocol", "Additional information"]
SUBSECTIONS = ["With 🤗 Datasets", "With lm-evaluation-harness", "With fbagent", "Data instances", "Data splits",
               "Data fields", "Source data", "How the entries were made", "Annotations",
               "Personal and sensitive information", "Bias and limitations", "Dataset curators",
               "Licensing information", "Citation", "Uploading"]
# what the old card left for the reader to fill, and words no card should carry
PLACEHOLDERS = re.compile(r"PATH_OR_REPO|TASKS_DIR|PATH_TO_THIS_FOLDER|THIS_FOLDER|USER/NAME|\bMODEL\b|TODO|TBD|XXX|"
                          r"\bNone\b|pip install fbagent\b|native-speaker")


@pytest.fixture
def annotated(tmp_path):
    """test_publish_hf's database: 5 English entries in scope judged by alice, bob and carol (2 pass the
    filter), one rejected, and 3 Japanese entries nobody judged."""
    path = tmp_path / "v.db"
    db = make_db(path, n=6, statuses=("verified", "flagged", "verified", "flagged", "verified", "rejected"))
    for name in ("alice", "bob", "carol"):
        scripted_answers(db, name)
    db.conn.commit()
    add_japanese_run(path, n=3)
    return db, path


def card_of(db, out, **options) -> str:
    export_hf(db, out, Scope(), HfOptions(**options))
    return (out / "README.md").read_text(encoding="utf-8")


def split_card(text: str) -> tuple[str, dict[str, str], list[str]]:
    assert text.startswith("---\n")
    _, yaml_text, body = text.split("---\n", 2)
    top = dict(re.findall(r"^## (.+?)\n(.*?)(?=^## |\Z)", body, flags=re.S | re.M))
    return yaml_text, top, re.findall(r"^### (.+)$", body, flags=re.M)


def test_metadata_round_trips_through_the_hub_schema(annotated, tmp_path):
    db, _ = annotated
    text = card_of(db, tmp_path / "hf", license="cc-by-sa-4.0")
    yaml_text, _, _ = split_card(text)
    card = hub.DatasetCard(text)  # the Hub's own parser
    data = card.data.to_dict()
    again = hub.DatasetCardData(**data, ignore_metadata_errors=False)
    assert again.to_yaml().strip() == yaml_text.strip()  # fbagent wrote exactly what DatasetCardData writes
    assert data["annotations_creators"] == ["machine-generated", "expert-generated"]  # alice, bob, carol judged
    assert data["language_creators"] == ["machine-generated"]  # nobody revised text
    assert data["multilinguality"] == ["multilingual"] and data["language"] == ["en", "ja"]
    assert data["source_datasets"] == ["original"] and data["task_ids"] == ["multiple-choice-qa"]
    assert data["size_categories"] == ["n<1K"] and data["license"] == "cc-by-sa-4.0"
    assert [c["config_name"] for c in data["configs"]] == ["all", "en", "ja"]


def test_every_section_with_numbers_and_no_placeholder(annotated, tmp_path):
    db, _ = annotated
    record_competence(db, "alice", parse_competence("en=native"), "annotate")
    record_competence(db, "bob", parse_competence("near-native", ["en", "ja"]), "invite")
    text = card_of(db, tmp_path / "hf")
    _, top, subs = split_card(text)
    assert list(top) == SECTIONS and subs == SUBSECTIONS
    body = text.split("---\n", 2)[2]
    assert not PLACEHOLDERS.search(body.split("```bibtex")[0]), PLACEHOLDERS.search(body).group(0)
    assert "8 entries in English (`en`: 5 entries), Japanese (`ja`: 3 entries)" in body
    # competence only as recorded: carol stated nothing; the names stay anonymised
    assert ("| English | `en` | 5 | fn-test | annotator_1: native; annotator_2: near-native; "
            "annotator_3: not recorded |") in top["Languages"]
    assert "| Japanese | `ja` | 3 | fn-ja | annotator_1: not recorded; annotator_2: near-native;" in top["Languages"]
    assert "alice" not in text and "bob" not in text
    # the usage comes first and runs without fbagent: the lm-eval task folder ships beside the data
    use = top["Using the data"]
    assert use.index("load_dataset(\"../hf\")") < use.index("lm_eval --model hf") < use.index("fbagent eval run --dataset")
    assert (tmp_path / "hf" / "lm_eval" / "_framebench_en.yaml").exists()
    assert "fbagent is not published on PyPI" in use and "--homepage URL" in use
    # a real row under "Data instances"; the limitation numbers: 8 entries -> 32 problems, 1.96*sqrt(.25/32) = 17.3
    assert '"sentence_a": "She left the office at noon."' in top["Dataset structure"]
    # 35 fields (frame_pair since issue 40) + 3 annotators (the FrameBench minimum) x 4 columns = the 47 features load_dataset shows
    assert ("(all 47 features are described under Data fields: the 35 fields of the table and 12 annotator "
            "columns, 4 per annotator):") in text
    assert "8 entries give 32 problems per template" in text and "about ±17.3 points" in text
    assert "judged: 5; kept: 2; dropped by the filter: 3" in top["Dataset creation"]
    assert "at least 2 annotators judged it correct" in top["Dataset creation"]
    cite = top["Additional information"]
    assert ('title         = {{FrameBench}: A Language Understanding Benchmark Based on Frame Semantics}' in cite
            and "author        = {Yano, Chihiro and Sasano, Ryohei}" in cite and "eprint        = {2609.03370}" in cite)
    assert "Nagoya University" in cite and "{{SemBench}" in cite
    assert "baker-etal-1998-berkeley" not in cite  # fn-test is a JSONL lexicon, not recognised as Berkeley FrameNet
    assert "The exporter named no curators" in cite


def test_repo_id_homepage_curators_fill_the_commands(annotated, tmp_path):
    db, _ = annotated
    text = card_of(db, tmp_path / "hf", repo_id="my-lab/framebench-en-ja", homepage="https://example.org/lab/fbagent",
                   curators="Ada Lovelace (Example University)")
    assert 'ds = load_dataset("my-lab/framebench-en-ja")' in text
    assert 'ds_ja = load_dataset("my-lab/framebench-en-ja", "ja")' in text
    assert "hf upload --repo-type dataset my-lab/framebench-en-ja . ." in text
    assert "hf download --repo-type dataset my-lab/framebench-en-ja --local-dir framebench" in text
    assert "--include_path framebench/lm_eval" in text
    assert 'pip install "fbagent[publish] @ git+https://example.org/lab/fbagent"' in text
    assert "Ada Lovelace (Example University)." in text and "owner/name" not in text
    # the upload commands open their own code block (a fence on a prose line does not render)
    assert "without using the network.\n\n```bash\nhf auth login\n" in text and "network. ```" not in text
    # eval run reads a local folder: the one the card's download line writes, not the Hub id
    fb = text.split("### With fbagent", 1)[1]
    assert ("hf download --repo-type dataset my-lab/framebench-en-ja --local-dir framebench\n"
            "fbagent eval run --dataset framebench --backend") in fb
    assert "--dataset my-lab/" not in text


def test_one_entry_one_annotator_plurals_and_berkeley_citation(tmp_path):
    db = make_db(tmp_path / "one.db", n=1)
    db["lexicons"].update(1, {"format": "nltk", "source_path": "/data/framenet_v17"})
    scripted_answers(db, "alice")
    text = card_of(db, tmp_path / "hf")
    assert "1 entry in English (`en`: 1 entry)" in text and "1 entries" not in text
    assert "1 annotator, published" in text and "1 annotators" not in text
    assert "1 annotator appears only" in text and "1 entry gives 4 problems per template" in text
    assert "at least 2 annotators judged it correct" in text
    assert "| fn-test | en | Berkeley FrameNet | nltk | framenet_v17 |" in text
    assert "@inproceedings{baker-etal-1998-berkeley" in text and "@book{ruppenhofer-etal-2016-framenet" in text
    assert "multilinguality:\n- monolingual" in text


def test_contributed_sections_have_their_place(annotated, tmp_path, monkeypatch):
    db, _ = annotated
    monkeypatch.setattr(sections, "CONTRIBUTORS", [
        lambda db, records, facts: f"## Known shortcuts\n\n{len(records)} entries checked.",
        lambda db, records, facts: None])
    _, top, _ = split_card(card_of(db, tmp_path / "hf"))
    # SECTIONS holds "Known shortcuts" after "Considerations for using the data" (and the adjudication section)
    assert list(top) == [s for s in SECTIONS if s != "Human filter, adjudication and agreement"]
    assert top["Known shortcuts"].strip() == "8 entries checked."


def test_bad_repo_id_and_competence(annotated, tmp_path):
    from fbagent.errors import FbagentError

    db, _ = annotated
    with pytest.raises(FbagentError, match="not a Hub dataset id"):
        card_of(db, tmp_path / "hf", repo_id="just-a-name")
    assert not (tmp_path / "hf").exists()
    for bad, needle in (("expert", "is not a level"), ("native", "names no language"), (",", "is empty")):
        with pytest.raises(FbagentError, match=needle):
            parse_competence(bad)
    assert parse_competence("en=Native, ja=fluent") == {"en": "native", "ja": "fluent"}


def test_invite_records_stated_competence_and_says_when_none(tmp_path):
    from test_publish_hf import run_cli

    from fbagent.store import open_db
    from fbagent.store.competence import competence

    path = tmp_path / "c.db"
    make_db(path, n=1).conn.close()
    res = run_cli("annotators", "invite", "erin", "--competence", "ja=fluent,en=basic", "--db", str(path))
    assert res.returncode == 0 and "competence" not in res.stderr, res.stderr
    res = run_cli("annotators", "invite", "dora", "--db", str(path))
    assert res.returncode == 0 and "note: dora's language competence is not recorded" in res.stderr
    res = run_cli("annotators", "invite", "fay", "--competence", "expert", "--db", str(path))
    assert res.returncode == 2 and "'expert' is not a level" in res.stderr
    db = open_db(path)
    assert competence(db) == {"erin": {"en": "basic", "ja": "fluent"}}
    assert [r["annotator"] for r in db.query("SELECT DISTINCT annotator FROM annotator_invites ORDER BY 1")] == \
        ["dora", "erin"]  # the refused invite made no link


DOCS = __import__("pathlib").Path(__file__).resolve().parent.parent / "docs" / "export.md"
START, END = "<!-- example-card:start -->\n", "<!-- example-card:end -->\n"


def test_docs_show_the_card_this_code_renders(annotated, tmp_path):
    """docs/export.md shows the card of this test's database exported with --repo-id (regenerate with
    FBAGENT_UPDATE_DOCS=1 python -m pytest tests/test_publish_card.py -k docs)."""
    import os

    db, _ = annotated
    record_competence(db, "alice", parse_competence("en=native"), "annotate")
    record_competence(db, "bob", parse_competence("near-native", ["en", "ja"]), "invite")
    card = card_of(db, tmp_path / "hf", repo_id="my-lab/framebench-en-ja", curators="The fbagent test suite")
    block = START + "````markdown\n" + card + "````\n" + END
    text = DOCS.read_text(encoding="utf-8")
    assert START in text and END in text, "docs/export.md lost its example-card markers"
    head, rest = text.split(START, 1)
    new = head + block + rest.split(END, 1)[1]
    if os.environ.get("FBAGENT_UPDATE_DOCS"):
        DOCS.write_text(new, encoding="utf-8")
    assert new == text, "docs/export.md shows an older card: rerun with FBAGENT_UPDATE_DOCS=1"


@pytest.mark.slow
def test_first_annotate_in_a_terminal_asks_for_competence(tmp_path):
    """`fbagent annotate` in a real terminal (a pty, 80x24): the first time in a language it asks, refuses an
    answer that is no level, stores the stated one, then opens the app (q closes it)."""
    import os
    import pty
    import select
    import sys
    import time

    from fbagent.store import open_db
    from fbagent.store.competence import competence, missing_languages

    path = tmp_path / "a.db"
    make_db(path, n=2).conn.close()

    def session(answers: list[bytes]) -> bytes:
        pid, fd = pty.fork()
        if pid == 0:  # the child: fbagent annotate on this terminal
            os.environ.update(COLUMNS="80", LINES="24", TERM="xterm-256color")
            os.execv(sys.executable, [sys.executable, "-m", "fbagent.cli", "annotate", "--annotator", "zed",
                                      "--db", str(path)])
        out = b""

        def read_until(needle: bytes, seconds: float = 60) -> None:
            nonlocal out
            end = time.time() + seconds
            while needle not in out and time.time() < end:
                if select.select([fd], [], [], 0.2)[0]:
                    try:
                        out += os.read(fd, 65536)
                    except OSError:
                        return
        for answer in answers:
            read_until(b"card will report it")
            os.write(fd, answer + b"\r")
            time.sleep(0.5)
        read_until(b"q quit")
        for _ in range(10):  # the app may take a moment before it reads keys
            os.write(fd, b"q")
            read_until(b"answers are saved", 3)
            if b"answers are saved" in out:
                break
        end = time.time() + 20
        while os.waitpid(pid, os.WNOHANG) == (0, 0):
            if time.time() > end:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                break
            read_until(b"\x00", 0.2)  # keep the terminal drained
        return out

    first = session([b"expert", b"fluent"])
    assert b"Please select one of the available options" in first  # "expert" is no level: asked again
    assert b"answers are saved" in first  # then the app opened, and q closed it
    db = open_db(path)
    assert competence(db) == {"zed": {"en": "fluent"}}
    assert missing_languages(db, "zed", ["en"]) == []  # the next session does not ask again


def test_prompt_versions_list_only_the_prompts_the_run_used(tmp_path):
    import json

    db = make_db(tmp_path / "p.db", n=1)
    versions = {"generate_base": "generate/en/base@3", "define": "roundtrip/en@1", "judge": "verify/en@2",
                "screen": "select/screen@1"}
    db["runs"].update(1, {"prompt_versions": json.dumps(versions),
                          "options": json.dumps({"screen": False, "judge": False, "margin": 0.0})})
    db.conn.commit()
    prompts = card_of(db, tmp_path / "a").split("#### Prompt versions", 1)[1].split("\n## ", 1)[0]
    assert "generate/en/base@3" in prompts and "roundtrip/en@1" in prompts
    assert "select/screen@1" not in prompts and "verify/en@2" not in prompts
    db["runs"].update(1, {"options": json.dumps({"screen": True, "judge": True})})
    db.conn.commit()
    prompts = card_of(db, tmp_path / "b").split("#### Prompt versions", 1)[1].split("\n## ", 1)[0]
    assert "| run1 | judge | verify/en@2 |" in prompts and "| run1 | screen | select/screen@1 |" in prompts


def test_embedded_sample_is_credited_as_fbagents_own_wording(tmp_path):
    db = make_db(tmp_path / "s.db", n=1)
    db["lexicons"].update(1, {"format": "embedded", "name": "sample-en"})
    db.conn.commit()
    text = card_of(db, tmp_path / "hf")
    credit = "fbagent's embedded sample (Berkeley FrameNet frame names, own definitions and examples)"
    assert f"| sample-en | en | {credit} | embedded |" in text     # source table
    assert f"`sample-en`: {credit}" in text                          # licensing
    assert "baker-etal-1998-berkeley" not in text and "ruppenhofer-etal-2016-framenet" not in text


def test_known_shortcuts_say_their_inputs_and_how_to_reproduce(annotated, tmp_path):
    one = make_db(tmp_path / "one.db", n=2)
    section = split_card(card_of(one, tmp_path / "a"))[1]["Known shortcuts"]
    assert ("Inputs: the 2 exported entries (the rows of this folder), seed 0, no sentence encoder, and the frame "
            "definitions and relations of lexicon `fn-test` from the exporter's database") in section
    assert "`fbagent audit --dataset . --lexicon fn-test --no-encoder --db DB`" in section
    db, _ = annotated   # English and Japanese rows, two lexicons: the audit reads frame names only
    section = split_card(card_of(db, tmp_path / "b"))[1]["Known shortcuts"]
    assert "Inputs: the 8 exported entries (the rows of this folder), seed 0, no sentence encoder, frame names only" \
        in section and "`fbagent audit --dataset . --no-encoder`" in section


def test_one_annotator_reads_as_one():
    from fbagent.publish.card_creation import _aliases, personal_section

    def facts(*aliases: str, names: bool = False) -> dict:
        return {"runs": [], "competence": {a: {} for a in aliases}, "annotator_names": names}

    assert [_aliases(facts(*[f"annotator_{i}" for i in range(1, n + 1)])).split(" (")[0] for n in (1, 2, 3)] == [
        "`annotator_1`", "`annotator_1` and `annotator_2`", "`annotator_1..3`"]
    # one run of a larger team keeps the database's numbers
    assert _aliases(facts("annotator_2", "annotator_4", "annotator_5")).startswith(
        "`annotator_2`, `annotator_4` and `annotator_5` (numbered once per database")
    assert "`fbagent export --annotator-names`" in _aliases(facts("alice", names=True))
    one = personal_section({"runs": [], "competence": {"annotator_1": {"en": "native"}}})
    assert "1 annotator appears only as `annotator_1` (numbered once per database" in one
    assert "annotator_1..n" not in one and "the free-text comments" in one
    three = personal_section({"runs": [], "competence": {f"annotator_{i}": {} for i in (1, 2, 3)}})
    assert "3 annotators appear only as `annotator_1..3` (numbered" in three and "each stated" in three
