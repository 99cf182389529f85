"""Search agents (greedy, mcts): legal, reproducible, blind to hidden cards, and stronger than random."""

from __future__ import annotations

import random
import time

import pytest

import interpreter
from interpreter.agents import GreedyAgent, MCTSAgent, make_agent
from interpreter.agents.greedy import Dealer
from interpreter.agents.mcts import ITERATIONS
from interpreter.diagnostics import TcgError
from interpreter.engine.observe import LazyLabels, LazyObservation, observation, visible
from interpreter.load import files

RULESETS = files.bundled_ids()
SEARCHERS = ("default", "greedy", "greedy:2", "mcts:20")


def midgames(ruleset: str, count: int = 3, steps: int = 30) -> list:
    """States after `steps`, `steps`+7, ... random decisions, at a decision with 2+ options."""
    game = interpreter.load_game(ruleset)
    out = []
    for seed in range(1, 20):
        s = game.new_state(interpreter.default_decks(game), seed, log=False)
        rng = random.Random(seed)
        for _ in range(steps + 7 * len(out)):
            if s.is_over:
                break
            s.apply(rng.randrange(len(s.legal_actions())))
        while not s.is_over and len(s.legal_actions()) < 2:
            s.apply(0)
        if not s.is_over:
            out.append(s)
        if len(out) == count:
            return out
    raise AssertionError(f"no mid-game states in {ruleset}")


def ask(agent, s) -> int:
    return agent.choose_in(s, s.current_player, LazyLabels(s))


def snapshot(s) -> tuple:
    """Everything a search could disturb in the real state."""
    return (s.rng.getstate(), [d.id for d in s.defs], {k: list(v) for k, v in s.zones.items()},
            list(s.flags), list(s.face), [dict(r) for r in s.res], s.decision, s.result, s.turn,
            [(f.pc, repr(f.env)) for f in s.frames], repr(s.pending), repr(s.queue), dict(s.known))


def play(game, decks: list, names: tuple[str, str], seed: int):
    """One match through the search hook (choose_in when the agent has it)."""
    agents = [make_agent(n, seed * 1000 + i) for i, n in enumerate(names)]
    s = game.new_state(decks, seed, log=False)
    while not s.is_over:
        p = s.current_player
        labels = LazyLabels(s)
        a = agents[p]
        i = a.choose_in(s, p, labels) if hasattr(a, "choose_in") else a.choose(LazyObservation(s, p), labels)
        s.apply(i)
    return s.result


# ---------- names ----------

def test_names_and_parameters():
    assert make_agent("greedy", 1).worlds == 1 and make_agent("greedy:3", 1).worlds == 3
    m = make_agent("mcts", 1)
    assert (m.iterations, m.time_limit) == (ITERATIONS, None)
    m = make_agent("mcts:400", 1)
    assert (m.iterations, m.time_limit) == (400, None)
    m = make_agent("mcts:0.5s", 1)
    assert (m.iterations, m.time_limit) == (None, 0.5)
    m = make_agent("mcts:50:2s", 1)
    assert (m.iterations, m.time_limit) == (50, 2.0)
    for bad in ("mcts:0", "mcts:x", "mcts:1:2:3", "mcts:5:6", "mcts:-1s", "greedy:0", "greedy:a",
                "random:3", "minimax"):
        with pytest.raises(TcgError):
            make_agent(bad, 1)


@pytest.mark.parametrize("name", SEARCHERS)
def test_without_the_state_a_search_agent_says_what_it_needs(name: str):
    s = midgames("ucb", 1)[0]
    with pytest.raises(TcgError, match="choose_in"):
        make_agent(name, 1).choose(observation(s, s.current_player), list(LazyLabels(s)))


# ---------- legal and reproducible ----------

@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", SEARCHERS)
def test_choices_are_legal_reproducible_and_leave_the_state_alone(ruleset: str, name: str):
    states = midgames(ruleset)
    first, again = make_agent(name, 7), make_agent(name, 7)
    for s in states:
        before = snapshot(s)
        i = ask(first, s)
        assert isinstance(i, int) and 0 <= i < len(s.legal_actions())
        assert ask(again, s) == i
        assert snapshot(s) == before


def test_a_whole_match_is_reproducible():
    game = interpreter.load_game("ucb")
    decks = interpreter.default_decks(game)
    runs = [play(game, decks, ("mcts:8", "greedy"), 5) for _ in range(2)]
    assert runs[0] == runs[1]


