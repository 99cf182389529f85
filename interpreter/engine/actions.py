"""Player actions: which are legal now, starting one, and windows for any player to act in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine import repetition, vm
from interpreter.engine.instructions import Instr
from interpreter.engine.model import ActionDef
from interpreter.engine.state import Frame, GameState
from interpreter.engine.timing import inline_settle, needs_settling

PASS = ("pass",)  # end the phase's window
DECLINE = ("pass", "decline")  # let a response window go by


def legal_actions(g: GameState, names: tuple[str, ...], player: int) -> tuple:
    """Options (action, card, ability index) that `player` may take now among `names` (no
    name twice: the ruleset builder drops repeats)."""
    select, plan = window_of(g, names)
    return tuple(select(g, player, plan))


def window_of(g: GameState, names: tuple[str, ...]) -> tuple[Callable, tuple]:
    """How a window of actions `names` finds its options in this game: `select(g, player,
    plan)` returns them as a new list (the window adds its pass). The ruleset's generated
    function of the window (ExprCompiler.compile_window) with, per action, None when no card
    of the game can take it, else its guard keys (see _plan); else `options` with the plan."""
    plan = plan_of(g, names)
    select = g.game.ruleset.selections.get(names)
    if select is None:
        return options, plan
    guards = {p[0]: p[4] or () for p in plan}
    return select, tuple(guards.get(name) for name in names)


def plan_of(g: GameState, names: tuple[str, ...]) -> tuple:
    """The plan of a window of actions `names` in this game (see _plan; an empty one too)."""
    plan = g.game.action_plans.get(names)
    return _plan(g, names) if plan is None else plan


def options(g: GameState, player: int, plan: tuple) -> list[tuple]:
    """The options of a window's plan, rule by rule or by the actions' compiled selections."""
    out: list[tuple] = []
    env = g.game.player_envs[player]  # read-only: what compiled selections may read
    for name, adef, select, limit, guard in plan:
        if limit is not None and g.counts.get((name, limit[1], player), 0) >= limit[0]:
            continue
        if select is not None and (guard is None or not guarded(g, guard)):
            select(g, env, player, out)  # (its options, merged: see compile_selection)
        else:
            by_rule(g, adef, player, out)
    if g.board is not None:  # (it bars by printed card: merged copies stand or fall together)
        out = repetition.barred(g, player, out)
    return out


def by_rule(g: GameState, adef: ActionDef, player: int, out: list) -> None:
    """The options of an action rule by rule, merged (no compiled selection, or some card
    could forbid or permit it)."""
    group: list[tuple] = []
    _candidates(g, adef, player, group)
    out += _distinct(g, group, player)


def _plan(g: GameState, names: tuple[str, ...]) -> tuple:
    """Per action of a window, what legal_actions checks: (name, definition, compiled
    selection, limit, the keys of abilities that could forbid or permit it). An action no
    card of the game can be taken with is left out: one of activated abilities when no card
    has one, one whose cards must have printed properties no card has."""
    actions, guards = g.game.ruleset.actions, g.game.guard_keys
    none_activated = "activated" not in g.game.static_keys
    plan = g.game.action_plans[names] = tuple(
        (name, actions[name], actions[name].select, actions[name].limit, guards.get(name))
        for name in names if not (actions[name].abilities and none_activated)
        and _some_card_may(g, actions[name]))
    return plan


def _some_card_may(g: GameState, adef: ActionDef) -> bool:
    test = getattr(adef.select, "printed_test", None)  # see ExprCompiler.compile_selection
    return test is None or any(test(d) for d in g.game.pool)


def _distinct(g: GameState, options: list[tuple], player: int) -> list[tuple]:
    """The same action with interchangeable cards is one option (as with choices)."""
    if len(options) < 2:
        return options
    keys = vm.card_classes(g, [o[1] for o in options], player)
    seen: set = set()
    out = []
    for i, key in enumerate(keys):  # (zip's strict= costs more)
        option = options[i]
        k = (key, option[2])
        if k not in seen:
            seen.add(k)
            out.append(option)
    return out


def _candidates(g: GameState, adef: ActionDef, player: int, out: list) -> None:
    """The options of one action, rule by rule (when no compiled selection applies)."""
    env = action_env(g, player, None, None)
    if adef.cards is None:
        if _allowed(g, adef, env):
            out.append((adef.name, None, None))
        return
    for cid in vm.as_cards(g, adef.cards(g, env)):
        env["card"] = cid
        if not adef.abilities:
            if _allowed(g, adef, env):
                out.append((adef.name, cid, None))
            continue
        for idx, ability in enumerate(g.defs[cid].abilities):
            if ability.kind == "activated" and _usable(g, cid, ability, idx):
                env["ability"] = (cid, idx)
                if _allowed(g, adef, env):
                    out.append((adef.name, cid, idx))


def guarded(g: GameState, keys: tuple[tuple[str, str], ...]) -> bool:
    """Some card in play forbids this action or lifts one of its requirements: one of the
    action's guard keys has a live ability."""
    return not vm.live_statics(g).keys().isdisjoint(keys)


