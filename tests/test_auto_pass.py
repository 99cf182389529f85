"""Auto-pass settings for humans under `timing: priority` (issue 26): a human says at which
priority windows to be asked (agents/basic.py parse_stops, auto_pass); the terminal agent and
the table pass the others for them, and the log records each pass as any answer, so a replay
is identical."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents.basic import ALWAYS, RESPOND, HumanAgent, RandomAgent, parse_stops
from interpreter.diagnostics import TcgError
from interpreter.run import narrate
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup, play, replay
from interpreter.table.session import Table, TableError
from tests.conftest import tcg_in_process

ROOT = Path(__file__).parent.parent
RULESET = str(ROOT / "tests" / "rulesets" / "priority.yaml")
STEPS = ["untap", "upkeep", "draw", "main", "attackers", "blockers", "damage", "end"]


def test_stops_are_words_joined_by_plus():
    assert parse_stops("respond", STEPS) == RESPOND == {"stack", "own-turn"}
    assert parse_stops("respond+blockers", STEPS) == {"stack", "own-turn", "blockers"}
    assert parse_stops("always+stack", STEPS) == ALWAYS
    with pytest.raises(TcgError, match=r"unknown stop 'respnd'.*respond.*blockers"):
        parse_stops("respnd", STEPS)
    with pytest.raises(TcgError, match="unknown stop 'combat'"):
        parse_stops("stack+combat", STEPS)


def test_a_stop_the_ruleset_has_no_step_for_is_refused_in_words():
    run = tcg_in_process("play", RULESET, "--agents", "human:respond+combat,random")
    assert run.returncode in (1, 2) and "Traceback" not in run.stderr
    assert "unknown stop 'combat'" in run.stderr and "blockers" in run.stderr


def _asked_and_passed(stops, tmp_path, monkeypatch):
    """A terminal human against a random player (when asked, they play a land, else pass: they
    hold instants and mana in the opponent's turn); the observations the human was asked at,
    and the log's records of the human's decisions."""
    asked: list[dict] = []
    real_board = narrate.board
    monkeypatch.setattr(narrate, "board", lambda obs: asked.append(dict(obs)) or real_board(obs))
    monkeypatch.setattr("builtins.input", lambda prompt="": str(_land_or_pass(asked[-1]["options"])))
    log = tmp_path / "match.jsonl"
    with log.open("w", encoding="utf-8") as out:
        play(MatchSetup(RULESET, [], 5, ["human", "random"], 12), out,
             agents=[HumanAgent(stops), RandomAgent(5001)])
    mine = [r for r in map(json.loads, log.read_text(encoding="utf-8").splitlines())
            if r.get("d") == "P1"]
    return asked, mine, log


def _land_or_pass(options: list[str]) -> int:
    return next((i for i, o in enumerate(options) if o.startswith("play land")), len(options) - 1)


def _quiet_opponent_window(obs: dict) -> bool:
    """A priority window in the opponent's turn with nothing on the stack."""
    return "stack" in obs and not obs["stack"] and obs["turn_player"] != obs["you"] \
        and obs["options"][-1] == "pass"


def test_the_terminal_human_who_stops_to_respond_is_not_asked_at_quiet_windows(tmp_path, monkeypatch):
    asked, mine, log = _asked_and_passed(RESPOND, tmp_path, monkeypatch)
    assert asked and not [o for o in asked if _quiet_opponent_window(o)]
    assert len(mine) > len(asked)  # the others were passed for them, and logged as passes
    assert sum(r["o"] == "pass" for r in mine) >= len(mine) - len(asked)
    assert replay(log)[0], replay(log)[1]


def test_the_terminal_human_who_stops_always_is_asked_at_quiet_windows(tmp_path, monkeypatch):
    asked, mine, _log = _asked_and_passed(ALWAYS, tmp_path, monkeypatch)
    assert [o for o in asked if _quiet_opponent_window(o)]
    assert len(mine) == len(asked)


def test_the_table_passes_for_a_human_seat_by_its_stops():
    """human:respond at the table: never asked at a quiet window of the opponent's turn;
    switched to always, it is; an unknown stop is refused."""
    table = Table.new(load_game(RULESET), MatchSetup(RULESET, [], 3, ["human:respond", "first"], 10))
    assert table.view(0)["stop"] == "respond"
    quiet_asks = 0
    for _ in range(400):
        g = table.g
        if g.result is not None:
            break
        obs = g.observation(0)
        quiet_asks += _quiet_opponent_window(obs)
        if g.turn == 5 and table.stops[0] != ALWAYS:
            table.set_stops(0, "always")
            assert table.view(0)["stop"] == "always"
            continue
        if g.turn < 5:
            assert quiet_asks == 0, "asked at a quiet window while stopping to respond"
        table.choose(0, _land_or_pass([a.label for a in g.legal_actions()]))
    assert quiet_asks > 0, "never asked at a quiet window once stopping always"
    passes = [r for r in table.records if r.get("d") == "P1" and r.get("o") == "pass"]
    assert passes  # the table's passes are recorded as the human's answers
    with pytest.raises(TableError, match="unknown stop"):
        table.set_stops(0, "sometimes")
