"""Forbidden-effect checking throughput on one core, against plain parsing in the same run.

Run: python bench/bench_forbid.py [--cards N] [--seed S]

10,000 (by default) generated アルティメット・ゲーム card texts — one or two abilities or a magic
effect each, from templates over the game's verbs with random numbers, so that some break the
list and most do not — are checked against the full forbid list (rulesets/ultimate.forbid.yaml).
Three timings, CPU seconds of this process:
- parse: the effect parser alone on every text (the baseline);
- forbid: reading the facts of each card and running every entry, texts already parsed;
- parse + forbid: both, from cold caches (what `tcg check` pays for its forbid pass).
Target: >= 5,000 cards/s for the forbid check.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from interpreter.check import forbid
from interpreter.check import forbid_facts as F
from interpreter.compile.texts import parse_text
from interpreter.lang.parser import backend, parse_ability, parse_body
from interpreter.load import files
from interpreter.load.yamlpos import load_yaml

TRIGGERS = ["when summon where self in card", "when attack where card == self",
            "when block where self in blocker", "when perish where self in target"] * 5 + \
    ["when release where self in card", "in removed: when trigger where card == self"]
EFFECTS = [
    "draw(you, {n})", "burn(opponent, {n})", "boost(you, {s})",
    "choose up to {n} t from battle(opponent); destroy(t)",
    "choose up to {n} t from battle(opponent); tire(t)",
    "choose up to {s} t from battle(opponent); freeze(t)",
    "choose up to {n} c from graveyard(you) where not joker; heal(c)",
    "choose up to {s} c from hand(you) where monster and number <= {n}; summon(c)",
    "choose up to 1 c from graveyard(you) where monster and number < {n}; to_hand(c)",
    "repeat {s} {{ draw(you, 1) }}",
    "choose up to 1 t from battle(you); t.number += {n} until end of turn",
    "move(top(deck(opponent)), graveyard(opponent))",
] * 3 + ["choose up to {s} t from battle(opponent); negate(t)", "discard(opponent, {s})"]
OTHERS = ["static: (battle(you) where monster and it != self).number += {s}",
          "cannot destroy where self in target", "cannot cast where player == opponent",
          "instead perish where self in target: move(self, hand(you))"]


def generate(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    cards = []
    for i in range(n):
        number = rng.randint(1, 10)
        card = {"name": f"生成{i}", "rank": str(number) if number > 1 else "A", "number": number,
                "monster": True, "joker": rng.random() < 0.02}
        if rng.random() < 0.2:
            rank = rng.choice("JQK")
            card.update(rank=rank, number="JQK".index(rank) + 1, monster=False, magic=True,
                        effect="; ".join(_effect(rng) for _ in range(rng.randint(1, 2))))
        else:
            card["abilities"] = [_ability(rng) for _ in range(rng.choice((1, 1, 2, 2, 2, 3)))]
        cards.append(card)
    return cards


def _effect(rng: random.Random) -> str:
    return rng.choice(EFFECTS).format(n=rng.choice((1, 1, 2, 2, 3, 6)), s=rng.choice((1, 1, 1, 2)))


def _ability(rng: random.Random) -> str:
    if rng.random() < 0.05:
        return rng.choice(OTHERS).format(s=rng.randint(1, 6))
    body = "; ".join(_effect(rng) for _ in range(rng.randint(1, 2)))
    return f"{rng.choice(TRIGGERS)}: " + (f"may {{ {body} }}" if rng.random() < 0.95 else body)


def _clear_caches() -> None:
    parse_text.cache_clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    entries, names, defaults = forbid.for_ruleset(load_yaml(files.ruleset_path("ultimate")))
    cards = generate(args.cards, args.seed)
    texts = [(parse_ability, t) for c in cards for t in c.get("abilities", ())] + \
            [(parse_body, c["effect"]) for c in cards if "effect" in c]

    start = time.process_time()
    for parse, text in texts:
        parse(text)
    t_parse = time.process_time() - start

    def run() -> tuple[int, int]:
        found = broken = 0
        for i, raw in enumerate(cards):
            card = F.read_card(raw, ("cards", i), names, defaults)
            n = len(forbid.violations(entries.entries, card))
            found, broken = found + n, broken + (n > 0)
        return found, broken

    _clear_caches()
    start = time.process_time()
    found, broken = run()
    t_cold = time.process_time() - start
    start = time.process_time()
    run()
    t_warm = time.process_time() - start
    n = len(cards)
    print(f"{n:,} generated cards ({len(texts):,} texts), {len(entries.entries)} forbid entries "
          f"({sum(1 for e in entries.entries if e.run)} with queries); parser backend: {backend()}")
    print(f"  violations found: {found:,}, in {broken:,} cards")
    print(f"  parse only            {t_parse:6.2f} s  {n / t_parse:8,.0f} cards/s   (baseline)")
    print(f"  forbid check          {t_warm:6.2f} s  {n / t_warm:8,.0f} cards/s   "
          f"{t_warm / t_parse:5.2f}x the parse time   target >= 5,000 cards/s: "
          f"{'met' if n / t_warm >= 5000 else 'NOT met'}")
    print(f"  parse + forbid check  {t_cold:6.2f} s  {n / t_cold:8,.0f} cards/s   "
          f"{t_cold / t_parse:5.2f}x the parse time")


if __name__ == "__main__":
    main()
