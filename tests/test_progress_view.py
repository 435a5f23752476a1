"""The progress bars read at 80 columns: a long description (model name, resume note) gives way to
the counts and times, which are never cut."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.progress import Progress

from fbagent.commands.progress_view import CountBar


@pytest.mark.parametrize("done", [0, 4])
def test_a_resumed_eval_bar_keeps_its_counts_and_times_at_80_columns(done, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    buf = io.StringIO()
    console = Console(file=buf, width=80, force_terminal=True, color_system=None)
    bar = CountBar()
    with Progress(*bar.columns(), console=console, auto_refresh=False) as progress:
        progress.add_task(bar.description(20, done, "local:gemma-3-270m-q4_k_m.gguf"), total=20, completed=done)
        progress.refresh()
    line = buf.getvalue().replace("\r", "\n").splitlines()[-2].replace("\x1b[2K", "")
    assert len(line) <= 80 and line.startswith("local:gemma-3-270m-q4_k_m.gguf")
    # counts, elapsed and remaining whole (the resume label has a column of its own, empty here: issue 35)
    assert f"{done}/20 0:00:00 -:--:--" in " ".join(line.split())
