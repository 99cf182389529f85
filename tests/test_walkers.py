"""Every AST walker handles every node kind: checked when its class is made, and here."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import get_args

import pytest

from interpreter.check import forbid_query
from interpreter.lang import ast as A
from interpreter.lang.visit import Dispatch, Walker


def _walkers() -> list[type[Walker]]:
    for name in ("lang", "check", "compile", "engine"):  # where the pipeline's walkers live
        package = importlib.import_module(f"interpreter.{name}")
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)  # (a walker exists once its module is imported)
    found, todo = [], list(Walker.__subclasses__())
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo += cls.__subclasses__()
    return [w for w in found if w.__module__.startswith("interpreter.")]  # (not this file's)


def _node_classes(module: object) -> set[type]:
    return {v for v in vars(module).values()
            if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == module.__name__}


def test_a_walker_missing_a_handler_fails_when_its_class_is_made() -> None:
    with pytest.raises(TypeError, match=r"Partial\.kind has no handler for NoneLit, Filter"):
        class Partial(Walker):
            kind: Dispatch[str] = Dispatch(A.Expr)

            @kind.on(A.Num, A.Str, A.Bool, A.Name, A.Member, A.Call, A.Unary, A.Binary)
            def _known(self, n: A.Expr) -> str:
                return type(n).__name__


def test_two_handlers_for_one_kind_or_a_kind_outside_the_union_fail_too() -> None:
    with pytest.raises(TypeError, match="Num has two handlers: _a and _b"):
        class Twice(Walker):
            kind: Dispatch[str] = Dispatch(A.Expr)

            @kind.on(A.Num)
            def _a(self, n: A.Num) -> str:
                return "a"

            @kind.on(A.Num)
            def _b(self, n: A.Num) -> str:
                return "b"
    with pytest.raises(TypeError, match="Settle is not one of Num | Str"):
        class Stray(Walker):
            kind: Dispatch[str] = Dispatch(A.Expr)

            @kind.on(A.Settle)
            def _a(self, n: A.Settle) -> str:
                return "a"


def test_a_complete_walker_dispatches_on_the_exact_kind_and_refuses_other_nodes() -> None:
    class Kinds(Walker):
        kind: Dispatch[str] = Dispatch(A.Ability)

        @kind.on(A.Trigger, A.Activated, A.Static, A.Replacement)
        def _with_body(self, a: A.Ability, suffix: str = "") -> str:
            return "body" + suffix

        @kind.on(A.Prohibition, A.Permission)
        def _rule(self, a: A.Ability, suffix: str = "") -> str:
            return "rule" + suffix

        @kind.on(A.InZones)
        def _in_zones(self, a: A.InZones, suffix: str = "") -> str:
            return "in " + self.kind(a.ability, suffix=suffix)

    span = A.NOWHERE
    walker = Kinds()
    assert walker.kind(A.Prohibition(span, "attack", None)) == "rule"
    assert walker.kind(A.InZones(span, ("hand",), A.Static(span, None, ())), suffix="!") == "in body!"
    with pytest.raises(TypeError, match=r"Kinds\.kind cannot walk Settle: it walks Trigger \| "):
        walker.kind(A.Settle(span))


def test_every_ast_node_kind_is_in_a_union_the_walkers_cover() -> None:
    unions = {*get_args(A.Expr), *get_args(A.Stmt), *get_args(A.Ability)}
    parts = {A.Span, A.Arg, A.Prompt, A.Mode}  # a node's parts, walked by the walker of the node holding them
    assert _node_classes(A) == unions | parts
    assert _node_classes(forbid_query) == {*get_args(forbid_query.Q), forbid_query.Query}


def test_every_walker_handles_every_kind_of_each_union_it_walks() -> None:
    walkers = _walkers()
    names = {w.__qualname__ for w in walkers}
    # the walkers of the pipeline (a renamed one must be renamed here too)
    assert {"Reads", "_Variables", "_Generator", "CardBuilder", "EffectChecker",
            "_AbilityReader", "_Effects", "_Compiler", "_Describer", "StmtCompiler", "PyGen"} <= names
    tables = 0
    for walker in walkers:
        for name, table in walker.walks.items():
            assert set(table.handlers) == set(table.kinds), f"{walker.__qualname__}.{name}"
            tables += 1
    assert tables >= 10


def test_a_dispatch_outside_a_walker_is_refused() -> None:
    with pytest.raises((TypeError, RuntimeError)) as info:  # (3.11 wraps it in RuntimeError)
        class NotAWalker:
            kind: Dispatch[str] = Dispatch(A.Expr)
    assert "make it a Walker" in str(info.value) + str(info.value.__cause__)


def test_every_walker_refuses_a_node_outside_its_union() -> None:
    class Foreign:  # a node kind no union has (as a new one would be before it is added)
        span = A.NOWHERE

    for walker in _walkers():
        for name in walker.walks:
            with pytest.raises(TypeError, match=f"{walker.__qualname__}.{name} cannot walk Foreign"):
                vars(walker)[name](None, Foreign())  # (refused before the walker is looked at)
