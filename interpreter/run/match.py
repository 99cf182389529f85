"""Play one match with agents, writing a JSON Lines log line by line; replay a log."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from interpreter.agents import Agent, make_agent
from interpreter.agents.basic import Concede, check_stops, is_human
from interpreter.agents.protocol import ChoosesIn, decide
from interpreter.check.decks import check_deck
from interpreter.diagnostics import DiagnosticError, TcgError
from interpreter.engine import vm
from interpreter.engine.game import Game
from interpreter.engine.state import GameState
from interpreter.load import files
from interpreter.run import logs, outputs
from interpreter.run.loading import load_game
from interpreter.run.outputs import TextOut


@dataclass
class MatchSetup:
    ruleset: str
    decks: list[str]
    seed: int
    agents: list[str]
    turns: int | None = None  # overrides the ruleset's turn limit
    options: tuple[tuple[str, str], ...] = ()  # the ruleset's options picked (load.options.Chosen)


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


def play(setup: MatchSetup, out: TextOut | Callable[[], TextOut] | None = None,
         on_event: Callable[[dict], None] | None = None,
         agents: Sequence[Agent | ChoosesIn] | None = None,
         watch: Callable[[GameState], None] | None = None, reference: bool = False) -> GameState:
    """Play to the end. Every log line is written and flushed as it happens; `watch` is
    shown the match's state when it begins (a player's narrator reads what is visible).
    `reference`: on the reference path (see load_game).

    `out` may be a callable that opens the log: it is called only once the
    files are known to be good, so bad input never leaves an empty log behind.
    """
    game = load_game(setup.ruleset, reference=reference, chosen=setup.options)
    if len(setup.agents) != game.ruleset.players:
        raise TcgError(f"need {game.ruleset.players} agents, got {len(setup.agents)} "
                       f"({','.join(setup.agents)})")
    check_stops(setup.agents, [ph.name for ph in game.ruleset.phases])
    decks = resolve_decks(game, setup.ruleset, setup.decks)
    setup.decks = [str(d.doc.path) for d in decks]
    agents = agents or [make_agent(a, setup.seed * 1000 + i) for i, a in enumerate(setup.agents)]
    writer = _Writer(out, on_event)
    header = {"tcg": logs.LOG_VERSION, "ruleset": setup.ruleset, "decks": setup.decks,
              "seed": setup.seed, "agents": setup.agents}
    if setup.turns is not None:
        header["turns"] = setup.turns
    if setup.options:  # only choices other than the defaults: a default match logs as before
        header["options"] = dict(setup.options)
    writer.line(header)
    g = game.new_state([d.sections for d in decks], setup.seed, log=True, turns=setup.turns)
    if watch is not None:
        watch(g)
    while True:
        writer.events(g)
        d = g.decision
        if g.result is not None or d is None:
            return g
        try:
            choice, labels = decide(agents[d.player], g, d.player)
        except Concede:
            writer.line({"d": f"P{d.player + 1}", "q": d.prompt, "concede": True})
            g.concede(d.player)
            continue
        writer.line({"d": f"P{d.player + 1}", "q": d.prompt, "i": choice, "o": labels[choice]})
        vm.answer(g, d.options[choice])


class _Writer:
    def __init__(self, out: TextOut | Callable[[], TextOut] | None,
                 on_event: Callable[[dict], None] | None) -> None:
        self.out, self.on_event, self.done = out, on_event, 0

    def line(self, record: dict) -> None:
        if callable(self.out):
            self.out = self.out()
        if self.out is not None:
            with outputs.writing(getattr(self.out, "name", "the log")):
                self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
                self.out.flush()
        if self.on_event is not None:
            self.on_event(record)

    def events(self, g: GameState) -> None:
        log = g.log or []
        for record in log[self.done:]:
            self.line(record)
        self.done = len(log)


class _Resuming:
    """Answers with the logged decisions first, still asking the real agent so that its own
    random stream advances exactly as in the original run; then plays live."""

    def __init__(self, agent: Agent, script: logs.Script, human: bool) -> None:
        self.agent, self.script, self.human = agent, script, human

    def choose_in(self, g: GameState, player: int, labels) -> int:
        if not self.script.steps:
            return decide(self.agent, g, player)[0]
        if not self.human:
            decide(self.agent, g, player)
        return self.script.answer(g)


class _Replaying:
    """Answers with the logged decisions only."""

    def __init__(self, script: logs.Script) -> None:
        self.script = script

    def choose_in(self, g: GameState, player: int, labels) -> int:
        if not self.script.steps:
            raise logs.OutOfDecisions
        return self.script.answer(g)


def read_log(path: str | Path, home: Path | None = None) -> tuple[list[str], MatchSetup, list]:
    """A log's lines, the match it records, and its decisions (indexes, or CONCEDE); `home`:
    the folder the files it names must be in (logs.read)."""
    log = logs.read(path, home)
    return log.lines, _setup_of(log), [step.value for step in log.steps]


def _setup_of(log: logs.Log) -> MatchSetup:
    h = log.header
    return MatchSetup(h["ruleset"], h["decks"], h["seed"], h["agents"], h.get("turns"),
                      tuple(sorted((h.get("options") or {}).items())))


def resume(path: str | Path, on_event: Callable[[dict], None] | None = None,
           watch: Callable[[GameState], None] | None = None) -> GameState:
    """Continue an interrupted match from its log; the log is rewritten as one whole run,
    identical to what an uninterrupted run would have written.

    The new log is written beside the old one and replaces it only once it holds every
    line the old one did (each checked to be the same): rules, decks or a log changed since
    leave the old log as it was, and so does a failure before that point.
    """
    log = logs.read(path)
    outputs.check_output(path)
    setup = _setup_of(log)
    for a in setup.agents:
        logs.check_agent(a, f"{path}: line 1")
    script = logs.Script(str(path), log.steps)
    agents = [_Resuming(make_agent(a, setup.seed * 1000 + i), script, is_human(a))
              for i, a in enumerate(setup.agents)]
    tmp = outputs.temporary_beside(path)
    out: logs.Checked | None = None

    def open_new() -> logs.Checked:
        nonlocal out
        out = logs.Checked(outputs.open_output(tmp), log.lines, str(path))
        return out

    try:
        return play(setup, open_new, on_event, agents=agents, watch=watch)
    finally:
        if out is not None:
            out.close()
            if out.complete:  # (also when stopped later on: what it played is kept)
                with outputs.writing(path):
                    tmp.replace(path)
        tmp.unlink(missing_ok=True)


def replay(path: str | Path) -> tuple[bool, str]:
    """Re-run a log with its recorded decisions; (identical?, explanation)."""
    try:
        log = logs.read(path)
    except TcgError as e:
        if not Path(path).is_file():
            raise
        return False, str(e)
    import io

    lines = log.lines
    setup = _setup_of(log)
    buf = io.StringIO()
    agent = _Replaying(logs.Script(str(path), log.steps))
    try:
        play(setup, buf, agents=[agent] * len(setup.agents))
    except logs.BadDecision as e:
        return False, str(e)
    except logs.OutOfDecisions:
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
