"""The compiled game: ruleset definitions and card definitions, immutable at run time."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the models import the instructions, which import this)
    from interpreter.engine.timing_models import TimingModel

Code = tuple  # a tuple of VM instructions
ExprFn = Callable[[Any, dict], Any]


@dataclass(frozen=True)
class ZoneDef:
    name: str
    shared: bool = False
    ordered: bool = False
    visibility: str = "public"  # public | owner | hidden
    face: str = "up"  # default face of a card put here
    capacity: int | None = None
    # `enter`: the rules a card must meet to come in, (id, condition, why it is refused)
    enter: tuple[tuple[str, Any, str], ...] = ()
    # `area`: a move between zones of one area (of one player) keeps the card's object
    area: str | None = None
    beneath: bool = False  # the zone holds the cards beneath others (stacks: put_on)


@dataclass(frozen=True)
class PropDef:
    name: str
    type: str  # number | text | enum | flag
    default: Any = None
    min: int | None = None
    max: int | None = None
    values: tuple[str, ...] = ()
    always_known: bool = False  # readable even when a state hides the card's properties
    formula: Any = None  # a computed number: fn(g, {"it": card}) instead of a printed value

    def in_bounds(self, pool: list[CardDef]) -> bool:
        """No card of `pool` prints a value that needs clamping (nor lacks one where there are
        bounds)."""
        if self.min is None and self.max is None:
            return True
        values = [d.props.get(self.name, self.default) for d in pool]
        return all(type(v) is int and (self.min is None or v >= self.min)
                   and (self.max is None or v <= self.max) for v in values)


@dataclass(frozen=True)
class StateDef:
    name: str
    index: int
    hides_properties: bool = False
    clear: str | None = None  # turn_end | phase_end
    disables_abilities: bool = False
    removes_modifiers: bool = False  # setting it drops the card's modifiers (a silence)


@dataclass(frozen=True)
class AbilityDef:
    """One ability of a card, compiled."""

    kind: str  # trigger | activated | static | replacement | prohibition | permission
    key: str  # trigger event / verb / action name
    cond: ExprFn | None
    cost: Code
    body: Code  # an activated ability's: its cost, then its effect (as `resolve(ability)` runs)
    modifiers: tuple = ()  # static: (target_fn, prop, op, value_fn)
    text: str = ""
    zones: frozenset[str] | None = None  # where it works (None: the ruleset's ability_zones)
    targets: tuple[TargetDef, ...] = ()  # chosen as it goes on the stack (timing: priority)
    effect: Code = ()  # an activated ability's body without its cost: on a stack, paid before
    left_play: str | None = None  # a triggered ability's own `left_play` (None: the ruleset's)
    name: str = ""  # the name players read for it (options, words), else its text is shown
    once: str | None = None  # an activated ability usable once per `turn` or `phase` per card
    typed_cost: tuple[tuple[str, int], ...] = ()  # (type or "any", how many): typed_costs pays
    ends_turn: bool = False  # an activated ability whose use ends the turn (a phase's window)


@dataclass(frozen=True)
class TargetDef:
    """A target a card's spell or ability declares (timing: priority): a card among `cards`
    (an expression, `you` its controller), bound to `name`, or a player for whom `players`
    holds (`player` bound), bound to `as_player` (`name` when the target is never a card); or
    an activated or triggered ability on the stack whose source `abilities` holds for (`card`
    bound), its source bound to `name`."""

    name: str
    cards: ExprFn | None = None
    players: ExprFn | None = None
    prompt: str = ""
    as_player: str = ""
    abilities: ExprFn | None = None
    up_to: int = 0  # up to this many different cards (0: exactly one card or player)
    divide: int = 0  # an up_to target's amount, divided among its cards as it is chosen


@dataclass(frozen=True)
class CardDef:
    id: int
    name: str
    props: dict[str, Any]
    abilities: tuple[AbilityDef, ...] = ()
    effect: Code = ()
    condition: ExprFn | None = None
    token: bool = False
    modifies: frozenset[str] = frozenset()  # the properties its texts modify
    # each declared property's printed value (its default when not printed), in the
    # ruleset's order: the hottest reads index it (see printed_values)
    printed: tuple[Any, ...] = ()
    text: str = ""  # the card's printed rules text, for people to read (the engine never does)
    # the names its texts `create`; None: some name is known only when the effect runs
    creates: frozenset[str] | None = frozenset()
    targets: tuple[TargetDef, ...] = ()  # chosen when its spell goes on the stack (priority)
    modes: tuple[ModeDef, ...] = ()  # a modal spell's modes (chosen as it is cast)
    mode_count: int = 1  # how many of its modes are chosen


@dataclass(frozen=True)
class ModeDef:
    """A mode of a modal spell: its label, its own targets and its effect."""

    label: str
    targets: tuple[TargetDef, ...]
    effect: Code


def printed_values(props: dict[str, Any], pdefs: Iterable[PropDef]) -> tuple[Any, ...]:
    """CardDef.printed: a tuple index, not a dict's `get` with a default, at every read."""
    return tuple(props.get(p.name, p.default) for p in pdefs)


