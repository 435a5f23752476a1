"""Cross-model reports of evaluation result folders: Rich table, Markdown, CSV and a bar plot (PNG/PDF/SVG).

The FrameBench table follows the paper's Tables 3 and 4 (Yano and Sasano
2026, section 4): accuracy (mean ± std over templates), its 95% bootstrap CI,
base vs extended accuracy and their difference, the correct sentence shown
1st vs 2nd and the difference, the error breakdown Both / Neither / Opposite,
and failures, plus throughput. The conventions (failures counted as wrong or
excluded; population or sample std) are those each run recorded
(``manifest["scoring"]``), one for all rows: when runs disagree, or an older
run recorded none, every run is re-scored with the defaults and
:attr:`Report.warnings` says so; ``std`` / ``failures`` override. Titles and
captions name the conventions.

The terminal table is compact by default (Model, Acc., 95% CI, Base, Ext.,
1st, 2nd, Failed: readable at 80 columns); ``wide`` (and the Markdown and
CSV files) has every column. A "Human" row (accuracy only) comes from a
human accuracy given as a fraction or a percentage (:func:`parse_human_accuracy`),
a validation report (``fbagent validate report --format json``:
``human_accuracy.mean``), or the annotator judgments in the evaluated dataset.
Runs whose datasets differ (``manifest["dataset"]["fingerprint"]``, else the
file hash and limit) are compared with a warning.

FrameBench results of several languages also get one model x language table on the frame pairs every
language shares (:func:`shared_table`, :mod:`fbagent.eval.crosslingual`).

SemBench and frame identification folders get their own tables.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fbagent.errors import FbagentError
from fbagent.eval.crosslingual import shared_accuracy
from fbagent.eval.metrics import DEFAULT_SCORING, Scoring, pct, summarize
from fbagent.eval.runner import latest, read_manifest, read_predictions
from fbagent.files import MAX_JSON_DEPTH, json_depth, read_text_input, write_atomic
from fbagent.limits import DEFAULT_N_BOOT

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

CHANCE = {"framebench": 0.25, "frame_id": 1 / 3, "sembench": 0.5}
FIGURE_FORMATS = ("png", "pdf", "svg")


def short_model_name(model: str) -> str:
    """A short display name: the last path component without ``.gguf`` (``/m/Qwen3-8B`` -> ``Qwen3-8B``,
    ``Qwen/Qwen3-8B`` -> ``Qwen3-8B``, ``gemma-3-270m-q4_k_m.gguf`` -> ``gemma-3-270m-q4_k_m``)."""
    name = model.rstrip("/").rsplit("/", 1)[-1] or model
    return re.sub(r"\.gguf$", "", name, flags=re.IGNORECASE)


@dataclass
class RunResult:
    """One result folder: its manifest, recomputed summary, display label and throughput."""

    folder: Path
    manifest: dict
    summary: dict
    disambiguate: bool = False  # add the folder name to the label (set when two runs share a label)
    predictions: list[dict] = field(default_factory=list)  # FrameBench: the latest prediction per key

    @property
    def task(self) -> str:
        return self.manifest.get("task", "framebench")

    @property
    def model_label(self) -> str:
        """``eval run --label`` when given, else the short model name (+think in reasoning mode)."""
        name = self.manifest.get("label") or ""
        if not name:
            name = short_model_name(str(self.manifest.get("model") or self.folder.name))
            if (self.manifest.get("reasoning") or {}).get("enabled"):
                name += " +think"
        return name

    @property
    def label(self) -> str:
        """:attr:`model_label`, with the folder name when two runs of a report share it."""
        return f"{self.model_label} [{self.folder.name}]" if self.disambiguate else self.model_label

    @property
    def dataset_key(self) -> str:
        """What was asked: the dataset fingerprint, else ``sha256 prefix|limit`` (older manifests)."""
        ds = self.manifest.get("dataset") or {}
        if ds.get("fingerprint"):
            return str(ds["fingerprint"])
        ident = self.manifest.get("identity") or {}
        sha = ident.get("dataset_sha256") or ident.get("dictionary") or ident.get("db") or "?"
        return f"{str(sha)[:12]}|limit={ident.get('limit')}"

    @property
    def problems_per_s(self) -> float | None:
        sessions = [s for s in self.manifest.get("sessions", []) if s.get("predictions")]
        wall = sum(s["wall_s"] for s in sessions)
        n = sum(s["predictions"] for s in sessions)
        return n / wall if wall > 0 else None


def _default_lang(manifest: dict) -> str:
    lang = str(manifest.get("lang") or "en")
    return lang if "," not in lang else "en"


def load_result(folder: Path, n_boot: int = DEFAULT_N_BOOT, scoring: Scoring | None = None) -> RunResult:
    """Read a result folder and recompute its summary from the stored predictions (the last one per key).

    ``scoring``: the conventions to use (None: the run's recorded ones, else the
    defaults). Raises :class:`FbagentError` for a folder without manifest or predictions.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    preds = latest(read_predictions(folder))
    if not preds:
        raise FbagentError(f"{folder} has no predictions", "run `fbagent eval run ... --out` into it first")
    task = manifest.get("task", "framebench")
    scoring = scoring or Scoring.from_dict(manifest.get("scoring")) or DEFAULT_SCORING
    summary = summarize(task, preds, n_boot=n_boot, seed=int(manifest.get("seed") or 0), scoring=scoring,
                        default_lang=_default_lang(manifest))
    if manifest.get("human_filter") is not None:
        summary["human_filter"] = manifest["human_filter"]
    kept = [p for p in preds if task == "framebench"]
    return RunResult(folder, manifest, summary, predictions=kept)


