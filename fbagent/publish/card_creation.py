"""Sections of the dataset card about how the data was made and what to keep in mind when using it
(:mod:`fbagent.publish.card` assembles the card): dataset creation (source data, selection, generation,
verifier, annotations, personal and sensitive information), considerations (bias and limitations),
the evaluation protocol and additional information (curators, licensing, citation, uploading).

Every sentence states a fact of the export (``facts``: :func:`fbagent.publish.provenance.provenance`)
or of fbagent's method; what the database does not record is said to be not recorded.
"""

from __future__ import annotations

import math
from typing import Any

from fbagent import __version__
from fbagent.languages import language_name
from fbagent.publish.citations import bibtex, lexicon_sources
from fbagent.publish.licensing import Licensing, decide, licensing_notes, source_rows
from fbagent.publish.options import HfOptions


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 entry``, ``2 entries``, ``1,234 entries`` (thousands separated)."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def table(header: list[str], rows: list[list[Any]]) -> str:
    """A Markdown table; None is "not recorded", floats have 3 decimals, ``|`` is escaped."""
    def cell(v: Any) -> str:
        text = "not recorded" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
        return text.replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def _pct(v: float | None) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def competence_line(facts: dict, lang: str) -> str:
    """``annotator_1: native; annotator_2: not recorded`` for ``lang`` (every published annotator), or
    ``no annotators`` when nobody judged entries of this export."""
    comp = facts.get("competence") or {}
    if not comp:
        return "no annotators"
    return "; ".join(f"{alias}: {levels.get(lang, 'not recorded')}" for alias, levels in comp.items())


def lexicons(facts: dict) -> list[dict[str, Any]]:
    """The distinct lexicons of the export's runs (facts of :func:`fbagent.publish.provenance.lexicon_facts`)."""
    seen: dict[str, dict[str, Any]] = {}
    for r in facts["runs"]:
        if r.get("lexicon"):
            seen.setdefault(r["lexicon"]["name"], r["lexicon"])
    return list(seen.values())


def source_section(facts: dict) -> str:
    rows = []
    for lx, src in zip(lexicons(facts), lexicon_sources(lexicons(facts)), strict=True):
        rows.append([lx["name"], lx["lang"], src["source"] or "not recognised (cite it as its distributors ask)",
                     lx["format"], lx["release"] or "not recorded", (lx["source_hash"] or "not recorded")[:16],
                     _count(lx["n_frames"]), _count(lx["n_lexical_units"]), _count(lx["n_exemplars"])])
    body = (table(["lexicon", "language", "FrameNet", "format", "release", "source hash", "frames", "lexical units",
                   "exemplars"], rows) if rows else "The runs of this export record no lexicon row.")
    return ("### Source data\n\nThe frames, their definitions and the lexical units come from the lexicon "
            "imported with `fbagent lexicon add` (its release is the folder it was read from; the hash identifies "
            "the files). The sentences and questions are new: a language model wrote them.\n\n" + body + "\n")


# prompts that a run option turns on (`generate --screen`, `--judge`): listed only when the run used them
_OPTIONAL_PROMPTS = ("screen", "judge")


def _run_rows(facts: dict) -> tuple[list, list, list]:
    runs_rows, sel_rows, prompt_rows = [], [], []
    for r in facts["runs"]:
        sel = r.get("selection")
        if sel:
            c = sel["counts"]
            sel_rows.append([r["name"], sel.get("protocol", "fbagent"), sel["seed"], _count(c.get("candidates")),
                             _count(c.get("selected"))])
        opts = r["options"]
        runs_rows.append([r["name"], f"{r['generator']} / {r['model']}", f"{r['verifier_generator']} / {r['verifier_model']}",
                          r["encoder"] or "not recorded", r["seed"], opts.get("verifier", "roundtrip"),
                          opts.get("margin", "not recorded"),
                          ", ".join(f"{k}: {v:,}" for k, v in sorted(r["items_by_status"].items()))])
        unused = {t for t in _OPTIONAL_PROMPTS if opts.get(t) is False}  # steps the run did not take
        prompt_rows += [[r["name"], task, version] for task, version in r["prompt_versions"].items()
                        if task not in unused]
    return runs_rows, sel_rows, prompt_rows


def _count(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) else "not recorded"


