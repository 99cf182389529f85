"""The replay viewer: a log re-run to any decision, seen by a seat or by everyone; fork a live
match from there, or write that moment as a scenario file."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.agents.basic import CONCEDE
from interpreter.engine import observe
from interpreter.engine.state import GameState
from interpreter.run.loading import load_game
from interpreter.run.match import read_log, resolve_decks
from interpreter.run.narrate import Narrator
from interpreter.table import views
from interpreter.table.session import HUMAN, Table, TableError, option_cards, result


class Replay:
    """Step k is the moment before the log's k-th decision (the last step: the end)."""

    def __init__(self, path: str | Path, name: str | None = None,
                 home: Path | None = None) -> None:
        """name: what the page shows the log as (default: its file's); home: the folder the
        files it names must be in (run/logs.read)."""
        lines, self.setup, self.script = read_log(path, home)
        self.name = name or Path(path).name
        self.records = [json.loads(x) for x in lines]  # (read once already: JSON, bounded)
        self.game = load_game(self.setup.ruleset, chosen=self.setup.options)
        self.decks = [d.sections for d in resolve_decks(self.game, self.setup.ruleset,
                                                        self.setup.decks)]
        self.at: list[int] = []  # the record index of each decision
        self.turns: list[int] = []  # the turn each decision is taken in
        turn = 0
        for i, r in enumerate(self.records):
            if r.get("e") == "turn_start":
                turn = r["turn"]
            if "d" in r:
                self.at.append(i)
                self.turns.append(turn)
        self._kept: tuple[int, GameState] | None = None

    @property
    def steps(self) -> int:
        return len(self.script)

    def step_of_turn(self, turn: int) -> int:
        """The first step taken in `turn` (or the end when the match never got there)."""
        return next((k for k, t in enumerate(self.turns) if t >= turn), self.steps)

    def state_at(self, k: int) -> GameState:
        if not 0 <= k <= self.steps:
            raise TableError(f"no step {k}: the log has steps 0 to {self.steps}")
        kept = self._kept  # (read once: requests run in threads)
        if kept is not None and kept[0] <= k:  # (stepping forward: go on from there)
            done, g = kept[0], kept[1].clone(keep_log=True)
        else:
            done, g = 0, self.game.new_state(self.decks, self.setup.seed, log=True, turns=self.setup.turns)
        for step in self.script[done:k]:
            if step == CONCEDE:
                d = g.decision
                assert d is not None  # (a log's concession is an answer to a question)
                g.concede(d.player)
            else:
                g.apply(step)
        self._kept = (k, g.clone(keep_log=True))
        return g

    def records_before(self, k: int) -> list[dict]:
        return self.records[: self.at[k]] if k < self.steps else self.records

    def view(self, k: int, viewer: int | None) -> dict:
        if viewer is not None and viewer >= self.game.ruleset.players:
            raise TableError(f"there is no P{viewer + 1} in {self.game.ruleset.id}")
        g = self.state_at(k)
        narrator = Narrator(self.game, viewer, refs=True)
        narrator.follow(g)
        lines = [t.strip("\n") for t in map(narrator.line, self.records_before(k)) if t]
        chosen = None
        if k < self.steps and g.decision is not None and g.decision.player == viewer:
            chosen = self.script[k]
        page = views.page(self.game, observe.observation(g, viewer),
                          option_cards(g, viewer) if chosen is not None else [], lines,
                          result(g), mode="replay", step=k, steps=self.steps,
                          turn_of_step=self.turns[k] if k < self.steps else g.turn,
                          chosen=chosen, source=self.name,
                          players=[f"P{p + 1}" for p in g.players])
        return page

    def fork(self, k: int, seat: int, opponent: str) -> Table:
        """A live match from step k: `seat` is played by a human, the others by `opponent`."""
        g = self.state_at(k)
        if g.result is not None:
            raise TableError("the match is over at this step: fork an earlier one")
        agents = [HUMAN if p == seat else opponent for p in g.players]
        return Table(self.game, g, agents, self.setup.seed, self.records_before(k),
                     taken=len(g.log or ()))
