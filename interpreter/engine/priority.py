"""Priority and the stack (`timing: priority`): the players pass priority around, objects wait
on a shared stack and resolve last in, first out.

An object on `g.stack` is a tuple `(kind, card, controller, data)`:
- `("spell", card, controller, (action, None, targets, names))`: an action with `stack: true`
  taken with a card; it resolves as the card's own `effect`, then the action's `resolve`;
- `("ability", card, controller, (action, index, targets, names))`: such an action taken with
  an activated ability; it resolves as the ability's body, which sees the variables its cost
  chose (`names`: `(name, value)` pairs, the {X} of a cost; () for a spell);
- `("trigger", card, controller, trig)`: a triggered ability (`trig` as triggers.pending holds
  it); it resolves as triggers.push_trigger starts it. One whose ability declares targets
  carries them as the last of its fields, `(TARGETS, targets)`: `AWAITING` (targets None)
  until its controller chose them, at the next priority (engine/stack.py).

`targets` holds `(name, value, stamp)` per declared target: a card and its `g.stamp` when
chosen (a card whose stamp changed since has changed zones: a new object, no longer the
target), a player `("player", p)` and None, or an ability on the stack `(source, index,
controller, object)` (the shape of a triggered ability's option) and None. Every value is
immutable, so a clone copies the stack as a list.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import picks, triggers, vm
from interpreter.engine.actions import DECLINE, start_action, window_of
from interpreter.engine.instructions import DONE, Instr
from interpreter.engine.model import ActionDef, PhaseDef, TargetDef
from interpreter.engine.stack import AWAITING, TARGETS, push_object
from interpreter.engine.state import Frame, GameState
from interpreter.engine.timing import inline_settle, needs_settling

OBJECTS = "#objects"  # (in a resolving body's env: the abilities it targets, for counter)


class Priority(Instr):
    """A step's priority (it replaces a phase's window under `timing: priority`). The turn
    player receives priority first; a player who acts receives it again; a player with
    nothing to do passes without being asked. When every player has passed in succession the
    top object resolves and the turn player receives priority again, or, the stack being
    empty, the step ends. Each time, the timing point settles first: state rules, then
    waiting triggered abilities go onto the stack (turn player's first)."""

    __slots__ = ("phase", "prompt", "plan")

    def __init__(self, phase: PhaseDef) -> None:
        self.phase = phase
        self.prompt = f"{phase.name} step: act or pass priority"
        self.plan: tuple = (None, None, ())  # (game, window_of's): see actions.Offer

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        check = g.game.priority_check  # (state_checks: priority: the win/loss rules, now)
        if check is not None and g.clean_at != g.version:
            check(g)
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        env = f.env
        if g.stack and awaiting(g, clean_below(g, env)) is not None:
            g.frames.append(Frame((TriggerTargets(),), {}, "block"))
            return  # (the triggered abilities just stacked choose their targets first)
        if len(g.stack) > 1:  # (all but the top, so that resolving it keeps the mark good)
            env[CLEAN] = (len(g.stack) - 1, g.stack[-2])
        who = env.get("#who", g.turn_player)
        passes = env.get("#passes", 0)
        while True:
            options = self.options(g, who)
            if options:
                env["#who"], env["#passes"] = who, passes
                options.append(DECLINE)
                vm.ask(g, who, "action", tuple(options), self.prompt)
                return
            passes += 1  # (nothing but pass: passed without asking)
            g.unasked += 1
            if passes >= g.game.ruleset.players:
                self.all_passed(g, f)
                return
            who = g.game.opponent[who]

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        env = f.env
        if option != DECLINE:
            env["#passes"] = 0  # (the player who acted receives priority again)
            start_action(g, f, option, env["#who"], None)
            return
        env["#passes"] += 1
        if env["#passes"] >= g.game.ruleset.players:
            self.all_passed(g, f)
            return
        env["#who"] = g.game.opponent[env["#who"]]
        self.run(g, f)

    def all_passed(self, g: GameState, f: Frame) -> None:
        """Every player passed in succession: the top object resolves (then the turn player
        receives priority), or the step ends."""
        env = f.env
        if g.stack:
            env["#who"], env["#passes"] = g.turn_player, 0
            resolve_top(g)
            return
        env.pop("#who", None)
        env.pop("#passes", None)
        f.pc += 1
        f.code[f.pc].run(g, f)  # go on (as turn.Window does)

    def options(self, g: GameState, who: int) -> list:
        """The actions `who` may take now: legal by the actions' rules (speeds among them),
        and with a legal choice for every target the card declares."""
        if not self.phase.actions:
            return []
        plan = self.plan
        if plan[0] is not g.game:
            plan = self.plan = (g.game, *window_of(g, self.phase.actions))
        return [o for o in plan[1](g, who, plan[2]) if targetable(g, o, who)]


def targetable(g: GameState, option: tuple, who: int) -> bool:
    """An option of a spell or activated ability that declares targets is legal only with a
    legal choice for each of them (each later target tried with the first legal choice of
    those before it)."""
    name, card, idx = option
    if card is None or not g.game.ruleset.actions[name].stack:
        return True
    d = g.defs[card]
    if idx is None and d.modes:  # (a modal spell: enough modes whose targets can be chosen)
        legal = sum(all_targetable(g, m.targets, card, who) for m in d.modes)
        return legal >= d.mode_count and all_targetable(g, d.targets, card, who)
    return all_targetable(g, declared(g, card, idx), card, who)


def all_targetable(g: GameState, tds: tuple[TargetDef, ...], card: int, who: int) -> bool:
    """Each of these targets has a legal choice (each tried with the first legal choice of
    those before it), or may be none (`up_to`)."""
    bound: dict = {}
    for td in tds:
        options = candidates(g, td, card, who, bound)
        if not options and not td.up_to:  # (up to N: none at all is a choice)
            return False
        bound.update(bind(td, options[0] if options and not td.up_to else ()))
    return True


def declared(g: GameState, card: int, idx: int | None,
             modes: tuple[int, ...] = ()) -> tuple[TargetDef, ...]:
    """The targets an object declares: its card's spell's (`idx` None), with those of the
    modes chosen (a modal spell's), or its ability's."""
    d = g.defs[card]
    if idx is not None:
        return d.abilities[idx].targets
    return d.targets + tuple(t for i in modes for t in d.modes[i].targets) if modes \
        else d.targets


# ---------- putting objects on the stack ----------
class ChooseTargets(Instr):
    """The head of an action with `stack: true`: its controller chooses each target its card's
    spell or its activated ability declares, in order, before any cost is paid (nothing
    asked when only one choice is legal)."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        if SHARES in env:
            divide(g, env)
            return
        card = env["card"]
        if choosing_modes(g, env):
            choose_modes(g, env)
            return
        tds = () if card is None else declared(g, card, ability_index(env), env.get(MODES, ()))
        chosen = env.get("#targets", ())
        if len(chosen) == len(tds):
            f.pc += 1
            return
        td = tds[len(chosen)]
        bound = bound_by(tds, chosen)
        if td.up_to:
            self.pick(g, f, td, bound)
            return
        options = candidates(g, td, card, env["player"], bound)
        if len(options) > 1:
            vm.ask(g, env["player"], "target", tuple(options),
                   f"{g.defs[card].name}: choose a target ({td.prompt or td.name})")
            return
        self.resume(g, f, options[0] if options else None)

    def pick(self, g: GameState, f: Frame, td: TargetDef, bound: dict) -> None:
        """An `up_to` target: different cards one at a time, until N are chosen, none is left,
        or `done`; then the target holds them all (`(name, cards, their stamps)`)."""
        env = f.env
        picked = env.get(PICKED, ())
        if len(picked) < td.up_to:
            left = tuple(c for c in candidates(g, td, env["card"], env["player"], bound, False)
                         if c not in picked)
            if left:
                options = (*vm.distinct_cards(g, left, env["player"]), DONE)
                vm.ask(g, env["player"], "target", options,
                       f"{g.defs[env['card']].name}: choose up to {td.up_to - len(picked)} "
                       f"more ({td.prompt or td.name})")
                return
        hold_picked(g, env, td)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        env = f.env
        if SHARES in env:  # (a share of a divided amount: then run asks for the next)
            env[SHARES] = (*env[SHARES], option.value)
            return
        if choosing_modes(g, env):  # (a mode: then run asks for the next, or the targets)
            env[PICKED_MODES] = (*env.get(PICKED_MODES, ()), option.value)
            return
        td = declared(g, env["card"], ability_index(env),
                      env.get(MODES, ()))[len(env.get("#targets", ()))]
        if td.up_to and option == DONE:
            hold_picked(g, env, td)
        elif td.up_to:
            env[PICKED] = (*env.get(PICKED, ()), option)  # (then run asks for the next)
        else:
            env["#targets"] = (*env.get("#targets", ()), chosen_target(g, td, option))


PICKED = "#picked"  # (in an action's env: the cards an `up_to` target has so far)
MODES, PICKED_MODES = "#modes", "#picked-modes"  # (a modal spell's modes: chosen, so far)


def choosing_modes(g: GameState, env: dict) -> bool:
    card = env["card"]
    return card is not None and "ability" not in env and bool(g.defs[card].modes) \
        and MODES not in env


def choose_modes(g: GameState, env: dict) -> None:
    """A modal spell's modes are chosen first, one at a time (601.2b): each a mode not yet
    chosen whose targets can all be chosen; nothing asked when one is left. Then the targets
    of the modes chosen, in printed order."""
    d = g.defs[env["card"]]
    picked = env.get(PICKED_MODES, ())
    if len(picked) < d.mode_count:
        options = tuple(picks.Pick(i, m.label) for i, m in enumerate(d.modes)
                        if i not in picked and all_targetable(g, m.targets, env["card"],
                                                               env["player"]))
        if len(options) > 1:
            vm.ask(g, env["player"], "choose", options,
                   f"{d.name}: choose a mode ({len(picked) + 1} of {d.mode_count})")
            return
        if options:
            env[PICKED_MODES] = (*picked, options[0].value)
            return
    env.pop(PICKED_MODES, None)
    env[MODES] = tuple(sorted(picked))


def hold_picked(g: GameState, env: dict, td: TargetDef) -> None:
    """An `up_to` target is chosen: it holds the cards picked, and each one's stamp."""
    picked = env.pop(PICKED, ())
    env["#targets"] = (*env.get("#targets", ()),
                       (td.name, picked, tuple(g.stamp[c] for c in picked)))
    if td.divide and picked:
        env[SHARES] = ()
        env[DIVIDING] = (td.divide, picked)


SHARES, DIVIDING = "#shares", "#dividing"  # (a division being chosen: shares so far, of what)
DIVISION = "#division"  # (the names a spell keeps: each divided card's share, for `divided`)


def divide(g: GameState, env: dict) -> None:
    """The caster divides an amount among the cards of an `up_to` target just chosen (601.2d):
    at least 1 each, card by card, the last taking what is left (nothing asked when only one
    share is possible)."""
    amount, cards = env[DIVIDING]
    shares = env[SHARES]
    left = amount - sum(shares)
    if len(shares) == len(cards) - 1:  # (the last card: the rest)
        del env[SHARES], env[DIVIDING]
        env[DIVISION] = (*env.get(DIVISION, ()), *zip(cards, (*shares, left), strict=True))
        return
    options = picks.numbers(1, left - (len(cards) - len(shares) - 1))
    if len(options) == 1:
        env[SHARES] = (*shares, options[0].value)
        return
    vm.ask(g, env["player"], "choose", options,
           f"{g.defs[env['card']].name}: how much of {amount} to "
           f"{g.game.show(g, 'card', cards[len(shares)])}?")


def divided(g: GameState, env: dict, value: Any) -> int:
    """The share of the resolving spell's divided amount its caster gave the (first) card
    (0: none); looked up down the frames, as a verb called from the effect has its own env."""
    found = vm.as_cards(g, value)
    if not found:
        return 0
    division = env.get(DIVISION)
    if division is None:
        division = next((f.env[DIVISION] for f in reversed(g.frames) if DIVISION in f.env), ())
    return next((n for c, n in division if c == found[0]), 0)


def ability_index(env: dict) -> int | None:
    """The activated ability an action is taken with (None: the card's spell)."""
    return env["ability"][1] if "ability" in env else None


def chosen_target(g: GameState, td: TargetDef, option: Any) -> tuple:
    """A target as an object keeps it: its name, its value, and a card's stamp."""
    return (td.name, option, g.stamp[option] if type(option) is int else None)


def bound_by(tds: tuple[TargetDef, ...], chosen: tuple) -> dict:
    """The names the targets chosen so far bind (a later target's filters see them)."""
    bound: dict = {}
    for td, (_name, value, _stamp) in zip(tds, chosen, strict=False):
        bound.update(bind(td, value))
    return bound


class TriggerTargets(Instr):
    """Before a player receives priority, each triggered ability just put on the stack whose
    ability declares targets has them chosen by its controller, the lowest on the stack
    first (the turn player's, APNAP). One with a target that has no legal choice is removed
    from the stack (Magic 603.3d: the `no_target` record)."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        pos = awaiting(g, f.env.get("#from", 0))  # (none below the last one it dealt with)
        if pos is None:
            f.pc += 1
            return
        f.env["#from"] = pos
        _kind, card, controller, (_cid, idx, _who, fields) = g.stack[pos]
        tds = g.defs[card].abilities[idx].targets
        chosen = f.env.get("#targets", ())
        if len(chosen) == len(tds):  # chosen: the object keeps them (then the next one)
            set_trigger_targets(g, pos, chosen)
            del f.env["#targets"]
            return
        td = tds[len(chosen)]
        options = candidates(g, td, card, controller, {**dict(fields[:-1]), **bound_by(tds, chosen)})
        if not options:
            del g.stack[pos]
            g.version += 1
            f.env.pop("#targets", None)
            if g.log is not None:
                g.log.append({"e": "no_target", "card": g.game.show(g, "card", card),
                              "player": f"P{controller + 1}"})
            return
        if len(options) > 1:
            vm.ask(g, controller, "target", tuple(options),
                   f"{g.defs[card].name}: choose a target ({td.prompt or td.name})")
            return
        self.resume(g, f, options[0])

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        pos = awaiting(g, f.env.get("#from", 0))
        assert pos is not None  # (the one this asked about is still waiting)
        _kind, card, _controller, (_cid, idx, _who, _fields) = g.stack[pos]
        td = g.defs[card].abilities[idx].targets[len(f.env.get("#targets", ()))]
        f.env["#targets"] = (*f.env.get("#targets", ()), chosen_target(g, td, option))


def awaiting(g: GameState, start: int = 0) -> int | None:
    """The place on the stack of the lowest triggered ability still to choose its targets
    (none is below `start`)."""
    stack = g.stack
    for i in range(start, len(stack)):
        obj = stack[i]
        if obj[0] == "trigger" and obj[3][3] and obj[3][3][-1] == AWAITING:
            return i
    return None


# In a Priority frame's env: (k, the object at k - 1) when none of the k lowest objects on the
# stack waits to choose targets. Objects are only pushed or popped at the top, removed (a
# counter, a cancel) or given their targets in place, and each is a new tuple: while the same
# object is still at k - 1, nothing below it moved, so a search starts at k (without it, each
# priority would read the whole stack: a growing stack made every step slower).
CLEAN = "#clean"


def clean_below(g: GameState, env: dict) -> int:
    mark = env.get(CLEAN)
    if mark is None:
        return 0
    k, obj = mark
    return k if k <= len(g.stack) and g.stack[k - 1] is obj else 0


def set_trigger_targets(g: GameState, pos: int, chosen: tuple) -> None:
    kind, card, controller, (cid, idx, who, fields) = g.stack[pos]
    g.stack[pos] = (kind, card, controller, (cid, idx, who, (*fields[:-1], (TARGETS, chosen))))
    g.version += 1


class PutOnStack(Instr):
    """The tail of an action with `stack: true`: once its `do` (the costs) ran, its object
    goes onto the stack (an activated ability's own cost is paid first)."""

    __slots__ = ("action",)

    def __init__(self, action: str) -> None:
        self.action = action

    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        card, player = env["card"], env["player"]
        idx = env["ability"][1] if "ability" in env else None
        if idx is not None and "#paid" not in env:
            env["#paid"] = True
            cost = g.defs[card].abilities[idx].cost
            if cost:
                g.frames.append(Frame((*cost, KEEP_NAMES), vm.effect_env(g, card, player), "block"))
                return
        f.pc += 1
        kind = "spell" if idx is None else "ability"
        names = env.pop(KEPT, ())
        if DIVISION in env:  # (each divided card's share, for the effect's `divided`)
            names = (*names, (DIVISION, env.pop(DIVISION)))
        if MODES in env:  # (a modal spell: the modes chosen, which resolve)
            names = (*names, (MODES, env.pop(MODES)))
        push_object(g, (kind, card, player, (self.action, idx, env.get("#targets", ()), names)))


KEPT = "#kept"  # (in an action's env: the variables its ability's cost chose)


class KeepNames(Instr):
    """The tail of an activated ability's cost paid as it goes on the stack: the variables
    the cost chose (an {X}) are handed to the action below, so that the object keeps them
    and its body sees them when it resolves."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        base = ("self", "you", "opponent")
        g.frames[-2].env[KEPT] = tuple((k, v) for k, v in f.env.items()
                                       if k not in base and not k.startswith("#"))


KEEP_NAMES = KeepNames()


def candidates(g: GameState, td: TargetDef, card: int, player: int, bound: dict,
               distinct: bool = True) -> list:
    """The legal choices for a target now, its filters seeing the targets declared before it
    (`bound`): cards (`distinct`: one per class of interchangeable ones, as a choice offers
    them), then players (`("player", p)`), or abilities on the stack, top first: not a
    triggered ability still to choose its own (itself, or one put on the stack after it)."""
    env = vm.effect_env(g, card, player)
    env.update(bound)
    out: list = []
    if td.abilities is not None:
        for obj in reversed(g.stack):
            if obj[0] == "spell" or obj[0] == "trigger" and obj[3][3][-1:] == (AWAITING,):
                continue
            env["card"] = obj[1]
            choice = (obj[1], obj[3][1], obj[2], obj)  # (its data's [1]: the ability's index)
            if td.abilities(g, env):
                out.append(choice)
        return list(triggers.unique(out))  # (identical objects are one choice)
    if td.cards is not None:
        cards = vm.as_cards(g, td.cards(g, env))
        out += vm.distinct_cards(g, cards, player) if distinct else cards
    if td.players is not None:
        for p in g.players:
            env["player"] = p
            if td.players(g, env):
                out.append(("player", p))
    return out


# ---------- actions taken by effects ----------
def act(g: GameState, env: dict, card: Any, action: str) -> None:
    """The effect's controller (`you`) takes `action` with each card, now, in order: "cast it
    from your graveyard", "you may cast it without paying its mana cost" (an action whose `do`
    pays nothing). The effect allows it: the action's `requires`, speed, limit and phase are
    not asked. Its code runs as when a player takes it: under `timing: priority` an action with
    `stack: true` chooses the card's targets, runs its `do` and puts a spell on the stack, to
    resolve as any; a card with a target that has no legal choice is not cast. Within the
    running effect, as a block: nothing settles until the effect ends."""
    adef = g.game.ruleset.actions.get(action)
    if adef is None:  # (a window's name: not one action to take)
        return
    player = env["you"]
    frames = []
    for c in vm.as_cards(g, card):
        if targetable(g, (action, c, None), player):
            aenv = g.game.player_envs[player].copy()
            aenv["card"] = c
            frames.append(Frame(adef.body, aenv, "block"))
    g.frames.extend(reversed(frames))  # (the first card's on top: taken first)


# ---------- resolving ----------
def resolve_top(g: GameState) -> None:
    """The top object leaves the stack and resolves as its controller. A spell or ability
    whose targets are all illegal now does nothing (it fizzles: its action's `fizzled` runs);
    one with some illegal targets resolves with those bound to no card (`none` for a player)."""
    obj = g.stack.pop()
    g.version += 1
    kind, card, controller, data = obj
    if g.log is not None:
        g.log.append({"e": "resolving", "object": kind, "card": g.game.show(g, "card", card),
                      "player": f"P{controller + 1}"})
    if kind == "trigger":
        resolve_trigger(g, data)
        return
    name, idx, targets, names = data
    adef: ActionDef = g.game.ruleset.actions[name]
    modes = dict(names).get(MODES, ())
    bound = still_legal(g, declared(g, card, idx, modes), card, controller, targets, {})
    action = vm.effect_env(g, None, controller)
    action.update(player=controller, card=card)
    if any(v is not None and v != () for _name, v, _stamp in targets) \
            and fizzles(g, card, bound):  # (one that chose no target at all does not)
        g.frames.append(Frame(adef.fizzled, action, "effect"))
        return
    g.frames.append(Frame(adef.resolve, action, "effect"))
    # (an ability's cost was paid as it went on the stack: PutOnStack)
    body = g.defs[card].effect if idx is None else g.defs[card].abilities[idx].effect
    env = vm.effect_env(g, card, controller)
    env.update(names)
    env.update(bound)
    for i in reversed(modes):  # (a modal spell: each mode chosen, in printed order, after
        g.frames.append(Frame(g.defs[card].modes[i].effect, dict(env), "block"))  # its effect)
    g.frames.append(Frame(body, env, "block"))  # (its end is the resolve code's, below)


def resolve_trigger(g: GameState, trig: tuple) -> None:
    """A triggered ability resolves: one with targets as a spell does (it fizzles when all
    are illegal now; its body sees those still legal, the others bound to nothing)."""
    cid, idx, controller, fields = trig
    if fields and fields[-1][0] == TARGETS:
        events = fields[:-1]
        bound = still_legal(g, g.defs[cid].abilities[idx].targets, cid, controller,
                            fields[-1][1], dict(events))
        if fizzles(g, cid, bound):
            return
        trig = (cid, idx, controller, (*events, *bound.items()))
    triggers.push_trigger(g, trig)


def fizzles(g: GameState, card: int, bound: dict) -> bool:
    """Every target is illegal: the object does nothing (the `fizzled` record)."""
    if any(v is not None and v != () for v in bound.values()):
        return False
    if g.log is not None:
        g.log.append({"e": "fizzled", "card": g.game.show(g, "card", card)})
    return True


def still_legal(g: GameState, tds: tuple[TargetDef, ...], card: int, controller: int,
                targets: tuple, fields: dict) -> dict:
    """The names the effect sees for its targets: each bound to its value while legal (its
    filters seeing the others as chosen, and a trigger's event `fields`), else to no card or
    no player (see bind)."""
    chosen = {**fields, **bound_by(tds, targets)}
    out: dict = {}
    objects = []
    for td, (_name, value, stamp) in zip(tds, targets, strict=True):
        if td.up_to:  # (each card still legal, and the same object)
            now = candidates(g, td, card, controller, chosen, False)
            out.update(bind(td, tuple(c for c, s in zip(value, stamp, strict=True)
                                      if c in now and g.stamp[c] == s)))
            continue
        legal = value is not None \
            and value in candidates(g, td, card, controller, chosen, False) \
            and (type(value) is not int or g.stamp[value] == stamp)
        out.update(bind(td, value if legal else None))
        if legal and td.abilities is not None:
            objects.append(value[3])
    if objects:  # (the objects themselves, for counter: their names are their sources)
        out[OBJECTS] = tuple(objects)
    return out


def bind(td: TargetDef, value: Any) -> dict:
    """The names a target's choice binds: its card to `name` (else no card, `()`), its player
    to `as_player` (else None); a target that may be either binds both. An ability's binds
    its source to `name`."""
    if td.abilities is not None:
        return {td.name: value[0] if type(value) is tuple else ()}
    out: dict = {}
    if td.up_to:  # (several cards: those chosen, or still legal)
        out[td.name] = value if type(value) is tuple else ()
    elif td.cards is not None:
        out[td.name] = value if type(value) is int else ()
    if td.players is not None:
        out[td.as_player] = value[1] if type(value) is tuple else None
    return out


def counter(g: GameState, env: dict, card: Any) -> None:
    """The spells of these cards leave the stack without resolving (where the card goes is
    the ruleset's: its verb moves it), and so do the abilities of these cards that the
    resolving object targets (a target declared with `abilities`)."""
    gone = set(vm.as_cards(g, card))
    kept = [o for o in g.stack if not (o[0] == "spell" and o[1] in gone)]
    spells = len(kept) < len(g.stack)
    abilities = [o for o in targeted_objects(g, env) if o[1] in gone and o in kept]
    for obj in abilities:
        kept.remove(obj)  # (one of identical objects: they are interchangeable)
    if not (spells or abilities):
        return
    g.stack = kept
    g.version += 1
    if g.log is not None:
        if spells:
            g.log.append({"e": "countered",
                          "cards": [g.game.show(g, "card", c) for c in sorted(gone)]})
        for obj in abilities:
            g.log.append({"e": "countered", "object": obj[0],
                          "card": g.game.show(g, "card", obj[1])})


def targeted_objects(g: GameState, env: dict) -> tuple:
    """The abilities on the stack the resolving object targets (still legal): kept in its
    body's env, which a verb called from it does not see, so looked up down the frames."""
    if OBJECTS in env:
        return env[OBJECTS]
    for f in reversed(g.frames):
        if OBJECTS in f.env:
            return f.env[OBJECTS]
    return ()