def resolve_scoring(manifests: list[dict], std: str | None = None,
                    failures: str | None = None) -> tuple[Scoring, list[str]]:
    """One scoring for a report: the overrides, else what every run recorded, else the defaults.

    Returns ``(scoring, warnings)``; a warning when runs recorded different
    conventions or none (older runs) and no override settles it.
    """
    recorded = [Scoring.from_dict(m.get("scoring")) for m in manifests
                if m.get("task", "framebench") in ("framebench", "frame_id")]
    agreed = recorded[0] if recorded and all(r == recorded[0] for r in recorded) else None
    base = agreed or DEFAULT_SCORING
    chosen = Scoring(failures=failures or base.failures, std=std or base.std)
    warnings = []
    if recorded and agreed is None and (std is None or failures is None):
        warnings.append("the runs recorded different scoring conventions (or none, for older runs); "
                        f"all are scored with {chosen.label()}")
    return chosen, warnings


def load_results(folders: list[Path], n_boot: int = DEFAULT_N_BOOT, std: str | None = None,
                 failures: str | None = None) -> tuple[list[RunResult], Scoring, list[str]]:
    """Load every folder under one scoring (:func:`resolve_scoring`) -> ``(results, scoring, warnings)``."""
    manifests = [read_manifest(f) for f in folders]
    scoring, warnings = resolve_scoring(manifests, std, failures)
    return [load_result(f, n_boot=n_boot, scoring=scoring) for f in folders], scoring, warnings


def parse_human_accuracy(value: float) -> tuple[float, str]:
    """A human accuracy as a fraction in [0, 1] and how it was read.

    Values up to 1 are fractions (``0.958`` -> 0.958, what ``validate report
    --format json`` writes), larger ones percentages (``95.8`` -> 0.958).
    Returns ``(fraction, "fraction" | "percentage")``. Raises
    :class:`FbagentError` outside [0, 100].
    """
    if not 0.0 <= value <= 100.0:
        raise FbagentError(f"human accuracy {value} is neither a fraction nor a percentage",
                           "give a fraction in [0, 1] (0.958) or a percentage in (1, 100] (95.8)")
    return (value, "fraction") if value <= 1.0 else (value / 100.0, "percentage")


#: the fix of every --validation-report that is not one
REPORT_FIX = "write one with `fbagent validate report --format json --out report.json` and pass that file"


def read_validation_report(path: Path) -> dict[str, object]:
    """The JSON object of the validation report file ``path`` (``fbagent validate report --format json``).

    Raises :class:`FbagentError` (one line naming ``path``, what was expected and :data:`REPORT_FIX`) when the
    file is missing, not a regular file, not UTF-8 text, empty, not JSON (the line and column of the first
    error; JSON Lines and a table/Markdown report are named as such), nested deeper than
    :data:`fbagent.files.MAX_JSON_DEPTH`, or JSON that is not a validation report (no ``human_accuracy`` or
    ``human_scores`` key).
    """
    text = read_text_input(path, "validation report", REPORT_FIX)
    if not text.strip():
        raise FbagentError(f"validation report {path} is empty", REPORT_FIX)
    if json_depth(text) > MAX_JSON_DEPTH:
        raise FbagentError(f"validation report {path} is JSON nested deeper than {MAX_JSON_DEPTH} levels", REPORT_FIX)
    try:
        rep = json.loads(text)
    except json.JSONDecodeError as err:
        lines = err.msg == "Extra data" and text.lstrip().startswith("{") and len(text.strip().splitlines()) > 1
        kind = ("JSON Lines (one value per line), not the one JSON object of a report" if lines
                else f"not JSON ({err.msg.removesuffix(' at')} at line {err.lineno}, column {err.colno})")
        raise FbagentError(f"validation report {path} is {kind}", REPORT_FIX) from err
    if not isinstance(rep, dict):
        kind = {list: "an array", str: "a string", bool: "true or false"}.get(type(rep), "a number" if rep is not None
                                                                             else "null")
        raise FbagentError(f"validation report {path} is a JSON value ({kind}), not the object of a report", REPORT_FIX)
    if not {"human_accuracy", "human_scores"} & rep.keys():
        raise FbagentError(f"{path} is JSON but not a validation report (no human_accuracy or human_scores key)",
                           REPORT_FIX)
    return rep


