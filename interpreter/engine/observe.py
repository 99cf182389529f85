"""What one player may see: observations and option labels. Never the hidden state."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.engine.actions import DECLINE, PASS
from interpreter.engine.instructions import DONE
from interpreter.engine.state import GameState, visible


def determinize(g: GameState, player: int, rng) -> GameState:
    """A copy of the state in which every card `player` cannot see has been dealt again at
    random among the hidden places of its owner (within the pool it started in: a main-deck
    card never swaps with an extra-deck card): one world consistent with what `player`
    knows. Search agents sample these instead of reading the real hidden cards."""
    world = g.clone()
    world.keep_log(None)
    pools: dict[tuple[int, str], list[int]] = {}
    for cid in range(len(world.defs)):
        if not visible(world, cid, player):
            pools.setdefault((world.owner[cid], world.home[cid]), []).append(cid)
    for hidden in pools.values():
        # a canonical order first, so the world depends on the observation and rng alone
        identities = sorted((world.defs[c] for c in hidden), key=lambda d: (d.id, d.name))
        rng.shuffle(identities)
        for cid, d in zip(hidden, identities, strict=True):
            world.defs[cid] = d
    world.rng = random.Random(rng.getrandbits(64))  # the real RNG would foretell shuffles
    world.forget_derived()
    return world


def card_view(g: GameState, cid: int, viewer: int | None) -> dict:
    # A card's states are public even when the card is not: which hidden card an effect
    # picked is known, not what it is (a card picked from a hand in a simultaneous choice).
    states = [s for s in g.game.ruleset.states if g.has_state(cid, s)]
    if not visible(g, cid, viewer):
        return {"hidden": True, "states": states} if states else {"hidden": True}
    d = g.defs[cid]
    view: dict[str, Any] = {"id": cid, "name": d.name}
    if states:
        view["states"] = states
    if not g.face[cid]:
        view["face_down"] = True
    for prop, pdef in g.game.ruleset.properties.items():
        if pdef.type == "number" and prop in d.props:
            value = g.get(cid, prop)
            if value is not None:
                view[prop] = value
    counters = {k[1]: v for k, v in g.counters.items() if k[0] == cid and v}
    if counters:
        view["counters"] = counters
    return view


def observation(g: GameState, viewer: int) -> dict:
    zones = {}
    for ref, cards in g.zones.items():
        key = ref.name if ref.owner < 0 else f"{ref.name}@P{ref.owner + 1}"
        zones[key] = [card_view(g, c, viewer) for c in cards]
    obs = {
        "you": f"P{viewer + 1}", "turn": g.turn, "turn_player": f"P{g.turn_player + 1}",
        "phase": g.phase, "resources": {f"P{p + 1}": dict(g.res[p]) for p in g.players},
        "zones": zones,
    }
    if g.decision is not None and g.decision.player == viewer:
        obs["options"] = [label(g, o, viewer) for o in g.decision.options]
    return obs


class LazyObservation(Mapping):
    """observation(g, player), built only if an agent reads it (random agents never do).
    Read it during the decision: it describes the state as it is when read."""

    __slots__ = ("_g", "_player", "_data")  # (one is made at every decision)

    def __init__(self, g: GameState, player: int) -> None:
        self._g, self._player = g, player
        self._data: dict | None = None

    def _built(self) -> dict:
        if self._data is None:
            self._data = observation(self._g, self._player)
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._built()[key]

    def __iter__(self):
        return iter(self._built())

    def __len__(self) -> int:
        return len(self._built())


class LazyLabels(Sequence):
    """The labels of the pending decision's options, each made when first read."""

    __slots__ = ("_g", "_decision", "_cache")  # (one is made at every decision)

    def __init__(self, g: GameState) -> None:
        self._g = g
        self._decision: Any = g.decision  # (pending: a Decision)
        self._cache: dict[int, str] | None = None  # (made when a label is first read)

    def __len__(self) -> int:
        return len(self._decision.options)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if self._cache is None:
            self._cache = {}
        if i not in self._cache:
            self._cache[i] = label(self._g, self._decision.options[i], self._decision.player)
        return self._cache[i]


def label(g: GameState, option: Any, viewer: int | None) -> str:
    """A readable name for an option, as `viewer` may see it."""
    if option == PASS:
        return f"end the {g.phase} phase" if g.phase else "pass"
    if option == DECLINE:
        return "pass"
    if option == DONE:
        return "done"
    if option is True:
        return "yes"
    if option is False:
        return "no"
    if isinstance(option, int):
        return card_label(g, option, viewer)
    if isinstance(option, tuple) and len(option) == 3 and isinstance(option[0], str):
        name, card, idx = option
        text = g.game.ruleset.actions[name].label
        text = text.replace("{card}", card_label(g, card, viewer) if card is not None else "")
        if idx is not None:
            text += f" [{g.defs[card].abilities[idx].text}]"
        return text
    if isinstance(option, tuple) and len(option) == 4:  # a triggered ability
        cid, idx = option[0], option[1]
        return f"{card_label(g, cid, viewer)}: {g.defs[cid].abilities[idx].text}"
    return str(option)


def card_label(g: GameState, cid: int, viewer: int | None) -> str:
    if not visible(g, cid, viewer):
        ref = g.zone_of[cid]
        return f"a hidden card in {ref.name}@P{ref.owner + 1}"
    return f"{g.defs[cid].name}#{cid}"
