"""A Gymnasium environment: one seat of any ruleset against a fixed opponent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from interpreter.agents.protocol import decide
from interpreter.rl.aec import SEED_BOUND, observation_space
from interpreter.rl.table import Table

Policy = Callable[[dict[str, np.ndarray]], int]  # an observation (with its mask) -> an id


class TcgEnv(gym.Env):
    """The learner plays `seat`; every other seat is played by `opponent`: an agent name as
    `tcg play --agents` takes them ("default", the default; "random", "greedy", "mcts:200"...),
    an agent object (`choose(observation, labels)`, see interpreter.agents), or a policy on this env's
    observations (a callable from {"observation", "action_mask"} to an action id: self-play).
    `reset(seed=N)` plays the match `tcg play --seed N --agents ...` plays with the opponent
    in its seat (an agent named is made anew at each reset, seeded as `tcg play` seeds it;
    an agent object keeps its own randomness). The opponent's moves before the learner's
    first decision may bring rewards (shaping, or a match over before it): reset's info has
    them as "reward_before_first_step". An id the mask does not allow ends the episode with
    reward -1 and `info["illegal_action"]`."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, table: Table, opponent: Any = "default", seat: int = 0,
                 render_mode: str | None = None) -> None:
        if not 0 <= seat < table.players:
            raise ValueError(f"seat {seat}: the ruleset has seats 0..{table.players - 1}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (or None)")
        self.table, self.opponent, self.seat, self.render_mode = table, opponent, seat, render_mode
        self.observation_space = observation_space(table)
        self.action_space = spaces.Discrete(table.layout.n_actions)
        self._agents: dict[int, Any] = {}
        self._ended = True  # (no episode yet: reset first)
        self._opponent(0)  # (a bad agent name fails here, not at the first reset)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        match_seed = int(self.np_random.integers(SEED_BOUND)) if seed is None else seed
        self.table.start(match_seed)
        self._agents = {p: self._opponent(match_seed * 1000 + p)
                        for p in range(self.table.players) if p != self.seat}
        reward = self._others()
        self._ended = self.table.state.is_over
        return self.table.observe(self.seat), {"reward_before_first_step": reward} if reward else {}

    def _opponent(self, seed: int) -> Any:
        if isinstance(self.opponent, str):
            from interpreter.agents.basic import make_agent

            return make_agent(self.opponent, seed)
        return self.opponent

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._ended:  # (Gymnasium's order: reset after an episode ends, before step)
            raise ResetNeeded("step() after the episode ended (or before the first reset): "
                              "call reset() first")
        rewards = self.table.play(action)
        if rewards is None:  # not a legal id: the learner loses the episode
            self._ended = True
            return self.table.observe(self.seat), -1.0, True, False, {"illegal_action": True}
        reward = rewards[self.seat] + self._others()
        self._ended = self.table.state.is_over
        return self.table.observe(self.seat), reward, self._ended, False, {}

    def _others(self) -> float:
        """Let the other seats play until the learner decides or the game ends; the learner's
        rewards meanwhile."""
        g, table, total = self.table.state, self.table, 0.0
        while (player := g.current_player) is not None and player != self.seat:
            agent = self._agents[player]
            if callable(agent) and not hasattr(agent, "choose"):
                rewards = table.play(agent(table.observe(player)))
                if rewards is None:
                    raise ValueError(f"the opponent's policy chose an illegal id for P{player + 1}")
            else:
                rewards = table.apply(decide(agent, g, player)[0])
            total += rewards[self.seat]
        return total

    def render(self) -> str | None:
        return None if self.render_mode is None else self.table.board(self.seat)