def human_accuracy_from_report(path: Path) -> float:
    """The human accuracy of a validation report JSON, in [0, 1] (:func:`human_score_from_report`)."""
    return human_score_from_report(path)[0]


def human_score_from_report(path: Path) -> tuple[float, str]:
    """``(accuracy in [0, 1], which)`` from a validation report JSON (``fbagent validate report --format json``):
    the independent human baseline (``human_scores``, ``annotate --mode baseline``) when it has answers, else
    the paper-style score ``human_accuracy.mean`` (or a top-level number ``human_accuracy``); ``which`` names
    the convention used.

    Raises :class:`FbagentError` when the file is missing or has no such value.
    """
    path = Path(path)
    rep = read_validation_report(path)
    scores = rep.get("human_scores")
    independent = next((r for r in (scores if isinstance(scores, list) else []) if isinstance(r, dict) and r.get("score", "").startswith("independent")
                        and isinstance(r.get("accuracy"), int | float)), None)
    if independent is not None:
        return float(independent["accuracy"]), (f"independent human baseline ({independent['annotators']} annotator(s), "
                                                f"{independent['entries']} entries; annotate --mode baseline)")
    value = rep.get("human_accuracy")
    if isinstance(value, dict):
        value = value.get("mean")
    if not isinstance(value, int | float):
        raise FbagentError(f"validation report {path} has no human accuracy yet (no entry's judgments kept it)",
                           "annotate entries first (fbagent annotate), then write the report again; or pass "
                           "--human-accuracy VALUE")
    return parse_human_accuracy(float(value))[0], ("paper-style human score (the validating annotators on the kept "
                                                   "entries; biased upward: no independent baseline in the report)")


def _pm(m: dict, compact: bool = False) -> str:
    if m.get("mean") is None:
        return "-"
    sep = "±" if compact else " ± "
    std = pct(m["std"]) if m.get("std") is not None else "n/a"  # n/a: undefined (sample std of one template)
    return pct(m["mean"]) + sep + std


def _ci(ci: Sequence[float] | None, compact: bool = False) -> str:
    if not ci:
        return "-"
    return f"[{pct(ci[0])},{pct(ci[1])}]" if compact else f"[{pct(ci[0])}, {pct(ci[1])}]"


def _rate_s(v: float | None) -> str:
    return "-" if v is None else f"{v:.2f}"


FRAMEBENCH_HEADERS = ["Model", "Acc.", "95% CI", "Base", "Ext.", "Base-Ext.", "1st", "2nd", "1st-2nd",
                      "Both", "Neither", "Opposite", "Failed", "Answers", "Problems/s", "Think tok.", "Budget hit",
                      "Parsed", "Dropped", "Dataset"]
FRAMEBENCH_COMPACT = ["Model", "Acc.", "95% CI", "Base", "Ext.", "1st", "2nd", "Failed"]


