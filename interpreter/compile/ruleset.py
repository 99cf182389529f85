"""Compile a ruleset's YAML: names, zones, verbs, actions, turn structure, end and deck rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from interpreter.compile.exprs import _Generator, modified_source
from interpreter.compile.names import ENGINE_EVENTS, ruleset_names
from interpreter.compile.stmts import StmtCompiler
from interpreter.compile.straight import InlineVerb, inline_verb
from interpreter.compile.texts import TextReader, parse_text
from interpreter.diagnostics import Diagnostic, did_you_mean
from interpreter.engine import instructions as I
from interpreter.engine import priority as P
from interpreter.engine import turn as T
from interpreter.engine import vm
from interpreter.engine.model import (
    ActionDef,
    CardDef,
    Limits,
    LossRule,
    PhaseDef,
    PoolDef,
    PropDef,
    Ruleset,
    StateDef,
    StateRule,
    TriggerRules,
    VerbDef,
    WindowDef,
    ZoneDef,
    offered,
)
from interpreter.engine.timing_models import timing_model
from interpreter.lang import ast as A
from interpreter.load.files import MAX_DECK
from interpreter.load.yamlpos import Doc
from interpreter.words import phrases
from interpreter.words.phrases import Phrases

ACTION_FIELDS = ("card", "player", "ability")


class RulesetBuilder:
    def __init__(self, doc: Doc, reference: bool = False) -> None:
        self.doc = doc
        self.raw: dict = doc.data
        self.timing = timing_model(self.raw)
        self.diags: list[Diagnostic] = []
        self.names = ruleset_names(self.raw)
        self.verb_defaults: dict[str, dict] = {}
        self.dids: dict[str, A.Expr | None] = {}  # each verb's `did` (None: it always reports)
        # reference: no generated runs, no verb run inline, no property read inline (the
        # kernel's functions do it all: engine/kernel.py)
        self.reference = reference
        self.compiler = StmtCompiler(self.names, self.verb_defaults, reference)
        self.texts = TextReader(doc, self.names, self.diags, self.compiler)
        self.selections: dict[str, tuple] = {}  # action -> (its cards' tree, its rules' trees)
        self.speeds: dict[str, A.Expr | None] = {}  # `speeds`: name -> its condition's tree
        self.any_time: tuple[str, ...] = ()  # the actions every window offers (`any_time`)
        # what kept values are computed from, for compile/reads.py once every text is compiled
        self.formula_trees: dict[str, A.Expr] = {}
        self.rule_trees: list[A.Expr] = []  # each state rule's `each`
        self.end_trees: list[A.Expr] = []  # each win/loss rule's condition
        self.heuristic_trees: list[A.Expr] = []
        self.static_trees: list[A.Expr | None] = []  # static abilities' conditions, targets, values

    def build(self) -> tuple[Ruleset, tuple]:
        raw = self.raw
        rs = Ruleset(
            id=raw.get("id", ""), name=raw.get("name", ""), players=raw.get("players", 2),
            resolution=raw.get("resolution", "stack"),
            simultaneous_loss=raw.get("simultaneous_loss", "draw"),
            ability_zones=tuple(raw.get("ability_zones") or ()),
            modifier_order=tuple(raw.get("modifier_order") or ("=", "+=", "-=")),
            zones=self._zones(), properties=self._properties(), states=self._states(),
            resources={k: v or {} for k, v in (raw.get("resources") or {}).items()},
            counters=tuple(raw.get("counters") or ()),
            deck=raw.get("deck") or {}, tokens=raw.get("tokens") or {},
            path=self.doc.path, raw=raw, timing=self.timing,
        )
        rs.state_checks = self._state_checks()
        rs.properties = {n: replace(p, formula=self._formula(n)) if p.type == "number" else p
                         for n, p in rs.properties.items()}
        self._check_zone_refs(rs)
        self._check_name_clashes()
        self._check_resource_bounds()
        rs.verbs = self._verbs()
        self.speeds = self._speeds()
        rs.actions = self._actions()
        rs.any_time = tuple(n for n, d in (raw.get("actions") or {}).items()
                            if (d or {}).get("any_time") and n in rs.actions)
        self.any_time = rs.any_time
        rs.phases = self._phases()
        rs.windows = self._windows()
        rs.end_rules = self._end_rules()
        rs.end_check = self._end_check(rs.players)
        rs.state_rules = self._state_rules()
        rs.heuristic = self._expr(("heuristic",), {"player"}, "expr", self.heuristic_trees) \
            if raw.get("heuristic") \
            else None
        rs.deck_rules = self._deck_rules()
        rs.pools = self._pools()
        rs.limits = self._limits()
        rs.triggers = self._triggers()
        rs.typed_costs = self._typed_costs()
        at = ("setup", "do") if isinstance(raw.get("setup"), dict) else ("setup",)
        setup = self._body(at, set(), head=self._ref_head("setup", raw.get("setup")))
        program = self._program(rs, setup)
        rs.phrases = self._phrases(rs)
        return rs, program

    def _phrases(self, rs: Ruleset) -> Phrases:
        """The `phrases:` (words/), checked: each names a thing of its section and only the
        placeholders it can fill. A ruleset that gives phrases is told (a warning) of every
        question its own texts ask that would read as a default in its language."""
        found = phrases.Phrases(phrases.read(self.raw).table, self.raw.get("language"),
                                self.compiler.asked)
        # (an event a verb names with `event:` shows that verb's params)
        fields = {**{d.event: set(d.params) for d in rs.verbs.values() if d.event},
                  **{v: set(d.params) for v, d in rs.verbs.items()},
                  **{a: {"card", "player", "ability"} for a in rs.actions}}
        known = {"verbs": {v: set(d.params) for v, d in rs.verbs.items()},
                 "actions": {a: {"card", "player", "ability"} for a in rs.actions},
                 "events": {e: fields.get(e, set()) for e in self.names.events | set(fields)}}
        for section, allowed in known.items():
            for name, entry in found.table[section].items():
                at = ("phrases", section, name)
                if name not in allowed:
                    self.diags.append(self.doc.diag(at, "E-PHRASE", f"phrases.{section} names "
                                                    f"{name!r}, which is no {section[:-1]} of the ruleset",
                                                    did_you_mean(name, allowed)))
                    continue
                for lang, text in entry.items():
                    for ph in phrases.PLACEHOLDER.findall(text):
                        if ph not in allowed[name]:
                            self.diags.append(self.doc.diag(
                                (*at, lang), "E-PHRASE", f"{{{ph}}} is not something {name!r} "
                                f"has to show", "use one of " + (", ".join(
                                    f"{{{p}}}" for p in sorted(allowed[name])) or "no placeholder")))
        if self.raw.get("phrases"):
            self._unphrased(found, self.raw.get("language") or "en")
        return found

    def _unphrased(self, found: Phrases, lang: str) -> None:
        seen: set[str] = set()
        for asked in found.asked.values():
            if asked.at is None or asked.key in seen \
                    or found.get("decisions", asked.key, lang) is not None:
                continue
            seen.add(asked.key)
            d = self.doc.diag(asked.at, "W-PHRASE", f"the question {asked.key!r} has no "
                              f"phrase in {lang}: people read a default made from its code",
                              f"add phrases: {{decisions: {{{asked.key}: {{{lang}: ...}}}}}}")
            self.diags.append(replace(d, severity="warning"))

    @staticmethod
    def _ref_head(event: str, spec) -> tuple:
        """An event citing the rule as the procedure starts (for the log)."""
        ref = spec.get("ref", "") if isinstance(spec, dict) else ""
        return (I.Emit(event, (), ref),) if ref else ()

    def _zones(self) -> dict[str, ZoneDef]:
        out = {}
        for name, d in (self.raw.get("zones") or {}).items():
            d = d or {}
            out[name] = ZoneDef(name, bool(d.get("shared")), bool(d.get("ordered")),
                                d.get("visibility", "public"), d.get("face", "up"),
                                d.get("capacity"), self._enter_rules(name, d.get("enter")),
                                d.get("area"), bool(d.get("beneath")))
        return out

    def _enter_rules(self, zone: str, rules: Any) -> tuple:
        """A zone's `enter` rules: (id, condition, why a card is refused: its description, ref
        or id). `card` is the card coming in, `player` the zone's owner."""
        out: list[tuple] = []
        trees: list[A.Expr] = []
        for i, r in enumerate(rules if isinstance(rules, list) else ()):
            cond = self._expr(("zones", zone, "enter", i, "if"), {"card", "player"}, "cond", trees)
            if cond is not None:
                out.append((r["id"], cond, r.get("description") or r.get("ref") or r["id"]))
        # (what `can_enter` compiles inline: exprs._Generator._can_enter)
        self.names.enter_rules[zone] = tuple(zip((r[0] for r in out), trees, strict=True)) \
            if len(out) == len(rules or ()) else None
        return tuple(out)

    def _properties(self) -> dict[str, PropDef]:
        return {n: PropDef(n, (d or {}).get("type", "number"), (d or {}).get("default"),
                           (d or {}).get("min"), (d or {}).get("max"),
                           tuple((d or {}).get("values") or ()),
                           bool((d or {}).get("always_known")))
                for n, d in (self.raw.get("properties") or {}).items()}

    def _formula(self, name: str):
        """A computed property: an expression about the card (bare names are its properties)."""
        if not (self.raw.get("properties") or {}).get(name, {}).get("formula"):
            return None
        trees: list[A.Expr] = []
        fn = self._expr(("properties", name, "formula"), set(), "card_value", trees)
        self.formula_trees.update((name, t) for t in trees)
        self.compiler.modified.add(name)  # read through the number path, not as printed
        return fn

    def _states(self) -> dict[str, StateDef]:
        return {n: StateDef(n, i, bool((d or {}).get("hides_properties")), (d or {}).get("clear"),
                            bool((d or {}).get("disables_abilities")),
                            bool((d or {}).get("removes_modifiers")))
                for i, (n, d) in enumerate((self.raw.get("states") or {}).items())}

    def _check_resource_bounds(self) -> None:
        """A resource's bounds must leave room for a value, and its start must lie within them
        (the engine clamps every change, never the initial value)."""
        for name, d in (self.raw.get("resources") or {}).items():
            d = d or {}
            low, high, start = d.get("min"), d.get("max"), d.get("initial", 0)
            if low is not None and high is not None and low > high:
                self.diags.append(self.doc.diag(
                    ("resources", name, "max"), "RESOURCE-BOUNDS",
                    f"resource '{name}' has max {high} below its min {low}", "swap them"))
            elif (low is not None and start < low) or (high is not None and start > high):
                self.diags.append(self.doc.diag(
                    ("resources", name, "initial" if "initial" in d else "min"),
                    "RESOURCE-BOUNDS",
                    f"resource '{name}' starts at {start}, outside its bounds "
                    f"[{low if low is not None else ''}..{high if high is not None else ''}]",
                    "start it within min and max"))

    def _check_name_clashes(self) -> None:
        """An enum value spelled like a card field would read differently inside `where`;
        a resource named like a card field makes `x.name` ambiguous."""
        for kind in ("actions", "verbs"):
            for name, d in (self.raw.get(kind) or {}).items():
                event = (d or {}).get("event", name) if kind == "verbs" else name
                if event in ENGINE_EVENTS:
                    self.diags.append(self.doc.key_diag(
                        (kind, name), "AMBIGUOUS-NAME",
                        f"'{event}' is already an engine event: `when {event}` could not tell "
                        f"them apart", "rename it"))
        for name in self.raw.get("resources") or {}:
            if self.names.card_field(name):
                self.diags.append(self.doc.key_diag(
                    ("resources", name), "AMBIGUOUS-NAME",
                    f"resource '{name}' is also the name of a card property, state or counter",
                    "rename one of them"))
        for name, d in (self.raw.get("properties") or {}).items():
            for i, value in enumerate((d or {}).get("values") or ()):
                if self.names.card_field(value):
                    self.diags.append(self.doc.diag(
                        ("properties", name, "values", i), "AMBIGUOUS-NAME",
                        f"enum value '{value}' is also the name of a card property, state or "
                        "attribute", "rename one of them"))

    def _check_zone_refs(self, rs: Ruleset) -> None:
        for i, z in enumerate(rs.ability_zones):
            self._expect_zone(("ability_zones", i), z)
        for sec, d in ((rs.deck or {}).get("sections") or {}).items():
            self._expect_zone(("deck", "sections", sec, "zone"), (d or {}).get("zone"))
        self._check_card_stats()

    def _pools(self) -> tuple[PoolDef, ...]:
        """`pools`: game-owned cards dealt to shared zones before `setup` (their names are
        checked against the card sets by compile/build.py, which knows them)."""
        out = []
        for name, d in (self.raw.get("pools") or {}).items():
            zone = d.get("zone")
            self._expect_zone(("pools", name, "zone"), zone)
            if zone in self.names.zones and not self.names.zones[zone]:
                self.diags.append(self.doc.diag(
                    ("pools", name, "zone"), "POOL-ZONE",
                    f"pool {name!r} deals into {zone!r}, a zone of each player; a pool belongs "
                    "to no player", f"declare {zone!r} with `shared: true`, or put these cards "
                    "in the players' decks"))
            counts = d.get("cards") or {}
            if sum(counts.values()) > MAX_DECK:  # (before expanding them card by card)
                self.diags.append(self.doc.diag(
                    ("pools", name, "cards"), "POOL-TOO-LARGE",
                    f"pool {name!r} holds more than {MAX_DECK:,} cards",
                    "no game is played with pools this large"))
                counts = {}
            cards = tuple(card for card, n in counts.items() for _ in range(n))
            out.append(PoolDef(str(name), str(zone), cards, str(d.get("ref", ""))))
        if out:
            self._check_pool_ability_zones()
        return tuple(out)

    def _check_pool_ability_zones(self) -> None:
        """A pool's cards are no player's while they sit in shared zones: an ability working
        there would run with no `you`, so with pools no shared zone is an ability zone."""
        for i, zone in enumerate(self.raw.get("ability_zones") or ()):
            if self.names.zones.get(zone):
                self.diags.append(self.doc.diag(
                    ("ability_zones", i), "POOL-ABILITY-ZONE",
                    f"{zone!r} is shared and this ruleset has pools: a pool's card there would "
                    "have working abilities and no controller", "take it out of ability_zones: "
                    "a pool's card works once a player's zone takes it"))

    def _check_card_stats(self) -> None:
        """`card_stats` (what per-card statistics count as drawn and played) names a zone
        and actions of the ruleset."""
        spec = self.raw.get("card_stats") or {}
        hand = spec.get("hand")
        if isinstance(hand, list):
            for j, zone in enumerate(hand):
                self._expect_zone(("card_stats", "hand", j), zone)
        elif hand is not None:
            self._expect_zone(("card_stats", "hand"), hand)
        for j, action in enumerate(spec.get("plays") or ()):
            if action not in self.names.actions:
                self.diags.append(self.doc.diag(("card_stats", "plays", j), "UNKNOWN-ACTION",
                                                f"unknown action {action!r}",
                                                did_you_mean(action, self.names.actions)))

    def _triggers(self) -> TriggerRules:
        """`triggers`: the order policy, and whether abilities resolve once their card left
        play (the schema checks the words); the exceptions must be events of the game."""
        spec = self.raw.get("triggers") or {}
        exceptions = spec.get("except") or ()
        for j, event in enumerate(exceptions):
            if event not in self.names.events:
                self.diags.append(self.doc.diag(("triggers", "except", j), "UNKNOWN-EVENT",
                                                f"unknown event {event!r}",
                                                did_you_mean(str(event), self.names.events)))
        return TriggerRules(spec.get("order", "ask"), spec.get("left_play", "resolve"),
                            frozenset(exceptions))

    def _expect_zone(self, at: tuple, zone: Any) -> None:

        if zone not in self.names.zones:
            self.diags.append(self.doc.diag(at, "UNKNOWN-ZONE", f"unknown zone {zone!r}",
                                            did_you_mean(str(zone), self.names.zones)))

    def _body(self, at: tuple, scope: dict[str, str] | set[str], head: tuple = (),
              tail: tuple = (), bound: Iterable[str] = ()) -> tuple:
        """`bound`: the scope's names that the env running the body surely holds."""
        return self._compile_body(at, self.texts.read(at, "body", scope), head, tail, bound)

    def _compile_body(self, at: tuple, tree: A.Body | None, head: tuple, tail: tuple,
                      bound: Iterable[str]) -> tuple:
        self.compiler.context = self._context(at)
        if tree is None:
            return (*head, *tail)
        self.compiler.at = at
        try:
            with self.compiler.exprs.binding(bound):
                return self.compiler.body(tree, head, tail)
        finally:
            self.compiler.at = None  # (a card's text has no place in the ruleset)

    def _context(self, at: tuple) -> str:
        """What a prompt of the body at `at` names: its verb, action or phase, else its key."""
        if len(at) > 1 and at[0] in ("verbs", "actions"):
            return str(at[1])
        if len(at) > 1 and at[0] == "turn":
            return str(self.raw["turn"][at[1]].get("phase", f"phase{at[1]}"))
        return str(at[0])

    def _typed_costs(self) -> tuple | None:
        """`typed_costs: {cards, type}`: the cards that pay the typed costs of a card's
        abilities (`self` the card, `you` its controller) and the enum property of their type."""
        spec = self.raw.get("typed_costs")
        if not isinstance(spec, dict):
            return None
        prop = spec.get("type")
        pdef = (self.raw.get("properties") or {}).get(prop)
        if not isinstance(pdef, dict) or pdef.get("type") != "enum":
            self.diags.append(self.doc.diag(
                ("typed_costs", "type"), "UNKNOWN-PROPERTY",
                f"typed_costs.type must name an enum property; {prop!r} is none",
                did_you_mean(str(prop), [n for n, d in (self.raw.get("properties") or {}).items()
                                         if isinstance(d, dict) and d.get("type") == "enum"])))
            return None
        cards = self._expr(("typed_costs", "cards"), {"self", "you"}, "expr")
        return None if cards is None else (cards, prop)

    def _expr(self, at: tuple, scope: set[str], kind: str = "cond", trees: list | None = None):
        """The compiled expression at `at` (None when it did not check); its tree goes into
        `trees` when given."""
        tree = self.texts.read(at, kind, scope)
        if tree is None:
            return None
        if trees is not None:
            trees.append(tree)
        exprs = self.compiler.exprs
        return exprs.compile_card(tree) if kind in ("card_cond", "card_value") \
            else exprs.compile(tree)

    def _verbs(self) -> dict[str, VerbDef]:
        out = {}
        trees = {}  # every verb's body is read before any is compiled: see _inlinable
        for name in self.raw.get("verbs") or {}:
            params = self.names.verbs[name]
            self.verb_defaults[name] = {p.name: _default_expr(p.default, p.type)
                                        for p in params if p.default is not ...}
            trees[name] = (self.texts.read(("verbs", name, "do"), "body",
                                           {p.name: p.type for p in params}),
                           self.compiler.words)
            self.dids[name] = self.texts.read(("verbs", name, "did"), "cond",
                                              {p.name: p.type for p in params})
        self._inlinable(trees)
        for name, d in (self.raw.get("verbs") or {}).items():
            params = self.names.verbs[name]
            event = self.names.verb_events[name]
            fields = tuple(p.name for p in params)
            ref = (d or {}).get("ref", "")
            tree, self.compiler.words = trees[name]
            body = self._compile_body(("verbs", name, "do"), tree,
                                      (), self._verb_tail(name, I.Emit(event, fields, ref)), fields)
            self.compiler.verb_compiled(name, body)
            each = (d or {}).get("each")
            if each is not None and each not in fields:
                self.diags.append(self.doc.diag(("verbs", name, "each"), "UNKNOWN-PARAM",
                                                f"'{each}' is not a parameter of '{name}'",
                                                did_you_mean(each, fields)))
                each = None
            defaults = {k: self.compiler.exprs.compile(tree)
                        for k, tree in self.verb_defaults[name].items()}
            out[name] = VerbDef(name, fields, tuple(p.type for p in params),
                                defaults, body, event, ref, each, bool((d or {}).get("quiet")))
        return out

    def _verb_tail(self, name: str, emit: I.Emit) -> tuple:
        """What a verb's body ends with: its event, reported only if its `did` holds."""
        did = self.dids[name]
        if did is None:
            return (emit,)
        return (A.If(did.span, did, (emit,), ()),)  # type: ignore[arg-type]  # (an Instr)

    def _inlinable(self, trees: dict[str, tuple]) -> None:
        """The verbs whose calls run inline in their callers' generated code (straight.InlineVerb):
        found in rounds, each admitting the verbs that call only verbs admitted before (so
        none that calls itself, even through others)."""
        leaves = self.compiler.inlinable
        while not self.reference:
            found = {name: f for name in trees.keys() - leaves
                     if (f := self._inline_verb(name, *trees[name])) is not None}
            if not found:
                return
            leaves.update(found)

    def _inline_verb(self, name: str, tree: A.Body | None, words: set) -> InlineVerb | None:
        d = self.raw["verbs"][name] or {}
        each, params = d.get("each"), self.names.verbs[name]
        if tree is None or each not in (None, *(p.name for p in params)):
            return None
        return inline_verb(params, each, self.names.verb_events[name], d.get("ref", ""), tree, words,
                    self.compiler.inlinable, self.dids[name])

    def _actions(self) -> dict[str, ActionDef]:
        out = {}
        for name, d in (self.raw.get("actions") or {}).items():
            d = d or {}
            at = ("actions", name)
            scope = set(ACTION_FIELDS)
            limit = d.get("limit")
            cards_tree = self.texts.read((*at, "card"), "expr", {"player"}) if d.get("card") \
                else None
            requires, trees = self._requires(at, d.get("requires"), scope)
            requires, trees = self._speed(at, d, requires, trees)
            if cards_tree is not None and not d.get("abilities") and None not in trees:
                self.selections[name] = (cards_tree, trees)  # compiled once the cards are
            head, tail = self._stack_ends(name, d)
            body = self._body((*at, "do"), scope,
                              head=(I.Emit(name, ACTION_FIELDS, d.get("ref", "")), *head),
                              tail=tail, bound=("card", "player"))  # (see actions.start_action)
            out[name] = ActionDef(
                name=name, label=d.get("label", f"{name} {{card}}" if d.get("card") else name),
                cards=self.compiler.exprs.compile(cards_tree) if cards_tree is not None else None,
                abilities=bool(d.get("abilities")),
                requires=requires,
                select=None,  # (see compile_selections)
                body=body,
                limit=(limit["count"], limit.get("per", "turn"), limit.get("on", "declare"))
                if limit else None,
                ref=d.get("ref", ""),
                direct=I.closed_run(body),
                head=body[0].event if isinstance(body[0], I.Emit) else None,
                stack=bool(d.get("stack")),
                resolve=self._body((*at, "resolve"), scope, bound=("card", "player"))
                if d.get("resolve") else (),
                fizzled=self._body((*at, "fizzled"), scope, bound=("card", "player"))
                if d.get("fizzled") else (),
            )
        return out

    def _speeds(self) -> dict[str, A.Expr | None]:
        """`speeds`: each named condition, read as an action's `requires` rule (None where it
        did not check)."""
        return {name: self.texts.read(("speeds", name), "cond", set(ACTION_FIELDS))
                for name in self.raw.get("speeds") or {}}

    def _speed(self, at: tuple, d: dict, requires: tuple, trees: list) -> tuple[tuple, list]:
        """An action's `speed`: the ruleset's condition of that name (`speeds`), one more of
        its `requires` rules (its id the speed's name: `can NAME` lifts it, as flash does)."""
        speed = d.get("speed")
        if speed is None:
            return requires, trees
        if speed not in self.speeds:
            self.diags.append(self.doc.diag((*at, "speed"), "UNKNOWN-NAME",
                                            f"unknown speed {speed!r}",
                                            did_you_mean(str(speed), self.speeds)))
            return requires, trees
        tree = self.speeds[speed]
        trees = [*trees, tree]
        if tree is None:
            return requires, trees
        return (*requires, (speed, self.compiler.exprs.compile(tree))), trees

    def _state_checks(self) -> str:
        """When the win/loss rules are asked: after every atomic step (`event`), or only when
        a player would receive priority (`priority`, Magic's 704.3: under `timing: priority`)."""
        checks = self.raw.get("state_checks", "event")
        if checks == "priority" and not self.timing.passes_priority:
            self.diags.append(self.doc.diag(("state_checks",), "STATE-CHECKS",
                                            "`state_checks: priority` needs `timing: priority`",
                                            "add `timing: priority`, or remove `state_checks`"))
            return "event"
        return checks

    def _stack_ends(self, name: str, d: dict) -> tuple[tuple, tuple]:
        """Under `timing: priority`, an action with `stack: true` chooses its card's targets
        first and ends by putting its object on the stack (engine/priority.py)."""
        if not d.get("stack"):
            return (), ()
        if not self.timing.has_stack:
            self.diags.append(self.doc.diag(("actions", name, "stack"), "STACK",
                                            "`stack: true` needs the ruleset's `timing: priority`",
                                            "add `timing: priority`, or remove `stack`"))
            return (), ()
        if not d.get("card"):
            self.diags.append(self.doc.diag(("actions", name, "stack"), "STACK",
                                            "an object on the stack is a card's spell or ability",
                                            "give the action a `card`"))
            return (), ()
        return (P.ChooseTargets(),), (P.PutOnStack(name),)

    def compile_selections(self, rs: Ruleset, pool: list[CardDef]) -> None:
        """Compile the actions' selections again once every card is compiled (`pool`): then
        the properties no text modifies are known, and the selections read them inline (they
        run for every action at every decision; a reader call per card is most of the cost)."""
        exprs = self.compiler.exprs
        hides = sum(1 << s.index for s in rs.states.values() if s.hides_properties)
        modified = self.compiler.modified  # (those read inline unless a card has modifiers)
        exprs.printed = {} if self.reference else {
            name: _printed_source(p, i, hides) if name not in modified
            else modified_source(name, _printed_source(p, i, hides))
            for i, (name, p) in enumerate(rs.properties.items())
            if p.in_bounds(pool) and type(p.default) in (type(None), int, str, bool)
            and (name not in modified or p.type == "number" and p.formula is None)}
        exprs.printed_later.update((k, v) for k, v in exprs.printed.items()
                                   if k not in modified)  # (see ExprCompiler.printed_later)
        exprs.printed_known()
        visibility = {name: z.visibility for name, z in rs.zones.items()}
        try:
            for name, (cards, rules) in self.selections.items():
                rs.actions[name] = replace(rs.actions[name], select=exprs.compile_selection(
                    name, cards, rules, visibility))
            windows = [*(p.actions for p in rs.phases), *(w.actions for w in rs.windows.values()),
                       *(offered(rs, name) for name in sorted(self.compiler.offered)
                         if name in rs.actions)]
            for names in dict.fromkeys(windows):
                if names:  # every action of a window in one function (ExprCompiler.compile_window;
                    # an action offered alone too: see primitives.offer)
                    rs.selections[names] = exprs.compile_window(
                        [(rs.actions[n], self.selections.get(n)) for n in names],
                        visibility)
        finally:
            exprs.printed = {}

    def _requires(self, at: tuple, spec, scope: set[str]) -> tuple[tuple, list]:
        """`requires:` as one expression (rule id = the action) or a list of named rules;
        also the rules' trees (None where a rule did not check)."""
        if not spec:
            return (), []
        places = [((*at, "requires"), at[-1])] if isinstance(spec, str) else \
            [((*at, "requires", i, "if"), rule["id"]) for i, rule in enumerate(spec)]
        rules, trees = [], []
        for place, rule_id in places:
            tree = self.texts.read(place, "cond", scope)
            trees.append(tree)
            if tree is not None:
                rules.append((rule_id, self.compiler.exprs.compile(tree)))
        return tuple(rules), trees

    def _phases(self) -> tuple[PhaseDef, ...]:
        out = []
        for i, d in enumerate(self.raw.get("turn") or ()):
            at = ("turn", i)
            out.append(PhaseDef(
                name=d.get("phase", f"phase{i}"),
                when=self._expr((*at, "if"), set()) if d.get("if") else None,
                body=self._body((*at, "do"), set()) if d.get("do") else (),
                actions=self._action_list(at, d.get("actions")),
                ref=d.get("ref", ""),
                max_actions=d.get("max_actions"),
            ))
        return tuple(out)

    def _windows(self) -> dict[str, WindowDef]:
        return {name: WindowDef(name, self._action_list(("windows", name), (d or {}).get("actions")),
                                (d or {}).get("max_actions"))
                for name, d in (self.raw.get("windows") or {}).items()}

    def _action_list(self, at: tuple, actions: list | None) -> tuple[str, ...]:
        """The known actions of a phase's or window's list, each once, then the actions that
        may be taken at any time (`any_time`: every window has them; a phase that lists no
        actions has no window); unknown ones are reported."""
        for j, action in enumerate(actions or ()):
            if action not in self.names.actions:
                self.diags.append(self.doc.diag((*at, "actions", j), "UNKNOWN-ACTION",
                                                f"unknown action {action!r}",
                                                did_you_mean(action, self.names.actions)))
        listed = [a for a in actions or () if a in self.names.actions]
        return tuple(dict.fromkeys((*listed, *self.any_time) if actions is not None else ()))

    def _end_rules(self) -> tuple[LossRule, ...]:
        out = []
        for i, d in enumerate(self.raw.get("end") or ()):
            outcome = "lose" if "lose" in d else "win"
            cond = self._expr(("end", i, outcome), {"player"}, "cond", self.end_trees)
            if cond is not None:
                out.append(LossRule(cond, d.get("reason", outcome), d.get("ref", ""), outcome))
        return tuple(out)

    def _end_check(self, players: int) -> Callable[..., Any] | None:
        """Every win/loss rule for every player (in vm.check_end's order) as one function of
        the state: nothing holding, the common case, costs one call. It ends the game when a
        rule holds (vm.end_game), unless the game is over or a `simultaneously` block is open.
        `player` is a constant in it; the rest of a player's env reads its read-only env."""
        if not self.end_trees:
            return None
        gen = _Generator(self.compiler.exprs)
        gen.players.update(repr(p) for p in range(players))
        envs = gen.const(tuple({"player": p, "you": p, "opponent": (p + 1) % players, "self": None}
                               for p in range(players)))
        end = gen.const(vm.end_game)
        lines = ["if g.result is not None or g.atomic:", "    return None"]
        for p in range(players):
            gen.args = {"player": repr(p)}
            holds = " or ".join(f"({gen.test(tree, False, False)})" for tree in self.end_trees)
            if "env" in holds:  # (the rest of the player's env)
                lines.append(f"env = {envs}[{p}]")
            lines += [f"if {holds}:", f"    {end}(g)"]
        return gen.function("None", [*lines, "g.clean_at = g.version"], "g")

    def _state_rules(self) -> tuple[StateRule, ...]:
        out = []
        for i, d in enumerate(self.raw.get("rules") or ()):
            at = ("rules", i)
            each = self._expr((*at, "each"), {"player"}, "expr", self.rule_trees)
            body = self._body((*at, "do"), {"player": "player", "card": "cards"},
                              bound=("player", "card"))  # (see vm._fire_state_rules)
            if each is not None:
                out.append(StateRule(d.get("id", f"rule{i}"), each, body, d.get("ref", ""),
                                     together=d.get("matches") == "together"))
        return tuple(out)

    def _deck_rules(self) -> tuple:
        """Deck construction rules: `where` reads each card's printed properties."""
        out = []
        deck = self.raw.get("deck") or {}
        for i, rule in enumerate(deck.get("rules") or ()):
            if not self._check_deck_rule(("deck", "rules", i), rule, deck.get("sections") or {}):
                continue
            fn = self._expr(("deck", "rules", i, "where"), set(), "card_cond")
            if fn is not None:
                out.append((rule, fn))
        return tuple(out)

    def _check_deck_rule(self, at: tuple, rule: dict, sections: dict) -> bool:
        """`per` names a property (or name), `total` a number property, `section(s)` deck
        sections. False when the rule cannot be counted (a bad `total`)."""
        props = self.names.property_types
        numbers = [p for p, t in props.items() if t == "number"]
        total = rule.get("total")
        if total is not None and props.get(total) != "number":
            self.diags.append(self.doc.diag((*at, "total"), "UNKNOWN-PROPERTY",
                                            f"'{total}' is not a number property",
                                            did_you_mean(str(total), numbers)))
            return False
        if "per" in rule and rule["per"] not in props and rule["per"] != "name":
            self.diags.append(self.doc.diag((*at, "per"), "UNKNOWN-PROPERTY",
                                            f"'{rule['per']}' is not a property",
                                            did_you_mean(str(rule["per"]), [*props, "name"])))
        named = [((*at, "sections", j), s) for j, s in enumerate(rule.get("sections") or ())]
        if "section" in rule:
            named.append(((*at, "section"), rule["section"]))
        for place, section in named:
            if section not in sections:
                self.diags.append(self.doc.diag(place, "DECK-SECTION",
                                                f"unknown deck section {section!r}",
                                                did_you_mean(str(section), sections)))
        return True

    def _limits(self) -> Limits:
        raw = self.raw.get("limits") or {}
        judge, board, loop = raw.get("judge"), raw.get("same_board") or {}, raw.get("loop") or {}
        at = ("limits", "judge", "do") if isinstance(judge, dict) else ("limits", "judge")
        for i, zone in enumerate(board.get("zones") or ()):
            self._expect_zone(("limits", "same_board", "zones", i), zone)
        return Limits(
            turns=raw.get("turns", 200),
            judge=self._body(at, set()) if judge else (),
            judge_ref=judge.get("ref", "") if isinstance(judge, dict) else "",
            board_turns=board.get("turns"), board_zones=tuple(board.get("zones") or ()),
            board_resources=tuple(board.get("resources") or ()), board_ref=board.get("ref", ""),
            loop_returns=loop.get("returns"), loop_ref=loop.get("ref", ""))

    def _program(self, rs: Ruleset, setup: tuple) -> tuple:
        code: list = [T.Push(setup)]
        turn_start = len(code)
        code.append(T.TurnStart())
        ending = None  # the phase before: the next phase's first start ends it
        for phase in rs.phases:
            starts = [T.PhaseStart(phase, ending)] if ending is not None else []
            starts.append(T.PhaseStart(phase))
            code += starts
            if phase.body:  # (an empty one would only be a settle point, as what follows is)
                code.append(T.Push(phase.body))
            code += rs.timing.phase_code(phase)  # how the players act in it
            for start in starts:  # skipped: past this phase's end (what follows ends it)
                start.skip = len(code) + 1
            ending = phase
        if ending is not None:  # the last phase: the turn's first end ends it
            code.append(T.TurnEnd(turn_start, ending))
        code.append(T.TurnEnd(turn_start))
        return tuple(code)


def _printed_source(p: PropDef, index: int, hides: int) -> str:
    """Python source reading a printed property (the ruleset's `index`th) of card `{c}`, as
    game._printed_reader does; `hides`: the states that hide a card's properties."""
    read = f"g.defs[{{c}}].printed[{index}]"
    if not hides or p.always_known:
        return read
    return f"(None if g.flags[{{c}}] & {hides} else {read})"


def _default_expr(value: Any, ptype: str) -> A.Expr:
    if ptype in ("text", "state", "name") and isinstance(value, str):
        return A.Str(A.NOWHERE, value)  # `default: top` means the word top
    return parse_text("expr", str(value).lower() if isinstance(value, bool) else str(value))
