"""default: the agent a designer gets when none is named. Plays any ruleset, no per-game code.

Determinized one-ply search: every option is tried in the same few worlds dealt from what the
player may see (greedy.Dealer: the cards they cannot see dealt again, a fresh RNG, so chance is
sampled in each world, never foretold). Each copy plays on as greedy's do (greedy.settle: until
the player is asked again, the others answering with their first option; under `timing:
priority`, to a quiet point) and is judged by the ruleset's own evaluation
(agents/evaluation.py) in two parts: the terms derived from the ruleset's data and its
`heuristic` when it gives one. Each part's totals over the worlds are read in units of how far
apart the options' totals are, then added (the `heuristic` weight is its share); a win or a
loss in a world counts before either. The best wins (ties: the lowest index). A decision with
one option is not searched. Its weights are the ruleset's trained ones when `tcg train` wrote
some (agents/train.py), else `Weights()`.

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
from interpreter.agents.train import load_weights
from interpreter.diagnostics import TcgError
from interpreter.engine.state import GameState

WORLDS = 2


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
        rows = []
        for i in range(n):
            won = derived = heuristic = 0.0
            for w in worlds:
                w = w.clone()
                w.apply(i)
                settle(w, player)
                r, d, h = parts(w, player)
                won, derived, heuristic = won + r, derived + d, heuristic + h
            rows.append((won, derived, heuristic))
        share = self.evaluation(state).weights.heuristic
        d_scale, h_scale = _spread(r[1] for r in rows), _spread(r[2] for r in rows)
        keys = [(won, d / d_scale + share * h / h_scale) for won, d, h in rows]
        return max(range(n), key=lambda i: (keys[i], -i))  # (ties: the lowest index)


def _spread(values: Iterable[float]) -> float:
    """How far apart the options' totals are (1 when they are all alike): the unit in which a
    part of the evaluation is read, so that each part counts by how much it tells the options
    apart, whatever its units."""
    vs = list(values)
    return (max(vs) - min(vs)) or 1.0