def framebench_rows(results: list[RunResult], human: float | None, compact: bool = False) -> list[list[str]]:
    """Rows of the FrameBench table (percent strings; Acc. = mean ± std over templates, ``n/a`` when the
    std is undefined). ``compact``: the columns of :data:`FRAMEBENCH_COMPACT`."""
    rows = []
    for r in results:
        s = r.summary
        if compact:
            rows.append([r.label, _pm(s["accuracy"], True), _ci(s["ci95"], True), pct(s["base"]["mean"]),
                         pct(s["extended"]["mean"]), pct(s["first"]["mean"]), pct(s["second"]["mean"]),
                         f"{pct(s['failure_rate'])}%"])
            continue
        hf = s.get("human_filter") or {}
        rows.append([
            r.label, _pm(s["accuracy"]), _ci(s["ci95"]),
            pct(s["base"]["mean"]), pct(s["extended"]["mean"]), pct(s["base_minus_extended"]["mean"]),
            pct(s["first"]["mean"]), pct(s["second"]["mean"]), pct(s["first_minus_second"]["mean"]),
            pct(s["both"]["mean"]), pct(s["neither"]["mean"]), pct(s["opposite"]["mean"]),
            f"{s['n_failed']} ({pct(s['failure_rate'])}%)", str(s["n_predictions"]), _rate_s(r.problems_per_s),
            f"{s['thinking_tokens_mean']:.0f}" if s.get("thinking_tokens_mean") else "-", str(s.get("budget_exhausted", 0)),
            str(s.get("n_parsed_from_text", 0)), str(hf.get("n_problems_dropped", 0)) if hf.get("applied") else "-",
            r.dataset_key,
        ])
    if human is not None:
        width = len(FRAMEBENCH_COMPACT if compact else FRAMEBENCH_HEADERS)
        rows.append(["Human", pct(human)] + ["-"] * (width - 2))
    return rows


LANGUAGE_HEADERS = ["Model", "Lang.", "Acc.", "Entries", "Failed", "Templates"]


def language_rows(results: list[RunResult]) -> list[list[str]]:
    """Per-language accuracy rows (mean ± std over that language's templates) of FrameBench runs."""
    rows = []
    for r in results:
        for lang, m in (r.summary.get("per_language") or {}).items():
            rows.append([r.label, lang, _pm(m["accuracy"], True), str(m["n_entries"]), f"{pct(m['failure_rate'])}%",
                         ",".join(m.get("template_sets") or []) or "-"])
    return rows


SEMBENCH_HEADERS = ["Model", "Mode", "Shots", "Easy", "Mid", "Hard", "Rand", "Mean", "Failed", "Instances", "Inst./s"]


def sembench_rows(results: list[RunResult]) -> list[list[str]]:
    """Rows of the SemBench table: accuracy (%) per distractor difficulty with the 95% CI."""
    rows = []
    for r in results:
        s, m = r.summary, r.manifest
        cells = []
        for d in ("easy", "mid", "hard", "rand"):
            v = s["difficulties"].get(d)
            cells.append(f"{pct(v['accuracy'])} {_ci(v['ci95'])}" if v else "-")
        rows.append([r.label, str(m.get("mode")), str(m.get("shots")), *cells,
                     pct(s["accuracy_mean_over_difficulties"]), f"{s['n_failed']}", str(s["n_predictions"]),
                     _rate_s(r.problems_per_s)])
    return rows


FRAME_ID_HEADERS = ["Model", "Shots", "Acc.", "95% CI", "Other frame", "Neither", "Failed", "Problems", "Problems/s"]


def frame_id_rows(results: list[RunResult]) -> list[list[str]]:
    """Rows of the frame identification table (FrameBench appendix B.5)."""
    return [[r.label, str(r.manifest.get("shots")), pct(r.summary["accuracy"]), _ci(r.summary["ci95"]),
             pct(r.summary["other_frame"]), pct(r.summary["neither"]), str(r.summary["n_failed"]),
             str(r.summary["n_predictions"]), _rate_s(r.problems_per_s)] for r in results]


@dataclass
class Table:
    """One table of a report: title, headers, rows and a caption (conventions, notes)."""

    title: str
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""

    def __iter__(self) -> Iterator[object]:  # (title, headers, rows), as older callers unpack it
        return iter((self.title, self.headers, self.rows))

    def __getitem__(self, i: int) -> object:
        return (self.title, self.headers, self.rows)[i]


def shared_table(results: list[RunResult], scoring: Scoring) -> Table | None:
    """The model x language table on the frame pairs every language shares (:mod:`fbagent.eval.crosslingual`):
    one row per model (its folders of several languages together), one column per language, cells
    ``accuracy [95% CI]``; None unless the FrameBench predictions hold two or more languages."""
    if not results:
        return None
    n_boot = int(results[0].summary.get("n_boot") or DEFAULT_N_BOOT)
    seed = int(results[0].manifest.get("seed") or 0)
    acc = shared_accuracy([(r.model_label, r.predictions) for r in results], scoring, n_boot=n_boot, seed=seed)
    if acc is None:
        return None
    rows = [[label, *(f"{pct(c.accuracy)} {_ci(c.ci95)}" if (c := cells.get(lang)) and c.problems else "-"
                      for lang in acc.languages)] for label, cells in acc.cells.items()]
    per_lang = "; ".join(f"{lang}: {acc.pairs_per_language[lang]:,} pairs" for lang in acc.languages)
    entries = "; ".join(f"{label}: " + ", ".join(f"{lang} {c.entries:,}" for lang, c in cells.items())
                        for label, cells in acc.cells.items())
    missing = (f" {acc.without_key:,} predictions carry no frame_pair (datasets exported before it) and are left "
               "out." if acc.without_key else "")
    caption = (f"On the {len(acc.shared):,} frame pairs (frame_pair) present in every language ({per_lang}); entries "
               f"on them: {entries or 'none'}. Accuracy: correct / answers pooled over templates ("
               + ("failures counted as wrong" if scoring.count_failures else "failures excluded")
               + f"); 95% CI: percentile bootstrap over entries ({n_boot} resamples, seed {seed})." + missing)
    title = f"FrameBench accuracy by model x language on the {len(acc.shared):,} shared frame pairs (%, [95% CI])"
    return Table(title, ["Model", *acc.languages], rows, caption)


