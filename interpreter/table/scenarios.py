"""Scenario files and the table: any moment written as a scenario (a puzzle, a bug report),
and a puzzle played from one (`tcg serve --scenario FILE`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from interpreter.diagnostics import DiagnosticError, TcgError
from interpreter.engine.game import Game
from interpreter.engine.state import GameState
from interpreter.load import confine
from interpreter.load.yamlpos import load_yaml
from interpreter.run.loading import chosen_options, load_game, validate
from interpreter.run.scenario import build_state
from interpreter.table.session import Table, TableError
from interpreter.words.speak import words_for


def export(game: Game, g: GameState, ruleset: str, seed: int, name: str) -> str:
    """The state as a scenario file that `tcg test` runs. A scenario starts at a phase's
    beginning: its expectations record what that start leads to, for the writer to edit."""
    spec: dict[str, Any] = {"ruleset": ruleset, "name": name, "seed": seed,
                            "description": "Exported from the playtest table. The state is "
                            "the moment chosen; `expect` records what it leads to now: edit it "
                            "to say what should happen.",
                            "state": _state(game, g)}
    try:
        built = build_state(game, spec["state"], seed)
    except TcgError as e:
        raise TableError(f"this moment cannot be written as a scenario: {e}") from None
    spec["expect"] = _snapshot(built)
    return yaml.safe_dump(spec, allow_unicode=True, sort_keys=False, width=100)


def _key(g: GameState, ref) -> str:
    return ref.name if ref.owner < 0 else f"{ref.name}@P{ref.owner + 1}"


def _state(game: Game, g: GameState) -> dict:
    where = {c: f"{_key(g, ref)}:{i}" for ref, cards in g.zones.items() for i, c in enumerate(cards)}
    zones = {}
    for ref, cards in g.zones.items():
        if cards:
            zones[_key(g, ref)] = [_entry(game, g, c, where) for c in cards]
    state: dict[str, Any] = {"turn_player": f"P{g.turn_player + 1}", "turn": max(g.turn, 1)}
    if any(p.name == g.phase for p in game.ruleset.phases):
        state["phase"] = g.phase
    state["zones"] = zones
    state["resources"] = {f"P{p + 1}": dict(g.res[p]) for p in g.players}
    return state


def _entry(game: Game, g: GameState, c: int, where: dict[int, str]) -> str | dict:
    entry: dict[str, Any] = {"card": g.defs[c].name}
    owner = g.owner[c]
    if g.zone_of[c].owner < 0 and owner != 0:  # a shared zone's card: P1's unless it says
        entry["owner"] = "none" if owner is None else f"P{owner + 1}"
    states = [s for s in game.ruleset.states if g.has_state(c, s)]
    if states:
        entry["states"] = states
    if g.face[c] != (game.ruleset.zones[g.zone_of[c].name].face == "up"):
        entry["face"] = "up" if g.face[c] else "down"
    counters = {k[1]: v for k, v in g.counters.items() if k[0] == c and v}
    if counters:
        entry["counters"] = counters
    if c in g.host and g.host[c] in where:
        entry["attached_to"] = where[g.host[c]]
    return entry if len(entry) > 1 else entry["card"]


def _snapshot(g: GameState) -> dict:
    expect: dict[str, Any] = {"winner": "none" if g.result is None else
                              "draw" if g.result.winner is None else f"P{g.result.winner + 1}"}
    expect["zones"] = {_key(g, ref): [g.defs[c].name for c in cards]
                       for ref, cards in g.zones.items() if cards}
    expect["resources"] = {f"P{p + 1}": dict(g.res[p]) for p in g.players}
    if g.decision is not None:
        expect["options"] = {"include": [a.label for a in g.legal_actions()]}
    return expect


def puzzle(path: str | Path, agents: list[str], hotseat: bool = False) -> Table:
    """A live match from a scenario's state (its decisions are not played: the human plays)."""
    doc = load_yaml(path)
    problems = validate(doc, "scenario")
    if problems:
        raise DiagnosticError(problems)
    spec, here = doc.data, Path(path).parent
    ruleset = spec["ruleset"]
    # (as `tcg test` reads them: relative to the scenario, and inside its game, confine.py)
    cards = tuple(str(confine.named_file(doc, ("cards", i), c, here))
                  for i, c in enumerate(spec.get("cards") or ()))
    if (here / ruleset).is_file():
        ruleset = str(confine.named_file(doc, ("ruleset",), ruleset, here))
    game = load_game(ruleset, cards, chosen=chosen_options(ruleset, spec.get("options") or {}))
    seed = int(spec.get("seed", 0))
    if "state" not in spec and spec.get("decks"):
        decks = [{section: [name for name, n in cards.items() for _ in range(n)]
                  for section, cards in deck.items()} for deck in spec["decks"]]
        g = game.new_state(decks, seed, log=True)
    else:
        g = build_state(game, spec.get("state") or {}, seed)
    return Table(game, g, agents, seed, [], hotseat=hotseat, puzzle=goal(game, spec, path),
                 restart=lambda: puzzle(path, agents, hotseat))


def goal(game: Game, spec: dict, path: str | Path) -> dict:
    """A puzzle's name, goal (its description, else who must win) and expected winner."""
    winner = (spec.get("expect") or {}).get("winner")
    text = str(spec.get("description") or "").strip() or (
        words_for(game).say("win", player=winner) if winner and winner != "none" else "")
    return {"name": str(spec.get("name") or Path(path).stem), "goal": text,
            "winner": None if winner is None else str(winner)}
