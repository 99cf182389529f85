"""MCTS's cheaper greedy playout step plays what the plain one plays: the same option, the
same state after it (mcts.greedy_step against applying mcts.best_next)."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.agents.mcts import best_next, greedy_step


def fingerprint(g) -> tuple:
    return (g.decisions, g.turn, g.phase, g.result, {k: list(v) for k, v in g.zones.items()},
            [dict(r) for r in g.res], list(g.flags), g.rng.getstate())


@pytest.mark.parametrize("ruleset", ["ucb", "kannagi"])
def test_a_greedy_playout_step_reaches_the_state_best_next_chooses(ruleset: str):
    game = interpreter.load_game(ruleset)
    decks = interpreter.default_decks(game)
    steps = 0
    for seed in range(6):
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(seed)
        while not g.is_over and g.decisions < 60:
            plain = g.clone()
            plain.apply(best_next(plain))
            assert fingerprint(greedy_step(g.clone())) == fingerprint(plain)
            steps += 1
            g.apply(rng.randrange(len(g.decision.options)))
    assert steps > 100