def built_section(facts: dict) -> str:
    runs_rows, sel_rows, prompt_rows = _run_rows(facts)
    ver = facts["verifier"]
    return "\n".join([
        "### How the entries were made\n",
        "FrameBench steps 1-3 (Yano and Sasano 2026): polysemous verb lexical units are paired by frame, a "
        "seeded stratified sample of frame pairs is drawn, a generator LLM writes the question and the four "
        "sentences (self-checked for lexical similarity and the verb's presence), and a SemBench round-trip "
        "verifier (Zubillaga et al. 2026) defines the verb in each sentence and keeps a sentence when that "
        "definition is closer to its own frame than to the other by a margin.\n",
        "#### Frame-pair selection\n\n" + (table(["run", "protocol", "seed", "candidate pairs", "selected pairs"], sel_rows)
                                           if sel_rows else "The runs of this export record no pair selection.") + "\n",
        "#### Generation runs\n\n" + table(
            ["run", "generator (backend / model)", "verifier (backend / model)", "encoder", "seed", "verifier signal",
             "margin", "items by status (whole run)"], runs_rows) + "\n",
        "#### Verifier margins\n\n" + (table(["encoder", "margin", "exported entries"],
                                             [[v["encoder"], v["margin"], f"{v['entries']:,}"] for v in ver])
                                       if ver else "No exported entry carries a verifier result.") + "\n",
        "#### Prompt versions\n\n" + (table(["run", "task", "version"], prompt_rows)
                                     + "\n\nOnly the prompts each run used are listed (`screen` and `judge` only when "
                                     "the run screened pairs or judged with the LLM)." if prompt_rows
                                     else "The runs of this export record no prompt versions.") + "\n",
    ])


def _rule(s: dict) -> str:
    return (f"an entry is kept when at least {plural(s['min_correct'], 'annotator')} judged it correct and at least "
            f"{plural(s['min_acceptable'], 'annotator')} judged it acceptable (entry score = minimum over the base and "
            "the extended pair; FrameBench section 3.2)")


def annotations_section(facts: dict) -> str:
    s, v = facts["scope"], facts["validation"]
    if v is None:
        return ("### Annotations\n\nNo human judgments are stored for these entries: no annotator has validated "
                f"them yet. The FrameBench filter, when applied, keeps entries by this rule: {_rule(s)}.\n")
    e, t2 = v["entries"], v["table2"]
    size = t2["max_annotators"]
    t2_rows = [[f"{c} correct", *[t2["counts"][c][a] for a in range(size + 1)]] for c in range(size, -1, -1)]
    ann_rows = [[a["annotator"], f"{a['entries']:,}", _pct(a["correct_rate"]), _pct(a["acceptable_rate"]),
                 _pct(a["both_correct_accuracy"]), _pct(a["neither_correct_accuracy"])] for a in v["annotators"]]
    ag_rows = [[g["judgment"], g["level"], g["subjects"], g["raters"], _pct(g["full_agreement"]),
                "n/a" if g["fleiss_kappa"] is None else f"{g['fleiss_kappa']:.3f}"] for g in v["agreement"]]
    h = v["human_accuracy"]
    n = len(v["annotators"])
    return ("### Annotations\n\n"
            f"{plural(n, 'annotator')}, published as {_aliases(facts)}, judged, per entry, the base pair, the "
            "extended pair and two attention-check pairs (both correct, neither correct), choosing Sentence A / Sentence B / Both / "
            f"Neither and rating acceptability (language competence as stated: see Languages). Filter: {_rule(s)}.\n\n"
            f"Entries in scope: {e['in_scope']:,}; judged: {e['judged']:,}; kept: {e['kept']:,}; dropped by the "
            f"filter: {e['judged'] - e['kept']:,}; marked \"cannot be fixed\": {e['unfixable']:,}; exported here: "
            f"{facts['exported']['entries']:,}.\n\n"
            "#### Table 2: entries by number of annotators judging correct x acceptable\n\n"
            + table(["", *[f"{a} acceptable" for a in range(size + 1)]], t2_rows) + "\n\n"
            "#### Annotators\n\n"
            + table(["annotator", "entries", "correct", "acceptable", "both-correct check", "neither-correct check"],
                    ann_rows) + "\n\n"
            "#### Agreement (Table 8)\n\n"
            + table(["judgment", "level", "subjects", "raters", "full agreement", "Fleiss' kappa"], ag_rows) + "\n\n"
            f"#### Human accuracy\n\nOn the {plural(h['entries'], 'kept entry', 'kept entries')}: {_pct(h['mean'])} "
            f"(base pair {_pct(h['base'])}, extended pair {_pct(h['extended'])}), the mean over annotators of the "
            "share of correctly answered base and extended pairs (the \"Human\" row of FrameBench Tables 3 and 4).\n")