def dataset_warning(results: list[RunResult]) -> str | None:
    """A warning when FrameBench runs of a report were asked different problems (datasets differ)."""
    keys: dict[str, list[str]] = {}
    for r in results:
        if r.task == "framebench":
            keys.setdefault(r.dataset_key, []).append(r.label)
    if len(keys) <= 1:
        return None
    parts = "; ".join(f"{k}: {', '.join(v)}" for k, v in keys.items())
    return f"the compared FrameBench runs used different datasets ({parts}); their numbers are not comparable"


#: what the full table's less common columns mean (its caption, so `eval run` shows it under its table)
COLUMN_LEGEND = ("Columns: Think tok. = mean thinking tokens per answer (- without reasoning mode); Budget hit = "
                 "answers whose thinking used all of --max-think-tokens; Parsed = answers read from free text "
                 "instead of a constrained option number (0: every answer constrained, as it should be); Dropped = "
                 "problems the human filter removed (- : no filter applied).")


def _framebench_caption(results: list[RunResult], scoring: Scoring, wide: bool = True) -> str:
    s0 = results[0].summary
    parts = [f"Acc.: mean ± {scoring.std} std (ddof={scoring.ddof}) over templates, n/a = undefined; "
             + ("failures counted as wrong" if scoring.count_failures else "failures excluded from every rate")
             + f"; 95% CI: bootstrap over entries ({s0.get('n_boot')} resamples)."]
    dropped = [f"{r.label}: {r.summary['human_filter']['n_problems_dropped']}" for r in results
               if (r.summary.get("human_filter") or {}).get("applied")]
    if dropped:
        parts.append("Human filter (>= 2 annotators matched, >= 2 acceptable) dropped problems: " + ", ".join(dropped) + ".")
    parsed = [f"{r.label}: {r.summary.get('n_parsed_from_text')}" for r in results if r.summary.get("n_parsed_from_text")]
    if parsed:
        parts.append("Answers parsed from free text: " + ", ".join(parsed) + ".")
    if wide:
        parts.append(COLUMN_LEGEND)
    return " ".join(parts)


def tables(results: list[RunResult], human: float | None = None, wide: bool = True,
           scoring: Scoring | None = None) -> list[Table]:
    """The report's tables per task present in ``results`` (FrameBench, by language, frame-id, SemBench).

    ``wide``: every FrameBench column (Markdown, CSV); False: the compact
    columns of :data:`FRAMEBENCH_COMPACT` (terminal). ``scoring``: the
    conventions named in titles (default: the first run's, else the defaults).
    """
    out: list[Table] = []
    seen: dict[tuple[str, str], int] = {}
    for r in results:
        r.disambiguate = False
    for r in results:
        seen[(r.task, r.label)] = seen.get((r.task, r.label), 0) + 1
    for r in results:
        if seen.get((r.task, r.label), 0) > 1:
            r.disambiguate = True
    by_task: dict[str, list[RunResult]] = {}
    for r in results:
        by_task.setdefault(r.task, []).append(r)
    if scoring is None:
        scoring = Scoring.from_dict(results[0].manifest.get("scoring")) if results else None
        scoring = scoring or DEFAULT_SCORING
    if "framebench" in by_task:
        fb = by_task["framebench"]
        fail = "failures = wrong" if scoring.count_failures else "failures excluded"
        title = f"FrameBench accuracy (%, mean ± {scoring.std} std over templates; {fail})"
        out.append(Table(title, FRAMEBENCH_HEADERS if wide else FRAMEBENCH_COMPACT,
                         framebench_rows(fb, human, compact=not wide), _framebench_caption(fb, scoring, wide)))
        if any(len(r.summary.get("per_language") or {}) > 1 for r in fb):
            out.append(Table("FrameBench accuracy by language (%, mean ± std over that language's templates)",
                             LANGUAGE_HEADERS, language_rows(fb), "Templates: the template set each language was asked with."))
        cross = shared_table(fb, scoring)
        if cross is not None:
            out.append(cross)
    if "frame_id" in by_task:
        fail = "failures = wrong" if scoring.count_failures else "failures excluded"
        out.append(Table(f"Frame identification accuracy (%; {fail})", FRAME_ID_HEADERS, frame_id_rows(by_task["frame_id"])))
    if "sembench" in by_task:
        out.append(Table("SemBench accuracy (%) by distractor difficulty [95% CI]", SEMBENCH_HEADERS,
                         sembench_rows(by_task["sembench"]), "Failed generations are not in the accuracies."))
    return out


