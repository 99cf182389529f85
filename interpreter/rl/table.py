"""A match driven by action ids, seen seat by seat: what the environments share."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from interpreter.engine.game import Game
from interpreter.engine.state import Action, GameState
from interpreter.rl.layout import DEFAULT_CHOICES, DEFAULT_SLOTS, DEFAULT_STACK, Layout, mask_of


def load(ruleset: str | Path | Game) -> Game:
    """A bundled id, a ruleset path (a designer's own file) or a loaded Game."""
    if isinstance(ruleset, Game):
        return ruleset
    from interpreter.run.loading import load_game

    return load_game(str(ruleset))


def deck_sections(game: Game, decks: Sequence[str | Path | dict] | None) -> list[dict]:
    """new_state's decks from deck files, or from sections ({section: [card names]}) as
    given; None: the ruleset's first bundled decks, as `tcg play` takes them."""
    from interpreter.run.match import resolve_decks

    if decks and all(isinstance(d, dict) for d in decks):
        return [dict(d) for d in decks if isinstance(d, dict)]  # (all: the test, narrowed)
    paths = [str(d) for d in decks or ()]
    return [d.sections for d in resolve_decks(game, game.source, paths)]


def action_id_of(value: Any, n: int) -> int:
    """`value` as an id of a Discrete(n) space: an int or a numpy integer (a 0-d array of
    one too) from 0 to n - 1, as Discrete.contains takes them; 2.5, "3", b"2" and True are
    not ids (int() would read them as some other action)."""
    if isinstance(value, np.ndarray) and value.shape == () \
            and np.issubdtype(value.dtype, np.integer):
        value = value.item()
    if isinstance(value, np.integer):
        value = int(value)
    if type(value) is not int:
        raise TypeError(f"action {value!r} ({type(value).__name__}) is not an action id: "
                        f"give a whole number from 0 to {n - 1}")
    if not 0 <= value < n:
        raise ValueError(f"action {value} is outside the action space: ids are 0 to {n - 1}")
    return value


class Table:
    """One match at a time, answered with action ids (see layout.py). Rewards: +1 to the
    winner and -1 to the others at the end (0 each for a draw), plus, with `shaping`, the
    change of `shaping` × the ruleset's `heuristic` for each seat at each step (potential-based
    shaping: it sums to nothing over a match, so the best policy stays the best)."""

    def __init__(self, ruleset: str | Path | Game, decks: Sequence | None = None, *,
                 slots: int = DEFAULT_SLOTS, choices: int = DEFAULT_CHOICES,
                 stack: int = DEFAULT_STACK, turns: int | None = None,
                 shaping: float = 0.0) -> None:
        self.game = load(ruleset)
        self.decks = deck_sections(self.game, decks)
        self.layout = Layout(self.game, slots, choices, stack)
        self.turns, self.shaping = turns, shaping
        self._state: GameState | None = None
        self._seen: dict[int, tuple] = {}  # player -> (decisions, observation, ids -> actions)

    @property
    def state(self) -> GameState:
        """The match being played (start() begins one)."""
        if self._state is None:
            raise RuntimeError("no match yet: call start(seed) first")
        return self._state

    @state.setter
    def state(self, g: GameState) -> None:
        self._state = g

    @property
    def players(self) -> int:
        return self.layout.players

    def start(self, seed: int) -> None:
        """A new match, seeded as `tcg play --seed SEED` is."""
        self.state = self.game.new_state(self.decks, seed, turns=self.turns)
        self._seen = {}

    def observe(self, player: int) -> dict[str, np.ndarray]:
        """{"observation": vector, "action_mask": which ids are legal (none unless deciding)},
        new arrays at every call (callers keep them)."""
        return {k: v.copy() for k, v in self._look(player)[1].items()}

    def legal(self) -> dict[int, Action]:
        """The deciding player's legal actions by id (empty when the game is over)."""
        player = self.state.current_player
        return {} if player is None else self._look(player)[2]

    def _look(self, player: int) -> tuple:
        g = self.state
        seen = self._seen.get(player)
        if seen is not None and seen[0] == g.decisions:
            return seen
        vector, positions = self.layout.encode(g.observation(player, options=False), player)
        legal: dict[int, Action] = {}
        if g.current_player == player:
            actions = list(g.legal_actions())
            ids = self.layout.ids(actions, positions)
            legal = {i: a for i, a in zip(ids, actions, strict=True) if i is not None}
        mask = mask_of(list(legal), self.layout.n_actions)
        seen = self._seen[player] = (g.decisions, {"observation": vector, "action_mask": mask},
                                     legal)
        return seen

    def play(self, action_id: Any) -> list[float] | None:
        """Take an action by id: each seat's reward, or None when the id is not legal now
        (nothing happens then). Anything but a whole number of the action space is an
        error (ValueError, TypeError), not an illegal action."""
        action = self.legal().get(action_id_of(action_id, self.layout.n_actions))
        return None if action is None else self.apply(action)

    def apply(self, answer: Action | int) -> list[float]:
        """Answer the pending decision (an Action, or an option's index: opponents' agents
        answer so): each seat's reward."""
        before = self._potentials()
        self.state.apply(answer)
        after = self._potentials()
        return [self.final(p) + self.shaping * (after[p] - before[p]) for p in range(self.players)]

    def final(self, player: int) -> float:
        """`player`'s reward for the match's end (0 while it goes on, or for a draw)."""
        result = self.state.result
        if result is None or result.winner is None:
            return 0.0
        return 1.0 if result.winner == player else -1.0

    def _potentials(self) -> list[float]:
        g = self.state
        if not self.shaping or g.result is not None:
            return [0.0] * self.players
        return [self.game.score(g, p) for p in range(self.players)]

    def board(self, player: int) -> str:
        """What `player` sees, as text, and their options if they are deciding."""
        from interpreter.run.narrate import board

        g = self.state
        lines = [board(g.observation(player))]
        if g.current_player == player:
            lines += [f"  [{i}] {a.label}" for i, a in self.legal().items()]
        if g.result is not None:
            lines.append(f"result: {g.result.reason}")
        return "\n".join(lines)
