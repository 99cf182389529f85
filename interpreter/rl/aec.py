"""A PettingZoo AEC environment for any ruleset (shaped as PettingZoo's classic games)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from interpreter.rl.layout import LIMIT
from interpreter.rl.table import Table

SEED_BOUND = 2**31 - 1


def observation_space(table: Table) -> spaces.Dict:
    layout = table.layout
    return spaces.Dict({
        "observation": spaces.Box(-LIMIT, LIMIT, (layout.size,), np.float32),
        "action_mask": spaces.Box(0, 1, (layout.n_actions,), np.int8),
    })


class TcgAECEnv(AECEnv):
    """Agents `player_0`... in seat order; the agent to act is whoever the engine asks (a
    response window or a choice may go to the other player). `reset(seed=N)` plays the
    match `tcg play --seed N` plays (the same decisions give the same match). An id the mask
    does not allow ends the match: the offender gets -1, the others 0, and
    `infos[agent]["illegal_action"]` is True."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "tcg_v0", "is_parallelizable": False}

    def __init__(self, table: Table, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: only 'ansi' (or None)")
        self.table, self.render_mode = table, render_mode
        self.metadata = {**self.metadata, "name": f"tcg_{table.game.ruleset.id}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(table.players)]
        self.observation_spaces = {a: observation_space(table) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(table.layout.n_actions)
                              for a in self.possible_agents}
        self._seeds: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._seeds is None:
            self._seeds = np.random.default_rng(seed)
        self.table.start(int(self._seeds.integers(SEED_BOUND)) if seed is None else seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        if not hasattr(self, "agent_selection"):
            EnvLogger.error_step_before_reset()
        if not self.agents:  # every agent is done and was stepped with None: nothing to do
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = None if action is None else self.table.play(action)
        if rewards is None:  # not a legal id: the offender loses the match
            rewards = [-1.0 if a == agent else 0.0 for a in self.agents]
            self.infos[agent]["illegal_action"] = True
            self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = dict(zip(self.agents, rewards, strict=True))
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        """The agent to act: the deciding player's; everyone is done once the game is over."""
        player = self.table.state.current_player
        if player is None or all(self.terminations.values()):
            self.terminations = dict.fromkeys(self.agents, True)
            player = self.table.state.turn_player if player is None else player
        self.agent_selection = self.agents[player]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.board(self.possible_agents.index(self.agent_selection))

    def close(self) -> None:
        pass
