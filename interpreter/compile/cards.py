"""Compile card sets against a ruleset: properties, abilities, effects, conditions."""

from __future__ import annotations

from dataclasses import replace

from interpreter.compile.creates import CreatesReader
from interpreter.compile.ruleset import RulesetBuilder
from interpreter.compile.targets import target_defs, target_scope
from interpreter.compile.texts import get_at
from interpreter.diagnostics import did_you_mean, number_hint
from interpreter.engine.model import AbilityDef, CardDef, ExprFn, ModeDef, printed_values
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker
from interpreter.load.yamlpos import Doc


class CardBuilder(Walker):
    def __init__(self, rb: RulesetBuilder, doc: Doc, first_id: int) -> None:
        self.rb, self.doc = rb, doc
        self.texts = CreatesReader(doc, rb.names, rb.diags, rb.compiler)
        self.next_id = first_id

    def build(self) -> dict[str, CardDef]:
        out: dict[str, CardDef] = {}
        first: dict[str, int] = {}
        for i, card in enumerate(self.doc.data.get("cards") or ()):
            if not isinstance(card, dict) or "name" not in card:
                continue
            name = str(card["name"])
            if name in out:
                self.rb.diags.append(self.doc.diag(
                    ("cards", i, "name"), "DUPLICATE-CARD", f"card {name!r} is defined twice",
                    "rename one of them, or remove the copy").with_related(
                        self.doc.related(("cards", first[name], "name"), "first defined here")))
                kept = self.next_id
                self.card(i, card)  # (checked too: the copy's own errors are reported)
                self.next_id = kept
                continue
            first[name] = i
            out[name] = self.card(i, card)
        return out

    def where(self, name: str) -> tuple:
        """The path of the card called `name` in this file."""
        cards = self.doc.data.get("cards") or ()
        i = next((i for i, c in enumerate(cards)
                  if isinstance(c, dict) and str(c.get("name")) == name), None)
        return ("cards",) if i is None else ("cards", i, "name")

    def card(self, i: int, card: dict) -> CardDef:
        return self.define(("cards", i), str(card["name"]), card)

    def tokens(self, specs: dict) -> dict[str, CardDef]:
        """The ruleset's `tokens` (this builder reads the ruleset): cards with no card set,
        made only by `create`; with abilities and an effect as cards have."""
        return {str(name): self.define(("tokens", name), str(name), spec or {}, token=True)
                for name, spec in specs.items()}

    def define(self, at: tuple, name: str, card: dict, token: bool = False) -> CardDef:
        """The card (or token) described at `at`."""
        props = {k: v for k, v in card.items()
                 if k not in ("name", "text", "abilities", "effect", "condition", "waivers",
                              "targeting", "modes")}
        self._check_props(at, props)
        c = self.rb.compiler
        pool_modified, c.modified = c.modified, set()  # (noted for this card alone)
        self.texts.creates = frozenset()
        try:
            return replace(self._card(at, name, card, props), token=token,
                           creates=self.texts.creates)
        finally:
            pool_modified |= c.modified
            c.modified = pool_modified

    def _card(self, at: tuple, name: str, card: dict, props: dict) -> CardDef:
        abilities = []
        delays: list = []  # (the delayed triggers its texts set up)
        self.rb.compiler.delays = delays
        for j, _text in enumerate(card.get("abilities") or ()):
            ability = self.ability((*at, "abilities", j), name)
            if ability is not None:
                abilities.append(ability)
        self._check_ability_names(at, card.get("abilities") or ())
        effect = self._effect((*at, "effect"), name, target_scope(card)) \
            if card.get("effect") else ()
        self.rb.compiler.delays = None
        for instr, ability in delays:  # each its ability of the card, after those it declares
            instr.index = len(abilities)
            abilities.append(ability)
        condition = None
        if card.get("condition"):
            tree = self.texts.read((*at, "condition"), "cond")
            condition = None if tree is None else self.rb.compiler.exprs.compile(tree)
        modes = self._modes(at, name, card.get("modes") or {})
        cid = self.next_id
        self.next_id += 1
        return CardDef(cid, name, props, tuple(abilities), effect, condition,
                       modifies=frozenset(self.rb.compiler.modified),
                       printed=printed_values(props, self.rb._properties().values()),
                       text=str(card.get("text") or ""),
                       targets=self._targets(at, card), modes=modes,
                       mode_count=int((card.get("modes") or {}).get("choose") or 1))

    def _modes(self, at: tuple, name: str, spec: dict) -> tuple[ModeDef, ...]:
        """A modal spell's modes, each with its targets and its effect (compiled with their
        names); chosen as it goes on the stack, so only under `timing: priority`."""
        if spec and self.rb.raw.get("timing") != "priority":
            self.rb.diags.append(self.doc.key_diag(
                (*at, "modes"), "TARGET", "modes are chosen as a spell goes on the stack, and "
                "this ruleset has none (its `timing` is not `priority`)",
                "add `timing: priority`, or choose in the effect (`choose one {...} or {...}`)"))
            return ()
        if spec and int(spec.get("choose") or 1) > len(spec.get("of") or ()):
            self.rb.diags.append(self.doc.key_diag(
                (*at, "modes", "choose"), "TARGET", "more modes to choose than the spell has",
                "choose at most as many as `of` lists"))
        out = []
        for i, mode in enumerate(spec.get("of") or ()):
            place = (*at, "modes", "of", i)
            out.append(ModeDef(str(mode.get("label", "")), self._targets(place, mode),
                               self._effect((*place, "effect"), name, target_scope(mode))))
        return tuple(out)

    def _check_ability_names(self, at: tuple, specs: object) -> None:
        """Two abilities of one card with the same `name` make two options that read the same:
        a player (or a scenario's decision) could not tell them apart."""
        first: dict[str, int] = {}
        for j, spec in enumerate(specs if isinstance(specs, list) else ()):
            name = spec.get("name") if isinstance(spec, dict) else None
            if not name:
                continue
            if str(name) in first:
                self.rb.diags.append(self.doc.diag(
                    (*at, "abilities", j, "name"), "DUPLICATE-ABILITY",
                    f"two abilities of this card are named {str(name)!r}: their options "
                    "would read the same", "give each ability its own name").with_related(
                        self.doc.related((*at, "abilities", first[str(name)], "name"),
                                         "first defined here")))
            first.setdefault(str(name), j)

    def _effect(self, at: tuple, card: str, scope: dict[str, str]) -> tuple:
        """The card's own effect (`run(card)`), compiled with the ruleset's names and `scope`'s
        (its spell's targets)."""
        self.rb.compiler.context = card
        tree = self.texts.read(at, "body", scope)
        return () if tree is None else self.rb.compiler.body(tree)

    def _check_props(self, at: tuple, props: dict) -> None:
        pdefs = self.rb._properties()
        formulas = {n: (d or {}).get("formula") for n, d in
                    (self.rb.raw.get("properties") or {}).items()}
        for key, value in props.items():
            pdef = pdefs.get(key)
            if pdef is None:
                self.rb.diags.append(self.doc.key_diag(
                    (*at, key), "UNKNOWN-PROPERTY", f"unknown card property '{key}'",
                    did_you_mean(key, [*pdefs, "text", "abilities", "effect"])))
            elif formulas.get(key):
                self.rb.diags.append(self.doc.diag(
                    (*at, key), "COMPUTED-PROPERTY",
                    f"'{key}' is computed by the ruleset (formula: {formulas[key]}); a card "
                    "cannot set it", "set the properties it is computed from"))
            elif pdef.type == "number" and (not isinstance(value, int) or isinstance(value, bool)):
                self.rb.diags.append(self.doc.diag(
                    (*at, key), "TYPE", f"'{key}' must be a whole number, got {value!r}",
                    number_hint(value)))
            elif pdef.type == "number" and (pdef.min is not None and value < pdef.min
                                            or pdef.max is not None and value > pdef.max):
                # a warning: a value out of bounds is read clamped (docs/LANGUAGE.md, properties)
                bounds = ", ".join(f"{k} {b}" for k, b in (("min", pdef.min), ("max", pdef.max))
                                   if b is not None)
                clamped = max(pdef.min if pdef.min is not None else value,
                              min(pdef.max if pdef.max is not None else value, value))
                d = self.doc.diag((*at, key), "OUT-OF-RANGE", f"'{key}' is {value}, outside the "
                                  f"ruleset's bounds for it ({bounds}): it reads as {clamped}",
                                  f"print a {key} within {bounds}")
                self.rb.diags.append(replace(d, severity="warning"))
            elif pdef.type == "enum" and value not in pdef.values:
                self.rb.diags.append(self.doc.diag(
                    (*at, key), "TYPE", f"'{key}' must be one of {', '.join(pdef.values)}",
                    did_you_mean(str(value), pdef.values)))
            elif pdef.type == "flag" and not isinstance(value, bool):
                self.rb.diags.append(self.doc.diag((*at, key), "TYPE",
                                                   f"'{key}' must be true or false"))

    def ability(self, at: tuple, card: str) -> AbilityDef | None:
        """The ability at `at`: its text, or a mapping of its `text`, its `targeting` (the
        targets it declares as it goes on the stack, names its text may use) and its own
        `left_play` (a triggered ability's)."""
        self.rb.compiler.context = card
        entry = get_at(self.doc.data, at)
        spec = entry if isinstance(entry, dict) else {}
        place = (*at, "text") if spec else at
        targets = self._targets(at, spec)
        tree = self.texts.read(place, "ability", target_scope(spec))
        if tree is None:
            return None
        ability = self._ability(tree, get_at(self.doc.data, place))
        if targets and ability.kind not in ("trigger", "activated"):
            self.rb.diags.append(self.doc.diag(
                (*at, "targeting"), "TARGET",
                f"a {ability.kind} ability does not go on the stack: it has no targets",
                "declare targets on triggered (`when ...`) and activated abilities only"))
        if ability.kind == "trigger" and any(t.up_to for t in targets):
            self.rb.diags.append(self.doc.diag(
                (*at, "targeting"), "TARGET",
                "a triggered ability's targets are one card or player each: `up_to` is for "
                "spells and activated abilities", "declare separate targets"))
        left_play = spec.get("left_play")
        if left_play is not None and ability.kind != "trigger":
            self.rb.diags.append(self.doc.key_diag(
                (*at, "left_play"), "TYPE",
                f"a {ability.kind} ability does not wait to resolve: `left_play` is for "
                "triggered abilities (`when ...`)"))
            left_play = None
        return replace(ability, targets=targets, left_play=left_play,
                       name=spec.get("name") or "", **self._activation(at, spec, ability.kind))

    def _activation(self, at: tuple, spec: dict, kind: str) -> dict:
        """An activated ability's declared properties: `once_per` (turn or phase), whether it
        `ends_turn`, and its typed `cost` (`{fire: 2, any: 1}`: types of the ruleset's
        `typed_costs`)."""
        out: dict = {}
        for key in ("once_per", "cost", "ends_turn"):
            if key in spec and kind != "activated":
                self.rb.diags.append(self.doc.key_diag(
                    (*at, key), "TYPE", f"a {kind} ability is not used by a player: `{key}` "
                    "is for activated abilities (`activate ...`)"))
                return out
        if "once_per" in spec:
            out["once"] = spec["once_per"]
        if spec.get("ends_turn") is True:
            out["ends_turn"] = True
        cost = spec.get("cost")
        if not isinstance(cost, dict):
            return out
        typed = self.rb.raw.get("typed_costs")
        if not isinstance(typed, dict):
            self.rb.diags.append(self.doc.key_diag(
                (*at, "cost"), "NO-TYPED-COSTS", "a typed cost needs the ruleset's "
                "`typed_costs: {cards, type}` (what pays it, and the property of its type)"))
            return out
        pdef = (self.rb.raw.get("properties") or {}).get(typed.get("type")) or {}
        types = [*(pdef.get("values") or ()), "any"] if isinstance(pdef, dict) else ["any"]
        for t in cost:
            if t not in types:
                self.rb.diags.append(self.doc.key_diag(
                    (*at, "cost", t), "UNKNOWN-NAME",
                    f"'{t}' is no type of {typed.get('type')!r} (nor `any`)",
                    did_you_mean(str(t), types)))
                return out
        out["typed_cost"] = tuple((t, n) for t, n in cost.items() if t != "any") \
            + ((("any", cost["any"]),) if "any" in cost else ())
        return out

    def _targets(self, at: tuple, spec: dict) -> tuple:
        """The targets a card's spell or an ability declares at `at` (`targeting`): they are
        chosen as its object goes on the stack, so only under `timing: priority`."""
        if spec.get("targeting") and not self.rb.timing.has_stack:
            self.rb.diags.append(self.doc.key_diag(
                (*at, "targeting"), "TARGET",
                "targets are chosen as an object goes on the stack, and this ruleset has none "
                "(its `timing` is not `priority`): this `targeting` would never be asked",
                "add `timing: priority` to the ruleset, or choose in the effect itself "
                "(`choose 1 t from ... ; ...`)"))
        return target_defs(self.texts, at, spec)

    # an ability's definition, from its tree and its text
    _ability: Dispatch[AbilityDef] = Dispatch(A.Ability)

    @_ability.on(A.InZones)
    def _in_zones(self, tree: A.InZones, text: str) -> AbilityDef:
        return replace(self._ability(tree.ability, text), zones=frozenset(tree.zones))

    @_ability.on(A.Trigger)
    def _trigger(self, tree: A.Trigger, text: str) -> AbilityDef:
        c = self.rb.compiler
        return AbilityDef("trigger", tree.event, self._cond(tree.cond), (), c.body(tree.body),
                          text=text)

    @_ability.on(A.Activated)
    def _activated(self, tree: A.Activated, text: str) -> AbilityDef:
        c = self.rb.compiler
        return AbilityDef("activated", "", self._cond(tree.cond), c.body(tree.cost),
                          c.body(tree.cost + tree.body), text=text, effect=c.body(tree.body))

    @_ability.on(A.Static)
    def _static(self, tree: A.Static, text: str) -> AbilityDef:
        self.rb.static_trees += [tree.cond, *(x for m in tree.modifiers
                                              for x in (m.target, m.value))]
        cond = self._cond(tree.cond)
        mods = tuple(self.rb.compiler.modifier(m) for m in tree.modifiers)
        return AbilityDef("static", "", cond, (), (), mods, text=text)

    @_ability.on(A.Replacement)
    def _replacement(self, tree: A.Replacement, text: str) -> AbilityDef:
        c = self.rb.compiler
        return AbilityDef("replacement", tree.verb, self._cond(tree.cond), (), c.body(tree.body),
                          text=text)

    @_ability.on(A.Prohibition, A.Permission)
    def _prohibition(self, tree: A.Prohibition | A.Permission, text: str) -> AbilityDef:
        kind = "prohibition" if isinstance(tree, A.Prohibition) else "permission"
        return AbilityDef(kind, tree.action, self._cond(tree.cond), (), (), text=text)

    def _cond(self, cond: A.Expr | None) -> ExprFn | None:
        return None if cond is None else self.rb.compiler.exprs.compile(cond)
