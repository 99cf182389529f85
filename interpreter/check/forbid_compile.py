"""Forbid queries compiled into closures over the facts of forbid_facts.

`compile_query` resolves every name of a query against the ruleset's names (a lone name by
where it stands: a pattern, a field of the enclosing pattern, or a word) and returns a
function of a `Ctx` (the unit being checked), plus what lets the checker skip work: the
kinds a card must have for the query to hold, and whether it reads only card properties.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from interpreter.check import forbid_facts as F
from interpreter.check.forbid_query import (
    INF,
    Count,
    ListLit,
    Lit,
    Member,
    Op,
    Pattern,
    Q,
    Query,
    Total,
)
from interpreter.compile.names import Names
from interpreter.diagnostics import did_you_mean
from interpreter.engine.primitives import PRIMITIVES
from interpreter.lang.ast import Span
from interpreter.lang.visit import Dispatch, Walker

ABILITY_PATTERNS = {"ability": ("kind", "name"), "when": ("event",), "activate": (),
                    "static": (), "instead": ("verb",), "cannot": ("name",), "can": ("name",),
                    "effect": ()}
CARD_MEMBERS = ("name", "abilities")
ABILITY_MEMBERS = ("kind", "name", "zones", "optional", "effects")
FIELD_ATTRS = ("count", "zone", "owner", "self", "max")


@dataclass
class Compiled:
    run: Callable | None  # None when the query has problems
    needs: frozenset[str] | None  # the card has none of these kinds: the query is false
    properties_only: bool  # reads nothing but the card's printed properties
    problems: list[tuple[Span, str, str, str]] = field(default_factory=list)  # span, message, hint, code


def compile_query(query: Query, names: Names) -> Compiled:
    compiler = _Compiler(names)
    fn = compiler.cond(query.cond, None)
    if compiler.problems:
        return Compiled(None, None, False, compiler.problems)
    return Compiled(fn, _needs(query.cond, compiler.having()),
                    query.scope == "card" and _properties_only(query.cond))


class Ctx:
    __slots__ = ("card", "abilities", "effects", "node", "hits", "props", "found", "ability")

    def __init__(self, card: F.Card, abilities: list, effects: list) -> None:
        self.card, self.abilities, self.effects = card, abilities, effects
        self.node: Any = None
        self.ability: F.Ability | None = None  # the unit's ability (none for a whole card)
        self.hits: list = []
        self.props: list = []
        self.found: list = []


class _Compiler(Walker):
    """Query AST -> closures `fn(ctx) -> value`. A lone name is resolved by where it stands."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.problems: list[tuple] = []
        self.effect_kinds = {**{n: tuple(p.name for p in prim.params) for n, prim in PRIMITIVES.items()},
                             **{v: tuple(p.name for p in ps) for v, ps in names.verbs.items()},
                             "modify": F.MODIFY_FIELDS, "any": None}

    def having(self) -> dict[str, set[str]]:
        """Field name -> the effect kinds that have it."""
        out: dict[str, set[str]] = {}
        for kind, fields in self.effect_kinds.items():
            for f in fields or ():
                out.setdefault(f, set()).add(kind)
        return out

    def _problem(self, span, message: str, hint: str = "", code: str = "UNKNOWN-NAME") -> Callable:
        self.problems.append((span, message, hint, code))
        return lambda ctx: None

    # a condition: true or false
    def cond(self, q: Q, pat: tuple | None) -> Callable:
        if isinstance(q, Op) and q.op in ("and", "or", "unless", "not"):
            parts = [self.cond(a, pat) for a in q.args]
            return _logic(q.op, parts)
        if isinstance(q, Op) and q.op in _TESTS:
            return self.compare(q, pat)
        if isinstance(q, (Op, ListLit)) or (isinstance(q, Lit) and not isinstance(q.value, bool)):
            # a sum, a number, a text or a list alone
            return self._problem(q.span, "forbid query: a condition must be true or false, "
                                         "not a value alone", "compare it: `total(draw.n) > 2`",
                                 "TYPE")
        if isinstance(q, Pattern) and len(q.names) == 1 and q.cond is None and pat is not None \
                and self._is_field(q.names[0], pat):
            return self.value(q, pat)
        if isinstance(q, Pattern):
            return self.pattern(q)
        if isinstance(q, Member):
            return self.member(q, pat)
        return self.value(q, pat)

    def compare(self, q: Op, pat: tuple | None) -> Callable:
        left, right = self.value(q.args[0], pat), self.value(q.args[1], pat, words=True)
        self._check_words(q.args[0], q.args[1], pat)
        test = _TESTS[q.op]
        limit = q.args[1].value if isinstance(q.args[1], Lit) else None
        if isinstance(q.args[0], (Count, Total)) and q.op in (">", ">=") and limit is not None:
            return _over(left, test, limit, q.op)

        def fn(ctx):
            return test(left(ctx), right(ctx))
        return fn

    def _check_words(self, left: Q, right: Q, pat: tuple | None) -> None:
        """Words compared with a zone, an event, an action, a state or a property must name
        one: a misspelt word would silently never match."""
        known = self._domain(left, pat)
        if known is None:
            return
        items = right.items if isinstance(right, ListLit) else (right,)
        for item in items:
            word = item.names[0] if isinstance(item, Pattern) and item.cond is None else \
                item.value if isinstance(item, Lit) and isinstance(item.value, str) else None
            if word is not None and word not in known:
                self._problem(item.span, f"forbid query: '{word}' names no {known.what}",
                              did_you_mean(word, known))

    def _domain(self, q: Q, pat: tuple | None) -> _Known | None:
        n = self.names
        if isinstance(q, Member) and q.attr == "zone":
            return _Known(n.zones, "zone")
        if not (isinstance(q, Pattern) and len(q.names) == 1 and q.cond is None and pat):
            return None
        field = q.names[0]
        if field == "event":
            return _Known(n.events, "event")
        if field == "verb":
            return _Known(n.verbs, "verb")
        if field == "name" and set(pat) & {"cannot", "can"}:
            return _Known({*n.actions, *n.verbs, *n.rule_ids}, "action, verb or requirement")
        if field == "prop":
            return _Known(n.properties, "property")
        types = {p.type for k in pat for p in (n.params_of(k) or ()) if p.name == field}
        return _Known(n.states, "state") if types == {"state"} else None

    # a value; with `words`, a lone name is a word even where a field has that name (the
    # right side of a comparison, the items of a list)
    value: Dispatch[Callable] = Dispatch(Q)

    @value.on(Lit)
    def _lit(self, q: Lit, pat: tuple | None, words: bool = False) -> Callable:
        v = q.value
        return lambda ctx: v

    @value.on(ListLit)
    def _list(self, q: ListLit, pat: tuple | None, words: bool = False) -> Callable:
        items = [self.value(i, pat, True) for i in q.items]
        return lambda ctx: [f(ctx) for f in items]

    @value.on(Op)
    def _op(self, q: Op, pat: tuple | None, words: bool = False) -> Callable:
        if q.op != "+":
            return self.cond(q, pat)
        a, b = self.value(q.args[0], pat), self.value(q.args[1], pat)
        return lambda ctx: _add(a(ctx), b(ctx))

    @value.on(Pattern)
    def _pattern(self, q: Pattern, pat: tuple | None, words: bool = False) -> Callable:
        if len(q.names) != 1 or q.cond is not None:
            return self.pattern(q)
        name = q.names[0]
        if pat is not None and not words:
            if self._is_field(name, pat):
                return _field_value(name)
            return self._problem(q.span, f"forbid query: '{name}' is not a field of "
                                         f"{'|'.join(pat)}",
                                 did_you_mean(name, self._fields(pat)) or
                                 f"fields: {', '.join(sorted(self._fields(pat))) or 'none'}")
        return lambda ctx: name  # a word

    @value.on(Member)
    def _member(self, q: Member, pat: tuple | None, words: bool = False) -> Callable:
        return self.member(q, pat)

    @value.on(Count)
    def _count(self, q: Count, pat: tuple | None, words: bool = False) -> Callable:
        return self.count(q)

    @value.on(Total)
    def _total(self, q: Total, pat: tuple | None, words: bool = False) -> Callable:
        return self.total(q)

    def _is_field(self, name: str, pat: tuple) -> bool:
        return name in self._fields(pat)

    def _fields(self, pat: tuple) -> tuple:
        """The fields of the pattern's kinds (`any`: every parameter name there is)."""
        out: set[str] = set()
        for n in pat:
            if n == "any":
                out.update(f for fs in self.effect_kinds.values() if fs for f in fs)
            elif n in self.effect_kinds:
                out.update(self.effect_kinds[n] or ())
            else:
                out.update(ABILITY_PATTERNS.get(n, ()))
        return tuple(out)

    def pattern(self, q: Pattern) -> Callable:
        kinds = set(q.names)
        for n in q.names:
            if n not in self.effect_kinds and n not in ABILITY_PATTERNS:
                return self._problem(q.span, f"forbid query: no verb, primitive or ability kind "
                                             f"'{n}'", did_you_mean(n, [*self.effect_kinds,
                                                                       *ABILITY_PATTERNS]))
        if q.does:
            return self._does(q, kinds)
        on_abilities = bool(kinds & set(ABILITY_PATTERNS))
        if on_abilities and kinds - set(ABILITY_PATTERNS):
            return self._problem(q.span, "forbid query: a pattern names either ability kinds or "
                                         "effects (verbs, primitives, modify), not both")
        cond = self.cond(q.cond, q.names) if q.cond is not None else None
        return _matcher(kinds, cond, on_abilities)

    def _does(self, q: Pattern, kinds: set[str]) -> Callable:
        """`does P`: P among what the unit's effects do, verbs expanded to primitives."""
        done = [n for n in q.names if n in PRIMITIVES or n in ("modify", "any")]
        if len(done) < len(q.names):
            wrong = next(n for n in q.names if n not in done)
            return self._problem(q.span, f"forbid query: `does` looks at what effects come to, "
                                         f"primitives and modifiers, so '{wrong}' never matches",
                                 f"name the primitives {wrong} uses, e.g. `does move(...)`, or "
                                 f"drop `does` to match the words of the text")
        cond = self.cond(q.cond, q.names) if q.cond is not None else None
        return _matcher(kinds, cond, False, does=True)

    def count(self, q: Count) -> Callable:
        matchers = [self.pattern(p) for p in q.patterns]

        def fn(ctx: Ctx) -> int:
            found: list = []
            for m in matchers:
                found += m(ctx, True)
            ctx.found = [(i + 1, w) for i, w in enumerate(found)]
            return len(found)
        return fn

    def total(self, q: Total) -> Callable:
        parts = []
        for pattern, fname in q.measures:
            for f in (fname, q.by) if q.by else (fname,):
                if not self._is_field(f, pattern.names):
                    self._problem(pattern.span, f"forbid query: '{f}' is not a field of "
                                                f"{'|'.join(pattern.names)}",
                                  did_you_mean(f, self._fields(pattern.names)))
            parts.append((self.pattern(pattern), _field_value(fname), fname))
        by = q.by

        def fn(ctx):
            sums: dict = {}
            found = []
            for match, measure, fname in parts:
                for node, where in match(ctx, True, nodes=True):
                    saved, ctx.node = ctx.node, node
                    v = measure(ctx) if by is None else _per_target_value(node, fname, by)
                    ctx.node = saved
                    key = None if by is None else _per_target(node, by)[0]
                    sums[key] = _add(sums.get(key, 0), v if _is_num(v) else 0)
                    found.append((sums[key], where))
            ctx.found = found
            return max(sums.values(), default=0)
        return fn

    def member(self, q: Member, pat: tuple | None) -> Callable:
        is_field = pat is not None and q.obj in self._fields(pat)
        if is_field and (q.attr in FIELD_ATTRS or q.obj not in ("card", "ability")):
            if q.attr not in FIELD_ATTRS or (q.attr == "max") != (q.arg is not None):
                return self._problem(q.span, f"forbid query: unknown attribute '{q.attr}' of a "
                                             "field", f"attributes: {', '.join(FIELD_ATTRS[:-1])}, "
                                                      "max(PROPERTY)")
            return _field_attr(q.obj, q.attr, q.arg)
        if q.obj == "card":
            if q.attr not in self.names.properties and q.attr not in CARD_MEMBERS:
                return self._problem(q.span, f"forbid query: cards have no '{q.attr}'",
                                     did_you_mean(q.attr, [*self.names.properties, *CARD_MEMBERS]))
            return _card_member(q.attr)
        if q.obj == "ability":
            if q.attr not in ABILITY_MEMBERS:
                return self._problem(q.span, f"forbid query: abilities have no '{q.attr}'",
                                     did_you_mean(q.attr, ABILITY_MEMBERS))
            return _ability_member(q.attr)
        return self._problem(q.span, f"forbid query: unknown name '{q.obj}'",
                             "use card.PROPERTY, ability.ATTRIBUTE, or FIELD.ATTRIBUTE inside a pattern")


