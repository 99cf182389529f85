"""Reading effect texts out of YAML: parse, check, and report every problem in place."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import Names
from interpreter.compile.stmts import StmtCompiler
from interpreter.diagnostics import Diagnostic
from interpreter.lang.parser import ParseError, parse_ability, parse_body, parse_expr
from interpreter.load.yamlpos import Doc

# kind of text -> (entry point, checker method, extra checker arguments)
_KINDS = {
    "body": ("body", "body", ()),
    "ability": ("ability", "ability", ()),
    "expr": ("expr", "expr", ()),
    "cond": ("expr", "condition", ()),
    "card_cond": ("expr", "condition", (True,)),  # bare names are the card's properties
    "card_value": ("expr", "expr", (True,)),  # the same, for a value
}
_PARSERS = {"ability": parse_ability, "body": parse_body, "expr": parse_expr}


@lru_cache(maxsize=1 << 16)
def parse_text(start: str, text: str) -> Any:
    """The AST of `text` from entry point `start`, parsed once per process: an AST is frozen
    and depends on the text alone, and a run reads a text many times (`tcg check` builds a
    game for its rulesets, its card sets and each deck, then checks the cards against the
    forbid list; rulesets share texts). Raises ParseError (not cached)."""
    return _PARSERS[start](text)


class TextReader:
    """Parses and checks the effect texts of one YAML file, keeping every diagnostic."""

    def __init__(self, doc: Doc, names: Names, diags: list[Diagnostic],
                 compiler: StmtCompiler) -> None:
        self.doc, self.names, self.diags, self.compiler = doc, names, diags, compiler

    def read(self, at: tuple, kind: str, scope: dict[str, str] | AbstractSet[str] = frozenset()) -> Any:
        text = get_at(self.doc.data, at)
        if not isinstance(text, str):
            return None
        try:
            start, check, extra = _KINDS[kind]
            tree = parse_text(start, text)
        except ParseError as e:
            line, col = self.doc.text_pos(at, e.line, e.col)
            self.diags.append(self.doc.diag_at(line, col, e.code, e.message, e.hint))
            return None
        checker = EffectChecker(self.names, scope if isinstance(scope, dict) else set(scope))
        problems = getattr(checker, check)(tree, *extra)
        for p in problems:
            line, col = self.doc.text_pos(at, p.span.line, p.span.col)
            self.diags.append(self.doc.diag_at(line, col, p.code, p.message, p.hint))
        self.compiler.words = checker.words
        return None if problems else tree


def get_at(data: Any, at: tuple) -> Any:
    for key in at:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data
