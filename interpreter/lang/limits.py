"""Limits on effect texts, checked before anything recurses over them.

The checker, the compiler and the Python the compiler generates all walk an AST
recursively, and Python stops at about a thousand frames (its own parser at 200 nested
parentheses); so a tree too deep for them is refused here, with the position of the node
that goes too deep. The walk that measures the depth keeps its own stack.
"""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics import TcgError

MAX_TEXT = 20_000  # characters in one effect text (the longest bundled one has ~2,000)
MAX_DEPTH = 40  # nested nodes in one text: calls, operators, `where`, blocks, `else if`
MAX_DIGITS = 18  # digits in a number: every such number fits in 64 bits


class LimitError(TcgError):
    """A text past one of the limits; `line`/`col` are inside the text (1-based)."""

    def __init__(self, message: str, line: int, col: int, hint: str) -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.hint = message, line, col, hint


def check_size(text: str) -> None:
    if len(text) > MAX_TEXT:
        raise LimitError(f"text is {len(text):,} characters long; the limit is {MAX_TEXT:,}",
                         1, 1, "split it into ruleset verbs or several abilities")


def check_number(digits: str, line: int, col: int) -> None:
    if len(digits) > MAX_DIGITS:
        raise LimitError(f"number has {len(digits):,} digits; the limit is {MAX_DIGITS}",
                         line, col, "no game needs numbers this large")


def check_depth(tree: Any, length: int) -> None:
    """Refuse a tree nested deeper than MAX_DEPTH. Each level takes at least one character,
    so a text no longer than the limit cannot break it and is not walked."""
    if length <= MAX_DEPTH:
        return
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, tuple):
            stack.extend((child, depth) for child in node)
            continue
        if not hasattr(node, "__dataclass_fields__") or not hasattr(node, "span"):
            continue
        if depth >= MAX_DEPTH:
            raise LimitError(f"nested deeper than {MAX_DEPTH} levels", node.span.line,
                             node.span.col, "split the effect into smaller steps, `let` "
                                            "variables or a ruleset verb")
        stack.extend((getattr(node, name), depth + 1) for name in node.__dataclass_fields__
                     if name != "span")
