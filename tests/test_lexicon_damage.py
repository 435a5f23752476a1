"""Damaged and mistaken input to `lexicon add` (issue 40's rough edges): a Korean FrameNet TSV cut inside its last
sentence, a forced --format that meets another layout, empty CoNLL-2009 files, text that is not UTF-8 (one wording
for every reader), a damaged zip. Small files written by hand (tests/lexicon_layouts.py)."""

from __future__ import annotations

import pytest

from fbagent.errors import FbagentError
from fbagent.lexicon.kfn_reader import read_kfn
from tests.lexicon_layouts import KFN_TSV, write_kfn

# -- a Korean FrameNet TSV cut inside its last sentence block ---------------------------------------------------

SECOND = KFN_TSV.index("#anno-id:2")


@pytest.mark.parametrize(("cut", "line", "says"), [
    # cut inside the #text: line (line 9): a header and no token rows
    (KFN_TSV[:SECOND + len("#anno-id:2\n#text:그녀는 회")], 9, "(a header and no token rows: a truncated copy)"),
    # cut after the #anno-id line, with its newline
    (KFN_TSV[:SECOND + len("#anno-id:2\n")], 8, "(a header and no token rows"),
    # cut after the second token row (line 11), with and without its newline: the tokens stop before the text's end
    (KFN_TSV[:KFN_TSV.index("2\t떠났다.")], 11, "its tokens stop at '그녀는 회사를' of its #text"),
    (KFN_TSV[:KFN_TSV.index("2\t떠났다.") - 1], 11, "its tokens stop at '그녀는 회사를'"),
])
def test_kfn_tsv_cut_inside_its_last_block_is_refused(tmp_path, cut, line, says):
    with pytest.raises(FbagentError) as err:
        read_kfn(write_kfn(tmp_path / "k", tsv=cut))
    message = str(err.value)
    assert f"dev.tsv:{line}: the file ends inside the sentence block of line 8 " in message, message
    assert says in message and "nothing was imported" in message


@pytest.mark.parametrize("ending", ["\n\n", "\n", ""])
def test_kfn_tsv_complete_last_block_without_blank_line_is_read(tmp_path, ending):
    data = read_kfn(write_kfn(tmp_path / "k", tsv=KFN_TSV.rstrip("\n") + ending))
    assert data.n_exemplars == 2 and not data.warnings
