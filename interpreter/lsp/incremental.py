"""A long card set re-checked one card at a time: only the cards an edit touched.

A card set whose `cards:` is a block list running to the end of the file is cut into its
header (the lines before the first card) and one part per card. The first check of a file is
`tcg check`'s whole check, its diagnostics filed under the part they are on; after an edit,
each part whose text is unchanged keeps its diagnostics (moved with its lines), and each new
part is checked alone — the header and that card, with the names of the file's other cards —
which is what the whole check says about it. The whole check runs again when that is not
known to hold: the header or the ruleset changed, a name is defined twice, the file uses YAML
anchors, many parts changed, or a card's name changed and other cards mention it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import yaml

from interpreter.check.files import Known, check_text
from interpreter.diagnostics import Diagnostic, Report
from interpreter.load.yamlpos import MAX_NODES

MAX_PARTS = 8  # parts checked alone before the whole file is checked instead
_CARDS = re.compile(r"cards:[ \t]*(?:#.*)?\n?")
_ITEM = re.compile(r"( *)-(?:[ \t]|$)")
_ANCHOR = re.compile(r"(?:^|[\s:\[{,-])[&*][^\s,\]}]")


class Cancelled(Exception):
    """A newer text arrived: this check's answer would not be read."""


@dataclass(frozen=True)
class Part:
    start: int  # its first line in the file (0-based)
    text: str


@dataclass(frozen=True)
class Split:
    header: str  # up to and including the `cards:` line
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class Checked:
    """A part's card name and its diagnostics, their lines counted from the part's first."""

    name: str | None
    found: tuple[Diagnostic, ...]


@dataclass
class _File:
    key: tuple
    header: tuple[Diagnostic, ...]
    parts: dict[str, Checked]
    names: frozenset[str]


def split(text: str) -> Split | None:
    """The header and the cards' parts, or None when the file is not that simple shape."""
    if len(text) >= 2 * MAX_NODES or _ANCHOR.search(text):
        return None  # (below that size the node limit cannot be reached)
    lines = text.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if _CARDS.fullmatch(line)), None)
    if at is None:
        return None
    indent: str | None = None
    starts: list[int] = []
    deeper = ""
    for i in range(at + 1, len(lines)):
        line = lines[i]
        if indent is not None and line.startswith(deeper):
            continue  # (most lines: inside a card)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM.match(line)
        if indent is None:
            if item is None:
                return None
            indent, deeper = item.group(1), item.group(1) + " "
        if item is not None and item.group(1) == indent:
            starts.append(i)
        else:
            return None  # a top-level key after the list, a document marker...
    if not starts:
        return None
    bounds = [*starts, len(lines)]
    parts = tuple(Part(bounds[k], "".join(lines[bounds[k]:bounds[k + 1]])) for k in range(len(starts)))
    return Split("".join(lines[:starts[0]]), parts)


class CardSets:
    """The parts' diagnostics of each open card set, kept between edits."""

    def __init__(self) -> None:
        self._files: dict[str, _File] = {}

    def drop(self, path: str) -> None:
        self._files.pop(path, None)

    def check(self, path: str, text: str, known: Known,
              cancelled: Callable[[], bool] = lambda: False) -> Report:
        """What `check_text(path, text, known)` reports, checking only what changed."""
        cut = split(text)
        key = (cut.header if cut else None, tuple((k, d.text) for k, d in known.rulesets.items()))
        old = self._files.get(path)
        if cut is not None and old is not None and old.key == key:
            found = self._again(path, cut, known, old, cancelled)
            if found is not None:
                report = Report()
                report.extend(found)
                return report
        return self._whole(path, text, known, cut, key)

    def _whole(self, path: str, text: str, known: Known, cut: Split | None, key: tuple) -> Report:
        report = check_text(path, text, known)
        if report.unusable:
            return report  # (a card being typed that is not YAML yet: what was known stays)
        self._files.pop(path, None)
        if cut is None or any(d.path != path for d in report.diagnostics):
            return report
        names = [_name(cut.header, p) for p in cut.parts]
        if _UNREAD in names or _repeated(names):
            return report
        starts = [p.start for p in cut.parts]
        filed: list[list[Diagnostic]] = [[] for _ in cut.parts]
        header = []
        for d in report.diagnostics:
            k = bisect.bisect_right(starts, d.line - 1) - 1
            if k < 0:
                header.append(d)
            else:
                filed[k].append(_moved(d, -starts[k]))
        self._files[path] = _File(key, tuple(header), {
            p.text: Checked(n, tuple(f)) for p, n, f in zip(cut.parts, names, filed, strict=True)},
            frozenset(n for n in names if n is not None))
        return report

    def _again(self, path: str, cut: Split, known: Known, old: _File,
               cancelled: Callable[[], bool]) -> list[Diagnostic] | None:
        """The diagnostics from the kept parts and the changed ones checked alone; None when
        the whole file must be checked."""
        new = [p for p in cut.parts if p.text not in old.parts]
        if len(new) > MAX_PARTS:
            return None
        fresh: dict[str, str | None] = {p.text: _name(cut.header, p) for p in new}
        names = [old.parts[p.text].name if p.text in old.parts else fresh[p.text] for p in cut.parts]
        if _UNREAD in names or _repeated(names):
            return None
        everyone = frozenset(n for n in names if n is not None)
        changed = everyone ^ old.names
        again = [p for p in cut.parts if p.text in old.parts and p.text not in fresh
                 and (old.parts[p.text].found or _mentions(p.text, changed))]
        if len(new) + len(again) > MAX_PARTS:
            return None
        parts = dict(old.parts)
        for p in [*new, *again]:
            if cancelled():
                raise Cancelled
            parts[p.text] = Checked(fresh.get(p.text) or old.parts[p.text].name,
                                    tuple(self._alone(path, cut, p, known, everyone)))
        self._files[path] = _File(old.key, old.header, {p.text: parts[p.text] for p in cut.parts},
                                  everyone)
        out = list(old.header)
        for p in cut.parts:
            out += [_moved(d, p.start) for d in parts[p.text].found]
        return out

    def _alone(self, path: str, cut: Split, part: Part, known: Known,
               names: frozenset[str]) -> list[Diagnostic]:
        """One card checked with the header: its diagnostics, counted from its first line."""
        header_lines = cut.header.count("\n")
        report = check_text(path, cut.header + part.text, replace(known, cards=names))
        return [_moved(d, -header_lines) for d in report.diagnostics
                if d.path == path and d.line > header_lines]


_UNREAD = "\0unread"  # a part that is not one card in YAML


def _name(header: str, part: Part) -> str | None:
    """The card's name (None when it has none; _UNREAD when the part is not one card)."""
    try:
        data = yaml.load(header + part.text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return _UNREAD
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(cards, list) or len(cards) != 1:
        return _UNREAD
    card = cards[0]
    return str(card["name"]) if isinstance(card, dict) and "name" in card else None


def _repeated(names: list[str | None]) -> bool:
    given = [n for n in names if n is not None]
    return len(set(given)) != len(given)


def _mentions(text: str, names: frozenset[str]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text) for n in names)


def _moved(d: Diagnostic, lines: int) -> Diagnostic:
    related = tuple(replace(r, line=r.line + lines) if r.path == d.path else r for r in d.related)
    return replace(d, line=d.line + lines, related=related)
