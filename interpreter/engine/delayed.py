"""Delayed triggered abilities: an effect sets one up (`at next EVENT where COND { ... }`), and
it triggers once, at the next such event for which COND holds ("at the beginning of the next
end step, exile it"; "at the end of your turn, draw a card").

One set up is `(instr, source, controller, names)` in `g.delayed`: the `Delay` instruction
that set it up (immutable: its event, condition and ability index), the card whose text holds
it, the player who set it up (its controller, whoever controls the card later) and the
effect's variables then, `(name, value)` pairs. When it triggers it leaves `g.delayed` and
waits as a triggered ability of its card does (engine/triggers.py), the ability the card
builder added to the card for it (kind `delayed`, never live): ordered, then started or put on
the stack as the ruleset's model says. Its body sees the effect's variables and the event's
names (which win)."""

from __future__ import annotations

from typing import Any

from interpreter.engine import limits, triggers
from interpreter.engine.state import Frame, GameState

_OWN = ("self", "you", "opponent")  # (the ability's own: given again as it starts)


class Delay:
    """The statement: sets the delayed ability up (an instruction's shape: engine/vm.py calls
    it; this module sits below engine/instructions.py). `index`: the ability the card builder
    added to the card for it (compile/cards.py), set once as the card is built."""

    __slots__ = ("event", "cond", "index")

    def __init__(self, event: str, cond: Any) -> None:
        self.event, self.cond = event, cond
        self.index: int | None = None

    def run(self, g: GameState, f: Frame) -> None:
        f.pc += 1
        env = f.env
        names = tuple((k, v) for k, v in env.items() if k not in _OWN and k[0] != "#")
        g.delayed.append((self, env["self"], env["you"], names))
        g.version += 1

    def resume(self, g: GameState, f: Frame, option: Any) -> None:
        raise NotImplementedError("Delay")


def heard(g: GameState, name: str, fields: dict) -> None:
    """An event happened: each delayed ability waiting for it whose condition holds triggers
    (and is no longer set up)."""
    kept = []
    for entry in g.delayed:
        instr, cid, controller, names = entry
        if instr.event != name:
            kept.append(entry)
            continue
        env = triggers.effect_env(g, cid, controller)
        env.update(names)
        env.update(fields)
        if instr.cond is not None and not instr.cond(g, env):
            kept.append(entry)
            continue
        items = tuple({**dict(names), **fields}.items())
        if g.left_stamp is not None:  # (as triggers.heard: the ruleset's `triggers` need them)
            ability = g.defs[cid].abilities[instr.index]
            items += ((triggers.ZONE, g.zone_of[cid]),
                      (triggers.PLAYED, triggers.played(g, cid, ability)))
        g.pending.append((cid, instr.index, controller, items))
        if limits.waiting(g) > limits.MAX_WAITING:
            limits.too_many_waiting(g)
    if len(kept) != len(g.delayed):
        g.delayed = kept
