"""default: the agent a designer gets when none is named. Plays any ruleset, no per-game code.

Determinized one-ply search: every option is tried in the same few worlds dealt from what the
player may see (greedy.Dealer: the cards they cannot see dealt again, a fresh RNG, so chance is
sampled in each world, never foretold). Each copy is judged twice by the ruleset's own
evaluation (agents/evaluation.py): now, where the player is next asked (greedy.settle: the
others answering with their first option; under `timing: priority`, to a quiet point), and
later, at the start of the player's next turn (agents/horizon.py: the player passing, the
others answering with their first option), which puts every option at one horizon (ending
the turn and playing a card are otherwise judged before and after the opponent's reply); the
later judgement counts LATER times the first. Each judgement has two parts: the terms derived
from the ruleset's data and its `heuristic` when it gives one. Each part's totals over the
worlds are read in units of how far apart the options' totals are, then added (the
`heuristic` weight is its share); a win or a loss in a world counts before either. The best
wins (ties: the lowest index). A decision with one option is not searched. Its weights are the
ruleset's trained ones when `tcg train` wrote some (agents/train.py), else `Weights()`.

Measured (bench/bench_agents.py-style, 48 games against greedy, seats and decks swapped):
now alone: ucb 60%, kannagi 75%, dannokomachi 60%, ultimate 58%; later alone: 62, 54, 75, 90%
(kannagi's own defences answered `done`); both, later ×1: -, 77, 60, 73%; later ×2: 75, 75,
67, 85%. The opponent answering by a one-step search of its own through the settle: ultimate
70%, dannokomachi 71%, kannagi 60% at 4× the cost.

Why the two parts are put in one scale: added in their own units, the heuristic outweighed the
rest (UCB's counts powers and deck cards) and `default` played as greedy did (against greedy,
12 games each: 6 on UCB, 4 on ultimate; with the parts scaled, 9 and 7; with the derived terms
alone, 9 and 10 but 4 on dannokomachi, whose heuristic counts damage the derived terms miss).

Tried and dropped (bench/bench_agents.py, 20 games against greedy on ucb, kannagi and
dannokomachi): stopping every copy at the end of the turn with the opponent's questions on the
way answered by a one-step search of its own was no stronger and twice as dear; playing on
greedily to the end of the turn before judging (3 own decisions) won 11 of 12 against greedy on
dannokomachi but 3 of 12 on UCB (1 of 12 judged by UCB's heuristic alone). With the parts
scaled (12 games against greedy each): the opponent answering its questions on the way by a
one-step search of its own (manacard 5, 8× dearer); stopping at the opponent's first question
of a later turn (ultimate 4 of 12); four worlds instead of two (manacard 3 of 12).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from interpreter.agents.evaluation import Evaluation, Weights
from interpreter.agents.greedy import Dealer, LoopGuard, settle
from interpreter.agents.horizon import to_next_turn
from interpreter.agents.train import load_weights
from interpreter.diagnostics import TcgError
from interpreter.engine.state import GameState

WORLDS = 2
LATER = 2.0  # how much the position at the start of the player's next turn counts (now: 1)


class DefaultAgent:
    def __init__(self, seed: int, worlds: int = WORLDS, weights: Weights | None = None) -> None:
        if worlds < 1:
            raise TcgError(f"default needs at least one world, got {worlds}")
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.weights = weights
        self._evaluation: Evaluation | None = None
        self.guard = LoopGuard()

    def choose(self, observation: dict, options: list[str]) -> int:
        raise TcgError("default searches sampled worlds: the runner must call choose_in(state, "
                       "player, labels)")

    def evaluation(self, state: GameState) -> Evaluation:
        e = self._evaluation
        if e is None or e.game.ruleset is not state.game.ruleset:
            weights = self.weights or load_weights(state.game.ruleset.path)  # (tcg train's)
            e = self._evaluation = Evaluation(state.game, weights)
        return e

    def choose_in(self, state: GameState, player: int, labels: Sequence[str]) -> int:
        n = len(labels)
        if n == 1:
            return 0
        if self.guard.looping(state):
            return n - 1
        parts = self.evaluation(state).parts
        dealer = Dealer(state, player)
        worlds = [dealer.world(self.rng) for _ in range(self.worlds)]
        now: list[list[float]] = []
        later: list[list[float]] = []
        for i in range(n):
            a, b = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
            for w in worlds:
                w = w.clone()
                w.apply(i)
                settle(w, player)
                _add(a, parts(w, player))
                to_next_turn(w, player)
                _add(b, parts(w, player))
            now.append(a)
            later.append(b)
        share = self.evaluation(state).weights.heuristic
        k_now, k_later = _keys(now, share), _keys(later, share)
        keys = [(k_now[i][0] + k_later[i][0], k_now[i][1] + LATER * k_later[i][1]) for i in range(n)]
        return max(range(n), key=lambda i: (keys[i], -i))  # (ties: the lowest index)


def _add(total: list[float], parts: tuple[float, float, float]) -> None:
    for k, x in enumerate(parts):
        total[k] += x


def _keys(rows: list[list[float]], share: float) -> list[tuple[float, float]]:
    """Each option's (worlds won, value): the derived terms and the heuristic, each read in
    units of how far apart the options are, added with the heuristic's share."""
    d_scale, h_scale = _spread(r[1] for r in rows), _spread(r[2] for r in rows)
    return [(won, d / d_scale + share * h / h_scale) for won, d, h in rows]


def _spread(values: Iterable[float]) -> float:
    """How far apart the options' totals are (1 when they are all alike): the unit in which a
    part of the evaluation is read, so that each part counts by how much it tells the options
    apart, whatever its units."""
    vs = list(values)
    return (max(vs) - min(vs)) or 1.0
