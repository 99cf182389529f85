"""What forbid queries look at: each card's abilities and effects, read off the effect AST.

An *effect* is one call (a verb or primitive) or one modifier, with the product of the
`repeat` and `for each` loops around it. Its *fields* are the callee's parameters (positional
and named arguments resolved, defaults filled in). What a field tells a query (how many cards,
from which zone, an upper bound of a property) is computed here from the expression and the
variables in scope (`choose`, `let`, `for each`), never by running anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.compile.names import FUNCTIONS, Names
from interpreter.compile.texts import parse_text
from interpreter.lang import ast as A
from interpreter.lang.parser import ParseError
from interpreter.lang.visit import Dispatch, Walker

INF = float("inf")
MODIFY_FIELDS = ("target", "prop", "op", "value")


@dataclass(slots=True)
class Effect:
    kind: str  # the callee's name, or "modify"
    args: dict[str, Any]  # field -> expression (or a plain value for defaults and modifiers)
    types: dict[str, str]  # field -> parameter type
    mult: float  # how many times it happens: the loops around it
    span: A.Span
    scope: dict[str, tuple]  # variable -> ("choose" | "let" | "each", node)
    ability: Ability
    memo: dict = field(default_factory=dict)  # what queries asked of its fields, computed once


@dataclass(slots=True)
class Ability:
    kind: str  # when, activate, static, instead, cannot, can, effect (a card's `effect:`)
    name: str  # the event, replaced verb or prohibited action ("" otherwise)
    zones: tuple[str, ...]
    optional: bool  # every statement of its body is a `may`
    at: tuple  # its place in the YAML document
    span: A.Span
    card: Card
    effects: list[Effect] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)  # its own kind and its effects' kinds


@dataclass(slots=True)
class Card:
    name: str
    props: dict[str, Any]  # printed values, property defaults applied
    at: tuple
    abilities: list[Ability] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)  # every node kind present (for quick skips)


def read_card(raw: dict, at: tuple, names: Names, defaults: dict[str, Any]) -> Card:
    """The facts of one card (texts that do not parse are skipped: the checker reports them)."""
    props = {**defaults, **{k: v for k, v in raw.items() if k in names.properties}}
    card = Card(str(raw.get("name", "")), props, at)
    for j, text in enumerate(raw.get("abilities") or ()):
        tree = _parsed("ability", text)
        if tree is not None:
            card.abilities.append(_ability(tree, (*at, "abilities", j), card, names))
    if isinstance(raw.get("effect"), str):
        body = _parsed("body", raw["effect"])
        if body is not None:
            ability = Ability("effect", "", (), _optional(body), (*at, "effect"), A.Span(1, 1), card)
            _Effects(ability, names).body(body, 1, {})
            card.abilities.append(ability)
    for a in card.abilities:
        a.kinds = {a.kind, *(e.kind for e in a.effects)}
        card.kinds |= a.kinds
        card.effects += a.effects
    return card


def _parsed(start: str, text: Any):
    if not isinstance(text, str):
        return None
    try:
        return parse_text(start, text)
    except ParseError:
        return None


def _ability(tree: A.Ability, at: tuple, card: Card, names: Names) -> Ability:
    return _AbilityReader(at, card, names).read(tree, ())


def _optional(body: A.Body) -> bool:
    return all(isinstance(s, A.May) for s in body)


class _AbilityReader(Walker):
    """One ability's facts: its kind, its name, and the effects of its cost and its body."""

    def __init__(self, at: tuple, card: Card, names: Names) -> None:
        self.at, self.card, self.names = at, card, names

    read: Dispatch[Ability] = Dispatch(A.Ability)  # (tree, the zones it works in)

    @read.on(A.InZones)
    def _in_zones(self, tree: A.InZones, zones: tuple[str, ...]) -> Ability:
        return self.read(tree.ability, tree.zones)

    @read.on(A.Trigger)
    def _trigger(self, tree: A.Trigger, zones: tuple[str, ...]) -> Ability:
        return self._collect(self._new("when", tree.event, zones, tree, tree.body), tree.body)

    @read.on(A.Activated)
    def _activated(self, tree: A.Activated, zones: tuple[str, ...]) -> Ability:
        return self._collect(self._new("activate", "", zones, tree, tree.body), tree.cost,
                             tree.body)

    @read.on(A.Static)
    def _static(self, tree: A.Static, zones: tuple[str, ...]) -> Ability:
        ability = self._new("static", "", zones, tree, ())
        effects = _Effects(ability, self.names)
        for m in tree.modifiers:
            effects.modify(m, 1, {})
        return ability

    @read.on(A.Replacement)
    def _replacement(self, tree: A.Replacement, zones: tuple[str, ...]) -> Ability:
        return self._collect(self._new("instead", tree.verb, zones, tree, tree.body), tree.body)

    @read.on(A.Prohibition)
    def _prohibition(self, tree: A.Prohibition, zones: tuple[str, ...]) -> Ability:
        return self._new("cannot", tree.action, zones, tree, ())

    @read.on(A.Permission)
    def _permission(self, tree: A.Permission, zones: tuple[str, ...]) -> Ability:
        return self._new("can", tree.action, zones, tree, ())

    def _new(self, kind: str, name: str, zones: tuple[str, ...], tree: A.Ability,
             body: A.Body) -> Ability:
        return Ability(kind, name, zones, bool(body) and _optional(body), self.at, tree.span,
                       self.card)

    def _collect(self, ability: Ability, *bodies: A.Body) -> Ability:
        effects = _Effects(ability, self.names)
        for body in bodies:
            effects.body(body, 1, {})
        return ability


