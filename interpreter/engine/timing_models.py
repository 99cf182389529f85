"""The timing models: how the players get to act in a phase and where triggered abilities
wait. A ruleset's `timing:` names one; it is chosen once, when the ruleset is built
(`Ruleset.timing`), and every part of the interpreter that acts differently under another model
asks the model's attributes, never its name (docs/INTERNALS.md, "How to add a timing model").
"""

from __future__ import annotations

from typing import ClassVar

from interpreter.engine.instructions import Instr
from interpreter.engine.model import PhaseDef
from interpreter.engine.priority import Priority
from interpreter.engine.turn import Window


class TimingModel:
    """What the interpreter needs to know of a timing model.

    - `has_stack`: objects (spells, abilities, triggered abilities) wait on a stack: triggered
      abilities go onto it (engine/triggers.deliver), observations show it, RL observations keep
      slots for it, and a card's `targeting` and an action's `stack: true` make sense.
    - `passes_priority`: the players pass priority round until all have passed in succession:
      a lookahead plays on to a quiet point (agents/greedy.settle), the table offers auto-pass stops.
    - `phase_code(phase)`: the instructions that let the players act in a phase, placed after
      its body in the turn's program.
    """

    name: ClassVar[str]  # as a ruleset's `timing:` names it
    has_stack: ClassVar[bool] = False
    passes_priority: ClassVar[bool] = False

    def phase_code(self, phase: PhaseDef) -> list[Instr]:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<timing {self.name}>"


class Windows(TimingModel):
    """A phase with actions opens a window: its turn player acts until they end it (or the
    phase's own rules do); triggered abilities resolve at timing points, as a stack or a queue
    (the ruleset's `resolution`)."""

    name = "windows"

    def phase_code(self, phase: PhaseDef) -> list[Instr]:
        return [Window(phase)] if phase.actions else []


class PriorityModel(TimingModel):
    """Every step has a priority (engine/priority.py): the players pass it round, spells and
    abilities go on the stack and resolve once every player has passed in succession."""

    name = "priority"
    has_stack = True
    passes_priority = True

    def phase_code(self, phase: PhaseDef) -> list[Instr]:
        return [Priority(phase)]  # every step, acted in or not


WINDOWS = Windows()
MODELS: dict[str, TimingModel] = {m.name: m for m in (WINDOWS, PriorityModel())}


def timing_model(raw: dict) -> TimingModel:
    """The model a ruleset's `timing:` names (the schema allows only the models' names)."""
    return MODELS.get(raw.get("timing") or WINDOWS.name, WINDOWS)
