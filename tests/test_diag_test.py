"""`tcg test`: a failure names the place of the expectation or decision that failed;
`-k PATTERN` selects scenarios; `--junitxml FILE` writes the results for CI."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.cli import main

UCB = Path(__file__).resolve().parent / "scenarios" / "ucb"
SOURCE = UCB / "battle_unblocked_mills_power.yaml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    shutil.copy(UCB / "cards.yaml", tmp_path / "cards.yaml")
    text = SOURCE.read_text(encoding="utf-8")
    (tmp_path / "passes.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "wrong_order.yaml").write_text(text.replace(
        "discard@P2: [テスト巨人, テスト兵士, テスト大剣士]",
        "discard@P2: [テスト兵士, テスト巨人, テスト大剣士]").replace(
        "{card: \"battle@P1:0\", prop: tapped, value: true}",
        "{card: \"battle@P1:0\", prop: tapped, value: false}"), encoding="utf-8")
    (tmp_path / "extra_decision.yaml").write_text(text.replace(
        "  - done            # P2 declines to block\n",
        "  - done            # P2 declines to block\n  - blorp\n"), encoding="utf-8")
    return tmp_path


def test_a_failed_expectation_is_reported_where_it_is_written(folder: Path, capsys):
    assert main(["test", str(folder / "wrong_order.yaml")]) == 1
    out = capsys.readouterr().out
    path = folder / "wrong_order.yaml"
    assert f"{path}:23:17: error[EXPECT]: discard@P2: expected ['テスト兵士'" in out
    assert f"{path}:27:7: error[EXPECT]: battle@P1:0 (テスト大剣士) tapped: expected False" in out
    assert "0 passed, 1 failed" in out


def test_a_decision_that_matches_no_option_is_reported_at_the_decision(folder: Path, capsys):
    assert main(["test", str(folder / "extra_decision.yaml")]) == 1
    out = capsys.readouterr().out
    assert f"{folder / 'extra_decision.yaml'}:20:5: error[DECISION]: no option matches 'blorp'" in out


def test_k_selects_by_path_or_name(folder: Path, capsys):
    assert main(["test", str(folder), "-k", "passes"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"
    assert main(["test", str(folder), "-k", "mills cards equal"]) == 1  # every scenario's name
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 2 failed"


def test_junitxml_lists_every_scenario_with_its_failures(folder: Path, capsys):
    report = folder / "out" / "junit.xml"
    report.parent.mkdir()
    assert main(["test", str(folder), "--junitxml", str(report)]) == 1
    suite = ET.parse(report).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("3", "2")
    cases = {c.get("name").split(":")[0]: c for c in suite.iter("testcase")}
    assert sorted(cases) == ["extra_decision.yaml", "passes.yaml", "wrong_order.yaml"]
    assert cases["passes.yaml"].find("failure") is None
    failure = cases["wrong_order.yaml"].find("failure")
    assert failure.get("message").endswith(
        "error[EXPECT]: discard@P2: expected ['テスト兵士', 'テスト巨人', 'テスト大剣士'], "
        "got ['テスト巨人', 'テスト兵士', 'テスト大剣士']")
    assert "tapped: expected False, got True" in failure.text
    assert not list(report.parent.glob("*.tmp"))
