"""Behaviour fingerprints of every bundled ruleset, to show a speed change alters nothing.

Run: python bench/same_logs.py OUT [--seeds 40]   (before and after a change, then: diff -r A B)

Writes, per bundled ruleset (picked up automatically): the JSON Lines log of seeded random
matches (logging on), of a few greedy-vs-random matches (greedy clones and searches), and a
digest of unlogged matches played as bench/bench_ucb.py plays them (every decision's player,
prompt and option count, and the result: logging off takes other paths in the engine); plus
the output of `tcg test` on every scenario suite.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import subprocess
import sys
from pathlib import Path

from interpreter.engine import vm
from interpreter.load import files
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup, play, resolve_decks

ROOT = Path(__file__).resolve().parents[1]
GREEDY_SEEDS = 3


def logged(out: Path, ruleset: str, seeds: int) -> None:
    for seed in range(seeds):
        buf = io.StringIO()
        play(MatchSetup(ruleset, [], seed, ["random", "random"]), buf)
        (out / f"{ruleset}-{seed}.jsonl").write_text(buf.getvalue(), encoding="utf-8")
    for seed in range(GREEDY_SEEDS):
        buf = io.StringIO()
        play(MatchSetup(ruleset, [], seed, ["greedy", "random"]), buf)
        (out / f"{ruleset}-greedy-{seed}.jsonl").write_text(buf.getvalue(), encoding="utf-8")


def unlogged(out: Path, ruleset: str, seeds: int) -> None:
    game = load_game(ruleset)
    decks = [d.sections for d in resolve_decks(game, ruleset, [])]
    digest = hashlib.sha256()
    for seed in range(seeds):
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(f"policy-{seed}")
        while g.result is None:
            d = g.decision
            digest.update(f"{d.player}:{d.prompt}:{len(d.options)};".encode())
            vm.answer(g, rng.choice(d.options))
        digest.update(repr((g.result, g.turn)).encode())
    (out / f"{ruleset}-unlogged.sha256").write_text(digest.hexdigest() + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="directory to write into")
    ap.add_argument("--seeds", type=int, default=40, help="seeded matches per ruleset")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for ruleset in files.bundled_ids():
        logged(args.out, ruleset, args.seeds)
        unlogged(args.out, ruleset, args.seeds)
    r = subprocess.run([sys.executable, "-m", "interpreter.cli", "test", "tests/scenarios"],
                       cwd=ROOT, capture_output=True, text=True)
    (args.out / "scenarios.txt").write_text(r.stdout + r.stderr, encoding="utf-8")
    print(f"{len(list(args.out.iterdir()))} files in {args.out}")


if __name__ == "__main__":
    main()
