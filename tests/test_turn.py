"""Between two decisions the engine runs on without its run loop where nothing waits to
settle (engine/turn.py, vm.run): what each timing point does must not change."""

from __future__ import annotations

from interpreter.compile.build import build_game
from interpreter.load.yamlpos import load_text

KNOCK = """
id: knock
name: an action limited on completion that changes nothing
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
turn:
  - phase: main
    actions: [knock]
actions:
  knock:
    limit: {count: 1, per: turn, on: complete}
    do: "let x = 1"
deck:
  sections:
    main: {zone: deck}
"""


def test_an_action_limited_on_completion_counts_even_when_it_changed_nothing():
    """The count waits for the action's end; with no state change nor trigger to settle
    there, the end still counts it: not offered again, P1 has nothing left to do this turn."""
    g = build_game(load_text(KNOCK, "knock.yaml"), []).new_state([{}, {}], 0)
    labels = [a.label for a in g.legal_actions()]
    assert any("knock" in x for x in labels)
    g.apply(next(i for i, x in enumerate(labels) if "knock" in x))
    assert g.decision.player == 1  # the window closed with nothing to offer: P2's turn
