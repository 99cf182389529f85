"""default: the agent a designer gets when none is named. Plays any ruleset, no per-game code.

Determinized one-ply search: every option is tried in the same few worlds dealt from what the
player may see (greedy.Dealer: the cards they cannot see dealt again, a fresh RNG, so chance is
sampled in each world, never foretold). Each copy plays on as greedy's do (greedy.settle: until
the player is asked again, the others answering with their first option; under `timing:
priority`, to a quiet point) and is judged by the ruleset's own evaluation
(agents/evaluation.py) rather than by the bare heuristic; the best total over the worlds wins
(ties: the lowest index). A decision with one option is not searched. Its weights are the
ruleset's trained ones when `tcg train` wrote some (agents/train.py), else `Weights()`.

Tried and dropped (bench/bench_agents.py, 20 games against greedy on ucb, kannagi and
dannokomachi): stopping every copy at the end of the turn with the opponent's questions on the
way answered by a one-step search of its own was no stronger and twice as dear; playing on
greedily to the end of the turn before judging (3 own decisions) won 11 of 12 against greedy on
dannokomachi but 3 of 12 on UCB (1 of 12 judged by UCB's heuristic alone).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from interpreter.agents.evaluation import Evaluation, Weights
from interpreter.agents.greedy import Dealer, settle
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
        value = self.evaluation(state).value
        dealer = Dealer(state, player)
        worlds = [dealer.world(self.rng) for _ in range(self.worlds)]
        best, best_index = float("-inf"), 0
        for i in range(n):
            total = 0.0
            for w in worlds:
                w = w.clone()
                w.apply(i)
                settle(w, player)
                total += value(w, player)
            if total > best:
                best, best_index = total, i
        return best_index

