"""GameState: plain, cheap-to-clone data. Card instances are indexes into parallel lists.

This module imports no other engine module but the model and chance (which imports none):
the public API's methods that run code (apply, concede, determinize, observation,
legal_actions' labels) reach the VM and the observations through the state's Game
(Game.answer and its siblings), so the engine's modules import one another one way only
(docs/INTERNALS.md)."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from interpreter.diagnostics import TcgError
from interpreter.engine import chance as _chance
from interpreter.engine import modifiers as _modifiers
from interpreter.engine.model import CardDef, PropDef

if TYPE_CHECKING:  # (the game imports the VM, which imports this)
    from interpreter.engine.game import Game

# a generator seeded in C, without Random.__init__
_blank_rng: Callable[..., random.Random] = random.Random.__new__


class ZoneRef:
    """A zone: its name and owner (-1 for a shared zone). There is one object per zone (the
    class keeps them), so equality and hashing are identity, the cheapest a dict lookup can
    be, and the fields are slots (in CPython 3.11 a named tuple's field is a slow read): the
    engine looks zones up at every step."""

    __slots__ = ("name", "owner")
    name: str
    owner: int
    _made: ClassVar[dict[tuple[str, int], ZoneRef]] = {}

    def __new__(cls, name: str, owner: int) -> ZoneRef:
        ref = cls._made.get((name, owner))
        if ref is None:
            ref = cls._made[(name, owner)] = object.__new__(cls)
            object.__setattr__(ref, "name", sys.intern(name))
            object.__setattr__(ref, "owner", owner)
        return ref

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a ZoneRef is immutable (tried to set {name!r})")

    def __reduce__(self) -> tuple:  # (unpickled: the same object of the receiving process)
        return ZoneRef, (self.name, self.owner)

    def __repr__(self) -> str:
        return f"ZoneRef(name={self.name!r}, owner={self.owner})"


class _Fields(NamedTuple):
    """Decision's fields (a named tuple's getters read them)."""

    player: int
    kind: str  # action | choose | may | order
    options: tuple
    prompt: str


class Decision(tuple):
    """A question the engine asks one player; `options` are plain values. Its fields read
    as a named tuple's. One is made at every decision, as Decision((player, kind, options,
    prompt)): a tuple subclass with no __new__ of its own is made in C, where a named
    tuple's __new__ is a Python function."""

    __slots__ = ()
    _fields = _Fields._fields
    player, kind, options = _Fields.player, _Fields.kind, _Fields.options

    @property
    def prompt(self) -> str:
        """The question in words. A prompt that names variables is put in words when read
        (a late prompt, `(words, state, env)`: see picks.prompt_maker), so read it while the
        question is pending."""
        p = self[3]
        return p if type(p) is str else p[0](p[1], p[2])

    def __repr__(self) -> str:
        return "Decision" + repr(_Fields(*self))[len("_Fields"):]


@dataclass(frozen=True)
class Result:
    winner: int | None  # None: a draw
    reason: str
    ref: str = ""
    turns: int = 0


class Action:
    """One legal answer to a decision: its `index` among the decision's options, its `kind`,
    the `cards` it names and its `label` (how the deciding player sees it, made when first
    read: read it before the state moves on).

    `kind` is the ruleset's action name ("summon", "attack"...), or "pass" (end a phase, let
    a window go by), "done" (stop choosing), "yes" / "no" (an optional effect), "choose" (one
    card of a choice) or "trigger" (which triggered ability resolves next). `cards` are card
    ids as in observations; a card the deciding player cannot see is None there (its id
    would tell which card it is: ids follow the decks' lists). `ability` is the index of the
    card's activated ability an action uses, else None."""

    __slots__ = ("index", "option", "decision", "_g", "_label")

    def __init__(self, index: int, option: Any, decision: Decision, g: GameState) -> None:
        self.index, self.option, self.decision, self._g = index, option, decision, g
        self._label: str | None = None

    @property
    def kind(self) -> str:
        return self._g.game.option_kind(self.option, self.decision.kind)

    @property
    def cards(self) -> tuple[int | None, ...]:
        return self._g.game.option_cards(self._g, self.option, self.decision.player)

    @property
    def ability(self) -> int | None:
        o = self.option
        return o[2] if type(o) is tuple and len(o) == 3 and type(o[0]) is str else None

    @property
    def label(self) -> str:
        if self._label is None:
            self._label = self._g.game.label(self._g, self.option, self.decision.player)
        return self._label

    def __eq__(self, other: object) -> bool:
        return type(other) is Action and other.index == self.index \
            and (other.decision is self.decision or other.decision == self.decision)

    def __hash__(self) -> int:
        return hash((self.index, self.option))

    def __repr__(self) -> str:
        return f"Action(index={self.index}, kind={self.kind!r}, cards={self.cards!r}, " \
               f"label={self.label!r})"