class _Known(set):
    """A set of names, and what they are called in messages."""

    def __init__(self, names, what: str) -> None:
        super().__init__(names)
        self.what = what


def _logic(op: str, parts: list[Callable]) -> Callable:
    if op == "not":
        (a,) = parts

        def neg(ctx):
            n = len(ctx.hits)
            out = not a(ctx)
            del ctx.hits[n:]
            return out
        return neg
    if op == "unless":
        a, b = parts
        nb = _logic("not", [b])
        return lambda ctx: bool(a(ctx)) and nb(ctx)
    if op == "and":
        a, b = parts
        return lambda ctx: bool(a(ctx)) and bool(b(ctx))
    a, b = parts
    return lambda ctx: bool(a(ctx)) or bool(b(ctx))


def _matcher(kinds: set[str], cond: Callable | None, on_abilities: bool,
             does: bool = False) -> Callable:
    any_kind = "any" in kinds or "ability" in kinds

    def match(ctx, every: bool = False, nodes: bool = False):
        pool = ctx.abilities if on_abilities else \
            [d for e in ctx.effects for d in e.does] if does else ctx.effects
        found = []
        for node in pool:
            if not any_kind and node.kind not in kinds:
                continue
            if cond is not None:
                node = _holding(cond, ctx, node)
                if node is None:
                    continue
            where = _where(node)
            if not every:
                ctx.hits.append(where)
                return True
            found.append((node, where) if nodes else where)
        return found if every else False
    return match


