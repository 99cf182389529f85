"""UCB throughput on one core, as ratios against baselines measured in the same run.

Run: python bench/bench_ucb.py [--matches N] [--chunks C] [--passes P] [--profile]

- hand-written: bench/handwritten_ucb.py, a plain-Python UCB simulator (vanilla characters);
- interpreter, vanilla: the same 40-card deck (bench/vanilla.yaml, four of each) and the same
  random player; the issue's later target: within 3x of the hand-written simulator;
- interpreter, sample decks: the bundled decks, target >= 100 matches/s;
- card texts parsed+checked: every bundled ability text, against plain Lark parsing the same
  texts (no checking), target >= 5,000/s; the median of P passes (default 5), alternating
  with plain Lark, since one pass lasts about a second.

Times are CPU seconds of this process (time.process_time), pinned to one core where the OS
allows, so other work on the machine disturbs the ratios little. Seeds are fixed: the match
with seed s shuffles with seed s; the random player draws from its own stream. The matches are
played in chunks (--chunks, default 10) that alternate between the implementations, each chunk
the same seeds for all three: the vanilla ratio is the median of the chunks' ratios, each taken
a moment apart, since this machine's speed drifts by +-20-30% between minutes.

The absolute targets were set on the machine of DESIGN.md, where the hand-written simulator
runs ~3,000 matches/s; the last line scales this run's figures to that machine by the
hand-written simulator's speed measured here.

Last measured 2026-11-23 after the tenth round (the hand-written simulator's deck read once,
outside its timing; before, every chunk timed reading its YAML): vanilla 2.45x the hand-written
simulator in CPU instructions (7.13M against 2.91M a match); by the wall clock, three runs of
1,000 matches: 2.89x, 2.91x and 2.92x slower (chunks 2.74-3.15), sample decks 644-651 matches/s,
card texts 14,450-14,488/s (the hand-written simulator at 3,460-3,489 matches/s).

Earlier figures, round by round, and how they were taken: docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import random
import statistics
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import lark
from rich.console import Console
from rich.table import Table

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.engine import vm
from interpreter.lang.parser import backend, parse_ability, parse_body
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import handwritten_ucb  # noqa: E402

ROOT = BENCH.parent
VANILLA = BENCH / "vanilla.yaml"
TARGET_MATCHES = 100
TARGET_TEXTS = 5000
TARGET_RATIO = 3
REFERENCE_HAND = 3000  # hand-written matches/s on the machine the targets were set on (DESIGN.md)
BODIES = ["choose 1 t from battle(opponent) where cost <= 3; destroy(t)",
          "draw(you, 2); damage(opponent, 1)"]


@dataclass
class Run:
    """Matches played back to back: counts and CPU seconds."""

    matches: int = 0
    decisions: int = 0
    turns: int = 0
    first_wins: int = 0
    seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.matches / self.seconds

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    def mean(self, total: int) -> float:
        return total / self.matches


def policy(seed: int) -> random.Random:
    """The random player's stream. Not random.Random(seed): the engine shuffles with that
    seed, and two streams with one seed are correlated (it skews who wins)."""
    return random.Random(f"policy-{seed}")


def play_interpreter(game, decks: list[dict], seed: int, run: Run, log: bool = False) -> None:
    g = game.new_state(decks, seed, log=log)
    rng = policy(seed)
    while g.result is None:
        vm.answer(g, rng.choice(g.decision.options))
    run.matches += 1
    run.decisions += g.decisions  # (vm.answer counts them)
    run.turns += g.turn
    run.first_wins += g.result.winner == 0


def bench_interpreter(game, decks: list[dict], n: int, first: int = 0,
                      run: Run | None = None, log: bool = False) -> Run:
    """Matches with seeds first..first+n-1, added to `run` (a new one by default); `log`:
    keeping the match's log."""
    run = Run() if run is None else run
    start = time.process_time()
    for seed in range(first, first + n):
        play_interpreter(game, decks, seed, run, log)
    run.seconds += time.process_time() - start
    return run


@functools.cache
def hand_deck() -> tuple[handwritten_ucb.Card, ...]:
    """The hand-written simulator's deck, read once and outside the timing, as the
    interpreter's game is (reading the YAML costs as much as ~8 of its matches)."""
    return tuple(handwritten_ucb.vanilla_deck(VANILLA))


def bench_handwritten(n: int, first: int = 0, run: Run | None = None) -> Run:
    deck = list(hand_deck())
    run = Run() if run is None else run
    start = time.process_time()
    for seed in range(first, first + n):
        m = handwritten_ucb.play(deck, seed)
        run.matches += 1
        run.decisions += m.decisions
        run.turns += m.turn
        run.first_wins += m.winner == 0
    run.seconds += time.process_time() - start
    return run


