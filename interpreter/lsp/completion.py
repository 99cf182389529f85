"""Completion from the ruleset's own name tables (those the checker resolves names with):
inside effect text, for a card's keys and enum values, for the card names of a deck."""

from __future__ import annotations

import re
from typing import Any

from lsprotocol import types

from interpreter.check.schema_gen import phases
from interpreter.compile.names import ENGINE_EVENTS, FUNCTIONS, Names
from interpreter.engine.primitives import PRIMITIVES, Param
from interpreter.engine.state import CARD_ATTRS
from interpreter.load.schema import KINDS, schema
from interpreter.lsp.context import effect_before, place_at
from interpreter.lsp.workspace import Workspace

Kind = types.CompletionItemKind
KEYWORDS = ("if", "else", "for each", "in", "choose", "up to", "from", "by", "let", "may", "repeat",
            "where", "as", "and", "or", "not", "settle", "simultaneously", "until end of turn",
            "when", "at", "activate", "cost", "static", "instead", "cannot", "can", "true", "false",
            "none", "choose zone", "choose number", "choose player", "choose one")
CARD_KEYS = ("name", "text", "abilities", "effect", "condition")
_BOUND = [re.compile(p) for p in (r"\blet\s+(\w+)", r"\bchoose\s+(?:up\s+to\s+)?\S+\s+(\w+)\s+from\b",
                                  r"\bfor\s+each\s+(\w+)\s+in\b", r"\bas\s+(\w+)\s+where\b")]
_TRIGGER = re.compile(r"(?:^|[\s:,])(?:when|at)\s+(\w+)")


def complete(ws: Workspace, path: str, text: str, line: int, col: int) -> list[types.CompletionItem]:
    entry = ws.entry(path)
    kind, rid = (entry.kind, entry.rid) if entry is not None else ("", None)
    lines = text.splitlines() or [""]
    place = place_at(lines, line, col)
    before = effect_before(lines, line, col, place)
    current = lines[line][:col] if line < len(lines) else ""
    names = ws.names(rid)
    if names is None:  # no ruleset to name anything: what the file's schema allows
        return [] if before is not None else _from_schema(kind, place.keys, place.in_value, current)
    if before is not None and kind in ("ruleset", "cards"):
        return effect_items(ws, rid, names, before, place.keys)
    if kind == "deck" and place.keys and not place.in_value and len(place.keys) == 1:
        return [_card(n, insert=f"{n}: ") for n in ws.cards_named(rid)]
    if kind == "scenario" and len(place.keys) >= 2 and place.keys[1] == "zones":
        return _scenario_zones(ws, rid, names, place.keys, place.in_value)
    if kind == "scenario" and place.in_value and place.keys[-1:] == ("phase",):
        return [_item(p, Kind.EnumMember, "phase") for p in phases(_ruleset_data(ws, rid).get("turn"))]
    if kind == "cards" and place.keys == ("cards",):
        return _card_keys(ws, rid) if ":" not in current.lstrip(" -") else []
    if kind == "cards" and len(place.keys) == 2 and place.keys[0] == "cards" and place.in_value:
        return _values(_ruleset_data(ws, rid).get("properties") or {}, place.keys[1])
    if kind == "ruleset" and place.in_value and place.keys[-1] in ("actions", "ability_zones"):
        declared = names.actions if place.keys[-1] == "actions" else names.zones
        return [_item(n, Kind.Reference, place.keys[-1]) for n in sorted(declared)]
    return _from_schema(kind, place.keys, place.in_value, current)


def _from_schema(kind: str, keys: tuple[str, ...], in_value: bool, current: str
                 ) -> list[types.CompletionItem]:
    """The keys a file's schema allows where the cursor is, or the values it enumerates."""
    if kind not in KINDS or (not in_value and ":" in current.lstrip(" -")):
        return []
    root: Any = schema(kind)
    node = root
    for key in keys:
        node = _child(node, key)
        if node is None:
            return []
        while "$ref" in node:  # a definition shared by several places (a scenario's `expect`)
            node = _child_path(root, node["$ref"].removeprefix("#/").split("/"))
    node = _items(node)
    if in_value:
        values = node.get("enum") or (["true", "false"] if node.get("type") == "boolean" else [])
        return [_item(str(v), Kind.Value, node.get("description", "")) for v in values]
    return [_item(k, Kind.Property, (v.get("description") or "") if isinstance(v, dict) else "",
                  insert=f"{k}: ")
            for k, v in (node.get("properties") or {}).items()]


def _child(node: dict, key: str) -> dict | None:
    node = _items(node)
    for option in (node, *node.get("oneOf", ()), *node.get("anyOf", ())):
        option = _items(option)
        found = (option.get("properties") or {}).get(key)
        if isinstance(found, dict):
            return found
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, dict) else None


def _child_path(root: dict, path: list[str]) -> dict:
    for key in path:
        root = root[key]
    return root


def _items(node: dict) -> dict:
    """Lists are transparent in a path of keys: a list's node is its items'."""
    while node.get("type") == "array" and isinstance(node.get("items"), dict):
        node = node["items"]
    return node


