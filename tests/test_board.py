"""The board concepts of tests/rulesets/board.yaml (issue 27) as `tcg check` sees them:
positions read as numbers, neighbours as cards, `at` takes a number, `transform` makes a
token of the ruleset. Their behaviour is in tests/scenarios/board/ (both paths:
tests/test_reference.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.engine import kernel, vm
from interpreter.engine.repetition import loop_returned
from interpreter.lang.parser import parse_ability, parse_body
from interpreter.load import files
from interpreter.run.loading import load_game

BOARD = Path(__file__).parent / "rulesets" / "board.yaml"
GAME = load_game(str(BOARD))
NAMES = ruleset_names(GAME.ruleset.raw)


def problems(text: str, ability: bool = False) -> list[str]:
    checker = EffectChecker(NAMES, set())
    found = checker.ability(parse_ability(text)) if ability else checker.body(parse_body(text))
    return [p.code for p in found]


@pytest.mark.parametrize("text", [
    "choose 1 t from board(you); move(t, board(you), at=t.position + 1)",
    "create(羊, board(you), at=2)",
    "choose 1 t from board(you); if t.position < 3 { set(t, asleep) }",
    "choose 1 t from board(you); move(left(t), hand(you)); move(right(t), grave(you))",
    "choose 1 t from board(you); transform(t, 羊); detach(attached(t))",
    "for each c in board(you) where position <= 2 and exists(adjacent(it)) { set(c, asleep) }",
])
def test_board_texts_are_clean(text: str) -> None:
    assert problems(text) == []


@pytest.mark.parametrize("text, code", [
    ("choose 1 t from board(you); if t.position { set(t, asleep) }", "TYPE"),  # a number
    ("create(羊, board(you), at=\"left\")", "TYPE"),               # `at` is a position
    ("move(left(you), hand(you))", "TYPE"),                         # neighbours of a card
    ("transform(board(you), 山羊)", "UNKNOWN-TOKEN"),               # as `create`
    ("detach(you)", "TYPE"),
])
def test_board_texts_with_one_problem(text: str, code: str) -> None:
    assert problems(text) == [code]


def test_adjacency_as_a_static_ability_is_clean() -> None:
    assert problems("static: adjacent(self).attack += 1", ability=True) == []


def test_a_transformed_card_makes_another_state_for_the_loop_rule() -> None:
    """`limits.loop` stops a forced loop when the state comes back: a card transformed in
    place (same zones, states, counters) is not the state it was."""
    deck = files.load_deck(Path(__file__).parent / "cards" / "board" / "decks" / "mixed.yaml")
    g = GAME.new_state([deck.sections, deck.sections], 0)
    assert not loop_returned(g) and not loop_returned(g)  # seen twice: `returns: 2`
    card = g.zones[g.zone_key("hand", 0)][0]
    kernel.transform(g, vm.effect_env(g, None, 0), card, "羊")
    assert not loop_returned(g)


def test_a_match_holds_the_card_a_transform_names() -> None:
    """A match dealt 狼化 (transform into 狼) holds 狼's abilities (Game.for_cards narrows the
    game to the cards a match can hold); one without it does not need them."""
    assert "狼" in GAME.held({"兵", "狼化"})
    assert "狼" not in GAME.held({"兵"})
