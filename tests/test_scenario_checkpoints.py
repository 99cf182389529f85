"""Scenario checkpoints (expectations at points of the decision script) and exact log counts
(LANGUAGE.md 1.5): a wrong checkpoint fails by name at its place, a count off by one fails,
and a checkpoint's log is the log since the previous checkpoint."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.check.schema_gen import ruleset_schemas
from interpreter.cli import main
from interpreter.load.files import ROOT
from interpreter.load.schema import validate
from interpreter.load.yamlpos import load_text, load_yaml
from interpreter.run.scenario import run_scenario

UCB = ROOT / "tests" / "scenarios" / "ucb"
SOURCE = UCB / "play_same_name_blocked_until_next_turn.yaml"
DRAWS = "{event: moved, to_zone: hand, player: P1, count: 3}"


def _variant(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """A copy of the same-name flow with each (old, new) text replaced once."""
    shutil.copy(UCB / "cards.yaml", tmp_path / "cards.yaml")
    text = SOURCE.read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "variant.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line_col(path: Path, line_text: str, at: str) -> tuple[int, int]:
    """Line and column of `at` in the first line that contains `line_text`."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line_text in line:
            return n, line.index(at) + 1
    raise AssertionError(line_text)


def test_the_flow_passes_as_written():
    outcome = run_scenario(SOURCE)
    assert outcome.passed, outcome.failures


def test_a_wrong_checkpoint_fails_by_name_where_it_is_written(tmp_path: Path, capsys):
    path = _variant(tmp_path, ("exclude: [play テスト剣士]", "exclude: [play テスト大剣士]"))
    assert main(["test", str(path)]) == 1
    line, col = _line_col(path, "exclude: [play テスト大剣士]", "play")
    assert (f"{path}:{line}:{col}: error[EXPECT]: checkpoint 'blocked this turn': options: "
            "expected none containing 'play テスト大剣士'") in capsys.readouterr().out


def test_an_unnamed_checkpoint_is_named_by_its_number(tmp_path: Path):
    path = _variant(tmp_path, ("  - checkpoint: allowed again next turn\n", "  -\n"),
                    ("include: [play テスト剣士]", "exclude: [play テスト剣士]"))
    assert run_scenario(path).failures == [
        "checkpoint 2: options: expected none containing 'play テスト剣士', got "
        "['play テスト小人#2', 'play テスト剣士#10', 'play テスト大剣士#11', 'end the main phase']"]


def test_a_failed_checkpoint_does_not_stop_the_script(tmp_path: Path):
    """Checking changes nothing in the game: the later checkpoints and `expect` still run."""
    path = _variant(tmp_path, ("discard@P1: {count: 1}", "discard@P1: {count: 2}"),
                    ("turn: 7}", "turn: 9}"))
    assert run_scenario(path).failures == [
        "checkpoint 'blocked this turn': discard@P1: expected 2 cards, got 1 ['テスト小人']",
        "checkpoint 'allowed again next turn': log: expected {'event': 'turn_start', "
        "'player': 'P1', 'turn': 9} (in order); the log's 'turn_start' events: "
        "{'player': 'P2', 'turn': 6}; {'player': 'P1', 'turn': 7}"]


@pytest.mark.parametrize("wrong", [2, 4])
def test_a_count_off_by_one_fails(tmp_path: Path, wrong: int):
    path = _variant(tmp_path, (DRAWS, DRAWS.replace("3", str(wrong))))
    [failure] = run_scenario(path).diagnostics
    assert failure.message == (
        f"checkpoint 'allowed again next turn': log: expected exactly {wrong} of "
        "{'event': 'moved', 'to_zone': 'hand', 'player': 'P1'}, got 3")
    assert (failure.line, failure.col) == _line_col(path, "{event: moved", "{event")


def test_count_zero_is_none_at_all(tmp_path: Path):
    path = _variant(tmp_path, ("{event: summon, count: 0}", "{event: moved, count: 0}"))
    assert run_scenario(path).failures == [
        "checkpoint 'allowed again next turn': log: expected exactly 0 of "
        "{'event': 'moved'}, got 4"]  # P2's draw and P1's three


