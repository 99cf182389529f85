"""Go to definition: a verb, action, zone, property, state... to its line in the ruleset; a
card name to its card."""

from __future__ import annotations

import re
from dataclasses import dataclass

from interpreter.load.yamlpos import Doc
from interpreter.lsp.context import name_at, word_at
from interpreter.lsp.hover import DECLARATIONS
from interpreter.lsp.workspace import Workspace


@dataclass(frozen=True)
class Target:
    """A definition's place: file, 0-based line, and the columns of the name there."""

    path: str
    line: int
    start: int
    end: int


def definition(ws: Workspace, path: str, text: str, line: int, col: int) -> Target | None:
    entry = ws.entry(path)
    rid = entry.rid if entry is not None else None
    lines = text.splitlines()
    if line >= len(lines):
        return None
    cards = ws.cards_named(rid)
    card = name_at(lines[line], col, cards)
    if card is not None:
        doc, index = cards[card]
        return _at(doc, ("cards", index, "name"), card)
    start, end = word_at(lines[line], col)
    word = lines[line][start:end]
    ruleset = ws.ruleset(rid)
    if not word or ruleset is None:
        return None
    for section in DECLARATIONS:
        declared = ruleset.data.get(section)
        if isinstance(declared, dict) and word in declared:
            return _key(ruleset, (section, word), word)
    return None


def _key(doc: Doc, at: tuple, key: str) -> Target | None:
    """The line where `key:` introduces the node at `at` (a block mapping's value starts on
    a later line than its key, a flow one on the same line)."""
    if at not in doc.positions:
        return None
    value_line, _ = doc.pos(at)
    lines = doc.text.splitlines()
    pattern = re.compile(rf"^(\s*(?:-\s+)?)[\"']?{re.escape(key)}[\"']?\s*:")
    for n in range(value_line, 0, -1):
        match = pattern.match(lines[n - 1])
        if match:
            return Target(doc.path, n - 1, match.end(1), match.end(1) + len(key))
    return None


def _at(doc: Doc, at: tuple, name: str) -> Target:
    line, col = doc.pos(at)
    return Target(doc.path, line - 1, col - 1, col - 1 + len(name))
