"""VM instructions. Each is immutable code; all run-time data lives in the frame's env.

An instruction either finishes (advancing `f.pc`) or asks a question through
`vm.ask` and leaves `f.pc` where it is; the answer comes back through `resume`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from enum import IntEnum
from typing import Any

from interpreter.engine import limits, vm
from interpreter.engine.state import Decision, Frame, GameState
from interpreter.engine.timing import inline_settle, needs_settling

Fn = Callable[[GameState, dict], Any]
DONE = "done"


class Instr:
    """A timing point (a phase's start and end, a window, a turn's end, a phase procedure)
    settles first: when the timing rule says so (timing.needs_settling, inlined), its `run`
    begins by starting the state rules and waiting triggered abilities (vm.settle_point) and
    returns, to run again once they are done (the run loop itself looks at no instruction's
    kind)."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        raise NotImplementedError

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        raise NotImplementedError(type(self).__name__)


class Exec(Instr):
    """Run a primitive: `call(g, env)` evaluates its arguments and calls it."""

    __slots__ = ("call",)

    def __init__(self, call: Fn) -> None:
        self.call = call

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        call = self.call  # (see Straight.run)
        call(g, f.env)


class Straight(Instr):
    """A run of decision-free code as one generated function (compile/straight.py). The
    run's own VM instructions follow, up to `end`: the function returns the index where
    they go on when a verb it called left code to run first (a replacement, a choice).
    `open_end`: the run ends by starting code (an offer, a spell...) that runs next."""

    __slots__ = ("fn", "make", "verbs", "end", "open_end")

    def __init__(self, make: Callable[[], Fn], verbs: frozenset[str], end: int,
                 open_end: bool) -> None:
        self.make, self.verbs, self.end, self.open_end = make, verbs, end, open_end
        self.fn: Fn = self._first

    def _first(self, g: GameState, env: dict) -> int | None:
        """The first run makes the function (compiling it only when it runs saves time at
        every start)."""
        self.fn = self.make()
        return self.fn(g, env)

    def run(self, g: GameState, f: Frame) -> None:
        f.pc = self.end
        # a stored function is called through a local: CPython 3.11 specializes that load
        # and call, but not `self.fn(...)`
        fn = self.fn
        resume = fn(g, f.env)
        if resume is not None:
            f.pc = resume


def closed_run(body: tuple) -> bool:
    """The whole body is one Straight run, and it starts no code for later."""
    first = body[0] if body else None
    return isinstance(first, Straight) and first.end == len(body) and not first.open_end


class Speed(IntEnum):
    """The verb ladder: how fast a call of a verb can run, each rung needing the ones below
    (docs/INTERNALS.md). Game.verb_speed holds each verb's rung in a match; actions and phase
    procedures climb the first two rungs too (ActionDef.direct, turn.Push.direct)."""

    # its body runs on a frame of its own, in the VM (every verb on the reference path)
    FRAMED = 0
    # its body is one closed run (closed_run) and it never calls itself, even through others
    # (a recursion stays in the VM, whose loop limit stops it): its caller runs the run's
    # function with no frame, and a frame holds only what the function leaves to run
    DIRECT = 1
    # direct, with nothing to look at first (no card can forbid or replace it, no triggered
    # ability looks back at its cards) and calling INLINE verbs only: its callers' straight
    # code runs its body inline (compile/straight.py, InlineVerb)
    INLINE = 2


def verb_speeds(verbs: dict, guarded: Collection[str], hearing: Collection[str]
                ) -> dict[str, Speed]:
    """Each verb's rung of the ladder, in a game where cards can forbid or replace the verbs
    `guarded`, and triggered abilities hear the events `hearing`."""
    calls = {name: verb.body[0].verbs for name, verb in verbs.items() if closed_run(verb.body)}
    direct = {n for n in calls if not _reaches(calls, n, n)}
    inline = {n for n in direct if n not in guarded
              and not (verbs[n].card_params and verbs[n].event in hearing)}
    while True:  # (a verb calling one that is not inline is not)
        kept = {n for n in inline if calls[n] <= inline}
        if kept == inline:
            break
        inline = kept
    return {n: Speed.INLINE if n in inline else Speed.DIRECT if n in direct else Speed.FRAMED
            for n in verbs}


def _reaches(calls: dict[str, frozenset[str]], start: str, target: str) -> bool:
    seen, todo = set(), list(calls[start])
    while todo:
        n = todo.pop()
        if n == target:
            return True
        if n not in seen and n in calls:
            seen.add(n)
            todo.extend(calls[n])
    return False


class Jump(Instr):
    __slots__ = ("target",)

    def __init__(self, target: int) -> None:
        self.target = target

    def run(self, g: GameState, f: Frame) -> None:
        f.pc = self.target


class JumpIfNot(Instr):
    __slots__ = ("cond", "target")

    def __init__(self, cond: Fn, target: int) -> None:
        self.cond, self.target = cond, target

    def run(self, g: GameState, f: Frame) -> None:
        f.pc = f.pc + 1 if self.cond(g, f.env) else self.target


