"""Ordering simultaneous triggered abilities: a decision, so an instruction of the VM."""

from __future__ import annotations

from typing import Any

from interpreter.engine import vm
from interpreter.engine.instructions import Instr
from interpreter.engine.state import Frame, GameState
from interpreter.engine.triggers import apnap, deliver


class OrderTriggers(Instr):
    """Turn player first, each player orders their own simultaneous triggered abilities."""

    __slots__ = ()

    # The env holds tuples only: a frame's env is copied shallowly by clone().
    def run(self, g: GameState, f: Frame) -> None:
        env = f.env
        if "groups" not in env:
            batch, g.pending = g.pending, []
            if len(batch) == 1:  # (nothing to order: as the groups below would find)
                g.frames.pop()
                deliver(g, batch)
                return
            env["groups"] = tuple(tuple(t for t in batch if t[2] == p) for p in apnap(g))
            env["ordered"] = ()
        groups = tuple(grp for grp in env["groups"] if grp)
        env["groups"] = groups
        if not groups:
            g.frames.pop()
            deliver(g, list(env["ordered"]))
            return
        group = groups[0]
        if len(group) == 1:
            env["groups"] = groups[1:]
            env["ordered"] += group
            return
        vm.ask(g, group[0][2], "order", group, "which triggered ability resolves next")

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        groups = f.env["groups"]
        rest = tuple(t for t in groups[0] if t != option)
        f.env["groups"] = (rest, *groups[1:])
        f.env["ordered"] += (option,)
