"""Hidden information: what search agents may sample, and that it never changes what they see."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.engine.observe import observation, visible
from interpreter.load import files


def midgame(ruleset: str, seed: int = 3, steps: int = 40):
    game = interpreter.load_game(ruleset)
    s = game.new_state(interpreter.default_decks(game), seed, log=False)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(rng.randrange(len(s.legal_actions())))
    return s


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_a_determinized_world_looks_the_same_to_its_player(ruleset: str):
    s = midgame(ruleset)
    p = s.current_player
    world = s.determinize(p, random.Random(1))
    assert observation(world, p) == observation(s, p)
    assert [world.home[c] for c in range(len(s.defs))] == s.home
    hidden = [c for c in range(len(s.defs)) if not visible(s, c, p)]
    assert hidden and any(world.defs[c] is not s.defs[c] for c in hidden)
    for c in range(len(s.defs)):
        if visible(s, c, p):
            assert world.defs[c] is s.defs[c]
    # the real state is untouched, and the world plays on
    assert observation(s, p) == observation(midgame(ruleset), p)
    while not world.is_over:
        world.apply(0)


def test_cards_are_dealt_again_only_within_their_pool():
    s = midgame("ucb")
    p = s.current_player
    for seed in range(5):
        world = s.determinize(p, random.Random(seed))
        for c in range(len(s.defs)):
            if s.home[c] == "extra":
                assert world.defs[c].props.get("base"), "a main-deck card went to the extra deck"


def test_heuristic_is_data_and_a_finished_game_scores_its_result():
    game = interpreter.load_game("ucb")
    s = game.new_state(interpreter.default_decks(game), 1, log=False)
    assert game.score(s, 0) == game.score(s, 1) == 0  # a symmetric start
    while not s.is_over:
        s.apply(0)
    w = s.result.winner
    assert game.score(s, w) > 0 > game.score(s, 1 - w)


def test_a_world_depends_only_on_what_the_player_sees():
    """Two states that differ only in cards P cannot see give P the same worlds."""
    s = midgame("ucb")
    p = s.current_player
    other = s.determinize(p, random.Random(99))  # same observation, other hidden cards
    a = s.determinize(p, random.Random(5))
    b = other.determinize(p, random.Random(5))
    assert [d.name for d in a.defs] == [d.name for d in b.defs]
    assert a.rng.getstate() == b.rng.getstate()
    assert a.rng.getstate() != s.rng.getstate()  # the real shuffles stay unknown


def test_which_hidden_card_was_picked_is_known_but_not_what_it_is():
    """だんのこまち 1.1.5a: a card chosen from a hidden zone may stay face down, but which
    card was chosen is made clear — the other player sees a hidden card marked `picked`."""
    from interpreter.load.yamlpos import load_yaml
    from interpreter.run.scenario import _play_script, build_state

    spec = load_yaml(files.ROOT / "tests/scenarios/dannokomachi/simultaneous_choices.yaml").data
    s = build_state(interpreter.load_game("dannokomachi"), spec["state"], 0)
    _play_script(s, spec["decisions"][:2])  # P2 plays 選り好み and picks 串焼き from its hand
    assert s.current_player == 0  # now P1 chooses, knowing P2's pick
    hand = observation(s, 0)["zones"]["hand@P2"]
    assert {"hidden": True, "states": ["picked"]} in hand
    assert all(set(card) <= {"hidden", "states"} for card in hand)  # never what it is


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_cards_are_merged_into_one_option_only_when_their_player_sees_them(ruleset: str):
    """Interchangeable cards become one option (vm.card_classes, which inlines the visibility
    rule for speed): a card its player cannot see is never merged, so offering it leaks nothing."""
    from interpreter.engine.vm import card_classes

    for steps in (10, 40, 80):
        s = midgame(ruleset, steps=steps)
        cards = list(range(len(s.defs)))
        s.face[::3] = [False] * len(s.face[::3])  # face-down cards, public zones included
        for p in s.players:
            for c, key in zip(cards, card_classes(s, cards, p), strict=True):
                if not visible(s, c, p):
                    assert key == c, f"card {c} hidden from P{p + 1} was given a class"
                elif key != c:
                    assert key[0] == s.defs[c].id and key[1] == s.zone_of[c]


def test_the_default_heuristic_counts_the_cards_where_abilities_work_by_default():
    """Without a `heuristic`, a player's score is 2 x their cards where abilities work by
    default (ability_zones: kannagi's field and season) less all cards there: a card in a
    zone only some abilities work in (the soul) or in the hand does not count."""
    from interpreter.engine import primitives
    from interpreter.engine.state import ZoneRef

    game = interpreter.load_game("kannagi")
    s = game.new_state(interpreter.default_decks(game), 1, log=False)
    assert "soul" in s.game.scan_zone_set and "soul" not in game.ruleset.ability_zones
    assert game.score(s, 0) == game.score(s, 1) == 0
    deck0, deck1 = (s.zones[ZoneRef("deck", p)] for p in (0, 1))
    env = {"you": 0, "opponent": 1, "self": None}
    primitives.move(s, env, tuple(deck0[:2]), ZoneRef("field", 0))
    primitives.move(s, env, deck1[0], ZoneRef("field", 0))  # P2's card, on P1's side
    primitives.move(s, env, tuple(deck0[:3]), ZoneRef("soul", 0))
    primitives.move(s, env, tuple(deck1[:2]), ZoneRef("hand", 1))
    assert (game.score(s, 0), game.score(s, 1)) == (2 * 2 - 3, 2 * 1 - 3)
    soul = s.zones[ZoneRef("soul", 0)]
    primitives.move(s, env, soul[0], ZoneRef("season", 0))
    primitives.move(s, env, tuple(soul), ZoneRef("field", 1))  # P1's cards, on P2's side
    assert (game.score(s, 0), game.score(s, 1)) == (2 * 5 - 6, 2 * 1 - 6)


def test_a_copy_dealt_again_finds_its_new_cards_abilities():
    """A copy shares the live cards' ability index with its state until its cards are dealt
    again (forget_derived, as determinize does): then a live card given another identity works
    with the abilities of that one, and the state it was copied from keeps its own."""
    from interpreter.engine import vm

    checked = 0
    for ruleset in files.bundled_ids():
        s = midgame(ruleset)
        before = {k: list(v) for k, v in vm.live_statics(s).items()}
        keyed = s.game.keyed_abilities
        for cid in s.live_cards():
            zone = s.zone_of[cid].name
            other = next((d for d in s.game.pool if d.id != s.defs[cid].id and any(
                zone in zones for *_, zones in keyed.get(d.id, ()))), None)
            if other is None:
                continue
            copy = s.clone()
            copy.defs[cid] = other
            copy.forget_derived()
            index = vm.live_statics(copy)
            assert all((cid, idx, ability) in index.get(key, ())
                       for idx, ability, key, zones in keyed[other.id] if zone in zones)
            assert vm.live_statics(s) == before
            checked += 1
            break
    assert checked


@pytest.mark.parametrize("ruleset", ["ucb", "kannagi"])
def test_a_replay_told_to_one_seat_keeps_the_other_seats_decisions_to_what_they_did(ruleset: str):
    """A log holds every question and answer in full (a card chosen from a hidden hand, the card
    a question was asked from): told as one seat saw it, with no live match (the table's replay
    viewer), the other seat's decisions say only who decided; their public effects follow."""
    import io
    import json

    from interpreter.run.match import MatchSetup, play
    from interpreter.run.narrate import Narrator

    buf = io.StringIO()
    play(MatchSetup(ruleset, [], 3, ["random", "random"], 6), buf)
    records = [json.loads(line) for line in buf.getvalue().splitlines()]
    narrator = Narrator(interpreter.load_game(ruleset), 0, lang="en")
    theirs = [narrator.line(r) for r in records if r.get("d") == "P2" and not r.get("concede")]
    assert theirs and set(theirs) == {"  P2 decides"}, sorted(set(theirs))[:5]
