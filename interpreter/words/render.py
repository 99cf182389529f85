"""The effect language in words: statements, expressions and abilities read as sentences,
with the ruleset's phrases (a verb's call, a name's word) and the catalog's defaults."""

from __future__ import annotations

from interpreter.compile.names import FUNCTIONS
from interpreter.engine.model import Ruleset
from interpreter.engine.primitives import PRIMITIVES
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker
from interpreter.words import catalog
from interpreter.words.catalog import joined, say
from interpreter.words.phrases import Phrases, fill

_VALUES = {"you", "opponent", "self", "it", "turn_player", "players", "turn_order"}


def readable(name: str) -> str:
    """A name with no phrase, as a word: `zero_search` reads "zero search"."""
    return name.replace("_", " ").strip() or name


class Render(Walker):
    """Renders in `lang`; `bound` names variables (a choice's, a loop's) by what they hold."""

    stmt: Dispatch[str] = Dispatch(A.Stmt)
    expr: Dispatch[str] = Dispatch(A.Expr)
    ability: Dispatch[str] = Dispatch(A.Ability)

    def __init__(self, ruleset: Ruleset, phrases: Phrases, lang: str) -> None:
        self.rs, self.phrases, self.lang = ruleset, phrases, lang
        self.bound: dict[str, str] = {}

    # ---- words for names ----
    def word(self, name: str) -> str:
        """A ruleset's name (zone, state, property, phase, verb, action, value) as a word."""
        said = self.phrases.get("names", name, self.lang)
        if said is None and f"attr.{name}" in catalog.T:
            return self.say(f"attr.{name}")  # a card's own attribute (owner, host...)
        return said or readable(name)

    def say(self, key: str, **values: object) -> str:
        return say(key, self.lang, **values)

    # ---- bodies ----
    def body(self, body: A.Body) -> str:
        steps = [t for t in (self.stmt(s) for s in body) if t]
        return self.say("then").join(steps) if steps else self.say("nothing")

    def _binding(self, name: str, words: str) -> None:
        self.bound[name] = words

    @stmt.on(A.Call)
    def _call(self, s: A.Call) -> str:
        return self.call(s.name, s.args)

    def call(self, name: str, args: tuple[A.Arg, ...]) -> str:
        verb = self.rs.verbs.get(name)
        if verb is not None:
            values = self._by_param(verb.params, args)
            phrase = self.phrases.get("verbs", name, self.lang)
            if phrase is not None:
                return fill(phrase, values)
            return self._default_call(name, [values[p] for p in verb.params if p in values])
        prim = PRIMITIVES.get(name)
        if prim is None:
            return self._default_call(name, [self.expr(a.value) for a in args])
        return self._primitive(name, self._by_param(tuple(p.name for p in prim.params), args))

    def _by_param(self, params: tuple[str, ...], args: tuple[A.Arg, ...]) -> dict[str, str]:
        values: dict[str, str] = {}
        for i, a in enumerate(args):
            key = a.name if a.name else (params[i] if i < len(params) else f"_{i}")
            values[key] = self.expr(a.value)
        return values

    def _default_call(self, name: str, args: list[str]) -> str:
        if not args:
            return self.say("call_bare", name=self.word(name))
        return self.say("call", name=self.word(name), args=self.say("comma").join(args))

    def _primitive(self, name: str, v: dict[str, str]) -> str:
        everything = self.say("comma").join(v.values())
        if name == "move" and "face" in v:
            return self.say("move_face", cards=v.get("cards", ""), to=v.get("to", ""),
                            face=self._face(v["face"]))
        if name == "set" and v.get("value") == self.say("false"):
            return self.say("unset", **v)
        if name == "flip":
            return self.say("flip", cards=v.get("cards", ""), face=self._face(v.get("face", "")))
        if name == "create":
            return self.say("create", name=v.get("name", ""), to=v.get("to", ""),
                            n=v.get("n", "1"))
        if name in ("offer", "cancel", "cancel_triggers", "run", "counter"):
            return self.say(name, args=everything)
        if name == "swap":
            return self.say("swap", a=v.get("a", ""), b=v.get("b", ""))
        if name == "control":  # (its `until` is a duration: "until the end of the turn")
            return self.say("control_until" if "until" in v else "control",
                            cards=v.get("cards", ""), player=v.get("player", ""))
        if name in ("act", "link"):
            return self.say(name, **v)
        if name in ("move", "shuffle", "set", "change", "assign", "reveal", "look", "win", "lose",
                    "draw_game", "first_turn", "transform", "detach", "copy", "attach",
                    "put_on", "resolve"):
            return self.say(name, **v)
        return self._default_call(name, list(v.values()))

    def _face(self, face: str) -> str:
        bare = face.strip("“”「」\"")
        return self.say(bare) if bare in ("up", "down") else face

    @stmt.on(A.Choose)
    def _choose(self, s: A.Choose) -> str:
        key = ("choose_up_to" if s.up_to else "choose") + ("_by" if s.by else "")
        text = self.say(key, n=self.expr(s.count), source=self.expr(s.source),
                        by=self.expr(s.by) if s.by else "")
        self._binding(s.name, self.say("chosen", what=self.say("cards_word")))
        return text

    @stmt.on(A.ChooseValue)
    def _choose_value(self, s: A.ChooseValue) -> str:
        self._binding(s.name, self.say("chosen", what=self.say(f"{s.kind}_word")))
        if s.high is not None:
            return self.say("choose_number", low=self.expr(s.source), high=self.expr(s.high))
        return self.say("choose_value", kind=self.say(f"{s.kind}_word"), source=self.expr(s.source))

    @stmt.on(A.ChooseMode)
    def _choose_mode(self, s: A.ChooseMode) -> str:
        return self.say("choose_one", modes=" / ".join(self.mode(m) for m in s.modes))

    def mode(self, m: A.Mode) -> str:
        return m.label if m.label is not None else self.body(m.body)

    @stmt.on(A.Modify)
    def _modify(self, s: A.Modify) -> str:
        text = self.say(f"modify_{s.op}", target=self.expr(s.target), prop=self.word(s.prop),
                        value=self.expr(s.value))
        if not s.until:
            return text
        until = self.say("until_turn") if "turn" in s.until else \
            self.say("until_phase") if "phase" in s.until else self.word(s.until)
        return self.say("until", what=text, until=until)

    @stmt.on(A.If)
    def _if(self, s: A.If) -> str:
        cond, then = self.expr(s.cond), self.body(s.then)
        if s.orelse:
            return self.say("if_else", cond=cond, then=then, orelse=self.body(s.orelse))
        return self.say("if", cond=cond, then=then)

    @stmt.on(A.ForEach)
    def _foreach(self, s: A.ForEach) -> str:
        source = self.expr(s.source)
        self._binding(s.name, self.say("each_one"))
        return self.say("for_each", source=source, body=self.body(s.body))

    @stmt.on(A.Repeat)
    def _repeat(self, s: A.Repeat) -> str:
        return self.say("repeat", n=self.expr(s.count), body=self.body(s.body))

    @stmt.on(A.Together)
    def _together(self, s: A.Together) -> str:
        return self.say("together", body=self.body(s.body))

    @stmt.on(A.Delayed)
    def _delayed(self, s: A.Delayed) -> str:
        event = self.phrases.get("names", s.event, self.lang) or readable(s.event)
        self._fields(s.event)
        if s.cond is not None:
            return self.say("delayed_if", event=event, cond=self.expr(s.cond),
                            body=self.body(s.body))
        return self.say("delayed", event=event, body=self.body(s.body))

    @stmt.on(A.May)
    def _may(self, s: A.May) -> str:
        if s.by is not None:
            return self.say("may_by", by=self.expr(s.by), body=self.body(s.body))
        return self.say("may", body=self.body(s.body))

    @stmt.on(A.Let)
    def _let(self, s: A.Let) -> str:
        self._binding(s.name, self.expr(s.value))
        return ""

    @stmt.on(A.Settle)
    def _settle(self, s: A.Settle) -> str:
        return ""

    # ---- expressions ----
    @expr.on(A.Num)
    def _num(self, e: A.Num) -> str:
        return str(e.value)

    @expr.on(A.Bool)
    def _bool(self, e: A.Bool) -> str:
        return self.say("true" if e.value else "false")

    @expr.on(A.Str)
    def _str(self, e: A.Str) -> str:
        if e.value in self.rs.zones or e.value in self.rs.states or e.value in ("up", "down"):
            return self.word(e.value) if e.value not in ("up", "down") else e.value
        said = self.phrases.get("names", e.value, self.lang)
        if said is None and any(ph.name == e.value for ph in self.rs.phases):
            said = self.phrases.get("names", f"phase.{e.value}", self.lang)  # (a phase's name)
        return self.say("text", v=said or e.value)

    @expr.on(A.NoneLit)
    def _none(self, e: A.NoneLit) -> str:
        return self.say("none")

    @expr.on(A.Name)
    def _name(self, e: A.Name) -> str:
        if e.id in self.bound:
            return self.bound[e.id]
        said = self.phrases.get("names", e.id, self.lang)
        if said is not None:
            return said
        if e.id in _VALUES:
            return self.say(e.id)
        rs = self.rs
        if e.id in rs.zones or e.id in rs.states or e.id in rs.properties or e.id in rs.resources \
                or e.id in rs.counters or e.id in rs.verbs or e.id in rs.actions \
                or any(e.id in p.values for p in rs.properties.values()):
            return readable(e.id)
        return self.say("it")  # a variable: never its name

    @expr.on(A.Member)
    def _member(self, e: A.Member) -> str:
        return self.say("member", obj=self.expr(e.obj), name=self.word(e.name))

    @expr.on(A.Call)
    def _call_expr(self, e: A.Call) -> str:
        args = [self.expr(a.value) for a in e.args]
        if e.name in self.rs.zones:
            zone = self.word(e.name)
            if not args:
                return zone
            if isinstance(e.args[0].value, A.Name) and e.args[0].value.id == "you" \
                    and e.args[0].value.id not in self.bound:
                return self.say("your_zone", zone=zone)
            return self.say("zone_of", owner=args[0], zone=zone)
        if e.name in ("top", "bottom") and len(args) == 2:
            return self.say(f"{e.name}_n", a=args[0], n=args[1])
        if e.name in ("total", "printed") and len(args) == 2:
            prop = e.args[1].value
            return self.say("total" if e.name == "total" else "printed_of", a=args[0],
                            b=self.word(prop.id) if isinstance(prop, A.Name) else args[1])
        if e.name in ("union", "max", "min"):
            return self.say(e.name, a=joined(args, self.lang))
        if e.name == "zones":
            return self.say("zones", a=joined(args, self.lang, "or_list"))
        if e.name in FUNCTIONS:
            # (its first two arguments: {a} and {b} of its words)
            return self.say(e.name, **dict(zip("ab", args, strict=False)))
        return self._default_call(e.name, args)

    @expr.on(A.Unary)
    def _unary(self, e: A.Unary) -> str:
        return self.say("not" if e.op == "not" else "neg", a=self.expr(e.operand))

    @expr.on(A.Binary)
    def _binary(self, e: A.Binary) -> str:
        return self.say(e.op, a=self.expr(e.left), b=self.expr(e.right))

    @expr.on(A.Filter)
    def _filter(self, e: A.Filter) -> str:
        source = self.expr(e.source)
        if e.name:
            self._binding(e.name, self.say("it"))
        return self.say("filter", a=source, b=self.expr(e.cond))

    # ---- abilities ----
    def _fields(self, event: str) -> None:
        """Name the fields of the event a trigger or replacement hears by what they are."""
        verb = self.rs.verbs.get(event)
        fields = verb.params if verb is not None else ("card", "player", "phase", "n")
        for f in fields:
            said = self.phrases.get("names", f"{event}.{f}", self.lang)
            if said is None:
                known = f"field.{f}" in catalog.T
                said = self.say("field", field=self.say(f"field.{f}") if known else self.word(f))
            self.bound.setdefault(f, said)

    @ability.on(A.Trigger)
    def _trigger(self, a: A.Trigger) -> str:
        event = self.phrases.get("names", a.event, self.lang)
        if event is None:  # the engine's own events have words in the catalog
            event = self.say(f"when.{a.event}") if f"when.{a.event}" in catalog.T else readable(a.event)
        self._fields(a.event)
        if a.cond is not None:
            return self.say("trigger_if", event=event, cond=self.expr(a.cond), body=self.body(a.body))
        return self.say("trigger", event=event, body=self.body(a.body))

    @ability.on(A.Activated)
    def _activated(self, a: A.Activated) -> str:
        cost = self.body(a.cost) if a.cost else self.say("no_cost")
        if a.cond is not None:
            return self.say("activated_if", cost=cost, cond=self.expr(a.cond), body=self.body(a.body))
        return self.say("activated", cost=cost, body=self.body(a.body))

    @ability.on(A.Static)
    def _static(self, a: A.Static) -> str:
        body = self.say("then").join(self.stmt(m) for m in a.modifiers)
        if a.cond is not None:
            return self.say("static_if", cond=self.expr(a.cond), body=body)
        return self.say("static", body=body)

    @ability.on(A.Replacement)
    def _replacement(self, a: A.Replacement) -> str:
        verb = self.word(a.verb)
        self._fields(a.verb)
        if a.cond is not None:
            return self.say("replacement_if", verb=verb, cond=self.expr(a.cond), body=self.body(a.body))
        return self.say("replacement", verb=verb, body=self.body(a.body))

    @ability.on(A.Prohibition, A.Permission)
    def _rule(self, a: A.Prohibition | A.Permission) -> str:
        kind = "prohibition" if isinstance(a, A.Prohibition) else "permission"
        action = self.word(a.action)
        if a.cond is not None:
            return self.say(f"{kind}_if", action=action, cond=self.expr(a.cond))
        return self.say(kind, action=action)

    @ability.on(A.InZones)
    def _in_zones(self, a: A.InZones) -> str:
        return self.say("in_zones", zones=joined([self.word(z) for z in a.zones], self.lang, "or_list"),
                        ability=self.ability(a.ability))