def test_a_clone_owns_its_pending_trigger_order():
    """Search answers in copies: answering an `order` decision (its groups of triggered
    abilities live in a frame's variables, which clone() copies one level deep) in a copy
    must not change the original."""
    game = interpreter.load_game("kannagi")
    for seed in range(1, 40):
        s = game.new_state(interpreter.default_decks(game), seed, log=False)
        rng = random.Random(seed)
        while not s.is_over and s.decision.kind != "order":
            s.apply(rng.randrange(len(s.decision.options)))
        if s.is_over:
            continue
        before = snapshot(s)
        w = s.clone()
        w.apply(0)
        assert snapshot(s) == before
        return
    pytest.skip("no trigger-order decision in these matches")


def test_a_time_limit_bounds_the_search():
    s = midgames("ucb", 1)[0]
    agent = MCTSAgent(1, iterations=None, time_limit=0.05)
    start = time.perf_counter()
    assert 0 <= ask(agent, s) < len(s.legal_actions())
    assert time.perf_counter() - start < 1.0
    assert agent.last_iterations >= 1


def test_random_playouts_are_an_option():
    s = midgames("ucb", 1)[0]
    agent = MCTSAgent(1, iterations=30, playout="random")
    assert 0 <= ask(agent, s) < len(s.legal_actions()) and agent.last_iterations == 30
    with pytest.raises(TcgError, match="playout"):
        MCTSAgent(1, playout="minimax")


# ---------- hidden information ----------

def swapped(s):
    """The same position with every card the deciding player cannot see dealt again."""
    p = s.current_player
    for seed in range(100):
        other = s.determinize(p, random.Random(1000 + seed))
        hidden = [c for c in range(len(s.defs)) if not visible(s, c, p)]
        if any(other.defs[c] is not s.defs[c] for c in hidden if s.owner[c] != p):
            assert observation(other, p) == observation(s, p)
            return other
    raise AssertionError("could not swap the opponent's hidden cards")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_worlds_depend_only_on_what_the_player_sees(ruleset: str):
    for s in midgames(ruleset):
        p = s.current_player
        other = swapped(s)
        a, b = Dealer(s, p).world(random.Random(3)), Dealer(other, p).world(random.Random(3))
        assert [d.id for d in a.defs] == [d.id for d in b.defs]
        assert a.rng.getstate() == b.rng.getstate()
        assert a.rng.getstate() != s.rng.getstate()  # the future shuffles are not the real ones


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("name", SEARCHERS)
def test_swapping_hidden_cards_does_not_change_the_choice(ruleset: str, name: str):
    for s in midgames(ruleset):
        other = swapped(s)
        for seed in range(3):
            assert ask(make_agent(name, seed), s) == ask(make_agent(name, seed), other)


def test_a_cheating_agent_would_be_caught():
    """The swap is a real test: an agent that reads the opponent's hidden hand sees a change."""

    def cheat(s) -> tuple:
        p = s.current_player
        return tuple(s.defs[c].id for c in range(len(s.defs)) if not visible(s, c, p))

    states = midgames("ucb")
    assert any(cheat(s) != cheat(swapped(s)) for s in states)


# ---------- strength ----------

def test_greedy_beats_random_on_ucb():
    game = interpreter.load_game("ucb")
    decks = interpreter.default_decks(game)
    wins = 0
    for seed in range(40):  # mirror matches: seats alternate, the deck changes every other pair
        names = ("greedy", "random") if seed % 2 == 0 else ("random", "greedy")
        deck = decks[(seed // 2) % 2]
        wins += play(game, [deck, deck], names, seed).winner == names.index("greedy")
    assert wins >= 24, f"greedy won {wins} of 40"


@pytest.mark.soak
def test_mcts_beats_greedy_on_ucb():
    game = interpreter.load_game("ucb")
    decks = interpreter.default_decks(game)
    wins = 0
    for seed in range(40):
        names = ("mcts", "greedy") if seed % 2 == 0 else ("greedy", "mcts")
        deck = decks[(seed // 2) % 2]
        wins += play(game, [deck, deck], names, seed).winner == names.index("mcts")
    assert wins > 20, f"mcts won {wins} of 40"


def test_agents_are_exported():
    assert isinstance(make_agent("greedy", 1), GreedyAgent)
    assert isinstance(make_agent("mcts", 1), MCTSAgent)


def test_the_runners_call_the_hook():
    pytest.importorskip("interpreter.agents.protocol")
    from interpreter.run.match import MatchSetup
    from interpreter.run.match import play as play_logged

    g = play_logged(MatchSetup("ucb", [], 2, ["greedy", "mcts:5"]))
    assert g.is_over
