"""Comparisons and tests the expression compiler emits inline (no helper call) where one
operand is surely a card number: they agree with the helpers on values of every shape."""

from __future__ import annotations

import interpreter
from interpreter.compile.exprs import ExprCompiler, _eq, _ne
from interpreter.compile.names import ruleset_names
from interpreter.engine import vm
from interpreter.engine.state import ZoneRef
from interpreter.lang.parser import parse_expr


def _compile(game, text: str):
    return ExprCompiler(ruleset_names(game.ruleset.raw)).compile(parse_expr(text))


def test_a_candidate_against_a_value_of_any_shape(ucb, ucb_decks):
    """`it == x`, `x != it` in a filter: a card, a one-card selection (its card), a longer
    selection, nothing (None: neither equal nor unequal), a zone or a number."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    hand = g.zones[ZoneRef("hand", 0)]
    a, b = hand[0], hand[1]
    filters = {"==": _compile(ucb, "hand(you) where it == x"),
               "!=": _compile(ucb, "hand(you) where x != it")}
    for x in [a, (a,), (b,), (a, b), None, (None,), (), ZoneRef("hand", 0), "a"]:
        env = {**vm.effect_env(g, None, 0), "x": x}
        assert filters["=="](g, env) == tuple(c for c in hand if _eq(c, x)), x
        assert filters["!="](g, env) == tuple(c for c in hand if _ne(c, x)), x
    assert filters["=="](g, {**vm.effect_env(g, None, 0), "x": (a,)}) == (a,)
    assert filters["!="](g, {**vm.effect_env(g, None, 0), "x": None}) == ()


def test_playable_asks_only_cards_with_a_condition():
    """`playable(card)`: true for a card without a `condition:` of its own, else what its
    condition says (kannagi's 道具札 with a target only while the opponent holds a card)."""
    game = interpreter.load_game("kannagi")
    g = game.new_state(interpreter.default_decks(game), 1, log=False)
    conditioned = next(d for d in game.cards.values() if d.condition is not None)
    plain = next(d for d in game.cards.values() if d.condition is None)
    ids = game.new_cards(g, [conditioned, plain], 0, ZoneRef("hand", 0))
    g.zones[ZoneRef("hand", 0)].extend(ids)
    playable = _compile(game, "hand(you) where playable(it)")
    env = vm.effect_env(g, None, 0)
    assert set(ids) <= set(playable(g, env))
    opponent = g.zones[ZoneRef("hand", 1)]
    held, opponent[:] = list(opponent), []
    assert ids[0] not in playable(g, env) and ids[1] in playable(g, env)
    opponent[:] = held


def test_arithmetic_on_values_of_any_shape(ucb, ucb_decks):
    """`+`, `-`, `*`: ints inline; a one-element selection reads as its value, a value that
    cannot be seen (None) makes the result None, as the helpers do."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    exprs = {op: _compile(ucb, f"a {op} b") for op in "+-*"}
    for a, b, results in [(7, 3, (10, 4, 21)), ((7,), 3, (10, 4, 21)), (7, (3,), (10, 4, 21)),
                          (None, 3, (None,) * 3), (7, None, (None,) * 3), (-2, 5, (3, -7, -10))]:
        env = {**vm.effect_env(g, None, 0), "a": a, "b": b}
        assert tuple(exprs[op](g, env) for op in "+-*") == results, (a, b)


def test_max_and_min_of_values_of_any_shape(ucb, ucb_decks):
    """`max`/`min` over what can be seen: a one-element selection as its value, nothing
    (None) left out, None when nothing is left."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    most, least = _compile(ucb, "max(a, b, 2)"), _compile(ucb, "min(a, b)")
    for a, b, high, low in [(7, 3, 7, 3), ((1,), 3, 3, 1), (None, 3, 3, 3), ((None,), 0, 2, 0),
                            (None, None, 2, None), ((5,), (9,), 9, 5)]:
        env = {**vm.effect_env(g, None, 0), "a": a, "b": b}
        assert (most(g, env), least(g, env)) == (high, low), (a, b)


WHOLE = """
id: wholes
name: printed whole numbers compared inline
players: 2
properties:
  cost: {type: number, default: 0}
  power: {type: number}
states:
  veiled: {hides_properties: true}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: public}
setup: |
  move(deck(turn_player), hand(turn_player));
  set(hand(turn_player) where name == 「V」, veiled)
turn:
  - phase: main
    actions: [play, boost]
actions:
  play:
    card: "hand(player)"
    requires: "card.cost <= 2"
    do: "set(card, veiled)"
  boost:
    card: "hand(player)"
    requires: "card.power <= 2"
    do: "set(card, veiled)"
deck:
  sections:
    main: {zone: deck}
"""


def test_a_printed_whole_number_compares_without_a_helper():
    """`card.cost <= 2` in a selection: cost, which no text modifies and every card has as a
    whole number (printed or its default), compares as printed with no helper, false on a
    card whose properties a state hides (V); power, which a card may lack (None), takes it."""
    import yaml

    from interpreter.compile.build import build_game
    from interpreter.compile.exprs import _BINARY
    from interpreter.load.yamlpos import load_text

    cards = [{"name": "A", "cost": 1, "power": 1}, {"name": "B", "cost": 3, "power": 3},
             {"name": "V", "cost": 1, "power": 1}, {"name": "N"}]
    card_file = load_text(yaml.safe_dump({"ruleset": "wholes", "cards": cards}), "c.yaml")
    game = build_game(load_text(WHOLE, "wholes.yaml"), [card_file])
    g = game.new_state([{"main": ["A", "B", "V", "N"]}, {}], 0, log=True)
    labels = sorted(a.label.split("#")[0] for a in g.legal_actions() if "#" in a.label)
    assert labels == ["boost A", "play A", "play N"], labels
    helpers = {name: set(map(id, game.ruleset.actions[name].select.__globals__.values()))
               for name in ("play", "boost")}
    assert id(_BINARY["<="]) not in helpers["play"] and id(_BINARY["<="]) in helpers["boost"]
