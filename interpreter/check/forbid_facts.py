"""What forbid queries look at: each card's abilities and effects, read off the effect AST.

An *effect* is one call (a verb or primitive) or one modifier, with the product of the
`repeat` and `for each` loops around it. Its *fields* are the callee's parameters (positional
and named arguments resolved, defaults filled in). What a field tells a query (how many cards,
from which zone, an upper bound of a property) is computed here from the expression and the
variables in scope (`choose`, `let`, `for each`), never by running anything.

What an effect *does* is what it comes to once the ruleset's verbs are expanded: a written
primitive or modifier does itself; a verb call does what its body does, the verb's parameters
bound to the caller's arguments (read in the caller's scope), recursively. A rule keeper's
query about outcomes (`does move(to.zone == hand)`) then sees a card moved into the hand
whether the text says `draw`, `to_hand` or `move`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from itertools import islice, product
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
    # the primitives and modifiers this written effect comes to (itself, for one of them)
    does: list[Effect] = field(default_factory=list)
    done_kinds: set[str] = field(default_factory=set)  # DONE + the kind of each of `does`
    # the loops around it: (a `for each` variable's scope entry, or None for a `repeat`;
    # how many times), their product being `mult`
    loops: tuple[tuple[tuple | None, float], ...] = ()


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


DONE = "does "  # what marks a kind done (`does move`) among the kinds a card has
MAX_EXPANSION = 16  # verbs calling verbs: deeper than this (or recursive) is not followed


def read_card(raw: dict, at: tuple, names: Names, defaults: dict[str, Any]) -> Card:
    """The facts of one card (texts that do not parse are skipped: the checker reports them)."""
    props = {**defaults, **{k: v for k, v in raw.items() if k in names.properties}}
    card = Card(str(raw.get("name", "")), props, at)
    for j, text in enumerate(raw.get("abilities") or ()):
        place = (*at, "abilities", j, *(("text",) if isinstance(text, dict) else ()))
        tree = _parsed("ability", text.get("text") if isinstance(text, dict) else text)
        if tree is not None:
            card.abilities.append(_ability(tree, place, card, names))
    if isinstance(raw.get("effect"), str):
        body = _parsed("body", raw["effect"])
        if body is not None:
            ability = Ability("effect", "", (), _optional(body), (*at, "effect"), A.Span(1, 1), card)
            _Effects(ability, names).body(body, 1, {})
            card.abilities.append(ability)
    for a in card.abilities:
        for e in a.effects:
            e.done_kinds = {DONE + d.kind for d in e.does}
        a.kinds = {a.kind, *(e.kind for e in a.effects), *(k for e in a.effects for k in e.done_kinds)}
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
    """Collects the effects of one ability with their loop multipliers and variables: the
    written ones into the ability, and what each does into its `does` (see the module)."""

    def __init__(self, ability: Ability, names: Names) -> None:
        self.ability, self.names = ability, names
        self.origin: Effect | None = None  # the written call being expanded
        self.loops: tuple[tuple[tuple | None, float], ...] = ()  # the loops we are in
        self.verbs: tuple[str, ...] = ()  # the verbs being expanded, outermost first

    def body(self, stmts: A.Body, mult: float, scope: dict) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, mult, scope)

    stmt: Dispatch[None] = Dispatch(A.Stmt)  # (statement, multiplier, variables in scope)

    @stmt.on(A.If)
    def _if(self, s: A.If, mult: float, scope: dict) -> None:
        self.body(s.then, mult, scope)
        self.body(s.orelse, mult, scope)

    @stmt.on(A.May, A.Together, A.Delayed)
    def _block(self, s: A.May | A.Together | A.Delayed, mult: float, scope: dict) -> None:
        self.body(s.body, mult, scope)

    @stmt.on(A.Choose)
    def _choose(self, s: A.Choose, mult: float, scope: dict) -> None:
        scope[s.name] = ("choose", s)

    @stmt.on(A.ChooseValue)
    def _choose_value(self, s: A.ChooseValue, mult: float, scope: dict) -> None:
        # a chosen number is at most the range's top; a zone or a player is any of its
        # options (see `variants`)
        scope[s.name] = ("let", s.high) if s.high is not None else ("choose", s)

    @stmt.on(A.ChooseMode)
    def _choose_mode(self, s: A.ChooseMode, mult: float, scope: dict) -> None:
        for m in s.modes:  # any one may run: each mode's facts count
            self.body(m.body, mult, scope)

    @stmt.on(A.Let)
    def _let(self, s: A.Let, mult: float, scope: dict) -> None:
        scope[s.name] = ("let", s.value)

    @stmt.on(A.ForEach)
    def _for_each(self, s: A.ForEach, mult: float, scope: dict) -> None:
        entry = ("each", s.source)
        factor = cards_bound(s.source, scope)
        self.loops += ((entry, factor),)
        self.body(s.body, mult * factor, {**scope, s.name: entry})
        self.loops = self.loops[:-1]

    @stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat, mult: float, scope: dict) -> None:
        factor = max(number(s.count, scope), 0)
        self.loops += ((None, factor),)
        self.body(s.body, mult * factor, scope)
        self.loops = self.loops[:-1]

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
        effect = Effect(c.name, args, types, mult, c.span, scope, self.ability, loops=self.loops)
        if self.origin is not None:
            self.expand(effect, params, mult, scope)
            return
        self.ability.effects.append(effect)
        self.origin = effect
        self.expand(effect, params, mult, scope)
        self.origin = None

    def expand(self, effect: Effect, params: tuple, mult: float, scope: dict) -> None:
        """What a call does: a primitive, itself; a verb, what its body does."""
        name = effect.kind
        if name not in self.names.verbs:
            self.done(effect)
            return
        tree = _parsed("body", self.names.verb_bodies.get(name))
        if tree is None or name in self.verbs or len(self.verbs) >= MAX_EXPANSION:
            return
        bound = {p.name: ("arg", effect.args.get(p.name), scope) for p in params}
        self.verbs += (name,)
        self.body(tree, mult, bound)
        self.verbs = self.verbs[:-1]

    @stmt.on(A.Modify)
    def modify(self, m: A.Modify, mult: float, scope: dict) -> None:
        args = {"target": m.target, "prop": m.prop, "op": m.op, "value": m.value}
        types = {"target": "cards", "prop": "text", "op": "text", "value": "number"}
        effect = Effect("modify", args, types, mult, m.span, scope, self.ability, loops=self.loops)
        if self.origin is None:
            self.ability.effects.append(effect)
        self.done(effect)

    def done(self, effect: Effect) -> None:
        """A primitive or modifier is done by the written effect it comes from, and is
        reported where that is written."""
        origin = self.origin or effect
        effect.span = origin.span
        origin.does.append(effect)


# ---------- a zone or player choice: each value it can take ----------
MAX_VARIANTS = 64  # more combinations of choices than this: the first ones are looked at


def variants(effect: Effect) -> list[Effect]:
    """The effect once for each combination of values its zone and player choices can take
    (itself when it reads none): a query holds for the effect when it holds for one of them,
    so a rule keeper's entry is not sidestepped by letting the player choose."""
    if "variants" not in effect.memo:
        choices = list(_choices(effect.scope, {}, set()).values())
        out = [effect]
        if choices:
            out = [replace(effect, scope=_assigned(effect.scope, dict(zip(map(id, choices), picked,
                                                                              strict=True)), {}),
                           memo={})
                   for picked in islice(product(*map(_options, choices)), MAX_VARIANTS)]
        effect.memo["variants"] = out
    return effect.memo["variants"]


