"""interpreter.rl: PettingZoo and Gymnasium environments for any ruleset."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import interpreter  # noqa: E402
from interpreter import rl  # noqa: E402
from interpreter.load import files  # noqa: E402

RULESETS = Path(__file__).parent / "rulesets"


@pytest.fixture(autouse=True)
def _quiet():
    """The checkers warn about what is by design here (a Dict observation, as PettingZoo's
    classic games have); a warning is not a failure."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_the_environments_pass_pettingzoo_and_gymnasium_checks(ruleset: str):
    api_test(rl.aec_env(ruleset), num_cycles=300)
    seed_test(lambda: rl.aec_env(ruleset), num_cycles=300)
    check_env(rl.gym_env(ruleset), skip_render_check=True)
    check_env(rl.gym_env(ruleset, seat=1, render_mode="ansi"))


def random_steps(table, rng: random.Random, steps: int):
    """Each decision of a match played by random legal ids: (table, its legal ids)."""
    for _ in range(steps):
        if table.state.is_over:
            return
        legal = table.legal()
        yield legal
        table.play(rng.choice(sorted(legal)))


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_every_legal_action_has_an_id_that_names_it(ruleset: str):
    env = rl.aec_env(ruleset)
    table, layout = env.table, env.table.layout
    table.start(1)
    for legal in random_steps(table, random.Random(1), 300):
        assert len(legal) == len(table.state.legal_actions())  # none left without an id
        mask = table.observe(table.state.current_player)["action_mask"]
        assert sorted(np.flatnonzero(mask)) == sorted(legal)
        for i, action in legal.items():
            words = layout.describe(i)
            assert words.split()[0] in (action.kind, "option"), (words, action)


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_an_observation_shows_only_what_its_seat_may_see(ruleset: str):
    """Dealing again every card the seat cannot see (its opponent's hand, the decks' order)
    changes nothing in its observation, nor in its mask; it does change the opponent's."""
    env = rl.aec_env(ruleset)
    table = env.table
    table.start(3)
    for _ in random_steps(table, random.Random(3), 40):
        pass
    _seat_sees_the_same_in_a_world_dealt_again(table)


def _seat_sees_the_same_in_a_world_dealt_again(table) -> None:
    """The deciding seat's observation and mask are the same once every card it cannot see
    is dealt again."""
    real = table.state
    player = real.current_player
    seen = table.observe(player)
    table.state = real.determinize(player, random.Random(7))
    table._seen = {}
    world = table.observe(player)
    assert np.array_equal(seen["observation"], world["observation"])
    assert np.array_equal(seen["action_mask"], world["action_mask"])


def test_a_seed_replays_the_match_tcg_play_plays():
    env = rl.aec_env("ucb")
    env.reset(seed=11)
    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 11)
    layout = env.table.layout
    expected, _ = layout.encode(state.observation(0, options=False), 0)
    assert np.array_equal(env.observe("player_0")["observation"], expected)


def test_a_gym_episode_replays_from_its_seed_and_ends_with_the_result():
    def episode(seed: int) -> tuple[list, float]:
        env = rl.gym_env("ucb", opponent="random")
        obs, _ = env.reset(seed=seed)
        rng, seen, total, done = random.Random(seed), [], 0.0, False
        while not done:
            action = rng.choice(list(np.flatnonzero(obs["action_mask"])))
            obs, reward, done, truncated, info = env.step(action)
            seen.append(obs["observation"])
            total += reward
            assert not truncated and not info
        result = env.table.state.result
        assert total == (0.0 if result.winner is None else 1.0 if result.winner == 0 else -1.0)
        return seen, total

    first, second = episode(5), episode(5)
    assert first[1] == second[1] and len(first[0]) == len(second[0])
    assert all(np.array_equal(a, b) for a, b in zip(first[0], second[0], strict=True))


def test_an_id_the_mask_forbids_loses_the_episode():
    env = rl.gym_env("ucb")
    obs, _ = env.reset(seed=2)
    forbidden = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _obs, reward, terminated, _truncated, info = env.step(forbidden)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    aec = rl.aec_env("ucb")
    aec.reset(seed=2)
    agent = aec.agent_selection
    aec.step(forbidden)
    assert aec.rewards[agent] == -1.0 and all(aec.terminations.values())


def test_shaped_rewards_add_the_heuristics_changes():
    """With shaping, each seat's rewards over a match sum to its final reward minus the
    shaping times its heuristic at the start: the same whatever is played."""
    env = rl.aec_env("ucb", shaping=0.1)
    env.reset(seed=4)
    table = env.table
    start = [0.1 * table.game.score(table.state, p) for p in range(2)]
    totals = [0.0, 0.0]
    rng = random.Random(4)
    shaped = False
    while not table.state.is_over:
        rewards = table.play(rng.choice(sorted(table.legal())))
        shaped |= any(r not in (0.0, 1.0, -1.0) for r in rewards)
        totals = [t + r for t, r in zip(totals, rewards, strict=True)]
    assert shaped
    for p in range(2):
        assert totals[p] == pytest.approx(table.final(p) - start[p])