class Let(Instr):
    __slots__ = ("name", "value")

    def __init__(self, name: str, value: Fn) -> None:
        self.name, self.value = name, value

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        f.env[self.name] = self.value(g, f.env)


class IterInit(Instr):
    """Fix the items of a `for each` (cards) or `repeat` (a count) before the loop runs,
    and start the first pass (or skip the loop when there is none)."""

    __slots__ = ("key", "source", "count", "name", "end")

    def __init__(self, key: str, source: Fn, count: bool, name: str | None, end: int) -> None:
        self.key, self.source, self.count, self.name, self.end = key, source, count, name, end

    def run(self, g: GameState, f: Frame) -> None:
        value = self.source(g, f.env)
        if self.count:
            g.steps += (value := max(value or 0, 0))  # the match's passes (engine/limits.py)
            if g.steps > limits.MAX_PASSES:
                limits.too_many_passes(g)
            items = tuple(range(value))
        else:
            items = vm.as_cards(g, value)
            g.steps += len(items)  # (nested loops over cards multiply: they count too)
            if g.steps > limits.MAX_PASSES:
                limits.too_many_passes(g)
        if not items:
            f.env[self.key] = (items, 0)
            f.pc = self.end
            return
        f.env[self.key] = (items, 1)
        if self.name:
            f.env[self.name] = items[0]
        f.pc += 1


class IterNext(Instr):
    """The end of a loop's body: the next pass (back to `body`), or leave the loop."""

    __slots__ = ("key", "name", "body", "end")

    def __init__(self, key: str, name: str | None, body: int, end: int) -> None:
        self.key, self.name, self.body, self.end = key, name, body, end

    def run(self, g: GameState, f: Frame) -> None:
        items, i = f.env[self.key]
        if i >= len(items):
            f.pc = self.end
            return
        f.env[self.key] = (items, i + 1)
        if self.name:
            f.env[self.name] = items[i]
        f.pc = self.body


class Choose(Instr):
    """Pick `count` cards one at a time from candidates fixed when the choice starts. The
    frame keeps (Frame.choice, not the env: no key added and deleted there) the candidates
    not chosen yet, how many to pick, the cards chosen, the classes' first cards offered
    among them or None: a pick changes only its own class's first card.
    The choosing player: the variable `by_var` (a `by` that only reads one: no call), or
    what `by` finds, or the env's `you` (no `by`)."""

    __slots__ = ("name", "count", "source", "by", "up_to", "prompt", "by_var", "fill")

    def __init__(self, name: str, count: Fn, source: Fn, by: Fn | None, up_to: bool,
                 prompt: str, by_var: str | None = None, fill: Fn | None = None) -> None:
        self.name, self.count, self.source = name, count, source
        self.by, self.up_to, self.prompt, self.by_var = by, up_to, prompt, by_var
        self.fill = fill  # a prompt naming variables: fill(g, env) makes it when asked

    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        state = f.choice
        if state is None:
            source, count = self.source, self.count  # (see Straight.run)
            cands = source(g, env)
            if type(cands) is not tuple:  # (as_cards, inlined: sources mostly give tuples)
                cands = vm.as_cards(g, cands)
            need = count(g, env) or 0  # (no min() nor max(): each is a call)
            if need < 0:
                need = 0
            elif need > len(cands):
                need = len(cands)
            state = f.choice = (cands, need, (), None)
        remaining, need, chosen, distinct = state
        if len(chosen) >= need or not remaining:
            pass  # done
        elif not self.up_to and len(remaining) == need - len(chosen):
            chosen += remaining
        else:
            var, by = self.by_var, self.by
            player = env[var] if var is not None else by(g, env) if by is not None \
                else env.get("you", g.turn_player)
            if distinct is None:
                distinct = vm.distinct_cards(g, remaining, player)
                if len(remaining) > 9:  # kept: a pick changes one class (see resume)
                    f.choice = (remaining, need, chosen, distinct)
            if len(distinct) != 1 or self.up_to:
                options = distinct + (DONE,) if self.up_to else distinct
                g.decision = Decision((player, "choose", options, self.prompt
                                       if self.fill is None else self.fill(g, env)))
                return  # (vm.ask, inlined)
            # one class: as picking its first card until done
            chosen += remaining[:need - len(chosen)]
        f.choice = None
        env[self.name] = chosen
        f.pc += 1

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        env = f.env
        remaining, need, chosen, distinct = f.choice
        if option == DONE or len(chosen) + 1 >= need or len(remaining) == 1:
            f.choice = None  # done, or the last pick (as run() finds)
            env[self.name] = chosen if option == DONE else chosen + (option,)
            f.pc += 1
        else:
            i = remaining.index(option)
            rest = remaining[:i] + remaining[i + 1:]
            if distinct is not None:  # (kept for many cards: for a few, run() finds the
                # classes again at less cost than this looks for the picked one's next card)
                var, by = self.by_var, self.by  # (as run() finds the player)
                player = env[var] if var is not None else by(g, env) if by is not None \
                    else env.get("you", g.turn_player)
                distinct = vm.distinct_after(g, rest, i, distinct, option, player)
            f.choice = (rest, need, chosen + (option,), distinct)
        if f.pc < len(f.code):  # go on: the next pick, or what follows the choice (vm.answer's
            f.code[f.pc].run(g, f)  # run loop takes it from there)