def _usable(g: GameState, cid: int, ability, idx: int) -> bool:
    """An activated ability can be used: its card has a controller (a pool's card, owned by no
    player, has none), it was not used this turn or phase when it is `once_per` one, the
    cards of `typed_costs` cover its typed cost, and its own `where` holds."""
    controller = g.controller[cid]
    if controller is None:
        return False
    if ability.once is not None and ("#ability", ability.once, cid, idx) in g.counts:
        return False
    if ability.typed_cost and not covered(g, cid, controller, ability.typed_cost):
        return False
    return ability.cond is None or bool(ability.cond(g, vm.effect_env(g, cid, controller)))


def covered(g: GameState, cid: int, controller: int, cost: tuple) -> bool:
    """The ruleset's `typed_costs` cards of card `cid` cover a typed cost ((type, n)..., `any`
    last): for each type, n cards of it; the cards left over at least `any`'s n."""
    cards_of, prop = g.game.ruleset.typed_costs
    cards = vm.as_cards(g, cards_of(g, vm.effect_env(g, cid, controller)))
    left = len(cards)
    types = [g.get(c, prop) for c in cards]
    for t, n in cost:
        if t == "any":
            return left >= n
        if types.count(t) < n:
            return False
        left -= n
    return True


def _allowed(g: GameState, adef: ActionDef, env: dict) -> bool:
    """Legal unless forbidden; each failed rule needs a permission (`can RULE` or `can ACTION`)."""
    guards = g.game.static_keys
    if adef.name in guards.get("prohibition", ()) and vm.forbidden(g, adef.name, _fields(env)):
        return False
    for rule_id, cond in adef.requires:
        if not cond(g, env):
            # (no ability of the game could permit it: no call to look for a live one)
            lifts = guards.get("permission", ())
            if rule_id not in lifts and adef.name not in lifts \
                    or not (vm.permitted(g, rule_id, _fields(env))
                            or vm.permitted(g, adef.name, _fields(env))):
                return False
    return True


def _fields(env: dict) -> dict:
    """What a prohibition or permission may ask about an action (its env: action_env's)."""
    fields = {"card": env["card"], "player": env["player"]}  # (no comprehension: a call)
    if "ability" in env:
        fields["ability"] = env["ability"]
    return fields


def action_env(g: GameState, player: int, card: int | None, idx: int | None) -> dict:
    env = g.game.player_envs[player].copy()  # (player, you, opponent, self: copied in C)
    env["card"] = card
    if idx is not None:
        env["ability"] = (card, idx)
    return env


