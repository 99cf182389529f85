"""greedy: one-ply lookahead on the ruleset's heuristic, in worlds sampled from what it may see.

Search agents answer through the `choose_in(state, player, labels)` hook. They get the real
state, but read it only through `state.determinize(player, rng)`, `state.legal_actions()`
(the pending decision is their own) and `state.observation(player)`; every simulation runs
on a determinized copy (a `Dealer` world), never on the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from interpreter.diagnostics import TcgError
from interpreter.engine.actions import DECLINE
from interpreter.engine.observe import visible
from interpreter.engine.state import GameState

SETTLE_STEPS = 200  # at most this many opponent decisions before a greedy option is scored
LOOP = 200  # a player asked more often than this in one turn is going round a loop


class LoopGuard:
    """A one-ply search can go round a loop for ever: where a free action comes back to the
    same position (a card swapped out and fetched back), every lap scores as well as stopping
    and ties go to the lowest index, so the turn never ends. Past LOOP questions in one turn the
    agent answers with the last option (a window lists its pass, or `done`, last)."""

    def __init__(self) -> None:
        self.turn, self.asked = -1, 0

    def looping(self, state: GameState) -> bool:
        if state.turn != self.turn:
            self.turn, self.asked = state.turn, 0
        self.asked += 1
        return self.asked > LOOP


class Dealer:
    """Worlds consistent with what `player` sees of `state`, dealt from the agent's rng.

    Like `state.determinize(player, rng)`, which it calls once, but cheaper per world: the
    pools of unseen cards (in a canonical order, sorted by card id) are worked out once and
    each world is a clone with those cards dealt again. A world depends on the observation
    and the rng alone, and gets a fresh RNG of its own (the state's would foretell shuffles).
    """

    def __init__(self, state: GameState, player: int) -> None:
        base = state.determinize(player, random.Random(0))
        pools: dict[tuple[int, str], list[int]] = {}
        for cid in range(len(base.defs)):
            if not visible(base, cid, player):
                pools.setdefault((base.owner[cid], base.home[cid]), []).append(cid)
        self.base = base
        self.pools = [(cids, sorted((base.defs[c] for c in cids), key=lambda d: (d.id, d.name)))
                      for cids in pools.values()]

    def world(self, rng: random.Random) -> GameState:
        w = self.base.clone()
        defs = w.defs
        for cids, identities in self.pools:
            dealt = list(identities)
            rng.shuffle(dealt)
            for cid, d in zip(cids, dealt, strict=True):
                defs[cid] = d
        w.rng = random.Random(rng.getrandbits(64))
        w.forget_derived()  # derived values (statics, memo) were computed for other cards
        return w


def settle(world: GameState, player: int, steps: int = SETTLE_STEPS) -> None:
    """Play on until `player` is asked again, the others answering with their first option;
    at most `steps` decisions. Under `timing: priority`, see settle_priority."""
    if world.game.ruleset.timing.passes_priority:
        settle_priority(world, player, world.turn, steps)
        return
    for _ in range(steps):
        d = world.decision
        if d is None or d.player == player:
            return
        world.apply(0)


def settle_priority(world: GameState, player: int, turn: int | None,
                    steps: int = SETTLE_STEPS) -> None:
    """Under `timing: priority`, play on to a quiet point. Every player passes priority where
    a pass exists (a lookahead must not invent the opponent's spells, nor more of `player`'s),
    so what waits on the stack resolves; the others answer any other question with their first
    option. It ends at a question of `player`'s own other than priority, and
    - with a `turn`: at the first decision of a later turn (every option is judged at the same
      horizon: a pass lets the turn run on to its end, so every other option does too);
    - with `turn` None: as soon as `player` is asked with an empty stack.
    At most `steps` decisions."""
    for _ in range(steps):
        d = world.decision
        if d is None or turn is not None and world.turn != turn:
            return
        passing = d.options[-1] == DECLINE  # (a priority window offers its pass last)
        if d.player == player and (not passing or turn is None and not world.stack):
            return
        world.apply(len(d.options) - 1 if passing else 0)


def quiet(world: GameState, steps: int = SETTLE_STEPS) -> None:
    """Under `timing: priority`, let every player pass until the stack is empty (at most
    `steps` decisions; any other question answered with its first option), so that a
    position is scored once what waits on the stack has resolved."""
    for _ in range(steps):
        d = world.decision
        if d is None or not world.stack:
            return
        world.apply(len(d.options) - 1 if d.options[-1] == DECLINE else 0)


class GreedyAgent:
    """Tries every option in `worlds` sampled worlds (the same worlds for every option), plays
    on as `settle` does (the opponent answering with its first option until this player is
    asked again; under priority, to a quiet point) and picks the option with the best total
    `game.score` (ties: the lowest index)."""

    def __init__(self, seed: int, worlds: int = 1) -> None:
        if worlds < 1:
            raise TcgError(f"greedy needs at least one world, got {worlds}")
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.guard = LoopGuard()

    def choose(self, observation: dict, options: list[str]) -> int:
        raise TcgError("greedy searches sampled worlds: the runner must call choose_in(state, "
                       "player, labels)")

    def choose_in(self, state: GameState, player: int, labels: Sequence[str]) -> int:
        n = len(labels)
        if n == 1:
            return 0
        if self.guard.looping(state):
            return n - 1
        dealer = Dealer(state, player)
        worlds = [dealer.world(self.rng) for _ in range(self.worlds)]
        score = state.game.score
        best, best_index = float("-inf"), 0
        for i in range(n):
            total = 0.0
            for w in worlds:
                w = w.clone()
                w.apply(i)
                settle(w, player)
                total += score(w, player)
            if total > best:
                best, best_index = total, i
        return best_index
