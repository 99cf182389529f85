"""JSON from strangers (a log, a results folder, a request to the table), read with its nesting
bounded: Python's parser recurses once per level, so 100,000 nested brackets would be a
RecursionError (or a crash further on, when the value is walked) instead of an answer."""

from __future__ import annotations

import json
from typing import Any

from interpreter.diagnostics import TcgError

MAX_DEPTH = 64  # levels of nested arrays and objects: a log record or a request has a few


class JsonError(TcgError):
    """Text that is not JSON, or JSON nested deeper than MAX_DEPTH."""


def parse(text: str | bytes) -> Any:
    """The JSON value of `text`; JsonError saying what is wrong otherwise."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JsonError(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as e:  # (also bytes not UTF-8, and a number past 4,300 digits)
        raise JsonError(f"not JSON: {e}") from None
    if _may_be_deep(text) and depth(value) > MAX_DEPTH:
        raise JsonError(f"nested deeper than {MAX_DEPTH} levels")
    return value


def _may_be_deep(text: str | bytes) -> bool:
    # (counting brackets runs in C: only text with many of them is walked)
    if isinstance(text, str):
        return text.count("[") + text.count("{") > MAX_DEPTH
    return text.count(b"[") + text.count(b"{") > MAX_DEPTH


def depth(value: Any) -> int:
    """How deep arrays and objects nest in `value`, without recursing."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, d = todo.pop()
        children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if children is None:
            continue
        deepest = max(deepest, d)
        if d <= MAX_DEPTH:  # (past the bound the answer is known)
            todo.extend((c, d + 1) for c in children)
    return deepest