@inline_settle
def start_action(g: GameState, f: Frame, option: tuple, player: int,
                 max_actions: int | None) -> None:
    """Begin an action taken in the window frame `f` runs (counted there for `max_actions`).
    Its limit counts now, or (limit.on: complete) only if it completes."""
    if max_actions is not None:
        f.env["#taken"] = f.env.get("#taken", 0) + 1
    name, card, idx = option
    adef = g.game.ruleset.actions[name]
    # (action_env, inlined: one action a decision)
    env = g.game.player_envs[player].copy()
    env["card"] = card
    if idx is not None:
        env["ability"] = (card, idx)
    limit = adef.limit
    if limit is not None:  # (no truth test of a tuple: a call)
        key = (name, limit[1], player)  # (_count_key, inlined)
        if limit[2] == "complete":
            env["#complete"] = key
        else:
            g.counts[key] = g.counts.get(key, 0) + 1
    if idx is not None and (once := g.defs[card].abilities[idx].once) is not None:
        g.counts[("#ability", once, card, idx)] = 1  # (expire ends it with the turn or phase)
    if g.board is not None:
        repetition.note_action(g, player, option)
    if not adef.direct:
        action = Frame(adef.body, env, "action")
        if adef.head is not None and adef.head not in g.heard:
            action.pc = 1  # (its announcement, which nobody hears, does nothing: Emit.run)
        g.frames.append(action)
        return
    # (as turn.Push: the body's function runs now; a frame only if it hands over midway)
    below = len(g.frames)
    fn = adef.body[0].fn  # (see instructions.Straight.run)
    resume = fn(g, env)
    if resume is None:  # the action's end, as in vm.run
        if limit is not None and limit[2] == "complete":  # (its limit counts once it completes)
            g.counts[key] = g.counts.get(key, 0) + 1
        if needs_settling(g):  # (a timing point)
            vm.settle_point(g)
        return
    body = Frame(adef.body, env, "action")
    body.pc = resume
    g.frames.insert(below, body)


def window_full(f: Frame, max_actions: int) -> bool:
    """Close the window (move past it) once `max_actions` actions were taken in it."""
    if f.env.get("#taken", 0) < max_actions:
        return False
    close_window(f)
    return True


def close_window(f: Frame) -> None:
    f.env.pop("#taken", None)
    f.pc += 1


class Offer(Instr):
    """A window for one player (env '#who'): any legal action among `names`, or pass;
    it reopens after each action, up to `max_actions` actions."""

    __slots__ = ("names", "max_actions", "question", "plan")

    def __init__(self, names: tuple[str, ...], max_actions: int | None = None,
                 title: str | None = None) -> None:
        self.names, self.max_actions = names, max_actions
        self.question = f"{title or ', '.join(names)}: act or pass"
        # (game, window_of's function and plan): kept here, not looked up by the names at
        # each decision (one game's at a time: games narrowed to other decks share this code)
        self.plan: tuple = (None, None, ())

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        if needs_settling(g) and vm.settle_point(g):
            return  # a timing point: what settling started runs first, then this again
        if self.max_actions is not None and window_full(f, self.max_actions):
            return
        who = f.env["#who"]
        plan = self.plan
        if plan[0] is not g.game:
            plan = self.plan = (g.game, *window_of(g, self.names))
        out = plan[1](g, who, plan[2])
        if not out:
            g.unasked += 1
            close_window(f)
            return
        out.append(DECLINE)
        vm.ask(g, who, "action", tuple(out), self.question)

    @inline_settle
    def open(self, g: GameState, code: tuple, who: int) -> bool:
        """Open the window (`code`: `(self,)`) for `who` as a frame running it would, with
        no frame when it has nothing to offer: then it closes at once (most declarations
        of some rulesets offer a window that is empty). True when a frame was left."""
        if needs_settling(g) \
                or self.max_actions is not None and self.max_actions <= 0:
            g.frames.append(Frame(code, {"#who": who}, "block"))  # (settling first: run())
            return True
        plan = self.plan  # (as run() finds the options)
        if plan[0] is not g.game:
            plan = self.plan = (g.game, *window_of(g, self.names))
        out = plan[1](g, who, plan[2])
        if not out:
            g.unasked += 1
            return False
        g.frames.append(Frame(code, {"#who": who}, "block"))
        out.append(DECLINE)
        vm.ask(g, who, "action", tuple(out), self.question)  # (as run() would ask)
        return True

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        if option == DECLINE:
            close_window(f)
        else:
            start_action(g, f, option, f.env["#who"], self.max_actions)
