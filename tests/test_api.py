"""The Python API's structured actions: kind, cards and label per legal action, labels made
only when read, checked apply, and new_state's logging default."""

from __future__ import annotations

import random
import re

import pytest

import interpreter
from interpreter.engine import observe
from interpreter.engine.state import visible
from interpreter.load import files

ANSWER_KINDS = {"pass", "done", "yes", "no", "choose", "trigger"}


def play(ruleset: str, seed: int, steps: int = 400):
    """A state after up to `steps` random decisions, with every decision's actions on the way."""
    game = interpreter.load_game(ruleset)
    state = game.new_state(interpreter.default_decks(game), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        actions = state.legal_actions()
        yield state, actions
        state.apply(rng.choice(actions))


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_every_action_says_its_kind_and_cards_as_its_label_does(ruleset: str):
    game = interpreter.load_game(ruleset)
    kinds = ANSWER_KINDS | set(game.ruleset.actions)
    seen: set[str] = set()
    for state, actions in play(ruleset, 1):
        player = state.current_player
        for a in actions:
            assert a.kind in kinds, a
            seen.add(a.kind)
            named = {int(i) for i in re.findall(r"#(\d+)", a.label)}
            assert {c for c in a.cards if c is not None} == named, a
            for c in a.cards:  # a card it names is one the player sees, or None
                assert c is None or visible(state, c, player)
            if a.kind in game.ruleset.actions:
                assert a.label.startswith(game.ruleset.actions[a.kind].label.split("{card}")[0])
    assert seen & set(game.ruleset.actions), "no action of the ruleset was ever offered"


def test_legal_actions_and_apply_never_make_a_label(monkeypatch):
    def no_label(*_args):
        raise AssertionError("a label was made though nobody read one")

    monkeypatch.setattr(observe, "label", no_label)
    for _state, actions in play("ucb", 2):
        assert all(a.kind for a in actions)


def test_an_action_answers_only_its_own_decision():
    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 3)
    first = state.legal_actions()[0]
    copy = state.clone()
    assert first in copy.legal_actions()
    copy.apply(first)  # a copy at the same decision takes it
    state.apply(first)
    assert first not in state.legal_actions()
    with pytest.raises(interpreter.IllegalAction, match="it answers"):
        state.apply(first)
    with pytest.raises(interpreter.IllegalAction, match="options"):
        state.apply(len(state.legal_actions()))


def test_the_legal_actions_view_reads_as_a_list():
    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 4)
    actions = state.legal_actions()
    listed = list(actions)
    assert len(listed) == len(actions) > 1
    assert actions[-1] == listed[-1] and actions[-1].index == len(actions) - 1
    assert actions[1:] == listed[1:] and actions == listed
    assert [a.index for a in actions] == list(range(len(actions)))


def test_new_state_keeps_no_log_unless_asked():
    game = interpreter.load_game("ucb")
    decks = interpreter.default_decks(game)
    quiet, logged = game.new_state(decks, 5), game.new_state(decks, 5, log=True)
    assert quiet.log is None
    assert logged.log and logged.log[0]["e"]
    rng = random.Random(5)
    while not logged.is_over:
        i = rng.randrange(len(logged.legal_actions()))
        logged.apply(i)
        quiet.apply(i)
    assert quiet.result == logged.result


BLIND_PICK = """
id: blind
name: a pick among cards the picking player cannot see
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  pile: {visibility: public}
setup: |
  move(deck(opponent), hand(opponent));
  choose 1 c from hand(opponent);
  move(c, pile(opponent))
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_an_action_never_names_a_card_its_player_cannot_see():
    """Card ids follow the decks' lists: a hidden card's id would tell which card it is."""
    from interpreter.compile.build import build_game
    from interpreter.load.yamlpos import load_text

    cards = load_text("ruleset: blind\ncards:\n  - {name: X}\n  - {name: Y}\n", "c.yaml")
    game = build_game(load_text(BLIND_PICK, "blind.yaml"), [cards])
    state = game.new_state([{}, {"main": ["X", "Y"]}], 0)
    actions = state.legal_actions()
    assert state.current_player == 0 and len(actions) == 2
    assert [(a.kind, a.cards) for a in actions] == [("choose", (None,))] * 2
    assert all("hidden" in a.label for a in actions)
    state.apply(actions[1])
    picked = state.zones[state.zone_key("pile", 1)]
    assert len(picked) == 1 and state.legal_actions()[:] == []


def test_apply_takes_an_index_numpy_or_not_and_refuses_a_truth_value():
    np = pytest.importorskip("numpy")
    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 6)
    copy = state.clone()
    state.apply(np.int64(1))
    copy.apply(1)
    assert state.observation(0) == copy.observation(0)
    for wrong in (True, -1, "0", 1.0):
        with pytest.raises(interpreter.IllegalAction):
            state.apply(wrong)
    state.concede(0)
    with pytest.raises(interpreter.IllegalAction, match="the game is over"):
        state.apply(0)


def test_a_player_is_an_index_or_its_name():
    """The API takes a player as the docs and logs write it ("P2") or as an index; anything
    else is a TcgError saying what a player is, not a TypeError from deep inside."""
    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 1)
    assert state.observation("P2") == state.observation(1)
    assert state.resource("P1", "life") == state.resource(0, "life")
    for bad in ("P3", "2", 2, -1, None):
        with pytest.raises(interpreter.TcgError, match=r"no player .*'P1' to 'P2'"):
            state.observation(bad)