def render_markdown(tabs: list[Table], warnings: list[str] | None = None) -> str:
    """Markdown tables (one per task), each followed by its caption; warnings first."""
    parts = [f"> warning: {w}\n" for w in warnings or []]
    for tab in tabs:
        title, headers, rows = tab.title, tab.headers, tab.rows
        parts.append(f"### {title}\n")
        parts.append("| " + " | ".join(headers) + " |")
        parts.append("|" + "|".join("---" for _ in headers) + "|")
        parts.extend("| " + " | ".join(r) + " |" for r in rows)
        parts.append("")
        if getattr(tab, "caption", ""):
            parts.append(tab.caption + "\n")
    return "\n".join(parts)


_NUM = r"-?\d+(?:\.\d+)?"
# the text forms of the table cells -> the numeric columns they become in the CSV (suffixes of the header)
_CELL_FORMS = (
    (re.compile(rf"^({_NUM}) ?± ?({_NUM}|n/a)$"), ("mean", "std")),              # 12.5 ± 3.1 (over templates)
    (re.compile(rf"^\[({_NUM}), ?({_NUM})\]$"), ("low", "high")),                 # [40.0, 50.0] (95% CI)
    (re.compile(rf"^({_NUM}) \[({_NUM}), ?({_NUM})\]$"), ("", "CI low", "CI high")),  # 45.0 [40.0, 50.0]
    (re.compile(rf"^({_NUM}) \(({_NUM})%\)$"), ("n", "%")),                       # 3 (1.5%)
    (re.compile(rf"^({_NUM})%$"), ("%",)),                                         # 1.5%
)
_EMPTY = ("-", "n/a", "")
_PLAIN = re.compile(rf"^{_NUM}$")


def _csv_form(cells: list[str]) -> tuple[re.Pattern[str], tuple[str, ...]] | None:
    """The one cell form every non-empty cell of a column has, or ``None`` (a text or plain-number column)."""
    filled = [c for c in cells if c not in _EMPTY]
    for pattern, parts in _CELL_FORMS:  # a plain number may stand in such a column too (the Human row)
        if any(pattern.match(c) for c in filled) and all(pattern.match(c) or _PLAIN.match(c) for c in filled):
            return pattern, parts
    return None


