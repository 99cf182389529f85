"""Triggered abilities: collecting those that hear an event, and delivering an ordered batch
to the ruleset's resolution model (a stack or a queue). Ordering a batch is a decision, made
by engine/ordering.py (above the VM); this module sits below it."""

from __future__ import annotations

from bisect import bisect_left

from interpreter.engine import limits
from interpreter.engine.stack import stack_triggers
from interpreter.engine.state import Frame, GameState

# What a waiting ability remembers of its card (as engine names among its event's fields)
# when the ruleset's `triggers` need it: the zone it was in when it triggered (has it left
# since?) and when it entered the zone where the ability works (the order by timestamp).
ZONE, PLAYED = "#zone", "#played"


def effect_env(g: GameState, source: int | None, controller: int) -> dict:
    return {"self": source, "you": controller, "opponent": g.game.opponent[controller]}


def heard(g: GameState, cid: int, idx: int, ability, fields: dict) -> None:
    controller = g.controller[cid]
    env = effect_env(g, cid, controller)
    env.update(fields)
    if ability.cond is None or ability.cond(g, env):
        items = tuple(fields.items())
        if g.left_stamp is not None:  # (the ruleset's `triggers` need them: see its remembers)
            items += ((ZONE, g.zone_of[cid]), (PLAYED, played(g, cid, ability)))
        g.pending.append((cid, idx, controller, items))
        if len(g.pending) + len(g.queue) + len(g.stack) > limits.MAX_WAITING:
            limits.too_many_waiting(g)


def played(g: GameState, cid: int, ability) -> int:
    """The card's place in play order: how many cards whose abilities work entered play
    before it entered the zone where this ability works (a card heard as it left that zone, a
    deathrattle, by the stamp it had there).

    A place, not the stamp itself: places taken at two events of one batch still compare
    (between them the older cards can only leave), and a forced loop that brings the board
    back brings the places back too (repetition.loop_returned compares waiting abilities)."""
    stamps = g.stamp
    if g.zone_of[cid].name in (ability.zones or g.game.ability_zone_set):
        entered = stamps[cid]
    else:
        entered = (g.left_stamp or {}).get(cid, stamps[cid])
    return bisect_left(live_stamps(g), entered)


_LIVE_STAMPS = ("#live-stamps",)  # its key in GameState.memo


def live_stamps(g: GameState) -> list[int]:
    """The live cards' stamps in order, made once for every ability heard at one event (the
    memo holds for one version): a batch of N triggered abilities costs N log N, not N²."""
    if g.memo_version != g.version:
        g.memo.clear()
        g.memo_version = g.version
    stamps = g.memo.get(_LIVE_STAMPS)
    if stamps is None:
        stamp = g.stamp
        stamps = g.memo[_LIVE_STAMPS] = sorted([stamp[c] for c in g.live_cards()])
    return stamps


def checkpoint(g: GameState) -> None:
    """Order the waiting triggered abilities (by the ruleset's policy: engine/ordering.py)
    and start resolving them."""
    if g.pending:
        g.frames.append(Frame(g.game.order_code, {}, "order"))
    elif g.queue:
        pump_queue(g)


def resolving(g: GameState) -> bool:
    """A triggered ability is resolving or being ordered: the queued ones wait for it."""
    return any(f.kind in ("trigger", "order") for f in g.frames)


def unique(items: tuple | list) -> tuple:
    """The items, each once (the first of equal ones), in order: by hashing, in one pass,
    unless a field holds something unhashable (a list of cards), then by comparing (a batch
    of triggered abilities may hold a thousand: engine/limits.py)."""
    try:
        return tuple(dict.fromkeys(items))
    except TypeError:
        return tuple(t for i, t in enumerate(items) if t not in items[:i])


def pump_queue(g: GameState) -> None:
    if g.queue and not resolving(g):
        push_trigger(g, g.queue.pop(0))


def deliver(g: GameState, ordered: list[tuple]) -> None:
    """Hand an ordered batch to the ruleset's resolution model."""
    if g.game.ruleset.timing.has_stack:  # onto the stack: resolved as players pass
        stack_triggers(g, ordered)
    elif g.game.ruleset.resolution == "queue":
        g.queue.extend(ordered)
        if limits.waiting(g) > limits.MAX_WAITING:
            limits.too_many_waiting(g)
        pump_queue(g)
    else:
        for trig in reversed(ordered):
            push_trigger(g, trig)


def push_trigger(g: GameState, trig: tuple) -> None:
    cid, idx, controller, fields = trig
    if len(g.frames) > limits.MAX_WAITING:  # (started, waiting for those above to finish)
        limits.too_many_waiting(g)
    env = effect_env(g, cid, controller)
    env.update(fields)
    ability = g.defs[cid].abilities[idx]
    if ZONE not in env or g.game.ruleset.triggers.resolves_gone(ability):
        g.frames.append(Frame(ability.body, env, "trigger"))
    else:  # whether its card is still there is asked when it starts, not now (a stack)
        g.frames.append(Frame((IfStillThere(ability.body),), env, "trigger"))


class IfStillThere:
    """A triggered ability that does not resolve once its card has left the zone it was in
    when it triggered: it starts (its body replaces this frame) only if the card is there.
    An instruction (instructions.Instr's shape, which the VM calls; this module sits below
    it), alone in its frame, so it never asks and has nothing to resume."""

    __slots__ = ("body",)

    def __init__(self, body: tuple) -> None:
        self.body = body

    def run(self, g: GameState, f: Frame) -> None:
        g.frames.pop()
        cid = f.env["self"]
        if g.zone_of[cid] is f.env[ZONE]:
            g.frames.append(Frame(self.body, f.env, "trigger"))
        elif g.log is not None:  # (log only: nothing happened to trigger on)
            g.log.append({"e": "left_play", "card": g.game.show(g, "card", cid)})


def apnap(g: GameState) -> list[int]:
    tp = g.turn_player
    n = g.game.ruleset.players
    return [(tp + i) % n for i in range(n)]