def _holding(cond: Callable, ctx: Ctx, node: Any) -> Any:
    """The node, or the first of its variants (one per value of the zone and player choices
    it reads), for which `cond` holds; None when it holds for none."""
    saved = ctx.node
    try:
        for ctx.node in F.variants(node) if isinstance(node, F.Effect) else (node,):
            if cond(ctx):
                return ctx.node
        return None
    finally:
        ctx.node = saved


def _per_target(node: Any, by: str) -> tuple[Any, float]:
    """`total(... by F)`: the group of a node (F's expression as written, read through
    variables) and how many times it happens to one member of the group."""
    if not isinstance(node, F.Effect) or by not in node.args:
        return None, node.mult if isinstance(node, F.Effect) else 1
    key = ("per-target", by)
    if key not in node.memo:
        node.memo[key] = F.per_target(node, by)
    return node.memo[key]


def _per_target_value(node: Any, name: str, by: str) -> Any:
    if not isinstance(node, F.Effect) or name not in node.args:
        return None
    _, mult = _per_target(node, by)
    return _value(node, name, mult)


def _where(node) -> tuple:
    """(place of the text, span, whether the node is a whole statement or ability rather than
    a call)."""
    if isinstance(node, F.Effect):
        return (node.ability.at, node.span, node.kind == "modify")
    return (node.at, node.span, True)


