"""`tcg simulate --swap OLD=NEW`: the same seeded matches again with deck A's OLD replaced by
NEW, and the paired difference in deck A's win rate.

Every copy of OLD takes NEW's place at the same position of the deck, so a seed deals the
same positions in both runs and each match is compared with its own twin. Only the matches
where the two runs part ways count: with b twins the change won and c it lost (of m = b + c
discordant pairs among n), the difference is (b − c) / n; its 95% interval is
(m / n)(2π − 1) for π over the Wilson interval of b in m (conditional on m, as the exact
McNemar test is), and the p-value is that test's. A card swapped for itself plays every
match the same: the difference and its interval are exactly 0.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from interpreter.diagnostics import TcgError, did_you_mean
from interpreter.run import outputs
from interpreter.run.stats import wilson
from interpreter.run.swaps import swap_sections

ABLATION_JSON, SWAP_DIR = "ablation.json", "swap"


def parse_swap(text: str) -> tuple[str, str]:
    old, sep, new = text.partition("=")
    if not sep or not old.strip() or not new.strip():
        raise TcgError(f"--swap wants OLD=NEW (two card names), got {text!r}")
    return old.strip(), new.strip()


def swapped(plan, swaps: list[str], out: Path | None = None, resume: bool = False):
    """The plan of the changed run (its files go to OUT/swap/); unknown or absent cards, an
    illegal result and an earlier changed run in OUT without `resume` are errors, before any
    match is played."""
    from interpreter.check.decks import check_deck
    from interpreter.load import files
    from interpreter.run.loading import load_game
    from interpreter.run.simulate import RESULTS

    if out is not None and not resume and (out / SWAP_DIR / RESULTS).exists():
        raise TcgError(f"{out / SWAP_DIR / RESULTS} already exists; pass --resume to continue that "
                       "run or choose another --out")
    pairs = tuple(parse_swap(s) for s in swaps)
    game = load_game(plan.ruleset)
    deck = files.load_deck(plan.decks[0])
    held = {n for names in deck.sections.values() for n in names}
    for old, new in pairs:
        if old not in held:
            hint = did_you_mean(old, held) or "its cards: " + ", ".join(sorted(held))
            raise TcgError(f"--swap {old}={new}: deck A ({plan.decks[0]}) holds no {old!r}; {hint}")
        if new not in game.cards:
            hint = did_you_mean(new, game.cards)
            raise TcgError(f"--swap {old}={new}: {game.ruleset.id} has no card {new!r}"
                           + (f"; {hint}" if hint else ""))
    changed = replace(deck, sections=swap_sections(deck.sections, pairs))
    problems = check_deck(game, changed)
    if problems:
        raise TcgError(f"--swap makes deck A illegal: {problems[0].message}")
    return replace(plan, swaps=pairs)


def paired(before: list[dict], after: list[dict], key: str = "A") -> dict:
    """Deck `key`'s win rate after minus before, over the seeds both runs completed."""
    won = {r["seed"]: r["winner"] == key for r in before if r["outcome"] != "error"}
    twins = [(won[r["seed"]], r["winner"] == key) for r in after
             if r["outcome"] != "error" and r["seed"] in won]
    n = len(twins)
    b = sum(a and not w for w, a in twins)  # the change won where the deck had lost
    c = sum(w and not a for w, a in twins)
    m = b + c
    lo, hi = wilson(b, m) if m else (0.5, 0.5)
    return {"games": n, "before": sum(w for w, _ in twins) / n if n else 0.0,
            "after": sum(a for _, a in twins) / n if n else 0.0,
            "difference": (b - c) / n if n else 0.0,
            "low": m / n * (2 * lo - 1) if n else 0.0, "high": m / n * (2 * hi - 1) if n else 0.0,
            "better": b, "worse": c, "p_value": mcnemar(b, c)}


def mcnemar(b: int, c: int) -> float:
    """The exact two-sided McNemar p-value: b of b + c discordant pairs under a fair coin."""
    m, k = b + c, min(b, c)
    if m == 0:
        return 1.0
    log_half = m * math.log(0.5)
    tail = sum(math.exp(math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1) + log_half)
               for i in range(k + 1))
    return min(1.0, 2 * tail)


def write_ablation(out: Path, plan, result: dict) -> None:
    from interpreter.run.simulate import agents_doc

    doc = {"deck": plan.names[0], "swaps": [list(s) for s in plan.swaps], **result,
           "agents": agents_doc(plan),
           "method": "paired by seed; exact McNemar test, Wilson interval on the discordant pairs"}
    outputs.write_json(out / ABLATION_JSON, doc)
