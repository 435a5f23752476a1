"""The dataset card (``README.md``) of a Hugging Face folder: YAML metadata and sections filled from
the database (:mod:`fbagent.publish.provenance`).

Front matter (``huggingface_hub.DatasetCardData``): ``pretty_name``, ``language``, ``license``,
``task_categories`` (multiple-choice), ``task_ids``, ``size_categories``, ``tags``, ``configs`` (one
per language with its Parquet file as the ``test`` split, plus ``all`` as the default when there are
several languages). Sections: summary, dataset structure, how it was built, validation, evaluation
protocol, fields, uploading, licence, citation. Every section says what is known; a fact the
database lacks is stated as absent (e.g. "no human judgments are stored"), never left as a gap.
Citations: ``citations.bib`` beside this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fbagent.publish.rows import FIELDS, annotator_column_doc

CITATIONS = Path(__file__).with_name("citations.bib")
LANGUAGE_NAMES = {"en": "English", "ja": "Japanese", "fr": "French", "de": "German", "es": "Spanish",
                  "pt": "Portuguese", "zh": "Chinese", "ko": "Korean", "sv": "Swedish", "it": "Italian"}


def size_category(n: int) -> str:
    """The Hub's ``size_categories`` bucket of ``n`` rows (``n<1K``, ``1K<n<10K``, ...)."""
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M")):
        if n < limit:
            return name
    return "10M<n<100M"


def language_name(code: str) -> str:
    return LANGUAGE_NAMES.get(code, code)


def front_matter(*, pretty_name: str, languages: list[str], license: str, n_rows: int,
                 configs: list[dict[str, Any]]) -> str:
    """The YAML metadata block (without the ``---`` fences) made by ``huggingface_hub.DatasetCardData``."""
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        pretty_name=pretty_name, language=languages, license=license,
        task_categories=["multiple-choice"], task_ids=["multiple-choice-qa"],
        size_categories=[size_category(n_rows)],
        tags=["framenet", "frame-semantics", "lexical-semantics", "polysemy", "framebench", "fbagent"],
        configs=configs,
    )
    return data.to_yaml()


