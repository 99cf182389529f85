"""Which cards a text can `create` (or `transform` into): a match must hold their abilities
(Game.for_cards)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from interpreter.compile.names import Names
from interpreter.compile.texts import TextReader
from interpreter.lang import ast as A

# The primitives that make a card by name, and where their `name` parameter is written.
_MAKERS = {"create": 0, "transform": 1}


def created_names(tree: Any, names: Names) -> frozenset[str] | None:
    """The names the `create` and `transform` calls of a tree make; None when one is known only when the
    effect runs (a variable, `c.name`), so any card may be made. The walk is iterative: texts
    nest deeply enough to exhaust Python's recursion."""
    out: set[str] = set()
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(node)
            continue
        if not is_dataclass(node):
            continue
        if isinstance(node, A.Call) and node.name in _MAKERS:
            at = _MAKERS[node.name]
            arg = next((a for i, a in enumerate(node.args)
                        if a.name == "name" or a.name is None and i == at), None)
            name = _written(arg.value, names) if arg is not None else None
            if name is None:
                return None
            out.add(name)
        todo.extend(getattr(node, f.name) for f in fields(node))
    return frozenset(out)


def _written(v: A.Expr, names: Names) -> str | None:
    """A name written in the text (a token's or a card's), else None."""
    if isinstance(v, A.Str):
        return v.value
    if isinstance(v, A.Name) and (v.id in names.tokens or v.id in names.cards):
        return v.id  # a bare word (a variable of that name would shadow it: see the checker)
    return None


class CreatesReader(TextReader):
    """A TextReader that notes what the texts it reads create (`creates`: None once one of
    them may create any card)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.creates: frozenset[str] | None = frozenset()

    def read(self, at: tuple, kind: str, scope: Any = frozenset()) -> Any:
        tree = super().read(at, kind, scope)
        if tree is not None and self.creates is not None:
            made = created_names(tree, self.names)
            self.creates = None if made is None else self.creates | made
        return tree
