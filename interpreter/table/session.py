"""A match at the table: the game lives here, on the server; a seat gets its observation only.

Every click arrives as an option index, validated against the pending decision. The match's
records are kept exactly as `tcg play` writes its log (header, events, decisions), so a
finished table match is a log like any other.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.agents import make_agent
from interpreter.agents.basic import ALWAYS, RESPOND, auto_pass, check_stops, is_human, parse_stops
from interpreter.agents.protocol import decide
from interpreter.diagnostics import TcgError
from interpreter.engine import observe
from interpreter.engine.game import Game
from interpreter.engine.state import GameState, visible
from interpreter.run.logs import LOG_VERSION
from interpreter.run.match import MatchSetup, resolve_decks
from interpreter.run.narrate import Narrator
from interpreter.table import views

HUMAN = "human"


class TableError(TcgError):
    """A request the table refuses (not your turn, no such option): answered with HTTP 400."""


class Table:
    """One match: its state, its agents (None for a human seat) and what each seat has read."""

    def __init__(self, game: Game, g: GameState, agents: list[str], seed: int,
                 records: list[dict], restart: Callable[[], Table] | None = None,
                 hotseat: bool = False, taken: int = 0, puzzle: dict | None = None) -> None:
        """records: what happened before (a log's lines); taken: how many of the state's own
        log records they already hold; puzzle: a scenario's name, goal and expected winner."""
        self.game, self.g, self.restart, self.seed = game, g, restart, seed
        self.puzzle = puzzle
        steps = [ph.name for ph in game.ruleset.phases]
        check_stops(agents, steps)
        self.agents = [None if is_human(a) else make_agent(a, seed * 1000 + i)
                       for i, a in enumerate(agents)]
        # a human seat's stops: at which priority windows it is asked (agents/basic.auto_pass)
        self.stops = [parse_stops(a.partition(":")[2], steps) if is_human(a) and ":" in a else ALWAYS
                      for a in agents]
        humans = [p for p, a in enumerate(self.agents) if a is None]
        if not humans:
            raise TcgError("the table needs a human seat: e.g. --agents human,greedy")
        # seat token -> the player it plays (None: hot-seat, whoever of the humans decides)
        self.tokens: dict[str, int | None] = {secrets.token_urlsafe(16): None} if hotseat \
            else {secrets.token_urlsafe(16): p for p in humans}
        self.humans = humans
        self.records: list[dict] = []
        self.narrators = [Narrator(game, p, refs=True) for p in g.players]
        for narrator in self.narrators:
            narrator.follow(g)
        self.lines: list[list[str]] = [[] for _ in g.players]
        for r in records:
            self._record(r)
        self.taken = taken  # records of g.log already copied
        self.version = 0
        self.advance()

    @classmethod
    def new(cls, game: Game, setup: MatchSetup, hotseat: bool = False) -> Table:
        decks = resolve_decks(game, setup.ruleset, setup.decks)
        header = {"tcg": LOG_VERSION, "ruleset": setup.ruleset,
                  "decks": [named(d.doc.path) for d in decks], "seed": setup.seed,
                  "agents": setup.agents}
        if setup.turns is not None:
            header["turns"] = setup.turns
        g = game.new_state([d.sections for d in decks], setup.seed, log=True, turns=setup.turns)
        again = MatchSetup(setup.ruleset, setup.decks, setup.seed + 1, setup.agents, setup.turns)
        return cls(game, g, setup.agents, setup.seed, [header], hotseat=hotseat,
                   restart=lambda: cls.new(game, again, hotseat))

    # ---------- playing ----------
    def seat(self, token: str) -> int:
        """The player a token plays now (hot-seat: the human deciding, else the first)."""
        if token not in self.tokens:
            raise PermissionError("unknown seat")
        player = self.tokens[token]
        if player is not None:
            return player
        d = self.g.decision
        return d.player if d is not None and d.player in self.humans else self.humans[0]

    def choose(self, player: int, index: Any) -> None:
        d = self.g.decision
        if d is None:
            raise TableError("the match is over")
        if d.player != player:
            raise TableError(f"it is P{d.player + 1}'s decision, not yours")
        if type(index) is not int or not 0 <= index < len(d.options):
            raise TableError(f"no option {index!r}: there are {len(d.options)} (0 to "
                             f"{len(d.options) - 1})")
        self._decided(player, index)
        self.advance()

    def set_stops(self, player: int, text: Any) -> None:
        """A human seat says at which priority windows it wants to be asked (parse_stops'
        words); a window it no longer stops at is passed at once."""
        if player not in self.humans:
            raise TableError(f"P{player + 1} is not a human seat")
        if type(text) is not str:
            raise TableError("send {stop: WHEN} with WHEN a text such as 'respond'")
        try:
            self.stops[player] = parse_stops(text, [ph.name for ph in self.game.ruleset.phases])
        except TcgError as e:
            raise TableError(str(e)) from None
        self.advance()

    def concede(self, player: int) -> None:
        if self.g.result is None:
            d = self.g.decision
            self._record({"d": f"P{player + 1}", "q": d.prompt if d else "", "concede": True})
            self.g.concede(player)
            self._collect()

    def advance(self) -> None:
        """Let the agents play until a human decides or the match ends."""
        self._collect()
        g = self.g
        while (d := g.decision) is not None:
            player = d.player
            agent = self.agents[player]
            if agent is not None:
                self._decided(player, decide(agent, g, player)[0])
                continue
            passing = self._auto_pass(player)  # (the table's choice: recorded as any answer)
            if passing is None:
                break
            self._decided(player, passing)
        self.version += 1

    def _auto_pass(self, player: int) -> int | None:
        stops = self.stops[player]
        if stops == ALWAYS:
            return None
        obs = self.g.observation(player)
        return auto_pass(stops, obs, obs.get("options", ()))

    def _decided(self, player: int, index: int) -> None:
        d = self.g.decision
        assert d is not None  # (only a decision asked is answered)
        self._record({"d": f"P{player + 1}", "q": d.prompt, "i": index,
                      "o": observe.label(self.g, d.options[index], player)})
        self.g.apply(index)
        self._collect()

    def _collect(self) -> None:
        log = self.g.log or []
        for r in log[self.taken:]:
            self._record(r)
        self.taken = len(log)

    def _record(self, r: dict) -> None:
        self.records.append(r)
        for narrator, lines in zip(self.narrators, self.lines, strict=True):
            text = narrator.line(r)
            if text is not None:
                lines.append(text.strip("\n"))

    def log_text(self) -> str:
        """The match's log as `tcg play --log` writes it; refused while the match goes on,
        since the log names every hidden card."""
        if self.g.result is None:
            raise TableError("the log names hidden cards: it can be saved once the match is over")
        if not self.records or "tcg" not in self.records[0]:
            raise TableError("this match started from a scenario's state, which no log can replay")
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in self.records)

    # ---------- what a seat sees ----------
    def view(self, player: int) -> dict:
        g = self.g
        mine = g.decision is not None and g.decision.player == player
        view = views.page(self.game, g.observation(player), option_cards(g, player) if mine else [],
                          self.lines[player], result(g), mode="play")
        if g.game.ruleset.timing.passes_priority and player in self.humans:
            view["stop"] = stops_text(self.stops[player])
        view["hotseat"] = None in self.tokens.values()
        if self.puzzle is not None:
            view["puzzle"] = puzzle_view(self.puzzle, view["result"])
        return view


