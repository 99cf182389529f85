"""Reading effect texts out of YAML: parse, check, and report every problem in place."""

from __future__ import annotations

from typing import Any

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import Names
from interpreter.compile.stmts import StmtCompiler
from interpreter.diagnostics import Diagnostic
from interpreter.lang.parser import ParseError, parse_ability, parse_body, parse_expr
from interpreter.load.yamlpos import Doc

# kind of text -> (parser, checker method, extra checker arguments)
_KINDS = {
    "body": (parse_body, "body", ()),
    "ability": (parse_ability, "ability", ()),
    "expr": (parse_expr, "expr", ()),
    "cond": (parse_expr, "condition", ()),
    "card_cond": (parse_expr, "condition", (True,)),  # bare names are the card's properties
    "card_value": (parse_expr, "expr", (True,)),  # the same, for a value
}
ACTION_FIELDS = ("card", "player", "ability")


class TextReader:
    """Parses and checks the effect texts of one YAML file, keeping every diagnostic."""

    def __init__(self, doc: Doc, names: Names, diags: list[Diagnostic],
                 compiler: StmtCompiler) -> None:
        self.doc, self.names, self.diags, self.compiler = doc, names, diags, compiler

    def read(self, at: tuple, kind: str, scope: dict[str, str] | set[str] = frozenset()) -> Any:
        text = get_at(self.doc.data, at)
        if not isinstance(text, str):
            return None
        try:
            parse, check, extra = _KINDS[kind]
            tree = parse(text)
        except ParseError as e:
            line, col = self.doc.text_pos(at, e.line, e.col)
            self.diags.append(self.doc.diag_at(line, col, "SYNTAX", e.message, e.hint))
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
