"""Decisions asked vs windows closed without asking (issue 26): the engine counts each window
and priority that closed or passed because the player had nothing but pass
(GameState.unasked), and `tcg simulate` reports both per game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state
from tests.conftest import tcg_in_process

ROOT = Path(__file__).parent.parent
PRIORITY = str(ROOT / "tests" / "rulesets" / "priority.yaml")


def test_a_priority_passed_without_asking_is_counted_not_asked():
    """P1 passes on an empty stack in its main step; P2, with no card in hand and nothing
    untapped to activate, passes without being asked (rule 117.3d: the step ends), and P1 is
    asked again in the attackers step, with its Bear."""
    g = build_state(load_game(PRIORITY), {"turn_player": "P1", "phase": "main", "zones": {
        "deck@P1": ["Forest"], "deck@P2": ["Forest"], "hand@P1": ["Shock"],
        "battlefield@P1": ["Forest", "Bear"], "battlefield@P2": ["Forest"]}}, 0)
    asked, unasked = g.decisions, g.unasked
    g.apply([a.label for a in g.legal_actions()].index("pass"))
    assert (g.phase, g.decision.player) == ("attackers", 0)
    assert (g.decisions - asked, g.unasked - unasked) == (1, 1)
    assert g.clone().unasked == g.unasked


@pytest.mark.usefixtures("no_plots")
@pytest.mark.parametrize("ruleset", [PRIORITY, "ucb"])
def test_simulate_reports_decisions_asked_and_windows_closed_without_asking(tmp_path, ruleset):
    out = tmp_path / "run"
    run = tcg_in_process("simulate", ruleset, "--games", "4", "--workers", "1", "--agents",
                         "greedy,random", "--out", str(out))
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stdout.splitlines() if x.startswith("decisions asked per game"))
    assert "windows closed without asking" in line
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["unasked"]["n"] == 4 and summary["unasked"]["mean"] > 0
    records = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(r["unasked"] > 0 and r["decisions"] > 0 for r in records)
    assert f"mean {summary['unasked']['mean']:.1f}" in line
    assert any(x.startswith("unasked_mean,") for x in
               (out / "summary.csv").read_text(encoding="utf-8").splitlines())
