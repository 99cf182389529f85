"""The run-time helpers compiled expressions call (compile/exprs.py), on values of every shape
they can meet: a player or card as a number or a one-element selection, nothing (None)."""

from __future__ import annotations

import interpreter
from interpreter.compile.exprs import ExprCompiler
from interpreter.compile.names import ruleset_names
from interpreter.engine import vm
from interpreter.engine.state import ZoneRef
from interpreter.lang.parser import parse_expr


def _compile(game, text: str):
    return ExprCompiler(ruleset_names(game.ruleset.raw)).compile(parse_expr(text))


def test_a_players_zone_whatever_the_player_is_given_as(ucb, ucb_decks):
    g = ucb.new_state(ucb_decks, 1, log=False)
    hand, count = _compile(ucb, "hand(p)"), _compile(ucb, "count(hand(p))")
    for p, ref in [(0, ZoneRef("hand", 0)), (1, ZoneRef("hand", 1)), ((1,), ZoneRef("hand", 1)),
                   (None, None)]:
        env = {**vm.effect_env(g, None, 0), "p": p}
        assert hand(g, env) == ref
        assert count(g, env) == (len(g.zones[ref]) if ref else 0)
    # the players every env surely holds: their zones are read without a fallback
    env = vm.effect_env(g, None, 1)
    g.zones[ZoneRef("hand", 0)].append(g.zones[ZoneRef("deck", 0)].pop())  # (unequal hands)
    for text, ref in [("you", ZoneRef("hand", 1)), ("opponent", ZoneRef("hand", 0)),
                      ("turn_player", ZoneRef("hand", g.turn_player))]:
        assert _compile(ucb, f"count(hand({text}))")(g, env) == len(g.zones[ref]), text


def test_a_card_against_a_one_card_selection(ucb, ucb_decks):
    """`==` and `!=` read a one-card selection as its card; nothing is neither equal nor
    unequal to anything."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    eq, ne = _compile(ucb, "c == d"), _compile(ucb, "c != d")
    for c, d, same in [(3, (3,), True), (3, (4,), False), ((3,), 3, True), ((3,), (4,), False),
                       (3, 3, True), (3, 4, False), (3, (3, 4), False)]:
        env = {**vm.effect_env(g, None, 0), "c": c, "d": d}
        assert (eq(g, env), ne(g, env)) == (same, not same), (c, d)
    env = {**vm.effect_env(g, None, 0), "c": 3, "d": None}
    assert (eq(g, env), ne(g, env)) == (False, False)


def test_playable_reads_each_cards_condition_as_its_controller():
    """`playable(x)`: x holds cards, and every one's own condition holds, read with `you` the
    card's controller (受け流し needs a unit of your own on the field)."""
    game = interpreter.load_game("manacard")
    g = game.new_state(interpreter.default_decks(game), 1, log=False)
    playable = _compile(game, "playable(x)")
    field = ZoneRef("field", 0)
    assert not g.zones[field] and not g.zones[ZoneRef("field", 1)]
    unit = game.new_card(g, game.cards["見習い剣士"], 0, field)
    g.zones[field].append(unit)
    mine, theirs = (game.new_card(g, game.cards["受け流し"], p, ZoneRef("hand", p)) for p in (0, 1))
    free = game.new_card(g, game.cards["見習い剣士"], 1, ZoneRef("hand", 1))  # no condition
    g.version += 1
    env = vm.effect_env(g, None, 0)
    for x, holds in [(mine, True), ((mine,), True), (theirs, False), (free, True),
                     ((mine, free), True), ((mine, theirs), False), ((theirs, mine), False),
                     ((), False), (None, False)]:
        assert playable(g, {**env, "x": x}) is holds, x


def test_other_abs_and_bottom_on_every_shape_of_value(ucb, ucb_decks):
    g = ucb.new_state(ucb_decks, 1, log=False)
    other, size = _compile(ucb, "other(p)"), _compile(ucb, "abs(n)")
    for p, them in [(0, 1), (1, 0), ((1,), 0), ((0,), 1), (None, None)]:
        assert other(g, {**vm.effect_env(g, None, 0), "p": p}) == them
    for n, a in [(-3, 3), ((2,), 2), (None, None)]:
        assert size(g, {**vm.effect_env(g, None, 0), "n": n}) == a
    deck = tuple(g.zones[ZoneRef("deck", 0)])
    for text, env, cards in [("bottom(deck(you))", {}, deck[-1:]),
                             ("bottom(deck(you), k)", {"k": 3}, deck[-3:]),
                             ("bottom(deck(you), k)", {"k": (2,)}, deck[-2:]),
                             ("bottom(deck(you), k)", {"k": 0}, ()),
                             ("bottom(deck(you), k)", {"k": None}, ())]:
        assert _compile(ucb, text)(g, {**vm.effect_env(g, None, 0), **env}) == cards, text


def test_a_cards_field_whatever_the_card_is_given_as(ucb, ucb_decks):
    """`c.cost` reads one card's cost, given as a number or a one-card selection; several
    cards or none have no cost; a card whose properties are hidden (reversed) has none."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    cost = _compile(ucb, "c.cost")
    a, b = g.zones[ZoneRef("hand", 0)][:2]
    printed = g.defs[a].props["cost"]
    for c, want in [(a, printed), ((a,), printed), ((a, b), None), (None, None), ((), None)]:
        assert cost(g, {**vm.effect_env(g, None, 0), "c": c}) == want, c
    g.flags[a] |= 1 << ucb.ruleset.states["reversed"].index
    assert cost(g, {**vm.effect_env(g, None, 0), "c": a}) is None
