"""interpreter.rl.spiel: an OpenSpiel game for any ruleset (when open_spiel is installed)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import interpreter  # noqa: E402
from interpreter.load import files  # noqa: E402
from interpreter.rl import spiel  # noqa: E402


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_openspiels_random_simulation_test_passes(ruleset: str):
    """Short matches (a turn limit of 6) keep it quick; the soak test plays whole ones."""
    pyspiel.random_sim_test(spiel.load(ruleset, turns=6), num_sims=2, serialize=False,
                            verbose=False)


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_openspiels_random_simulation_test_passes_on_whole_matches(ruleset: str):
    pyspiel.random_sim_test(spiel.load(ruleset), num_sims=5, serialize=False, verbose=False)


def test_the_chance_node_deals_the_match_of_its_seed():
    game = spiel.load("ucb")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(42)
    ucb = interpreter.load_game("ucb")
    same = ucb.new_state(interpreter.default_decks(ucb), 42)
    assert state.current_player() == same.current_player
    assert len(state.legal_actions()) == len(same.legal_actions())
    assert state.is_terminal() is False and state.returns() == [0.0, 0.0]


def test_an_openspiel_observation_shows_only_what_its_player_may_see():
    state = spiel.load("ucb").new_initial_state()
    state.apply_action(3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    seen = np.array(state.observation_tensor(player))
    text = state.observation_string(player)
    state.match.g = state.match.g.determinize(player, random.Random(5))
    assert np.array_equal(np.array(state.observation_tensor(player)), seen)
    assert state.observation_string(player) == text


def test_an_action_that_shuffles_waits_for_a_chance_node_that_seeds_it():
    """UCB's mulligan shuffles the hand back: after it, a chance node; different outcomes
    there deal different hands."""
    game = spiel.load("ucb")
    for seed in range(20):
        state = game.new_initial_state()
        state.apply_action(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not state.is_chance_node() and state.move_number() < 40:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_chance_node():
            break
    else:
        pytest.fail("no action drew randomness in 20 matches' first 40 moves")
    player = state.match.g.current_player  # the one who shuffled
    hands = set()
    for outcome in range(5):
        child = state.child(outcome)
        assert not child.is_chance_node()
        hands.add(tuple(np.array(child.observation_tensor(player))))
    assert len(hands) > 1


def test_default_is_an_opponent_bot_that_beats_uniform_random():
    """spiel.bot(seat) plays `default` in that seat for evaluate_bots; seats swapped."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    game = spiel.load("ucb")
    wins = 0
    for seed in range(4):
        seat = seed % 2
        bots = [spiel.bot(seat), UniformRandomBot(1 - seat, np.random.RandomState(seed))]
        returns = evaluate_bots(game.new_initial_state(), bots[::-1] if seat else bots,
                                np.random.RandomState(seed))
        wins += returns[seat] == 1.0
    assert wins >= 3


def test_an_agent_bot_plays_the_same_for_the_same_history_and_only_legal_ids():
    game = spiel.load("ucb", turns=4)
    for name in ("default", "greedy"):
        played = []
        for _ in range(2):
            state, bots, moves = game.new_initial_state(), [spiel.bot(0, name), spiel.bot(1, name)], []
            state.apply_action(9)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(0)
                    continue
                action = bots[state.current_player()].step(state)
                assert action in state.legal_actions()
                moves.append(action)
                state.apply_action(action)
            played.append(moves)
        assert played[0] == played[1] and played[0]
    with pytest.raises(Exception, match="unknown agent 'nobody'"):
        spiel.bot(0, "nobody")
