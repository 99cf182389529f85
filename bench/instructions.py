"""CPU instructions per UCB match (valgrind callgrind): a speed figure that machine load
does not disturb, unlike the wall-clock ones of bench_ucb.py.

Run: python bench/instructions.py [--matches 10] [--clones]   (needs valgrind, with
callgrind_control)

Each measurement is one process under callgrind with instrumentation off until the game is
loaded and one warm-up match played; it counts the matches bench_ucb.py plays (seeds 0..N-1,
same random player): the bundled sample decks, the vanilla deck, and the hand-written
simulator on the vanilla deck. Switching instrumentation on and off costs instructions of its
own (a subprocess): a run with no matches measures that, and is subtracted. `--clones` counts
instead the instructions of one `state.clone()` (bench_search.py's 20 mid-game UCB states,
each cloned --matches times, and the RNG drawn from in none of them: search copies rarely
shuffle). `--rulesets` counts, for every bundled ruleset, instructions a decision on
`tcg simulate`'s path (run/simulate.py's play_match: random agents, lead tracking), seeds
0..--matches-1 after a warm-up match.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import bench_ucb  # noqa: E402

KINDS = ("sample", "vanilla", "hand-written")


def collect(on: bool) -> None:
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
                   capture_output=True, check=False)


def child(kind: str, n: int) -> None:
    """Runs under callgrind: warm up, then play n matches with instrumentation on."""
    if kind.startswith("simulate:"):
        from interpreter.run.simulate import make_plan, play_match
        plan = make_plan(kind.split(":", 1)[1], [], ["random"], 0, n + 1)
        play_match(plan.ruleset, plan.decks, plan.agents, 10_000, 0)
        collect(True)
        decisions = sum(play_match(plan.ruleset, plan.decks, plan.agents, 0, i)["decisions"]
                        for i in range(n))
        collect(False)
        print(f"decisions {decisions}")
        return
    if kind == "clone":
        import bench_search
        states = bench_search.midgames(20)
        for s in states:
            s.clone()
        collect(True)
        for _ in range(n):
            for s in states:
                s.clone()
    elif kind == "logged":  # the sample decks' matches keeping a log, as tcg play does
        game, decks = bench_ucb.sample_game()
        bench_ucb.bench_interpreter(game, decks, 1, log=True)
        collect(True)
        bench_ucb.bench_interpreter(game, decks, n, log=True)
    elif kind == "hand-written":
        bench_ucb.bench_handwritten(1)
        collect(True)
        bench_ucb.bench_handwritten(n)
    else:
        game, decks = bench_ucb.sample_game() if kind == "sample" else bench_ucb.vanilla_game()
        bench_ucb.bench_interpreter(game, decks, 1)
        collect(True)
        bench_ucb.bench_interpreter(game, decks, n)
    collect(False)


def measure(kind: str, n: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
                            "--child", kind, "--matches", str(n)],
                           capture_output=True, text=True, check=True)
    refs = re.search(r"refs:\s*([\d,]+)", r.stderr)
    if refs is None:
        sys.exit(f"no instruction count in valgrind's output:\n{r.stderr}")
    return int(refs.group(1).replace(",", ""))


def measure_decisions(kind: str, n: int) -> tuple[int, int]:
    """(instructions, decisions) of a child that prints how many decisions it counted."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
                            "--child", kind, "--matches", str(n)],
                           capture_output=True, text=True, check=True)
    refs = re.search(r"refs:\s*([\d,]+)", r.stderr)
    decisions = re.search(r"decisions (\d+)", r.stdout)
    if refs is None or decisions is None:
        sys.exit(f"no instruction count in valgrind's output:\n{r.stderr}")
    return int(refs.group(1).replace(",", "")), int(decisions.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=10, help="matches per measurement")
    ap.add_argument("--clones", action="store_true", help="instructions a clone() instead")
    ap.add_argument("--logged", action="store_true", help="also the sample decks' matches "
                    "with a log kept (log=True), against the same matches without")
    ap.add_argument("--rulesets", action="store_true", help="instructions a decision of "
                    "every bundled ruleset on the simulate path instead")
    ap.add_argument("--only", help="with --rulesets: these rulesets, comma-separated")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.matches)
        return
    if args.rulesets:
        from interpreter.load import files
        for ruleset in args.only.split(",") if args.only else files.bundled_ids():
            total, decisions = measure_decisions(f"simulate:{ruleset}", args.matches)
            print(f"{ruleset:>13}: {total / decisions:9,.0f} instructions a decision "
                  f"({decisions} decisions)")
        return
    if args.clones:
        per_clone = (measure("clone", args.matches) - measure("clone", 0)) / (20 * args.matches)
        print(f"clone: {per_clone:,.0f} instructions (20 mid-game UCB states)")
        return
    kinds = (*KINDS, "logged") if args.logged else KINDS
    per = {kind: (measure(kind, args.matches) - measure(kind, 0)) / args.matches
           for kind in kinds}
    for kind in kinds:
        print(f"{kind:>13}: {per[kind] / 1e6:7.2f} M instructions per match")
    if args.logged:
        print(f"logged / unlogged (sample decks): {per['logged'] / per['sample']:.2f}x")
    print(f"interpreter vanilla / hand-written: {per['vanilla'] / per['hand-written']:.2f}x "
          f"the instructions (seeds 0..{args.matches - 1})")


if __name__ == "__main__":
    main()