def _table(header: list[str], rows: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        text = "not recorded" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def summary_section(facts: dict, pretty_name: str) -> str:
    ex = facts["exported"]
    langs = ", ".join(f"{language_name(k)} (`{k}`: {v} entries)" for k, v in ex["languages"].items())
    lexicons = sorted({r["lexicon"]["name"] for r in facts["runs"] if r.get("lexicon")})
    filt = ("only entries that passed the human filter" if facts["scope"]["validated"]
            else "every entry of the selected statuses, judged or not")
    return (f"# {pretty_name}\n\n"
            f"A FrameBench-style benchmark of frame-semantic understanding: {ex['entries']} entries in {langs}, "
            f"built with fbagent from the FrameNet-style lexicon(s) {', '.join(f'`{x}`' for x in lexicons) or 'recorded in each row'}. "
            "Each entry takes a verb that evokes two frames A and B, a question Q about frame A, and four sentences: "
            "a base pair (S_A, S_B), as lexically similar as possible, and an extended pair (S_A', S_B'), free in form; "
            f"only the frame-A sentences answer Q. This export holds {filt} "
            f"(statuses: {', '.join(facts['scope']['statuses'])}; {ex['revised']} entries revised by annotators).\n")


def structure_section(configs: list[dict[str, Any]], counts: dict[str, int], default: str) -> str:
    rows = [[c["config_name"], counts.get(c["config_name"], sum(counts.values())), c["data_files"][0]["path"]]
            for c in configs]
    return ("## Dataset structure\n\n"
            "One config per language (and `all` when there are several), each with one `test` split in Parquet.\n\n"
            + _table(["config", "rows", "data files (test split)"], rows) + "\n\n"
            "```python\nimport datasets\n"
            f"ds = datasets.load_dataset(\"PATH_OR_REPO\")                 # config {default!r}\n"
            + "".join(f"ds_{c['config_name']} = datasets.load_dataset(\"PATH_OR_REPO\", \"{c['config_name']}\")\n"
                      for c in configs if c["config_name"] != default)
            + "```\n")


def built_section(facts: dict) -> str:
    parts = ["## How it was built\n",
             "FrameBench steps 1-3 (Yano and Sasano 2026): polysemous verb lexical units are paired by frame, a "
             "seeded stratified sample of frame pairs is drawn, a generator LLM writes the question and the four "
             "sentences (self-checked for lexical similarity and the verb's presence), and a SemBench round-trip "
             "verifier (Zubillaga et al. 2026) defines the verb in each sentence and keeps a sentence when that "
             "definition is closer to its own frame than to the other by a margin.\n"]
    lex_rows, runs_rows, sel_rows, prompt_rows = [], [], [], []
    seen_lex = set()
    for r in facts["runs"]:
        lx = r.get("lexicon")
        if lx and lx["name"] not in seen_lex:
            seen_lex.add(lx["name"])
            lex_rows.append([lx["name"], lx["lang"], lx["format"], lx["release"] or "not recorded",
                             (lx["source_hash"] or "not recorded")[:16], lx["n_frames"], lx["n_lexical_units"],
                             lx["n_exemplars"]])
        sel = r.get("selection")
        if sel:
            c = sel["counts"]
            sel_rows.append([r["name"], sel.get("protocol", "fbagent"), sel["seed"], c.get("candidates", "not recorded"),
                             c.get("selected", "not recorded")])
        opts = r["options"]
        runs_rows.append([r["name"], f"{r['generator']} / {r['model']}", f"{r['verifier_generator']} / {r['verifier_model']}",
                          r["encoder"] or "not recorded", r["seed"], opts.get("verifier", "roundtrip"),
                          opts.get("margin", "not recorded"),
                          ", ".join(f"{k}: {v}" for k, v in sorted(r["items_by_status"].items()))])
        for task, version in r["prompt_versions"].items():
            prompt_rows.append([r["name"], task, version])
    parts.append("### Lexicon and release\n\n" + (_table(
        ["lexicon", "language", "format", "release", "source hash", "frames", "lexical units", "exemplars"], lex_rows)
        if lex_rows else "The runs of this export record no lexicon row.") + "\n")
    parts.append("### Frame-pair selection\n\n" + (_table(["run", "protocol", "seed", "candidate pairs", "selected pairs"], sel_rows)
                                                 if sel_rows else "The runs of this export record no pair selection.") + "\n")
    parts.append("### Generation runs\n\n" + _table(
        ["run", "generator (backend / model)", "verifier (backend / model)", "encoder", "seed", "verifier signal",
         "margin", "items by status (whole run)"], runs_rows) + "\n")
    ver = facts["verifier"]
    parts.append("### Verifier margins\n\n" + (_table(["encoder", "margin", "exported entries"],
                                                     [[v["encoder"], v["margin"], v["entries"]] for v in ver])
                                              if ver else "No exported entry carries a verifier result.") + "\n")
    parts.append("### Prompt versions\n\n" + (_table(["run", "task", "version"], prompt_rows) if prompt_rows
                                             else "The runs of this export record no prompt versions.") + "\n")
    return "\n".join(parts)


def validation_section(facts: dict) -> str:
    s = facts["scope"]
    rule = (f"an entry is kept when at least {s['min_correct']} annotators judged it correct and at least "
            f"{s['min_acceptable']} judged it acceptable (entry score = minimum over the base and the extended pair)")
    v = facts["validation"]
    if v is None:
        return ("## Validation\n\nNo human judgments are stored for these entries: they have not been validated by "
                f"native speakers yet. The FrameBench filter, when applied, keeps entries by this rule: {rule}.\n")
    e, t2 = v["entries"], v["table2"]
    size = t2["max_annotators"]
    t2_rows = [[f"{c} correct", *[t2["counts"][c][a] for a in range(size + 1)]] for c in range(size, -1, -1)]
    ann_rows = [[a["annotator"], a["entries"], _pct(a["correct_rate"]), _pct(a["acceptable_rate"]),
                 _pct(a["both_correct_accuracy"]), _pct(a["neither_correct_accuracy"])] for a in v["annotators"]]
    ag_rows = [[g["judgment"], g["level"], g["subjects"], g["raters"], _pct(g["full_agreement"]),
                "n/a" if g["fleiss_kappa"] is None else f"{g['fleiss_kappa']:.3f}"] for g in v["agreement"]]
    h = v["human_accuracy"]
    dropped = e["judged"] - e["kept"]
    return ("## Validation\n\n"
            f"{len(v['annotators'])} native-speaker annotators (published as `annotator_1..n` unless the exporter "
            "chose to publish names) judged, per entry, the base pair, the extended pair and two attention-check "
            "pairs (both correct, neither correct), choosing Sentence A / Sentence B / Both / Neither and rating "
            f"acceptability. Filter: {rule}.\n\n"
            f"Entries in scope: {e['in_scope']}; judged: {e['judged']}; kept: {e['kept']}; dropped by the filter: "
            f"{dropped}; marked \"cannot be fixed\": {e['unfixable']}; exported here: {facts['exported']['entries']}.\n\n"
            "### Table 2: entries by number of annotators judging correct x acceptable\n\n"
            + _table(["", *[f"{a} acceptable" for a in range(size + 1)]], t2_rows) + "\n\n"
            "### Annotators\n\n"
            + _table(["annotator", "entries", "correct", "acceptable", "both-correct check", "neither-correct check"],
                     ann_rows) + "\n\n"
            "### Agreement (Table 8)\n\n"
            + _table(["judgment", "level", "subjects", "raters", "full agreement", "Fleiss' kappa"], ag_rows) + "\n\n"
            f"### Human accuracy\n\nOn the {h['entries']} kept entries: {_pct(h['mean'])} (base pair {_pct(h['base'])}, "
            f"extended pair {_pct(h['extended'])}), the mean over annotators of the share of correctly answered "
            "base and extended pairs (the \"Human\" row of FrameBench Tables 3 and 4).\n")


def protocol_section(template_sets: dict[str, Any], languages: list[str]) -> str:
    rows = []
    for lang in languages:
        ts = template_sets[lang]
        for t in ts.templates:
            m = t.prompt.meta
            rows.append([lang, t.name, t.version, m.get("verb_hint", "-"), m.get("layout", "-"),
                         m.get("answer_instruction", "-")])
    labels = "; ".join(f"{lang}: " + ", ".join(template_sets[lang].labels.values()) for lang in languages)
    lang = languages[0]
    return ("## Evaluation protocol\n\n"
            "FrameBench section 4 and appendix B: every entry gives two problems, the base pair (S_A, S_B; gold: "
            "Sentence A only) and the extended pair (S_B', S_A'; gold: Sentence B only), each asked in both "
            "sentence orders, so four problems per entry. The four options (Sentence A, Sentence B, Both, Neither) "
            "are numbered 1-4 by a shuffle seeded with (seed, problem id), and the model answers with one option "
            "number (constrained decoding). Accuracy is reported per template and as the mean and standard "
            "deviation over the templates; errors split into Both / Neither / Opposite.\n\n"
            + _table(["language", "template", "version", "verb hint", "layout", "answer instruction"], rows) + "\n\n"
            f"Option labels: {labels}.\n\n"
            "Run it with fbagent (`pip install fbagent`) on this folder, or as an lm-evaluation-harness task "
            "exported from the same database (`fbagent export --format lm-eval TASKS_DIR`), which asks the same "
            "problems with the same prompts and option orders:\n\n"
            "```bash\n"
            "fbagent eval run --dataset PATH_TO_THIS_FOLDER --backend transformers --model MODEL --out results/MODEL\n"
            f"lm_eval --model hf --model_args pretrained=MODEL --include_path TASKS_DIR --tasks framebench_{lang}\n"
            "```\n")


def fields_section(n_annotators: int) -> str:
    rows = [[f"`{name}`", _type_name(spec), doc] for name, (spec, doc) in FIELDS.items()]
    return ("## Fields\n\n" + _table(["field", "type", "description"], rows) + "\n\n"
            + annotator_column_doc(n_annotators) + "\n")


def _type_name(spec: Any) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, list):
        return f"list of {_type_name(spec[0])}"
    return "struct"


