"""Check effect ASTs against a ruleset: names, arity and types, every problem positioned.

Types: number, bool, text, player, players, cards, zone, zones, ability, any. A value of
type `any` fits everywhere; the checker only reports what is certainly wrong, so
that what passes it cannot crash the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from interpreter.compile.describe import mode_label
from interpreter.compile.names import FUNCTIONS, Names
from interpreter.diagnostics import did_you_mean
from interpreter.engine.primitives import Param
from interpreter.engine.state import CARD_ATTRS
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker

ANY = "any"
FIELD_TYPES = {
    "card": "cards", "cards": "cards", "player": "player", "ability": "ability", "host": "cards",
    "from_zone": "text", "to_zone": "text", "zone": "zone", "state": "text", "value": ANY,
    "face": "text", "name": "text", "delta": "number", "turn": "number", "phase": "text",
}
_ATTR_TYPES = {"name": "text", "owner": "player", "controller": "player", "zone": "text",
               "face_up": "bool", "is_token": "bool", "host": "cards", "position": "number"}
_PARAM_FITS = {  # what a parameter of each type accepts
    "cards": {"cards", "zone"}, "card": {"cards"}, "zone": {"zone"}, "player": {"player"},
    "number": {"number"}, "bool": {"bool"}, "text": {"text"}, "state": {"text"},
    "name": {"text"}, "ability": {"ability"},
}
_FUNCTION_TYPES = {  # name: (argument types, result)
    "count": (("cards",), "number"), "exists": (("cards",), "bool"),
    "top": (("cards", "number"), "cards"), "bottom": (("cards", "number"), "cards"),
    "max": (("number",) * 9, "number"), "min": (("number",) * 9, "number"),
    "abs": (("number",), "number"), "other": (("player",), "player"),
    "total": (("cards",), "number"), "printed": (("cards",), ANY), "playable": (("cards",), "bool"),
    "attached": (("cards",), "cards"), "beneath": (("cards",), "cards"),
    "random": (("number",), "number"), "linked": (("cards",), "cards"), "divided": (("cards",), "number"),
    "heads": (("number",), "number"), "random_card": (("cards",), "cards"),
    "union": (("cards",) * 9, "cards"),
    "left": (("cards",), "cards"), "right": (("cards",), "cards"), "adjacent": (("cards",), "cards"),
    "zones": (("zone",) * 9, "zones"),
    "stack_size": ((), "number"),
    "turn_number": ((), "number"),
    "can_enter": (("cards", "zone"), "bool"),
}

# The variables each checked prompt names, with their types, in order: the compiler shows
# each value as its type reads (a card by its name, a player as P1).
PROMPT_TYPES: WeakKeyDictionary[A.Prompt, tuple[tuple[str, str], ...]] = WeakKeyDictionary()
PLACEHOLDER = re.compile(r"\{([^\W\d]\w*)\}")
_CHOICE_SOURCES = {"zone": ({"zones", "zone"}, "'choose zone' picks from zones(...) or a zone"),
                   "player": ({"players", "player"}, "'choose player' picks from players"),
                   "number": ({"number"}, "'choose number' picks from a number to a number")}


_CONTEXT = frozenset({"you", "opponent", "self"})  # every text's own variables
_NEVER_WORDS = frozenset({"it", "turn_player", "players", "turn_order"})  # built-in values, not words


@dataclass(frozen=True)
class Problem:
    span: A.Span
    code: str
    message: str
    hint: str = ""


_LITERALS: dict[type, str] = {A.Num: "number", A.Str: "text", A.Bool: "bool", A.NoneLit: ANY}


def _fits(actual: str, wanted: set[str]) -> bool:
    return actual == ANY or actual in wanted or ("cards" in wanted and actual == "zone")


class EffectChecker(Walker):
    """Walks one text. `scope` maps the variables the context provides to their types."""

    def __init__(self, names: Names, scope: dict[str, str] | set[str]) -> None:
        self.names = names
        if not isinstance(scope, dict):
            scope = {n: FIELD_TYPES.get(n, ANY) for n in scope}
        self.scope = {"you": "player", "opponent": "player", "self": "cards", **scope}
        self.problems: list[Problem] = []
        self.words: set[A.Name] = set()  # bare names read as words (a state, a resource, up)
        self.lenient = False  # after an unknown event its fields are unknown: do not cascade

    # ---------- entry points ----------
    def ability(self, a: A.Ability) -> list[Problem]:
        self._ability(a)
        return self.problems

    def body(self, stmts: A.Body) -> list[Problem]:
        for s in stmts:
            self._stmt(s)
        return self.problems

    def expr(self, e: A.Expr, in_filter: bool = False) -> list[Problem]:
        self._expr(e, in_filter)
        return self.problems

    # ---------- abilities ----------
    _ability: Dispatch[None] = Dispatch(A.Ability)

    @_ability.on(A.InZones)
    def _in_zones(self, a: A.InZones) -> None:
        for zone in a.zones:
            if zone not in self.names.zones:
                self._add(a.span, "UNKNOWN-ZONE", f"unknown zone '{zone}'",
                          did_you_mean(zone, self.names.zones))
        self._ability(a.ability)

    @_ability.on(A.Trigger)
    def _trigger(self, a: A.Trigger) -> None:
        self._event(a.span, a.event)
        self.scope.update(self._event_fields(a.event))
        self._cond(a.cond)
        self.body(a.body)

    @_ability.on(A.Activated)
    def _activated(self, a: A.Activated) -> None:
        self._cond(a.cond)
        self.body(a.cost)
        self.body(a.body)

    @_ability.on(A.Static)
    def _static(self, a: A.Static) -> None:
        self._cond(a.cond)
        for m in a.modifiers:
            self._stmt(m)
            if m.until is not None:
                self._add(m.span, "DURATION", "a static ability lasts while its card is in play",
                          "remove 'until end of ...', or make it an effect of a trigger")

    @_ability.on(A.Replacement)
    def _replacement(self, a: A.Replacement) -> None:
        if a.verb not in self.names.verbs:
            self._add(a.span, "UNKNOWN-VERB", f"unknown verb '{a.verb}'",
                      did_you_mean(a.verb, self.names.verbs))
        self.scope.update(self._params(a.verb))
        self._cond(a.cond)
        self.body(a.body)

    @_ability.on(A.Prohibition, A.Permission)
    def _prohibition(self, a: A.Prohibition | A.Permission) -> None:
        self._action_or_verb(a.span, a.action, isinstance(a, A.Permission))
        self.scope.update(card="cards", player="player", ability="ability")
        self.scope.update(self._params(a.action))
        self._cond(a.cond)

    # ---------- statements ----------
    _stmt: Dispatch[None] = Dispatch(A.Stmt)

    @_stmt.on(A.If)
    def _if(self, s: A.If) -> None:
        self._cond(s.cond)
        self.body(s.then)
        self.body(s.orelse)

    @_stmt.on(A.May)
    def _may(self, s: A.May) -> None:
        self._want(s.by, {"player"}, "'may by' needs a player")
        self.body(s.body)

    @_stmt.on(A.Together)
    def _together(self, s: A.Together) -> None:
        self.body(s.body)

    @_stmt.on(A.Delayed)
    def _delayed(self, s: A.Delayed) -> None:
        """A delayed trigger: its condition and body see the effect's names and the event's
        (which win); names its body binds stay inside it."""
        self._event(s.span, s.event)
        outer = dict(self.scope)
        self.scope.update(self._event_fields(s.event))
        self._cond(s.cond)
        self.body(s.body)
        self.scope.clear()
        self.scope.update(outer)

    @_stmt.on(A.Choose)
    def _choose(self, s: A.Choose) -> None:
        self._want(s.count, {"number"}, "the count of 'choose' must be a number")
        self._want(s.source, {"cards"}, "'choose' picks from cards or a zone")
        self._want(s.by, {"player"}, "'choose ... by' needs a player")
        self._prompt(s.prompt)
        self.scope[s.name] = "cards"

    @_stmt.on(A.ChooseValue)
    def _choose_value(self, s: A.ChooseValue) -> None:
        wanted, message = _CHOICE_SOURCES[s.kind]
        source = s.source
        if isinstance(source, A.Filter) and s.high is None:  # options narrowed: `it` is each
            self._options_where(source, s.kind)
            source = source.source
        self._want(source, wanted, message)
        self._want(s.high, wanted, message)
        self._want(s.by, {"player"}, f"'choose {s.kind} ... by' needs a player")
        self._prompt(s.prompt)  # (asked before the name is bound)
        self.scope[s.name] = s.kind

    def _options_where(self, f: A.Filter, kind: str) -> None:
        """`where` on the zones or players a choice picks from: the condition reads each
        option as `it` (or the filter's name), a value of the choice's type."""
        names = ("it", f.name) if f.name else ("it",)
        outer = {n: self.scope.get(n, ...) for n in names}
        self.scope.update(dict.fromkeys(names, kind))
        t = self._expr(f.cond, False)
        for n, was in outer.items():
            if was is ...:
                del self.scope[n]
            else:
                self.scope[n] = was
        if not _fits(t, {"bool"}):
            self._add(f.cond.span, "TYPE", f"a 'where' condition must be true or false, got {_a(t)}")

    @_stmt.on(A.ChooseMode)
    def _choose_mode(self, s: A.ChooseMode) -> None:
        self._want(s.by, {"player"}, "'choose one ... by' needs a player")
        self._prompt(s.prompt)
        seen: set[str] = set()
        for m in s.modes:
            label = mode_label(m)
            if label in seen:
                self._add(m.span, "DUPLICATE-MODE", f"two modes read '{label}': an answer "
                                                    "could not tell them apart",
                          'label one: choose one "label": { ... } or { ... }')
            seen.add(label)
            self.body(m.body)

    def _prompt(self, prompt: A.Prompt | None) -> None:
        """Each `{name}` of a prompt is a variable known here; notes their types."""
        if prompt is None:
            return
        names = []
        for m in PLACEHOLDER.finditer(prompt.text):
            span = A.Span(prompt.span.line, prompt.span.col + 1 + m.start(1))
            names.append((m[1], self._expr(A.Name(span, m[1]), False)))
        PROMPT_TYPES.pop(prompt, None)  # (keyed by this node, the one compiled next)
        PROMPT_TYPES[prompt] = tuple(names)

    @_stmt.on(A.ForEach)
    def _for_each(self, s: A.ForEach) -> None:
        t = self._expr(s.source, False)
        if not _fits(t, {"cards", "players"}):
            self._add(s.source.span, "TYPE", f"'for each' goes over cards or players, not {t}")
        self.scope[s.name] = "player" if t == "players" else ("cards" if t != ANY else ANY)
        self.body(s.body)

    @_stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat) -> None:
        self._want(s.count, {"number"}, "'repeat' needs a number")
        self.body(s.body)

    @_stmt.on(A.Let)
    def _let(self, s: A.Let) -> None:
        self.scope[s.name] = self._expr(s.value, False)

    @_stmt.on(A.Settle)
    def _settle(self, s: A.Settle) -> None:
        pass  # a timing point: nothing to check

    @_stmt.on(A.Modify)
    def _modify(self, s: A.Modify) -> None:
        self._want(s.target, {"cards"}, "a modifier applies to cards")
        pdef = self.names.property_types.get(s.prop)
        if pdef is None:
            self._add(s.span, "UNKNOWN-PROPERTY", f"unknown property '{s.prop}'",
                      did_you_mean(s.prop, self.names.properties))
        elif pdef != "number" and s.op != "=":
            self._add(s.span, "TYPE", f"'{s.prop}' is {pdef}: it can only be set with '=', "
                                      f"not changed with '{s.op}'")
        wanted = {"number": "number", "flag": "bool"}.get(pdef or "number", "text")
        self._want(s.value, {wanted}, f"'{s.prop}' takes {_a(wanted)}")
        if s.until not in (None, "turn", "phase"):
            self._add(s.span, "DURATION", f"unknown duration 'until end of {s.until}'",
                      "use 'until end of turn' or 'until end of phase'")

    @_stmt.on(A.Call)
    def _call_stmt(self, c: A.Call) -> None:
        params = self.names.params_of(c.name)
        if params is None:
            if c.name in FUNCTIONS or c.name in self.names.zones:
                self._add(c.span, "NOT-A-STATEMENT", f"'{c.name}(...)' is a value, not an action")
            else:
                self._add(c.span, "UNKNOWN-VERB", f"unknown verb '{c.name}'",
                          did_you_mean(c.name, self.names.callables()))
            for a in c.args:
                self._expr(a.value, False)
            return
        self._args(c, params)
        if c.name == "put_on" and len(self.names.beneath) != 1:
            self._add(c.span, "NO-BENEATH-ZONE", "put_on needs the one zone that holds the "
                      "cards beneath others: give one zone `beneath: true`")

    def _args(self, c: A.Call, params: tuple[Param, ...]) -> None:
        by_name = {p.name: p for p in params}
        positional = [a for a in c.args if a.name is None]
        if len(positional) > len(params):
            self._add(c.span, "ARITY", f"'{c.name}' takes at most {len(params)} arguments, "
                                       f"got {len(positional)}")
        given = set()
        for i, a in enumerate(c.args):
            p = by_name.get(a.name) if a.name else (params[i] if i < len(params) else None)
            if a.name and p is None:
                self._add(a.span, "UNKNOWN-ARG", f"'{c.name}' has no parameter '{a.name}'",
                          did_you_mean(a.name, by_name))
            if p is None:
                self._expr(a.value, False)
                continue
            given.add(p.name)
            self._arg(c, p, a)
        missing = [p.name for p in params if p.default is ... and p.name not in given]
        if missing:
            self._add(c.span, "ARITY", f"'{c.name}' needs {', '.join(missing)}")

    def _arg(self, c: A.Call, p: Param, a: A.Arg) -> None:
        v = a.value
        if c.name in ("create", "transform") and p.name == "name":
            self._created(v)
        if p.type in ("state", "name", "text", "action") and isinstance(v, A.Name) \
                and v.id not in self.scope and v.id not in _NEVER_WORDS:
            self.words.add(v)
            if p.type == "action" and v.id not in self.names.actions | self.names.windows:
                self._add(v.span, "UNKNOWN-ACTION", f"unknown action or window '{v.id}'",
                          did_you_mean(v.id, self.names.actions | self.names.windows))
            elif p.type == "state" and v.id not in self.names.states:
                self._add(v.span, "UNKNOWN-STATE", f"unknown state '{v.id}'",
                          did_you_mean(v.id, self.names.states))
            elif p.type == "name" and v.id not in self.names.resources | self.names.counters:
                self._add(v.span, "UNKNOWN-NAME", f"'{v.id}' is neither a resource nor a counter",
                          did_you_mean(v.id, self.names.resources | self.names.counters))
            return
        t = self._expr(v, False)
        wanted = _PARAM_FITS.get(p.type)
        if p.name == "target" and p.type == ANY:
            wanted = {"player", "cards"}
        if wanted is not None and not _fits(t, wanted):
            self._add(v.span, "TYPE", f"'{p.name}' of '{c.name}' must be {_a(p.type)}, "
                                      f"got {_a(t)}")

    def _created(self, v: A.Expr) -> None:
        """`create` makes one of the ruleset's tokens or a card of its card sets: a name
        written in the text (in quotes or as a bare word) must be one, or the engine would
        have nothing to make."""
        if isinstance(v, A.Name) and (v.id in self.scope or v.id in _NEVER_WORDS):
            return  # a variable: its value is known only when the effect runs
        name = v.value if isinstance(v, A.Str) else v.id if isinstance(v, A.Name) else None
        if name is not None and name not in self.names.tokens and name not in self.names.cards:
            known = ", ".join(sorted(self.names.tokens)) or "none"
            self._add(v.span, "UNKNOWN-TOKEN", f"'{name}' is neither a token of this ruleset "
                                               f"(its tokens: {known}) nor a card of its card sets",
                      did_you_mean(name, self.names.tokens | self.names.cards)
                      or "declare it under the ruleset's `tokens`, or name a card")

    # ---------- expressions ----------
    def _cond(self, e: A.Expr | None) -> None:
        self._want(e, {"bool"}, "a condition must be true or false")

    def condition(self, e: A.Expr, in_filter: bool = False) -> list[Problem]:
        """Check a condition (a ruleset's `if`, `requires`, deck rule `where`)."""
        t = self._expr(e, in_filter)
        if not _fits(t, {"bool"}):
            self._add(e.span, "TYPE", f"a condition must be true or false, got {_a(t)}")
        return self.problems

    def _want(self, e: A.Expr | None, wanted: set[str], message: str,
              in_filter: bool = False) -> None:
        if e is None:
            return
        t = self._expr(e, in_filter)
        if not _fits(t, wanted):
            self._add(e.span, "TYPE", f"{message}; got {_a(t)}")

    # the type of an expression's value, its problems reported on the way
    _expr: Dispatch[str] = Dispatch(A.Expr)

    @_expr.on(A.Num, A.Str, A.Bool, A.NoneLit)
    def _literal(self, e: A.Num | A.Str | A.Bool | A.NoneLit, in_filter: bool) -> str:
        return _LITERALS[type(e)]

    @_expr.on(A.Unary)
    def _unary(self, e: A.Unary, in_filter: bool) -> str:
        if e.op == "not":
            self._expr(e.operand, in_filter)
            return "bool"
        self._operand(e.operand, in_filter, "'-'")
        return "number"

    @_expr.on(A.Filter)
    def _filter(self, e: A.Filter, in_filter: bool) -> str:
        t = self._expr(e.source, in_filter)
        if not _fits(t, {"cards"}):
            self._add(e.source.span, "TYPE", f"'where' filters cards or a zone, not {_a(t)}")
        outer = self.scope.get(e.name, ...) if e.name else ...
        if e.name:
            self.scope[e.name] = "cards"
        t = self._expr(e.cond, True)
        if e.name:  # the name is the candidate only inside its condition
            if outer is ...:
                del self.scope[e.name]
            else:
                self.scope[e.name] = outer
        if not _fits(t, {"bool"}):
            self._add(e.cond.span, "TYPE", f"a 'where' condition must be true or false, got {_a(t)}")
        return "cards"

    @_expr.on(A.Binary)
    def _binary(self, e: A.Binary, in_filter: bool) -> str:
        if e.op in ("and", "or", "==", "!="):
            self._expr(e.left, in_filter)
            self._expr(e.right, in_filter)
            if e.op in ("==", "!="):
                self._compared_name(e.left, e.right, in_filter)
                self._compared_name(e.right, e.left, in_filter)
            return "bool"
        if e.op == "in":
            self._expr(e.left, in_filter)
            t = self._expr(e.right, in_filter)
            if not _fits(t, {"cards"}):
                self._add(e.right.span, "TYPE", f"'in' needs cards or a zone, got {_a(t)}")
            return "bool"
        self._operand(e.left, in_filter, f"'{e.op}'")
        self._operand(e.right, in_filter, f"'{e.op}'")
        return "bool" if e.op in ("<", "<=", ">", ">=") else "number"

    def _compared_name(self, side: A.Expr, other: A.Expr, in_filter: bool) -> None:
        """`name == 「見習い剣志」`: a card's name compared with a written name close to a card's
        of the card sets (or a token's) but none of them is a misspelling: the comparison would
        never be true."""
        is_name = isinstance(side, A.Member) and side.name == "name" \
            or isinstance(side, A.Name) and side.id == "name" and in_filter \
            and "name" not in self.scope
        cards = self.names.cards
        if not is_name or not isinstance(other, A.Str) or not cards \
                or other.value in cards or other.value in self.names.tokens:
            return
        # (only a misspelling: a name far from every card may be one of a set not given here)
        hint = did_you_mean(other.value, cards | self.names.tokens)
        if hint:
            self._add(other.span, "UNKNOWN-CARD", f"no card of the card sets is named "
                                                  f"'{other.value}': the comparison is never true",
                      hint)

    def _operand(self, e: A.Expr, in_filter: bool, op: str) -> None:
        t = self._expr(e, in_filter)
        if not _fits(t, {"number"}):
            self._add(e.span, "TYPE", f"{op} needs numbers, got {_a(t)}")

    @_expr.on(A.Name)
    def _name(self, n: A.Name, in_filter: bool) -> str:
        name, names = n.id, self.names
        if name in self.scope:
            self._not_a_word(n)
            return self.scope[name]
        if name == "it":
            if not in_filter:
                self._add(n.span, "UNKNOWN-NAME", "'it' means the card a 'where' condition, "
                          "a formula or a deck rule is about, and there is none here",
                          "write self (the card whose text this is), a variable, or put it "
                          "inside 'where'")
            return "cards"
        if name == "turn_player":
            return "player"
        if name in ("players", "turn_order"):
            return "players"
        if in_filter and names.card_field(name):
            return self._field_type(name)
        if name in names.states or name in names.enums:
            return "text"
        if names.zones.get(name):
            return "zone"
        if name in names.zones:
            self._add(n.span, "ZONE-OWNER", f"zone '{name}' belongs to a player",
                      f"write {name}(you) or {name}(opponent)")
        elif names.card_field(name):
            self._add(n.span, "UNKNOWN-NAME", f"'{name}' is a card property; say whose",
                      f"write self.{name}, or use it inside 'where'")
        else:
            return self._unknown(n, in_filter)
        return ANY

    def _not_a_word(self, n: A.Name) -> None:
        """A variable spelt like a state, an enum value or a shared zone: the compiled code
        would read the word, not the variable, so the name must change."""
        word = "a state" if n.id in self.names.states else "an enum value" \
            if n.id in self.names.enums else "a shared zone" if self.names.zones.get(n.id) else ""
        if word and n.id not in _CONTEXT:
            self._add(n.span, "VARIABLE-WORD",
                      f"'{n.id}' is both a variable here and {word} of the game: the text "
                      f"would read the word, never the variable",
                      f"rename the variable (say '{n.id}_1')")

    def _unknown(self, n: A.Name, in_filter: bool) -> str:
        if self.lenient:
            return ANY
        candidates = [*self.scope, *self.names.value_names()]
        if in_filter:
            candidates += [*self.names.properties, *self.names.states]
        candidates = [c for c in candidates if c != n.id]  # (never "did you mean" itself)
        hint = did_you_mean(n.id, candidates) or did_you_mean(n.id, self.names.zones) \
            or self._not_a_name_hint(n.id)
        self._add(n.span, "UNKNOWN-NAME", f"unknown name '{n.id}'", hint)
        return ANY

    def _not_a_name_hint(self, name: str) -> str:
        """Nothing is called that: perhaps it is meant as text (a card name, a group), which
        is written in quotes; else say which variables there are here."""
        quoted = f"if '{name}' is text (a name, a group), write it in quotes: 「{name}」"
        own = [v for v in self.scope if v not in FIELD_TYPES and v not in _CONTEXT]
        if not own:
            return quoted
        variables = f"variables here: {', '.join(own)}"
        return variables if name.isascii() else f"{quoted}; {variables}"

    def _field_type(self, name: str) -> str:
        if name in _ATTR_TYPES:
            return _ATTR_TYPES[name]
        if name in self.names.states:
            return "bool"
        if name in self.names.counters:
            return "number"
        return {"number": "number", "flag": "bool"}.get(self.names.property_types.get(name, ""), "text")

    @_expr.on(A.Member)
    def _member(self, e: A.Member, in_filter: bool) -> str:
        t = self._expr(e.obj, in_filter)
        if e.name in self.names.resources:
            if not _fits(t, {"player"}):
                self._add(e.span, "TYPE", f"'{e.name}' is a player resource; got {_a(t)}")
            return "number"
        if not (self.names.card_field(e.name)):
            self._add(e.span, "UNKNOWN-PROPERTY", f"unknown property '{e.name}'",
                      did_you_mean(e.name, [*self.names.properties, *self.names.states,
                                            *self.names.resources, *self.names.counters,
                                            *CARD_ATTRS]))
            return ANY
        if not _fits(t, {"cards"}):
            self._add(e.span, "TYPE", f"'.{e.name}' reads a card; got {_a(t)}")
        return self._field_type(e.name)

    @_expr.on(A.Call)
    def _call_expr(self, c: A.Call, in_filter: bool) -> str:
        if c.name in self.names.zones:
            for a in c.args:
                self._want(a.value, {"player"}, f"the owner of zone '{c.name}' must be a player",
                           in_filter)  # (`hand(it.owner)` inside `where` reads the candidate)
            if not self.names.zones[c.name] and len(c.args) != 1:
                self._add(c.span, "ARITY", f"zone '{c.name}' needs its owner: {c.name}(player)")
            return "zone"
        spec = _FUNCTION_TYPES.get(c.name)
        if spec is None:
            for a in c.args:
                self._expr(a.value, in_filter)
            if self.names.params_of(c.name) is not None:
                self._add(c.span, "NOT-A-VALUE", f"'{c.name}' is an action, not a value")
            else:
                self._add(c.span, "UNKNOWN-FUNCTION", f"unknown zone or function '{c.name}'",
                          did_you_mean(c.name, self.names.expr_callables())
                          or f"zones: {', '.join(self.names.zones)}")
            return ANY
        lo, hi, _doc = FUNCTIONS[c.name]
        if not lo <= len(c.args) <= hi:
            self._add(c.span, "ARITY", f"'{c.name}' takes {lo}–{hi} arguments, got {len(c.args)}")
        arg_types, result = spec
        for i, a in enumerate(c.args):
            if c.name == "total" and i == 1:
                self._total_prop(a.value)
                continue
            if c.name == "printed" and i == 1:
                result = self._printed_prop(a.value)
                continue
            t = self._expr(a.value, in_filter)
            if i < len(arg_types) and not _fits(t, {arg_types[i]}):
                self._add(a.value.span, "TYPE", f"argument {i + 1} of '{c.name}' must be "
                                                f"{_a(arg_types[i])}, got {_a(t)}")
        return result

    def _total_prop(self, e: A.Expr) -> None:
        if not (isinstance(e, A.Name) and (self.names.property_types.get(e.id) == "number"
                                           or e.id in self.names.counters)):
            self._add(e.span, "TYPE", "the second argument of 'total' names a number property "
                                      "or a counter",
                      did_you_mean(getattr(e, "id", ""), [*self.names.properties,
                                                          *self.names.counters]))

    def _printed_prop(self, e: A.Expr) -> str:
        """The type of printed(card, PROP): PROP's, a declared property that is printed."""
        name = getattr(e, "id", "")
        if not isinstance(e, A.Name) or name not in self.names.property_types:
            self._add(e.span, "TYPE", "the second argument of 'printed' names a property",
                      did_you_mean(name, self.names.properties))
            return ANY
        if name in self.names.formulas:
            self._add(e.span, "TYPE", f"'{name}' is computed by its formula, never printed")
        return self._field_type(name)

    # ---------- helpers ----------
    def _params(self, name: str) -> dict[str, str]:
        return {p.name: p.type for p in self.names.verbs.get(name, ())}

    def _event(self, span: A.Span, event: str) -> None:
        if event not in self.names.events:
            self.lenient = True
            self._add(span, "UNKNOWN-EVENT", f"unknown event '{event}'",
                      did_you_mean(event, self.names.events))

    def _event_fields(self, event: str) -> dict[str, str]:
        from interpreter.compile.names import ENGINE_EVENTS

        if event in ENGINE_EVENTS:
            return {f: FIELD_TYPES.get(f, ANY) for f in ENGINE_EVENTS[event]}
        fields: dict[str, str] = {}
        for verb, params in self.names.verbs.items():
            if self.names.verb_events.get(verb) == event:
                fields.update({p.name: p.type for p in params})
        if event in self.names.actions:
            fields.update(card="cards", player="player", ability="ability")
        return fields

    def _action_or_verb(self, span: A.Span, name: str, permission: bool) -> None:
        """`cannot` names an action or a verb; `can` names an action or a named requirement."""
        known = [*self.names.actions, *(self.names.rule_ids if permission else self.names.verbs)]
        if name not in known:
            what = "action or rule" if permission else "action or verb"
            self._add(span, "UNKNOWN-ACTION", f"'{'can' if permission else 'cannot'} {name}': "
                                              f"unknown {what}", did_you_mean(name, known))

    def _add(self, span: A.Span, code: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(span, code, message, hint))




def _a(t: str) -> str:
    return {"any": "anything", "cards": "cards", "players": "the players", "zones": "zones",
            "ability": "an ability"}.get(t, f"a {t}" if t[0] not in "aeiou" else f"an {t}")
