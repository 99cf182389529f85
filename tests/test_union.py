"""union(...) on the fast path concatenates different zones (they never share a card); it
must give what looking for copies gives (the reference path's way), the same zone twice and
cards beside zones included."""

from __future__ import annotations

import random

import interpreter
from interpreter.compile.exprs import _union, _union_each
from interpreter.engine import vm


def test_a_union_of_zones_is_the_union_each_card_once() -> None:
    game = interpreter.load_game("dannokomachi")
    g = game.new_state(interpreter.default_decks(game), 3, log=False)
    rng = random.Random(3)
    for _ in range(30):
        if g.result is not None:
            break
        vm.answer(g, rng.choice(g.decision.options))
    refs = [r for r in g.zones if g.zones[r]]
    some = g.zones[refs[0]][0]
    for values in ([*refs], [refs[0], refs[0]], [refs[0], refs[1], refs[0]], [refs[1], some],
                   [some, some], [refs[0]], []):
        assert _union(g, *values) == _union_each(g, tuple(values)), values
