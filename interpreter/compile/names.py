"""What a bare name means in a ruleset: the one resolver the checker and compiler share."""

from __future__ import annotations

from dataclasses import dataclass, field

from interpreter.engine.primitives import PRIMITIVES, Param
from interpreter.engine.state import CARD_ATTRS

FUNCTIONS: dict[str, tuple[int, int, str]] = {
    # name: (min args, max args, doc)
    "count": (1, 1, "number of cards"),
    "exists": (1, 1, "true when there is at least one card"),
    "top": (1, 2, "the top n cards (default 1) of cards or a zone"),
    "bottom": (1, 2, "the bottom n cards (default 1)"),
    "max": (1, 9, "the largest number"),
    "min": (1, 9, "the smallest number"),
    "abs": (1, 1, "absolute value"),
    "other": (1, 1, "the other player"),
    "total": (2, 2, "sum of a number property over cards: total(cards, power)"),
    "printed": (2, 2, "a card's property as its card data prints it, before modifiers: printed(card, power)"),
    "playable": (1, 1, "the card's own `condition` holds (true when it has none)"),
    "attached": (1, 1, "the cards attached to a card, oldest first"),
    "beneath": (1, 1, "the cards beneath a card (a stack: put_on), the nearest first"),
    "divided": (1, 1, "the share of the resolving spell's divided amount given to a card (0: none)"),
    "linked": (1, 1, "the cards `link` linked to a card, while they are the same objects"),
    "union": (1, 9, "the cards of all the arguments, in order, each once: union(main(you), sub(you))"),
    "random": (1, 1, "a whole number from 1 to n, drawn from the match's RNG (a die, a coin toss)"),
    "heads": (1, 1, "the number of heads in n coin flips, each drawn from the match's RNG"),
    "random_card": (1, 1, "one of the cards, drawn from the match's RNG (none of none)"),
    "left": (1, 1, "the card just left of a card in its zone (position one less), or none"),
    "right": (1, 1, "the card just right of a card in its zone (position one more), or none"),
    "adjacent": (1, 1, "the cards next to a card in its zone, left then right"),
    "zones": (1, 9, "the zones to pick from in `choose zone`: zones(left(you), right(you))"),
    "stack_size": (0, 0, "the number of objects on the stack (timing: priority)"),
    "turn_number": (0, 0, "the number of the turn being played: 1 in the first turn"),
    "can_enter": (2, 2, "the zone's `enter` rules let the card in now: can_enter(card, battle(you))"),
}
BUILTIN_VALUES = {"you", "opponent", "self", "turn_player", "players", "turn_order", "it"}


@dataclass
class Names:
    """Every name a ruleset declares, for resolving and for 'did you mean'."""

    zones: dict[str, bool] = field(default_factory=dict)  # name -> shared
    capped: set[str] = field(default_factory=set)  # the zones with a capacity
    beneath: set[str] = field(default_factory=set)  # the zones that hold cards beneath others
    properties: set[str] = field(default_factory=set)
    states: set[str] = field(default_factory=set)
    enums: set[str] = field(default_factory=set)
    resources: set[str] = field(default_factory=set)
    counters: set[str] = field(default_factory=set)
    verbs: dict[str, tuple[Param, ...]] = field(default_factory=dict)
    verb_bodies: dict[str, str] = field(default_factory=dict)  # verb -> its `do` text
    events: set[str] = field(default_factory=set)
    actions: set[str] = field(default_factory=set)
    windows: set[str] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    cards: set[str] = field(default_factory=set)  # the card sets' names (`create` makes them too)
    verb_events: dict[str, str] = field(default_factory=dict)
    rule_ids: set[str] = field(default_factory=set)  # named action requirements
    # zone -> its `enter` rules as (id, condition tree), once read (None: one did not check)
    enter_rules: dict = field(default_factory=dict)
    property_types: dict[str, str] = field(default_factory=dict)  # property -> its type
    formulas: set[str] = field(default_factory=set)  # the computed properties (never printed)
    # number properties every card has as a whole number (printed, else a whole default)
    whole_numbers: set[str] = field(default_factory=set)
    state_bits: dict[str, int] = field(default_factory=dict)  # state -> its bit in a card's flags
    hiding_mask: int = 0  # the bits of the states that hide a card's properties

    def card_field(self, name: str) -> bool:
        return name in CARD_ATTRS or name in self.properties or name in self.states \
            or name in self.counters

    def callables(self) -> list[str]:
        return [*PRIMITIVES, *self.verbs]

    def expr_callables(self) -> list[str]:
        return [*FUNCTIONS, *self.zones]

    def params_of(self, name: str) -> tuple[Param, ...] | None:
        if name in PRIMITIVES:
            return PRIMITIVES[name].params
        return self.verbs.get(name)

    def value_names(self) -> list[str]:
        return [*BUILTIN_VALUES, *self.states, *self.enums,
                *(z for z, shared in self.zones.items() if shared)]


