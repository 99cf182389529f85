"""Triggered abilities: collecting those that hear an event, and delivering an ordered batch
to the ruleset's resolution model (a stack or a queue). Ordering a batch is a decision, made
by engine/ordering.py (above the VM); this module sits below it."""

from __future__ import annotations

from interpreter.engine.stack import stack_triggers
from interpreter.engine.state import Frame, GameState


def effect_env(g: GameState, source: int | None, controller: int) -> dict:
    return {"self": source, "you": controller, "opponent": g.game.opponent[controller]}


def heard(g: GameState, cid: int, idx: int, ability, fields: dict) -> None:
    controller = g.controller[cid]
    env = effect_env(g, cid, controller)
    env.update(fields)
    if ability.cond is None or ability.cond(g, env):
        g.pending.append((cid, idx, controller, tuple(fields.items())))


def checkpoint(g: GameState) -> None:
    """Order the waiting triggered abilities (turn player first) and start resolving them."""
    if g.pending:
        g.frames.append(Frame(g.game.order_code, {}, "order"))
    elif g.queue:
        pump_queue(g)


def resolving(g: GameState) -> bool:
    """A triggered ability is resolving or being ordered: the queued ones wait for it."""
    return any(f.kind in ("trigger", "order") for f in g.frames)


def pump_queue(g: GameState) -> None:
    if g.queue and not resolving(g):
        push_trigger(g, g.queue.pop(0))


def deliver(g: GameState, ordered: list[tuple]) -> None:
    """Hand an ordered batch to the ruleset's resolution model."""
    if g.game.ruleset.timing == "priority":  # onto the stack: resolved as players pass
        stack_triggers(g, ordered)
    elif g.game.ruleset.resolution == "queue":
        g.queue.extend(ordered)
        pump_queue(g)
    else:
        for trig in reversed(ordered):
            push_trigger(g, trig)


def push_trigger(g: GameState, trig: tuple) -> None:
    cid, idx, controller, fields = trig
    env = effect_env(g, cid, controller)
    env.update(fields)
    g.frames.append(Frame(g.defs[cid].abilities[idx].body, env, "trigger"))


def apnap(g: GameState) -> list[int]:
    tp = g.turn_player
    n = g.game.ruleset.players
    return [(tp + i) % n for i in range(n)]