def _choices(scope: dict, out: dict[int, A.ChooseValue], seen: set[int]) -> dict:
    """The zone and player choices a scope reads, through the callers' scopes of verbs."""
    if id(scope) in seen:
        return out
    seen.add(id(scope))
    for how, node, *outer in scope.values():
        if how == "choose" and isinstance(node, A.ChooseValue):
            out[id(node)] = node
        if outer:
            _choices(outer[0], out, seen)
    return out


def _options(choice: A.ChooseValue) -> list[Any]:
    """What a choice can pick, as expressions: the zones of `zones(...)`, both players of
    `players` (words as a query reads them), else its one source (a `where` only narrows)."""
    source = choice.source
    while isinstance(source, A.Filter):
        source = source.source
    if isinstance(source, A.Call) and source.name == "zones":
        return [a.value for a in source.args]
    if isinstance(source, A.Name) and source.id in ("players", "turn_order"):
        return [A.Name(source.span, "you"), A.Name(source.span, "opponent")]
    return [source]


def _assigned(scope: dict, picked: dict[int, Any], done: dict[int, dict]) -> dict:
    """The scope with each choice in `picked` bound to its picked value (read where the
    choice was made); other entries stay the same objects (loops are told apart by them)."""
    if id(scope) in done:
        return done[id(scope)]
    out: dict = {}
    done[id(scope)] = out
    for name, entry in scope.items():
        how, node, *outer = entry
        if how == "choose" and id(node) in picked:
            entry = ("arg", picked[id(node)], scope)
        elif outer:
            entry = (how, node, _assigned(outer[0], picked, done))
        out[name] = entry
    return out


