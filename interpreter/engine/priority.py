"""Priority and the stack (`timing: priority`): the players pass priority around, objects wait
on a shared stack and resolve last in, first out.

An object on `g.stack` is a tuple `(kind, card, controller, data)`:
- `("spell", card, controller, (action, None, targets))`: an action with `stack: true` taken
  with a card; it resolves as the card's own `effect`, then the action's `resolve`;
- `("ability", card, controller, (action, index, targets))`: such an action taken with an
  activated ability; it resolves as the ability's body;
- `("trigger", card, controller, trig)`: a triggered ability (`trig` as triggers.pending holds
  it); it resolves as triggers.push_trigger starts it.

`targets` holds `(name, value, stamp)` per declared target: a card and its `g.stamp` when
chosen (a card whose stamp changed since has changed zones: a new object, no longer the
target), or a player `("player", p)` and None. Every value is immutable, so a clone copies the
stack as a list.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import triggers, vm
from interpreter.engine.actions import DECLINE, start_action, window_of
from interpreter.engine.instructions import Instr
from interpreter.engine.model import ActionDef, PhaseDef, TargetDef
from interpreter.engine.stack import push_object
from interpreter.engine.state import Frame, GameState
from interpreter.engine.timing import inline_settle, needs_settling


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
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        env = f.env
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
    """An option of a spell whose card declares targets is legal only with a legal choice for
    each of them (each later target tried with the first legal choice of those before it)."""
    name, card, idx = option
    if card is None or idx is not None or not g.game.ruleset.actions[name].stack:
        return True
    bound: dict = {}
    for td in g.defs[card].targets:
        options = candidates(g, td, card, who, bound)
        if not options:
            return False
        bound.update(bind(td, options[0]))
    return True


# ---------- putting objects on the stack ----------
class ChooseTargets(Instr):
    """The head of an action with `stack: true`: its controller chooses each target its card
    declares, in order (nothing asked when only one choice is legal)."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        card = env["card"]
        declared = () if card is None or "ability" in env else g.defs[card].targets
        chosen = env.get("#targets", ())
        if len(chosen) == len(declared):
            f.pc += 1
            return
        td = declared[len(chosen)]
        bound: dict = {}
        for earlier, (_name, value, _stamp) in zip(declared, chosen, strict=False):
            bound.update(bind(earlier, value))
        options = candidates(g, td, card, env["player"], bound)
        if len(options) > 1:
            vm.ask(g, env["player"], "target", tuple(options),
                   f"{g.defs[card].name}: choose a target ({td.prompt or td.name})")
            return
        self.resume(g, f, options[0] if options else None)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        env = f.env
        td = g.defs[env["card"]].targets[len(env.get("#targets", ()))]
        stamp = g.stamp[option] if type(option) is int else None
        env["#targets"] = (*env.get("#targets", ()), (td.name, option, stamp))


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
                g.frames.append(Frame(cost, vm.effect_env(g, card, player), "block"))
                return
        f.pc += 1
        kind = "spell" if idx is None else "ability"
        push_object(g, (kind, card, player, (self.action, idx, env.get("#targets", ()))))


def candidates(g: GameState, td: TargetDef, card: int, player: int, bound: dict,
               distinct: bool = True) -> list:
    """The legal choices for a target now, its filters seeing the targets declared before it
    (`bound`): cards (`distinct`: one per class of interchangeable ones, as a choice offers
    them), then players (`("player", p)`)."""
    env = vm.effect_env(g, card, player)
    env.update(bound)
    out: list = []
    if td.cards is not None:
        cards = vm.as_cards(g, td.cards(g, env))
        out += vm.distinct_cards(g, cards, player) if distinct else cards
    if td.players is not None:
        for p in g.players:
            env["player"] = p
            if td.players(g, env):
                out.append(("player", p))
    return out


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
        triggers.push_trigger(g, data)
        return
    name, idx, targets = data
    adef: ActionDef = g.game.ruleset.actions[name]
    bound = still_legal(g, card, controller, targets)
    action = vm.effect_env(g, None, controller)
    action.update(player=controller, card=card)
    if targets and all(v is None or v == () for v in bound.values()):
        if g.log is not None:
            g.log.append({"e": "fizzled", "card": g.game.show(g, "card", card)})
        g.frames.append(Frame(adef.fizzled, action, "effect"))
        return
    g.frames.append(Frame(adef.resolve, action, "effect"))
    body = g.defs[card].effect if idx is None else g.defs[card].abilities[idx].body
    env = vm.effect_env(g, card, controller)
    env.update(bound)
    g.frames.append(Frame(body, env, "block"))  # (its end is the resolve code's, below)


def still_legal(g: GameState, card: int, controller: int, targets: tuple) -> dict:
    """The names the effect sees for its targets: each bound to its value while legal (its
    filters seeing the others as chosen), else to no card or no player (see bind)."""
    declared = g.defs[card].targets
    chosen: dict = {}
    for td, (_name, value, _stamp) in zip(declared, targets, strict=True):
        chosen.update(bind(td, value))
    out: dict = {}
    for td, (_name, value, stamp) in zip(declared, targets, strict=True):
        legal = value is not None \
            and value in candidates(g, td, card, controller, chosen, False) \
            and (type(value) is not int or g.stamp[value] == stamp)
        out.update(bind(td, value if legal else None))
    return out


def bind(td: TargetDef, value: Any) -> dict:
    """The names a target's choice binds: its card to `name` (else no card, `()`), its player
    to `as_player` (else None); a target that may be either binds both."""
    out: dict = {}
    if td.cards is not None:
        out[td.name] = value if type(value) is int else ()
    if td.players is not None:
        out[td.as_player] = value[1] if type(value) is tuple else None
    return out


def counter(g: GameState, env: dict, card: Any) -> None:
    """The spells of these cards leave the stack without resolving (where the card goes is
    the ruleset's: its verb moves it)."""
    gone = set(vm.as_cards(g, card))
    kept = [o for o in g.stack if not (o[0] == "spell" and o[1] in gone)]
    if len(kept) == len(g.stack):
        return
    g.stack = kept
    g.version += 1
    if g.log is not None:
        g.log.append({"e": "countered", "cards": [g.game.show(g, "card", c) for c in sorted(gone)]})
