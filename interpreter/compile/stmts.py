"""Statements -> a flat tuple of VM instructions (jumps for if/for/repeat/may)."""

from __future__ import annotations

import itertools
from typing import Any

from interpreter.compile.exprs import Const, ExprCompiler, Fn
from interpreter.compile.names import Names
from interpreter.engine import instructions as I
from interpreter.engine.primitives import PRIMITIVES, Param
from interpreter.lang import ast as A

_keys = itertools.count()
_BARE_WORD_TYPES = {"state", "name", "text", "action"}


class StmtCompiler:
    def __init__(self, names: Names, verb_defaults: dict[str, dict[str, A.Expr]] | None = None
                 ) -> None:
        self.names = names
        self.exprs = ExprCompiler(names)
        self.verb_defaults = verb_defaults if verb_defaults is not None else {}
        self.context = ""  # what is being compiled (a verb, action or card): shown in prompts
        self.words: set[A.Name] = set()  # bare names the checker read as words
        self.modified: set[str] = set()  # properties some text modifies (others read faster)

    def body(self, stmts: A.Body, head: tuple = (), tail: tuple = ()) -> tuple:
        code: list = list(head)
        for s in stmts:
            self._stmt(s, code)
        code.extend(tail)
        return tuple(code)

    def _stmt(self, s: Any, code: list) -> None:
        getattr(self, "_" + type(s).__name__.lower())(s, code)

    def _block(self, stmts: A.Body, code: list) -> None:
        for s in stmts:
            self._stmt(s, code)

    def _call(self, s: A.Call, code: list) -> None:
        params = self.names.params_of(s.name) or ()
        bound = self.bind(s, params)
        if s.name in PRIMITIVES:
            prim = PRIMITIVES[s.name]
            values = [bound.get(p.name) or Const(p.default) for p in prim.params
                      if p.name in bound or p.default is not ...]
            code.append(I.Exec(self.exprs.compile_call(prim.fn, values)))
        else:
            defaults = self.verb_defaults.get(s.name, {})
            values = [bound.get(p.name) or defaults.get(p.name) or Const(None) for p in params]
            code.append(I.CallVerb(s.name, self.exprs.compile_params(
                tuple(p.name for p in params), values)))

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

    def _may(self, s: A.May, code: list) -> None:
        at = len(code)
        code.append(None)
        self._block(s.body, code)
        by = self.exprs.compile(s.by) if s.by else None
        first = s.body[0] if s.body else None
        what = f"{first.name}(...)" if isinstance(first, A.Call) else "the optional effect"
        code[at] = I.May(by, len(code), f"{self._where()}may {what}?")

    def _choose(self, s: A.Choose, code: list) -> None:
        by = self.exprs.compile(s.by) if s.by else None
        prompt = f"{self._where()}choose {'up to ' if s.up_to else ''}{_count_text(s.count)} " \
                 f"({s.name})"
        code.append(I.Choose(f"#c{next(_keys)}", s.name, self.exprs.compile(s.count),
                             self.exprs.compile(s.source), by, s.up_to, prompt))

    def _where(self) -> str:
        return f"{self.context}: " if self.context else ""

    def _foreach(self, s: A.ForEach, code: list) -> None:
        self._loop(self.exprs.compile(s.source), False, s.name, s.body, code)

    def _repeat(self, s: A.Repeat, code: list) -> None:
        self._loop(self.exprs.compile(s.count), True, None, s.body, code)

    def _loop(self, source: Fn, count: bool, name: str | None, body: A.Body, code: list) -> None:
        key = f"#i{next(_keys)}"
        head = len(code)
        code.append(None)
        self._block(body, code)
        end = len(code) + 1
        code.append(I.IterNext(key, name, head + 1, end))
        code[head] = I.IterInit(key, source, count, name, end)

    def _let(self, s: A.Let, code: list) -> None:
        code.append(I.Let(s.name, self.exprs.compile(s.value)))

    def _modify(self, s: A.Modify, code: list) -> None:
        self.modified.add(s.prop)
        code.append(I.Modify(self.exprs.compile(s.target), s.prop, s.op,
                             self.exprs.compile(s.value), s.until))

    def _settle(self, s: A.Settle, code: list) -> None:
        code.append(I.Settle())

    def _together(self, s: A.Together, code: list) -> None:
        code.append(I.Together(True))
        self._block(s.body, code)
        code.append(I.Together(False))

    def modifier(self, s: A.Modify) -> tuple:
        self.modified.add(s.prop)
        return (self.exprs.compile(s.target), s.prop, s.op, self.exprs.compile(s.value))


def _count_text(count: A.Expr) -> str:
    return str(count.value) if isinstance(count, A.Num) else "some"