@dataclass
class Paired:
    """The three implementations' runs, played in chunks that alternate between them (the same
    seeds in each chunk), and per chunk the vanilla interpreter's time over the hand-written
    simulator's: the two are measured a moment apart, so the machine's drift between
    measurements, large here, cancels out of each ratio."""

    hand: Run
    vanilla: Run
    sample: Run
    ratios: list[float]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios)


def bench_paired(van_game, van_decks: list[dict], sample: tuple, n: int, chunks: int) -> Paired:
    out = Paired(Run(), Run(), Run(), [])
    size = -(-n // chunks)
    for first in range(0, n, size):
        count = min(size, n - first)
        hand_before, van_before = out.hand.seconds, out.vanilla.seconds
        bench_handwritten(count, first, out.hand)
        bench_interpreter(van_game, van_decks, count, first, out.vanilla)
        bench_interpreter(*sample, count, first, out.sample)
        out.ratios.append((out.vanilla.seconds - van_before) / (out.hand.seconds - hand_before))
    return out


def vanilla_game():
    game = load_game("ucb", (str(VANILLA),))
    names = [c.name for c in handwritten_ucb.vanilla_deck(VANILLA)]
    return game, [{"main": names}, {"main": names}]


def sample_game():
    game = load_game("ucb")
    return game, [d.sections for d in resolve_decks(game, "ucb", [])]


def bench_texts(rounds: int) -> tuple[float, int]:
    """Card texts parsed and checked per second (the interpreter's path), and the count."""
    game = load_game("ucb")
    names = ruleset_names(game.ruleset.raw)
    texts = [a.text for d in game.cards.values() for a in d.abilities]
    start = time.process_time()
    count = 0
    for _ in range(rounds):
        for t in texts:
            EffectChecker(names, set()).ability(parse_ability(t))
            count += 1
        for t in BODIES:
            EffectChecker(names, set()).body(parse_body(t))
            count += 1
    return count / (time.process_time() - start), len(texts) + len(BODIES)


def bench_plain_lark(rounds: int) -> float:
    """The baseline: plain Lark (LALR, parse tree, no checking) on the same texts."""
    grammar = (ROOT / "grammar" / "effect.lark").read_text(encoding="utf-8")
    parser = lark.Lark(grammar, parser="lalr", start=["ability", "body", "expr"])
    game = load_game("ucb")
    jobs = [(unicodedata.normalize("NFKC", a.text), "ability")
            for d in game.cards.values() for a in d.abilities]
    jobs += [(t, "body") for t in BODIES]
    start = time.process_time()
    for _ in range(rounds):
        for text, rule in jobs:
            parser.parse(text, start=rule)
    return rounds * len(jobs) / (time.process_time() - start)


def pin_one_core() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def verdict(ok: bool) -> str:
    return "[green]met[/]" if ok else "[red]not met[/]"


def results_table(runs: Paired, texts: float, plain: float) -> Table:
    t = Table(title="UCB throughput, one core (baselines measured in this run)")
    for col in ("measurement", "per second", "baseline", "ratio", "target", ""):
        t.add_column(col, justify="left" if col in ("measurement", "baseline") else "right",
                     no_wrap=True)
    hand, van, sample = runs.hand, runs.vanilla, runs.sample
    slower = runs.ratio  # (per match: both play the same seeds)
    dslower = slower * hand.mean(hand.decisions) / van.mean(van.decisions)
    t.add_row("hand-written vanilla: matches", f"{hand.per_second:,.0f}", "", "", "", "")
    t.add_row("hand-written vanilla: decisions", f"{hand.decisions_per_second:,.0f}", "", "", "", "")
    t.add_row("interpreter vanilla: matches", f"{van.per_second:,.1f}", "hand-written",
              f"{slower:.2f}x slower", f"<= {TARGET_RATIO}x", verdict(slower <= TARGET_RATIO))
    t.add_row("interpreter vanilla: decisions", f"{van.decisions_per_second:,.0f}", "hand-written",
              f"{dslower:.2f}x slower", f"<= {TARGET_RATIO}x", verdict(dslower <= TARGET_RATIO))
    t.add_row("interpreter sample decks: matches", f"{sample.per_second:,.1f}", "target",
              f"{sample.per_second / TARGET_MATCHES:.2f}", f">= {TARGET_MATCHES}",
              verdict(sample.per_second >= TARGET_MATCHES))
    t.add_row("interpreter sample decks: decisions", f"{sample.decisions_per_second:,.0f}", "", "", "", "")
    t.add_row("plain Lark: texts parsed", f"{plain:,.0f}", "", "", "", "")
    t.add_row("card texts parsed+checked", f"{texts:,.0f}", "plain Lark",
              f"{texts / plain:.2f}", f">= {TARGET_TEXTS:,}", verdict(texts >= TARGET_TEXTS))
    return t


def machine_note(hand: Run, sample: Run, texts: float) -> str:
    """The absolute targets were set where the hand-written simulator runs REFERENCE_HAND
    matches/s (DESIGN.md); this machine's speed is read off the same simulator in this run."""
    speed = hand.per_second / REFERENCE_HAND
    return (f"This machine ran the hand-written simulator at {hand.per_second:,.0f} matches/s, "
            f"{speed:.2f}x the reference machine's ~{REFERENCE_HAND:,} (DESIGN.md). Scaled to "
            f"that machine: sample decks ~{sample.per_second / speed:,.0f} matches/s (target "
            f">= {TARGET_MATCHES}), card texts ~{texts / speed:,.0f}/s (target >= {TARGET_TEXTS:,}).")


def shape_table(hand: Run, van: Run, sample: Run) -> Table:
    t = Table(title="What the matches looked like (same seeds; the vanilla rows should agree)")
    for col in ("implementation", "matches", "decisions/match", "turns/match", "first player wins"):
        t.add_column(col, justify="left" if col == "implementation" else "right", no_wrap=True)
    for label, r in (("hand-written vanilla", hand), ("interpreter vanilla", van),
                     ("interpreter sample decks", sample)):
        t.add_row(label, f"{r.matches}", f"{r.mean(r.decisions):.1f}", f"{r.mean(r.turns):.1f}",
                  f"{r.mean(r.first_wins):.1%}")
    return t


def profile(n: int) -> None:
    """cProfile of the interpreter on vanilla matches: top 15 functions by own time."""
    game, decks = vanilla_game()
    prof = cProfile.Profile()
    prof.runcall(bench_interpreter, game, decks, n)
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=1000,
                    help="matches per implementation (default 1000: about a minute in all)")
    ap.add_argument("--chunks", type=int, default=10,
                    help="the matches are played in this many chunks, alternating between the "
                         "implementations (default 10); the vanilla ratio is their median")
    ap.add_argument("--rounds", type=int, default=200, help="passes over the card texts")
    ap.add_argument("--passes", type=int, default=5,
                    help="text measurements (each --rounds long, alternating with plain Lark); "
                         "their medians are reported: one pass is short and this machine noisy")
    ap.add_argument("--profile", action="store_true",
                    help="also profile the interpreter on vanilla matches (top 15 by tottime)")
    args = ap.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 110)
    pinned = pin_one_core()
    van_game, van_decks = vanilla_game()
    sample = sample_game()
    for game, decks in (sample, (van_game, van_decks)):  # warm-up: the first match
        play_interpreter(game, decks, 10**6, Run())  # compiles lazy parts
    runs = bench_paired(van_game, van_decks, sample, args.matches, args.chunks)
    hand, van, smp = runs.hand, runs.vanilla, runs.sample
    text_runs, plain_runs, count = [], [], 0
    for _ in range(args.passes):
        per_second, count = bench_texts(args.rounds)
        text_runs.append(per_second)
        plain_runs.append(bench_plain_lark(args.rounds))
    texts, plain = statistics.median(text_runs), statistics.median(plain_runs)
    console.print(results_table(runs, texts, plain))
    console.print(shape_table(hand, van, smp))
    console.print(f"Python {sys.version.split()[0]}, parser backend {backend()}, {pinned}; "
                  f"{args.matches} matches each, {count} card texts x {args.rounds} rounds; "
                  f"texts: median of {args.passes} passes ({min(text_runs):,.0f}-"
                  f"{max(text_runs):,.0f}/s). Vanilla over hand-written: the median of "
                  f"{len(runs.ratios)} chunks' ratios ({min(runs.ratios):.2f}-"
                  f"{max(runs.ratios):.2f}).")
    console.print(machine_note(hand, smp, texts))
    gap = abs(hand.mean(hand.decisions) / van.mean(van.decisions) - 1)
    if gap > 0.05:
        console.print(f"[red]warning[/]: decisions per match differ by {gap:.0%}: the simulator's "
                      "option sets no longer match the interpreter's")
    if args.profile:
        profile(min(args.matches, 300))


if __name__ == "__main__":
    main()