def puzzle_view(puzzle: dict, result: dict | None) -> dict:
    """A puzzle's name and goal, and once the match is over whether the goal was met (its
    expected winner won; a puzzle without one is met by any end)."""
    solved = None if result is None else puzzle.get("winner") in (None, result["winner"] or "none")
    return {"name": puzzle["name"], "goal": puzzle["goal"], "solved": solved}


def named(path: str | Path) -> str:
    """A deck as a log names it: relative to the current folder (the game's, where `tcg serve`
    runs) when it lies inside it, as `tcg play --log` writes a deck given so; else in full."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def stops_text(stops: frozenset[str]) -> str:
    """Stops as parse_stops reads them back (`respond` for stack+own-turn)."""
    if stops == RESPOND:
        return "respond"
    return "+".join(sorted(stops))


def option_cards(g: GameState, viewer: int | None) -> list[int | None]:
    """For each option of the pending decision, the card it names if `viewer` can see it: a
    click on that card picks the option."""
    cards = [_card_of(o) for o in (g.decision.options if g.decision else ())]
    return [c if c is not None and visible(g, c, viewer) else None for c in cards]


def _card_of(option: Any) -> int | None:
    # (the option shapes observe.label reads)
    if type(option) is int:
        return option  # a card chosen
    if isinstance(option, tuple) and len(option) == 3 and isinstance(option[0], str):
        return option[1]  # an action taken with a card (None: an action without one)
    if isinstance(option, tuple) and len(option) == 4:
        return option[0]  # a triggered ability of a card
    return None


def result(g: GameState) -> dict | None:
    r = g.result
    if r is None:
        return None
    winner = None if r.winner is None else f"P{r.winner + 1}"
    return {"winner": winner, "reason": r.reason, "ref": r.ref, "turns": r.turns,
            "text": f"{winner + ' wins' if winner else 'draw'} — {r.reason}"}
