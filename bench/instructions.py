"""CPU instructions per UCB match (valgrind callgrind): a speed figure that machine load
does not disturb, unlike the wall-clock ones of bench_ucb.py.

Run: python bench/instructions.py [--matches 10]   (needs valgrind, with callgrind_control)

Each measurement is one process under callgrind with instrumentation off until the game is
loaded and one warm-up match played; it counts the matches bench_ucb.py plays (seeds 0..N-1,
same random player): the bundled sample decks, the vanilla deck, and the hand-written
simulator on the vanilla deck. Switching instrumentation on and off costs instructions of its
own (a subprocess): a run with no matches measures that, and is subtracted.
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
    if kind == "hand-written":
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=10, help="matches per measurement")
    ap.add_argument("--child", choices=KINDS, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.matches)
        return
    per = {kind: (measure(kind, args.matches) - measure(kind, 0)) / args.matches
           for kind in KINDS}
    for kind in KINDS:
        print(f"{kind:>13}: {per[kind] / 1e6:7.2f} M instructions per match")
    print(f"interpreter vanilla / hand-written: {per['vanilla'] / per['hand-written']:.2f}x "
          f"the instructions (seeds 0..{args.matches - 1})")


if __name__ == "__main__":
    main()
