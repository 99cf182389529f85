"""What per-card tracking costs `tcg simulate`: the same matches with and without it.

Run: python bench/bench_cards.py [--games 300] [--rounds 5] [--seed 0] [RULESET ...]
     python bench/bench_cards.py --instructions [--games 20] [RULESET ...]   (needs valgrind)

For each ruleset (default: ucb) the same seeded matches are played in this process with the
card tracker on and off, alternating round by round (so drift in the machine's load falls on
both), and the best round of each is compared by CPU time. Also timed: building the per-card
table from the records (run/cards.py), once per run. The target is a tracking cost of at most
10% of simulate's throughput on ucb. On a loaded machine CPU times wander by several percent
either way; `--instructions` counts CPU instructions instead (callgrind, instrumentation on
only while the matches play, after a warm-up match), which load does not disturb.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
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


def _collect(on: bool) -> None:
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
                   capture_output=True, check=False)


def child(ruleset: str, games: int, seed: int, cards: bool) -> None:
    """Runs under callgrind: warm up, then play the matches with instrumentation on."""
    plan = make_plan(ruleset, [], ["random"], seed, games)
    play_match(plan.ruleset, plan.decks, plan.agents, seed + 10_000, 0, cards=cards)
    _collect(True)
    play(plan, cards)
    _collect(False)


def instructions(ruleset: str, games: int, seed: int, cards: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={tmp}/out", sys.executable, __file__, ruleset,
                            "--child", "on" if cards else "off", "--games", str(games),
                            "--seed", str(seed)], capture_output=True, text=True, check=True)
    refs = re.search(r"refs:\s*([\d,]+)", r.stderr)
    if refs is None:
        sys.exit(f"no instruction count in valgrind's output:\n{r.stderr}")
    return int(refs.group(1).replace(",", ""))


def count(rulesets: list[str], games: int, seed: int) -> int:
    worst = 0.0
    for ruleset in rulesets:
        off, on = (instructions(ruleset, games, seed, cards) for cards in (False, True))
        cost = on / off - 1
        worst = max(worst, cost) if ruleset == "ucb" else worst
        print(f"{ruleset}: {off / games / 1e6:.2f} M instructions a match without per-card tracking, "
              f"{on / games / 1e6:.2f} M with: {100 * cost:+.2f}% (seeds {seed}..{seed + games - 1}; "
              f"target at most {100 * TARGET:.0f}%)")
    return 0 if worst <= TARGET else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="default: ucb")
    ap.add_argument("--games", type=int, default=None, help="default: 300 (20 with --instructions)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--instructions", action="store_true", help="count instructions (valgrind)")
    ap.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        child(args.rulesets[0], args.games, args.seed, args.child == "on")
        return 0
    if args.instructions:
        return count(args.rulesets or ["ucb"], args.games or 20, args.seed)
    args.games = args.games or 300
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