@dataclass(frozen=True)
class PoolDef:
    """A game-owned pool: real cards that belong to no player, dealt to a shared zone before
    `setup` runs (a market's draw pile)."""

    name: str
    zone: str
    cards: tuple[str, ...]  # one name per card, in the order written
    ref: str = ""


@dataclass(frozen=True)
class VerbDef:
    name: str
    params: tuple[str, ...]
    types: tuple[str, ...]
    defaults: dict[str, ExprFn]
    body: Code
    event: str
    ref: str = ""
    each: str | None = None  # a cards parameter the verb is applied to card by card
    quiet: bool = False  # a helper the account does not narrate (the log still records it)
    card_params: tuple[str, ...] = field(init=False)  # the `cards` parameters (read per call)

    def __post_init__(self) -> None:
        object.__setattr__(self, "card_params",
                           tuple(p for p, t in zip(self.params, self.types, strict=True)
                                 if t == "cards"))


@dataclass(frozen=True)
class ActionDef:
    name: str
    label: str
    cards: ExprFn | None  # candidates for `card`
    abilities: bool  # enumerate the activated abilities of the candidates
    requires: tuple[tuple[str, ExprFn], ...]  # named rules; `can ID` lifts one
    body: Code
    # the options in one compiled pass (when no permission applies): see compile_selection
    select: Callable[[Any, dict, int, list], None] | None
    limit: tuple[int, str, str] | None  # (count, per: phase | turn, on: declare | complete)
    ref: str = ""
    by: str = "turn_player"
    direct: bool = False  # the body is one closed Straight run: taken without a frame
    head: str | None = None  # the event its body's first instruction announces, alone
    stack: bool = False  # timing: priority: taking it puts an object on the stack
    resolve: Code = ()  # the stack object's code after the card's effect (then `card` goes)
    fizzled: Code = ()  # run instead when every target of the object is gone


@dataclass(frozen=True)
class PhaseDef:
    name: str
    when: ExprFn | None
    body: Code
    actions: tuple[str, ...]
    ref: str = ""
    max_actions: int | None = None  # the window closes after this many actions


@dataclass(frozen=True)
class WindowDef:
    """A named set of actions offered together by `offer(player, NAME)`."""

    name: str
    actions: tuple[str, ...]
    max_actions: int | None = None


@dataclass(frozen=True)
class StateRule:
    """Whenever `each` (evaluated for every player) finds cards, `body` runs for each of them:
    all of them at once when `together` (vm._fire_state_rules), else one card at a time."""

    id: str
    each: ExprFn
    body: Code
    ref: str = ""
    reads: frozenset[str] | None = None  # change channels `each` reads (compile/reads.py)
    together: bool = False


@dataclass(frozen=True)
class LossRule:
    cond: ExprFn
    reason: str
    ref: str = ""
    outcome: str = "lose"  # lose | win
    reads: frozenset[str] | None = None  # change channels `cond` reads (compile/reads.py)


