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
    keys: list[str] = []
    in_value, value_start = False, None
    indent = _indent(text) if text.strip() else col
    match = _KEY.match(text)
    if match and col >= match.end():
        keys.append(match.group(2).strip())
        in_value, value_start = True, (line, match.end())
        indent = len(match.group(1))
    elif match:
        indent = len(match.group(1))
    else:
        item = _ITEM.match(text)
        if item and col >= item.end():
            in_value, value_start = True, (line, item.end())
        if item:
            indent = len(item.group(1)) + 1  # an item belongs to the key above it
    block_start = None
    for above in range(line - 1, -1, -1):
        row = lines[above]
        if not row.strip() or row.lstrip().startswith("#"):
            continue
        own = _indent(row)
        if own >= indent:
            continue
        key = _KEY.match(row)
        if key and key.start(2) < indent:  # (in `- key: v` the key is the item's, not a parent)
            keys.insert(0, key.group(2).strip())
            if not in_value and block_start is None and _BLOCK.search(row[key.end():]):
                in_value, block_start = True, (above + 1, 0)
        indent = own
        if indent == 0:
            break
    if block_start is not None:
        value_start = block_start
    return Place(tuple(keys), in_value, value_start)


def effect_before(lines: list[str], line: int, col: int, place: Place) -> str | None:
    """The effect text from its start to the cursor, when the cursor is in effect text."""
    if not place.in_value or not place.keys or place.keys[-1] not in EFFECT_KEYS \
            or place.value_start is None:
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
