"""Search on UCB: what a search step costs, and how strong the search agents are.

Run: python bench/bench_search.py [--random-games 100] [--mcts-games 40] [--mcts mcts]
                                  [--workers 2] [--seed 0]

Costs (one core, wall-clock, mid-game states of the bundled decks): clone, determinize, one
sampled world (greedy.Dealer: clone + deal), greedy decisions/s, MCTS iterations/s.

Strength: agent A against agent B over N matches through the search hook (choose_in). The
matches are mirrors (both players hold the same deck: with two different bundled decks the
aggro deck wins ~87% between equal agents, which would hide the agents' difference); the
deck changes every other match pair. Match i has seed S+i and A sits in seat 0 in even
matches, in seat 1 in odd ones. Each seat's agent is seeded seed*1000 + seat, as `tcg play`
seeds it. Win rates carry 95% Wilson intervals; a draw is a win for neither agent.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

import interpreter
from interpreter.agents import make_agent
from interpreter.agents.greedy import Dealer
from interpreter.agents.mcts import MCTSAgent
from interpreter.engine.observe import LazyLabels, LazyObservation
from interpreter.run.stats import wilson

RULESET = "ucb"


@cache
def setup():
    game = interpreter.load_game(RULESET)
    return game, interpreter.default_decks(game)


def midgames(count: int) -> list:
    """States after 10..80 random decisions, each at a decision with two or more options."""
    game, decks = setup()
    out, seed = [], 0
    while len(out) < count:
        seed += 1
        s = game.new_state(decks, seed, log=False)
        rng = random.Random(seed)
        for _ in range(10 + seed * 7 % 70):
            if s.is_over:
                break
            s.apply(rng.randrange(len(s.decision.options)))
        if not s.is_over and len(s.decision.options) > 1:
            out.append(s)
    return out


def micros(fn, states: list, rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for s in states:
            fn(s)
    return (time.perf_counter() - start) / (rounds * len(states)) * 1e6


def costs() -> list[tuple[str, str]]:
    states = midgames(20)
    rng = random.Random(1)
    rows = [
        ("clone", f"{micros(lambda s: s.clone(), states, 100):.0f} µs"),
        ("determinize", f"{micros(lambda s: s.determinize(s.current_player, rng), states, 50):.0f} µs"),
    ]
    dealers = {id(s): Dealer(s, s.current_player) for s in states}
    rows.append(("one sampled world (Dealer.world)",
                 f"{micros(lambda s: dealers[id(s)].world(rng), states, 50):.0f} µs"))
    greedy = make_agent("greedy", 1)
    start = time.perf_counter()
    rounds = 5
    for _ in range(rounds):
        for s in states:
            greedy.choose_in(s, s.current_player, LazyLabels(s))
    per_s = rounds * len(states) / (time.perf_counter() - start)
    rows.append(("greedy decisions/s", f"{per_s:,.0f}"))
    mcts = MCTSAgent(1)
    done, start = 0, time.perf_counter()
    for s in states[:8]:
        mcts.choose_in(s, s.current_player, LazyLabels(s))
        done += mcts.last_iterations
    seconds = time.perf_counter() - start
    rows.append(("MCTS iterations/s", f"{done / seconds:,.0f}"))
    rows.append((f"MCTS decisions/s ({mcts.iterations} iterations)", f"{8 / seconds:.2f}"))
    random_playouts = MCTSAgent(1, playout="random")
    done, start = 0, time.perf_counter()
    for s in states[:8]:
        random_playouts.choose_in(s, s.current_player, LazyLabels(s))
        done += random_playouts.last_iterations
    rows.append(("MCTS iterations/s, random playouts", f"{done / (time.perf_counter() - start):,.0f}"))
    return rows


# ---------- strength ----------

def play_one(a: str, b: str, seed: int, index: int) -> tuple[int, int, float]:
    """Match `index`: (1 if A won, 1 if B won, seconds)."""
    game, decks = setup()
    names = (a, b) if index % 2 == 0 else (b, a)
    deck = decks[(index // 2) % len(decks)]
    s_seed = seed + index
    agents = [make_agent(n, s_seed * 1000 + i) for i, n in enumerate(names)]
    start = time.perf_counter()
    s = game.new_state([deck, deck], s_seed, log=False)
    while not s.is_over:
        p = s.current_player
        agent = agents[p]
        labels = LazyLabels(s)
        if hasattr(agent, "choose_in"):
            s.apply(agent.choose_in(s, p, labels))
        else:
            s.apply(agent.choose(LazyObservation(s, p), labels))
    seat_a = 0 if index % 2 == 0 else 1
    w = s.result.winner
    return int(w == seat_a), int(w is not None and w != seat_a), time.perf_counter() - start


@dataclass
class Score:
    a: str
    b: str
    games: int
    a_wins: int = 0
    b_wins: int = 0
    seconds: list[float] = field(default_factory=list)


def strength(a: str, b: str, games: int, seed: int, workers: int, progress: Progress) -> Score:
    score = Score(a, b, games)
    task = progress.add_task(f"{a} vs {b}", total=games)
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(play_one, a, b, seed, i) for i in range(games)]
        for f in futures:
            wa, wb, secs = f.result()
            score.a_wins += wa
            score.b_wins += wb
            score.seconds.append(secs)
            progress.advance(task)
    return score


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random-games", type=int, default=100, help="greedy vs random matches")
    ap.add_argument("--mcts-games", type=int, default=40, help="mcts vs greedy matches")
    ap.add_argument("--mcts", default="mcts", help="the MCTS agent's name (e.g. mcts:400)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--skip-costs", action="store_true")
    args = ap.parse_args(argv)
    console = Console()
    if not args.skip_costs:
        t = Table(title=f"search costs on {RULESET} (one core, mid-game states)")
        t.add_column("what")
        t.add_column("measured", justify="right")
        for row in costs():
            t.add_row(*row)
        console.print(t)
    plans = [("greedy", "random", args.random_games), (args.mcts, "greedy", args.mcts_games)]
    scores = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        for a, b, n in plans:
            if n > 0:
                scores.append(strength(a, b, n, args.seed, args.workers, progress))
    t = Table(title=f"strength on {RULESET}: mirror matches, seats alternate, the deck changes "
                    f"every other pair (seed {args.seed})")
    for col in ("A vs B", "games", "A wins", "B wins", "draws", "A win rate", "95% CI", "s/match"):
        t.add_column(col, justify="left" if col == "A vs B" else "right")
    for s in scores:
        lo, hi = wilson(s.a_wins, s.games)
        t.add_row(f"{s.a} vs {s.b}", str(s.games), str(s.a_wins), str(s.b_wins),
                  str(s.games - s.a_wins - s.b_wins), f"{s.a_wins / s.games:.1%}",
                  f"{lo:.1%}–{hi:.1%}", f"{sum(s.seconds) / len(s.seconds):.2f}")
    console.print(t)


if __name__ == "__main__":
    sys.exit(main())