class _Effects(Walker):
    """Collects the effects of one ability with their loop multipliers and variables."""

    def __init__(self, ability: Ability, names: Names) -> None:
        self.ability, self.names = ability, names

    def body(self, stmts: A.Body, mult: float, scope: dict) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, mult, scope)

    stmt: Dispatch[None] = Dispatch(A.Stmt)  # (statement, multiplier, variables in scope)

    @stmt.on(A.If)
    def _if(self, s: A.If, mult: float, scope: dict) -> None:
        self.body(s.then, mult, scope)
        self.body(s.orelse, mult, scope)

    @stmt.on(A.May, A.Together)
    def _block(self, s: A.May | A.Together, mult: float, scope: dict) -> None:
        self.body(s.body, mult, scope)

    @stmt.on(A.Choose)
    def _choose(self, s: A.Choose, mult: float, scope: dict) -> None:
        scope[s.name] = ("choose", s)

    @stmt.on(A.Let)
    def _let(self, s: A.Let, mult: float, scope: dict) -> None:
        scope[s.name] = ("let", s.value)

    @stmt.on(A.ForEach)
    def _for_each(self, s: A.ForEach, mult: float, scope: dict) -> None:
        inner = {**scope, s.name: ("each", s.source)}
        self.body(s.body, mult * cards_bound(s.source, scope), inner)

    @stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat, mult: float, scope: dict) -> None:
        self.body(s.body, mult * max(number(s.count, scope), 0), scope)

    @stmt.on(A.Settle)
    def _settle(self, s: A.Settle, mult: float, scope: dict) -> None:
        pass  # a timing point: no effect

    @stmt.on(A.Call)
    def call(self, c: A.Call, mult: float, scope: dict) -> None:
        params = self.names.params_of(c.name) or ()
        args: dict[str, Any] = {}
        positional = [a for a in c.args if a.name is None]
        for p, a in zip(params, positional, strict=False):
            args[p.name] = a.value
        for a in c.args:
            if a.name is not None:
                args[a.name] = a.value
        for p in params:
            if p.name not in args and p.default is not ... and p.default is not None:
                args[p.name] = p.default
        types = {p.name: p.type for p in params}
        self.ability.effects.append(Effect(c.name, args, types, mult, c.span, scope, self.ability))

    @stmt.on(A.Modify)
    def modify(self, m: A.Modify, mult: float, scope: dict) -> None:
        args = {"target": m.target, "prop": m.prop, "op": m.op, "value": m.value}
        types = {"target": "cards", "prop": "text", "op": "text", "value": "number"}
        self.ability.effects.append(Effect("modify", args, types, mult, m.span, scope, self.ability))


# ---------- what an expression tells (never by running it) ----------
def _follow(e: Any, scope: dict) -> Any:
    """Through variables to what they were made from: a `choose` stays, `let` and `for each`
    give their expression."""
    seen = 0
    while isinstance(e, A.Name) and e.id in scope and seen < 32:
        how, node = scope[e.id]
        if how == "choose":
            return node
        e, seen = node, seen + 1
    return e


