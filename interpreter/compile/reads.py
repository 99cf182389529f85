"""What part of the state an expression reads: the change channels that can change its value.

A value derived from the state (the static modifiers, what the state rules find, whether a
win/loss rule holds, the heuristic's score) is kept until a change lands on a channel it reads;
the engine marks a channel at every change (engine/state.py, GameState.marks). Channels: a
zone's name (cards in or out of it, its order), `state:S`, `counter:C`, `res:R`, and `@face`,
`@host` (attachments), `@mods` (modifiers from `modify`), `@turn` (the turn player).
`@statics` stands for whatever the static abilities read; the Game expands it.

None means "untracked": the expression reads something no channel covers (a card's own
condition, the match's RNG), so a value derived from it is computed again after every change.
Cards reach an expression through zones (marked when cards move), attachments (`@host`) or the
variables of the one who keeps the value, which are fixed while it is kept.
"""

from __future__ import annotations

from interpreter.compile.names import Names
from interpreter.engine.state import STATICS
from interpreter.lang import ast as A

# engine attributes of a card and the channel that covers each (None: fixed, or covered by
# the zone the card was found in: a card that moves is marked in both zones)
_ATTRS = {"face_up": "@face", "host": "@host"}


class _Untracked(Exception):
    pass


class Reads:
    """Works out the channels of a ruleset's expressions, once every text is compiled (which
    properties some text modifies is known only then)."""

    def __init__(self, names: Names, modified: frozenset[str], formulas: dict[str, A.Expr],
                 hiding: frozenset[str], always_known: frozenset[str]) -> None:
        self.names, self.modified, self.formulas = names, modified, formulas
        self.hiding = frozenset(f"state:{s}" for s in hiding)  # a card's face can be hidden
        self.always_known = always_known

    def of(self, *nodes: A.Expr | None) -> frozenset[str] | None:
        """The channels the expressions read (None when untracked)."""
        try:
            return frozenset().union(*(self._expr(n, False) for n in nodes if n is not None))
        except _Untracked:
            return None

    def _expr(self, n: A.Expr, in_filter: bool) -> set[str]:
        names = self.names
        if isinstance(n, A.Name):
            if in_filter and n.id != "it" and names.card_field(n.id):
                return self.field(n.id)
            if n.id in ("turn_player", "turn_order"):
                return {"@turn"}
            return {n.id} if names.zones.get(n.id) else set()  # a shared zone; else fixed
        if isinstance(n, A.Member):
            if n.name in names.resources:
                return self._expr(n.obj, in_filter) | {f"res:{n.name}"}
            return self._expr(n.obj, in_filter) | self.field(n.name)
        if isinstance(n, A.Unary):
            return self._expr(n.operand, in_filter)
        if isinstance(n, A.Binary):
            return self._expr(n.left, in_filter) | self._expr(n.right, in_filter)
        if isinstance(n, A.Filter):
            return self._expr(n.source, in_filter) | self._expr(n.cond, True)
        if isinstance(n, A.Call):
            return self._call(n, in_filter)
        return set()  # a literal

    def _call(self, n: A.Call, in_filter: bool) -> set[str]:
        if n.name in ("playable", "random"):
            raise _Untracked  # a card's own condition; the match's RNG
        if n.name == "total":
            prop = n.args[1].value
            field = self.field(prop.id) if isinstance(prop, A.Name) else set()
            return self._expr(n.args[0].value, in_filter) | field
        out = set().union(*(self._expr(a.value, in_filter) for a in n.args))
        if n.name in self.names.zones:
            out.add(n.name)
        elif n.name == "attached":
            out.add("@host")
        return out

    def field(self, name: str) -> set[str]:
        """A card field: a state, a counter, an engine attribute or a property."""
        names = self.names
        if name in names.states:
            return {f"state:{name}"}
        if name in names.counters:
            return {f"counter:{name}"}
        if name not in names.properties:
            return set(self.hiding) if name == "name" else {c for c in (_ATTRS.get(name),) if c}
        out = set() if name in self.always_known else set(self.hiding)
        if name in self.formulas:
            out |= self._expr(self.formulas[name], True)
        if name in self.modified:
            out |= {"@mods", STATICS}
        return out
