"""`tcg train`: tune the default agent's evaluation weights for one ruleset by self-play.

Coordinate search: each trial changes one weight (doubled, halved, or zero and back) and plays
the changed agent against the current one, seats and decks swapped (games in fours); a change
that wins at least `KEEP` of the decided games is kept. It stops when the time is up. The
result goes to `<ruleset>.weights.json` beside the ruleset file (for a bundled id:
rulesets/<id>.weights.json), which the default agent reads for that ruleset: the weights file is
one of the files a match depends on, as the ruleset is. CPU only; never required.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from functools import cache
from pathlib import Path

from interpreter.agents.evaluation import Weights
from interpreter.diagnostics import TcgError

KEEP = 0.6  # share of the decided games a change must win to be kept
WORLDS = 1  # worlds per decision while training (cheaper; the weights carry over)


def weights_path(ruleset_file: str | Path) -> Path:
    p = Path(ruleset_file)
    return p.with_name(p.name.removesuffix(".yaml") + ".weights.json")


@cache
def load_weights(ruleset_file: str) -> Weights | None:
    """The trained weights beside a ruleset file, or None when there are none."""
    path = weights_path(ruleset_file)
    if not ruleset_file or not path.is_file():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))["weights"]
        return Weights(**{k: float(raw[k]) for k in Weights.names() if k in raw})
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TcgError(f"{path}: not a weights file written by tcg train ({e}); "
                       "delete it or train again") from None


def changes(w: Weights, name: str) -> list[tuple[str, Weights]]:
    """The trials of one weight: doubled, halved, switched off (or on)."""
    v = getattr(w, name)
    out = [(f"{name} ×2", v * 2), (f"{name} ×½", v / 2), (f"{name} off" if v else f"{name} on",
                                                       0.0 if v else 1.0)]
    return [(label, replace(w, **{name: new})) for label, new in out if new != v]


def duel(ruleset: str, decks: list[str], a: Weights, b: Weights, games: int, seed: int) -> tuple[int, int]:
    """(A's wins, B's wins) over `games` matches, seats and decks swapped."""
    from interpreter.agents.default import DefaultAgent
    from interpreter.agents.protocol import decide
    from interpreter.run.loading import load_game
    from interpreter.run.match import resolve_decks

    game = load_game(ruleset)
    pair = [d.sections for d in resolve_decks(game, ruleset, decks)]
    wins = [0, 0]
    for i in range(games):
        a_seat, a_deck = (i // 2) % 2, i % 2
        weights = (a, b) if a_seat == 0 else (b, a)
        dealt = [pair[a_deck], pair[1 - a_deck]] if a_seat == 0 else [pair[1 - a_deck], pair[a_deck]]
        agents = [DefaultAgent((seed + i) * 1000 + s, WORLDS, weights[s]) for s in range(2)]
        s = game.new_state(dealt, seed + i, log=False)
        while (d := s.decision) is not None:
            s.apply(decide(agents[d.player], s, d.player)[0])
        winner = s.result.winner if s.result is not None else None
        if winner is not None:
            wins[0 if winner == a_seat else 1] += 1
    return wins[0], wins[1]


def train(ruleset: str, decks: list[str], minutes: float, games: int, seed: int,
          say: Callable[[str], None], out: Path | None = None) -> tuple[Weights, Path]:
    """Train from the ruleset's weights (or the defaults) for `minutes`; write them to `out`
    (default: beside the ruleset, where the agent reads them)."""
    from interpreter.run.loading import load_game

    path = out or weights_path(load_game(ruleset).ruleset.path)
    games = max(4, -(-games // 4) * 4)
    best = load_weights(str(load_game(ruleset).ruleset.path)) or Weights()
    deadline = time.monotonic() + minutes * 60
    trial = 0
    while time.monotonic() < deadline:
        for name in Weights.names():
            for label, candidate in changes(best, name):
                if time.monotonic() >= deadline:
                    break
                trial += 1
                won, lost = duel(ruleset, decks, candidate, best, games, seed + trial * games)
                kept = won + lost > 0 and won / (won + lost) >= KEEP
                left = max(0.0, deadline - time.monotonic()) / 60
                say(f"trial {trial}: {label}: won {won}, lost {lost} of {games}"
                    f"{' — kept' if kept else ''} ({left:.1f} min left)")
                if kept:
                    best = candidate
                    _write(path, ruleset, best, trial)
                    break  # (the next weight)
    _write(path, ruleset, best, trial)
    return best, path


def _write(path: Path, ruleset: str, w: Weights, trials: int) -> None:
    doc = {"ruleset": Path(ruleset).stem, "trials": trials, "weights": asdict(w)}
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)  # (never half-written)
