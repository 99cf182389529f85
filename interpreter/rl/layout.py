"""The fixed-size numbers a ruleset's observations and actions become, for learning agents.

Everything is seat-relative: "seat 0" is the player who looks, seat 1 the next player, and so
on, so one policy can play any seat. Built from the ruleset alone (its zones, properties,
states, counters, resources, phases, actions, and its card pool), so any ruleset gets one.

Observation: a float32 vector, the concatenation of
- per zone and seat with cards read one by one (public zones, and the looking seat's own
  `owner` zones), card slots: the zone's capacity, else `slots` as given (more for a zone a
  deck section is dealt into, when the section may hold more); each
  [present, hidden, face down, one-hot printed card over the pool, number properties,
  states, counters]; cards past the last slot are only counted;
- per zone and seat, how many cards it holds (every zone, hidden ones too);
- per resource and seat, its value; a one-hot of the phase; the turn; whether it is the
  looking seat's turn;
- under `timing: priority`, the stack: how many objects it holds, then the top `stack` of
  them, top first, each [present, kind one-hot (spell, ability, trigger), its controller's
  seat one-hot, hidden, one-hot printed card of its source over the pool] (an object whose
  card the seat may not see shows only its kind and controller, as the observation does).
Every number is clipped to +-LIMIT. It is built from `state.observation(player)`: only what
that player may see.

Actions: a Discrete(n) id, laid out as
- 0 pass (end a phase, let a window go by), 1 done (stop choosing), 2 yes, 3 no;
- per ruleset action: one id if it names no card, else one per card position (a card slot
  above) times, for actions that use activated abilities, the most abilities a card of the
  pool with an activated ability has (the ability's index on its card);
- `choose`: one id per card position;
- `choices` ids for an option by its index in the decision: what the positions cannot name
  (a triggered ability to order, a card the player cannot see or past the slots, a second
  option that would take an id already taken).
`ids()` maps a decision's legal actions to ids, `describe()` an id back to words.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from interpreter.engine.game import Game
from interpreter.engine.state import Action

LIMIT = 1e6  # every number of an observation is clipped to +-LIMIT (the space's bounds)
DEFAULT_SLOTS = 10
DEFAULT_CHOICES = 16
DEFAULT_STACK = 8
OBJECTS = ("spell", "ability", "trigger")  # the kinds of objects on the stack
ANSWERS = ("pass", "done", "yes", "no")  # ids 0-3


@dataclass(frozen=True)
class ZoneSlots:
    """A zone of one seat (seat -1: a shared zone) and how many of its cards are read."""

    name: str
    seat: int
    slots: int

    def key(self, viewer: int, players: int) -> str:
        """Its key in state.observation(viewer)'s zones."""
        return self.name if self.seat < 0 else f"{self.name}@P{(viewer + self.seat) % players + 1}"

    def words(self) -> str:
        return self.name if self.seat < 0 else f"{self.name}({_seat_word(self.seat)})"


def _seat_word(seat: int) -> str:
    return "you" if seat == 0 else "opponent" if seat == 1 else f"seat+{seat}"


