"""What one player may see: observations and option labels. Never the hidden state."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from interpreter.engine.actions import DECLINE, PASS
from interpreter.engine.instructions import DONE
from interpreter.engine.stack import targets_of
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


def _states(g: GameState, cid: int) -> list[str]:
    flags = g.flags[cid]  # (most cards have no state: no look at each)
    return [s for s, sdef in g.game.ruleset.states.items() if flags >> sdef.index & 1] \
        if flags else []


def _unseen(g: GameState, cid: int) -> dict:
    # A card's states are public even when the card is not: which hidden card an effect
    # picked is known, not what it is (a card picked from a hand in a simultaneous choice).
    states = _states(g, cid)
    return {"hidden": True, "states": states} if states else {"hidden": True}


def card_view(g: GameState, cid: int, viewer: int | None) -> dict:
    if not visible(g, cid, viewer):
        return _unseen(g, cid)
    states = _states(g, cid)
    d = g.defs[cid]
    view: dict[str, Any] = {"id": cid, "name": d.name}
    if states:
        view["states"] = states
    if not g.face[cid]:
        view["face_down"] = True
    for prop, pdef in g.game.ruleset.properties.items():
        if prop in d.props:
            value = g.get(cid, prop) if pdef.type == "number" else g.word(cid, pdef)
            if value is not None:
                view[prop] = value
    counters = {k[1]: v for k, v in g.counters.items() if k[0] == cid and v} \
        if g.counters else None
    if counters:
        view["counters"] = counters
    host = g.host.get(cid)
    if host is not None:  # (a hidden host is named as hidden, like any card)
        view["attached_to"] = host if visible(g, host, viewer) else None
    top = g.under.get(cid) if g.under else None
    if top is not None:  # a card beneath others: the top of its stack (put_on)
        view["beneath"] = top if visible(g, top, viewer) else None
    if d.text:
        view["text"] = d.text  # printed, for people to read
    texts = [a.text for a in d.abilities if a.text]
    if texts:
        view["abilities"] = texts
    if any(a.name for a in d.abilities):  # the abilities' names, as options show them
        view["ability_names"] = [a.name for a in d.abilities]
    return view


def observation(g: GameState, viewer: int | None, options: bool = True) -> dict:
    """What `viewer` may see (None: everything, for a designer's replay; never for a seat);
    without `options`, the options' labels are not made."""
    zones = {}
    visibility, known = g.game.visibility, g.known
    for ref, cards in g.zones.items():
        key = ref.name if ref.owner < 0 else f"{ref.name}@P{ref.owner + 1}"
        if viewer is not None and visibility[ref.name] == "hidden" \
                and not (known and any(c in known for c in cards)):
            zones[key] = [_unseen(g, c) for c in cards]  # (a deck: no card of it to look at)
        else:
            zones[key] = [card_view(g, c, viewer) for c in cards]
    obs: dict[str, Any] = {
        "you": None if viewer is None else f"P{viewer + 1}", "turn": g.turn,
        "turn_player": f"P{g.turn_player + 1}", "phase": g.phase,
        "resources": {f"P{p + 1}": dict(g.res[p]) for p in g.players}, "zones": zones,
    }
    if g.game.ruleset.timing.has_stack:
        obs["stack"] = [stack_view(g, o, viewer) for o in reversed(g.stack)]
    if g.decision is not None:
        obs["deciding"] = f"P{g.decision.player + 1}"
        if g.decision.player == viewer:
            obs["question"] = question(g, viewer)
            chosen = chosen_so_far(g, viewer)
            if chosen:
                obs["chosen"] = chosen
            if options:
                obs["options"] = [label(g, o, viewer) for o in g.decision.options]
    if viewer is not None and options:
        from interpreter.words.speak import said  # (here: words/ imports the engine)

        obs["said"] = said(g, viewer)  # what a person reads, in their language
    return obs


def stack_view(g: GameState, obj: tuple, viewer: int | None) -> dict:
    """An object on the stack: public, but its card (and an ability's text) only as the viewer
    may see the card."""
    kind, card, controller, data = obj
    view: dict[str, Any] = {"object": kind, "controller": f"P{controller + 1}",
                            "card": card_view(g, card, viewer)}
    targets = targets_of(obj)
    if targets:
        view["targets"] = {name: label(g, value, viewer) for name, value, _stamp in targets}
    if kind != "spell" and visible(g, card, viewer):  # (an ability: its index is data[1])
        view["text"] = g.defs[card].abilities[data[1]].text
    return view


def question(g: GameState, viewer: int) -> str:
    """The pending decision in words: its prompt, the card it is about (an attack's attacker)
    when the viewer can see it, and how far a choice of several cards has got."""
    d = g.decision
    if d is None:
        return ""
    text = prompt_for(g, viewer)
    f = g.frames[-1] if g.frames else None
    if f is None:
        return text
    card = f.env.get("card")
    if type(card) is tuple and len(card) == 1:
        card = card[0]
    if type(card) is int and card < len(g.defs):
        text += f" — {card_label(g, card, viewer)}"
    if d.kind == "choose" and f.choice is not None and f.choice[1] > 1:
        text += f" ({len(f.choice[2])} of {f.choice[1]} chosen)"
    return text


def prompt_for(g: GameState, viewer: int | None) -> str:
    """The pending decision's prompt as `viewer` may read it. A question asked by a card's
    text begins with the card's name ("Spy: may draw?"), which would name a card in a hidden
    hand to a player who cannot see it: that name is then "a hidden card"."""
    text = g.decision.prompt if g.decision is not None else ""
    env = g.frames[-1].env if g.frames else {}  # (the frame asking)
    for key in ("self", "card"):
        c = env.get(key)
        if type(c) is int and 0 <= c < len(g.defs) and not visible(g, c, viewer):
            name = g.defs[c].name
            if text.startswith(f"{name}: "):
                text = "a hidden card: " + text[len(name) + 2:]
    return text


def chosen_so_far(g: GameState, viewer: int) -> list[int]:
    """The cards a choice of several has picked so far (those the viewer can see)."""
    f = g.frames[-1] if g.frames else None
    if f is None or f.choice is None or g.decision is None or g.decision.kind != "choose":
        return []
    return [c for c in f.choice[2] if visible(g, c, viewer)]


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

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if self._cache is None:
            self._cache = {}
        if i not in self._cache:
            self._cache[i] = label(self._g, self._decision.options[i], self._decision.player)
        return self._cache[i]


def option_kind(option: Any, decision_kind: str) -> str:
    """What kind of answer an option is (Action.kind)."""
    if option in (PASS, DECLINE):
        return "pass"
    if option == DONE:
        return "done"
    if option is True or option is False:
        return "yes" if option else "no"
    if decision_kind == "order":
        return "trigger"
    if type(option) is tuple and len(option) == 2 and option[0] == "player":
        return "player"
    if type(option) is tuple and len(option) == 3 and type(option[0]) is str:
        return option[0]
    return "choose" if isinstance(option, int) else decision_kind


def option_cards(g: GameState, option: Any, viewer: int) -> tuple[int | None, ...]:
    """The cards an option names (Action.cards): ids, None where `viewer` cannot see the card."""
    if option is True or option is False or option == DONE:
        cards: tuple = ()
    elif isinstance(option, int):
        cards = (option,)
    elif type(option) is tuple and len(option) == 3 and type(option[0]) is str:
        cards = () if option[1] is None else (option[1],)
    elif type(option) is tuple and len(option) == 4:  # a triggered ability: its card
        cards = (option[0],)
    else:
        cards = ()
    return tuple(c if visible(g, c, viewer) else None for c in cards)


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
            ability = g.defs[card].abilities[idx]
            text += f" [{ability.name or ability.text}]"
        return text
    if isinstance(option, tuple) and len(option) == 4:  # a waiting or stacked ability
        cid, idx = option[0], option[1]
        if not visible(g, cid, viewer):  # its text would say what the card is
            return card_label(g, cid, viewer)
        ability = g.defs[cid].abilities[idx]
        return f"{card_label(g, cid, viewer)}: {ability.name or ability.text}" \
            + _heard_apart(g, option, viewer)
    if isinstance(option, tuple) and len(option) == 2 and option[0] == "player":  # a target
        return f"P{option[1] + 1}"
    return str(option)


def _heard_apart(g: GameState, option: tuple, viewer: int | None) -> str:
    """For one ability heard more than once among the options asked now: the event fields
    that tell this one apart (` (card: 札#3)`), so that no two options read the same."""
    d = g.decision
    twins = [o for o in (d[2] if d is not None else ()) if type(o) is tuple and len(o) == 4
             and o[:2] == option[:2] and o != option]
    if not twins:
        return ""
    mine = dict(option[3])
    differ = [k for k in mine if not k.startswith("#")
              and any(dict(o[3]).get(k) != mine[k] for o in twins)]
    shown = ", ".join(f"{k}: {_field(g, k, mine[k], viewer)}" for k in differ)
    return f" ({shown})" if shown else ""


def _field(g: GameState, key: str, value: Any, viewer: int | None) -> str:
    """An event field as the viewer may read it (a card hidden from them stays hidden)."""
    cards = g.game.field_types.get(key) in ("cards", "card")
    if cards and type(value) is int:
        return card_label(g, value, viewer)
    if cards and type(value) is tuple:
        return ", ".join(card_label(g, c, viewer) for c in value if type(c) is int)
    return str(g.game.show(g, key, value))


def card_label(g: GameState, cid: int, viewer: int | None) -> str:
    if not visible(g, cid, viewer):
        ref = g.zone_of[cid]
        return f"a hidden card in {ref.name}@P{ref.owner + 1}"
    return f"{g.defs[cid].name}#{cid}"
