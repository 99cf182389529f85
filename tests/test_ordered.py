"""Trigger-order policies (`triggers: {order}`, docs/LANGUAGE.md §2.9) on one batch: both
players' abilities triggered by one event, in the toy ruleset tests/rulesets/mini.yaml with
`triggers` added. The Hearthstone-like toy and its scenarios (tests/scenarios/ordered) test
`timestamp` and `left_play`."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from interpreter.run import scenario
from interpreter.run.loading import load_game
from tests.conftest import tcg_in_process

ROOT = Path(__file__).parent.parent
MINI = (ROOT / "tests/rulesets/mini.yaml").read_text(encoding="utf-8")
CARDS = ROOT / "tests/rulesets/ordered_ask_cards.yaml"
PROMPT = "which triggered ability resolves next"
# P1's 木霊 (draws) and 鐘 (gains life) and P2's 鐘 hear 一声's `pong`, cast by the turn player
ZONES = {"field@P1": ["木霊", "鐘"], "field@P2": ["鐘"], "deck@P1": ["札", "札", "札"]}


def _game(tmp_path: Path, triggers: str):
    path = tmp_path / f"mini_{abs(hash(triggers))}.yaml"
    path.write_text(MINI + f"\ntriggers: {triggers}\n", encoding="utf-8")
    return load_game(str(path), (str(CARDS),))


def _cast(tmp_path: Path, triggers: str, turn: str, answers: list[str], zones: dict = ZONES):
    """The turn player casts 一声 and the answers are given: the state then."""
    state = {"turn_player": turn, "phase": "main",
             "zones": {**zones, f"hand@{turn}": ["一声", "札"]}}
    g = scenario._start(_game(tmp_path, triggers), {"state": state})
    scenario._play_script(g, [{"player": turn, "choose": "cast 一声"}, *answers])
    return g


@pytest.mark.parametrize(("triggers", "turn", "answers", "resolved"), [
    # ask: the turn player orders theirs first (asked only among two or more), then the other
    ("{order: ask}", "P1", ["鐘"], [("P1", "life"), ("P1", "draw"), ("P2", "life")]),
    ("{order: ask}", "P1", ["木霊"], [("P1", "draw"), ("P1", "life"), ("P2", "life")]),
    ("{order: ask}", "P2", ["鐘"], [("P2", "life"), ("P1", "life"), ("P1", "draw")]),
    # apnap: the same questions, the turn player's resolving last (put first on a stack)
    ("{order: apnap}", "P1", ["鐘"], [("P2", "life"), ("P1", "life"), ("P1", "draw")]),
    ("{order: apnap}", "P2", ["木霊"], [("P1", "draw"), ("P1", "life"), ("P2", "life")]),
    # seat: turn player first, each player's in the order they triggered, nobody asked
    ("{order: seat}", "P1", [], [("P1", "draw"), ("P1", "life"), ("P2", "life")]),
    ("{order: seat}", "P2", [], [("P2", "life"), ("P1", "draw"), ("P1", "life")]),
    # event: in the order they triggered (seat order: P1's field is heard first), nobody asked
    ("{order: event}", "P2", [], [("P1", "draw"), ("P1", "life"), ("P2", "life")]),
])
def test_each_order_policy_orders_one_batch(tmp_path: Path, triggers: str, turn: str,
                                            answers: list[str], resolved: list) -> None:
    g = _cast(tmp_path, triggers, turn, answers)
    done = [(r["player"], "life") if r["e"] == "resource" else ("P1", "draw") for r in g.log
            if r["e"] == "resource" or r["e"] == "moved" and r["to_zone"] == "hand"]
    assert done == resolved
    assert g.decisions == 1 + len(answers)  # (the cast, then only the order questions)
    assert g.decision is not None and g.decision.prompt != PROMPT


def test_the_turn_player_is_asked_first_with_ask_and_last_with_apnap(tmp_path: Path) -> None:
    """Both players have two kinds of ability waiting: who is asked first."""
    zones = {**ZONES, "field@P2": ["木霊", "鐘"], "deck@P2": ["札", "札"]}
    for triggers, player in (("{order: ask}", 0), ("{order: apnap}", 1)):
        g = _cast(tmp_path, triggers, "P1", [], zones)
        assert g.decision.prompt == PROMPT and g.decision.player == player, triggers


def _check(tmp_path: Path, triggers: str) -> subprocess.CompletedProcess:
    path = tmp_path / "bad.yaml"
    path.write_text(MINI + f"\ntriggers: {triggers}\n", encoding="utf-8")
    return tcg_in_process("check", str(path))


def test_an_unknown_event_in_except_is_reported_at_it(tmp_path: Path) -> None:
    r = _check(tmp_path, "{left_play: skip, except: [pongg]}")
    assert r.returncode == 1, r
    line = len(MINI.splitlines()) + 2
    assert f"bad.yaml:{line}:" in r.stdout and "error[UNKNOWN-EVENT]" in r.stdout
    assert "unknown event 'pongg'" in r.stdout and "did you mean 'pong'?" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_an_unknown_policy_is_a_schema_error(tmp_path: Path) -> None:
    r = _check(tmp_path, "{order: random}")
    assert r.returncode in (1, 2) and "SCHEMA" in r.stdout and "order" in r.stdout, r
    assert "Traceback" not in r.stdout + r.stderr


def test_a_forced_loop_that_moves_cards_is_stopped_under_timestamp(tmp_path: Path) -> None:
    """Waiting abilities remember their cards' places in play order, not their stamps (which
    grow with every move): a loop that brings the board back is recognised (`limits.loop`)."""
    game = _game(tmp_path, "{order: timestamp, left_play: skip}\nlimits: {loop: {returns: 3}}")
    state = {"turn_player": "P1", "phase": "main",
             "zones": {"field@P1": ["札"], "hand@P1": ["蹴", "巡", "札"]}}
    g = scenario._start(game, {"state": state})
    scenario._play_script(g, ["cast 蹴"])
    assert g.result is None and any(r["e"] == "loop_stopped" for r in g.log)


def test_left_play_is_for_triggered_abilities(tmp_path: Path) -> None:
    """An ability's own `left_play` on an ability that never waits to resolve is reported at
    the key; on a triggered one it is accepted (left_play_of_one_ability.yaml plays it)."""
    cards = tmp_path / "cards.yaml"
    cards.write_text("""ruleset: mini
cards:
  - name: 盾
    kind: unit
    abilities:
      - {text: "static: self.power += 1", left_play: skip}
      - {text: "when ping where self in card: pong()", left_play: resolve}
""", encoding="utf-8")
    r = tcg_in_process("check", str(ROOT / "tests" / "rulesets" / "mini.yaml"), str(cards))
    assert r.returncode == 1 and r.stdout.count("error[") == 1, r.stdout
    assert "cards.yaml:6:" in r.stdout and "error[TYPE]: a static ability does not wait to " \
        "resolve: `left_play` is for triggered abilities" in r.stdout, r.stdout
