"""Chance as data (issue 35, item 2): a random step's outcomes, enumerated with their
probabilities on the Python API (`state.chance_outcomes`), and fixed in scenarios (`random:`).
The toy game is tests/rulesets/chance.yaml; its scenarios, tests/scenarios/chance/, fix the
outcomes on both paths."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state, run_scenario

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "tests" / "rulesets" / "chance.yaml"
SCENARIOS = ROOT / "tests" / "scenarios" / "chance"


def _state(zones: dict, reference: bool = False):
    game = load_game(str(RULESET), reference=reference)
    return build_state(game, {"phase": "main", "zones": {"deck@P2": ["兵"], **zones}}, 0)


def _option(g, text: str) -> int:
    return next(i for i, a in enumerate(g.legal_actions()) if text in a.label)


def _damage_distribution(g, text: str) -> dict[int, Fraction]:
    """P2's life lost over every outcome of casting `text`, with its probability."""
    dist: dict[int, Fraction] = defaultdict(Fraction)
    for o in g.chance_outcomes(_option(g, text)):
        dist[100 - o.state.res[1]["life"]] += o.probability
    return dict(dist)


@pytest.mark.parametrize("reference", [False, True])
def test_30_damage_for_each_heads_of_2_coins_is_0_30_60_at_a_quarter_a_half_a_quarter(reference):
    # (deckgym-core's probability test of a two-coin attack)
    g = _state({"hand@P1": ["双子コイン"]}, reference)
    assert _damage_distribution(g, "cast 双子コイン") == {
        0: Fraction(1, 4), 30: Fraction(1, 2), 60: Fraction(1, 4)}


def test_outcomes_name_each_step_in_order_and_leave_the_state_alone():
    g = _state({"hand@P1": ["双子コイン"]})
    before = g.clone(keep_log=True)
    outs = g.chance_outcomes(_option(g, "cast 双子コイン"))
    assert [o.draws for o in outs] == [("heads", "heads"), ("heads", "tails"),
                                       ("tails", "heads"), ("tails", "tails")]
    assert sum(o.probability for o in outs) == 1
    assert g.log == before.log and g.res == before.res and g.decision == before.decision
    assert outs[0].state.legal_actions()  # each outcome's state plays on


def test_a_die_has_six_outcomes_of_one_sixth():
    g = _state({"hand@P1": ["賽"]})
    assert _damage_distribution(g, "cast 賽") == {k: Fraction(1, 6) for k in range(1, 7)}


def test_a_shuffle_has_one_outcome_per_distinct_order():
    g = _state({"hand@P1": ["切り直し"], "deck@P1": ["兵", "賽", "兵"]})
    outs = g.chance_outcomes(_option(g, "cast 切り直し"))
    assert sorted(o.draws for o in outs) == [(("兵", "兵", "賽"),), (("兵", "賽", "兵"),),
                                             (("賽", "兵", "兵"),)]
    assert all(o.probability == Fraction(1, 3) for o in outs)
    drawn = sorted(o.state.defs[o.state.zones[_hand(o.state)][0]].name for o in outs)
    assert drawn == ["兵", "兵", "賽"]


def test_a_random_pick_has_one_outcome_per_name_with_its_share():
    g = _state({"hand@P1": ["盗み"], "hand@P2": ["兵", "賽", "兵"]})
    outs = g.chance_outcomes(_option(g, "cast 盗み"))
    assert {o.draws: o.probability for o in outs} == {("兵",): Fraction(2, 3),
                                                       ("賽",): Fraction(1, 3)}
    discarded = {o.draws[0]: [o.state.defs[c].name for c in o.state.zones[_zone(o.state, "discard", 1)]]
                 for o in outs}
    assert discarded == {"兵": ["兵"], "賽": ["賽"]}


def _zone(g, name: str, owner: int):
    return next(z for z in g.zones if z.name == name and z.owner == owner)


def _hand(g):
    return next(z for z in g.zones if z.name == "hand" and z.owner == 0)


def test_an_answer_without_chance_has_one_certain_outcome():
    g = _state({"hand@P1": ["兵"]})
    [only] = g.chance_outcomes(_option(g, "play 兵"))
    assert only.probability == 1 and only.draws == ()


def test_fixed_outcomes_replace_the_seed_and_keep_logs_identical():
    game = load_game(str(RULESET))
    decks = [{"main": ["兵", "兵", "双子コイン", "賽", "兵"]}, {"main": ["兵"] * 5}]
    logs = []
    for _ in range(2):
        g = game.new_state(decks, seed=3, log=True, random=[("双子コイン",), None, "heads", "tails"])
        g.apply(_option(g, "cast 双子コイン"))
        logs.append(list(g.log))
    assert logs[0] == logs[1]
    assert g.res[1]["life"] == 70 and g.chance.left() == 0


def _scenario(tmp_path: Path, random: str, card: str = "賽") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"ruleset: {RULESET}\nname: fixed\nstate:\n  phase: main\n  zones:\n"
                    f"    hand@P1: [{card}]\n    deck@P2: [兵]\nrandom: {random}\n"
                    f"decisions: [\"cast {card}\"]\n", encoding="utf-8")
    return path


def test_an_outcome_that_does_not_fit_its_step_is_reported_at_it(tmp_path):
    out = run_scenario(_scenario(tmp_path, "[heads]"))
    [d] = out.diagnostics
    assert (d.line, d.code) == (8, "SCENARIO")
    assert "random(6) draws a number from 1 to 6" in d.message and "'heads'" in d.message


def test_outcomes_left_over_are_a_failure(tmp_path):
    out = run_scenario(_scenario(tmp_path, "[heads, tails, heads]", "双子コイン"))
    [d] = out.diagnostics
    assert "1 fixed random outcomes left over" in d.message and d.line == 8


def test_show_pending_prints_the_question_and_its_options():
    run = subprocess.run([sys.executable, "-m", "interpreter.cli", "test", "--show-pending",
                          str(SCENARIOS / "shuffle_fixed.yaml")],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "P1 is asked: main phase: act" in run.stdout
    assert "0: cast 双子コイン#4" in run.stdout and "1: end the main phase" in run.stdout


def test_a_billion_coins_end_the_match_by_the_loop_limit_not_a_hang(tmp_path):
    (tmp_path / "many.yaml").write_text(
        "ruleset: chance\ncards:\n  - name: 千金\n    kind: spell\n"
        "    effect: \"damage(opponent, heads(1000000000))\"\n", encoding="utf-8")
    game = load_game(str(RULESET), (str(tmp_path / "many.yaml"),))
    g = build_state(game, {"phase": "main", "zones": {"hand@P1": ["千金"]}}, 0)
    g.apply(_option(g, "cast 千金"))
    assert g.result is not None and g.result.reason.startswith("loop limit")
