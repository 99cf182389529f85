"""Linked abilities: "the card exiled with this" (Journey to Nowhere, Banisher Priest). One
ability of a card links cards to it (`link(self, t)`), another finds them (`linked(self)`),
without a state or an attachment made for it.

`g.linked` maps a card to the `(card, stamp)` pairs linked to it. A linked card is found only
while it is the same object (its stamp unchanged: it has not changed zones since), so a card
that came back from exile is no longer "the card exiled with this". The link belongs to the
card that made it, across its own moves (its leaves-play ability still finds the card)."""

from __future__ import annotations

from typing import Any

from interpreter.engine import vm
from interpreter.engine.state import GameState


def link(g: GameState, env: dict, source: Any, cards: Any) -> None:
    """Link `cards` to the (first) `source` card, each as the object it is now."""
    found = vm.as_cards(g, source)
    if not found:
        return
    src, stamp = found[0], g.stamp
    kept = tuple((c, s) for c, s in g.linked.get(src, ()) if stamp[c] == s)  # (the gone dropped)
    new = tuple((c, stamp[c]) for c in vm.as_cards(g, cards) if (c, stamp[c]) not in kept)
    if new or len(kept) != len(g.linked.get(src, ())):
        g.linked[src] = kept + new
        g.version += 1


def linked(g: GameState, value: Any) -> tuple[int, ...]:
    """The cards linked to the (first) card of `value` that are still the objects linked."""
    found = vm.as_cards(g, value)
    if not found:
        return ()
    stamp = g.stamp
    return tuple(c for c, s in g.linked.get(found[0], ()) if stamp[c] == s)
