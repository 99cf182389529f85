"""Expressions -> closures `fn(g, env)`. Input is checked; unknown names become variables."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

from interpreter.compile.names import Names
from interpreter.engine import vm
from interpreter.engine.state import GameState, ZoneRef
from interpreter.lang import ast as A

Fn = Callable[[GameState, dict], Any]

_CMP = {"==": None, "!=": None, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0}


def single(v: Any) -> Any:
    """A one-card selection reads as that card."""
    if isinstance(v, tuple) and len(v) == 1:
        return v[0]
    return v


def equal(a: Any, b: Any) -> bool:
    if type(a) is type(b) and not isinstance(a, tuple):
        return a == b
    if isinstance(a, ZoneRef) or isinstance(b, ZoneRef):
        return a == b
    return single(a) == single(b)


_STATE_ONLY = frozenset({"you", "opponent"})
_MISSING = object()
_memo_keys = itertools.count()


class ExprCompiler:
    def __init__(self, names: Names) -> None:
        self.names = names

    def compile(self, node: A.Expr, in_filter: bool = False) -> Fn:
        method = getattr(self, "_" + type(node).__name__.lower())
        fn = method(node, in_filter)
        if isinstance(node, (A.Filter, A.Call)) and self.reads(node, in_filter) <= _STATE_ONLY:
            return _memoized(fn)
        return fn

    def reads(self, node: A.Expr, in_filter: bool) -> set[str]:
        """The variables an expression reads ('it' for the candidate of a filter)."""
        if isinstance(node, A.Name):
            name, names = node.id, self.names
            if name == "it" or (in_filter and names.card_field(name)):
                return {"it"}
            if name in ("turn_player", "players") or name in names.states \
                    or name in names.enums or names.zones.get(name):
                return set()
            return {name}
        if isinstance(node, A.Member):
            return self.reads(node.obj, in_filter)
        if isinstance(node, A.Unary):
            return self.reads(node.operand, in_filter)
        if isinstance(node, A.Binary):
            return self.reads(node.left, in_filter) | self.reads(node.right, in_filter)
        if isinstance(node, A.Filter):
            return self.reads(node.source, in_filter) | (self.reads(node.cond, True) - {"it"})
        if isinstance(node, A.Call):
            args = node.args[:1] if node.name == "total" else node.args
            return set().union(*(self.reads(a.value, in_filter) for a in args))
        return set()

    # literals
    def _num(self, n: A.Num, f: bool) -> Fn:
        v = n.value
        return lambda g, env: v

    def _str(self, n: A.Str, f: bool) -> Fn:
        v = n.value
        return lambda g, env: v

    def _bool(self, n: A.Bool, f: bool) -> Fn:
        v = n.value
        return lambda g, env: v

    def _nonelit(self, n: A.NoneLit, f: bool) -> Fn:
        return lambda g, env: None

    # names
    def _name(self, n: A.Name, in_filter: bool) -> Fn:
        name, names = n.id, self.names
        if name == "it":
            return lambda g, env: env["it"]
        if in_filter and names.card_field(name):
            if name in names.counters:
                return lambda g, env: g.counter(env["it"], name)
            return lambda g, env: g.get(env["it"], name)
        if name == "turn_player":
            return lambda g, env: g.turn_player
        if name == "players":
            return lambda g, env: tuple(g.players)
        if name in names.states or name in names.enums:
            return lambda g, env: name
        if names.zones.get(name):
            ref = ZoneRef(name, -1)
            return lambda g, env: ref
        return lambda g, env: env.get(name)

    def _member(self, n: A.Member, in_filter: bool) -> Fn:
        return _card_field(self.names, n.name, self.compile(n.obj, in_filter))

    def _unary(self, n: A.Unary, in_filter: bool) -> Fn:
        x = self.compile(n.operand, in_filter)
        if n.op == "not":
            return lambda g, env: not x(g, env)

        def neg(g: GameState, env: dict) -> Any:
            v = x(g, env)
            return None if v is None else -v

        return neg

    def _binary(self, n: A.Binary, in_filter: bool) -> Fn:
        a, b = self.compile(n.left, in_filter), self.compile(n.right, in_filter)
        op = n.op
        if op == "and":
            return lambda g, env: bool(a(g, env)) and bool(b(g, env))
        if op == "or":
            return lambda g, env: bool(a(g, env)) or bool(b(g, env))
        if op in ("==", "!="):
            return _equality(op, a, b, isinstance(n.left, A.NoneLit) or isinstance(n.right, A.NoneLit))
        if op == "in":
            return lambda g, env: single(a(g, env)) in vm.as_cards(g, b(g, env))
        fn = _CMP.get(op) or _ARITH[op]
        is_cmp = op in _CMP

        def binary(g: GameState, env: dict) -> Any:
            x, y = single(a(g, env)), single(b(g, env))
            if x is None or y is None:
                return False if is_cmp else None
            return fn(x, y)

        return binary

    def _filter(self, n: A.Filter, in_filter: bool) -> Fn:
        source = self.compile(n.source, in_filter)
        cond = self.compile(n.cond, True)

        def select(g: GameState, env: dict) -> tuple[int, ...]:
            saved = env.get("it")
            out = []
            for cid in vm.as_cards(g, source(g, env)):
                env["it"] = cid
                if cond(g, env):
                    out.append(cid)
            env["it"] = saved
            return tuple(out)

        return select

    def _call(self, n: A.Call, in_filter: bool) -> Fn:
        args = [self.compile(a.value, in_filter) for a in n.args]
        if n.name in self.names.zones:
            return _zone(n.name, self.names.zones[n.name], args)
        return _FUNCTIONS[n.name](self, n, args)


def _equality(op: str, a: Fn, b: Fn, against_none: bool) -> Fn:
    """== and !=; a value that cannot be seen (None) makes both false, unless compared to none."""
    same = op == "=="
    if against_none:
        return lambda g, env: equal(a(g, env), b(g, env)) == same

    def compare(g: GameState, env: dict) -> bool:
        x, y = a(g, env), b(g, env)
        if x is None or y is None:
            return False
        return equal(x, y) == same

    return compare


def _memoized(fn: Fn) -> Fn:
    """Cache a value that depends only on the state (and who `you` is) until the state changes."""
    key = next(_memo_keys)

    def cached(g: GameState, env: dict) -> Any:
        if g.memo_version != g.version:
            g.memo.clear()
            g.memo_version = g.version
        k = (key, env.get("you"))
        value = g.memo.get(k, _MISSING)
        if value is _MISSING:
            value = g.memo[k] = fn(g, env)
        return value

    return cached


def _card_field(names: Names, prop: str, obj: Fn) -> Fn:
    if prop in names.resources:
        return lambda g, env: _resource(g, single(obj(g, env)), prop)
    if prop in names.counters:
        return lambda g, env: _per_card(g, obj(g, env), lambda c: g.counter(c, prop))
    return lambda g, env: _per_card(g, obj(g, env), lambda c: g.get(c, prop))


def _resource(g: GameState, player: Any, name: str) -> Any:
    return None if player is None else g.resource(player, name)


def _per_card(g: GameState, value: Any, read: Callable[[int], Any]) -> Any:
    value = single(value)
    if isinstance(value, int):
        return read(value)
    return None


def _zone(name: str, shared: bool, args: list[Fn]) -> Fn:
    if shared or not args:
        ref = ZoneRef(name, -1)
        return lambda g, env: ref
    owner = args[0]
    refs = tuple(ZoneRef(name, p) for p in range(16))

    def zone(g: GameState, env: dict) -> ZoneRef | None:
        p = owner(g, env)
        if type(p) is not int:
            p = single(p)
            if p is None:
                return None
        return refs[p]

    return zone


def _f_count(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]
    return lambda g, env: len(vm.as_cards(g, x(g, env)))


def _f_exists(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]
    return lambda g, env: bool(vm.as_cards(g, x(g, env)))


def _f_top(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x, k = args[0], (args[1] if len(args) > 1 else (lambda g, env: 1))
    return lambda g, env: vm.as_cards(g, x(g, env))[: max(k(g, env) or 0, 0)]


def _f_bottom(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x, k = args[0], (args[1] if len(args) > 1 else (lambda g, env: 1))

    def bottom(g: GameState, env: dict) -> tuple:
        cards, m = vm.as_cards(g, x(g, env)), max(k(g, env) or 0, 0)
        return cards[len(cards) - m:] if m else ()

    return bottom


def _numbers(args: list[Fn], g: GameState, env: dict) -> list:
    return [v for v in (single(a(g, env)) for a in args) if v is not None]


def _f_max(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    return lambda g, env: max(_numbers(args, g, env), default=None)


def _f_min(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    return lambda g, env: min(_numbers(args, g, env), default=None)


def _f_abs(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]
    return lambda g, env: None if (v := single(x(g, env))) is None else abs(v)


def _f_other(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]
    return lambda g, env: None if (p := single(x(g, env))) is None else g.other(p)


def _f_total(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]
    prop_node = n.args[1].value
    prop = prop_node.id if isinstance(prop_node, A.Name) else ""

    def total(g: GameState, env: dict) -> int:
        return sum(v for cid in vm.as_cards(g, x(g, env)) if (v := g.get(cid, prop)) is not None)

    return total


def _f_playable(c: ExprCompiler, n: A.Call, args: list[Fn]) -> Fn:
    x = args[0]

    def playable(g: GameState, env: dict) -> bool:
        cards = vm.as_cards(g, x(g, env))
        return bool(cards) and all(_condition_holds(g, cid) for cid in cards)

    return playable


def _condition_holds(g: GameState, cid: int) -> bool:
    cond = g.defs[cid].condition
    return cond is None or bool(cond(g, vm.effect_env(g, cid, g.controller[cid])))


_FUNCTIONS = {
    "count": _f_count, "exists": _f_exists, "top": _f_top, "bottom": _f_bottom,
    "max": _f_max, "min": _f_min, "abs": _f_abs, "other": _f_other, "total": _f_total,
    "playable": _f_playable,
}
