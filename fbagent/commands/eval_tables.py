"""`fbagent eval report` on the terminal: the report's tables (:func:`fbagent.eval.report.tables`) fitted
to the terminal's width by :func:`fbagent.commands.tables.print_table`.

Which columns a narrow terminal gives up first (``DROP``, the compact FrameBench table's order of
issue 9: 1st and 2nd, then Base and Ext., then the 95% CI) and which headers it abbreviates
(``SHORT``, named on a legend line) are set here; the Markdown and CSV files are not affected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.commands.tables import Col, print_table

if TYPE_CHECKING:
    from rich.console import Console

MODEL_MIN = 12  # the model column is never narrower (its name wraps after / - _ .)

# header -> drop level (the highest level goes first; columns of one level go together)
DROP = {"1st": 3, "2nd": 3, "Base": 2, "Ext.": 2, "95% CI": 1,
        "Problems/s": 3, "Inst./s": 3, "Problems": 2, "Instances": 2, "Mode": 1, "Shots": 1, "Templates": 1}
SHORT = {"Other frame": "Other", "Neither": "Nei.", "Problems/s": "/s", "Problems": "Probs", "Instances": "Inst.",
         "Inst./s": "/s", "Entries": "n"}


def print_report(console: Console, tabs: list, wide: bool = False) -> None:
    """Print each report table (``Table``: title, headers, rows, caption) on ``console``: the model
    column at the left (at least :data:`MODEL_MIN` wide), the numbers right-aligned; a cell with a
    space (``45.0 [40.0, 50.0]``) may wrap there. ``wide``: every column at its full width."""
    for tab in tabs:
        title, headers, rows = tab.title, tab.headers, tab.rows
        cols = []
        for i, h in enumerate(headers):
            if i == 0:
                cols.append(Col(h, wrap="path", min_width=MODEL_MIN))
                continue
            spaced = any(" " in r[i] for r in rows)
            cols.append(Col(h, "right", wrap="words" if spaced else "none", drop=DROP.get(h, 0),
                            short=SHORT.get(h, "")))
        print_table(console, cols, rows, title=title, caption=getattr(tab, "caption", "") or None, wide=wide)
