"""UCB throughput on one core: random matches/s, decisions/s, card texts parsed+checked/s.

Run: python bench/bench_ucb.py [--matches N]. Reproducible: fixed seeds, bundled files.
Targets (issue 2): >= 100 matches/s/core, >= 5,000 card texts/s.
"""

from __future__ import annotations

import argparse
import random
import time

from interpreter.check.effects import EffectChecker
from interpreter.compile.build import ruleset_names
from interpreter.engine import vm
from interpreter.lang.parser import backend, parse_ability, parse_body
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks


def bench_matches(n: int) -> tuple[float, float]:
    game = load_game("ucb")
    decks = [d.sections for d in resolve_decks(game, "ucb", [])]
    decisions = 0
    start = time.perf_counter()
    for seed in range(n):
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(seed)
        while g.result is None:
            vm.answer(g, rng.choice(g.decision.options))
            decisions += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, decisions / elapsed


def bench_texts(rounds: int) -> float:
    game = load_game("ucb")
    names = ruleset_names(game.ruleset.raw)
    texts = [a.text for d in game.cards.values() for a in d.abilities]
    bodies = ["choose 1 t from battle(opponent) where cost <= 3; destroy(t)",
              "draw(you, 2); damage(opponent, 1)"]
    start = time.perf_counter()
    count = 0
    for _ in range(rounds):
        for t in texts:
            EffectChecker(names, set()).ability(parse_ability(t))
            count += 1
        for t in bodies:
            EffectChecker(names, set()).body(parse_body(t))
            count += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--matches", type=int, default=300)
    args = ap.parse_args()
    mps, dps = bench_matches(args.matches)
    tps = bench_texts(20)
    print(f"UCB random matches/s (1 core): {mps:8.1f}   target 100   ratio {mps / 100:.2f}")
    print(f"UCB decisions/s      (1 core): {dps:8.0f}")
    print(f"card texts parsed+checked/s:   {tps:8.0f}   target 5000  ratio {tps / 5000:.2f}"
          f"   (parser: {backend()})")


if __name__ == "__main__":
    main()