def render_csv(tabs: list[Table]) -> str:
    """CSV: one block per task, a ``table`` column naming it; numbers as numbers. A cell that joins
    numbers on screen becomes separate columns: ``Acc.`` ``12.5 ± 3.1`` -> ``Acc. mean`` 12.5,
    ``Acc. std`` 3.1; ``95% CI`` ``[40.0, 50.0]`` -> ``95% CI low``, ``95% CI high``; ``Failed``
    ``3 (1.5%)`` -> ``Failed n``, ``Failed %``; ``1.5%`` -> ``... %`` 1.5. ``-`` and ``n/a`` (undefined)
    are empty cells. Percent values stay percent (as in the table)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for tab in tabs:
        title, headers, rows = tab.title, tab.headers, tab.rows
        forms = [_csv_form([r[i] for r in rows]) for i in range(len(headers))]
        out_headers = ["table"]
        for h, form in zip(headers, forms, strict=True):
            out_headers += [h] if form is None else [f"{h} {p}".strip() for p in form[1]]
        w.writerow(out_headers)
        for r in rows:
            cells: list[str] = [title]
            for c, form in zip(r, forms, strict=True):
                if form is None:
                    cells.append("" if c in ("-", "n/a") else c)
                    continue
                m = form[0].match(c)
                groups = m.groups() if m else (c, *[""] * (len(form[1]) - 1)) if _PLAIN.match(c) else ()
                cells += [g if g is not None and g != "n/a" else "" for g in groups] or [""] * len(form[1])
            w.writerow(cells)
    return buf.getvalue()


@dataclass
class FigureNotes:
    """What the figure adds below the bars: warnings (different datasets) and the conventions."""

    warnings: list[str] = field(default_factory=list)
    conventions: str = ""


MIN_BAR = 0.8  # percentage points: the height a 0% bar is drawn with, so that it shows (its label says 0.0)


def shown_heights(values: list[float]) -> list[float]:
    """Bar heights as drawn (percent): a bar of 0 is drawn :data:`MIN_BAR` high, every other as it is."""
    return [MIN_BAR if v == 0 else v for v in values]


def _bar_labels(ax: Axes, xs: Sequence[float], tops: Sequence[float], texts: Sequence[str], fontsize: int = 7) -> None:
    for x, top, text in zip(xs, tops, texts, strict=True):
        ax.annotate(text, (x, top), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                    fontsize=fontsize)


def plot(results: list[RunResult], out_path: Path, human: float | None = None,
         formats: tuple[str, ...] | list[str] = ("png",), notes: FigureNotes | None = None,
         scoring: Scoring | None = None) -> dict[str, Path]:
    """Bar plot of accuracy per run; one file per format of ``formats`` (png, pdf, svg).

    FrameBench: bar = mean over templates, error bar = ± std over templates,
    label = ``mean±std`` and ``N=`` answers (``std n/a`` and no error bar when
    the std is undefined); a 0% bar is drawn :data:`MIN_BAR` high so that it shows. Frame identification: error bar = 95% bootstrap CI.
    SemBench: grouped bars per difficulty with 95% CIs. A dashed chance line,
    a solid human line (FrameBench), legends outside the bars, warnings under
    the axes. ``out_path``: the file name without or with a suffix (it is
    replaced per format). Returns ``{format: path}``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams.update({"svg.fonttype": "none", "pdf.fonttype": 42})  # editable text in SVG and PDF
    bad = [f for f in formats if f not in FIGURE_FORMATS]
    if bad:
        raise FbagentError(f"unknown figure format(s) {bad}", f"use {', '.join(FIGURE_FORMATS)}")
    notes = notes or FigureNotes()
    scoring = scoring or DEFAULT_SCORING
    tasks = [t for t in ("framebench", "frame_id", "sembench") if any(r.task == t for r in results)]
    widths = [max(4.0, (2.2 if t == "sembench" else 1.1) * sum(1 for r in results if r.task == t) + 2.0)
              for t in tasks]
    fig, axes = plt.subplots(1, len(tasks), figsize=(sum(widths) + 2.2 * len(tasks), 5.2), squeeze=False,
                             gridspec_kw={"width_ratios": widths}, layout="constrained")
    for ax, task in zip(axes[0], tasks, strict=True):
        rs = [r for r in results if r.task == task]
        if task == "sembench":
            _sembench_bars(ax, rs)
        else:
            _accuracy_bars(ax, task, rs, human)
        _axis_frame(ax, task, [r.label for r in rs])
    _figure_notes(fig, notes)
    try:
        return _save_figure(fig, Path(out_path), formats)
    finally:
        plt.close(fig)


def _sembench_bars(ax: Axes, rs: list[RunResult]) -> None:
    """Grouped bars per distractor difficulty (easy, mid, hard, rand) with 95% CIs, one group per run."""
    diffs = ["easy", "mid", "hard", "rand"]
    width = 0.8 / len(diffs)
    for k, d in enumerate(diffs):
        vals, lo, hi = [], [], []
        for r in rs:
            v = r.summary["difficulties"].get(d)
            a = (v or {}).get("accuracy")
            ci = (v or {}).get("ci95")
            vals.append(100 * a if a is not None else 0.0)
            lo.append(100 * (a - ci[0]) if ci and a is not None else 0.0)
            hi.append(100 * (ci[1] - a) if ci and a is not None else 0.0)
        xs = [i + (k - 1.5) * width for i in range(len(rs))]
        ax.bar(xs, shown_heights(vals), width, yerr=[lo, hi], capsize=3, label=d)
        _bar_labels(ax, xs, [v + h for v, h in zip(vals, hi, strict=True)], [f"{v:.0f}" for v in vals], 6)
    ax.set_title("SemBench (N = instances)")


