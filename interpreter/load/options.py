"""Ruleset options (`options:`): where a game's rules can be read more than one way, the
ruleset names the readings and a user picks one (`--option NAME=CHOICE`, a scenario's
`options:`). A choice replaces parts of the ruleset before it is compiled: each entry is a
key path (`verbs.strike.do`, `limits.turns`; a list item by its `id` or `phase`, else its
index) and the value that stands there instead. The default choice is the ruleset as
written, so a match with no options plays exactly as before."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from interpreter.diagnostics import Diagnostic, DiagnosticError, TcgError, did_you_mean
from interpreter.load.yamlpos import Doc, Path_

Chosen = tuple[tuple[str, str], ...]  # (option, choice) pairs, sorted: hashable for load_game's cache


def parse(pairs: Iterable[str]) -> dict[str, str]:
    """`--option NAME=CHOICE` values -> {name: choice}."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, choice = pair.partition("=")
        if not sep or not name.strip() or not choice.strip():
            raise TcgError("err.option_form", pair=repr(pair))
        out[name.strip()] = choice.strip()
    return out


def declared(raw: Any) -> dict[str, dict]:
    options = raw.get("options") if isinstance(raw, dict) else None
    return options if isinstance(options, dict) else {}


def normalize(raw: Any, chosen: Mapping[str, str], where: str = "") -> Chosen:
    """The choices that differ from the defaults, checked against the ruleset's options.
    Raises TcgError naming the option or choice that does not exist."""
    options = declared(raw)
    out = []
    for name, choice in chosen.items():
        spec = options.get(name)
        if spec is None:
            raise TcgError("err.no_option", where=where, name=repr(name), known=", ".join(options) or "—",
                           hint=did_you_mean(name, set(options)))
        choices = spec.get("choices") or {}
        if choice not in choices:
            raise TcgError("err.no_choice", where=where, name=repr(name), choice=repr(choice),
                           known=", ".join(map(str, choices)),
                           hint=did_you_mean(choice, set(map(str, choices))))
        if choice != spec.get("default"):
            out.append((name, choice))
    return tuple(sorted(out))


def check(doc: Doc) -> list[Diagnostic]:
    """Every option's default is one of its choices and every path of every choice names a
    place in the ruleset (`tcg check` and every load report these, not only a run that
    picks the choice)."""
    problems = []
    for name, spec in declared(doc.data).items():
        choices = spec.get("choices") or {}
        if spec.get("default") not in choices:
            problems.append(doc.diag(("options", name, "default"), "OPTION",
                                     f"option {name!r}: the default {spec.get('default')!r} is "
                                     "not one of its choices", f"choices: {', '.join(map(str, choices))}"))
        for choice, patch in choices.items():
            for key in patch or {}:
                if _resolve(doc.data, str(key)) is None:
                    problems.append(doc.key_diag(("options", name, "choices", choice, key), "OPTION",
                                                 f"option {name!r}, choice {choice!r}: the ruleset "
                                                 f"has no place {key!r}",
                                                 "name a key path such as verbs.NAME.do or limits.turns "
                                                 "(a list item by its id or phase)"))
    return problems


def apply(doc: Doc, chosen: Chosen) -> Doc:
    """The ruleset with the chosen readings in place (positions follow the replacing text,
    so a diagnostic in it points into the option)."""
    if not chosen:
        return doc
    problems = check(doc)
    if problems:
        raise DiagnosticError(problems)
    data = copy.deepcopy(doc.data)
    positions, keys = dict(doc.positions), dict(doc.keys)
    for name, choice in chosen:
        for key, value in (doc.data["options"][name]["choices"][choice] or {}).items():
            target = _resolve(data, str(key))
            assert target is not None  # check() above
            _set(data, target, copy.deepcopy(value))
            source = ("options", name, "choices", choice, key)
            _move(positions, source, target)
            _move(keys, source, target)
    return Doc(doc.path, doc.text, data, positions, keys)


def _resolve(data: Any, key: str) -> Path_ | None:
    """A dotted key path -> the document path (keys and indexes); the last key may be new."""
    node: Any = data
    path: list[str | int] = []
    parts = key.split(".")
    for i, part in enumerate(parts):
        if isinstance(node, dict):
            if part not in node and i < len(parts) - 1:
                return None
            path.append(part)
            node = node.get(part)
        elif isinstance(node, list):
            index = next((j for j, item in enumerate(node) if isinstance(item, dict)
                          and part in (item.get("id"), item.get("phase"))), None)
            if index is None and part.isdigit() and int(part) < len(node):
                index = int(part)
            if index is None:
                return None
            path.append(index)
            node = node[index]
        else:
            return None
    return tuple(path)


def _set(data: Any, path: Path_, value: Any) -> None:
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


def _move(table: dict, source: Path_, target: Path_) -> None:
    """Positions of the replaced node dropped, the replacing node's put in its place."""
    n = len(target)
    for at in [at for at in table if at[:n] == target]:
        del table[at]
    m = len(source)
    for at, where in list(table.items()):
        if at[:m] == source:
            table[target + at[m:]] = where
