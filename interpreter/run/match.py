"""Play one match with agents, writing a JSON Lines log line by line; replay a log."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from interpreter.agents import Agent, make_agent
from interpreter.agents.basic import CONCEDE, Concede
from interpreter.agents.protocol import decide
from interpreter.check.decks import check_deck
from interpreter.diagnostics import DiagnosticError, TcgError
from interpreter.engine import vm
from interpreter.engine.game import Game
from interpreter.engine.state import GameState
from interpreter.load import files
from interpreter.run.loading import load_game

LOG_VERSION = 1


@dataclass
class MatchSetup:
    ruleset: str
    decks: list[str]
    seed: int
    agents: list[str]
    turns: int | None = None  # overrides the ruleset's turn limit


def resolve_decks(game: Game, ruleset: str, decks: list[str]) -> list[files.Deck]:
    paths = decks or [str(p) for p in files.deck_paths(game.ruleset.id,
                                                        files.ruleset_path(ruleset))][:2]
    if len(paths) == 1:
        paths = paths * 2
    if len(paths) != game.ruleset.players:
        raise TcgError(f"need {game.ruleset.players} decks, got {len(paths)}")
    loaded = [files.load_deck(p) for p in paths]
    checked = {str(d.doc.path): d for d in loaded}
    problems = [d for deck in checked.values() for d in check_deck(game, deck)]
    if problems:
        raise DiagnosticError(problems)
    return loaded


def play(setup: MatchSetup, out: IO[str] | Callable[[], IO[str]] | None = None,
         on_event: Callable[[dict], None] | None = None,
         agents: list[Agent] | None = None,
         watch: Callable[[GameState], None] | None = None, reference: bool = False) -> GameState:
    """Play to the end. Every log line is written and flushed as it happens; `watch` is
    shown the match's state when it begins (a player's narrator reads what is visible).
    `reference`: on the reference path (see load_game).

    `out` may be a callable that opens the log: it is called only once the
    files are known to be good, so bad input never leaves an empty log behind.
    """
    game = load_game(setup.ruleset, reference=reference)
    decks = resolve_decks(game, setup.ruleset, setup.decks)
    setup.decks = [str(d.doc.path) for d in decks]
    agents = agents or [make_agent(a, setup.seed * 1000 + i) for i, a in enumerate(setup.agents)]
    writer = _Writer(out, on_event)
    header = {"tcg": LOG_VERSION, "ruleset": setup.ruleset, "decks": setup.decks,
              "seed": setup.seed, "agents": setup.agents}
    if setup.turns is not None:
        header["turns"] = setup.turns
    writer.line(header)
    g = game.new_state([d.sections for d in decks], setup.seed, log=True, turns=setup.turns)
    if watch is not None:
        watch(g)
    while True:
        writer.events(g)
        if g.result is not None:
            return g
        d = g.decision
        try:
            choice, labels = decide(agents[d.player], g, d.player)
        except Concede:
            writer.line({"d": f"P{d.player + 1}", "q": d.prompt, "concede": True})
            g.concede(d.player)
            continue
        writer.line({"d": f"P{d.player + 1}", "q": d.prompt, "i": choice, "o": labels[choice]})
        vm.answer(g, d.options[choice])


class _Writer:
    def __init__(self, out: IO[str] | Callable[[], IO[str]] | None,
                 on_event: Callable[[dict], None] | None) -> None:
        self.out, self.on_event, self.done = out, on_event, 0

    def line(self, record: dict) -> None:
        if callable(self.out):
            self.out = self.out()
        if self.out is not None:
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.out.flush()
        if self.on_event is not None:
            self.on_event(record)

    def events(self, g: GameState) -> None:
        log = g.log or []
        for record in log[self.done:]:
            self.line(record)
        self.done = len(log)


def read_log(path: str | Path) -> tuple[list[str], MatchSetup, list]:
    """A log's lines, the match it records, and its decisions (indexes, or CONCEDE)."""
    try:
        raw = Path(path).read_bytes()
        if not raw.endswith(b"\n"):  # a run killed mid-write: drop its unfinished line
            raw = raw[: raw.rfind(b"\n") + 1]
        lines = raw.decode("utf-8").splitlines(keepends=True)
    except (OSError, UnicodeDecodeError) as e:
        raise TcgError(f"cannot read {path}: {e}") from None
    try:
        header = json.loads(lines[0])
        decisions = [json.loads(x) for x in lines[1:] if '"d"' in x[:6]]
        script = [CONCEDE if d.get("concede") else d["i"] for d in decisions]
        setup = MatchSetup(header["ruleset"], header["decks"], header["seed"], header["agents"],
                           header.get("turns"))
    except IndexError:
        raise TcgError(f"{path} is empty") from None
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise TcgError(f"{path} is not a tcg log (line 1 must be its header): {e}") from None
    return lines, setup, script


class _Resuming:
    """Answers with the logged decisions first, still asking the real agent so that its own
    random stream advances exactly as in the original run; then plays live."""

    def __init__(self, agent: Agent, script: list, human: bool) -> None:
        self.agent, self.script, self.human = agent, script, human

    def choose_in(self, g: GameState, player: int, labels) -> int:
        if not self.script:
            return decide(self.agent, g, player)[0]
        step = self.script.pop(0)
        if not self.human:
            decide(self.agent, g, player)
        if step == CONCEDE:
            raise Concede
        return step


def resume(path: str | Path, on_event: Callable[[dict], None] | None = None,
           watch: Callable[[GameState], None] | None = None) -> GameState:
    """Continue an interrupted match from its log; the log is rewritten as one whole run,
    identical to what an uninterrupted run would have written."""
    _lines, setup, script = read_log(path)
    shared: list = list(script)
    agents = [_Resuming(make_agent(a, setup.seed * 1000 + i), shared, a == "human")
              for i, a in enumerate(setup.agents)]
    for a in agents:
        a.script = shared  # one queue: the log interleaves both players' decisions
    with open(path, "w", encoding="utf-8") as out:
        return play(setup, out, on_event, agents=agents, watch=watch)


def replay(path: str | Path) -> tuple[bool, str]:
    """Re-run a log with its recorded decisions; (identical?, explanation)."""
    try:
        lines, setup, script = read_log(path)
    except TcgError as e:
        if not Path(path).is_file():
            raise
        return False, str(e)
    import io

    from interpreter.agents.basic import ScriptedAgent, ScriptError

    buf = io.StringIO()
    shared = ScriptedAgent(script)
    try:
        play(setup, buf, agents=[shared] * len(setup.agents))
    except ScriptError:
        again = buf.getvalue().splitlines(keepends=True)
        if lines == again[: len(lines)]:
            return False, f"the log stops after line {len(lines)}, before the match ended " \
                          "(interrupted?); every line up to there reproduces exactly"
    again = buf.getvalue().splitlines(keepends=True)
    for n, (a, b) in enumerate(zip(lines, again, strict=False), start=1):
        if a != b:
            return False, f"line {n} differs:\n  log:    {a.rstrip()}\n  replay: {b.rstrip()}"
    if len(lines) < len(again):
        return False, f"the log stops after line {len(lines)}; the match goes on for " \
                      f"{len(again) - len(lines)} more lines (interrupted?)"
    if len(lines) > len(again):
        return False, f"the replay ends at line {len(again)}; the log has {len(lines)} lines"
    return True, f"{len(lines)} lines reproduced exactly"
