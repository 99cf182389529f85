"""State rules that deal with their matches one at a time or together (`matches`): the win/loss
rules are asked after each card, or once after all the cards found at one check."""

from __future__ import annotations

import pytest

from interpreter.compile.build import build_game
from interpreter.engine import vm
from interpreter.engine.state import ZoneRef
from interpreter.load.yamlpos import load_text
from interpreter.run.scenario import build_state

FADE = """
id: fade
name: cards that fade away by a state rule
players: 2
simultaneous_loss: draw
counters: [wounds]
zones:
  deck: {ordered: true, visibility: hidden}
  field: {visibility: public}
  gone: {visibility: public}
turn:
  - phase: storm
    do: "for each c in union(field(you), field(opponent)) { change(c, wounds, 1) }"
  - phase: calm
    actions: [wait]
actions:
  wait: {}
rules:
  - id: FADE
    each: "field(player) where wounds > 0"
    do: "move(card, gone(card.owner))"
    matches: MATCHES
  - id: PAIR
    each: "field(player) as k where count(field(player) where name == k.name) > 1"
    do: "move(card, gone(card.owner))"
    matches: MATCHES
end:
  - lose: "count(field(player)) == 0"
    reason: "their field is empty"
"""
CARDS = "ruleset: fade\ncards:\n  - {name: pawn}\n  - {name: rook}\n"


def _run(matches: str, phase: str, zones: dict, reference: bool = False):
    game = build_game(load_text(FADE.replace("MATCHES", matches), "fade.yaml"),
                      [load_text(CARDS, "cards.yaml")], reference)
    g = build_state(game, {"turn_player": "P2", "phase": phase, "zones": zones}, 0)
    vm.run(g)
    return g


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize(("matches", "winner"), [("one_at_a_time", 1), ("together", None)])
def test_both_fields_emptied_by_one_check(matches, winner, reference):
    g = _run(matches, "storm", {"field@P1": ["pawn"], "field@P2": ["pawn"]}, reference)
    assert g.result is not None and g.result.winner == winner
    # together, both cards left before the one check; one at a time, P1 lost at the first
    assert len(g.zones[ZoneRef("gone", 1)]) == (1 if winner is None else 0)


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize(("matches", "left"), [("one_at_a_time", 1), ("together", 0)])
def test_cards_found_together_are_fixed_when_found(matches, left, reference):
    g = _run(matches, "calm", {"field@P1": ["pawn", "pawn", "rook"], "field@P2": ["rook"]},
             reference)
    # one at a time, the second pawn no longer has a pair once the first left
    assert [g.defs[c].name for c in g.zones[ZoneRef("field", 0)]] == \
        ["pawn"] * left + ["rook"]