def number(e: Any, scope: dict) -> float:
    """A constant number, or INF when it depends on the game."""
    e = _follow(e, scope)
    if isinstance(e, bool):
        return INF
    if isinstance(e, (int, float)):
        return e
    if isinstance(e, A.Num):
        return e.value
    if isinstance(e, A.Unary) and e.op == "-":
        return -number(e.operand, scope)
    if isinstance(e, A.Binary) and e.op in ("+", "-", "*"):
        left, right = number(e.left, scope), number(e.right, scope)
        if INF in (left, right, -left, -right):
            return INF
        return left + right if e.op == "+" else left - right if e.op == "-" else left * right
    return INF


def cards_bound(e: Any, scope: dict) -> float:
    """At most how many cards an expression gives (INF: as many as a zone holds)."""
    e = _follow(e, scope)
    if isinstance(e, A.Choose):
        return number(e.count, scope)
    if isinstance(e, A.Name):
        return 1  # self, it, an event field: one card
    if isinstance(e, A.Filter):
        return cards_bound(e.source, scope)
    if isinstance(e, A.Call) and e.name in ("top", "bottom"):
        return number(e.args[1].value, scope) if len(e.args) > 1 else 1
    return INF


def zone(e: Any, scope: dict) -> str | None:
    """The zone the cards come from (or the zone named)."""
    call = _zone_call(e, scope)
    return call.name if call is not None else None


def owner(e: Any, scope: dict) -> str | None:
    """Whose zone it is, as written: you, opponent, ..."""
    call = _zone_call(e, scope)
    return word(call.args[0].value, scope) if call is not None and call.args else None


def _zone_call(e: Any, scope: dict) -> A.Call | None:
    for _ in range(32):
        e = _follow(e, scope)
        if isinstance(e, (A.Choose, A.Filter)):
            e = e.source
        elif isinstance(e, A.Call) and e.name in ("top", "bottom") and e.args:
            e = e.args[0].value
        elif isinstance(e, A.Call) and e.name not in FUNCTIONS:
            return e
        else:
            return None
    return None


def word(e: Any, scope: dict) -> str | None:
    """A name or text written as the value: `opponent`, `疲労`, "bottom"."""
    e = _follow(e, scope)
    if isinstance(e, str):
        return e
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Str):
        return e.value
    if isinstance(e, A.Call) and e.name == "other" and e.args:
        inner = word(e.args[0].value, scope)
        return {"you": "opponent", "opponent": "you"}.get(inner or "")
    return None


def most(e: Any, prop: str, scope: dict, card: Card) -> float:
    """An upper bound of `prop` over the cards, from the `where` conditions that select them."""
    for _ in range(32):
        e = _follow(e, scope)
        if isinstance(e, A.Name) and e.id == "self":
            value = card.props.get(prop)
            return value if isinstance(value, (int, float)) and not isinstance(value, bool) else INF
        if isinstance(e, A.Choose):
            e = e.source
        elif isinstance(e, A.Filter):
            return min(_bound(e.cond, prop, scope), most(e.source, prop, scope, card))
        elif isinstance(e, A.Call) and e.name in ("top", "bottom") and e.args:
            e = e.args[0].value
        else:
            return INF
    return INF


_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def _bound(cond: Any, prop: str, scope: dict) -> float:
    if isinstance(cond, A.Binary) and cond.op == "and":
        return min(_bound(cond.left, prop, scope), _bound(cond.right, prop, scope))
    if isinstance(cond, A.Binary) and cond.op == "or":
        return max(_bound(cond.left, prop, scope), _bound(cond.right, prop, scope))
    if not isinstance(cond, A.Binary) or cond.op not in _FLIP:
        return INF
    op, left, right = cond.op, cond.left, cond.right
    if not _is_prop(left, prop):
        op, left, right = _FLIP[op], right, left
    if not _is_prop(left, prop):
        return INF
    n = number(right, scope)
    return {"<=": n, "==": n, "<": n - 1}.get(op, INF)


def _is_prop(e: Any, prop: str) -> bool:
    return (isinstance(e, A.Name) and e.id == prop) or \
        (isinstance(e, A.Member) and e.name == prop and isinstance(e.obj, A.Name) and e.obj.id == "it")


def is_self(e: Any, scope: dict) -> bool:
    e = _follow(e, scope)
    if isinstance(e, A.Choose):
        e = e.source
    return isinstance(e, A.Name) and e.id == "self"
