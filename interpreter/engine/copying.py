"""`copy`: new cards made from the definitions of cards in play (a kernel function of its own).

It is written with kernel.create, which holds the invariants of a new card; the engine has no
generated variant of it (both paths run this function).
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import kernel, vm
from interpreter.engine.state import GameState, ZoneRef


def copy(g: GameState, env: dict, cards: Any, to: ZoneRef, face: str | None = None) -> None:
    """For each card of `cards`, in order, a new card of its definition on top of zone `to`,
    as `create` makes one (its printed properties, abilities and effect; owned by the zone's
    owner, else by `you`; `created` is announced). Nothing else of the card is copied: its
    states, counters, modifiers, attachments and face stay with it. A full zone refuses the
    copy (`create_failed`)."""
    for cid in vm.as_cards(g, cards):
        kernel.create(g, env, g.defs[cid].name, to, face)
