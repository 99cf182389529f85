"""How the cost of a decision grows with what is on the board: N static abilities in play, or
N triggered abilities firing at once under `triggers: {order: timestamp}`.

Run: python bench/bench_growth.py [--sizes 0,5,20,50,100] [--decisions 300] [--instructions]

A toy game written for this (no bundled game has a board this large): each player starts
with N cards on the board and plays one more from the hand each turn. In the `statics`
variant each of the N cards it starts with gives every other card of its side +1 power
(`static: (board(you) where it != self).power += 1`: N statics in play, each scanning the
zone, as a board of "your other cards get +1" does; the cards played have no ability, so
the number of statics stays N); in the `triggers` variant each card's ability fires whenever a card
enters the board (N triggered abilities ordered by play order, then resolved). The same
random player answers every decision. The figure is the cost of one decision: CPU
microseconds (time.process_time) or, with --instructions, CPU instructions counted by
valgrind's callgrind (immune to machine load; slow). Linear growth keeps
cost(N) / cost(N0) near N / N0 (plus the fixed cost of a decision); the last column says the
growth exponent between consecutive sizes.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

RULESET = """\
id: growth
name: growth benchmark
players: 2
ability_zones: [board]
triggers: {{order: {order}}}
properties:
  power: {{type: number, default: 1, min: 0}}
resources:
  score: {{initial: 0}}
zones:
  deck: {{ordered: true, visibility: hidden, face: down}}
  hand: {{visibility: owner}}
  board: {{visibility: public}}
setup: |
  for each p in players {{
    repeat {n} {{ move(top(deck(p)), board(p)) }};
    repeat 3 {{ move(top(deck(p)), hand(p)) }}
  }}
turn:
  - phase: main
    do: "move(top(deck(you)), hand(you))"
    actions: [play]
actions:
  play:
    label: "play {{card}}"
    card: "hand(player)"
    do: "move(card, board(you))"
end:
  - win: "total(board(player), power) >= 1000000"
    reason: "never"
limits:
  turns: 40
deck:
  sections:
    main: {{zone: deck, min: 1, max: 1000}}
  copies: {{max: 1000}}
"""

CARDS = {
    "statics": ["static: (board(you) where it != self).power += 1"],
    "triggers": ["when moved where to_zone == \"board\": change(you, score, 1)"],
}


def write_game(folder: Path, variant: str, n: int) -> tuple[Path, list[dict]]:
    """The ruleset, its cards (one card per copy: each its own name) and two decks."""
    order = "timestamp" if variant == "triggers" else "ask"
    (folder / "growth.yaml").write_text(RULESET.format(order=order, n=n), encoding="utf-8")
    size = n + 40
    abilities = CARDS[variant]
    # the first n cards (those the setup puts on the board) have the ability, the rest none:
    # n abilities in play whatever is played
    listed = [{"name": f"c{i}", "abilities": abilities if i < n else []} for i in range(size)]
    cards = folder / "cards.yaml"
    cards.write_text(yaml.safe_dump({"ruleset": "growth", "cards": listed}), encoding="utf-8")
    deck = {"main": [f"c{i}" for i in range(size)]}
    return cards, [deck, deck]


def play(variant: str, n: int, decisions: int, collect=None) -> float:
    """CPU seconds a decision over `decisions` decisions after a warm-up match. The matches
    are set up first and not counted: setting up a board of N cards costs N board changes."""
    from interpreter.run.loading import load_game

    with tempfile.TemporaryDirectory() as tmp:
        cards, decks = write_game(Path(tmp), variant, n)
        game = load_game(str(Path(tmp) / "growth.yaml"), extra_cards=(str(cards),))
    warm = game.new_state(decks, 0, log=False)
    answer(warm, random.Random("warm-up"), decisions)
    matches = [game.new_state(decks, seed, log=False) for seed in range(decisions // 20 + 1)]
    if collect:
        collect(True)
    played, start = 0, time.process_time()
    for seed, g in enumerate(matches):
        played += answer(g, random.Random(f"policy-{seed}"), decisions - played)
    seconds = time.process_time() - start
    if collect:
        collect(False)
    if played < decisions:
        sys.exit(f"the matches ended after {played} decisions; fewer were asked for")
    return seconds / played


def answer(g, rng: random.Random, most: int) -> int:
    """Answer up to `most` decisions of a match by the random player; how many it answered."""
    from interpreter.engine import vm

    played = 0
    while g.result is None and played < most:
        vm.answer(g, rng.choice(g.decision.options))
        played += 1
    return played


def callgrind_switch(on: bool) -> None:
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
                   capture_output=True, check=False)


def instructions(variant: str, n: int, decisions: int) -> float:
    """CPU instructions a decision, counted by callgrind in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no",
                            f"--callgrind-out-file={tmp}/out", sys.executable, __file__,
                            "--child", f"{variant}:{n}", "--decisions", str(decisions)],
                           capture_output=True, text=True, check=True)
    refs = re.search(r"refs:\s*([\d,]+)", r.stderr)
    if refs is None:
        sys.exit(f"no instruction count in valgrind's output:\n{r.stderr}")
    return int(refs.group(1).replace(",", "")) / decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="0,5,20,50,100", help="board sizes, comma-separated")
    ap.add_argument("--triggers", default="10,50,200", help="trigger counts, comma-separated")
    ap.add_argument("--decisions", type=int, default=300, help="decisions measured per size")
    ap.add_argument("--instructions", action="store_true", help="count CPU instructions "
                    "(valgrind callgrind) instead of CPU time")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        variant, n = args.child.split(":")
        play(variant, int(n), args.decisions, callgrind_switch)
        return
    unit = "instructions" if args.instructions else "µs"
    for variant, sizes in (("statics", args.sizes), ("triggers", args.triggers)):
        print(f"{variant}: {unit} a decision")
        before = None
        for n in map(int, sizes.split(",")):
            cost = (instructions(variant, n, args.decisions) if args.instructions
                    else play(variant, n, args.decisions) * 1e6)
            growth = ""
            if before and before[0] and n and before[1]:
                growth = f"  growth exponent {math.log(cost / before[1]) / math.log(n / before[0]):.2f}"
            print(f"  {n:>4}: {cost:>14,.0f}{growth}")
            before = (n, cost)


if __name__ == "__main__":
    main()
