"""Structural checks of loaded YAML against the bundled JSON Schemas.

Every problem becomes a positioned `Diagnostic` (code ``SCHEMA``) worded for a
card designer rather than a JSON Schema expert.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any, cast

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError, best_match

from interpreter.diagnostics import Diagnostic, did_you_mean, number_hint
from interpreter.load.yamlpos import Doc

KINDS = ("ruleset", "cards", "deck", "scenario", "forbid")
CODE = "SCHEMA"

# What one item of a list / one entry of a named mapping is called in messages.
_SINGULAR = {
    "cards": "card", "abilities": "ability", "properties": "property", "states": "state",
    "resources": "resource", "zones": "zone", "tokens": "token", "verbs": "verb",
    "actions": "action", "params": "parameter", "turn": "phase", "end": "end rule",
    "sections": "section", "rules": "deck rule", "decisions": "decision", "decks": "deck",
    "log": "log entry", "not_log": "log entry", "restricted": "restricted card",
    "forbid": "forbid entry",
}
# Keys whose string value names the object they sit in (first found wins).
_LABEL_KEYS = ("name", "id", "phase", "card", "event")

_TYPE_NAMES = {
    "string": "text", "integer": "an integer", "number": "a number",
    "boolean": "true/false", "object": "a mapping (key: value)", "array": "a list",
    "null": "empty",
}


@cache
def schema(kind: str) -> dict:
    """The JSON Schema for `kind` (ruleset, cards, deck or scenario)."""
    if kind not in KINDS:
        raise ValueError(f"unknown schema kind {kind!r}; expected one of {', '.join(KINDS)}")
    text = resources.files("interpreter.schemas").joinpath(f"{kind}.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)


@cache
def _validator(kind: str) -> Draft7Validator:
    return Draft7Validator(schema(kind))


def validate(doc: Doc, kind: str, ruleset: Mapping[str, Any] | None = None
             ) -> list[Diagnostic]:
    """Every structural problem in `doc` as a `kind` file, in file order.

    With `ruleset` (the loaded ruleset's data), a card set's property values are
    checked against the ruleset's `properties` (unknown keys included) and a deck's
    sections against its `deck.sections`.
    """
    root = _specialise(kind, ruleset) if ruleset is not None else schema(kind)
    validator = Draft7Validator(root) if ruleset is not None else _validator(kind)
    errors = sorted(validator.iter_errors(doc.data),
                    key=lambda e: (*doc.pos(e.absolute_path), len(e.absolute_path),
                                   _priority(e)))
    formatter = _Formatter(doc, root)
    seen: set[tuple] = set()
    out: list[Diagnostic] = []
    for error in errors:
        for key, diagnostic in formatter.diagnostics(error):
            if key in seen:
                continue
            seen.add(key)
            out.append(diagnostic)
    out.sort(key=lambda d: (d.line, d.col))
    return out


def _specialise(kind: str, ruleset: Mapping[str, Any]) -> dict:
    """`kind`'s schema narrowed by what `ruleset` declares (malformed parts are ignored:
    the ruleset's own validation reports them)."""
    root = copy.deepcopy(schema(kind))
    if not isinstance(ruleset, Mapping):
        return root
    if kind == "cards" and isinstance(ruleset.get("properties"), Mapping):
        card = root["properties"]["cards"]["items"]
        for name, spec in ruleset["properties"].items():
            if name not in card["properties"]:
                card["properties"][name] = _property_schema(name, spec)
        card["additionalProperties"] = False
    elif kind == "deck":
        deck = ruleset.get("deck")
        sections = deck.get("sections") if isinstance(deck, Mapping) else None
        if isinstance(sections, Mapping) and sections:
            section = root["additionalProperties"]
            for name in sections:
                root["properties"].setdefault(name, section)
            root["additionalProperties"] = False
    return root


def _property_schema(name: str, spec: Any) -> dict:
    spec = spec if isinstance(spec, Mapping) else {}
    described = spec.get("description")
    out: dict[str, Any] = {
        "description": described if isinstance(described, str) else f"The card's {name}.",
    }
    kind = spec.get("type")
    if kind == "number":
        out["type"] = "integer"
        for bound, keyword in (("min", "minimum"), ("max", "maximum")):
            if isinstance(spec.get(bound), int) and not isinstance(spec.get(bound), bool):
                out[keyword] = spec[bound]
    elif kind == "text":
        out["type"] = "string"
    elif kind == "flag":
        out["type"] = "boolean"
    elif kind == "enum" and isinstance(spec.get("values"), list):
        out["type"] = "string"
        out["enum"] = [v for v in spec["values"] if isinstance(v, str)]
    else:
        out["type"] = ["string", "number", "boolean"]
    return out


def _number_hint(error: ValidationError) -> str:
    wanted = _asked(error)
    wanted = [wanted] if isinstance(wanted, str) else wanted
    return number_hint(error.instance) if {"integer", "number"} & set(wanted) else ""


def _priority(error: ValidationError) -> int:
    return 0 if error.validator == "type" else 1


class _Formatter:
    """Turns one jsonschema error into (dedup key, Diagnostic) pairs."""

    def __init__(self, doc: Doc, root: dict) -> None:
        self.doc = doc
        self.root = root

    def diagnostics(self, error: ValidationError) -> Iterable[tuple[tuple, Diagnostic]]:
        path = tuple(error.absolute_path)
        v = error.validator
        if v in ("oneOf", "anyOf") and error.context:
            yield from self._alternatives(error, path)
        elif v == "additionalProperties" and isinstance(error.instance, dict):
            yield from self._unknown_keys(error, path)
        elif v == "required" and isinstance(error.instance, dict):
            for key in _asked(error):
                if key not in error.instance:
                    where = self._in(path)
                    yield (path, "required", key), self._diag(
                        path, f"missing required key '{key}'{where}")
        elif "propertyNames" in error.relative_schema_path:
            key = str(error.instance)
            hint = self._schema_at(list(error.absolute_schema_path)[:-1]).get("description", "")
            yield (*path, key), self._diag_key(path, key, f"key '{key}' is not valid", hint)
        else:
            yield (path,), self._value(error, path)

    # -- the kinds of error -------------------------------------------------------------

    def _value(self, error: ValidationError, path: tuple) -> Diagnostic:
        v, value, name = error.validator, error.instance, _name(path)
        hint = ""
        if v == "type":
            msg = f"{name} must be {_types(error.validator_value)}, got {_show(value)}"
            hint = self._extra_key_hint(error, path) or _number_hint(error)
        elif v in ("enum", "const"):
            allowed = _asked(error) if v == "enum" else [_asked(error)]
            msg = (f"{name} must be one of: {', '.join(_show(a) for a in allowed)}; "
                   f"got {_show(value)}")
            if isinstance(value, str):
                hint = did_you_mean(value, [str(a) for a in allowed])
        elif v == "minimum":
            msg = f"{name} must be at least {error.validator_value}, got {_show(value)}"
        elif v == "maximum":
            msg = f"{name} must be at most {error.validator_value}, got {_show(value)}"
        elif v == "pattern":
            msg = f"{name} {_show(value)} is not in the expected form"
            hint = _schema(error).get("description", "")
        elif v == "minLength":
            msg = f"{name} must not be empty"
            hint = _schema(error).get("description", "")
        elif v == "minProperties":
            msg = f"{name} must not be empty"
            hint = "give at least one of: " + ", ".join(_schema(error).get("properties", {}))
        elif v == "not" and isinstance(error.validator_value, dict) \
                and set(error.validator_value) == {"required"}:
            keys = _alternatives_text(error.validator_value["required"], "and")
            msg = f"{self._noun(path)} must not have both {keys}"
            hint = "use only one of them"
        elif v == "oneOf":  # valid under more than one alternative
            msg = f"{name} matches more than one allowed form"
            hint = _schema(error).get("description", "")
        else:  # pragma: no cover - validators the bundled schemas do not use
            msg = f"{name}: {error.message}"
        return self._diag(path, msg, hint)

    def _alternatives(self, error: ValidationError, path: tuple
                      ) -> Iterable[tuple[tuple, Diagnostic]]:
        branches: dict[str | int, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        # Every alternative only asks for a key: say which keys would do.
        if all(s.validator == "required" and not s.relative_path for s in error.context):
            keys = [k for s in error.context for k in _asked(s)]
            msg = f"{self._noun(path)} needs {_alternatives_text(keys, 'or')}"
            yield (path, "alternatives"), self._diag(path, msg)
            return
        wrong_type = {i for i, subs in branches.items()
                      if any(s.validator == "type" and not s.relative_path for s in subs)}
        if wrong_type == set(branches):  # the value fits none of the alternatives' types
            types: list[str] = []
            for subs in branches.values():
                for s in subs:
                    if s.validator == "type" and not s.relative_path:
                        vv = _asked(s)
                        types.extend([vv] if isinstance(vv, str) else vv)
            msg = f"{_name(path)} must be {_types(types)}, got {_show(error.instance)}"
            yield (path,), self._diag(path, msg, _schema(error).get("description", ""))
            return
        candidates = [s for i, subs in branches.items() if i not in wrong_type for s in subs]
        yield from self.diagnostics(best_match(candidates))

    def _unknown_keys(self, error: ValidationError, path: tuple
                      ) -> Iterable[tuple[tuple, Diagnostic]]:
        allowed = list(_schema(error).get("properties", {}))
        patterns = [re.compile(p) for p in _schema(error).get("patternProperties", {})]
        where = self._in(path)
        for key in _instance(error):
            if key in allowed or any(p.search(key) for p in patterns):
                continue
            hint = did_you_mean(key, allowed)
            if not hint and allowed:
                hint = "allowed keys: " + ", ".join(allowed)
            yield (*path, key), self._diag_key(path, key, f"unknown key '{key}'{where}", hint)

    # -- helpers ------------------------------------------------------------------------

    def _extra_key_hint(self, error: ValidationError, path: tuple) -> str:
        """A misspelt fixed key that landed in an open mapping (e.g. a card property)."""
        spath = list(error.absolute_schema_path)
        if len(spath) < 2 or spath[-2] != "additionalProperties" or not path \
                or not isinstance(path[-1], str):
            return ""
        owner = self._schema_at(spath[:-2])
        return did_you_mean(path[-1], owner.get("properties", {}))

    def _schema_at(self, spath: list) -> dict:
        node: Any = self.root
        for seg in spath:
            while isinstance(node, dict) and "$ref" in node:  # (a path goes through a $ref unnamed)
                node = self._schema_at(node["$ref"].removeprefix("#/").split("/"))
            node = node[seg]
        return node if isinstance(node, dict) else {}

    def _data_at(self, path: tuple) -> Any:
        node: Any = self.doc.data
        for seg in path:
            try:
                node = node[seg]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def _noun(self, path: tuple) -> str:
        """What the object at `path` is called: "card 'Goblin'", "zone 'hand'", ..."""
        if not path:
            return "the file"
        last, parent = path[-1], (path[-2] if len(path) > 1 else None)
        if isinstance(last, int):
            base = _SINGULAR.get(parent, f"{parent} item") if isinstance(parent, str) \
                else "item"
            data = self._data_at(path)
            if isinstance(data, dict):
                for k in _LABEL_KEYS:
                    if isinstance(data.get(k), str):
                        return f"{base} '{data[k]}'"
            return f"{base} {last + 1}"
        if isinstance(parent, str) and parent in _SINGULAR and len(path) >= 2:
            return f"{_SINGULAR[parent]} '{last}'"
        return f"'{last}'"

    def _in(self, path: tuple) -> str:
        return f" in {self._noun(path)}" if path else ""

    def _diag(self, path: tuple, message: str, hint: str = "") -> Diagnostic:
        return self.doc.diag(path, CODE, message, hint)

    def _diag_key(self, path: tuple, key: str, message: str, hint: str = "") -> Diagnostic:
        line, col = _key_pos(self.doc, path, key)
        return self.doc.diag_at(line, col, CODE, message, hint)


# jsonschema's stubs type an error's fields as possibly unset and a schema as possibly a
# boolean; an error of iter_errors on the bundled schemas has them all, and each schema is an object
def _asked(error: ValidationError) -> Any:
    """What the failed keyword asks for (a list, a number, a schema: it depends on the keyword)."""
    return error.validator_value


def _instance(error: ValidationError) -> Any:
    return error.instance


def _schema(error: ValidationError) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", error.schema)


def _key_pos(doc: Doc, path: tuple, key: str) -> tuple[int, int]:
    """Where `key` of the mapping at `path` is written."""
    at = (*path, key)
    if at in doc.keys:
        return doc.keys[at]
    if at not in doc.positions:
        return doc.pos(path)
    line, col = doc.pos(at)
    first = doc.pos(path)[0]
    pattern = re.compile(r"(?:^|[\s{,])(['\"]?)" + re.escape(key) + r"\1\s*:")
    for n in range(line, max(first, 1) - 1, -1):
        text = doc.line_text(n)
        if n == line:
            text = text[: col - 1]
        found = list(pattern.finditer(text))
        if found:
            m = found[-1]
            return n, m.start(1) + 1
    return line, col


def _name(path: tuple) -> str:
    """How a value is referred to: its key, or `list[index]` for a list item."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        return f"{_name(path[:-1])}[{last}]" if len(path) > 1 else f"item {last}"
    return str(last)


def _types(types: Any) -> str:
    names = [types] if isinstance(types, str) else list(dict.fromkeys(types))
    if "integer" in names and "number" in names:
        names.remove("integer")
    words = [_TYPE_NAMES.get(t, t) for t in names]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _alternatives_text(keys: Iterable[str], joiner: str) -> str:
    quoted = [f"'{k}'" for k in dict.fromkeys(keys)]
    if len(quoted) == 1:
        return quoted[0]
    return ", ".join(quoted[:-1]) + f" {joiner} " + quoted[-1]


def _show(value: Any) -> str:
    """A value as the designer wrote it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"'{text}'"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)
