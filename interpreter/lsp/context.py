"""Where the cursor is in a YAML file, read from the text alone (a buffer being typed
rarely parses): the keys that enclose it, whether it is inside effect text, the word under it.

Lines and columns are 0-based; columns are Python string indexes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# The keys whose values the schemas describe as effect text or an expression.
EFFECT_KEYS = frozenset({"abilities", "effect", "condition", "do", "card", "requires", "if", "lose",
                         "win", "draw", "judge", "where", "each", "formula", "setup", "heuristic"})
_KEY = re.compile(r"^(\s*)(?:-\s+)?([^\s:#\"'-][^:#]*?):(?:\s+|$)")
_ITEM = re.compile(r"^(\s*)-(?:\s+|$)")
_BLOCK = re.compile(r"[|>][-+0-9]*\s*(#.*)?$")
_NAME_CHAR = re.compile(r"\w")


@dataclass(frozen=True)
class Place:
    """The keys enclosing the cursor, outermost first (list items are transparent), and
    whether the cursor is in the value of the last one (else it is where a key is typed)."""

    keys: tuple[str, ...]
    in_value: bool
    value_start: tuple[int, int] | None  # (line, col) where the value text starts


def place_at(lines: list[str], line: int, col: int) -> Place:
    text = lines[line] if line < len(lines) else ""
    own, value_start, indent = _on_line(text, line, col)
    parents, block = _parents(lines, line, indent)
    if block is not None:  # inside a `key: |` block every line is its text, colons or not
        return Place(parents, True, (block, 0))
    return Place((*parents, *own), value_start is not None, value_start)


def _on_line(text: str, line: int, col: int) -> tuple[tuple[str, ...], tuple[int, int] | None, int]:
    """The cursor's own line: the key whose value it is in (if any), where that value
    starts, and the indentation above which the parents are."""
    match = _KEY.match(text)
    if match:
        if col >= match.end():
            return (match.group(2).strip(),), (line, match.end()), len(match.group(1))
        return (), None, len(match.group(1))
    item = _ITEM.match(text)
    if item:  # an item belongs to the key above it
        return (), (line, item.end()) if col >= item.end() else None, len(item.group(1)) + 1
    return (), None, _indent(text) if text.strip() else col


def _parents(lines: list[str], line: int, indent: int) -> tuple[tuple[str, ...], int | None]:
    """The keys enclosing a line indented `indent`, outermost first, and the line after the
    innermost one's when it opens a block scalar (`do: |`)."""
    keys: list[str] = []
    block = None
    for above in range(line - 1, -1, -1):
        row = lines[above]
        if not row.strip() or row.lstrip().startswith("#") or _indent(row) >= indent:
            continue
        key = _KEY.match(row)
        if key and key.start(2) < indent:  # (in `- key: v` the key is the item's, not a parent)
            if not keys and _BLOCK.search(row[key.end():]):
                block = above + 1
            keys.insert(0, key.group(2).strip())
        indent = _indent(row)
        if indent == 0:
            break
    return tuple(keys), block


def is_effect(keys: tuple[str, ...]) -> bool:
    """Whether a value under these keys is effect text: an effect key's, or the `text` of an
    ability written as a mapping (`abilities: [{text, targeting, left_play}]`; a card's own
    `text` is prose)."""
    return bool(keys) and (keys[-1] in EFFECT_KEYS or keys[-2:] == ("abilities", "text"))


def effect_before(lines: list[str], line: int, col: int, place: Place) -> str | None:
    """The effect text from its start to the cursor, when the cursor is in effect text."""
    if not place.in_value or not is_effect(place.keys) or place.value_start is None:
        return None
    start_line, start_col = place.value_start
    parts = [lines[n] for n in range(start_line, line)] + [lines[line][:col] if line < len(lines) else ""]
    if parts and start_line == line:
        parts[-1] = parts[-1][start_col:]
    elif parts:
        parts[0] = parts[0][start_col:]
    text = "\n".join(parts)
    return text[1:] if text[:1] in "\"'" else text


def word_at(text: str, col: int) -> tuple[int, int]:
    """The span of the name under (or just before) `col`."""
    start = col
    while start > 0 and _NAME_CHAR.match(text[start - 1]):
        start -= 1
    end = col
    while end < len(text) and _NAME_CHAR.match(text[end]):
        end += 1
    return start, end


def name_at(text: str, col: int, names: Iterable[str]) -> str | None:
    """The longest of `names` written on this line across the cursor (card names may hold
    spaces and punctuation, so they are looked for rather than parsed)."""
    best = None
    for name in names:
        start = text.find(name)
        while start >= 0:
            if start <= col <= start + len(name) and (best is None or len(name) > len(best)):
                best = name
            start = text.find(name, start + 1)
    return best


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))
