"""`tcg simulate` throughput: every bundled ruleset, random agents, 1 worker and then 2.

Run: python bench/bench_simulate.py [--seconds 6] [--seed 0] [RULESET ...]

For each ruleset (default: all bundled ones) the number of matches is sized from a short
calibration so that the one-worker run takes about --seconds. The same matches are then run
with one worker (in this process) and with two (a process pool); the two runs must give
identical records. Reported: matches/s and decisions/s by the wall clock and per CPU-second
(CPU time is steadier on a shared machine), and the 1 -> 2 worker speed-up. Loading the
rules is not timed (it is cached before the runs); starting the pool is.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from rich.console import Console
from rich.table import Table

from interpreter.load import files
from interpreter.run.simulate import make_plan, play_match, simulate


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def games_for(ruleset: str, seconds: float, seed: int) -> int:
    plan = make_plan(ruleset, [], ["random"], seed, 4)
    start = time.perf_counter()
    for i in range(4):
        play_match(plan.ruleset, plan.decks, plan.agents, seed + 10_000, i)
    per_match = (time.perf_counter() - start) / 4
    return max(10, 2 * round(seconds / per_match / 2))


def timed(ruleset: str, games: int, seed: int, workers: int) -> tuple[list[dict], float, float]:
    plan = make_plan(ruleset, [], ["random"], seed, games)
    cpu, wall = cpu_seconds(), time.perf_counter()
    run = simulate(plan, workers)
    return run.records, time.perf_counter() - wall, cpu_seconds() - cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="default: every bundled ruleset")
    ap.add_argument("--seconds", type=float, default=6.0, help="target length of the 1-worker run")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t = Table(title=f"tcg simulate, random vs random, bundled decks (load {os.getloadavg()[0]:.1f} "
                    f"on {os.cpu_count()} cores at the start)")
    for col in ("ruleset", "games", "decisions/game", "1 worker: matches/s", "decisions/s",
                "matches/CPU-s", "2 workers: matches/s", "speed-up"):
        t.add_column(col, justify="left" if col == "ruleset" else "right")
    for ruleset in args.rulesets or files.bundled_ids():
        games = games_for(ruleset, args.seconds, args.seed)
        one, wall1, cpu1 = timed(ruleset, games, args.seed, 1)
        two, wall2, _ = timed(ruleset, games, args.seed, 2)
        if one != two:
            print(f"{ruleset}: 1 and 2 workers gave different records", file=sys.stderr)
            return 1
        decisions = sum(r["decisions"] for r in one)
        t.add_row(ruleset, str(games), f"{decisions / games:.0f}", f"{games / wall1:.1f}",
                  f"{decisions / wall1:,.0f}", f"{games / cpu1:.1f}", f"{games / wall2:.1f}",
                  f"{wall1 / wall2:.2f}×")
    Console(width=150).print(t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
