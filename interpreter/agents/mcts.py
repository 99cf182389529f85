"""mcts: information-set Monte Carlo tree search, in its simple determinized form.

Every iteration deals one world consistent with what the agent sees (greedy.Dealer), walks
one shared tree with UCT, the decisions of both players keyed by (deciding player, option
index), adds one node, plays the world on to the end of the turn and backs the value up. A
child can be missing from a world (the opponent holds other cards there), so UCT counts, for
each child, the visits to its parent in which it was available (ISMCTS "availability"). The
answer is the root child visited most, over all worlds (ties: the lowest index).

Values are for the agent's player, in [0, 1]: a win 1, a draw 1/2, a loss 0. A playout that
reaches its cap is worth sigmoid((score - score at the root) / scale), `score` being the
ruleset's heuristic: measured from the root, so the search still tells options apart when
one player is far ahead.

The playout policy is `greedy` by default: each player takes the option whose immediate
result scores best for them. On UCB (mirror matches against the greedy agent) random
playouts were no stronger than greedy itself; greedy playouts to the end of the turn were.
Playouts stop at the end of the turn (`playout_turns`) or after `playout_steps` decisions.

Under `timing: priority` a position is judged at a quiet point, as greedy judges it: a
playout's greedy option is scored once what it cast has resolved (greedy.settle_priority), and a
playout cut short by `playout_steps` lets everyone pass until the stack is empty
(greedy.quiet) before it is scored.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from interpreter.agents.greedy import Dealer, quiet, settle_priority
from interpreter.diagnostics import TcgError
from interpreter.engine.state import GameState

ITERATIONS = 100
PLAYOUTS = ("greedy", "random")


class Node:
    __slots__ = ("player", "children", "visits", "total", "avail")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the option leading here (values are for them)
        self.children: dict[tuple[int, int], Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0


class MCTSAgent:
    """`iterations` sampled worlds per decision, or as many as `time_limit` seconds allow (both
    given: whichever ends first). Two players: a value for one is 1 - value for the other."""

    def __init__(self, seed: int, iterations: int | None = ITERATIONS, time_limit: float | None = None,
                 exploration: float = 0.7, playout: str = "greedy", playout_turns: int = 1,
                 playout_steps: int = 60, scale: float = 8.0) -> None:
        if iterations is None and time_limit is None:
            raise TcgError("mcts needs a number of iterations or a time limit")
        if iterations is not None and iterations < 1:
            raise TcgError(f"mcts needs at least one iteration, got {iterations}")
        if time_limit is not None and time_limit <= 0:
            raise TcgError(f"mcts needs a positive time limit, got {time_limit}")
        if playout not in PLAYOUTS:
            raise TcgError(f"unknown playout policy {playout!r}; choose from {', '.join(PLAYOUTS)}")
        self.rng = random.Random(seed)
        self.iterations, self.time_limit = iterations, time_limit
        self.c = exploration
        self.playout, self.playout_turns, self.playout_steps = playout, playout_turns, playout_steps
        self.scale = scale
        self.last_iterations = 0  # how many the last decision ran

    def choose(self, observation: dict, options: list[str]) -> int:
        raise TcgError("mcts searches sampled worlds: the runner must call choose_in(state, "
                       "player, labels)")

    def choose_in(self, state: GameState, player: int, labels: Sequence[str]) -> int:
        n = len(labels)
        if n == 1:
            return 0
        dealer = Dealer(state, player)
        root = Node(-1)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while (self.iterations is None or done < self.iterations) and \
                (deadline is None or done == 0 or time.perf_counter() < deadline):
            self._iterate(root, dealer.world(self.rng), player)
            done += 1
        self.last_iterations = done
        best, best_index = -1, 0
        for i in range(n):
            child = root.children.get((player, i))
            if child is not None and child.visits > best:
                best, best_index = child.visits, i
        return best_index

    def _iterate(self, root: Node, world: GameState, player: int) -> None:
        rng, c = self.rng, self.c
        base = world.game.score(world, player)
        node, path = root, [root]
        while world.decision is not None:
            p = world.decision.player
            n = len(world.decision.options)
            children = node.children
            untried = []
            for i in range(n):
                child = children.get((p, i))
                if child is None:
                    untried.append(i)
                else:
                    child.avail += 1
            if untried:  # expand one option never tried here
                i = untried[rng.randrange(len(untried))]
                node = children[(p, i)] = Node(p)
                node.avail = 1
                world.apply(i)
                path.append(node)
                break
            best, i = -1.0, 0
            for j in range(n):
                ch = children[(p, j)]
                u = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best:
                    best, i = u, j
            node = children[(p, i)]
            world.apply(i)
            path.append(node)
        value = self._play_out(world, player, base)
        for node in path[1:]:
            node.visits += 1
            node.total += value if node.player == player else 1.0 - value

    def _play_out(self, world: GameState, player: int, base: float) -> float:
        rng, greedy = self.rng, self.playout == "greedy"
        turn, steps = world.turn, 0
        while (d := world.decision) is not None and steps < self.playout_steps \
                and world.turn - turn < self.playout_turns:
            if greedy:
                world = greedy_step(world)
            else:
                world.apply(rng.randrange(len(d.options)))
            steps += 1
        if world.stack:  # (only under priority: cut short with objects waiting)
            quiet(world)
        r = world.result
        if r is not None:
            return 0.5 if r.winner is None else float(r.winner == player)
        x = (world.game.score(world, player) - base) / self.scale
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def greedy_step(world: GameState) -> GameState:
    """The state after best_next's option, found for less. Where the state after an option is
    the one it was scored on (not under priority, which scores once the stack has resolved),
    the copy it was tried on goes on, and the last option is tried on `world` itself: one copy
    and one run to the next decision fewer per step than trying every option and applying the
    best again (a copy plays as the original does). An option after which nothing the
    heuristic reads has changed (Game.score_reads; about 2 in 5 on UCB) scores what `world`
    scores, computed once. A single option is applied without a score."""
    d = world.decision
    assert d is not None  # (a playout steps only while the match goes on)
    n = len(d.options)
    if n > 1 and world.game.ruleset.timing.passes_priority:
        world.apply(best_next(world))
        return world
    if n == 1:
        world.apply(0)
        return world
    game, player = world.game, d.player
    at, reads, before = world.version, game.score_reads, None
    best, best_state = float("-inf"), world
    for i in range(n):
        w = world.clone() if i < n - 1 else world  # (the last on the world itself)
        w.apply(i)
        if w.result is None and w.unchanged(at, reads) and (before is not None or w is not world):
            if before is None:
                before = game.score(world, player)
            v = before
        else:
            v = game.score(w, player)
        if v > best:  # (ties: the first)
            best, best_state = v, w
    return best_state


def best_next(world: GameState) -> int:
    """The option whose immediate result the deciding player scores best (ties: the first);
    under priority, once what it cast has resolved (greedy.settle_priority)."""
    d = world.decision
    assert d is not None  # (asked only while the match goes on)
    score = world.game.score
    priority = world.game.ruleset.timing.passes_priority
    best, best_index = float("-inf"), 0
    for i in range(len(d.options)):
        w = world.clone()
        w.apply(i)
        if priority:
            settle_priority(w, d.player, None)
        v = score(w, d.player)
        if v > best:
            best, best_index = v, i
    return best_index
