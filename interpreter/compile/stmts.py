"""Statements -> a flat tuple of VM instructions (jumps for if/for/repeat/may).

A run of statements that cannot decide also becomes one generated Python function (see
compile/straight.py): a `Straight` instruction placed before the run's VM instructions, where
the VM goes on when a verb the run calls leaves code to run first (a replacement, a choice)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from interpreter.check.effects import PROMPT_TYPES
from interpreter.compile.describe import describe, mode_label
from interpreter.compile.exprs import Const, ExprCompiler, Fn
from interpreter.compile.names import Names
from interpreter.compile.straight import InlineVerb, PyGen
from interpreter.engine import instructions as I
from interpreter.engine import picks
from interpreter.engine.delayed import Delay
from interpreter.engine.model import AbilityDef
from interpreter.engine.primitives import FRAMING, HANDING, PRIMITIVES, Param
from interpreter.engine.state import GameState
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker
from interpreter.words.phrases import Asked

_keys = itertools.count()
_BARE_WORD_TYPES = {"state", "name", "text", "action"}


class StmtCompiler(Walker):
    def __init__(self, names: Names, verb_defaults: dict[str, dict[str, A.Expr]] | None = None,
                 reference: bool = False) -> None:
        self.names = names
        # the reference path: every statement a VM instruction, no generated run (engine/kernel.py)
        self.reference = reference
        self.exprs = ExprCompiler(names)
        self.verb_defaults = verb_defaults if verb_defaults is not None else {}
        self.context = ""  # what is being compiled (a verb, action or card): shown in prompts
        # the questions the texts ask, by their engine prompt, for the words module
        # (words/phrases.Asked); `at`: the YAML path of the text being compiled (None: a card's)
        self.asked: dict[Any, Asked] = {}
        self.at: tuple | None = None
        self.words: set[A.Name] = set()  # bare names the checker read as words
        # verbs their callers' straight code can run inline (the INLINE rung: instructions.Speed)
        self.inlinable: dict[str, InlineVerb] = {}
        self.modified: set[str] = set()  # properties some text modifies (others read faster)
        self.deciding: set[str] = set()  # verbs known to decide (or to start other code)
        self.offered: set[str] = set()  # actions a primitive names (offer(player, ACTION))
        # while compiling a run's VM instructions: what its function needs to hand over to
        # them midway (each loop's env key; after each verb call, where the VM goes on)
        self.sites: list | None = None
        # delayed triggers (engine/delayed.py): the events they wait for, in any text; those of
        # the card being built, each with the ability it adds to the card (None: not a card's
        # text); and those found in the ruleset's texts (where, span): an error
        self.delayed_events: set[str] = set()
        self.delays: list[tuple[Delay, AbilityDef]] | None = None
        self.misplaced: list[tuple[tuple | None, Any]] = []

    def body(self, stmts: A.Body, head: tuple = (), tail: tuple = ()) -> tuple:
        """`head` and `tail`: instructions (events) before and after the statements."""
        code: list = []
        self._items((*head, *stmts, *tail), code)
        return tuple(code)

    def verb_compiled(self, name: str, body: tuple) -> None:
        """Note whether a verb's body is one closed straight run: calls to a verb that is not
        end the runs of the code compiled after it."""
        if not I.closed_run(body):
            self.deciding.add(name)

    def _items(self, items: tuple, code: list) -> None:
        if self.sites is not None:
            for s in items:
                self._item(s, code)
            return
        i = 0
        while i < len(items):
            j = i
            while j < len(items) and self.straight(items[j]):
                j += 1
            open_end = j < len(items) and _framing(items[j])  # it may end a run
            run = items[i:j + open_end]
            if run and (len(run) == len(items) or len(run) > 1 or _compound(run[0])):
                self._run(run, code, open_end)
                i += len(run)
            else:
                self._item(items[i], code)
                i += 1

    def _run(self, run: tuple, code: list, open_end: bool) -> list:
        """The run's Straight and its VM instructions; returns its sites (see PyGen). The
        statements after a window offered (HANDING) are a run again, where the VM goes on
        when it opened (a response window: some rulesets open one at every declaration)."""
        at = len(code)
        code.append(None)
        sites = self.sites = []
        try:
            for k, s in enumerate(run):
                self._item(s, code)
                rest = run[k + 1:]
                if _handing(s) and (len(rest) > 1 or rest and _compound(rest[0])):
                    sites += self._run(rest, code, open_end)
                    break
            make, verbs = PyGen(self, sites).function(run)
        finally:
            self.sites = None
        code[at] = I.Straight(make, verbs, len(code), open_end)
        return sites

    def straight(self, s: Any) -> bool:
        """Decision-free: no choice, no timing point, no code started for later; but a
        window offered (HANDING), after which the run goes on, handing over when it opened."""
        if self.reference:
            return False
        if isinstance(s, I.Instr):
            return isinstance(s, I.Emit)
        if isinstance(s, A.Call):
            return s.name not in FRAMING and s.name not in self.deciding
        if isinstance(s, A.If):
            return all(map(self.straight, s.then)) and all(map(self.straight, s.orelse))
        if isinstance(s, (A.ForEach, A.Repeat, A.Together)):
            return all(map(self.straight, s.body))
        return isinstance(s, (A.Let, A.Modify))

    stmt: Dispatch[None] = Dispatch(A.Stmt)  # (statement, the code it is compiled into)

    def _item(self, s: Any, code: list) -> None:
        if isinstance(s, I.Instr):
            code.append(s)
        else:
            self.stmt(s, code)

    def _block(self, stmts: A.Body, code: list) -> None:
        self._items(stmts, code)

    def call_parts(self, s: A.Call) -> tuple[Any, list]:
        """A primitive's function (or a verb's name) and its argument values, in order."""
        params = self.names.params_of(s.name) or ()
        bound = self.bind(s, params)
        if s.name in PRIMITIVES:
            prim = PRIMITIVES[s.name]
            return prim.fn, [bound.get(p.name) or Const(p.default) for p in prim.params
                             if p.name in bound or p.default is not ...]
        defaults = self.verb_defaults.get(s.name, {})
        return s.name, [bound.get(p.name) or defaults.get(p.name) or Const(None) for p in params]

    @stmt.on(A.Call)
    def _call(self, s: A.Call, code: list) -> None:
        fn, values = self.call_parts(s)
        if s.name in PRIMITIVES:
            code.append(I.Exec(self.exprs.compile_call(fn, values)))
            bound = self.bind(s, PRIMITIVES[s.name].params)
            self.offered.update(v.value for p in PRIMITIVES[s.name].params
                                if p.type == "action" and isinstance(v := bound.get(p.name), Const))
            if s.name in HANDING and self.sites is not None:  # (it may hand over: a verb call)
                self.sites.append(len(code))
        else:
            code.append(I.CallVerb(s.name, self.exprs.compile_params(
                self.names.params_of(s.name) or (), values)))
            if self.sites is not None:
                self.sites.append(len(code))

    def bind(self, call: A.Call, params: tuple[Param, ...]) -> dict[str, A.Expr | Const]:
        """Arguments by position then by name; bare words for state/name/text parameters."""
        bound: dict[str, A.Expr | Const] = {}
        by_name = {p.name: p for p in params}
        for i, arg in enumerate(call.args):
            param = by_name.get(arg.name) if arg.name else (params[i] if i < len(params) else None)
            if param is None:
                continue
            if param.type in _BARE_WORD_TYPES and arg.value in self.words:
                bound[param.name] = Const(arg.value.id)
            else:
                bound[param.name] = arg.value
        return bound

    @stmt.on(A.If)
    def _if(self, s: A.If, code: list) -> None:
        at = len(code)
        code.append(None)
        self._block(s.then, code)
        if s.orelse:
            jump = len(code)
            code.append(None)
            code[at] = I.JumpIfNot(self.exprs.compile(s.cond), len(code))
            self._block(s.orelse, code)
            code[jump] = I.Jump(len(code))
        else:
            code[at] = I.JumpIfNot(self.exprs.compile(s.cond), len(code))

    @stmt.on(A.May)
    def _may(self, s: A.May, code: list) -> None:
        at = len(code)
        code.append(None)
        self._block(s.body, code)
        by = self.exprs.compile(s.by) if s.by else None
        what = describe(s.body) or "do nothing"
        code[at] = I.May(by, len(code), f"{self._where()}may {what}?")
        self._asked(code[at].prompt, s, "")

    @stmt.on(A.Choose)
    def _choose(self, s: A.Choose, code: list) -> None:
        by_var = self.exprs.variable(s.by) if s.by else None  # (read without a call)
        by = self.exprs.compile(s.by) if s.by and by_var is None else None
        prompt = s.prompt.text if s.prompt else self._where() + describe((s,))
        fill = self._prompt(s.prompt, prompt) if s.prompt and PROMPT_TYPES.get(s.prompt) \
            else None
        code.append(I.Choose(s.name, self.exprs.compile(s.count), self.exprs.compile(s.source),
                             by, s.up_to, prompt, by_var, fill))
        self._asked(fill if fill is not None else prompt, s, s.name)

    @stmt.on(A.ChooseValue)
    def _choose_value(self, s: A.ChooseValue, code: list) -> None:
        by = self.exprs.compile(s.by) if s.by else None
        prompt = self._prompt(s.prompt, self._where() + describe((s,)))
        code.append(I.ChooseValue(s.name, self._value_options(s), by, prompt))
        self._asked(getattr(prompt, "said", prompt), s, s.name)

    def _value_options(self, s: A.ChooseValue) -> Callable[[GameState, dict], tuple]:
        """The options of a `choose number|zone|player`, made when it is asked."""
        if s.high is not None:
            low, high = self.exprs.compile(s.source), self.exprs.compile(s.high)
            return lambda g, env: picks.numbers(low(g, env), high(g, env))
        pick = picks.zones if s.kind == "zone" else picks.players
        if not isinstance(s.source, A.Filter):
            source = self.exprs.compile(s.source)
            return lambda g, env: pick(source(g, env))
        # `zones(...) where count(it) < 2`: the options for which the condition holds
        f = s.source
        values, keeps = self.exprs.compile(f.source), self.exprs.compile(f.cond)
        names = ("it", f.name) if f.name else ("it",)
        return lambda g, env: tuple(o for o in pick(values(g, env))
                                    if keeps(g, {**env, **dict.fromkeys(names, o.value)}))

    @stmt.on(A.ChooseMode)
    def _choose_mode(self, s: A.ChooseMode, code: list) -> None:
        """The question, then each mode's code, each but the last jumping past the others."""
        at = len(code)
        code.append(None)
        starts, jumps = [], []
        for m in s.modes:
            starts.append(len(code))
            self._block(m.body, code)
            jumps.append(len(code))
            code.append(None)
        code.pop()  # (the last mode goes on after the choice)
        for j in jumps[:-1]:
            code[j] = I.Jump(len(code))
        modes = tuple(picks.Pick(i, mode_label(m)) for i, m in enumerate(s.modes))
        by = self.exprs.compile(s.by) if s.by else None
        prompt = self._prompt(s.prompt, f"{self._where()}choose one")
        code[at] = I.ChooseMode(modes, tuple(starts), by, prompt)
        self._asked(getattr(prompt, "said", prompt), s, "")

    def _prompt(self, prompt: A.Prompt | None, default: str) -> Fn:
        """What a choice asks: its own prompt with the variables it names filled in, else
        `default` (or its own when it names none: a text, `said`)."""
        if prompt is None or not PROMPT_TYPES.get(prompt):
            return _Fixed(default if prompt is None else prompt.text)
        return picks.prompt_maker(prompt.text, PROMPT_TYPES.get(prompt, ()))

    def _asked(self, prompt: Any, s: A.Stmt, var: str) -> None:
        """Note the question for the words module: its phrase key is `context.var`."""
        key = f"{self.context}.{var}" if var else self.context
        self.asked[prompt] = Asked(key, s, self.at)

    def _where(self) -> str:
        return f"{self.context}: " if self.context else ""

    @stmt.on(A.ForEach)
    def _foreach(self, s: A.ForEach, code: list) -> None:
        self._loop(s, self.exprs.compile(s.source), False, s.name, code)

    @stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat, code: list) -> None:
        self._loop(s, self.exprs.compile(s.count), True, None, code)

    def _loop(self, s: A.ForEach | A.Repeat, source: Fn, count: bool, name: str | None,
              code: list) -> None:
        """A loop's instructions. In a run's, when its body may hand over, once a pass is over
        the VM goes on with the next ones as a function (PyGen.rest), not an IterNext: a
        hand-over in a loop (a window that opened) leaves no more than that pass to the VM."""
        key = f"#i{next(_keys)}"
        sites = self.sites
        if sites is not None:
            first = len(sites)
            sites.append(key)
        head = len(code)
        code.append(None)
        self._block(s.body, code)
        end = len(code) + 1
        if sites is None or len(sites) == first + 1:  # (nothing in it hands over)
            code.append(I.IterNext(key, name, head + 1, end))
        else:
            code.append(I.Straight(*PyGen(self, sites[first:]).rest(s, key), end, False))
        code[head] = I.IterInit(key, source, count, name, end)

    @stmt.on(A.Let)
    def _let(self, s: A.Let, code: list) -> None:
        code.append(I.Let(s.name, self.exprs.compile(s.value)))

    @stmt.on(A.Modify)
    def _modify(self, s: A.Modify, code: list) -> None:
        code.append(self.modify(s))

    def modify(self, s: A.Modify) -> I.Modify:
        self.modified.add(s.prop)
        return I.Modify(self.exprs.compile(s.target), s.prop, s.op,
                        self.exprs.compile(s.value), s.until)

    @stmt.on(A.Settle)
    def _settle(self, s: A.Settle, code: list) -> None:
        code.append(I.Settle())

    @stmt.on(A.Delayed)
    def _delayed(self, s: A.Delayed, code: list) -> None:
        """A delayed trigger: the statement sets it up; its body becomes an ability of the card
        whose text holds it (compile/cards.py adds `delays` to the card)."""
        instr = Delay(s.event, None if s.cond is None else self.exprs.compile(s.cond))
        body = self.body(s.body)
        self.delayed_events.add(s.event)
        if self.delays is None:
            self.misplaced.append((self.at, s.span))
        else:
            text = f"at next {s.event}" + ("" if s.cond is None else " (where ...)")
            self.delays.append((instr, AbilityDef("delayed", s.event, None, (), body, text=text)))
        code.append(instr)

    @stmt.on(A.Together)
    def _together(self, s: A.Together, code: list) -> None:
        code.append(I.Together(True))
        self._block(s.body, code)
        code.append(I.Together(False))

    def modifier(self, s: A.Modify) -> tuple:
        self.modified.add(s.prop)
        return (self.exprs.compile(s.target), s.prop, s.op, self.exprs.compile(s.value))


def _framing(s: Any) -> bool:
    return isinstance(s, A.Call) and s.name in FRAMING


def _handing(s: Any) -> bool:
    return isinstance(s, A.Call) and s.name in HANDING


def _compound(s: Any) -> bool:
    """Worth a run of its own: a block, or a verb call (run without a frame)."""
    return isinstance(s, (A.If, A.ForEach, A.Repeat, A.Together)) \
        or isinstance(s, A.Call) and s.name not in PRIMITIVES


class _Fixed:
    """A prompt that names no variable: the same text at every decision."""

    __slots__ = ("said",)

    def __init__(self, said: str) -> None:
        self.said = said

    def __call__(self, g: GameState, env: dict) -> str:
        return self.said