class LegalActions(Sequence):
    """The legal answers to the pending decision: a lazy view (an Action is made when read,
    its label when that is read), with `len`, indexing, iteration and `in`."""

    __slots__ = ("_g", "_decision", "_options")  # (one is made at every legal_actions())

    def __init__(self, g: GameState) -> None:
        d = self._decision = g.decision
        self._g, self._options = g, () if d is None else d.options

    def __len__(self) -> int:
        return len(self._options)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._options)))]
        option = self._options[i]  # (IndexError past the end: iteration stops there)
        return Action(i if i >= 0 else i + len(self._options), option, self._decision, self._g)

    def __contains__(self, action: object) -> bool:
        return type(action) is Action and 0 <= action.index < len(self._options) \
            and (action.decision is self._decision or action.decision == self._decision)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class IllegalAction(TcgError, ValueError):
    """apply() was given something that is not a legal answer now (a TcgError, as every error
    raised on purpose; a ValueError, as callers have caught it)."""


class GameOver(Exception):
    def __init__(self, result: Result) -> None:
        super().__init__(result.reason)
        self.result = result


class Frame:
    """One running piece of code: instructions, program counter, variables."""

    __slots__ = ("code", "pc", "env", "kind", "choice")

    def __init__(self, code: tuple, env: dict, kind: str = "block") -> None:
        self.code = code  # (one assignment each: a multiple one builds and unpacks a tuple)
        self.pc = 0
        self.env = env
        self.kind = kind
        # the state of the choice at pc (instructions.Choose: a tuple while it runs)
        self.choice: Any = None

    def copy(self) -> Frame:
        f = Frame(self.code, dict(self.env), self.kind)
        f.pc, f.choice = self.pc, self.choice
        return f


class _EveryEvent:
    """What a log hears: every event."""

    def __contains__(self, event: object) -> bool:
        return True


EVERY_EVENT = _EveryEvent()
STATICS_PENDING: dict = {}  # GameState._statics while Game.static_mods computes them
STATICS = "@statics"  # the change channel standing for what the static abilities read
# GameState.mod_index when there is none (for no version)
NO_MOD_INDEX: tuple[int, Any, dict] = (-1, object(), {})


