"""The fast path's index of modifiers: card -> property -> modifiers, with the ones that only
add or take away whole numbers summed into one.

A number's reader applies its modifiers in turn (`=`, `+=`, `-=` in the ruleset's order, the
oldest first), then clamps. Additions and subtractions of whole numbers give the same value
in any order and as one sum, so a card whose modifiers are all of them gets one `+=` of their
sum: a board of N cards each raising the others costs N additions to index and one step to
read each card, not N. A card and property with any other modifier (an `=`, a number that is
not whole) keeps every modifier, ordered as GameState.index_mods orders them (the reference
path, which keeps them all). A word's reader looks only at `=` modifiers, which are never
summed.

A few modifiers (a real deck's board) are listed and each card's several ones summed or
sorted; many (a board of N cards each raising the others) are counted per card in C, the
others listed only for the cards that need them.

The static modifiers come as Game.static_mods' fast form: (targets, property, (op, value,
stamp)) for each modifier of each static ability that works, in the order they were found.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

Mod = tuple[str, Any, int]  # (op, value, stamp)
Statics = list[tuple[tuple[int, ...], str, Mod]]


def index(temporary: list[tuple], statics: Statics | None,
          rank: dict[str, int]) -> dict[int, dict[str, list[Mod]]]:
    """card -> property -> modifiers in the order they apply, sums where they can be."""
    size = 0
    for entry in statics or ():
        size += len(entry[0])
    if size <= _FEW:
        return _listed(temporary, statics or [], rank)
    return _summed(temporary, statics, rank)


_FEW = 64  # static modifiers on cards (fewer: listed, as a real deck's board has them)


def _listed(temporary: list[tuple], statics: Statics,
            rank: dict[str, int]) -> dict[int, dict[str, list[Mod]]]:
    """Every modifier listed, then a card's several ones summed or ordered (GameState
    .index_mods' order: the temporary ones, then the static ones as found, sorted stably)."""
    by_card: dict[int, dict[str, list[Mod]]] = {}
    several = []
    for c, p, op, v, _until, s in temporary:
        listed = by_card.setdefault(c, {}).setdefault(p, [])
        listed.append((op, v, s))
        if len(listed) == 2:
            several.append(listed)
    for targets, p, mod in statics:
        for t in targets:
            props = by_card.get(t)
            if props is None:
                by_card[t] = {p: [mod]}
                continue
            mods = props.get(p)
            if mods is None:
                props[p] = [mod]
                continue
            mods.append(mod)
            if len(mods) == 2:
                several.append(mods)
    for mods in several:
        total = _additive_total(mods)
        if total is not None:
            mods[:] = (("+=", total, 0),)
        else:
            mods.sort(key=lambda m: (rank.get(m[0], 9), m[2]))
    return by_card


def _additive_total(mods: list[Mod]) -> int | None:
    """The sum of modifiers that only add or take away whole numbers, None if one does not."""
    total = 0
    for op, amount, _stamp in mods:
        if type(amount) is not int:
            return None
        if op == "+=":
            total += amount
        elif op == "-=":
            total -= amount
        else:
            return None
    return total


def _summed(temporary: list[tuple], statics: Statics | None,
            rank: dict[str, int]) -> dict[int, dict[str, list[Mod]]]:
    """index() for many static modifiers: each static's additions counted per card in C."""
    sums: dict[str, dict[int, int]] = {}  # property -> card -> the sum of its additions
    mixed: set[tuple[int, str]] = set()  # (card, property) with a modifier not summed
    for c, p, op, v, _until, _stamp in temporary:
        if type(v) is int and (op == "+=" or op == "-="):
            by = sums.get(p)
            if by is None:
                by = sums[p] = {}
            by[c] = by.get(c, 0) + (v if op == "+=" else -v)
        else:
            mixed.add((c, p))
    counts: dict[tuple[str, int], Counter[int]] = {}  # (property, step) -> card -> times
    for targets, p, (op, v, _stamp) in statics or ():
        if type(v) is int and (op == "+=" or op == "-="):
            key = (p, v if op == "+=" else -v)
            times = counts.get(key)
            if times is None:
                times = counts[key] = Counter()
            times.update(targets)  # (counted in C: the hottest loop of the index)
        else:
            mixed.update((t, p) for t in targets)
    for (p, step), times in counts.items():
        by = sums.get(p)
        if by is None:
            by = sums[p] = {}
        get = by.get
        for t, n in times.items():
            by[t] = get(t, 0) + step * n
    by_card: dict[int, dict[str, list[Mod]]] = {}
    for p, by in sums.items():
        for c, total in by.items():
            if not mixed or (c, p) not in mixed:
                props = by_card.get(c)
                if props is None:
                    by_card[c] = {p: [("+=", total, 0)]}
                else:
                    props[p] = [("+=", total, 0)]
    if mixed:
        _keep_each(by_card, mixed, temporary, statics or [], rank)
    return by_card


def _keep_each(by_card: dict[int, dict[str, list[Mod]]], mixed: set[tuple[int, str]],
               temporary: list[tuple], statics: Statics, rank: dict[str, int]) -> None:
    """Every modifier of the cards and properties in `mixed`, ordered: the temporary ones
    first, then the static ones as found, sorted (stably) by the ruleset's order and stamp,
    as GameState.index_mods orders them."""
    for c, p, op, v, _until, s in temporary:
        if (c, p) in mixed:
            by_card.setdefault(c, {}).setdefault(p, []).append((op, v, s))
    for targets, p, mod in statics:
        for t in targets:
            if (t, p) in mixed:
                by_card.setdefault(t, {}).setdefault(p, []).append(mod)
    for c, p in mixed:
        by_card[c][p].sort(key=lambda m: (rank.get(m[0], 9), m[2]))