def _over(measure: Callable, test: Callable, limit: Any, op: str) -> Callable:
    """`count(...) > N`, `total(...) >= N`: when it holds, point at the node that went over."""

    def fn(ctx):
        if not test(measure(ctx), limit):
            return False
        crossing = next((w for n, w in ctx.found if test(n, limit)), None)
        if crossing is not None:
            ctx.hits.insert(0, crossing)
        return True
    return fn


def _field_value(name: str) -> Callable:
    def fn(ctx):
        node = ctx.node
        if isinstance(node, F.Ability):
            return {"kind": node.kind}.get(name, node.name)
        if node is None or name not in node.args:
            return None
        key = (name, "")
        if key not in node.memo:
            node.memo[key] = _value(node, name)
        return node.memo[key]
    return fn


def _value(e: F.Effect, name: str, mult: float | None = None) -> Any:
    """A field's value (see the module); numbers and counts times `mult` (the effect's)."""
    expr, kind = e.args[name], e.types.get(name, "any")
    mult = e.mult if mult is None else mult
    if kind == "number":
        return _times(F.number(expr, e.scope), mult)
    if kind in ("cards", "card"):
        return _times(F.cards_bound(expr, e.scope), mult)
    if kind == "zone":
        return F.zone(expr, e.scope)
    n = F.number(expr, e.scope) if kind == "any" else INF
    return _times(n, mult) if n != INF else F.word(expr, e.scope)


def _times(n: float, mult: float) -> float:
    return 0 if n == 0 or mult == 0 else n * mult


def _field_attr(name: str, attr: str, arg: str | None) -> Callable:
    key = (name, attr, arg)

    def fn(ctx):
        e = ctx.node
        if not isinstance(e, F.Effect) or name not in e.args:
            return None
        if key not in e.memo:
            e.memo[key] = _attribute(e, name, attr, arg)
        return e.memo[key]
    return fn


def _attribute(e: F.Effect, name: str, attr: str, arg: str | None) -> Any:
    expr = e.args[name]
    if attr == "count":
        if e.types.get(name) == "number":
            return _value(e, name)
        return _times(F.cards_bound(expr, e.scope), e.mult)
    if attr == "zone":
        return F.zone(expr, e.scope)
    if attr == "owner":
        return F.owner(expr, e.scope)
    if attr == "self":
        return F.is_self(expr, e.scope)
    assert arg is not None  # `max(PROPERTY)`, the attribute left, names its property (see member)
    return F.most(expr, arg, e.scope, e.ability.card)


