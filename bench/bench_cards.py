"""What per-card tracking costs `tcg simulate`: the same matches with and without it.

Run: python bench/bench_cards.py [--games 300] [--rounds 5] [--seed 0] [RULESET ...]

For each ruleset (default: ucb) the same seeded matches are played in this process with the
card tracker on and off, alternating round by round (so drift in the machine's load falls on
both), and the best round of each is compared by CPU time. Also timed: building the per-card
table from the records (run/cards.py), once per run. The target is a tracking cost of at most
10% of simulate's throughput on ucb.
"""

from __future__ import annotations

import argparse
import sys
import time

from rich.console import Console
from rich.table import Table

from interpreter.run.simulate import card_table, make_plan, play_match

TARGET = 0.10


def play(plan, cards: bool) -> tuple[list[dict], float]:
    start = time.process_time()
    records = [play_match(plan.ruleset, plan.decks, plan.agents, plan.seed, i, plan.turns, cards=cards)
               for i in range(plan.games)]
    return records, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="default: ucb")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t = Table(title=f"per-card tracking, random vs random, {args.games} matches, best of {args.rounds} "
                    "rounds by CPU time")
    for col in ("ruleset", "without: matches/s", "with: matches/s", "tracking cost", "table build",
                "verdict"):
        t.add_column(col, justify="left" if col == "ruleset" else "right")
    worst = 0.0
    for ruleset in args.rulesets or ["ucb"]:
        plan = make_plan(ruleset, [], ["random"], args.seed, args.games)
        play(plan, True)  # warm: the game loaded, generated code compiled
        off, on = [], []
        for _ in range(args.rounds):
            plain, seconds = play(plan, False)
            off.append(seconds)
            tracked, seconds = play(plan, True)
            on.append(seconds)
        if [{k: v for k, v in r.items() if k != "cards"} for r in tracked] != plain:
            print(f"{ruleset}: tracking changed the matches", file=sys.stderr)
            return 1
        start = time.process_time()
        card_table(plan, tracked)
        build = time.process_time() - start
        cost = min(on) / min(off) - 1
        worst = max(worst, cost) if ruleset == "ucb" else worst
        t.add_row(ruleset, f"{args.games / min(off):.1f}", f"{args.games / min(on):.1f}",
                  f"{100 * cost:+.1f}%", f"{1000 * build:.0f} ms ({100 * build / min(on):.1f}%)",
                  "ok" if cost <= TARGET else f"over {100 * TARGET:.0f}%")
    Console(width=120).print(t)
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
