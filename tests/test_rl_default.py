"""gym_env's opponent is the `default` agent unless another is named."""

from __future__ import annotations

import pytest

pytest.importorskip("gymnasium")

from interpreter import rl  # noqa: E402
from interpreter.agents.default import DefaultAgent  # noqa: E402
from interpreter.agents.greedy import GreedyAgent  # noqa: E402


def test_gym_envs_opponent_is_default_unless_named():
    env = rl.gym_env("ucb", turns=2)
    env.reset(seed=3)
    assert [type(a) for a in env._agents.values()] == [DefaultAgent]
    env = rl.gym_env("ucb", opponent="greedy", seat=1, turns=2)
    env.reset(seed=3)
    assert [type(a) for a in env._agents.values()] == [GreedyAgent]