def _aliases(facts: dict) -> str:
    """How the card's annotators are published: ``annotator_1..n`` (or the numbers in use, e.g. ``annotator_2``
    and ``annotator_4`` for one run of a larger team) with what the numbers mean, or by name when the exporter
    passed ``--annotator-names``."""
    published = list(facts.get("competence") or {})
    if facts.get("annotator_names"):
        return "their names (the exporter chose to publish names: `fbagent export --annotator-names`)"
    nums = [int(a.removeprefix("annotator_")) for a in published if a.removeprefix("annotator_").isdigit()]
    if nums and nums == list(range(1, len(nums) + 1)) and len(nums) > 2:
        shown = f"`annotator_1..{len(nums)}`"
    else:
        quoted = [f"`{a}`" for a in published] or ["`annotator_1`"]
        shown = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return (f"{shown} (numbered once per database in the order the annotators started, so one number is one "
            "person in every export of it; the mapping to people is not published)")


def personal_section(facts: dict) -> str:
    models = sorted({f"`{r['model']}`" for r in facts["runs"] if r.get("model")})
    n = len(facts.get("competence") or {})
    who = (f"{plural(n, 'annotator')} {'appears' if n == 1 else 'appear'} only as {_aliases(facts)}; "
           f"{'their' if n > 1 else 'the'} free-text comments are not published, and the only fact about "
           f"{'them' if n > 1 else 'this annotator'} here is the language competence "
           f"{'each' if n > 1 else 'they'} stated" if n else "No annotator judged these entries")
    return ("### Personal and sensitive information\n\n"
            f"The sentences were written by {', '.join(models) or 'a language model'} to illustrate a verb's frame; "
            "no personal data was collected to write them. fbagent runs no automatic screening for names or "
            "personal data: a sentence may mention a person, a place or an event as a dictionary example would. "
            f"{who}. Run records in this card are whitelisted fields (models, seeds, prompt versions, thresholds): "
            "no command line, server address or key.\n")


def creation_section(facts: dict) -> str:
    """``## Dataset creation``: source data, how the entries were made, annotations, personal information."""
    return "\n".join(["## Dataset creation\n", source_section(facts), built_section(facts), annotations_section(facts),
                      personal_section(facts)])


def considerations_section(facts: dict) -> str:
    """``## Considerations for using the data`` with ``### Bias and limitations`` from the export's numbers."""
    ex = facts["exported"]
    n = ex["entries"]
    half = 100 * 1.96 * math.sqrt(0.25 / (4 * n)) if n else 0.0
    verbs = ", ".join(f"{language_name(k)}: {v:,}" for k, v in ex.get("verbs", {}).items())
    models = sorted({r["model"] for r in facts["runs"] if r.get("model")})
    human = ("only entries that passed the human filter are included." if facts["scope"]["validated"]
             else "entries are included whether or not annotators judged them; filter on the `human` field "
                  "(`kept`) to keep the validated ones." if facts["validation"]
             else "no annotator judged these entries: the statuses (`verified`, `flagged`) come from the automatic "
                  "checks and the verifier only, which FrameBench treats as a first filter, not as validation.")
    return ("## Considerations for using the data\n\n### Bias and limitations\n\n"
            f"- Size: {plural(n, 'entry', 'entries')} {'gives' if n == 1 else 'give'} {plural(4 * n, 'problem')} per template; for an accuracy "
            f"near 50% the 95% interval is about ±{half:.1f} points (normal approximation, treating problems as "
            "independent; the four problems of one entry are not, so the true interval is wider).\n"
            f"- Coverage: only verbs that evoke two or more frames of the lexicon, sampled by frame pair "
            f"(distinct verbs: {verbs or 'not recorded'}); frames and their distinctions are the lexicon's, and "
            "a lexicon derived from English FrameNet carries its English frame inventory into other languages.\n"
            f"- Text: the sentences and questions were written by {', '.join(f'`{m}`' for m in models) or 'a language model'}; "
            "their topics, register and errors are that model's, and a model of the same family may find them "
            "easier.\n"
            f"- Validation: {human}\n"
            "- Split: one `test` split; the data is meant for evaluation, and training on it invalidates scores on it.\n")