class GameState:
    __slots__ = (
        "game", "defs", "zone_of", "zones", "flags", "face", "owner", "controller", "counters",
        "stamp", "res", "turn", "turn_player", "phase", "frames", "pending", "queue",
        "decision", "result", "_rng", "_rng_shared", "chance", "version", "mods", "counts", "log",
        "clock", "steps",
        "decisions", "known", "memo", "heard", "memo_version", "atomic", "host", "under", "home", "_statics",
        "turn_limit", "board", "seen", "epoch", "live", "live_at", "live_index",
        "clean_at", "rules_at", "mod_index", "marks", "expiring", "state_rules", "triggers",
        "queues", "left_stamp", "stack", "unasked", "delayed", "controls", "linked",
    )

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.state_rules = bool(game.ruleset.state_rules)  # (read at every timing point)
        # some card of the game has a triggered ability (else none ever waits: pending and
        # queue stay empty, and a timing point need not look at them: truth tests are calls)
        self.triggers = bool(game.triggers_on)
        self.queues = game.ruleset.resolution == "queue"  # (else the queue stays empty)
        self.defs: list[CardDef] = []
        self.zone_of: list[ZoneRef] = []
        self.zones: dict[ZoneRef, list[int]] = {}
        self.flags: list[int] = []
        self.face: list[bool] = []
        self.owner: list[int] = []
        self.controller: list[int] = []
        self.counters: dict[tuple[int, str], int] = {}
        self.stamp: list[int] = []  # when each card entered its zone
        # card -> its stamp in the zone it last left, kept only when waiting abilities
        # remember their cards (an ability heard as its card leaves is ordered by when it
        # entered; see triggers.heard)
        self.left_stamp: dict[int, int] | None = {} if game.remembers else None
        self.res: list[dict[str, int]] = []
        self.turn = 0
        self.turn_player = 0
        self.phase = ""
        self.frames: list[Frame] = []
        self.pending: list[tuple] = []  # triggered, not yet ordered
        self.queue: list[tuple] = []  # ordered, waiting (queue resolution)
        self.stack: list[tuple] = []  # objects waiting to resolve, under priority (engine/priority.py)
        self.delayed: list[tuple] = []  # delayed triggered abilities set up (engine/delayed.py)
        self.controls: list[tuple] = []  # control changes that end (engine/control.py)
        self.linked: dict[int, tuple] = {}  # card -> the cards linked to it (engine/linked.py)
        self.decision: Decision | None = None
        self.result: Result | None = None
        self._rng = random.Random(seed)
        self._rng_shared = False  # see rng
        self.chance: Any = None  # chance.Script: fixed outcomes for random steps (None: the RNG)
        self.version = 0  # bumped by every change (values derived from the state are kept per version)
        self.mods: list[tuple] = []  # (cid, prop, op, value, until, stamp)
        self.counts: dict[tuple, int] = {}
        self.log: list[dict] | None = []
        self.heard: Container[str] = EVERY_EVENT  # see keep_log
        self.clock = 0
        self.steps = 0
        self.decisions = 0
        self.unasked = 0  # windows and priorities passed without asking (nothing but pass)
        self.known: dict[int, int] = {}  # card -> bitmask of players who have looked at it
        self.memo: dict = {}  # values that depend only on the state, valid for memo_version
        self.memo_version = -1
        self.atomic = 0  # depth of `simultaneously` blocks: win/loss checks wait
        self.host: dict[int, int] = {}  # attached card -> the card it is attached to
        self.under: dict[int, int] = {}  # card beneath others -> the top of its stack (put_on)
        self.home: list[str] = []  # the zone each card started in (its pool: deck, extra...)
        self._statics: tuple[int, Any] | None = None  # (see Game.static_mods)
        limits = game.ruleset.limits
        self.turn_limit: int = limits.turns
        self.board: Any = None  # repetition.Board, with a `same_board` rule, from the first turn end
        # state fingerprints since the last decision (with a `loop` rule), for forced loops
        self.seen: dict | None = {} if limits.loop_returns else None
        # bumped whenever a card enters or leaves a zone where abilities can work, such a zone
        # is reordered, or a state that disables abilities is set or cleared: the live cards
        # (and the abilities that work) are recomputed only then
        self.epoch = 0
        self.live: list[int] = []
        self.live_at = -1
        self.live_index: dict | None = None  # vm.live_statics, for the live cards of live_at
        # the version at which the win/loss rules last held for no one (-1: not looked at yet)
        self.clean_at = -1
        self.rules_at = -1  # the version at which the state rules last found nothing to do
        # (version, static modifiers, card -> property -> modifiers): see mods_of (by card
        # first: most cards read have none, found with one lookup and no key to build; never
        # None: generated code reads it inline, see compile/exprs.py modified_source)
        self.mod_index: tuple[int, Any, dict] = NO_MOD_INDEX
        # change channel (compile/reads.py) -> the version of the last change on it
        self.marks: dict[str, int] = dict.fromkeys(game.read_channels, -1)
        # phase | turn -> the cards given a state that ends with it since it last ended (an
        # expiry looks at these cards only)
        self.expiring: dict[str, list[int]] = {}

    # ---------- the public API (OpenSpiel-shaped) ----------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def current_player(self) -> int | None:
        """Who must decide now (0-based), or None when the game is over."""
        return None if self.decision is None else self.decision.player

    def legal_actions(self) -> LegalActions:
        """The legal answers to the pending decision (empty when the game is over), for
        `current_player`: a lazy view of Actions, each with its kind, cards and label."""
        return LegalActions(self)

    def apply(self, action: Action | int) -> None:
        """Answer the pending decision with one of its legal actions, or an option's index
        (an int, numpy's too), and run to the next decision. Checked: raises IllegalAction
        for anything else (an Action of another decision too)."""
        d = self.decision
        if d is not None:
            if type(action) is int:  # (first: runners answer with indexes at every decision)
                if 0 <= action < len(d.options):
                    self.game.answer(self, d.options[action])
                    return
            elif type(action) is Action:
                if action.decision is d or action.decision == d:
                    self.game.answer(self, action.option)
                    return
            elif hasattr(action, "__index__") and not isinstance(action, bool) \
                    and 0 <= action.__index__() < len(d.options):
                self.game.answer(self, d.options[action.__index__()])
                return
        raise self._illegal(action)

    def chance_outcomes(self, action: Action | int) -> list[_chance.Outcome]:
        """Every way answering `action` can go where random steps follow it (dice, coin
        flips, shuffles), each with its exact probability (a Fraction), the steps' outcomes
        in order and the state it leads to; this state is left as it is (see engine/chance.py)."""
        return _chance.outcomes(self, action)

    def _illegal(self, action: object) -> IllegalAction:
        d = self.decision
        if d is None:
            return IllegalAction(f"the game is over ({self.result.reason if self.result else ''})")
        if type(action) is Action:
            return IllegalAction(f"{action!r} is not legal now: it answers "
                                 f"{action.decision.prompt!r}, the pending decision is {d.prompt!r}")
        return IllegalAction(f"{action!r} is not legal now: {d.prompt!r} has "
                             f"{len(d.options)} options")

    def seat(self, player: int | str) -> int:
        """A player as the API takes one: an index from 0, or its name as logs and docs write
        it ("P1"); anything else is a TcgError saying what is expected."""
        n = self.game.ruleset.players
        if type(player) is str and player[:1] == "P" and player[1:].isdigit():
            player = int(player[1:]) - 1
        if type(player) is not int or not 0 <= player < n:
            raise TcgError(f"no player {player!r}: a player is 0 to {n - 1}, or 'P1' to 'P{n}'")
        return player

    def determinize(self, player: int | str, rng) -> GameState:
        """A copy with the cards `player` cannot see dealt again at random (for search)."""
        return self.game.determinize(self, self.seat(player), rng)

    def concede(self, player: int | str) -> None:
        """`player` resigns: open to any player at any decision, never one of the options."""
        player = self.seat(player)
        if self.result is None:
            self.game.finish(self, Result(self.other(player), f"P{player + 1} concedes",
                                          "concession"))

    def observation(self, player: int | str, options: bool = True) -> dict:
        """What `player` (0, or "P1") may see: never the opponent's hand or any deck order.
        With `options`, the labels of the options when `player` is the one deciding."""
        return self.game.observation(self, self.seat(player), options)

    def keep_log(self, log: list[dict] | None) -> None:
        """Log into `log` (None: keep no log). `heard`, the events something hears (a
        triggered ability of the game's cards, or the log: all), follows: code that would
        announce an event nobody hears asks it alone."""
        self.log = log
        self.heard = EVERY_EVENT if log is not None else self.game.triggers_on

    # ---------- clone ----------
    def clone(self, keep_log: bool = False) -> GameState:
        g = GameState.__new__(GameState)
        g.game, g.state_rules, g.triggers = self.game, self.state_rules, self.triggers
        g.queues = self.queues
        g.defs = list(self.defs)
        g.zone_of = list(self.zone_of)
        g.zones = {k: list(v) for k, v in self.zones.items()}
        g.flags = list(self.flags)
        g.face = list(self.face)
        g.owner = list(self.owner)
        g.controller = list(self.controller)
        g.counters = dict(self.counters)
        g.stamp = list(self.stamp)
        g.left_stamp = None if self.left_stamp is None else dict(self.left_stamp)
        g.res = [dict(r) for r in self.res]
        g.turn, g.turn_player, g.phase = self.turn, self.turn_player, self.phase
        g.frames = [f.copy() for f in self.frames]
        g.pending = list(self.pending)
        g.queue = list(self.queue)
        g.stack = list(self.stack)
        g.delayed = list(self.delayed)
        g.controls = list(self.controls)
        g.linked = dict(self.linked)
        g.decision, g.result = self.decision, self.result
        d = self.decision
        if d is not None and type(d[3]) is not str:  # a late prompt reads this state: in words
            g.decision = Decision((d[0], d[1], d[2], d.prompt))  # now (it moves on, or the copy)
        # the RNG is shared until either state draws from it (copying its state costs more
        # than all the rest of a clone, and most search copies never shuffle)
        g._rng = self._rng
        g._rng_shared = self._rng_shared = True
        g.chance = None if self.chance is None else self.chance.copy()
        g.version = self.version
        g.mods = list(self.mods)
        g.counts = dict(self.counts)
        g.keep_log(list(self.log) if keep_log and self.log is not None else None)
        g.clock, g.steps, g.decisions = self.clock, self.steps, self.decisions
        g.unasked = self.unasked
        g.known = dict(self.known)
        g.memo, g.memo_version = {}, -1
        g.atomic = self.atomic
        g.host = dict(self.host)
        g.under = dict(self.under) if self.under else {}
        g.home = list(self.home)
        g._statics = self._statics
        g.turn_limit, g.board = self.turn_limit, self.board
        g.seen = None if self.seen is None else dict(self.seen)
        # the live cards and their index (never mutated: shared) hold until the copy's cards are
        # dealt again (forget_derived)
        g.epoch, g.live, g.live_at, g.live_index = self.epoch, self.live, self.live_at, self.live_index
        g.clean_at, g.rules_at, g.mod_index = -1, -1, NO_MOD_INDEX
        g.marks = dict(self.marks)
        g.expiring = {k: list(v) for k, v in self.expiring.items()}
        return g

    @property
    def rng(self) -> random.Random:
        """The match's RNG. After a clone() the two states share one generator, which neither
        draws from: the first of them to read `rng` gets a copy of its own, in the state it had
        at the clone (so every copy draws the same stream a copy made at once would)."""
        if self._rng_shared:
            own = _blank_rng(random.Random, 0)  # (not Random(): it would read os.urandom first)
            own.setstate(self._rng.getstate())
            self._rng, self._rng_shared = own, False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng, self._rng_shared = value, False

    def give_state(self, cid: int, state: str) -> None:
        """Put a card in a state, as a given state does (the set_state primitive also marks
        the change and runs the checks)."""
        self.flags[cid] |= 1 << self.game.ruleset.states[state].index
        until = self.game.state_ends.get(state)
        if until is not None:
            self.expiring.setdefault(until, []).append(cid)

    def forget_derived(self) -> None:
        """The cards were dealt again (a determinized world): nothing kept holds."""
        self.version += 1
        self._statics, self.mod_index, self.rules_at = None, NO_MOD_INDEX, -1
        self.live_at, self.live_index = -1, None

    def unchanged(self, since: int, channels: tuple[str, ...] | None) -> bool:
        """No change landed on these channels after version `since` (None: untracked). They
        are among the game's read_channels, marked from the start."""
        if channels is None or since < 0:
            return False
        marks = self.marks
        for c in channels:  # noqa: SIM110 (a loop: twice as fast as all() or max(map()) here)
            if marks[c] > since:
                return False
        return True

    # ---------- queries ----------
    @property
    def players(self) -> range:
        return range(self.game.ruleset.players)

    def other(self, player: int) -> int:
        return (player + 1) % self.game.ruleset.players

    def zone_key(self, name: str, owner: int) -> ZoneRef:
        return ZoneRef(name, -1 if self.game.ruleset.zones[name].shared else owner)

    def has_state(self, cid: int, state: str) -> bool:
        return bool(self.flags[cid] >> self.game.ruleset.states[state].index & 1)

    def get(self, cid: int, prop: str) -> Any:
        """A card's property after every modifier, clamped; None when it cannot be seen."""
        read = self.game.readers.get(prop)  # (a property no ruleset declares reads as None)
        return None if read is None else read(self, cid)

    def word(self, cid: int, pdef: PropDef) -> Any:
        """A text, enum or flag property: printed value unless an `=` modifier sets it."""
        if self.flags[cid] & self.game.hiding_mask and not pdef.always_known:
            return None
        value = self.defs[cid].props.get(pdef.name, pdef.default)
        if self.mods or self.game.has_statics:
            sets = [m for m in self.mods_of(cid, pdef.name) or () if m[0] == "="]
            if sets:
                value = max(sets, key=lambda m: m[2])[1]  # the latest wins
        return value

    def mods_of(self, cid: int, prop: str) -> list[tuple[str, int, int]] | None:
        """The modifiers of one property of one card, (op, value, stamp), in the order they
        apply (the ruleset's modifier_order, then the oldest first)."""
        index = self.mod_index
        if index[0] != self.version:
            index = self.index_mods()
        mods = index[2].get(cid)
        return mods.get(prop) if mods else None

    def index_mods(self) -> tuple[int, dict | None, dict]:
        """(version, static modifiers, card -> property -> modifiers), indexed again when
        either kind of modifier changed (while Game.static_mods computes the static ones,
        reads see none: it drops the index it made then)."""
        statics = self.game.static_mods(self) if self.game.has_statics else None
        index = self.mod_index
        if index[1] is statics and self.marks["@mods"] <= index[0]:
            by_card = index[2]  # still the same modifiers
        elif not self.game.reference:  # (sums of additions: see engine/modifiers.py)
            by_card = _modifiers.index(self.mods, statics, self.game.op_rank)
        else:
            by_card, several = {}, []
            for c, p, op, v, _u, s in self.mods:
                mods = by_card.setdefault(c, {}).setdefault(p, [])
                mods.append((op, v, s))
                if len(mods) == 2:
                    several.append(mods)
            for (c, p), more in (statics or {}).items():
                mods = by_card.setdefault(c, {}).setdefault(p, [])
                mods.extend(more)
                if len(mods) > 1 and len(mods) - len(more) < 2:  # (not there yet)
                    several.append(mods)
            rank = self.game.op_rank  # (application order: readers apply them as they come)
            for mods in several:
                mods.sort(key=lambda m: (rank.get(m[0], 9), m[2]))
        index = self.mod_index = (self.version, statics, by_card)
        return index

    def resource(self, player: int | str, name: str) -> int:
        return self.res[self.seat(player)].get(name, 0)

    def counter(self, cid: int, name: str) -> int:
        return self.counters.get((cid, name), 0)

    def live_cards(self) -> list[int]:
        """Cards whose abilities work now (in the ruleset's ability zones, or their own; owned
        by a player). Do not mutate."""
        if self.live_at != self.epoch:
            live = self._live_cards()
            # the same cards (a draw moves none in or out of play): the index still holds,
            # unless abilities say where they work (a card may have changed zone in place)
            if live != self.live or self.game.zoned:
                self.live, self.live_index = live, None
            self.live_at = self.epoch
        return self.live

    def _live_cards(self) -> list[int]:
        mask, flags, zones = self.game.disabling_mask, self.flags, self.zones
        live: list[int] = []
        for ref in self.game.ability_refs:
            live += zones[ref]
        if mask:  # (a state can disable abilities)
            live = [c for c in live if not flags[c] & mask]
        if self.game.ruleset.pools:  # a pool's card belongs to no player: its abilities wait
            controller = self.controller  # until a player's zone takes it (it has no `you`)
            live = [c for c in live if controller[c] is not None]
        return live


