"""The board concepts of tests/rulesets/board.yaml (issue 27) as `tcg check` sees them:
positions read as numbers, neighbours as cards, `at` takes a number, `transform` makes a
token of the ruleset. Their behaviour is in tests/scenarios/board/ (both paths:
tests/test_reference.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.lang.parser import parse_ability, parse_body
from interpreter.run.loading import load_game

BOARD = Path(__file__).parent / "rulesets" / "board.yaml"
NAMES = ruleset_names(load_game(str(BOARD)).ruleset.raw)


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
