"""The audit result as text: Markdown, CSV, JSON, and the dataset card's "Known shortcuts" section.

Every accuracy is printed with its interval, its chance level and the convention that produced it
(:data:`fbagent.audit.stats.CONVENTION`).
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fbagent.audit.audit import AuditResult, BaselineRow


BASELINE_FIELDS = ("name", "rule", "available", "accuracy", "low", "high", "chance", "beats_chance", "needs")


def pct(v: float | None) -> str:
    """``0.973`` -> ``"97.3"``; ``None`` -> ``"n/a"``."""
    return "n/a" if v is None else f"{100 * v:.1f}"


def baseline_cells(row: BaselineRow) -> list[str]:
    """One baseline as table cells: name, accuracy %, 95% interval, chance %, verdict."""
    if not row["available"]:
        return [row["name"], "n/a", "", pct(row["chance"]), f"needs {row['needs']}"]
    verdict = "above chance" if row["beats_chance"] else "at chance" if row["low"] <= row["chance"] <= row["high"] \
        else "below chance"
    return [row["name"], pct(row["accuracy"]), f"[{pct(row['low'])}, {pct(row['high'])}]", pct(row["chance"]), verdict]


def count(n: int, word: str, plural: str | None = None) -> str:
    """``count(1, "entry", "entries")`` -> ``"1 entry"``; ``count(3, "verb")`` -> ``"3 verbs"``."""
    return f"{n:,} {word if n == 1 else plural or word + 's'}"


def summary_lines(result: AuditResult) -> list[str]:
    """Plain lines under the table: convention, lemmas, flags, near-duplicates, gold positions."""
    nd = result["near_duplicates"]
    dist = result["distributions"]
    verbs = dist["per_verb"]
    return [
        f"Convention: {result['convention']}.",
        f"Overlap counts {'; '.join(result['lemmas'])}.",
        f"shortcut flag: {len(result['flagged']):,} of {count(result['entries'], 'entry', 'entries')} (every baseline "
        "above chance picks the gold sentence on each of the entry's problems).",
        f"Near-duplicates (same verb, {nd['method']} > {nd['threshold']}): {count(len(nd['pairs']), 'pair')}.",
        f"Entries per verb: {count(len(verbs), 'verb')}, at most {max(verbs.values()) if verbs else 0:,}; per frame "
        f"relation: {', '.join(f'{k} {v:,}' for k, v in dist['per_relation'].items())}; problems per gold "
        f"position: {', '.join(f'{k}: {v:,}' for k, v in dist['gold_position'].items())} (1 = shown first).",
    ]


def markdown(result: AuditResult, title: str = "Shortcut audit") -> str:
    """The whole result as Markdown: baselines table, summary lines, top verbs and frames."""
    lines = [f"## {title}", "", f"{count(result['entries'], 'entry', 'entries')}, "
             f"{count(result['problems'], 'problem')}.", "",
             "| baseline | rule | accuracy % | 95% interval | chance % | verdict |", "|---|---|---|---|---|---|"]
    for row in result["baselines"]:
        name, acc, ci, chance, verdict = baseline_cells(row)
        lines.append(f"| {name} | {row['rule']} | {acc} | {ci} | {chance} | {verdict} |")
    lines += [""] + [f"- {line}" for line in summary_lines(result)] + [""]
    for key, label in (("per_verb", "verb"), ("per_frame", "frame")):
        top = list(result["distributions"][key].items())[:10]
        if top:
            lines += [f"Most frequent {label}s: " + ", ".join(f"{k} ({v})" for k, v in top) + ".", ""]
    return "\n".join(lines)


def csv_text(result: AuditResult) -> str:
    """One CSV row per baseline (:data:`BASELINE_FIELDS`; accuracies in [0, 1]) with the convention column."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=[*BASELINE_FIELDS, "convention"], extrasaction="ignore")
    writer.writeheader()
    for row in result["baselines"]:
        writer.writerow({**{k: row.get(k, "") for k in BASELINE_FIELDS}, "convention": result["convention"]})
    return buf.getvalue()


def json_text(result: AuditResult) -> str:
    """The whole result as indented JSON."""
    return json.dumps(result, ensure_ascii=False, indent=2)


def known_shortcuts_section(result: AuditResult | None) -> str:
    """The dataset card's "Known shortcuts" section (Markdown) from an audit result; ``None`` says the audit
    could not run. Names every baseline with accuracy, interval, chance and convention."""
    head = "## Known shortcuts\n\n"
    if result is None:
        return head + "No shortcut audit was run for this export (run `fbagent audit --dataset FOLDER`).\n"
    rows = ["| baseline | rule | accuracy % | 95% interval | chance % | verdict |", "|---|---|---|---|---|---|"]
    for row in result["baselines"]:
        name, acc, ci, chance, verdict = baseline_cells(row)
        rows.append(f"| {name} | {row['rule']} | {acc} | {ci} | {chance} | {verdict} |")
    above = [r["name"] for r in result["baselines"] if r.get("beats_chance")]
    said = (f"Baselines above chance: {', '.join(above)}. A model can gain from these cues without "
            "understanding the frames." if above else "No baseline beats chance: none of these cues solves the items.")
    return (head + "Shortcut baselines (Gururangan et al. 2018; Poliak et al. 2018) pick one of a problem's two "
            "sentences from a surface cue, over the evaluation problems models see (`fbagent audit`).\n\n"
            + "\n".join(rows) + "\n\n" + said + "\n\n" + "\n".join(f"- {line}" for line in summary_lines(result))
            + "\n")