def upload_section() -> str:
    return ("## Uploading\n\n"
            "fbagent writes this folder without using the network. To publish it on the Hugging Face Hub:\n\n"
            "```bash\nhf upload --repo-type dataset USER/NAME PATH_TO_THIS_FOLDER .   # huggingface_hub >= 1.0\n"
            "huggingface-cli upload --repo-type dataset USER/NAME PATH_TO_THIS_FOLDER .   # older huggingface_hub\n```\n"
            "(`USER/NAME`: the dataset repository on the Hub; log in first with `hf auth login`.)\n")


def license_section(license: str) -> str:
    return ("## Licence\n\n"
            f"`{license}` (as chosen by the exporter). The frames and lexical units come from FrameNet-style "
            "lexicons: cite and follow the terms of the lexicon named in each row (Berkeley FrameNet data is "
            "distributed under CC BY; cite Baker, Fillmore and Lowe 1998 and Ruppenhofer et al. 2016).\n")


def citation_section() -> str:
    return "## Citation\n\n```bibtex\n" + CITATIONS.read_text(encoding="utf-8").strip() + "\n```\n"


def render_card(*, facts: dict, pretty_name: str, license: str, configs: list[dict[str, Any]],
                counts: dict[str, int], template_sets: dict[str, Any], n_annotators: int) -> str:
    """The whole ``README.md``: front matter, then every section, ``\\n`` line ends."""
    languages = list(facts["exported"]["languages"])
    default = next((c["config_name"] for c in configs if c.get("default")), configs[0]["config_name"])
    yaml_text = front_matter(pretty_name=pretty_name, languages=languages, license=license,
                             n_rows=facts["exported"]["entries"], configs=configs)
    sections = [summary_section(facts, pretty_name), structure_section(configs, counts, default), built_section(facts),
                validation_section(facts), protocol_section(template_sets, languages), fields_section(n_annotators),
                upload_section(), license_section(license), citation_section()]
    return "---\n" + yaml_text.strip() + "\n---\n\n" + "\n".join(sections)
