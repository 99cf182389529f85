"""Hostile use of the RL environments (issue 39): actions that are not ids of the space,
steps after the end, numbers too large for a float32, an illegal id given to OpenSpiel.
Each is the error its library's own convention gives, never a wrong move played."""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.error import ResetNeeded  # noqa: E402

from interpreter import rl  # noqa: E402
from interpreter.rl.layout import LIMIT  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ACTIONS = yaml.safe_load((ROOT / "tests/hostile/rl/actions.yaml").read_text(encoding="utf-8"))
PRIORITY = str(ROOT / "tests/rulesets/priority.yaml")
ERRORS = {"TypeError": TypeError, "ValueError": ValueError}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _first_legal(obs: dict) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize("case", ACTIONS, ids=[repr(c["value"]) for c in ACTIONS])
def test_aec_step_takes_only_ids_of_the_space(case: dict):
    env = rl.aec_env("ucb")
    env.reset(seed=1)
    agent, decisions = env.agent_selection, env.table.state.decisions
    with pytest.raises(ERRORS[case["error"]], match="action"):
        env.step(case["value"])
    assert env.table.state.decisions == decisions and env.agent_selection == agent  # nothing played
    assert not any(env.terminations.values())


@pytest.mark.parametrize("case", ACTIONS, ids=[repr(c["value"]) for c in ACTIONS])
def test_gym_step_takes_only_ids_of_the_space(case: dict):
    env = rl.gym_env("ucb")
    env.reset(seed=1)
    with pytest.raises(ERRORS[case["error"]], match="action"):
        env.step(case["value"])


def test_numpy_integers_are_ids():
    env = rl.gym_env("ucb")
    obs, _ = env.reset(seed=1)
    for kind in (np.int64, np.int32, np.uint8):
        if _first_legal(obs) < np.iinfo(kind).max:
            obs, _r, done, _t, _i = env.step(kind(_first_legal(obs)))
            assert not done or env.table.state.is_over
    env.step(np.array(_first_legal(obs)))  # (a 0-d array, as Discrete.sample gives)


def _play_to_the_end(env) -> tuple[dict, float, dict]:
    obs, _ = env.reset(seed=3)
    done, reward, info = False, 0.0, {}
    while not done:
        obs, reward, done, _t, info = env.step(_first_legal(obs))
    return obs, reward, info


def test_gym_step_after_the_end_needs_a_reset():
    """Not -1 "illegal", which made a won episode look lost."""
    env = rl.gym_env("ucb")
    _obs, reward, info = _play_to_the_end(env)
    assert "illegal_action" not in info and env.table.state.is_over
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(0)
    _play_to_the_end(env)  # and a reset starts afresh


def test_gym_step_after_an_illegal_id_ended_it_needs_a_reset():
    env = rl.gym_env("ucb")
    obs, _ = env.reset(seed=2)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert env.step(forbidden)[1:3] == (-1.0, True)
    with pytest.raises(ResetNeeded):
        env.step(_first_legal(obs))


def test_gym_step_before_any_reset_needs_a_reset():
    with pytest.raises(ResetNeeded):
        rl.gym_env("ucb").step(0)


def test_aec_after_the_end_follows_pettingzoos_convention(caplog):
    """Dead agents are stepped with None (anything else: PettingZoo's ValueError); once none
    is left, step warns as PettingZoo's own wrapper does and changes nothing (no KeyError)."""
    env = rl.aec_env("ucb")
    env.reset(seed=3)
    while not all(env.terminations.values()):
        env.step(_first_legal(env.observe(env.agent_selection)))
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    while env.agents:
        env.step(None)
    rewards = dict(env.rewards)
    with caplog.at_level(logging.WARNING):
        env.step(None)
        env.step(0)
    assert "step() called after all agents are terminated" in caplog.text
    assert env.rewards == rewards


def test_aec_step_before_any_reset_is_pettingzoos_error():
    with pytest.raises(AssertionError, match="reset"):
        rl.aec_env("ucb").step(0)


def test_a_540_digit_resource_is_clipped_as_rl_md_promises():
    """2**1800 (what doubling a resource 1,800 times gives) and its negative."""
    env = rl.aec_env(PRIORITY)
    env.reset(seed=1)
    for value in (2 ** 1800, -(2 ** 1800)):
        env.table.state.res[0]["life"] = value
        env.table._seen = {}  # (the state was changed behind the table's back)
        vector = env.observe(env.agent_selection)["observation"]
        assert np.isfinite(vector).all() and np.abs(vector).max() == LIMIT
    gym = rl.gym_env(PRIORITY)
    gym.reset(seed=1)
    gym.table.state.res[0]["life"] = 2 ** 1800
    obs, *_ = gym.step(_first_legal(gym.table.observe(0)))
    assert obs["observation"].max() == LIMIT


def test_openspiel_apply_action_of_an_illegal_id_is_a_spiel_error():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.rl import spiel

    state = spiel.load("ucb").new_initial_state()
    state.apply_action(3)
    while state.is_chance_node():
        state.apply_action(0)
    illegal = next(i for i in range(10_000) if i not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)
