"""`tcg schema`: JSON Schemas narrowed to one ruleset, for editors without `tcg lsp`.

The generic schemas in `interpreter/schemas/` know the shape of a file; these also know the
ruleset's declarations (a card's properties and their enum values, the card names a deck
may list, the zones, phases and states a scenario may name), so yaml-language-server
completes and checks them. Draft-07, the newest draft yaml-language-server reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from interpreter.load.schema import _specialise
from interpreter.load.schema import schema as generic

KINDS = ("cards", "deck", "scenario")


def ruleset_schemas(ruleset: Mapping[str, Any], card_names: Iterable[str]) -> dict[str, dict]:
    """kind -> the schema of a `kind` file for this ruleset (its data, as loaded)."""
    names = sorted(set(card_names))
    rid = ruleset.get("id")
    out = {"cards": _cards(ruleset), "deck": _deck(ruleset, names), "scenario": _scenario(ruleset)}
    for kind, schema in out.items():
        schema["title"] = f"{ruleset.get('name', rid)}: {schema.get('title', kind)}"
        if isinstance(rid, str) and kind != "scenario":  # a scenario may name a ruleset by path
            schema["properties"]["ruleset"]["enum"] = [rid]
    return out


def write_schemas(ruleset: Mapping[str, Any], card_names: Iterable[str], out: Path) -> list[Path]:
    """Write `<id>.<kind>.schema.json` for each kind into `out`; the paths written. Raises
    TcgError naming the file that cannot be written."""
    from interpreter.diagnostics import TcgError

    written = []
    path = out
    try:
        out.mkdir(parents=True, exist_ok=True)
        for kind, schema in ruleset_schemas(ruleset, card_names).items():
            path = out / f"{ruleset.get('id', 'ruleset')}.{kind}.schema.json"
            path.write_text(json.dumps(schema, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            written.append(path)
    except OSError as e:
        raise TcgError(f"cannot write {path}: {e.strerror or e}") from None
    return written


def _cards(ruleset: Mapping[str, Any]) -> dict:
    # every card property typed from its declaration; an undeclared key is an error
    return _specialise("cards", ruleset)


def _deck(ruleset: Mapping[str, Any], names: list[str]) -> dict:
    schema = _specialise("deck", ruleset)
    if names:
        section = dict(generic("deck")["additionalProperties"], propertyNames={"enum": names})
        schema["properties"] = {k: section if k in _sections(ruleset) else v
                                for k, v in schema["properties"].items()}
        if schema["additionalProperties"] is not False:
            schema["additionalProperties"] = section
    return schema


def _sections(ruleset: Mapping[str, Any]) -> set[str]:
    deck = ruleset.get("deck")
    sections = deck.get("sections") if isinstance(deck, Mapping) else None
    return set(sections) if isinstance(sections, Mapping) else set()


def _scenario(ruleset: Mapping[str, Any]) -> dict:
    schema = _specialise("scenario", ruleset)
    zones_given, players_given = ruleset.get("zones"), ruleset.get("players")
    zones: Mapping[str, Any] = zones_given if isinstance(zones_given, Mapping) else {}
    players = players_given if isinstance(players_given, int) else 2
    zone = _zone_pattern(zones, players)
    zone_key = {"type": "string", "pattern": f"^{zone}$",
                "description": "A zone of this ruleset: 'zone@P1' (a player's), 'zone' (shared)."}
    # the final `expect` and every checkpoint's refer to this one definition
    state, expect = schema["properties"]["state"]["properties"], schema["definitions"]["expect"]["properties"]
    state["zones"]["propertyNames"] = expect["zones"]["propertyNames"] = zone_key
    player = {"type": "string", "pattern": f"^P[1-{players}]$", "description": "A player: P1, P2, ..."}
    state["resources"]["propertyNames"] = expect["resources"]["propertyNames"] = player
    state["turn_player"]["oneOf"] = [{"type": "integer", "minimum": 1, "maximum": players}, player]
    schema["properties"]["decisions"]["items"]["oneOf"][2]["properties"]["player"] = player
    expect["properties"]["items"]["properties"]["card"]["pattern"] = f"^{zone}:[0-9]+$"
    names = phases(ruleset.get("turn"))
    if names:
        state["phase"]["enum"] = names
    placed = state["zones"]["additionalProperties"]["items"]["oneOf"][1]["properties"]
    if isinstance(ruleset.get("states"), Mapping):
        placed["states"]["items"]["enum"] = list(ruleset["states"])
    if isinstance(ruleset.get("counters"), (Mapping, list)):
        placed["counters"]["propertyNames"] = {"enum": list(ruleset["counters"])}
    return schema


def _zone_pattern(zones: Mapping[str, Any], players: int) -> str:
    shared = [z for z, d in zones.items() if isinstance(d, Mapping) and d.get("shared")]
    own = [z for z in zones if z not in shared]
    parts = []
    if own:
        parts.append(f"(?:{'|'.join(map(re.escape, own))})@P[1-{players}]")
    if shared:
        parts.append(f"(?:{'|'.join(map(re.escape, shared))})")
    return f"(?:{'|'.join(parts)})" if parts else "(?!)"


def phases(turn: Any) -> list[str]:
    """Every phase name in the turn structure, nested steps included, in order."""
    out: list[str] = []
    stack = [turn]
    while stack:  # no recursion: a deeply nested file must not exhaust the stack
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, Mapping):
            if isinstance(node.get("phase"), str) and node["phase"] not in out:
                out.append(node["phase"])
            stack.extend(reversed([v for v in node.values() if isinstance(v, (list, Mapping))]))
    return out


def load_declarations(spec: str) -> tuple[dict, list[str]]:
    """A ruleset (bundled id or path) -> (its data, the names of its cards and tokens).
    Raises DiagnosticError when the ruleset or one of its card sets is unusable."""
    from interpreter.diagnostics import DiagnosticError
    from interpreter.load import files
    from interpreter.load.schema import validate
    from interpreter.load.yamlpos import load_yaml

    path = files.ruleset_path(spec)
    doc = load_yaml(path)
    problems = validate(doc, "ruleset")
    if problems:
        raise DiagnosticError(problems)
    rid = doc.data.get("id", path.stem)
    names = list(doc.data.get("tokens") or {})
    for card_path in files.card_paths(rid, path):
        cards = load_yaml(card_path).data
        entries = cards.get("cards") if isinstance(cards, dict) else None
        names += [c["name"] for c in entries or () if isinstance(c, dict) and isinstance(c.get("name"), str)]
    return doc.data, names
