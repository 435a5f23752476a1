"""`--db` help says "created if missing" only where the command creates a database (issue 22)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fbagent.cli import app

REFUSE = [["export"], ["annotate"], ["validate", "report"], ["runs", "list"], ["pairs", "list"], ["lexicon", "list"],
          ["annotators", "invite"], ["verifier", "list"]]
CREATE = [["generate"], ["lexicon", "add"], ["pairs", "select"]]


def _help(words: list[str]) -> str:
    res = CliRunner().invoke(app, [*words, "--help"], env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())


@pytest.mark.parametrize("words", REFUSE, ids=" ".join)
def test_commands_that_refuse_a_missing_database_do_not_promise_one(words):
    text = _help(words)
    assert "created if missing" not in text and "an existing one (this command creates none)" in text


@pytest.mark.parametrize("words", CREATE, ids=" ".join)
def test_commands_that_create_the_database_say_so(words):
    assert "created if missing" in _help(words)