def test_the_final_expect_sees_the_log_since_the_last_checkpoint(tmp_path: Path):
    """Two テスト剣士 are summoned in the flow; the final `count: 1` sees only the second.
    Without the checkpoints the same expectation sees the whole log."""
    path = _variant(tmp_path, ("  - checkpoint: allowed again next turn\n", "  - checkpoint: x\n"
                               "    expect: {}\n  - checkpoint: allowed again next turn\n"))
    assert run_scenario(path).failures == [
        "checkpoint 'allowed again next turn': log: expected {'event': 'turn_start', "
        "'player': 'P1', 'turn': 7} (in order); the log has no 'turn_start' event",
        "checkpoint 'allowed again next turn': log: expected exactly 3 of "
        "{'event': 'moved', 'to_zone': 'hand', 'player': 'P1'}, got 0"]
    data = load_yaml(SOURCE).data
    data["decisions"] = [d for d in data["decisions"] if "expect" not in d]
    data["cards"] = [str(UCB / "cards.yaml")]
    data["expect"].pop("properties")
    flat = tmp_path / "flat.yaml"
    flat.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert run_scenario(flat).failures == [
        "log: expected exactly 1 of {'event': 'summon', 'card': 'テスト剣士'}, got 2"]


def test_checkpoints_after_the_end_see_the_final_state(tmp_path: Path):
    """A game over with only checkpoints left is not 'decisions left'; a decision is."""
    data = load_yaml(UCB / "deck_out_by_attack.yaml").data
    data["cards"] = [str(UCB / "cards.yaml")]
    data["decisions"] += [{"checkpoint": "over", "expect": {"winner": "P2"}}]
    path = tmp_path / "over.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    wrong = "checkpoint 'over': winner: expected P2, got P1 (P2 loses: their deck reached 0 cards)"
    assert run_scenario(path).failures == [wrong]
    data["decisions"] += ["end the main phase"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert run_scenario(path).failures == [
        wrong, "the game ended with 1 decisions left (P2 loses: their deck reached 0 cards)"]


def test_tcg_check_names_in_a_checkpoint(tmp_path: Path, capsys):
    path = _variant(tmp_path, ("        battle@P1: [テスト剣士]\n", "        battel@P1: [テスト剣士]\n"))
    assert main(["check", str(path)]) == 1
    line, col = _line_col(path, "battel@P1", "battel")
    assert f"{path}:{line}:{col}: error[UNKNOWN-ZONE]: unknown zone 'battel'" in capsys.readouterr().out


def test_schema_count_in_not_log_is_zero_only():
    text = "ruleset: ucb\nexpect:\n  not_log:\n    - {event: summon, count: 2}\n"
    [d] = validate(load_text(text, "x.yaml"), "scenario")
    assert (d.line, d.message) == (4, "count must be one of: 0; got 2")


def test_ruleset_schema_checks_zones_in_checkpoints():
    schema = ruleset_schemas(load_yaml(ROOT / "rulesets" / "ucb.yaml").data, [])["scenario"]
    from jsonschema import Draft7Validator

    def errors(zone: str) -> list:
        data = {"ruleset": "ucb", "decisions": [{"checkpoint": "c", "expect": {"zones": {zone: []}}}]}
        return list(Draft7Validator(schema).iter_errors(data))

    assert not errors("battle@P1")
    assert errors("battel@P1")


@pytest.mark.parametrize("text", ["expect:\n  zones: {}\n  ", "decisions:\n  - checkpoint: c\n"
                                  "    expect:\n      zones: {}\n      "])
def test_the_editor_completes_the_keys_of_an_expect(text: str):
    """The final `expect` and a checkpoint's share one schema definition (a `$ref`)."""
    pytest.importorskip("lsprotocol")
    from interpreter.lsp import completion
    from interpreter.lsp.workspace import Workspace

    ws, path = Workspace([ROOT]), str(ROOT / "unsaved.yaml")
    text = "ruleset: ucb\n" + text
    lines = text.splitlines()
    ws.set_buffer(path, text)
    try:
        items = completion.complete(ws, path, text, len(lines) - 1, len(lines[-1]))
    finally:
        ws.drop_buffer(path)
    assert {"winner", "zones", "log", "not_log", "options"} <= {i.label for i in items}


def test_an_unknown_zone_or_player_is_a_failure_where_it_is_written(tmp_path: Path, capsys):
    """Not the end of the run (`tcg test` goes on to the next file)."""
    path = _variant(tmp_path, ("        battle@P1: [テスト剣士]\n", "        battel@P1: [テスト剣士]\n"),
                    ("    battle@P1: [テスト剣士, テスト剣士]\n",
                     "    battle@P1: [テスト剣士, テスト剣士]\n  resources: {P3: {life: 1}}\n"))
    assert main(["test", str(path), str(SOURCE)]) == 1
    out = capsys.readouterr().out
    line, col = _line_col(path, "battel@P1", "[")
    assert (f"{path}:{line}:{col}: error[EXPECT]: checkpoint 'blocked this turn': unknown zone "
            "'battel' in 'battel@P1'") in out
    line, col = _line_col(path, "{P3:", "{life")
    assert f"{path}:{line}:{col}: error[EXPECT]: no player 'P3': the players are P1 to P2" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"
