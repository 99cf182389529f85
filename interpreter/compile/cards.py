"""Compile card sets against a ruleset: properties, abilities, effects, conditions."""

from __future__ import annotations

from dataclasses import replace

from interpreter.compile.ruleset import RulesetBuilder
from interpreter.compile.texts import TextReader, get_at
from interpreter.diagnostics import did_you_mean, number_hint
from interpreter.engine.model import AbilityDef, CardDef, printed_values
from interpreter.lang import ast as A
from interpreter.load.yamlpos import Doc


class CardBuilder:
    def __init__(self, rb: RulesetBuilder, doc: Doc, first_id: int) -> None:
        self.rb, self.doc = rb, doc
        self.texts = TextReader(doc, rb.names, rb.diags, rb.compiler)
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
        at = ("cards", i)
        props = {k: v for k, v in card.items()
                 if k not in ("name", "text", "abilities", "effect", "condition", "waivers")}
        self._check_props(at, props)
        c = self.rb.compiler
        pool_modified, c.modified = c.modified, set()  # (noted for this card alone)
        try:
            return self._card(at, card, props)
        finally:
            pool_modified |= c.modified
            c.modified = pool_modified

    def _card(self, at: tuple, card: dict, props: dict) -> CardDef:
        abilities = []
        for j, _text in enumerate(card.get("abilities") or ()):
            ability = self.ability((*at, "abilities", j))
            if ability is not None:
                abilities.append(ability)
        effect = self.rb.body_in(self.texts, (*at, "effect")) if card.get("effect") else ()
        condition = None
        if card.get("condition"):
            tree = self.texts.read((*at, "condition"), "cond")
            condition = None if tree is None else self.rb.compiler.exprs.compile(tree)
        cid = self.next_id
        self.next_id += 1
        return CardDef(cid, str(card["name"]), props, tuple(abilities), effect, condition,
                       modifies=frozenset(self.rb.compiler.modified),
                       printed=printed_values(props, self.rb._properties().values()),
                       text=str(card.get("text") or ""))

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
            elif pdef.type == "enum" and value not in pdef.values:
                self.rb.diags.append(self.doc.diag(
                    (*at, key), "TYPE", f"'{key}' must be one of {', '.join(pdef.values)}",
                    did_you_mean(str(value), pdef.values)))
            elif pdef.type == "flag" and not isinstance(value, bool):
                self.rb.diags.append(self.doc.diag((*at, key), "TYPE",
                                                   f"'{key}' must be true or false"))

    def ability(self, at: tuple) -> AbilityDef | None:
        self.rb.compiler.context = str(get_at(self.doc.data, (*at[:2], "name")))
        tree = self.texts.read(at, "ability")
        if tree is None:
            return None
        if isinstance(tree, A.InZones):
            ability = self._ability(tree.ability, get_at(self.doc.data, at))
            return replace(ability, zones=frozenset(tree.zones))
        return self._ability(tree, get_at(self.doc.data, at))

    def _ability(self, tree, text: str) -> AbilityDef:
        c = self.rb.compiler
        cond = c.exprs.compile(tree.cond) if getattr(tree, "cond", None) is not None else None
        if isinstance(tree, A.Trigger):
            return AbilityDef("trigger", tree.event, cond, (), c.body(tree.body), text=text)
        if isinstance(tree, A.Activated):
            return AbilityDef("activated", "", cond, c.body(tree.cost),
                              c.body(tree.cost + tree.body), text=text)
        if isinstance(tree, A.Static):
            self.rb.static_trees += [tree.cond, *(x for m in tree.modifiers
                                                  for x in (m.target, m.value))]
            mods = tuple(c.modifier(m) for m in tree.modifiers)
            return AbilityDef("static", "", cond, (), (), mods, text=text)
        if isinstance(tree, A.Replacement):
            return AbilityDef("replacement", tree.verb, cond, (), c.body(tree.body), text=text)
        kind = "prohibition" if isinstance(tree, A.Prohibition) else "permission"
        return AbilityDef(kind, tree.action, cond, (), (), text=text)