def _card_member(attr: str) -> Callable:
    def fn(ctx):
        card = ctx.card
        if attr == "name":
            return card.name
        if attr == "abilities":
            return len(card.abilities)
        ctx.props.append((*card.at, attr))
        return card.props.get(attr)
    return fn


def _ability_member(attr: str) -> Callable:
    def fn(ctx):
        a = ctx.node if isinstance(ctx.node, F.Ability) else ctx.ability
        if a is None:
            return None
        if attr == "zones":
            return list(a.zones)
        if attr == "effects":
            return len(a.effects)
        return getattr(a, attr)
    return fn


def _add(a: Any, b: Any) -> Any:
    return a + b if _is_num(a) and _is_num(b) else None


def _is_num(v: Any) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _cmp(op: Callable) -> Callable:
    def test(a, b):
        if _is_num(a) and _is_num(b):
            return op(a, b)
        return False
    return test


def _eq(a, b):
    return a is not None and b is not None and a == b


def _contains(a, b):
    return a is not None and isinstance(b, list) and a in b


_TESTS = {
    "==": _eq, "!=": lambda a, b: a is not None and b is not None and a != b,
    "<": _cmp(lambda a, b: a < b), "<=": _cmp(lambda a, b: a <= b),
    ">": _cmp(lambda a, b: a > b), ">=": _cmp(lambda a, b: a >= b),
    "in": _contains, "not in": lambda a, b: a is not None and isinstance(b, list) and a not in b,
}


def _properties_only(q: Q) -> bool:
    """The query reads nothing but the card's printed properties (so cards with the same
    values get the same answer)."""
    if isinstance(q, Member):
        return q.obj == "card" and q.attr not in CARD_MEMBERS
    if isinstance(q, Op) and q.op in _TESTS:
        return _properties_only(q.args[0]) and _is_constant(q.args[1])
    if isinstance(q, Op):
        return all(_properties_only(a) for a in q.args)
    return isinstance(q, Lit)


def _is_constant(q: Q) -> bool:
    """A literal, a list of them, or a word (a lone name on the right of a comparison)."""
    if isinstance(q, ListLit):
        return all(_is_constant(i) for i in q.items)
    return isinstance(q, Lit) or (isinstance(q, Pattern) and q.cond is None and len(q.names) == 1)


def _needs(q: Q, having: dict[str, set[str]]) -> frozenset[str] | None:
    """Kinds of which a card must have at least one for the query to hold (None: unknown).
    `having` maps a field name to the kinds that have it (for `any(...)`)."""
    if isinstance(q, Pattern):
        if "ability" in q.names or (q.does and "any" in q.names):
            return None
        if q.does:
            return frozenset(F.DONE + n for n in q.names)
        if "any" in q.names:
            return _any_needs(q.cond, having)
        return frozenset(q.names)
    if isinstance(q, Op) and q.op in ("and", "unless"):
        options = [n for n in (_needs(a, having) for a in q.args[:1 if q.op == "unless" else 2]) if n]
        return min(options, key=len) if options else None
    if isinstance(q, Op) and q.op == "or":
        a, b = _needs(q.args[0], having), _needs(q.args[1], having)
        return a | b if a is not None and b is not None else None
    if isinstance(q, Op) and q.op in (">", ">=") and isinstance(q.args[0], (Count, Total)):
        limit = q.args[1].value if isinstance(q.args[1], Lit) else None
        if _is_num(limit) and limit >= (0 if q.op == ">" else 1):
            pats = q.args[0].patterns if isinstance(q.args[0], Count) else \
                [p for p, _ in q.args[0].measures]
            parts = [_needs(p, having) for p in pats]
            known = [p for p in parts if p is not None]
            return frozenset().union(*known) if len(known) == len(parts) else None
    return None


def _any_needs(cond: Q | None, having: dict[str, set[str]]) -> frozenset[str] | None:
    """`any(cond)` without negations can only match a node that has a field cond reads."""
    fields: set[str] = set()

    def walk(q) -> bool:
        if isinstance(q, Op):  # a comparison's right side is words: only its left side reads
            sides = q.args if q.op in ("and", "or") else q.args[:1]
            return q.op not in ("not", "unless") and all(walk(a) for a in sides)
        if isinstance(q, Member):
            fields.add(q.obj)
            return True
        if isinstance(q, Pattern) and len(q.names) == 1 and q.cond is None:
            fields.add(q.names[0])
            return True
        return isinstance(q, (Lit, ListLit))

    if cond is None or not walk(cond):
        return None
    return frozenset(k for f in fields for k in having.get(f, ()))