ENGINE_EVENTS = {
    "moved": ("card", "from_zone", "to_zone", "player"),
    "shuffled": ("zone",),
    "state": ("card", "state", "value"),
    "flipped": ("card", "face"),
    "resource": ("player", "name", "value", "delta"),
    "counter": ("card", "name", "value", "delta"),
    "revealed": ("cards",),
    "looked": ("cards", "player"),
    "attached": ("card", "host"),
    "detached": ("card", "host"),
    "put_on": ("card", "onto", "from_zone", "to_zone", "player"),
    "transformed": ("card", "name", "was"),
    "created": ("card", "to_zone"),
    "first_turn": ("player",),
    "judgement": ("reason",),
    "turn_start": ("player", "turn"),
    "turn_end": ("player", "turn"),
    "phase_start": ("phase", "player"),
    "phase_end": ("phase", "player"),
}


def _params(spec: dict | None) -> tuple[Param, ...]:
    out = []
    for name, p in (spec or {}).items():
        if isinstance(p, dict):
            out.append(Param(name, p.get("type", "any"), p.get("default", ...)))
        else:
            out.append(Param(name, p or "any"))
    return tuple(out)


def ruleset_names(raw: dict) -> Names:
    props = raw.get("properties") or {}
    names = Names(
        zones={z: bool((d or {}).get("shared")) for z, d in (raw.get("zones") or {}).items()},
        beneath={z for z, d in (raw.get("zones") or {}).items()
                 if isinstance(d, dict) and d.get("beneath") is True},
        capped={z for z, d in (raw.get("zones") or {}).items() if (d or {}).get("capacity")
                is not None},
        properties=set(props),
        states=set(raw.get("states") or {}),
        enums={v for p in props.values() for v in ((p or {}).get("values") or ())},
        resources=set(raw.get("resources") or {}),
        counters=set(raw.get("counters") or ()),
        verbs={v: _params((d or {}).get("params")) for v, d in (raw.get("verbs") or {}).items()},
        actions=set(raw.get("actions") or {}),
        windows=set(raw.get("windows") or {}),
        tokens=set(raw.get("tokens") or {}),
    )
    names.verb_events = {v: (d or {}).get("event") or v for v, d in (raw.get("verbs") or {}).items()}
    names.verb_bodies = {v: d["do"] for v, d in (raw.get("verbs") or {}).items()
                         if isinstance(d, dict) and isinstance(d.get("do"), str)}
    names.property_types = {p: (d or {}).get("type", "number") for p, d in props.items()}
    names.formulas = {p for p, d in props.items() if (d or {}).get("formula")}
    names.whole_numbers = {p for p, d in props.items() if names.property_types[p] == "number"
                           and type((d or {}).get("default")) is int and not (d or {}).get("formula")}
    states = raw.get("states") or {}
    names.state_bits = {s: 1 << i for i, s in enumerate(states)}
    names.hiding_mask = sum(names.state_bits[s] for s, d in states.items()
                            if (d or {}).get("hides_properties"))
    names.events = set(ENGINE_EVENTS) | set(names.verb_events.values()) | names.actions
    names.rule_ids = {r["id"] for a in (raw.get("actions") or {}).values()
                      if isinstance((a or {}).get("requires"), list)
                      for r in a["requires"] if isinstance(r, dict) and "id" in r}
    names.rule_ids |= {r["id"] for z in (raw.get("zones") or {}).values()
                       if isinstance((z or {}).get("enter"), list)
                       for r in z["enter"] if isinstance(r, dict) and "id" in r}
    return names
