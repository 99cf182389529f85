"""Decision-free statements -> one generated Python function `fn(g, env)`.

A run of statements with no choice, no `may`, no `settle` and nothing started for later
runs as plain Python: loops are Python loops, expressions are inlined as source (as in
exprs.py), primitives are direct calls (a move, a set, a change or a flip: of the game's
function for its zone, state, name or face), and a ruleset verb is called through the
game's caller of it (vm.callers, as vm.call_verb), which runs a verb whose body is itself
such a function without a frame.

The run's VM instructions follow its Straight instruction. When a verb call leaves code to
run first (a card replaces the verb, or the verb decides), or a window it offered opened
(primitives.HANDING), the function hands over: it stores each enclosing loop's position in
the env as the loop instructions keep it and returns the index of the instruction after
that call, where the VM goes on once that code has run, exactly as if the whole run had
been VM instructions (but for a loop's next passes, a function again: PyGen.rest).

A call of a verb on the ladder's INLINE rung (instructions.Speed: Game.inline_verbs, its body
an InlineVerb) runs inline, with no caller, no env and no call of the verb's own function;
otherwise it goes through the caller as any other.

The function is made at its first run, once every card is compiled: a property no text
modifies is then read as its printed value inline (exprs.printed_reads).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, Union

from interpreter.compile.exprs import Const, Fn, _conjuncts, _Generator, _impure, printed_reads
from interpreter.engine import instructions as I
from interpreter.engine import limits, vm
from interpreter.engine.primitives import FRAMING, HANDING, PRIMITIVES, Param
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker

# The statements straight code is written for (StmtCompiler.straight decides which may be)
STRAIGHT = Union[A.Call, A.If, A.ForEach, A.Repeat, A.Let, A.Modify, A.Together]  # noqa: UP007


if TYPE_CHECKING:
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import Names


class StmtOwner(Protocol):
    """What straight code asks of the statement compiler that owns it (compile/stmts.py's
    StmtCompiler, which imports this module: the owner is known by what it offers)."""

    names: Names
    exprs: ExprCompiler
    words: set[A.Name]
    inlinable: dict[str, InlineVerb]

    def call_parts(self, s: A.Call) -> tuple[Any, list]: ...

    def modify(self, s: A.Modify) -> I.Modify: ...

_RUNTIME = {"_emit": vm.emit, "_quiet": vm.quiet, "_check_end": vm.check_end}

# primitives whose work the game's function for a state, a name or a face (a bare word)
# does (primitives.setters, numbers, flippers): the game's table of them
_MADE_PER_GAME = {"set": "setters", "change": "changers", "assign": "assigners",
                  "flip": "flippers"}
_ENGINE_NAMES = frozenset({"you", "opponent", "self", "it"})


@dataclass(frozen=True)
class InlineVerb:
    """A verb whose calls the generated code of its callers runs inline, when the game finds
    the verb is on the INLINE rung (Game.inline_verbs): its body calls primitives and such
    verbs only (run inline in turn). Its parameters, loop variables and
    `let`s are Python locals there."""

    params: tuple[Param, ...]
    each: str | None
    event: str
    ref: str
    body: A.Body
    words: set  # the bare names the checker read as words in its text
    names: tuple[str, ...]  # the variables the body binds (for each, let)
    did: A.Expr | None = None  # the condition its event waits for (the verb's `did`)


def inline_verb(params: tuple[Param, ...], each: str | None, event: str, ref: str, body: A.Body,
         words: set, leaves: Collection[str], did: A.Expr | None = None) -> InlineVerb | None:
    """The verb as an InlineVerb, or None: its body must be straight, call no verb but `leaves` and
    start nothing (no framing primitive), add no modifier (compiled apart, it would read the
    env), and bind each variable once, under a name of its own."""
    names: list[str] = []
    if not all(_inline_stmt(s, names, leaves) for s in body):
        return None
    taken = [p.name for p in params] + names
    if len(set(taken)) != len(taken) or _ENGINE_NAMES & set(taken):
        return None
    return InlineVerb(params, each, event, ref, body, words, tuple(names), did)


def _inline_stmt(s: Any, names: list[str], leaves: Collection[str]) -> bool:
    if isinstance(s, A.Call):
        return s.name in leaves if s.name not in PRIMITIVES \
            else s.name not in FRAMING and s.name not in HANDING
    if isinstance(s, A.If):
        return all(_inline_stmt(x, names, leaves) for x in (*s.then, *s.orelse))
    if isinstance(s, (A.ForEach, A.Let)):
        names.append(s.name)
    if isinstance(s, (A.ForEach, A.Repeat, A.Together)):
        return all(_inline_stmt(x, names, leaves) for x in s.body)
    return isinstance(s, A.Let)


class PyGen(Walker):
    """Builds the source of one run of statements; constants go into its namespace.

    `sites`: what the run's VM instructions need at a hand-over, in the order the statement
    compiler met them: a loop's env key, or the index following a verb call."""

    def __init__(self, owner: StmtOwner, sites: list) -> None:
        self.owner = owner
        self.sites: Iterator = iter(sites)
        self.gen = _Generator(owner.exprs)
        self.gen.namespace.update(_RUNTIME)
        self.lines: list[str] = []
        self.loops: list[tuple[str, str]] = []  # enclosing loops: (env key, saved position)
        self.verbs: set[str] = set()  # the verbs the run calls
        self.calls = 0  # verb calls generated so far
        self.inline = False  # generating an inline verb's body (see InlineVerb)

    def function(self, run: tuple) -> tuple[Callable[[], Fn], frozenset[str]]:
        """A maker of the run's function (Python compiles it on the first run: a game runs
        only part of its code, and a game is built at every start), and the verbs it calls."""
        self._block(run, 1)
        return self._made()

    def rest(self, s: A.ForEach | A.Repeat, key: str) -> tuple[Callable[[], Fn], frozenset[str]]:
        """The passes of a loop in a run after the one the VM runs (its items and next pass
        in the env under `key`, as IterNext finds them): where the VM goes on with the loop
        after a hand-over in it (see StmtCompiler._loop), as a function of its own."""
        n = len(self.lines)
        self._line(1, f"_s{n}, _i{n} = env[{key!r}]")
        if isinstance(s, A.ForEach):
            self._loop(n, s, 1, f"_c{n}", f"_s{n}[_i{n}:]", f"enumerate(_s{n}[_i{n}:], _i{n})",
                       f"(_s{n}, _n{n} + 1)")
        else:
            passes = f"range(_i{n}, len(_s{n}))"
            self._loop(n, s, 1, "_", passes, passes, f"(_s{n}, _n{n} + 1)")
        return self._made()

    def _made(self) -> tuple[Callable[[], Fn], frozenset[str]]:
        if next(self.sites, None) is not None:
            raise AssertionError("a run's function and its instructions disagree")
        source = "".join(self.lines)
        namespace, printed = self.gen.namespace, self.owner.exprs.printed_later

        def make() -> Fn:
            body = printed_reads(source, printed)
            head = "    R = g.game.readers\n" if "R[" in body else ""
            code = compile(f"def _straight(g, env):\n{head}{body}", "<straight code>", "exec")
            exec(code, namespace)  # noqa: S102
            return namespace["_straight"]

        return make, frozenset(self.verbs)

    def _line(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text + "\n")

    def _block(self, items: Any, depth: int) -> None:
        start = len(self.lines)
        for s in items:
            self._item(s, depth)
        if len(self.lines) == start:
            self._line(depth, "pass")

    def _expr(self, node: A.Expr) -> str:
        return self.gen.sub(node, False, False)

    # (the statements a straight run may hold: StmtCompiler.straight)
    stmt: Dispatch[None] = Dispatch(STRAIGHT)  # (statement, indentation depth)

    def _item(self, s: Any, depth: int) -> None:
        if isinstance(s, I.Emit):
            self._emit(s, depth)
        else:
            self.stmt(s, depth)

    def _emit(self, s: I.Emit, depth: int) -> None:
        """As the Emit instruction: an announcement (the state's version stays), with no
        fields gathered when nobody hears it. (Inline, nothing looks back: see inline_verbs.)"""
        fields = ", ".join(f"{k!r}: {self._variable(k)}" for k in s.fields)
        live, lives = ("None", "()") if self.inline else ("env.get('#live')",
                                                          "env.get('#live', ())")
        self._line(depth, f"if {s.event!r} in g.heard "
                          f"and not _quiet(g, {s.event!r}, {live}, False):")
        self._line(depth + 1, f"_emit(g, {s.event!r}, {{{fields}}}, {lives}, "
                              f"{s.ref!r}, changed=False)")

    def _variable(self, name: str) -> str:
        if name in self.gen.args:
            return self.gen.args[name]
        return f"env[{name!r}]" if name in self.owner.exprs.bound else f"env.get({name!r})"

    @stmt.on(A.Call)
    def _call(self, s: A.Call, depth: int) -> None:
        fn, values = self.owner.call_parts(s)
        if s.name in PRIMITIVES:
            zone = self._unfiltered(s.name, values)
            if zone is not None:  # (the zone's cards, as a tuple: no as_cards)
                self.gen.count += 1
                items = [f"_x{self.gen.count}", *self._arguments(values[1:], depth)]
                self._line(depth, f"{items[0]} = tuple({self.gen.cards(zone, False, False)})")
            else:
                items = self._arguments(values, depth)
            params = PRIMITIVES[s.name].params  # (the values': the first ones)
            items = [f"({i},)" if p.type == "cards" and self._card_local(v) == i else i
                     for p, v, i in zip(params, values, items, strict=False)]
            if s.name == "move":
                self._move(items, depth)
                return
            if s.name in _MADE_PER_GAME and isinstance(values[1], Const):  # (a bare word)
                self._line(depth, f"g.game.{_MADE_PER_GAME[s.name]}[{items[1]}](g, env"
                                  f"{''.join(', ' + i for i in items)})")
                return
            call = f"{self.gen.const(fn)}(g, env{''.join(', ' + i for i in items)})"
            if s.name in HANDING:  # (it may leave code to run first: as a verb call)
                self._hand_over(f"if {call}:", depth)
            else:
                self._line(depth, call)
            return
        if self.inline:  # a verb run inline calls inline verbs only (Game.inline_verbs)
            self._inline(self.owner.inlinable[s.name], values, depth)
            return
        self.verbs.add(s.name)
        args = self.gen.params(self.owner.names.params_of(s.name) or (), values)
        inline = self.owner.inlinable.get(s.name)
        if inline is not None:
            self._line(depth, f"if {s.name!r} in g.game.inline_verbs:")
            self._inline(inline, values, depth + 1)
            self._line(depth, "else:")
            depth += 1
        # (vm.call_verb, inlined: the game's caller of the verb)
        self._hand_over(f"if g.game.callers[{s.name!r}](g, {args}, env):", depth)

    def _card_local(self, value: Any) -> str | None:
        """The Python local a loop's card is read from (an int: given as a one-card tuple,
        a primitive takes it as is), or None."""
        return self.gen.locals.get(value.id) if isinstance(value, A.Name) else None

    def _unfiltered(self, name: str, values: list) -> A.Call | None:
        """The zone Z of `set(Z where S, S, false)` or `set(Z where not S, S)`: the setter
        passes over the cards already so, in order, so Z's cards can go to it as they are,
        with no loop to filter them first. None for any other call."""
        if name != "set" or not isinstance(f := values[0], A.Filter) or f.name is not None \
                or not (isinstance(f.source, A.Call) and f.source.name in self.owner.names.zones) \
                or not isinstance(values[1], Const) or not isinstance(values[2], (Const, A.Bool)):
            return None
        state, value, names = values[1].value, values[2].value, self.owner.names
        cond = f.cond if value is False else f.cond.operand if value is True \
            and _negated(f.cond) else None
        if isinstance(cond, A.Name) and cond.id == state and state in names.states \
                and not (state in self.gen.owner.printed or state in names.properties
                         or state in names.counters):  # (a filter reads the state's flag)
            return f.source
        return None

    def _hand_over(self, test: str, depth: int) -> None:
        """A call that may leave code to run first (`test`, true when it did): then hand
        over to the run's VM instructions, after the call."""
        self.calls += 1
        self._line(depth, test)
        for key, position in self.loops:
            self._line(depth + 1, f"env[{key!r}] = {position}")
        self._line(depth + 1, f"return {next(self.sites)}")

    def _arguments(self, values: list, depth: int) -> list[str]:
        """Sources of a primitive's arguments. A filter among them (or a count or existence
        of one) is computed by a loop on the lines before (a comprehension is a call of its
        own), unless an argument draws from the RNG (the order of evaluation would show)."""
        if _impure(tuple(v for v in values if not isinstance(v, Const))):
            return self.gen.values(values)
        out = []
        for v in values:
            self.gen.count += 1
            var = f"_x{self.gen.count}"
            lines = None if isinstance(v, Const) else self.gen.loop_lines(v, False, var)
            if lines is None:
                out += self.gen.values([v])
                continue
            for line in lines:
                self._line(depth, line)
            out.append(var)
        return out

    def _inline(self, verb: InlineVerb, values: list, depth: int) -> None:
        """An inline verb's call, as vm.call_verb runs it: the parameters evaluated in
        order (cards as a tuple), card by card for `each`, the body, its event."""
        gen, owner = self.gen, self.owner
        pure = not _impure(tuple(v for v in values if not isinstance(v, Const)))
        args: dict[str, str] = {}
        tuples = set()
        for p, value in zip(verb.params, values, strict=True):  # (in the caller's variables)
            gen.count += 1
            local = args[p.name] = f"_a{gen.count}"
            if p.type == "cards":
                tuples.add(local)
                if pure and self._cards_of(value, local, depth):
                    continue
            source = gen.values([value])[0]
            self._line(depth, f"{local} = {source}")
            if p.type == "cards" and source not in gen.tuples:  # (as_cards, inlined for one card)
                self._line(depth, f"if type({local}) is not tuple:")
                self._line(depth + 1,
                           f"{local} = ({local},) if type({local}) is int else as_cards(g, {local})")
        if verb.each is not None:
            gen.count += 1
            self._line(depth, f"for _e{gen.count} in {args[verb.each]}:")
            depth += 1
            self._line(depth, f"{args[verb.each]}_1 = (_e{gen.count},)")
            args[verb.each] += "_1"
            tuples.add(args[verb.each])
        for name in verb.names:  # (unset, a variable reads as nothing)
            gen.count += 1
            local = args[name] = f"_l{gen.count}"
            self._line(depth, f"{local} = None")
        saved = gen.args, gen.tuples, gen.locals, owner.words, self.inline
        gen.args, gen.tuples, gen.locals, owner.words, self.inline = \
            args, tuples, {}, verb.words, True  # (its own variables only)
        try:
            self._block(verb.body, depth)
            if verb.did is not None:  # (its event only when it did what it says)
                self._line(depth, f"if {self._condition(verb.did, depth)}:")
                depth += 1
            self._emit(I.Emit(verb.event, tuple(p.name for p in verb.params), verb.ref), depth)
        finally:
            gen.args, gen.tuples, gen.locals, owner.words, self.inline = saved

    def _cards_of(self, value: Any, local: str, depth: int) -> bool:
        """A zone's cards or a filter's, as a tuple into `local` (the zone's list read, the
        filter a loop: no as_cards); False for any other value."""
        if isinstance(value, A.Call) and value.name in self.owner.names.zones:
            self._line(depth, f"{local} = tuple({self.gen.cards(value, False, False)})")
            return True
        lines = self.gen.loop_lines(value, False, local) if isinstance(value, A.Filter) else None
        for line in lines or ():
            self._line(depth, line)
        return lines is not None

    def _move(self, items: list[str], depth: int) -> None:
        """primitives.move, inlined: the game's mover for the zone called directly, the
        arguments evaluated in order as for the call."""
        n = len(self.lines)
        cards, zone = f"_m{n}", f"_z{n}"
        self._line(depth, f"{cards}, {zone} = {items[0]}, {items[1]}")
        self._line(depth, f"if {zone} is not None:")  # (a zone of no one: nothing to do)
        self._line(depth + 1, f"g.game.movers[{zone}.name](g, env, {cards}, {zone}"
                              f"{''.join(', ' + i for i in items[2:])})")

    @stmt.on(A.If)
    def _if(self, s: A.If, depth: int) -> None:
        self._line(depth, f"if {self._condition(s.cond, depth)}:")
        self._block(s.then, depth + 1)
        if s.orelse:
            self._line(depth, "else:")
            self._block(s.orelse, depth + 1)

    def _condition(self, cond: A.Expr, depth: int) -> str:
        """An `if`'s condition, tested for truth only (no bool() around `and`, `or`, `not`).
        When a conjunct is the existence of a filter, the conjuncts are tested one by one
        into a flag, that one by a loop on the lines before (no generator: in CPython 3.11
        it costs a call and a resume per card), each only when those before hold."""
        terms = _conjuncts(cond)
        if _impure(cond) or not any(_exists(t) for t in terms):
            return self.gen.test(cond, False, False)
        flag = f"_t{len(self.lines)}"
        for i, term in enumerate(terms):
            inner = term.operand if _negated(term) else term
            at = depth if i == 0 else depth + 1
            if i:
                self._line(depth, f"if {flag}:")
            if not _exists(term):
                self._line(at, f"{flag} = {self.gen.test(term, False, False)}")
                continue
            self.gen.count += 1
            var = f"_x{self.gen.count}"
            for line in self.gen.loop_lines(inner, False, var) or ():
                self._line(at, line)
            self._line(at, f"{flag} = {'not ' if _negated(term) else ''}{var}")
        return flag

    @stmt.on(A.ForEach)
    def _foreach(self, s: A.ForEach, depth: int) -> None:
        n = len(self.lines)
        self._line(depth, f"_s{n} = {self._expr(s.source)}")
        self._line(depth, f"if type(_s{n}) is not tuple:")  # (as_cards only when not one)
        self._line(depth + 1, f"_s{n} = as_cards(g, _s{n})")
        self._line(depth, f"g.steps += len(_s{n})")  # (the match's passes: engine/limits.py)
        self._line(depth, f"if g.steps > {limits.MAX_PASSES}:")
        self._line(depth + 1, "_too_many_passes(g)")
        self._loop(n, s, depth, f"_c{n}", f"_s{n}", f"enumerate(_s{n})", f"(_s{n}, _n{n} + 1)")

    @stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat, depth: int) -> None:
        n = len(self.lines)
        self._line(depth, f"_s{n} = max({self._expr(s.count)} or 0, 0)")
        self._line(depth, f"g.steps += _s{n}")  # (the match's passes: engine/limits.py)
        self._line(depth, f"if g.steps > {limits.MAX_PASSES}:")
        self._line(depth + 1, "_too_many_passes(g)")
        moved = self._moved_tops(s)
        if moved is not None:  # the top n cards in one move (its mover's loop: one call)
            if not self.inline:
                next(self.sites)  # (the loop's env key: nothing in it hands over)
            zone, values = moved
            self._move([f"tuple({self.gen.cards(zone, False, False)}[:_s{n}])",
                        *self.gen.values(values)], depth)
            return
        self._loop(n, s, depth, "_", f"range(_s{n})", f"range(_s{n})",
                   f"(tuple(range(_s{n})), _n{n} + 1)")

    def _moved_tops(self, s: A.Repeat) -> tuple[A.Call, list] | None:
        """`repeat n { move(top(Z), D) }` as one move of the top n cards of Z: the zone Z and
        the move's other arguments, or None for another loop. Each pass moves the next card
        of Z, as the mover moves those cards one by one, when D is another zone (not Z
        again) whose capacity cannot refuse a card (a pass would try the same card again),
        and the players of Z and D are variables (the same at every pass)."""
        if len(s.body) != 1 or not isinstance(call := s.body[0], A.Call) or call.name != "move":
            return None
        values = self.owner.call_parts(call)[1]
        top, to = values[0], values[1]
        if not (isinstance(top, A.Call) and top.name == "top" and len(top.args) == 1
                and all(isinstance(v, Const) for v in values[2:])):
            return None
        zone, names = top.args[0].value, self.owner.names
        if not (isinstance(zone, A.Call) and isinstance(to, A.Call)) \
                or not all(z.name in names.zones and all(isinstance(a.value, A.Name) for a in z.args)
                           for z in (zone, to)) \
                or zone.name == to.name or to.name in names.capped:
            return None
        return zone, values[1:]

    def _loop(self, n: int, s: A.ForEach | A.Repeat, depth: int, var: str, items: str,
              numbered: str, position: str) -> None:
        """`for var in items`; with the pass number `_nN` (`numbered`) when the body calls a
        verb and so may hand over: `position` is then the loop's state as IterInit and
        IterNext keep it (items, next index). Inline, the variable is a local."""
        if self.inline:  # (in the body, a card: an int, read as a comprehension's card)
            target = self.gen.args[s.name] if isinstance(s, A.ForEach) else var
            self._line(depth, f"for {target} in {items}:")
            if isinstance(s, A.ForEach):
                self.gen.locals[s.name] = target
            self._block(s.body, depth + 1)
            if isinstance(s, A.ForEach):
                del self.gen.locals[s.name]
            return
        key = next(self.sites)
        head = len(self.lines)
        self.lines.append("")  # the `for` line, once the body is known
        name = s.name if isinstance(s, A.ForEach) else None
        # the body reads the card from the local (an int: its fields inline)
        local = name if name is not None and not _binds(s.body, name) else None
        if name is not None:  # (kept in the env: what follows the loop may read it)
            self._line(depth + 1, f"env[{name!r}] = {var}")
        if local is not None:
            outer = self.gen.locals.get(local)
            self.gen.locals[local] = var
        self.loops.append((key, position))
        calls = self.calls
        self._block(s.body, depth + 1)
        self.loops.pop()
        if local is not None:
            if outer is None:
                del self.gen.locals[local]
            else:
                self.gen.locals[local] = outer
        if self.calls != calls:
            target, items = (f"_n{n}" if var == "_" else f"_n{n}, {var}"), numbered
        else:
            target = var
        self.lines[head] = "    " * depth + f"for {target} in {items}:\n"

    @stmt.on(A.Let)
    def _let(self, s: A.Let, depth: int) -> None:
        target = self.gen.args[s.name] if self.inline else f"env[{s.name!r}]"
        self._line(depth, f"{target} = {self._expr(s.value)}")

    @stmt.on(A.Modify)
    def _modify(self, s: A.Modify, depth: int) -> None:
        self._line(depth, f"{self.gen.const(self.owner.modify(s))}.apply(g, env)")

    @stmt.on(A.Together)
    def _together(self, s: A.Together, depth: int) -> None:
        """As the Together instructions: win/loss checks wait for the end of the block."""
        self._line(depth, "g.atomic += 1")
        self._block(s.body, depth)
        self._line(depth, "g.atomic -= 1")
        self._line(depth, "_check_end(g)")


def _negated(term: A.Expr) -> TypeGuard[A.Unary]:
    return isinstance(term, A.Unary) and term.op == "not"


def _exists(term: A.Expr) -> bool:
    """`exists(S where C)` or its negation: a loop (_Generator.loop_lines)."""
    inner = term.operand if _negated(term) else term
    return isinstance(inner, A.Call) and inner.name == "exists" and len(inner.args) == 1 \
        and isinstance(f := inner.args[0].value, A.Filter) and f.name is None


def _binds(body: tuple, name: str) -> bool:
    """Some statement of `body` (at any depth) binds `name` again (`let`, `for each`)."""
    for s in body:
        if isinstance(s, (A.Let, A.ForEach)) and s.name == name:
            return True
        inner = (*s.then, *s.orelse) if isinstance(s, A.If) else getattr(s, "body", ())
        if isinstance(inner, tuple) and _binds(inner, name):
            return True
    return False
