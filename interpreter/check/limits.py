"""Warnings of `tcg check` for files that are valid but hold more than a match may
(engine/limits.py): such a match would end at its start as a draw ("loop limit"), a scenario
would fail (`tcg test`), so the designer hears it while writing, not while playing."""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics import Diagnostic
from interpreter.engine import limits
from interpreter.load.yamlpos import Doc

LIMIT = "MATCH-TOO-LARGE"
LIMIT_HINT = "a scenario gives only the cards its test needs"


def ruleset_warnings(doc: Doc) -> list[Diagnostic]:
    """The pools together hold more cards than a match may."""
    pools = doc.data.get("pools") if isinstance(doc.data, dict) else None
    if not isinstance(pools, dict):
        return []
    total = sum(_count(d) for d in pools.values())
    if total <= limits.MAX_CARDS:
        return []
    d = doc.key_diag(("pools",), LIMIT, f"the pools hold {total:,} cards, more than a match "
                     f"may hold ({limits.MAX_CARDS:,}): every match would end as it starts, "
                     "a draw (loop limit)", "deal fewer cards from the pools")
    return [_warning(d)]


def scenario_warnings(doc: Doc) -> list[Diagnostic]:
    """The given state holds more cards than a match may."""
    state = doc.data.get("state") if isinstance(doc.data, dict) else None
    over = too_many_cards(state) if isinstance(state, dict) else None
    if over is None:
        return []
    return [_warning(doc.key_diag(("state", "zones", over[0]), LIMIT,
                                  f"{over[1]}: `tcg test` fails it", LIMIT_HINT))]


def too_many_cards(state: dict) -> tuple[str, str] | None:
    """(the zone whose cards pass the limit, what is wrong) when a given state holds more
    cards than a match may (engine/limits.py), else None."""
    total = 0
    for key, cards in (state.get("zones") or {}).items():
        total += len(cards or ())
        if total > limits.MAX_CARDS:
            return key, (f"the state holds more than {limits.MAX_CARDS:,} cards (from "
                         f"{key!r} on), more than a match may hold")
    return None


def _count(pool: Any) -> int:
    cards = pool.get("cards") if isinstance(pool, dict) else None
    if not isinstance(cards, dict):
        return 0
    return sum(n for n in cards.values() if type(n) is int and n > 0)


def _warning(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    return replace(d, severity="warning")
