"""The dataset card (``README.md``) of a Hugging Face folder: YAML metadata and sections filled from
the database (:mod:`fbagent.publish.provenance`), following the Hub's dataset card template.

Front matter (``huggingface_hub.DatasetCardData``): ``pretty_name``, ``language``, ``license``,
``annotations_creators``, ``language_creators``, ``multilinguality``, ``source_datasets``,
``task_categories`` (multiple-choice), ``task_ids``, ``size_categories``, ``tags``, ``configs`` (one
per language with its Parquet file as the ``test`` split, plus ``all`` as the default when there are
several languages).

Sections: summary; using the data (``datasets``, lm-evaluation-harness with the ``lm_eval/`` task
folder shipped beside the data, then fbagent itself); languages; dataset structure (instances, splits,
fields); dataset creation (source data, selection, generation, verifier, annotations, personal and
sensitive information: :mod:`fbagent.publish.card_creation`); considerations (bias and limitations);
sections contributed by other rooms (:mod:`fbagent.publish.sections`); evaluation protocol;
additional information (curators, licensing, citation, uploading). Every number comes from the
database; a fact the database lacks is stated as absent ("not recorded"), never left as a gap, and
no placeholder word is written: what an option could fill (``--repo-id``, ``--homepage``,
``--curators``) is named instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fbagent.errors import FbagentError
from fbagent.languages import language_name
from fbagent.publish import card_creation as creation
from fbagent.publish.card_creation import plural, table
from fbagent.publish.lmeval import EXAMPLE_MODEL, lm_eval_command
from fbagent.publish.options import HfOptions
from fbagent.publish.rows import FIELDS, annotator_column_doc, annotator_columns

try:
    import huggingface_hub
except ImportError:   # the "publish" extra is not installed: front_matter() raises naming it
    huggingface_hub = None  # type: ignore[assignment]

LM_EVAL_DIR = "lm_eval"
#: fields of the record shown under "Data instances" (the rest are described under "Data fields")
INSTANCE_FIELDS = ("id", "language", "lexicon", "verb", "lu_a", "lu_b", "frame_a", "frame_b", "question",
                   "sentence_a", "sentence_b", "sentence_a_prime", "sentence_b_prime", "status")


@dataclass(frozen=True)
class CardInputs:
    """What a card is made of: ``facts`` (:func:`fbagent.publish.provenance.provenance`), the title, the
    export ``options``, the Hub ``configs`` and rows per config (``counts``), the ``template_sets`` per
    language, ``n_annotators`` (annotator columns), one exported row (``example``), the lm-eval folder's
    summary (``tasks``: :func:`fbagent.publish.lmeval.write_tasks`; None when not written) and the
    ``contributed`` sections (:func:`fbagent.publish.sections.contributed_sections`); ``folder``: the name of the
    export folder (the card's ``load_dataset`` path)."""

    facts: dict[str, Any]
    pretty_name: str
    options: HfOptions
    configs: list[dict[str, Any]]
    counts: dict[str, int]
    template_sets: dict[str, Any]
    n_annotators: int
    example: dict[str, Any]
    tasks: dict[str, Any] | None = None
    contributed: list[str] = field(default_factory=list)
    homepage: str | None = None
    folder: str = "hf"


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket of ``n`` rows (``n<1K``, ``1K<n<10K``, ...)."""
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return name
    return "10M<n<100M"


def metadata(card: CardInputs) -> dict[str, Any]:
    """The front matter fields (``DatasetCardData`` keyword arguments). ``annotations_creators``:
    ``machine-generated`` (the automatic checks and verifier), plus ``expert-generated`` when humans
    judged entries; ``language_creators``: ``machine-generated`` (the generator LLM), plus
    ``expert-generated`` when annotators revised text; ``source_datasets``: ``original`` (new sentences;
    the frames are FrameNet's, cited in the card)."""
    ex = card.facts["exported"]
    languages = list(ex["languages"])
    judged = card.facts["validation"] is not None
    return {
        "pretty_name": card.pretty_name, "language": languages, "license": card.options.license,
        "annotations_creators": ["machine-generated", *(["expert-generated"] if judged else [])],
        "language_creators": ["machine-generated", *(["expert-generated"] if ex["revised"] else [])],
        "multilinguality": ["monolingual" if len(languages) == 1 else "multilingual"],
        "source_datasets": ["original"],
        "task_categories": ["multiple-choice"], "task_ids": ["multiple-choice-qa"],
        "size_categories": [size_category(ex["entries"])],
        "tags": ["framenet", "frame-semantics", "lexical-semantics", "polysemy", "framebench", "fbagent"],
        "configs": card.configs,
    }


def front_matter(card: CardInputs) -> str:
    """The YAML metadata block (without the ``---`` fences) made by ``huggingface_hub.DatasetCardData``.

    Raises :class:`FbagentError` when huggingface_hub (the ``publish`` extra) is not installed.
    """
    if huggingface_hub is None:
        raise FbagentError("this export needs the Python package 'huggingface_hub', which is not installed",
                           "pip install 'fbagent[publish]'")
    return huggingface_hub.DatasetCardData(**metadata(card)).to_yaml()


def summary_section(card: CardInputs) -> str:
    facts = card.facts
    ex = facts["exported"]
    langs = ", ".join(f"{language_name(k)} (`{k}`: {plural(v, 'entry', 'entries')})" for k, v in ex["languages"].items())
    lexicons = sorted({r["lexicon"]["name"] for r in facts["runs"] if r.get("lexicon")})
    filt = ("only entries that passed the human filter" if facts["scope"]["validated"]
            else "every entry of the selected statuses, judged or not")
    lex = ", ".join(f"`{x}`" for x in lexicons) or "recorded in each row"
    return (f"# {card.pretty_name}\n\n"
            f"A FrameBench-style benchmark of frame-semantic understanding: {plural(ex['entries'], 'entry', 'entries')} "
            f"in {langs}, built with fbagent from the FrameNet-style {'lexicon' if len(lexicons) == 1 else 'lexicons'} "
            f"{lex}, following FrameBench (Chihiro Yano and Ryohei Sasano, Nagoya University: \"FrameBench: A "
            "Language Understanding Benchmark Based on Frame Semantics\", arXiv:2609.03370). "
            "Each entry takes a verb that evokes two frames A and B, a question Q about frame A, and four sentences: "
            "a base pair (S_A, S_B), as lexically similar as possible, and an extended pair (S_A', S_B'), free in form; "
            f"only the frame-A sentences answer Q. This export holds {filt} "
            f"(statuses: {', '.join(facts['scope']['statuses'])}; {plural(ex['revised'], 'entry', 'entries')} "
            "revised by annotators).\n")


def _load_lines(card: CardInputs, default: str) -> str:
    repo = card.options.repo_id
    # datasets 5 takes no "." (it names the dataset after the path's last part): a path that ends in the folder
    target = f'"{repo}"' if repo else f'"../{card.folder}"'
    note = "" if repo else (f"# run in this folder; from the folder above it the path is \"{card.folder}\"; once uploaded,\n"
                            "# the dataset's Hub id (owner/name) goes there instead (fbagent export --repo-id writes it)\n")
    lines = note + f"ds = load_dataset({target})  # config {default!r}, split \"test\"\n"
    lines += "".join(f"ds_{c['config_name']} = load_dataset({target}, \"{c['config_name']}\")\n"
                     for c in card.configs if c["config_name"] != default)
    return "```python\nfrom datasets import load_dataset\n\n" + lines + "```\n"


def usage_section(card: CardInputs, default: str) -> str:
    """How to use the data: ``datasets`` first, then lm-evaluation-harness, then fbagent."""
    lang = next(iter(card.facts["exported"]["languages"]))
    repo = card.options.repo_id
    parts = ["## Using the data\n",
             "The data needs neither fbagent nor an account: any tool that reads Parquet does, and the two below "
             "are the usual ones.\n",
             "### With 🤗 Datasets\n", _load_lines(card, default)]
    if card.tasks:
        where = "lm_eval" if not repo else "framebench/lm_eval"
        fetch = (f"hf download --repo-type dataset {repo} --local-dir framebench\n" if repo else "")
        parts += ["### With lm-evaluation-harness\n",
                  f"The folder `{LM_EVAL_DIR}/` holds one task per prompt template and a group per language "
                  f"({', '.join(f'`{g}`' for g in card.tasks['groups'])}: the mean over the templates). They ask the "
                  "problems of `fbagent eval run` on this data (the same seeded option orders, the same prompt text) "
                  f"and score them as fbagent's transformers backend does. {'Download the folder, then run' if repo else 'From this folder:'}\n",
                  f"```bash\n{fetch}{lm_eval_command(lang, where)}\n```\n",
                  f"(`{EXAMPLE_MODEL}` stands for any Hugging Face causal language model id.)\n"]
    parts += ["### With fbagent\n", _fbagent_lines(card, lang)]
    return "\n".join(parts)


def _fbagent_lines(card: CardInputs, lang: str) -> str:
    url = card.homepage
    install = (f"```bash\npip install \"fbagent[publish] @ git+{url}\"\n"
               if url else "```bash\n")
    where = ("fbagent is not published on PyPI; install it from its source repository, " + f"<{url}>:\n"
             if url else "fbagent is not published on PyPI, and this export names no source repository for it "
             "(`fbagent export --homepage URL` writes the install line here); with fbagent installed:\n")
    repo = card.options.repo_id  # eval run reads a local folder: the one the download line writes
    fetch = f"hf download --repo-type dataset {repo} --local-dir framebench\n" if repo else ""
    data = "framebench" if repo else "."
    return (where + "\n" + install + fetch
            + f"fbagent eval run --dataset {data} --backend transformers --model {EXAMPLE_MODEL} --out results\n```\n"
            "`eval run` reports the accuracy per template with the mean and standard deviation over templates "
            "and the Both / Neither / Opposite errors (FrameBench section 4).\n")


def languages_section(card: CardInputs) -> str:
    facts = card.facts
    lexicons: dict[str, set[str]] = {}
    for r in facts["runs"]:
        if r.get("lexicon"):
            lexicons.setdefault(r["lexicon"]["lang"], set()).add(r["lexicon"]["name"])
    rows = []
    for lang, n in facts["exported"]["languages"].items():
        rows.append([language_name(lang), f"`{lang}`", f"{n:,}", ", ".join(sorted(lexicons.get(lang, ()))) or "not recorded",
                     creation.competence_line(facts, lang)])
    return ("## Languages\n\n"
            "Each entry is monolingual: its question and four sentences are in the entry's language (`language`, "
            "the config name). Annotators' language competence is given as each annotator stated it to fbagent "
            "(`fbagent annotate --competence`, `fbagent annotators invite --competence`); nothing else about "
            "them is recorded.\n\n"
            + table(["language", "code", "entries", "lexicon", "annotators' stated competence"], rows) + "\n")


def structure_section(card: CardInputs, default: str) -> str:
    rows = [[c["config_name"], f"{card.counts.get(c['config_name'], sum(card.counts.values())):,}",
             c["data_files"][0]["path"]] for c in card.configs]
    example = {k: card.example.get(k) for k in INSTANCE_FIELDS}
    fields = [[f"`{name}`", _type_name(spec), doc] for name, (spec, doc) in FIELDS.items()]
    return ("## Dataset structure\n\n"
            "### Data instances\n\n"
            f"One row per entry. The first exported entry, with the fields that carry its text ({_field_count(card)}):\n\n"
            "```json\n" + json.dumps(example, ensure_ascii=False, indent=2) + "\n```\n\n"
            "### Data splits\n\n"
            f"One config per language (and `all` when there are several; default: `{default}`), each with one "
            "`test` split in Parquet: the benchmark is for evaluation, not training.\n\n"
            + table(["config", "rows", "data files (test split)"], rows) + "\n\n"
            "### Data fields\n\n" + table(["field", "type", "description"], fields) + "\n\n"
            + annotator_column_doc(card.n_annotators) + "\n")


def _field_count(card: CardInputs) -> str:
    """How many features a row has, as ``load_dataset`` shows them: :data:`FIELDS` plus 4 annotator columns
    per annotator (:func:`fbagent.publish.rows.annotator_columns`)."""
    extra = len(annotator_columns(card.n_annotators))
    if not extra:
        return f"all {len(FIELDS)} features are described under Data fields"
    return (f"all {len(FIELDS) + extra} features are described under Data fields: the {len(FIELDS)} fields of "
            f"the table and {extra} annotator columns, 4 per annotator")


def _type_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, list):
        return f"list of {_type_name(spec[0])}"
    return "struct"


def render_card(card: CardInputs) -> str:
    """The whole ``README.md``: front matter, then every section, ``\\n`` line ends."""
    default = next((c["config_name"] for c in card.configs if c.get("default")), card.configs[0]["config_name"])
    languages = list(card.facts["exported"]["languages"])
    sections = [summary_section(card), usage_section(card, default), languages_section(card),
                structure_section(card, default), creation.creation_section(card.facts),
                creation.considerations_section(card.facts), *card.contributed,
                creation.protocol_section(card.template_sets, languages),
                creation.additional_section(card.facts, card.options)]
    return "---\n" + front_matter(card).strip() + "\n---\n\n" + "\n".join(sections)