class ChooseValue(Instr):
    """Pick one value that is not a card: `options(g, env)` gives the Picks (engine/picks.py),
    fixed when the choice starts. With one option it is taken without asking; with none the
    name is bound to none. `prompt(g, env)` says what the choice is for."""

    __slots__ = ("name", "options", "by", "prompt")

    def __init__(self, name: str, options: Fn, by: Fn | None, prompt: Fn) -> None:
        self.name, self.options, self.by, self.prompt = name, options, by, prompt

    def run(self, g: GameState, f: Frame) -> None:
        picks = self.options(g, f.env)
        if len(picks) > 1:
            player = self.by(g, f.env) if self.by else f.env.get("you", g.turn_player)
            vm.ask(g, player, "choose", picks, self.prompt(g, f.env))
            return
        self.resume(g, f, picks[0] if picks else None)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        f.env[self.name] = None if option is None else option.value
        f.pc += 1


class ChooseMode(Instr):
    """`choose one`: ask which mode runs (Picks of the modes' indexes) and go to its code;
    each mode's code ends by jumping past the others."""

    __slots__ = ("modes", "starts", "by", "prompt")

    def __init__(self, modes: tuple, starts: tuple[int, ...], by: Fn | None,
                 prompt: Fn) -> None:
        self.modes, self.starts, self.by, self.prompt = modes, starts, by, prompt

    def run(self, g: GameState, f: Frame) -> None:
        player = self.by(g, f.env) if self.by else f.env.get("you", g.turn_player)
        vm.ask(g, player, "choose", self.modes, self.prompt(g, f.env))

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        f.pc = self.starts[option.value]


class May(Instr):
    """Ask yes/no; on no, jump past the optional block."""

    __slots__ = ("by", "skip", "prompt")

    def __init__(self, by: Fn | None, skip: int, prompt: str) -> None:
        self.by, self.skip, self.prompt = by, skip, prompt

    def run(self, g: GameState, f: Frame) -> None:
        player = self.by(g, f.env) if self.by else f.env.get("you", g.turn_player)
        vm.ask(g, player, "may", (True, False), self.prompt)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        f.pc = f.pc + 1 if option else self.skip


class CallVerb(Instr):
    """Call a ruleset verb: bind its parameters, honour prohibitions and replacements."""

    __slots__ = ("verb", "params")

    def __init__(self, verb: str, params: Fn) -> None:
        self.verb, self.params = verb, params  # params(g, env): a new dict, name -> value

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        g.game.callers[self.verb](g, self.params(g, f.env), f.env)  # (vm.call_verb, inlined)


class CallFromEnv(Instr):
    """Call the verb named in the env with parameters already evaluated (one card of an `each`)."""

    __slots__ = ()

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        vm.call_verb(g, f.env["#verb"], dict(f.env["#params"]), f.env)


class Modify(Instr):
    """Add a modifier to each target card; the value is fixed now."""

    __slots__ = ("target", "prop", "op", "value", "until")

    def __init__(self, target: Fn, prop: str, op: str, value: Fn, until: str | None) -> None:
        self.target, self.prop, self.op, self.value, self.until = target, prop, op, value, until

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        self.apply(g, f.env)

    def apply(self, g: GameState, env: dict) -> None:
        value = self.value(g, env)
        if value is None:
            return
        for cid in vm.as_cards(g, self.target(g, env)):
            g.clock += 1
            g.mods.append((cid, self.prop, self.op, value, self.until, g.clock))
        g.version += 1
        g.marks["@mods"] = g.version
        vm.check_end(g, "@mods")


class Settle(Instr):
    """A timing point: triggered abilities waiting now resolve before the code goes on."""

    __slots__ = ()

    @inline_settle
    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        if needs_settling(g):
            vm.settle_point(g)


class Together(Instr):
    """Open or close a `simultaneously` block; closing it runs the deferred win/loss checks."""

    __slots__ = ("opening",)

    def __init__(self, opening: bool) -> None:
        self.opening = opening

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        g.atomic += 1 if self.opening else -1
        if not self.opening:
            vm.check_end(g)


class Emit(Instr):
    """Announce that a verb or action happened, so triggers can see it."""

    __slots__ = ("event", "fields", "ref")

    def __init__(self, event: str, fields: tuple[str, ...], ref: str = "") -> None:
        self.event, self.fields, self.ref = event, fields, ref

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        if self.event not in g.heard:  # (quiet, inlined)
            return
        env = f.env
        if not vm.quiet(g, self.event, env.get("#live"), changed=False):
            vm.emit(g, self.event, {k: env.get(k) for k in self.fields},
                    lookback=env.get("#live", ()), ref=self.ref, changed=False)