def protocol_section(template_sets: dict[str, Any], languages: list[str]) -> str:
    """``## Evaluation protocol``: FrameBench section 4 and the templates of each language."""
    rows = []
    for lang in languages:
        for t in template_sets[lang].templates:
            m = t.prompt.meta
            rows.append([lang, t.name, t.version, m.get("verb_hint", "-"), m.get("layout", "-"),
                         m.get("answer_instruction", "-")])
    labels = "; ".join(f"{lang}: " + ", ".join(template_sets[lang].labels.values()) for lang in languages)
    return ("## Evaluation protocol\n\n"
            "FrameBench section 4 and appendix B: every entry gives two problems, the base pair (S_A, S_B; gold: "
            "Sentence A only) and the extended pair (S_B', S_A'; gold: Sentence B only), each asked in both "
            "sentence orders, so four problems per entry. The four options (Sentence A, Sentence B, Both, Neither) "
            "are numbered 1-4 by a shuffle seeded with (seed, problem id), and the model answers with one option "
            "number (constrained decoding). Accuracy is reported per template and as the mean and standard "
            "deviation over the templates; errors split into Both / Neither / Opposite.\n\n"
            + table(["language", "template", "version", "verb hint", "layout", "answer instruction"], rows) + "\n\n"
            f"Option labels: {labels}.\n")


def _upload(options: HfOptions) -> str:
    if options.repo_id:
        return ("\n\n```bash\nhf auth login\n"
                f"hf upload --repo-type dataset {options.repo_id} . .   # from this folder; huggingface_hub >= 1.0\n"
                f"huggingface-cli upload --repo-type dataset {options.repo_id} . .   # older huggingface_hub\n```\n")
    return (" Upload with `hf upload --repo-type dataset` followed by the dataset's Hub id (owner/name), this folder and "
            "`.` (`huggingface-cli upload` with older huggingface_hub), after `hf auth login`; export with "
            "`--repo-id owner/name` to have the exact commands, and `load_dataset` above, written with it.\n")


def licensing_section(facts: dict, lic: Licensing) -> str:
    """``### Licensing information``: the licence and where it came from (:mod:`fbagent.publish.licensing`),
    the sources, one row per source (licence, where that came from, citation keys), unknown licences and
    conflicts said plainly."""
    sources = lexicon_sources(lexicons(facts))
    fn = "; ".join(f"`{s['lexicon']}`: {s['source'] or 'not recognised, cite it as its distributors ask'}"
                   for s in sources) or "not recorded"
    rows = source_rows(lic)
    body = (table(["lexicon", "source", "licence", "where the licence came from", "cite"], rows) + "\n\n"
            if rows else "")
    return ("### Licensing information\n\n"
            f"`{lic.licence}` ({lic.how}). The frames and lexical units come from FrameNet-style lexicons ({fn}): "
            "follow the terms of each (Berkeley FrameNet data is distributed under CC BY).\n\n"
            + body + "".join(n + "\n\n" for n in licensing_notes(lic)))


def additional_section(facts: dict, options: HfOptions, lic: Licensing | None = None) -> str:
    """``## Additional information``: curators, licensing (``lic``: :func:`fbagent.publish.licensing.decide`;
    None: decided here from ``options``), citation, uploading."""
    curators = (options.curators + "." if options.curators else
                "The exporter named no curators (`fbagent export --curators` writes them here).")
    lic = lic or decide(lexicons(facts), options.license, options.force_license)
    return ("## Additional information\n\n"
            f"### Dataset curators\n\n{curators} Made with fbagent {__version__} (`fbagent export --format hf`).\n\n"
            + licensing_section(facts, lic) +
            "### Citation\n\n"
            "Cite the FrameBench paper, whose method this data follows: Chihiro Yano and Ryohei Sasano (Nagoya "
            "University), \"FrameBench: A Language Understanding Benchmark Based on Frame Semantics\", "
            "arXiv:2609.03370; SemBench, whose round-trip verifier checked the sentences; and the FrameNet the "
            "frames came from.\n\n"
            "```bibtex\n" + bibtex(lexicons(facts)) + "\n```\n\n"
            "### Uploading\n\nfbagent writes this folder without using the network." + _upload(options))
