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

`self.depth(node)` runs the handler of the node's exact type (the function marked: a
subclass that redefines a handler's name does not change the dispatch). The class statement
fails (TypeError) when a kind of the union has no handler, so adding a node kind to the AST
stops the import of every walker that has not learnt it, instead of letting one silently give
a default (an empty set of reads, a stale cache). A node outside the union raises TypeError
when walked. This is `functools.singledispatchmethod` made exhaustive, in the manner of
pylox's `NodeVisitor.__init_subclass__`.

A question about a few shapes (is this a whole number, which zone do these cards come from,
does this draw from the RNG) is not a walker: it answers "no" or "unknown" for every other
kind, which stays right for a kind added later. A walker is what must say something about
every kind: what an expression reads, its type, its code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, get_args

R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])


class Dispatch(Generic[R]):
    """A walker's method that runs the handler of its node's kind, one of `union`'s."""

    def __init__(self, union: Any) -> None:
        self.kinds: tuple[type, ...] = get_args(union) or (union,)
        self.handlers: dict[type, Callable[..., R]] = {}

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

    if TYPE_CHECKING:  # (the class statement puts method()'s function in its place: see Walker)
        def __get__(self, walker: object, owner: type | None = None) -> Callable[..., R]: ...

    def method(self, name: str) -> Callable[..., R]:
        """The walker's method: runs the handler of its node's kind. A plain function, so
        that a call costs one dict lookup more than a direct call (walkers run at every build)."""
        handlers, kinds = self.handlers, " | ".join(k.__name__ for k in self.kinds)

        def walk(walker: object, node: Any, *args: Any, **kwargs: Any) -> R:
            try:
                handler = handlers[type(node)]
            except KeyError:
                raise TypeError(f"{name} cannot walk {type(node).__name__}: it walks {kinds}") from None
            return handler(walker, node, *args, **kwargs)

        return walk

    def _kind_names(self) -> str:
        return " | ".join(k.__name__ for k in self.kinds)


class Walker:
    """Base of every AST walker: its subclasses must handle each kind of each union they
    dispatch on (see the module's docstring)."""

    walks: ClassVar[dict[str, Dispatch[Any]]] = {}  # the dispatch tables the class defines

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.walks = {name: v for name, v in vars(cls).items() if isinstance(v, Dispatch)}
        for name, table in cls.walks.items():
            missing = table.missing()
            if missing:
                raise TypeError(f"{cls.__qualname__}.{name} has no handler for "
                                f"{', '.join(k.__name__ for k in missing)}: mark one with "
                                f"@{name}.on(...)")
            setattr(cls, name, table.method(f"{cls.__qualname__}.{name}"))