class Layout:
    """The encoding of one ruleset's observations and actions (see the module's text)."""

    def __init__(self, game: Game, slots: int = DEFAULT_SLOTS, choices: int = DEFAULT_CHOICES,
                 stack: int = DEFAULT_STACK) -> None:
        rs = game.ruleset
        self.players = rs.players
        seats = range(rs.players)
        # a zone a deck section is dealt into holds up to that section's most cards
        dealt: dict[str, int] = {}
        for section in rs.deck.get("sections", {}).values():
            if isinstance(section.get("max"), int):
                dealt[section["zone"]] = max(dealt.get(section["zone"], 0), section["max"])
        self.zones = tuple(
            ZoneSlots(name, seat, _slots(z.visibility, seat,
                                         z.capacity or max(dealt.get(name, 0), slots)))
            for name, z in rs.zones.items() for seat in ((-1,) if z.shared else seats))
        self.cards = {name: i for i, name in enumerate([*game.cards, *game.tokens])}
        self.numbers = tuple(p for p, d in rs.properties.items() if d.type == "number")
        self.states = tuple(rs.states)
        self.state_index = {s: i for i, s in enumerate(self.states)}
        self.counters = tuple(rs.counters)
        self.counter_index = {c: i for i, c in enumerate(self.counters)}
        self.resources = tuple(rs.resources)
        self.phases = {name: i for i, name in enumerate(dict.fromkeys(p.name for p in rs.phases))}
        self.card_width = 3 + len(self.cards) + len(self.numbers) + len(self.states) \
            + len(self.counters)
        self.slot_starts: list[int] = []  # per zone, its first card position
        at = 0
        for z in self.zones:
            self.slot_starts.append(at)
            at += z.slots
        self.positions = at
        # where the phase's one-hot starts (then the turn and whose turn it is)
        self.phase_at = self.positions * self.card_width + len(self.zones) \
            + len(self.resources) * rs.players
        # the stack's block last (only a ruleset with priority has one)
        self.stack_at = self.phase_at + len(self.phases) + 2
        self.stack_slots = stack if rs.timing.has_stack else 0
        self.object_width = 1 + len(OBJECTS) + rs.players + 1 + len(self.cards)
        self.size = self.stack_at + (1 + self.stack_slots * self.object_width
                                     if self.stack_slots else 0)
        self._actions(game, choices)

    def _actions(self, game: Game, choices: int) -> None:
        # (an action's `ability` indexes all of its card's abilities: the most any card has
        # with an activated one among them)
        abilities = max([len(d.abilities) for d in game.pool
                         if any(a.kind == "activated" for a in d.abilities)] + [1])
        self.action_base: dict[str, tuple[int, int]] = {}  # name -> (first id, abilities per card)
        at = len(ANSWERS)
        for name, adef in game.ruleset.actions.items():
            per = abilities if adef.abilities else 1
            self.action_base[name] = (at, 0 if adef.cards is None else per)
            at += 1 if adef.cards is None else self.positions * per
        self.choose_base = at
        self.choice_base = at + self.positions
        self.choices = choices
        self.n_actions = self.choice_base + choices

    # ---------- observations ----------
    def encode(self, view: dict, viewer: int) -> tuple[np.ndarray, dict[int, int]]:
        """The vector of one observation (state.observation(viewer)), and the card positions
        of the cards it shows (card id -> position)."""
        out = np.zeros(self.size, dtype=np.float32)  # (set where not zero: most are)
        positions: dict[int, int] = {}
        width, zones = self.card_width, view["zones"]
        counts = self.positions * width
        for i, z in enumerate(self.zones):
            cards = zones.get(z.key(viewer, self.players), ())
            out[counts + i] = len(cards)
            start = self.slot_starts[i]
            for slot, card in enumerate(cards[:z.slots]):
                self._card(out, (start + slot) * width, card)
                if "id" in card:
                    positions[card["id"]] = start + slot
        at = counts + len(self.zones)  # (then as phase_at says)
        resources = view["resources"]
        for seat in range(self.players):
            mine = resources.get(f"P{(viewer + seat) % self.players + 1}", {})
            for r in self.resources:
                out[at] = clip(mine.get(r, 0))
                at += 1
        phase = self.phases.get(view["phase"])
        if phase is not None:
            out[at + phase] = 1
        at += len(self.phases)
        out[at] = clip(view["turn"])
        out[at + 1] = view["turn_player"] == view["you"]
        if self.stack_slots:
            self._stack(out, view.get("stack", ()), viewer)
        return np.clip(out, -LIMIT, LIMIT, out=out), positions

    def _stack(self, out: np.ndarray, objects: list[dict], viewer: int) -> None:
        at = self.stack_at
        out[at] = len(objects)
        at += 1
        seats = self.players
        for obj in objects[:self.stack_slots]:  # (top first, as the observation lists them)
            out[at] = 1
            out[at + 1 + OBJECTS.index(obj["object"])] = 1
            controller = int(obj["controller"][1:]) - 1
            out[at + 1 + len(OBJECTS) + (controller - viewer) % seats] = 1
            card = obj["card"]
            if card.get("hidden"):
                out[at + 1 + len(OBJECTS) + seats] = 1
            name = self.cards.get(card.get("name"))
            if name is not None:
                out[at + 2 + len(OBJECTS) + seats + name] = 1
            at += self.object_width

    def _card(self, out: np.ndarray, at: int, card: dict) -> None:
        out[at] = 1
        if card.get("hidden"):
            out[at + 1] = 1
        if card.get("face_down"):
            out[at + 2] = 1
        index = self.cards.get(card.get("name", ""))
        if index is not None:
            out[at + 3 + index] = 1
        at += 3 + len(self.cards)
        for i, prop in enumerate(self.numbers):
            value = card.get(prop)
            if value:
                out[at + i] = clip(value)
        at += len(self.numbers)
        states = card.get("states")
        if states:
            for s in states:
                out[at + self.state_index[s]] = 1
        at += len(self.states)
        counters = card.get("counters")
        if counters:
            for name, value in counters.items():
                slot = self.counter_index.get(name)  # (one the ruleset does not declare: left out)
                if slot is not None:
                    out[at + slot] = clip(value)

    # ---------- actions ----------
    def ids(self, actions: list[Action], positions: dict[int, int]) -> list[int | None]:
        """Each legal action's id (None: no id left for it), distinct within the decision."""
        taken: set[int] = set()
        out: list[int | None] = []
        for a in actions:
            i = self._id(a, positions)
            if i is None or i in taken:
                i = self.choice_base + a.index if a.index < self.choices else None
                if i in taken:
                    i = None
            if i is not None:
                taken.add(i)
            out.append(i)
        return out

    def _id(self, a: Action, positions: dict[int, int]) -> int | None:
        kind = a.kind
        if kind in ANSWERS:
            return ANSWERS.index(kind)
        cards = a.cards
        only = cards[0] if len(cards) == 1 else None  # (None too: a card the player cannot see)
        place = None if only is None else positions.get(only)
        if kind == "choose":
            return None if place is None else self.choose_base + place
        base = self.action_base.get(kind)
        if base is None:
            return None  # (a trigger to order: by its index)
        first, per = base
        if per == 0:
            return first
        ability = a.ability or 0
        if place is None or ability >= per:
            return None
        return first + place * per + ability

    def describe(self, action_id: int) -> str:
        """An id in words: `pass`, `attack battle(you)[2]`, `option 3`..."""
        if not 0 <= action_id < self.n_actions:
            raise ValueError(f"action id {action_id} is outside 0..{self.n_actions - 1}")
        if action_id < len(ANSWERS):
            return ANSWERS[action_id]
        if action_id >= self.choice_base:
            return f"option {action_id - self.choice_base}"
        if action_id >= self.choose_base:
            return f"choose {self.position_words(action_id - self.choose_base)}"
        for name, (first, per) in self.action_base.items():
            width = 1 if per == 0 else self.positions * per
            if first <= action_id < first + width:
                if per == 0:
                    return name
                place, ability = divmod(action_id - first, per)
                more = f" ability {ability}" if per > 1 else ""
                return f"{name} {self.position_words(place)}{more}"
        raise AssertionError(action_id)  # (the ids above cover every id)

    def position_words(self, position: int) -> str:
        for i in reversed(range(len(self.zones))):
            if self.slot_starts[i] <= position:
                return f"{self.zones[i].words()}[{position - self.slot_starts[i]}]"
        raise ValueError(position)

    def feature_names(self) -> list[str]:
        """What each number of the observation vector is, for people reading a policy."""
        card = ["present", "hidden", "face_down", *(f"card={n}" for n in self.cards),
                *self.numbers, *(f"state={s}" for s in self.states),
                *(f"counter={c}" for c in self.counters)]
        names = [f"{self.position_words(p)}.{f}" for p in range(self.positions) for f in card]
        names += [f"count {z.words()}" for z in self.zones]
        names += [f"{r}({_seat_word(s)})" for s in range(self.players) for r in self.resources]
        names += [f"phase={p}" for p in self.phases] + ["turn", "your_turn"]
        if self.stack_slots:
            obj = ["present", *OBJECTS, *(f"controller={_seat_word(s)}" for s in range(self.players)),
                   "hidden", *(f"card={n}" for n in self.cards)]
            names += ["on_stack"] + [f"on_stack[{i}].{f}" for i in range(self.stack_slots) for f in obj]
        return names


def _slots(visibility: str, seat: int, most: int) -> int:
    """How many of a zone's cards (at `most`) are read one by one by the looking seat."""
    if visibility == "hidden" or visibility == "owner" and seat > 0:
        return 0
    return most


def clip(value: float) -> float:
    """A number within +-LIMIT before it goes into the float32 vector: a number with
    hundreds of digits would not convert at all (OverflowError)."""
    return -LIMIT if value < -LIMIT else LIMIT if value > LIMIT else value


def mask_of(ids: list[int | None], n: int) -> np.ndarray:
    mask = np.zeros(n, dtype=np.int8)
    for i in ids:
        if i is not None:
            mask[i] = 1
    return mask
