"""`tcg simulate --check-skill [N|P%]`: do the run's conclusions hold when the agents play better?

The first N matches of the run (default 20%, at least 20: the same seeds, decks and seats) are played
again by the same agents with budget.FACTOR (4) times their budget (agents/budget.py
`stronger`). Three kinds of conclusion are checked against that stronger play: which deck
wins more, and the sign of the IWD of each deck's strongest and weakest card in the run's
per-card table (its first and last row with an IWD). A conclusion holds when the stronger
play gives the same sign; a card the sample cannot measure (drawn in all of its games, or in
none) is not counted. Where any does not hold, the figures reflect the agents' weak play
rather than the cards. The sample is small, so its own figures are rough: a conclusion that
does not hold is a reason to look again (more games, a stronger agent), not a verdict on the
card.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from interpreter.agents.budget import FACTOR, stronger
from interpreter.diagnostics import TcgError
from interpreter.run import outputs
from interpreter.words.ui import tr

SKILL_DIR, SKILL_JSON = "skill", "skill.json"
SHARE, LEAST = 20, 20  # --check-skill alone: 20% of the matches, at least 20 (all, if fewer)


def sample_size(games: int, asked: str | None) -> int:
    """How many matches to replay: `asked` is a number of games or a share (`30%`); None:
    SHARE percent of them, at least LEAST."""
    if asked is None:
        return min(games, max(LEAST, math.ceil(games * SHARE / 100)))
    text = asked.strip()
    try:
        n = math.ceil(games * float(text[:-1]) / 100) if text.endswith("%") else int(text)
    except ValueError:
        raise TcgError("err.skill_sample", asked=repr(asked)) from None
    if not 1 <= n <= games:
        raise TcgError("err.skill_range", asked=asked, games=games, n=n)
    return n


def skilled(plan, sample: int, strengthen: Callable[[str], str] = stronger):
    """The plan of the check: the run's first `sample` matches, stronger agents."""
    return replace(plan, agents=tuple(strengthen(a) for a in plan.agents), games=sample)


def check_out(out: Path | None, resume: bool) -> Path | None:
    """OUT/skill/, refused when it holds an earlier check and `resume` was not given."""
    from interpreter.run.simulate import RESULTS

    if out is None:
        return None
    if not resume and (out / SKILL_DIR / RESULTS).exists():
        raise TcgError("err.skill_exists", path=out / SKILL_DIR / RESULTS)
    return out / SKILL_DIR


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def _lead(summary: dict) -> tuple[int, str]:
    """Which deck wins more: +1 A, -1 B, 0 neither; and it in words."""
    decks = summary["decks"]
    a, b = decks["A"]["win"], decks["B"]["win"]
    sign = _sign(a["rate"] - b["rate"])
    if sign == 0:
        return 0, tr("ui.skill_neither", pct=f"{100 * a['rate']:.0f}")
    key = "A" if sign > 0 else "B"
    won = decks[key]["win"]
    return sign, tr("ui.skill_lead", key=key, name=decks[key]["name"], pct=f"{100 * won['rate']:.0f}",
                    n=won["n"])


def _extremes(cards: list[dict]) -> list[tuple[str, dict]]:
    """Each deck's strongest and weakest card by IWD (the table's order: best first)."""
    out: list[tuple[str, dict]] = []
    decks: dict[str, list[dict]] = {}
    for r in cards:
        if r["iwd"] is not None:
            decks.setdefault(r["deck"], []).append(r)
    for rows in decks.values():
        out.append(("strongest", rows[0]))
        if len(rows) > 1:
            out.append(("weakest", rows[-1]))
    return out


def _measured(row: dict | None) -> float | None:
    """The sample's IWD of a card, or None where it cannot tell: the card was drawn in all of
    the deck's games or in none, or the deck won all of them or none (IWD is then 0 whatever
    the card does)."""
    if row is None or row["iwd"] is None or row["wins"] in (0, row["games"]):
        return None
    return row["iwd"]


def _pts(x: float | None) -> str:
    return tr("ui.not_measured") if x is None else tr("ui.skill_iwd", pts=f"{100 * x:+.1f}")


def check(run, strong, seconds: float = 0.0) -> dict:
    """Each conclusion of `run` beside what the stronger play of `strong` (the check's run on
    the first matches) gives, and whether they all hold (skill.json)."""
    rows = []
    sign, said = _lead(run.summary)
    strong_sign, strong_said = _lead(strong.summary)
    rows.append({"conclusion": tr("ui.skill_winner"), "run": said, "stronger": strong_said,
                 "holds": sign == strong_sign})
    theirs = {(r["deck"], r["card"]): r for r in strong.cards}
    for which, r in _extremes(run.cards):
        other = _measured(theirs.get((r["deck"], r["card"])))
        rows.append({"conclusion": tr(f"ui.skill_{which}", deck=r["deck"], card=r["card"]),
                     "run": _pts(r["iwd"]), "stronger": _pts(other),
                     "holds": None if other is None else _sign(r["iwd"]) == _sign(other)})
    failed = [row["conclusion"] for row in rows if row["holds"] is False]
    plan = strong.plan
    return {"games": plan.games, "of": run.summary["games"], "factor": FACTOR,
            "seeds": [plan.seed, plan.seed + plan.games - 1], "seconds": round(seconds, 3),
            "agents": strong.summary["agents"], "errors": strong.summary["errors"]["count"],
            "conclusions": rows, "holds": not failed, "failed": failed}


def verdict(doc: dict) -> str:
    """The check in one plain sentence (the report's `skill check:` line)."""
    replayed = tr("ui.skill_replayed", games=doc["games"], of=doc["of"], factor=doc["factor"])
    if doc["holds"]:
        return tr("ui.skill_holds", replayed=replayed)
    return tr("ui.skill_fails", failed=tr("ui.semicolon").join(doc["failed"]), replayed=replayed)


def write_check(out: Path, doc: dict) -> None:
    outputs.write_json(out / SKILL_JSON, doc)

