"""Control change: a card changes controller without changing zones, as the same object.

In a game whose zones belong to players (`battlefield(you)`), where a card is says who
controls it (kernel._new_object): so a card whose controller changes goes over to the same
zone of its new controller, keeping its states, counters, modifiers, attachments and
timestamp (it is not a new object; no `moved` event). Everything that reads a controller
follows: the actions its new controller may take with it (they find it in their zone), its
triggered and static abilities (`you` is its controller when they trigger or apply), and the
objects it puts on the stack.

`until: turn` gives it back at the end of the turn: `g.controls` holds `(card, stamp,
controller before, until)` for each such change; one whose card has changed zones since (a
new object: its stamp changed) ends with nothing to give back."""

from __future__ import annotations

from typing import Any

from interpreter.engine import vm
from interpreter.engine.state import GameState, ZoneRef


def control(g: GameState, env: dict, cards: Any, player: Any, until: Any = None) -> None:
    """`player` gains control of each of `cards` (until the end of the turn with `until=turn`)."""
    if player is None:
        return
    for c in vm.as_cards(g, cards):
        was = g.controller[c]
        if was == player:
            continue
        give(g, c, player)
        if until is not None:
            g.controls.append((c, g.stamp[c], was, until))


def give(g: GameState, c: int, player: int) -> None:
    """The card's controller becomes `player`: in a player's zone, it goes over to that zone of
    `player`'s (last in its order), the same object."""
    ref = g.zone_of[c]
    if ref.owner >= 0:
        to = ZoneRef(ref.name, player)
        g.zones[ref].remove(c)
        g.zones[to].append(c)
        g.zone_of[c] = to
    g.controller[c] = player
    g.version += 1
    g.epoch += 1  # (the live cards are the same, who controls them is not)
    g.live_index = None
    g.marks[ref.name] = g.marks["@mods"] = g.version
    if g.log is not None:
        g.log.append({"e": "control", "card": g.game.show(g, "card", c),
                      "player": f"P{player + 1}"})
    vm.check_end(g, ref.name)


def expire(g: GameState, until: str) -> None:
    """The control changes that last until the end of this `until` end: each card still the
    same object goes back to the controller it had (the latest change first)."""
    ending = [e for e in g.controls if e[3] == until]
    if not ending:
        return
    g.controls = [e for e in g.controls if e[3] != until]
    for c, stamp, was, _until in reversed(ending):
        if g.stamp[c] == stamp and g.controller[c] != was:
            give(g, c, was)
