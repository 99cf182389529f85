"""Walkers over the AST that handle every node kind, checked when their class is made.

A walker is a `Walker` subclass with one `Dispatch` per union of node kinds it walks
(`ast.Expr`, `ast.Stmt`, `ast.Ability`, or another AST's union). Each handler is marked with
the kinds it handles:

    class Depth(Walker):
        depth: Dispatch[int] = Dispatch(A.Expr)

        @depth.on(A.Num, A.Str, A.Bool, A.NoneLit, A.Name)
        def _leaf(self, n: A.Expr) -> int:
            return 1
        ...

`self.depth(node)` runs the handler of the node's exact type. The class statement fails
(TypeError) when a kind of the union has no handler, so adding a node kind to the AST stops
the import of every walker that has not learnt it, instead of letting one silently give a
default (an empty set of reads, a stale cache). A node outside the union raises TypeError
when walked. This is `functools.singledispatchmethod` made exhaustive, in the manner of
pylox's `NodeVisitor.__init_subclass__`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar, get_args

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


class Dispatch(Generic[R]):
    """A walker's method that runs the handler of its node's kind, one of `union`'s."""

    def __init__(self, union: Any) -> None:
        self.kinds: tuple[type, ...] = get_args(union) or (union,)
        self.handlers: dict[type, Callable[..., R]] = {}
        self.name = "a walker method"

    def on(self, *kinds: type) -> Callable[[F], F]:
        """Mark a method as the handler of these node kinds."""
        def register(handler: F) -> F:
            for kind in kinds:
                if kind not in self.kinds:
                    raise TypeError(f"{kind.__name__} is not one of {self._kind_names()}")
                if kind in self.handlers:
                    raise TypeError(f"{kind.__name__} has two handlers: "
                                    f"{self.handlers[kind].__name__} and {handler.__name__}")
                self.handlers[kind] = handler
            return handler
        return register

    def missing(self) -> list[type]:
        """The node kinds without a handler."""
        return [k for k in self.kinds if k not in self.handlers]

    def __set_name__(self, owner: type, name: str) -> None:
        if not issubclass(owner, Walker):  # (only a Walker checks that its tables are whole)
            raise TypeError(f"{owner.__qualname__} dispatches on node kinds: make it a Walker")
        self.name = f"{owner.__qualname__}.{name}"

    def __get__(self, walker: object, owner: type | None = None) -> Callable[..., R]:
        return partial(self.run, walker)

    def run(self, walker: object, node: Any, *args: Any, **kwargs: Any) -> R:
        handler = self.handlers.get(type(node))
        if handler is None:
            raise TypeError(f"{self.name} cannot walk {type(node).__name__}: "
                            f"it walks {self._kind_names()}")
        return handler(walker, node, *args, **kwargs)

    def _kind_names(self) -> str:
        return " | ".join(k.__name__ for k in self.kinds)


class Walker:
    """Base of every AST walker: its subclasses must handle each kind of each union they
    dispatch on (see the module's docstring)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name, table in dispatches(cls):
            missing = table.missing()
            if missing:
                raise TypeError(f"{cls.__qualname__}.{name} has no handler for "
                                f"{', '.join(k.__name__ for k in missing)}: mark one with "
                                f"@{name}.on(...)")


def dispatches(cls: type) -> list[tuple[str, Dispatch[Any]]]:
    """The dispatch tables a walker class defines itself."""
    return [(name, value) for name, value in vars(cls).items() if isinstance(value, Dispatch)]
