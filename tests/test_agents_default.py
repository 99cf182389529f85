"""The default agent: its evaluation comes from the ruleset's data, it plays the same match on
both paths, and clone() shares the RNG lazily without changing the stream."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.agents import make_agent
from interpreter.agents.default import DefaultAgent
from interpreter.agents.evaluation import LOSE, WIN, Evaluation
from interpreter.agents.protocol import decide
from interpreter.diagnostics import TcgError


def test_names_and_parameters():
    assert isinstance(make_agent("default", 1), DefaultAgent)
    assert make_agent("default:3", 1).worlds == 3
    for bad in ("default:0", "default:x", "default:1:2"):
        with pytest.raises(TcgError, match="default"):
            make_agent(bad, 1)


@pytest.mark.parametrize("ruleset, term", [
    ("kannagi", ("res", ("life",), True, LOSE)),  # end: lose: player.life <= 0
    ("kannagi", ("zone", ("deck",), True, LOSE)),  # a verb: if count(deck(player)) == 0 { lose(...) }
    ("ucb", ("zone", ("deck",), True, LOSE)),
    ("dannokomachi", ("res", ("victory",), True, WIN)),  # win: player.victory > 0
    ("tests/rulesets/hearth.yaml", ("cards", ("hero", "health", "damage"), True, LOSE)),
])
def test_the_margins_come_from_the_win_and_loss_conditions(ruleset: str, term: tuple):
    e = Evaluation(interpreter.load_game(ruleset))
    assert term in [(t.kind, t.key, t.larger, t.outcome) for t in e.terms]


def test_what_pays_for_cards_is_read_from_the_actions_requirements():
    e = Evaluation(interpreter.load_game("kannagi"))  # requires: card.cost <= count(soul(you))
    assert [r.name for r in e.means_refs[0]] == ["soul"]
    assert Evaluation(interpreter.load_game("ucb")).means_refs[0] == ()  # (mana: owner-only, a hand)


def test_losing_life_looks_worse_and_a_finished_game_is_worth_its_result():
    game = interpreter.load_game("kannagi")
    s = game.new_state(interpreter.default_decks(game), 1, log=False)
    e = Evaluation(game)
    result, before, _ = e.parts(s, 0)
    assert result == 0
    s.res[0]["life"] -= 10
    assert e.parts(s, 0)[1] < before and e.parts(s, 1)[1] > -before
    s.concede(0)
    assert e.parts(s, 1)[0] == 1 and e.parts(s, 0)[0] == -1


def test_the_heuristic_counts_whatever_its_units(monkeypatch):
    """UCB's heuristic adds powers and deck cards: in its own units it would drown the derived
    terms (or, made small, be drowned). Read in units of how far apart the options are, the same
    heuristic 1024 times smaller leaves every decision as it was."""
    plain = match("ucb", False, 5)
    game_type = type(interpreter.load_game("ucb"))
    score = game_type.score
    # (1024: dividing by a power of two is exact in floating point)
    monkeypatch.setattr(game_type, "score", lambda self, g, p: score(self, g, p) / 1024)
    assert match("ucb", False, 5) == plain


def match(ruleset: str, reference: bool, seed: int, names=("default", "random")) -> tuple:
    game = interpreter.load_game(ruleset, reference=reference)
    agents = [make_agent(n, seed * 1000 + i) for i, n in enumerate(names)]
    s = game.new_state(interpreter.default_decks(game), seed, log=False)
    answers = []
    while not s.is_over and len(answers) < 400:
        i, _ = decide(agents[s.current_player], s, s.current_player)
        answers.append(i)
        s.apply(i)
    return answers, s.result


@pytest.mark.parametrize("ruleset", ["ucb", "dannokomachi"])
def test_the_same_match_on_both_paths_and_again(ruleset: str):
    fast = match(ruleset, False, 3)
    assert match(ruleset, True, 3) == fast
    assert match(ruleset, False, 3) == fast


def test_default_beats_random_at_ucb():
    """Not a strength figure (bench/bench_agents.py has those): a sign of life, mirror decks."""
    wins = sum(match("ucb", False, seed, names)[1].winner == names.index("default")
               for seed, names in enumerate([("default", "random"), ("random", "default")] * 3))
    assert wins >= 4


# ---------- clone shares the RNG lazily ----------

def test_a_clone_draws_the_stream_the_original_would():
    game = interpreter.load_game("ucb")
    s = game.new_state(interpreter.default_decks(game), 7, log=False)
    s.rng.random()
    expected = random.Random()
    expected.setstate(s.rng.getstate())
    c = s.clone()
    grand = c.clone()
    draws = [expected.random() for _ in range(3)]
    assert [c.rng.random() for _ in range(3)] == draws  # the copy draws first
    assert [s.rng.random() for _ in range(3)] == draws  # the original is not moved by it
    assert [grand.rng.random() for _ in range(3)] == draws
    assert c.rng is not s.rng is not grand.rng


def test_a_replaced_rng_is_the_states_own():
    game = interpreter.load_game("ucb")
    s = game.new_state(interpreter.default_decks(game), 7, log=False)
    c = s.clone()
    mine = random.Random(5)
    c.rng = mine
    assert c.rng is mine and s.rng is not mine


def test_every_agent_is_listed_in_the_help(capsys):
    from interpreter import cli
    from interpreter.agents import AGENTS

    assert cli.AGENT_NAMES == AGENTS
    with pytest.raises(SystemExit):
        cli.main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in AGENTS) and "default default,default" in text


# ---------- tcg train ----------

def test_train_writes_weights_the_agent_reads(tmp_path, capsys):
    from interpreter import cli
    from interpreter.agents.train import load_weights, weights_path

    out = tmp_path / "board.weights.json"
    assert cli.main(["train", "tests/rulesets/board.yaml", "--minutes", "0.02", "--games", "4",
                     "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "trial 1:" in printed and f"wrote {out}" in printed
    ruleset = tmp_path / "board.yaml"  # a ruleset file with that weights file beside it
    ruleset.write_text("id: board\n")
    assert weights_path(ruleset) == out
    assert load_weights(str(ruleset)) is not None
    out.write_text("{not json")
    load_weights.cache_clear()
    with pytest.raises(TcgError, match="weights"):
        load_weights(str(ruleset))


def test_a_free_loop_does_not_keep_a_search_agent_in_one_turn_for_ever():
    """On ultimate, standing a card by and fetching it back is free and comes back to the same
    position: every lap scored as well as passing, ties went to the first option, and greedy
    went round until the 100,000-decision limit. Past the guard's count it passes."""
    game = interpreter.load_game("ultimate")
    decks = interpreter.default_decks(game)
    agents = [make_agent("greedy", 34000), make_agent("random", 34001)]
    s = game.new_state([decks[1], decks[0]], 34, log=False)
    for _ in range(5000):
        if s.is_over:
            break
        i, _ = decide(agents[s.current_player], s, s.current_player)
        s.apply(i)
    assert s.is_over


@pytest.mark.parametrize("ruleset", ["ucb", "kannagi", "ultimate"])
def test_every_option_is_also_judged_at_the_start_of_the_players_next_turn(ruleset: str):
    """to_next_turn plays a world on past the opponent's reply to the player's own next turn,
    whatever the option was (a card played, the turn ended), so options are judged alike."""
    from interpreter.agents.horizon import to_next_turn

    game = interpreter.load_game(ruleset)
    s = game.new_state(interpreter.default_decks(game), 3, log=False)
    while s.decision is not None and len(s.decision.options) < 2:
        s.apply(0)
    player, turn = s.decision.player, s.turn
    for i in (0, len(s.decision.options) - 1):
        w = s.clone()
        w.apply(i)
        to_next_turn(w, player)
        assert w.is_over or (w.decision.player == player and w.turn_player == player
                             and w.turn > turn and w.turn != s.turn)
