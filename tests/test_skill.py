"""Balance figures name their players, and `--check-skill` says whether stronger play agrees.

A toy ruleset (tests/rulesets/hearth.yaml: two different decks, a hand) and tiny budgets keep
these quick: a few matches each.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.agents.budget import describe, stronger
from interpreter.diagnostics import TcgError
from interpreter.run import simulate as sim
from interpreter.run.skill import check, sample_size, skilled, verdict
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parents[1]
HEARTH = str(ROOT / "tests" / "rulesets" / "hearth.yaml")


def test_an_agent_is_named_with_its_budget_in_words():
    assert describe("default") == "default (worlds=2)"  # (the default budget spelled out)
    assert describe("greedy") == "greedy (worlds=1)"
    assert describe("mcts") == "mcts (iterations=100)"
    assert describe("mcts:400:0.5s") == "mcts (iterations=400, seconds=0.5)"
    assert describe("mcts:2s") == "mcts (seconds=2)"
    assert describe("random") == "random"


def test_the_stronger_agent_has_four_times_the_budget():
    assert stronger("default") == "default:8"
    assert stronger("greedy:2") == "greedy:8"
    assert stronger("mcts") == "mcts:400"
    assert stronger("mcts:100:0.5s") == "mcts:400:2s"
    assert stronger("random") == stronger("first") == "default:8"  # (no budget to raise)


def test_the_sample_is_a_number_or_a_share_of_the_games():
    assert sample_size(100, None) == 20 and sample_size(200, None) == 40
    assert sample_size(10, None) == 10  # (at least 20, or all of them)
    assert sample_size(10, "30%") == 3 and sample_size(10, "4") == 4
    for bad in ("0", "11", "ucb", "-1"):
        with pytest.raises(TcgError, match="--check-skill"):
            sample_size(10, bad)


def _run(agents: tuple[str, str], games: int = 6):
    plan = sim.make_plan(HEARTH, [], list(agents), 0, games)
    return plan, sim.simulate(plan, workers=1)


def test_the_conclusions_hold_when_the_stronger_play_agrees():
    """A test double of stronger play that plays exactly as the run did (the same agents, the
    same seeds): every conclusion holds."""
    plan, run = _run(("default:1", "greedy"))
    strong = sim.simulate(skilled(plan, plan.games, lambda name: name), workers=1)
    doc = check(run, strong)
    assert doc["holds"] and doc["failed"] == []
    assert doc["conclusions"][0]["conclusion"] == "deck winner"
    assert len(doc["conclusions"]) > 1  # (the IWD signs of the decks' strongest and weakest cards)
    assert all(row["holds"] in (True, None) for row in doc["conclusions"])
    assert verdict(doc).startswith("skill check: the conclusions hold with stronger play")


def test_the_report_says_the_figures_reflect_weak_play_when_stronger_play_disagrees():
    """A tiny budget pair: `first` against default:1 makes deck A win; the "stronger" double
    hands the agents to the other decks, so deck B wins: the deck winner does not hold."""
    plan, run = _run(("default:1", "first"))
    assert run.summary["decks"]["A"]["win"]["rate"] > run.summary["decks"]["B"]["win"]["rate"]
    swap = {"default:1": "first", "first": "default:1"}
    strong = sim.simulate(skilled(plan, plan.games, swap.__getitem__), workers=1)
    doc = check(run, strong)
    assert not doc["holds"] and "deck winner" in doc["failed"]
    assert doc["conclusions"][0]["holds"] is False
    assert "these figures reflect weak play" in verdict(doc)


@pytest.mark.usefixtures("no_plots")
def test_check_skill_replays_a_sample_with_stronger_agents_and_reports_it(tmp_path):
    out = tmp_path / "run"
    r = tcg_in_process("simulate", HEARTH, "--games", "4", "--workers", "1", "--agents",
                       "default:1,greedy", "--check-skill", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "agents: A druid taunts played by default (worlds=1), B mage tempo played by greedy " \
           "(worlds=1)" in lines
    assert lines[-1].startswith("result: A druid taunts ")  # (the contract line stays last)
    assert any(x.startswith("skill check: seeds 0..1 played again with 4× the budget, A by "
                            "default (worlds=4), B by greedy (worlds=4)") for x in lines)
    assert lines[-2].startswith("skill check: ")
    doc = json.loads((out / "skill.json").read_text(encoding="utf-8"))
    assert (doc["games"], doc["of"], doc["factor"]) == (2, 4, 4)
    assert lines[-2] == verdict(doc)
    strong = json.loads((out / "skill" / "summary.json").read_text(encoding="utf-8"))
    assert [a["agent"] for a in strong["agents"].values()] == ["default:4", "greedy:4"]
    assert [r["seed"] for r in map(json.loads, (out / "skill" / "results.jsonl").read_text(
        encoding="utf-8").splitlines())] == [0, 1]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["agents"]["A"] == {"agent": "default:1", "described": "default (worlds=1)",
                                      "budget": {"worlds": 1}, "weights": None}
    csv = (out / "summary.csv").read_text(encoding="utf-8").splitlines()
    assert "agent:B,greedy (worlds=1),,,," in csv


def test_check_skill_refuses_a_round_robin_and_a_bad_sample(tmp_path):
    r = tcg_in_process("simulate", HEARTH, "--decks", str(tmp_path), "--check-skill")
    assert r.returncode == 2 and "--check-skill checks one pair" in r.stderr
    r = tcg_in_process("simulate", HEARTH, "--games", "4", "--check-skill", "5")
    assert r.returncode == 2 and "between 1 and --games (4)" in r.stderr
