"""The timing rule, written once: when must a timing point settle before the code goes on?

`needs_settling` is the one definition. The engine asks it at every timing point (a phase's
start, a window, a turn's end, a procedure, an effect's end, `settle`), several hundred
times a match, and a call there costs more than the test itself; so the functions that ask
it are decorated with `inline_settle`, which compiles them again with the test's expression
in place of the call. The reference path and any undecorated code call the function.
"""

from __future__ import annotations
import __future__

import ast
import inspect
import textwrap
from collections.abc import Callable
from typing import Any, TypeVar


def needs_settling(g: Any) -> Any:
    """Truthy when a timing point must settle first: a triggered ability waits (pending, or
    queued with queue resolution), or a state rule may find something to do (the state
    changed since the state rules last found nothing). It tests the game's bools first
    (GameState.triggers, queues, state_rules): most games leave some of those lists empty
    for good, and a truth test of a list costs more than one of a bool."""
    return g.triggers and (g.pending or g.queues and g.queue) \
        or g.state_rules and g.rules_at != g.version


F = TypeVar("F", bound=Callable[..., Any])


def _test_of(arg: ast.expr) -> ast.expr:
    """needs_settling's expression, its parameter `g` replaced by `arg`."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(needs_settling)))
    returned = next(n for n in ast.walk(tree) if isinstance(n, ast.Return))

    class Bind(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return arg if node.id == "g" else node

    assert returned.value is not None
    return Bind().visit(returned.value)


class _Inline(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.attr if isinstance(node.func, ast.Attribute) else \
            node.func.id if isinstance(node.func, ast.Name) else None
        if name == "needs_settling" and len(node.args) == 1:
            return ast.copy_location(_test_of(node.args[0]), node)
        return node


def inline_settle(fn: F) -> F:
    """`fn` compiled again with each call `needs_settling(X)` (or `timing.needs_settling(X)`)
    replaced by the test's expression on X: the same behaviour without the call. `fn` as it
    is when its source cannot be read (then it calls the function)."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return fn
    tree = ast.parse(textwrap.dedent("".join(lines)))
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    func.decorator_list = []
    tree = ast.fix_missing_locations(_Inline().visit(tree))
    ast.increment_lineno(tree, first - 1)  # (tracebacks show the real lines)
    namespace: dict[str, Any] = {}
    code = compile(tree, inspect.getfile(fn), "exec", __future__.annotations.compiler_flag, True)
    exec(code, fn.__globals__, namespace)  # noqa: S102
    new = namespace[fn.__name__]
    new.__qualname__, new.__doc__ = fn.__qualname__, fn.__doc__
    return new
