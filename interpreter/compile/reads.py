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
from interpreter.lang.visit import Dispatch, Walker

# engine attributes of a card and the channel that covers each (None: fixed, or covered by
# the zone the card was found in: a card that moves is marked in both zones)
_ATTRS = {"face_up": "@face", "host": "@host"}


class _Untracked(Exception):
    pass


class Reads(Walker):
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

    # the channels an expression reads (in_filter: inside a filter's condition)
    _expr: Dispatch[set[str]] = Dispatch(A.Expr)

    @_expr.on(A.Num, A.Str, A.Bool, A.NoneLit)
    def _literal(self, n: A.Expr, in_filter: bool) -> set[str]:
        return set()

    @_expr.on(A.Name)
    def _name(self, n: A.Name, in_filter: bool) -> set[str]:
        if in_filter and n.id != "it" and self.names.card_field(n.id):
            return self.field(n.id)
        if n.id in ("turn_player", "turn_order"):
            return {"@turn"}
        return {n.id} if self.names.zones.get(n.id) else set()  # a shared zone; else fixed

    @_expr.on(A.Member)
    def _member(self, n: A.Member, in_filter: bool) -> set[str]:
        if n.name in self.names.resources:
            return self._expr(n.obj, in_filter) | {f"res:{n.name}"}
        return self._expr(n.obj, in_filter) | self.field(n.name)

    @_expr.on(A.Unary)
    def _unary(self, n: A.Unary, in_filter: bool) -> set[str]:
        return self._expr(n.operand, in_filter)

    @_expr.on(A.Binary)
    def _binary(self, n: A.Binary, in_filter: bool) -> set[str]:
        return self._expr(n.left, in_filter) | self._expr(n.right, in_filter)

    @_expr.on(A.Filter)
    def _filter(self, n: A.Filter, in_filter: bool) -> set[str]:
        return self._expr(n.source, in_filter) | self._expr(n.cond, True)

    @_expr.on(A.Call)
    def _call(self, n: A.Call, in_filter: bool) -> set[str]:
        if n.name in ("playable", "random", "heads", "random_card", "stack_size", "can_enter",
                      "linked", "divided"):
            raise _Untracked  # a card's own condition; the match's RNG; the stack; a zone's rules
        if n.name in ("total", "printed"):
            prop = n.args[1].value
            field = self.field(prop.id) if isinstance(prop, A.Name) else set()
            return self._expr(n.args[0].value, in_filter) | field
        out: set[str] = set().union(*(self._expr(a.value, in_filter) for a in n.args))
        if n.name == "turn_number":
            out.add("@turn")  # (a turn's end marks it; the next turn's number follows at once)
        elif n.name in self.names.zones:
            out.add(n.name)
        elif n.name in ("attached", "beneath"):  # (a stack's changes mark @host too)
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