# ---------- what an expression tells (never by running it) ----------
def _follow(e: Any, scope: dict, each: bool = True) -> tuple[Any, dict]:
    """Through variables to what they were made from, and the scope it is read in: a `choose`
    stays, `let` and `for each` give their expression (a `for each` variable stays as it is
    unless `each`), a verb's parameter the caller's argument (read in the caller's scope)."""
    for _ in range(32):
        if not (isinstance(e, A.Name) and e.id in scope):
            break
        how, node, *outer = scope[e.id]
        if how == "choose" or (how == "each" and not each):
            return node if how == "choose" else e, scope
        e = node
        if outer:
            scope = outer[0]
    return e, scope


def number(e: Any, scope: dict) -> float:
    """A constant number, or INF when it depends on the game."""
    e, scope = _follow(e, scope)
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
    """At most how many cards an expression gives (INF: as many as a zone holds); a `for each`
    variable is one card at a time."""
    e, scope = _follow(e, scope, each=False)
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
    call, _ = _zone_call(e, scope)
    return call.name if call is not None else None


def owner(e: Any, scope: dict) -> str | None:
    """Whose zone it is, as written: you, opponent, ..."""
    call, scope = _zone_call(e, scope)
    return word(call.args[0].value, scope) if call is not None and call.args else None


def _zone_call(e: Any, scope: dict) -> tuple[A.Call | None, dict]:
    for _ in range(32):
        e, scope = _follow(e, scope)
        if isinstance(e, (A.Choose, A.Filter)):
            e = e.source
        elif isinstance(e, A.Call) and e.name in ("top", "bottom") and e.args:
            e = e.args[0].value
        elif isinstance(e, A.Call) and e.name not in FUNCTIONS:
            return e, scope
        else:
            break
    return None, scope


def word(e: Any, scope: dict) -> str | None:
    """A name or text written as the value: `opponent`, `疲労`, "bottom"."""
    e, scope = _follow(e, scope)
    if isinstance(e, str):
        return e
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Str):
        return e.value
    if isinstance(e, A.Call) and e.name == "other" and e.args:
        inner = word(e.args[0].value, scope)
        return {"you": "opponent", "opponent": "you"}.get(inner or "")
    if isinstance(e, A.Member) and e.name in ("owner", "controller"):
        return owner(e.obj, scope)  # a card's owner: whose zone it was taken from
    return None


def most(e: Any, prop: str, scope: dict, card: Card) -> float:
    """An upper bound of `prop` over the cards, from the `where` conditions that select them."""
    for _ in range(32):
        e, scope = _follow(e, scope)
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


def shape(e: Any, scope: dict, loops: set[int] | None = None) -> Any:
    """An expression without its places, read through variables: two expressions of the
    same shape name the same cards (one `choose` is one choice wherever it is read). The
    `for each` loops it reads the variable of are added to `loops` (by their entry's id)."""
    while isinstance(e, A.Name) and e.id in scope and scope[e.id][0] == "each":
        if loops is not None:
            loops.add(id(scope[e.id]))
        e = scope[e.id][1]
    e, scope = _follow(e, scope, each=False)
    if isinstance(e, A.Name) and e.id in scope and scope[e.id][0] == "each":
        return shape(e, scope, loops)
    if isinstance(e, A.Choose):
        return ("choose", id(e))
    if is_dataclass(e):
        return (type(e).__name__, *(shape(getattr(e, f.name), scope, loops) for f in fields(e)
                                    if f.name != "span"))
    if isinstance(e, tuple):
        return tuple(shape(x, scope, loops) for x in e)
    return e


def per_target(effect: Effect, name: str) -> tuple[Any, float]:
    """Field `name`'s shape, and how many times the effect happens to one such target: the
    `for each` loops over the target itself go to other cards, so they do not count."""
    over: set[int] = set()
    key = shape(effect.args[name], effect.scope, over)
    mult = 1.0
    for entry, factor in effect.loops:
        if id(entry) not in over:
            mult = 0 if factor == 0 else mult * factor
    return key, mult


def is_self(e: Any, scope: dict) -> bool:
    e, scope = _follow(e, scope)
    if isinstance(e, A.Choose):
        e = e.source
    return isinstance(e, A.Name) and e.id == "self"