def _accuracy_bars(ax: Axes, task: str, rs: list[RunResult], human: float | None) -> None:
    """One bar per run: FrameBench mean ± std over templates (and the human line), frame identification
    accuracy ± 95% CI; labels with the value and ``N=`` answers."""
    vals, texts = [], []
    lo_hi: list[tuple[float, float]] = []
    for r in rs:
        s = r.summary
        if task == "framebench":
            mean, std = s["accuracy"]["mean"], s["accuracy"]["std"]
            vals.append(100 * (mean or 0.0))
            e = 100 * std if std is not None else 0.0
            lo_hi.append((e, e))
            std_s = f"±{100 * std:.1f}" if std is not None else " (std n/a)"
            texts.append(f"{100 * (mean or 0.0):.1f}{std_s}\nN={s['n_predictions']}")
        else:
            a = s["accuracy"] or 0.0
            ci = s["ci95"] or (a, a)
            vals.append(100 * a)
            lo_hi.append((100 * (a - ci[0]), 100 * (ci[1] - a)))
            texts.append(f"{100 * a:.1f}\nN={s['n_predictions']}")
    x = list(range(len(rs)))
    err = [[lh[0] for lh in lo_hi], [lh[1] for lh in lo_hi]]
    ax.bar(x, shown_heights(vals), width=0.6, yerr=err, capsize=4, color="tab:blue",
           label="mean ± std over templates" if task == "framebench" else "accuracy ± 95% CI")
    _bar_labels(ax, x, [v + h for v, h in zip(vals, err[1], strict=True)], texts)
    ax.set_xlim(-0.75, len(rs) - 0.25)
    ax.set_title("FrameBench" if task == "framebench" else "Frame identification")
    if task == "framebench" and human is not None:
        ax.axhline(100 * human, color="tab:green", linestyle="-", label=f"Human ({100 * human:.1f}%)")


def _axis_frame(ax: Axes, task: str, labels: list[str]) -> None:
    """The chance line, the run labels under the bars, the 0-100 axis and the legend outside the bars."""
    ax.axhline(100 * CHANCE[task], color="gray", linestyle="--", label=f"chance ({100 * CHANCE[task]:.0f}%)")
    ax.set_xticks(list(range(len(labels))))
    long = max(len(s) for s in labels) > 10
    ax.set_xticklabels(labels, rotation=20 if long else 0, ha="right" if long else "center", fontsize=8)
    ax.set_ylim(0, 118)  # room for the value labels above 100
    ax.set_yticks(range(0, 101, 20))
    ax.set_ylabel("accuracy (%)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0,
              title="distractor" if task == "sembench" else None, title_fontsize=8)


def _figure_notes(fig: Figure, notes: FigureNotes) -> None:
    """Warnings above the axes (red), the conventions below them, wrapped to the figure's width."""
    import textwrap

    chars = int(18 * fig.get_figwidth())  # about the characters of 7-8 pt text per line
    if notes.warnings:
        fig.suptitle("\n".join(textwrap.fill(f"warning: {w}", chars) for w in notes.warnings), fontsize=8,
                     color="tab:red", ha="left", x=0.01)
    if notes.conventions:
        fig.supxlabel(textwrap.fill(notes.conventions, chars), fontsize=7, ha="left", x=0.01)


def _save_figure(fig: Figure, out_path: Path, formats: tuple[str, ...] | list[str]) -> dict[str, Path]:
    """``fig`` written atomically as ``out_path`` with each format's suffix; returns ``{format: path}``."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    paths = {}
    for fmt in dict.fromkeys(formats):
        path = out_path.with_suffix(f".{fmt}")
        buf = io.BytesIO()
        fig.savefig(buf, dpi=150, bbox_inches="tight", format=fmt)
        write_atomic(path, [buf.getvalue()])
        paths[fmt] = path
    return paths


def write_report(results: list[RunResult], out_dir: Path, human: float | None = None,
                 formats: tuple[str, ...] | list[str] = ("png",), warnings: list[str] | None = None,
                 scoring: Scoring | None = None) -> dict[str, Path]:
    """Write ``report.md``, ``report.csv`` and ``accuracy.<format>`` per figure format into ``out_dir``.

    Returns ``{"markdown", "csv", <format>...: path}``. ``warnings`` (e.g.
    :func:`dataset_warning`) go at the top of the Markdown and under the figure.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tabs = tables(results, human, wide=True, scoring=scoring)
    paths: dict[str, Path] = {"markdown": out_dir / "report.md", "csv": out_dir / "report.csv"}
    write_atomic(paths["markdown"], [render_markdown(tabs, warnings)])
    write_atomic(paths["csv"], [render_csv(tabs)])
    caption = tabs[0].caption if tabs and tabs[0].title.startswith("FrameBench") else ""
    paths.update(plot(results, out_dir / "accuracy", human, formats,
                      FigureNotes(warnings=list(warnings or []), conventions=caption), scoring))
    return paths