def effect_items(ws: Workspace, rid: str | None, names: Names, before: str,
                 keys: tuple[str, ...]) -> list[types.CompletionItem]:
    """What may be written at the end of `before` (effect text up to the cursor)."""
    if before.endswith("「") or re.search(r"「[^」]*$", before):
        return [_card(n, insert=n) for n in ws.cards_named(rid)]
    if re.search(r"\.\w*$", before):
        members = {*names.properties, *names.states, *names.counters, *names.resources, *CARD_ATTRS}
        return [_item(m, Kind.Field, "member") for m in sorted(members)]
    if re.search(r"(?:^|[\s:,])(?:when|at)\s+\w*$", before):
        return [_item(e, Kind.Event, "event") for e in sorted(names.events)]
    if re.search(r"(?:^|[\s:,])instead\s+\w*$", before):
        return [_call(v, params, "verb") for v, params in names.verbs.items()]
    if re.search(r"(?:^|[\s:,])(?:cannot|can)\s+\w*$", before):
        return [*(_item(a, Kind.Method, "action") for a in sorted(names.actions)),
                *(_call(v, params, "verb") for v, params in names.verbs.items())]
    items = [*(_call(v, params, "verb") for v, params in names.verbs.items()),
             *(_call(p, spec.params, "primitive") for p, spec in PRIMITIVES.items()),
             *(_item(f, Kind.Function, f"function: {doc}") for f, (_, _, doc) in FUNCTIONS.items()),
             *(_item(z, Kind.Module, "zone (shared)" if shared else "zone: ZONE(player)")
               for z, shared in names.zones.items()),
             *(_item(p, Kind.Property, "property") for p in sorted(names.properties)),
             *(_item(s, Kind.EnumMember, "state") for s in sorted(names.states)),
             *(_item(v, Kind.EnumMember, "enum value") for v in sorted(names.enums)),
             *(_item(v, Kind.Variable, "variable") for v in sorted(_in_scope(names, before, keys))),
             *(_item(k, Kind.Keyword, "keyword") for k in KEYWORDS),
             *(_card(n, insert=f"「{n}」") for n in ws.cards_named(rid))]
    items += [types.CompletionItem(label=label, kind=Kind.Snippet, detail=detail, insert_text=insert,
                                   insert_text_format=types.InsertTextFormat.Snippet)
              for label, detail, insert in _SNIPPETS]
    return items


_SNIPPETS = (("「」", "a text (a card name)", "「$1」"),
             ('as "..."', "a choice's question: {name} shows a variable", 'as "$1"'))


def _in_scope(names: Names, before: str, keys: tuple[str, ...]) -> set[str]:
    """The built-in values, the names bound earlier in the text, and the context's own."""
    out = {"you", "opponent", "self", "turn_player", "players", "turn_order", "it"}
    for pattern in _BOUND:
        out.update(pattern.findall(before))
    trigger = _TRIGGER.search(before)
    if trigger:
        event = trigger.group(1)
        out.update(ENGINE_EVENTS.get(event, ()))
        verb = next((v for v, e in names.verb_events.items() if e == event), None)
        if verb is not None:
            out.update(p.name for p in names.verbs.get(verb, ()))
        if event in names.actions:
            out.update(("card", "player", "ability"))
    if keys[:1] == ("verbs",) and len(keys) > 1:
        out.update(p.name for p in names.verbs.get(keys[1], ()))
    if keys[:1] in (("actions",), ("end",), ("rules",), ("windows",)):
        out.update(("card", "player", "ability"))
    return out


def _ruleset_data(ws: Workspace, rid: str | None) -> dict:
    """The ruleset's mapping, or an empty one while no ruleset of that id is found."""
    doc = ws.ruleset(rid)
    return doc.data if doc is not None and isinstance(doc.data, dict) else {}


def _scenario_zones(ws: Workspace, rid: str | None, names: Names, keys: tuple[str, ...],
                    in_value: bool) -> list[types.CompletionItem]:
    """A scenario's `zones:` — zone keys (`battle@P1`), then the cards and states in them."""
    if len(keys) == 2 and not in_value:
        players = _ruleset_data(ws, rid).get("players")
        seats = range(1, (players if isinstance(players, int) else 2) + 1)
        return [_item(z if shared else f"{z}@P{p}", Kind.Module, "zone", insert=None)
                for z, shared in names.zones.items() for p in ((0,) if shared else seats)]
    if keys[-1] == "states":
        return [_item(s, Kind.EnumMember, "state") for s in sorted(names.states)]
    return [_card(n, insert=n) for n in ws.cards_named(rid)]


def _values(properties: dict, prop: str) -> list[types.CompletionItem]:
    spec = properties.get(prop) if isinstance(properties, dict) else None
    if not isinstance(spec, dict):
        return []
    if spec.get("type") == "enum":
        return [_item(str(v), Kind.EnumMember, f"{prop} value") for v in spec.get("values") or ()]
    if spec.get("type") == "flag":
        return [_item(v, Kind.Value, prop) for v in ("true", "false")]
    return []


def _card_keys(ws: Workspace, rid: str | None) -> list[types.CompletionItem]:
    ruleset = ws.ruleset(rid)
    props = (ruleset.data.get("properties") if ruleset is not None else None) or {}
    items = [_item(k, Kind.Property, "card key", insert=f"{k}: ") for k in CARD_KEYS]
    for name, spec in props.items():
        spec = spec if isinstance(spec, dict) else {}
        detail = f"property ({spec.get('type', 'number')})" + (
            f": {spec['description']}" if isinstance(spec.get("description"), str) else "")
        items.append(_item(name, Kind.Property, detail, insert=f"{name}: "))
    return items


def _call(name: str, params: tuple[Param, ...], what: str) -> types.CompletionItem:
    signature = f"{name}({', '.join(_param(p) for p in params)})"
    return _item(name, Kind.Function, f"{what}: {signature}")


def _param(p: Param) -> str:
    return f"{p.name}: {p.type}" + ("" if p.default is ... else f" = {p.default}")


def _card(name: str, insert: str) -> types.CompletionItem:
    return types.CompletionItem(label=name, kind=Kind.Constant, detail="card", insert_text=insert,
                                filter_text=name)


def _item(label: str, kind: types.CompletionItemKind, detail: str, insert: str | None = None
          ) -> types.CompletionItem:
    return types.CompletionItem(label=label, kind=kind, detail=detail, insert_text=insert)