def test_a_designers_own_ruleset_gets_environments():
    game = interpreter.load_game(str(RULESETS / "rest.yaml"), (str(RULESETS / "rest_cards.yaml"),))
    decks = [{"main": ["alarm", "plain"], "pile": ["plain", "scout", "bell"]}] * 2
    env = rl.aec_env(game, decks, turns=4)
    api_test(env, num_cycles=100)
    layout = env.table.layout
    assert {layout.describe(i).split()[0] for i in env.table.legal()} <= {"rest", "leave", "pass"}
    check_env(rl.gym_env(game, decks=decks, turns=4), skip_render_check=True)


def test_the_opponent_may_be_a_policy_on_observations():
    """Self-play: the other seat is played by a function of its own observation."""
    calls = []

    def first_legal(obs: dict) -> int:
        calls.append(obs["action_mask"].sum())
        return int(np.flatnonzero(obs["action_mask"])[0])

    env = rl.gym_env("ucb", opponent=first_legal, seat=1, turns=12)
    obs, _ = env.reset(seed=8)
    done = False
    while not done:
        assert obs["action_mask"].any() and env.table.state.current_player == 1
        obs, _reward, done, _truncated, _info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(calls) > 10 and all(c > 0 for c in calls)
    assert env.table.state.decisions > len(calls)  # (both seats played)


def test_the_layout_names_every_number_and_id():
    layout = rl.aec_env("ucb").table.layout
    names = layout.feature_names()
    assert len(names) == layout.size and len(set(names)) == len(names)
    assert names[layout.phase_at].startswith("phase=")
    words = [layout.describe(i) for i in range(layout.n_actions)]
    assert len(set(words)) == layout.n_actions  # one meaning per id
    with pytest.raises(ValueError, match="outside"):
        layout.describe(layout.n_actions)


def test_the_training_example_runs():
    import subprocess
    import sys

    example = Path(__file__).parent.parent / "examples" / "train_ucb.py"
    out = subprocess.run([sys.executable, str(example), "--games", "6", "--eval-games", "2"],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert "result: win rate" in out


def test_a_missing_extra_or_a_bad_opponent_is_a_clear_error(monkeypatch):
    import importlib.util

    find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pettingzoo" else find(name, *a))
    with pytest.raises(interpreter.TcgError, match=r"pip install 'tcg-interpreter\[rl\]'"):
        rl.aec_env("ucb")
    monkeypatch.undo()
    with pytest.raises(interpreter.TcgError, match="agent"):
        rl.gym_env("ucb", opponent="nobody")


PRIORITY = str(RULESETS / "priority.yaml")


def test_a_ruleset_with_priority_gets_environments_that_see_the_stack():
    """Under `timing: priority` the observation holds the stack, top first (kind, controller
    seat, source card); the environments pass the checks; every number and id has a name."""
    api_test(rl.aec_env(PRIORITY), num_cycles=300)
    check_env(rl.gym_env(PRIORITY), skip_render_check=True)
    env = rl.aec_env(PRIORITY)
    table, layout = env.table, env.table.layout
    names = layout.feature_names()
    assert len(names) == layout.size and len(set(names)) == len(names)
    seen = 0
    for seed in range(6):
        table.start(seed)
        for _legal in random_steps(table, random.Random(seed), 3000):
            g = table.state
            if not g.stack:
                continue
            player = g.current_player
            features = dict(zip(names, table.observe(player)["observation"], strict=True))
            assert features["on_stack"] == len(g.stack)
            top_kind, top_card, top_controller = g.stack[-1][:3]
            assert features[f"on_stack[0].{top_kind}"] == 1
            seat = "you" if top_controller == player else "opponent"
            assert features[f"on_stack[0].controller={seat}"] == 1
            assert features[f"on_stack[0].card={g.defs[top_card].name}"] == 1  # (public)
            seen += 1
    assert seen > 10, seen
    ucb = rl.aec_env("ucb").table.layout
    assert not [n for n in ucb.feature_names() if n.startswith("on_stack")]  # (no priority: none)


def test_an_observation_of_the_stack_shows_only_what_its_seat_may_see():
    """With objects on the stack, dealing again what the seat cannot see changes nothing in
    its observation."""
    env = rl.aec_env(PRIORITY)
    table = env.table
    for seed in range(40):
        table.start(seed)
        rng = random.Random(seed)
        for _ in random_steps(table, rng, 400):
            if table.state.stack:
                break
        if table.state.stack and not table.state.is_over:
            break
    assert table.state.stack
    _seat_sees_the_same_in_a_world_dealt_again(table)
