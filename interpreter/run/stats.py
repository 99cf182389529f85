"""Balance statistics over per-match records: pure functions, no engine imports.

A record (one per match, see simulate.play_match) carries `match`, `seed`, `seats` (the deck
key, "A" or "B", sitting in each seat), `starter` (the seat that took the first turn),
`outcome` (win | draw | turn_limit | loop_limit | error), `winner` (deck key or None),
`reason`, `turns`, `decisions` (asked), `unasked` (windows and priorities that closed or passed
without asking: the player had nothing but pass) and `lead_changes`.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from typing import Any

Z95 = 1.959963984540054  # the two-sided 95% normal quantile
TIMEOUTS = ("turn_limit", "loop_limit")


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for k successes in n trials (0..1 when n is 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "n": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def outcome_of(winner: int | None, reason: str) -> str:
    if reason.startswith("turn limit"):
        return "turn_limit"
    if reason.startswith("loop limit"):
        return "loop_limit"
    return "draw" if winner is None else "win"


def spread(values: list[float], bins: int = 10) -> dict:
    """Mean, standard deviation, quartiles and an equal-width histogram."""
    if not values:
        return {"n": 0}
    lo, hi = min(values), max(values)
    out: dict[str, Any] = {"n": len(values), "mean": statistics.fmean(values),
           "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
           "min": lo, "median": statistics.median(values), "max": hi}
    width = max(1, math.ceil((hi - lo + 1) / bins))
    edges = list(range(int(lo), int(hi) + 1, width))
    counts = [0] * len(edges)
    for v in values:
        counts[min(len(edges) - 1, int((v - edges[0]) // width))] += 1
    out["histogram"] = [{"from": e, "to": e + width - 1, "count": c}
                        for e, c in zip(edges, counts, strict=True)]
    return out


def text_histogram(hist: list[dict], width: int = 30) -> list[str]:
    top = max((h["count"] for h in hist), default=0) or 1
    span = max(len(f"{h['from']}–{h['to']}") for h in hist) if hist else 0
    return [f"{h['from']}–{h['to']}".rjust(span) + f" │{'█' * round(width * h['count'] / top):<{width}} "
            f"{h['count']}" for h in hist]


_PLAYER = re.compile(r"\bP\d+\b")


def reason_key(reason: str) -> str:
    """Group end reasons across seats: "P2 loses: ..." and "P1 loses: ..." are one reason."""
    return _PLAYER.sub("P*", reason)


def summarize(records: list[dict], names: dict[str, str]) -> dict:
    """Everything the report shows, as plain data (summary.json)."""
    records = sorted(records, key=lambda r: r["match"])
    errors = [r for r in records if r["outcome"] == "error"]
    done = [r for r in records if r["outcome"] != "error"]
    n = len(done)
    by = Counter(r["outcome"] for r in done)
    decisive = [r for r in done if r["outcome"] == "win"]
    decks = {}
    for key, name in names.items():
        mine = [r for r in done if key in r["seats"]]
        first = [r for r in decisive if r["starter"] is not None and r["seats"][r["starter"]] == key]
        second = [r for r in decisive if r["starter"] is not None and r["seats"][r["starter"]] != key]
        decks[key] = {
            "name": name,
            "win": rate(sum(r["winner"] == key for r in mine), len(mine)),
            "win_when_first": rate(sum(r["winner"] == key for r in first), len(first)),
            "win_when_second": rate(sum(r["winner"] == key for r in second), len(second)),
        }
    known = [r for r in decisive if r["starter"] is not None]
    first_wins = rate(sum(r["seats"][r["starter"]] == r["winner"] for r in known), len(known))
    lead = [r["lead_changes"] for r in done if r.get("lead_changes") is not None]
    return {
        "games": len(records),
        "completed": n,
        "decks": decks,
        "draw": rate(by["draw"], n),
        "turn_limit": rate(by["turn_limit"], n),
        "loop_limit": rate(by["loop_limit"], n),
        "timeouts": rate(by["turn_limit"] + by["loop_limit"], n),
        "undecided": rate(n - len(decisive), n),
        "first_player": {**first_wins, "advantage": first_wins["rate"] - 0.5 if known else 0.0,
                         "advantage_ci95": [first_wins["ci95"][0] - 0.5, first_wins["ci95"][1] - 0.5]},
        "turns": spread([r["turns"] for r in done]),
        "decisions": spread([r["decisions"] for r in done]),
        "unasked": spread([r["unasked"] for r in done if "unasked" in r]),  # (older runs: none)
        "lead_changes": {**spread(lead), "games_with_a_change": rate(sum(x > 0 for x in lead), len(lead))},
        "reasons": dict(Counter(reason_key(r["reason"]) for r in done).most_common()),
        "errors": {"count": len(errors), "seeds": [r["seed"] for r in errors],
                   "messages": dict(Counter(r["error"] for r in errors).most_common())},
    }


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The interval of p1 − p2 for two independent proportions by Newcombe's hybrid score
    method (his method 10): each side's Wilson interval, combined as a square root."""
    p1, p2 = k1 / n1 if n1 else 0.0, k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    return (max(-1.0, d - math.hypot(p1 - l1, u2 - p2)),
            min(1.0, d + math.hypot(u1 - p1, p2 - l2)))
