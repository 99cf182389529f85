"""`tcg simulate RULESET --decks DIR`: every pair of decks in DIR, and a win-rate matrix.

Each pair is an ordinary simulation (deck A = the one that sorts first) with the same
seeds, so a cell is reproduced by `tcg simulate RULESET --deck X --deck Y --seed S`.
All pairs share one pool of workers (one Ray start, not one per pair).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from interpreter.diagnostics import TcgError
from interpreter.load import files
from interpreter.run import outputs
from interpreter.run.backends import open_pool
from interpreter.run.cards import card_rows, card_spec, deck_cards, sides, write_cards
from interpreter.run.loading import load_game
from interpreter.run.simulate import Run, make_plan, simulate
from interpreter.run.stats import rate

MATRIX_JSON, MATRIX_CSV = "matrix.json", "matrix.csv"


@dataclass
class RoundRobin:
    paths: list[str]
    names: list[str]
    runs: dict[tuple[int, int], Run]  # (i, j) with i < j: deck i is the pair's deck A
    cards: list[dict] = field(default_factory=list)  # each deck's per-card rows over all its pairs

    def wins(self, i: int, j: int) -> dict:
        """Deck i's win rate (with its 95% interval) against deck j, over both seats."""
        key = "A" if i < j else "B"
        return self.runs[min(i, j), max(i, j)].summary["decks"][key]["win"]

    def overall(self, i: int) -> dict:
        """Deck i's win rate against all the others together."""
        rates = [self.wins(i, j) for j in range(len(self.names)) if j != i]
        return rate(sum(r["count"] for r in rates), sum(r["n"] for r in rates))

    def labels(self) -> list[str]:
        """The decks' names, with the file name added where two decks share a name."""
        return [f"{n} ({Path(p).stem})" if self.names.count(n) > 1 else n
                for n, p in zip(self.names, self.paths, strict=True)]

    def errors(self) -> int:
        return sum(run.summary["errors"]["count"] for run in self.runs.values())

    def matrix(self) -> list[list[dict | None]]:
        n = len(self.names)
        return [[None if i == j else self.wins(i, j) for j in range(n)] for i in range(n)]


def deck_files(folder: str) -> list[str]:
    path = Path(folder)
    if not path.is_dir():
        raise TcgError(f"--decks wants a folder of deck files; {folder} is not a folder")
    found = sorted(str(p) for p in path.glob("*.yaml"))
    if len(found) < 2:
        raise TcgError(f"a round robin needs at least two deck files (*.yaml) in {folder}; "
                       f"found {len(found)}")
    return found


def pair_dir(out: Path, paths: list[str], i: int, j: int) -> Path:
    return out / f"{Path(paths[i]).stem}--{Path(paths[j]).stem}"


def round_robin(ruleset: str, folder: str, agents: list[str], seed: int, games: int,
                workers: int | None = None, backend: str = "local", out: Path | None = None,
                resume: bool = False, chunk: int | None = None, address: str | None = None,
                progress: Callable[[int, int], Callable[[int], None]] | None = None,
                turns: int | None = None) -> RoundRobin:
    """Play every pair; with `out`, each pair's files go to OUT/<deck>--<deck>/ (resumable)."""
    paths = deck_files(folder)
    pairs = list(combinations(range(len(paths)), 2))
    plans = {(i, j): make_plan(ruleset, [paths[i], paths[j]], agents, seed, games, turns)
             for i, j in pairs}
    names = [files.load_deck(p).name for p in paths]
    if out is not None and not resume and any((pair_dir(out, paths, *p) / "results.jsonl").exists()
                                              for p in pairs):
        raise TcgError(f"{out} already holds round-robin results; pass --resume to continue "
                       "that run or choose another --out")
    advance = progress(games * len(pairs), 0) if progress else None
    pool = open_pool(backend, workers, address)
    runs: dict[tuple[int, int], Run] = {}
    try:
        for p in pairs:
            step = (lambda total, done: _skip(advance, done)) if advance else None
            runs[p] = simulate(plans[p], pool.workers, backend, pair_dir(out, paths, *p) if out else None,
                               resume, chunk, step, address, pool)
    finally:
        pool.close()
    rr = RoundRobin(paths, names, runs)
    rr.cards = overall_cards(rr)
    if out is not None:
        write_matrix(out, rr)
        write_cards(out, rr.cards, card_spec(load_game(ruleset)).hand)
    return rr


def overall_cards(rr: RoundRobin) -> list[dict]:
    """Each deck's per-card rows over all its matches, whoever the opponent."""
    if not any(run.cards for run in rr.runs.values()):
        return []  # (the ruleset has no hand zone)
    rows = []
    for i, (name, path) in enumerate(zip(rr.labels(), rr.paths, strict=True)):
        games = [side for (a, b), run in sorted(rr.runs.items()) if i in (a, b)
                 for side in sides(run.records, "A" if i == a else "B")]
        rows += card_rows(name, games, deck_cards(files.load_deck(path).sections))
    return rows


def _skip(advance: Callable[[int], None], done: int) -> Callable[[int], None]:
    advance(done)  # matches of this pair loaded by --resume
    return advance


def write_matrix(out: Path, rr: RoundRobin) -> None:
    doc = {"decks": [{"name": n, "path": p, "overall": rr.overall(i)}
                     for i, (n, p) in enumerate(zip(rr.names, rr.paths, strict=True))],
           "wins": rr.matrix(), "errors": rr.errors(),
           "agents": next(iter(rr.runs.values())).summary["agents"]}
    outputs.write_json(out / MATRIX_JSON, doc)
    outputs.write_csv(out / MATRIX_CSV, ["deck", "opponent", "win_rate", "ci95_low", "ci95_high", "wins",
                                         "games"],
                      ([rr.names[i], rr.names[j], round(r["rate"], 6), round(r["ci95"][0], 6),
                        round(r["ci95"][1], 6), r["count"], r["n"]]
                       for i, row in enumerate(rr.matrix()) for j, r in enumerate(row) if r is not None))
