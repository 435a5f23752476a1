"""`pairs show` at 80 columns breaks other languages' verb lists between words, never inside one: Korean (spaces
between words, East Asian width: 2 cells a syllable), long Latvian verbs, and Chinese/Japanese text, which may
break between any two characters. Real Korean FrameNet verbs from ../shared/data when present, else a fixture."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from io import StringIO
from pathlib import Path

from rich.cells import cell_len

from fbagent.commands.output import new_console
from fbagent.commands.pairs import pair_table
from fbagent.commands.tables import print_table, wrap_text

KFN_LUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "framenet-ko-kfn-1.2" / "resource" / "1.2" / "KFN_lus.json"
#: written for this test: Korean verbs of removing (the fixture when the real data is absent)
KO_FIXTURE = ["말살되다", "말살시키다", "말살하다", "말소당하다", "박멸하다", "발본색원하다", "빠지다", "없애다",
              "인멸하다", "일소되다", "일소하다", "제거되다", "제거시키다", "제거하다", "치우다", "탈취되다", "헹구다"]
LV = ["atbrīvoties", "pārliecināties", "noslaucīt", "iepazīstināties", "nodrošināt", "izvairīties", "pieteikties"]


def korean_verbs() -> list[str]:
    """The Korean verbs (one Hangul word each) of the KFN 1.2 frame pair that most verbs evoke both frames of."""
    if not KFN_LUS.is_file():
        return KO_FIXTURE
    frames: dict[str, set[str]] = defaultdict(set)
    for entry in json.loads(KFN_LUS.read_text("utf-8")).values():
        if entry["pos"] == "v" and re.fullmatch(r"[가-힣]+", entry["lexeme"]):
            frames[entry["lexeme"]].add(entry["frame"])
    pairs: dict[tuple[str, str], list[str]] = defaultdict(list)
    for verb, evoked in frames.items():
        for a in evoked:
            for b in evoked:
                if a < b:
                    pairs[(a, b)].append(verb)
    return sorted(max(pairs.values(), key=len))


def render(width: int, verbs: dict[str, list[str]]) -> str:
    shown = [{"rank": 0, "status": "selected", "verb": "evacuate", "frame_a": "Emptying", "frame_b": "Removing",
              "per_pair": 1, "verbs": {"fn15": ["evacuate"], **verbs}}]
    cols, cells = pair_table(shown, "selected", {name: name for name in verbs})
    buf = StringIO()
    print_table(new_console(file=buf, width=width, color_system=None), cols, cells, title="Selection 1")
    return buf.getvalue()


def test_korean_and_latvian_verbs_stay_whole_at_80_columns():
    ko = korean_verbs()
    assert len(ko) >= 8 and sum(cell_len(v) + 2 for v in ko) > 80  # a list that must wrap
    out = render(80, {"ko": ko, "lv": LV})
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    # every Hangul run and every Latvian word printed is a whole verb, and every verb is printed
    assert set(re.findall(r"[가-힣]+", out)) == set(ko), out
    assert all(re.search(rf"(?<!\w){verb}(?!\w)", out) for verb in LV), out


def test_status_column_is_given_up_first_when_one_status_is_shown():
    """With one status the title names it, so its column goes first on a narrow terminal (80 columns: the table of
    FrameNet 1.5 pairs with Korean verbs stayed a table instead of one block per pair)."""
    shown = [{"rank": 0, "status": "selected", "verb": "perceive", "frame_a": "Becoming_aware",
              "frame_b": "Perception_experience", "per_pair": 1, "verbs": {"ko": ["발견되다", "보다", "탐지하다"]}}]
    assert [c.drop for c in pair_table(shown, "selected", {"ko": "ko"})[0]][:2] == [0, 1]
    assert [c.drop for c in pair_table([{**shown[0], "reason": ""}], "all", {"ko": "ko"})[0]][:2] == [0, 0]
    buf = StringIO()
    shown.append({**shown[0], "rank": 1, "verb": "evacuate", "frame_a": "Emptying", "frame_b": "Removing",
                  "verbs": {"ko": KO_FIXTURE}})
    cols, cells = pair_table(shown, "selected", {"ko": "ko"})
    print_table(new_console(file=buf, width=80, color_system=None), cols, cells)
    lines = buf.getvalue().splitlines()
    assert lines[0].split() == ["rank", "verb", "frame", "A", "frame", "B", "K", "verbs", "in", "ko", "(ko)"], lines
    assert lines[2].split() == ["0", "perceive", "Becoming_aware", "Perception_experience", "1", "발견되다,", "보다,"]
    assert lines[3].split() == ["탐지하다"]
    assert lines[-1] == "Not shown at this width: status (--wide shows every column)."


def test_chinese_and_japanese_break_between_characters_korean_between_words():
    assert wrap_text("両方の文", 4, "words") == ["両方", "の文"]
    assert wrap_text("离开放弃", 4, "words") == ["离开", "放弃"]
    assert wrap_text("발견되다, 보다, 탐지하다", 10, "words") == ["발견되다,", "보다,", "탐지하다"]
    assert wrap_text("탐지하다", 8, "words") == ["탐지하다"]
