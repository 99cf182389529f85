"""Check effect ASTs against a ruleset's names: every problem, positioned, with a suggestion."""

from __future__ import annotations

from dataclasses import dataclass

from interpreter.compile.names import BUILTIN_VALUES, FUNCTIONS, Names
from interpreter.diagnostics import did_you_mean
from interpreter.engine.primitives import PRIMITIVES
from interpreter.lang import ast as A


@dataclass(frozen=True)
class Problem:
    span: A.Span
    code: str
    message: str
    hint: str = ""


class EffectChecker:
    """Walks one text. `scope` holds the variables the context provides."""

    def __init__(self, names: Names, scope: set[str]) -> None:
        self.names = names
        self.scope = set(scope) | {"you", "opponent", "self"}
        self.problems: list[Problem] = []

    # ---------- entry points ----------
    def ability(self, a: A.Ability) -> list[Problem]:
        if isinstance(a, A.Trigger):
            self._event(a.span, a.event)
            self.scope |= set(self._event_fields(a.event))
            self._opt_expr(a.cond)
            self.body(a.body)
        elif isinstance(a, A.Activated):
            self._opt_expr(a.cond)
            self.body(a.cost)
            self.body(a.body)
        elif isinstance(a, A.Static):
            self._opt_expr(a.cond)
            for m in a.modifiers:
                self._stmt(m)
        elif isinstance(a, A.Replacement):
            self._known(a.span, a.verb, self.names.verbs, "verb", "UNKNOWN-VERB")
            self.scope |= {p.name for p in self.names.verbs.get(a.verb, ())}
            self._opt_expr(a.cond)
            self.body(a.body)
        else:
            self._action_or_verb(a.span, a.action)
            self.scope |= {"card", "player", "ability"}
            self.scope |= {p.name for p in self.names.verbs.get(a.action, ())}
            self._opt_expr(a.cond)
        return self.problems

    def body(self, stmts: A.Body) -> list[Problem]:
        for s in stmts:
            self._stmt(s)
        return self.problems

    def expr(self, e: A.Expr) -> list[Problem]:
        self._expr(e, False)
        return self.problems

    # ---------- statements ----------
    def _stmt(self, s: object) -> None:
        if isinstance(s, A.Call):
            self._call_stmt(s)
        elif isinstance(s, A.If):
            self._expr(s.cond, False)
            self.body(s.then)
            self.body(s.orelse)
        elif isinstance(s, A.May):
            self._opt_expr(s.by)
            self.body(s.body)
        elif isinstance(s, A.Choose):
            self._expr(s.count, False)
            self._expr(s.source, False)
            self._opt_expr(s.by)
            self.scope.add(s.name)
        elif isinstance(s, A.ForEach):
            self._expr(s.source, False)
            self.scope.add(s.name)
            self.body(s.body)
        elif isinstance(s, A.Together):
            self.body(s.body)
        elif isinstance(s, A.Repeat):
            self._expr(s.count, False)
            self.body(s.body)
        elif isinstance(s, A.Let):
            self._expr(s.value, False)
            self.scope.add(s.name)
        elif isinstance(s, A.Modify):
            self._expr(s.target, False)
            if s.prop not in self.names.properties:
                self._add(s.span, "UNKNOWN-PROPERTY", f"unknown property '{s.prop}'",
                          did_you_mean(s.prop, self.names.properties))
            self._expr(s.value, False)
            if s.until not in (None, "turn", "phase"):
                self._add(s.span, "DURATION", f"unknown duration 'until end of {s.until}'",
                          "use 'until end of turn' or 'until end of phase'")

    def _call_stmt(self, c: A.Call) -> None:
        params = self.names.params_of(c.name)
        if params is None:
            if c.name in FUNCTIONS or c.name in self.names.zones:
                self._add(c.span, "NOT-A-STATEMENT",
                          f"'{c.name}(...)' is a value, not an action")
            else:
                self._add(c.span, "UNKNOWN-VERB", f"unknown verb '{c.name}'",
                          did_you_mean(c.name, self.names.callables()))
            for a in c.args:
                self._expr(a.value, False)
            return
        self._args(c, params)

    def _args(self, c: A.Call, params: tuple) -> None:
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
            if p is not None:
                given.add(p.name)
                self._arg(c, p, a)
            else:
                self._expr(a.value, False)
        missing = [p.name for p in params if p.default is ... and p.name not in given]
        if missing and c.name in PRIMITIVES:
            self._add(c.span, "ARITY", f"'{c.name}' needs {', '.join(missing)}")

    def _arg(self, c: A.Call, p, a: A.Arg) -> None:
        v = a.value
        if p.type in ("state", "name", "text") and isinstance(v, A.Name) \
                and v.id not in self.scope:
            if p.type == "state" and v.id not in self.names.states:
                self._add(v.span, "UNKNOWN-STATE", f"unknown state '{v.id}'",
                          did_you_mean(v.id, self.names.states))
            elif p.type == "name" and v.id not in self.names.resources | self.names.counters:
                self._add(v.span, "UNKNOWN-NAME", f"'{v.id}' is neither a resource nor a counter",
                          did_you_mean(v.id, self.names.resources | self.names.counters))
            return
        if p.type in ("number",) and isinstance(v, (A.Str, A.Bool)):
            self._add(v.span, "TYPE", f"'{p.name}' of '{c.name}' must be a number")
        elif p.type in ("cards", "zone", "player") and isinstance(v, (A.Num, A.Str, A.Bool)):
            self._add(v.span, "TYPE", f"'{p.name}' of '{c.name}' must be a {p.type}, "
                                      f"not a {type(v).__name__.lower()} literal")
        self._expr(v, False)

    # ---------- expressions ----------
    def _opt_expr(self, e: A.Expr | None) -> None:
        if e is not None:
            self._expr(e, False)

    def _expr(self, e: A.Expr, in_filter: bool) -> None:
        if isinstance(e, A.Name):
            self._name(e, in_filter)
        elif isinstance(e, A.Member):
            self._expr(e.obj, in_filter)
            if not (self.names.card_field(e.name) or e.name in self.names.resources):
                self._add(e.span, "UNKNOWN-PROPERTY", f"unknown property '{e.name}'",
                          did_you_mean(e.name, [*self.names.properties, *self.names.states,
                                                *self.names.resources, *self.names.counters,
                                                "name", "owner", "controller", "zone"]))
        elif isinstance(e, A.Call):
            self._call_expr(e, in_filter)
        elif isinstance(e, A.Unary):
            self._expr(e.operand, in_filter)
        elif isinstance(e, A.Binary):
            self._expr(e.left, in_filter)
            self._expr(e.right, in_filter)
        elif isinstance(e, A.Filter):
            self._expr(e.source, in_filter)
            self._expr(e.cond, True)

    def _name(self, n: A.Name, in_filter: bool) -> None:
        name = n.id
        if name in self.scope or name in BUILTIN_VALUES:
            return
        if in_filter and self.names.card_field(name):
            return
        if name in self.names.states or name in self.names.enums:
            return
        if self.names.zones.get(name):
            return
        if name in self.names.zones:
            self._add(n.span, "ZONE-OWNER", f"zone '{name}' belongs to a player",
                      f"write {name}(you) or {name}(opponent)")
        elif self.names.card_field(name):
            self._add(n.span, "UNKNOWN-NAME", f"'{name}' is a card property; say whose",
                      f"write self.{name}, or use it inside 'where'")
        else:
            candidates = [*self.scope, *self.names.value_names()]
            if in_filter:
                candidates += [*self.names.properties, *self.names.states]
            hint = did_you_mean(name, candidates) or did_you_mean(name, self.names.zones)
            self._add(n.span, "UNKNOWN-NAME", f"unknown name '{name}'", hint)

    def _call_expr(self, c: A.Call, in_filter: bool) -> None:
        for a in c.args:
            if c.name == "total" and a is c.args[-1] and isinstance(a.value, A.Name):
                continue
            self._expr(a.value, in_filter)
        if c.name in self.names.zones:
            shared = self.names.zones[c.name]
            if not shared and len(c.args) != 1:
                self._add(c.span, "ARITY", f"zone '{c.name}' needs its owner: {c.name}(player)")
            return
        spec = FUNCTIONS.get(c.name)
        if spec is None:
            if self.names.params_of(c.name) is not None:
                self._add(c.span, "NOT-A-VALUE", f"'{c.name}' is an action, not a value")
            else:
                self._add(c.span, "UNKNOWN-FUNCTION", f"unknown zone or function '{c.name}'",
                          did_you_mean(c.name, self.names.expr_callables())
                          or f"zones: {', '.join(self.names.zones)}")
            return
        lo, hi, _doc = spec
        if not lo <= len(c.args) <= hi:
            self._add(c.span, "ARITY", f"'{c.name}' takes {lo}–{hi} arguments, got {len(c.args)}")

    # ---------- helpers ----------
    def _event(self, span: A.Span, event: str) -> None:
        if event not in self.names.events:
            self._add(span, "UNKNOWN-EVENT", f"unknown event '{event}'",
                      did_you_mean(event, self.names.events))

    def _event_fields(self, event: str) -> tuple[str, ...]:
        from interpreter.compile.names import ENGINE_EVENTS

        if event in ENGINE_EVENTS:
            return ENGINE_EVENTS[event]
        fields: set[str] = set()
        for verb, params in self.names.verbs.items():
            if self.names.verb_events.get(verb) == event:
                fields |= {p.name for p in params}
        if event in self.names.actions:
            fields |= {"card", "player", "ability"}
        return tuple(fields)

    def _action_or_verb(self, span: A.Span, name: str) -> None:
        known = [*self.names.actions, *self.names.verbs, *self.names.rule_ids]
        if name not in known:
            self._add(span, "UNKNOWN-ACTION", f"unknown action, verb or rule '{name}'",
                      did_you_mean(name, known))

    def _known(self, span, name, table, what, code) -> None:
        if name not in table:
            self._add(span, code, f"unknown {what} '{name}'", did_you_mean(name, table))

    def _add(self, span: A.Span, code: str, message: str, hint: str = "") -> None:
        self.problems.append(Problem(span, code, message, hint))
