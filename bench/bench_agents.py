"""How strong the agents are, and what `default` costs, on every bundled and toy ruleset.

Run: python bench/bench_agents.py [--games 40] [--rulesets ucb,kannagi] [--workers 2]
                                  [--seed 0] [--no-mcts] [--cost-games 8] [--mirror]

For each ruleset (bundled ones and tests/rulesets/*.yaml with default decks):
- `default` against random, greedy and mcts at equal time (mcts:SECONDSs, SECONDS being the
  mean time `default` took per searched decision against greedy): win rates with 95% Wilson
  intervals. Seats and decks are swapped: the games come in fours, the first agent piloting
  deck A from seat 1, deck B from seat 1, deck A from seat 2, deck B from seat 2 (its opponent
  the other deck), so each agent pilots each deck from each seat equally often. A draw is a
  win for neither.
- the cost: CPU seconds per match (time.process_time, in the worker) of default-vs-default
  and greedy-vs-greedy self-play over the same seeds, and their ratio (target: <= 10 on UCB
  and kannagi).
- with --mirror, also mirror matches (both players piloting the same deck, seats swapped) of
  `default` against random and greedy for each deck: where one deck is much the stronger (on
  manacard, 重装 wins 37 of 40 random-vs-random games against 疾風), swapped decks cap any
  agent's rate near what the weak deck can win; the mirror says what the pilot adds.
- a ladder over every match played (openskill's Plackett-Luce when installed, else Elo).

Targets on the bundled rulesets: >= 85% against random, >= 65% against greedy.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rich.console import Console
from rich.table import Table

import interpreter
from interpreter.agents import make_agent
from interpreter.agents.protocol import decide
from interpreter.diagnostics import TcgError
from interpreter.load import files
from interpreter.run.stats import wilson

ROOT = Path(__file__).resolve().parents[1]


@cache
def setup(ruleset: str):
    game = interpreter.load_game(ruleset)
    return game, interpreter.default_decks(game)


def rulesets() -> list[str]:
    """The bundled rulesets, then the toy ones that come with two decks."""
    out = list(files.bundled_ids())
    for path in sorted((ROOT / "tests" / "rulesets").glob("*.yaml")):
        try:
            setup(str(path))
        except TcgError:
            continue  # (a toy ruleset without decks of its own: scenarios give its cards)
        out.append(str(path))
    return out


def short(ruleset: str) -> str:
    return Path(ruleset).stem if ruleset.endswith(".yaml") else ruleset


def play_one(ruleset: str, a: str, b: str, seed: int, index: int,
             mirror: int | None = None) -> tuple[int, int, float, int, float]:
    """Match `index` of a four-game block: (A won, B won, CPU seconds, A's searched
    decisions, A's seconds on them). With `mirror`, both play deck `mirror`."""
    game, decks = setup(ruleset)
    a_seat, a_deck = (index // 2) % 2, index % 2
    names = [a, b] if a_seat == 0 else [b, a]
    pair = [decks[a_deck], decks[1 - a_deck]] if a_seat == 0 else [decks[1 - a_deck], decks[a_deck]]
    if mirror is not None:
        pair = [decks[mirror], decks[mirror]]
    s_seed = seed + index
    agents = [make_agent(n, s_seed * 1000 + i) for i, n in enumerate(names)]
    start = time.process_time()
    s = game.new_state(pair, s_seed, log=False)
    searched, spent = 0, 0.0
    while not s.is_over:
        p = s.current_player
        many = p == a_seat and len(s.decision.options) > 1
        t = time.perf_counter()
        i, _ = decide(agents[p], s, p)
        if many:
            searched += 1
            spent += time.perf_counter() - t
        s.apply(i)
    w = s.result.winner
    return (int(w == a_seat), int(w is not None and w != a_seat), time.process_time() - start,
            searched, spent)


@dataclass
class Duel:
    ruleset: str
    a: str
    b: str
    games: int
    mirror: int | None = None  # both piloting this deck
    a_wins: int = 0
    b_wins: int = 0
    cpu: list[float] = field(default_factory=list)
    searched: int = 0
    spent: float = 0.0

    def rate(self) -> tuple[float, float, float]:
        lo, hi = wilson(self.a_wins, self.games)
        return self.a_wins / self.games, lo, hi


def duel(pool, ruleset: str, a: str, b: str, games: int, seed: int, mirror: int | None = None) -> Duel:
    d = Duel(ruleset, a, b, games, mirror)
    futures = [pool.submit(play_one, ruleset, a, b, seed, i, mirror) for i in range(games)]
    for wa, wb, cpu, searched, spent in (f.result() for f in futures):
        d.a_wins += wa
        d.b_wins += wb
        d.cpu.append(cpu)
        d.searched += searched
        d.spent += spent
    return d


def ladder(duels: list[Duel]) -> list[tuple[str, float, float]]:
    """(agent, rating, uncertainty), best first, over every game of every duel."""
    games = list(_games(duels))
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return _elo(games)
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for winner, loser, draw in games:
        for n in (winner, loser):
            ratings.setdefault(n, model.rating(name=n))
        [[w], [lo]] = model.rate([[ratings[winner]], [ratings[loser]]], ranks=[0, 0] if draw else [0, 1])
        ratings[winner], ratings[loser] = w, lo
    rows = [(n, r.ordinal(), r.sigma) for n, r in ratings.items()]  # type: ignore[attr-defined]
    return sorted(rows, key=lambda x: -x[1])


def label(agent: str) -> str:
    """An agent as the ladder names it (mcts's equal time differs per ruleset)."""
    return "mcts (equal time)" if agent.startswith("mcts:") else agent


def _games(duels: list[Duel]) -> Iterator[tuple[str, str, bool]]:
    """Every game as (winner, loser, drawn), interleaved across duels and each duel's wins,
    losses and draws spread evenly through it: a rating is updated game by game, so the order
    it sees them in matters (all of a duel's losses last would sink its winner)."""
    queues = []
    for d in duels:
        a, b = label(d.a), label(d.b)
        kinds = [((a, b, False), d.a_wins), ((b, a, False), d.b_wins),
                 ((a, b, True), d.games - d.a_wins - d.b_wins)]
        # game i takes the kind furthest behind its share (an even spread, no randomness)
        done = [0, 0, 0]
        queue = []
        for i in range(d.games):
            k = max(range(3), key=lambda j: kinds[j][1] * (i + 1) / d.games - done[j])
            done[k] += 1
            queue.append(kinds[k][0])
        queues.append(queue)
    for i in range(max((len(q) for q in queues), default=0)):
        for q in queues:
            if i < len(q):
                yield q[i]


def _elo(games: list[tuple[str, str, bool]], k: float = 16.0) -> list[tuple[str, float, float]]:
    r: dict[str, float] = {}
    for w, lo, draw in games:
        rw, rl = r.setdefault(w, 1500.0), r.setdefault(lo, 1500.0)
        expected = 1 / (1 + 10 ** ((rl - rw) / 400))
        delta = k * ((0.5 if draw else 1.0) - expected)
        r[w], r[lo] = rw + delta, rl - delta
    return sorted(((n, v, 0.0) for n, v in r.items()), key=lambda x: -x[1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per pairing (rounded up to fours)")
    ap.add_argument("--cost-games", type=int, default=8, help="self-play games for the CPU ratio")
    ap.add_argument("--rulesets", help="comma-separated ids or paths (default: all)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-mcts", action="store_true", help="skip default vs mcts")
    ap.add_argument("--mirror", action="store_true",
                    help="also default vs random and greedy with both on the same deck, each deck")
    args = ap.parse_args(argv)
    games = max(4, -(-args.games // 4) * 4)
    console = Console()
    chosen = args.rulesets.split(",") if args.rulesets else rulesets()
    strength = Table(title=f"default against the other agents ({games} games each, seats and "
                           f"decks swapped, seed {args.seed})")
    for col in ("ruleset", "opponent", "default wins", "draws", "win rate", "95% CI"):
        strength.add_column(col, justify="left" if col in ("ruleset", "opponent") else "right")
    cost = Table(title=f"CPU per match, self-play ({args.cost_games} games)")
    for col in ("ruleset", "default s/match", "greedy s/match", "ratio", "default s/decision"):
        cost.add_column(col, justify="left" if col == "ruleset" else "right")
    duels: list[Duel] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for rs in chosen:
            name = short(rs)
            console.print(f"[dim]{name}…[/dim]")
            vs = [duel(pool, rs, "default", "random", games, args.seed),
                  duel(pool, rs, "default", "greedy", games, args.seed)]
            per_decision = vs[1].spent / max(1, vs[1].searched)
            if not args.no_mcts:
                budget = f"mcts:{max(per_decision, 0.001):.3f}s"
                vs.append(duel(pool, rs, "default", budget, games, args.seed))
            if args.mirror:
                vs += [duel(pool, rs, "default", b, games, args.seed, k)
                       for k in range(len(setup(rs)[1])) for b in ("random", "greedy")]
            vs.append(duel(pool, rs, "greedy", "random", games, args.seed))
            duels += vs
            for d in vs[:-1]:
                rate, lo, hi = d.rate()
                against = d.b if d.mirror is None else f"{d.b} (both deck {d.mirror + 1})"
                console.print(f"  {name}: default vs {against}: {d.a_wins}/{d.games} ({lo:.0%}–{hi:.0%})")
                strength.add_row(name, against, f"{d.a_wins}/{d.games}", str(d.games - d.a_wins - d.b_wins),
                                 f"{rate:.0%}", f"{lo:.0%}–{hi:.0%}")
            mine = duel(pool, rs, "default", "default", args.cost_games, args.seed)
            theirs = duel(pool, rs, "greedy", "greedy", args.cost_games, args.seed)
            dm, gm = sum(mine.cpu) / len(mine.cpu), sum(theirs.cpu) / len(theirs.cpu)
            console.print(f"  {name}: CPU/match default {dm:.3f} s, greedy {gm:.3f} s ({dm / gm:.1f}×)")
            cost.add_row(name, f"{dm:.3f}", f"{gm:.3f}", f"{dm / gm:.1f}×", f"{per_decision * 1000:.1f} ms")
    console.print(strength)
    console.print(cost)
    board = Table(title="ladder over every game above (openskill ordinal, or Elo)")
    for col in ("agent", "rating", "±"):
        board.add_column(col, justify="left" if col == "agent" else "right")
    for n, r, sigma in ladder(duels):
        board.add_row(n, f"{r:.1f}", f"{sigma:.1f}")
    console.print(board)


if __name__ == "__main__":
    sys.exit(main())