@dataclass(frozen=True)
class Limits:
    """How a game that would not end by itself ends (match rules)."""

    turns: int = 200  # the most turns played; then `judge` runs, or the game is a draw
    judge: Code = ()  # decides the game at a limit (calls win/lose/draw_game)
    judge_ref: str = ""
    board_turns: int | None = None  # the same board at this many turn ends in a row: judge
    board_zones: tuple[str, ...] = ()  # what "the board" is: these zones' cards...
    board_resources: tuple[str, ...] = ()  # ...and these resources
    board_ref: str = ""
    loop_returns: int | None = None  # a forced loop back at its start this often is stopped
    loop_ref: str = ""


@dataclass(frozen=True)
class TriggerRules:
    """The ruleset's `triggers`: how triggered abilities that wait together are ordered, and
    whether one resolves once its card has left play since it triggered."""

    order: str = "ask"  # ask | apnap | timestamp | seat | event (docs/LANGUAGE.md §2.9)
    left_play: str = "resolve"  # resolve | skip
    exceptions: frozenset[str] = frozenset()  # events whose abilities do the other
    # a waiting ability remembers its card's zone and timestamp (read as each one triggers)
    remembers: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "remembers", self.order == "timestamp"
                           or self.left_play == "skip" or bool(self.exceptions))

    def resolves_gone(self, ability: AbilityDef) -> bool:
        """Whether the triggered `ability` resolves although its card left play: its own
        `left_play`, else the ruleset's, reversed for the events of `except`."""
        if ability.left_play is not None:
            return ability.left_play == "resolve"
        return (self.left_play == "resolve") != (ability.key in self.exceptions)


@dataclass
class Ruleset:
    id: str
    name: str
    players: int
    resolution: str  # stack | queue
    simultaneous_loss: str  # draw | turn_player_loses
    ability_zones: tuple[str, ...]
    modifier_order: tuple[str, ...]
    zones: dict[str, ZoneDef]
    properties: dict[str, PropDef]
    states: dict[str, StateDef]
    resources: dict[str, dict]
    counters: tuple[str, ...]
    verbs: dict[str, VerbDef] = field(default_factory=dict)
    actions: dict[str, ActionDef] = field(default_factory=dict)
    phases: tuple[PhaseDef, ...] = ()
    windows: dict[str, WindowDef] = field(default_factory=dict)
    any_time: tuple[str, ...] = ()  # actions offered in every window (`any_time: true`)
    # a window's actions -> the generated function of its options (actions.window_of)
    selections: dict[tuple[str, ...], Callable] = field(default_factory=dict)
    setup: Code = ()
    end_rules: tuple[LossRule, ...] = ()
    end_check: Callable[[Any], None] | None = None  # all of them at once: see vm.check_end
    delayed_events: frozenset[str] = frozenset()  # the events delayed triggers wait for
    state_checks: str = "event"  # event: after every atomic step | priority: before priority
    state_rules: tuple[StateRule, ...] = ()
    heuristic: ExprFn | None = None  # how good the state looks for `you` (search agents)
    heuristic_reads: frozenset[str] | None = None  # its change channels (compile/reads.py)
    deck_rules: tuple = ()  # (rule mapping, condition on a card's printed properties)
    limits: Limits = Limits()
    deck: dict = field(default_factory=dict)
    tokens: dict[str, dict] = field(default_factory=dict)
    triggers: TriggerRules = TriggerRules()
    pools: tuple[PoolDef, ...] = ()
    path: str = ""
    raw: dict = field(default_factory=dict)
    # how the players get to act and where triggered abilities wait, chosen once from the
    # ruleset's `timing:` (engine/timing_models.py)
    timing: TimingModel = field(kw_only=True)
    phrases: Any = None  # what people read (words/phrases.Phrases), never used by play
    # `typed_costs`: the cards that pay an ability's typed cost (a function of the card and
    # its controller) and the property giving each one's type
    typed_costs: tuple[ExprFn, str] | None = None

    @property
    def beneath_zone(self) -> str | None:
        """The zone that holds the cards beneath others (`beneath: true`), if any."""
        return next((z.name for z in self.zones.values() if z.beneath), None)


def offered(rs: Ruleset, action: str) -> tuple[str, ...]:
    """The actions of a window `offer(player, ACTION)` opens for one action: it, then those
    that may be taken at any time."""
    return tuple(dict.fromkeys((action, *rs.any_time)))
