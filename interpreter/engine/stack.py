"""Putting objects on the stack (`timing: priority`): below the VM, so engine/triggers.py can
hand it a batch of triggered abilities. Resolving them is engine/priority.py's."""

from __future__ import annotations

from interpreter.engine import limits
from interpreter.engine.state import GameState

# A triggered ability whose ability declares targets carries them as its last field (TARGETS,
# targets); until its controller chose them, at the next priority, they are AWAITING.
TARGETS = "#targets"
AWAITING = (TARGETS, None)


def stack_triggers(g: GameState, ordered: list[tuple]) -> None:
    """An ordered batch of triggered abilities goes onto the stack: the batch is in the order
    they resolve (engine/ordering.py, by the ruleset's `triggers: {order}` policy, as in every
    model), so the first is put on last, on top. Magic's APNAP is `order: apnap`: the turn
    player's resolve last, so they are put on first, at the bottom."""
    for trig in reversed(ordered):
        cid, idx, controller, fields = trig
        if g.defs[cid].abilities[idx].targets:
            trig = (cid, idx, controller, (*fields, AWAITING))
        push_object(g, ("trigger", cid, controller, trig))


def targets_of(obj: tuple) -> tuple:
    """The targets an object on the stack holds, `(name, value, stamp)` each (see
    engine/priority.py): a spell's or an activated ability's, or a triggered ability's once
    chosen."""
    kind, _card, _controller, data = obj
    if kind != "trigger":
        out: list[tuple] = []
        for name, value, stamp in data[2]:
            if type(stamp) is tuple:  # an `up_to` target: its cards one by one (`ts[1]`, ...)
                out += [(f"{name}[{i + 1}]", c, s)
                        for i, (c, s) in enumerate(zip(value, stamp, strict=True))]
            else:
                out.append((name, value, stamp))
        return tuple(out)
    fields = data[3]
    return (fields[-1][1] or ()) if fields and fields[-1][0] == TARGETS else ()


def push_object(g: GameState, obj: tuple) -> None:
    """`obj` goes on top of the stack (see engine/priority.py for its shape)."""
    g.stack.append(obj)
    g.version += 1
    if limits.waiting(g) > limits.MAX_WAITING:
        limits.too_many_waiting(g)
    if g.log is not None:
        g.log.append({"e": "stacked", "object": obj[0], "card": g.game.show(g, "card", obj[1]),
                      "player": f"P{obj[2] + 1}", "depth": len(g.stack)})