def visible(g: GameState, cid: int, viewer: int | None) -> bool:
    """Whether `viewer` may see the card's face; viewer None: the omniscient log."""
    if viewer is None:
        return True
    ref = g.zone_of[cid]
    vis = g.game.ruleset.zones[ref.name].visibility
    if g.known.get(cid, 0) >> viewer & 1:
        return True
    if vis == "hidden":
        return False
    if g.owner[cid] == viewer:
        return True
    return vis == "public" and g.face[cid]


# A card's engine attributes as Python source over the state `g` and the card `{c}`: read
# through CARD_READERS here, inlined by the expression compiler (compile/exprs.py).
# (`{hide}`: the states that hide a card's properties, as a number when the compiler knows it)
CARD_ATTR_SOURCE = {
    "name": "(None if g.flags[{c}] & {hide} else g.defs[{c}].name)",
    "owner": "g.owner[{c}]",
    "controller": "g.controller[{c}]",
    "zone": "g.zone_of[{c}].name",
    "face_up": "g.face[{c}]",
    "is_token": "g.defs[{c}].token",
    "host": "g.host.get({c})",
    # 1-based, left to right as the zone is shown: its list's order, index 0 (the top) first
    "position": "(g.zones[g.zone_of[{c}]].index({c}) + 1)",
}
CARD_READERS = {name: eval(f"lambda g, c: {source.format(c='c', hide='g.game.hiding_mask')}")  # (ours)
                for name, source in CARD_ATTR_SOURCE.items()}
CARD_ATTRS = frozenset(CARD_READERS)

