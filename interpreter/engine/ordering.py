"""Ordering simultaneous triggered abilities by the ruleset's policy (`triggers: {order}`):
a decision where players order their own, so an instruction of the VM."""

from __future__ import annotations

from typing import Any

from interpreter.engine import vm
from interpreter.engine.instructions import Instr
from interpreter.engine.state import Frame, GameState
from interpreter.engine.triggers import PLAYED, apnap, deliver, unique

PROMPT = "which triggered ability resolves next"
ASKING = frozenset({"ask", "apnap"})  # (the others order a batch without a question)


class OrderTriggers(Instr):
    """Players' groups in turn (turn player first with `ask`, last with `apnap`), each player
    ordering their own simultaneous triggered abilities; or a fixed order, asking no one."""

    __slots__ = ()

    # The env holds tuples only: a frame's env is copied shallowly by clone().
    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        if "groups" not in env:
            batch, g.pending = g.pending, []
            order = g.game.ruleset.triggers.order
            if len(batch) == 1 or order not in ASKING:  # (nothing to ask)
                g.frames.pop()
                deliver(g, fixed(g, batch, order))
                return
            players = apnap(g) if order == "ask" else apnap(g)[::-1]
            env["groups"] = tuple(tuple(t for t in batch if t[2] == p) for p in players)
            env["ordered"] = ()
        groups = tuple(grp for grp in env["groups"] if grp)
        env["groups"] = groups
        if not groups:
            g.frames.pop()
            deliver(g, list(env["ordered"]))
            return
        group = groups[0]
        options = distinct(group)
        if len(options) == 1:
            env["groups"] = groups[1:]
            env["ordered"] += group
            return
        vm.ask(g, group[0][2], "order", options, PROMPT)

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        groups = f.env["groups"]
        rest = list(groups[0])
        rest.remove(option)  # (one of identical ones: the others wait their turn)
        f.env["groups"] = (tuple(rest), *groups[1:])
        f.env["ordered"] += (option,)


def distinct(group: tuple) -> tuple:
    """One option per kind of triggered ability: the same card's same ability with the same
    event fields is one choice (which of them resolves first makes no difference)."""
    return unique(group)


def fixed(g: GameState, batch: list[tuple], order: str) -> list[tuple]:
    """A batch in a policy's order that asks no one (`ask` and `apnap` with nothing to ask:
    the batch as it is)."""
    if order == "timestamp":  # oldest card first; one card's in the order they triggered
        return sorted(batch, key=lambda t: dict(t[3])[PLAYED])
    if order == "seat":  # turn player's first, each player's in the order they triggered
        return [t for p in apnap(g) for t in batch if t[2] == p]
    return batch
