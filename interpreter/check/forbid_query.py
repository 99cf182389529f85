"""Parse forbid queries (grammar/forbid.lark) into a small frozen AST with positions."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Union, cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput

from interpreter.lang import limits
from interpreter.lang.ast import Span
from interpreter.lang.grammars import open_grammar
from interpreter.lang.parser import ParseError, normalize

INF = float("inf")


@dataclass(frozen=True, slots=True)
class Lit:
    span: Span
    value: Any  # number, inf, text or bool


@dataclass(frozen=True, slots=True)
class ListLit:
    span: Span
    items: tuple[Q, ...]


@dataclass(frozen=True, slots=True)
class Pattern:
    """`name|name(cond)`: some node of one of these kinds in the scope (cond about it). A lone
    name is resolved by position: a pattern, a field of the enclosing pattern, or a word."""

    span: Span
    names: tuple[str, ...]
    cond: Q | None
    does: bool = False  # `does P`: what effects come to once verbs are expanded


@dataclass(frozen=True, slots=True)
class Member:
    """`card.number`, `ability.kind`, `target.count`, `card.max(number)`."""

    span: Span
    obj: str
    attr: str
    arg: str | None = None


@dataclass(frozen=True, slots=True)
class Count:
    span: Span
    patterns: tuple[Pattern, ...]


@dataclass(frozen=True, slots=True)
class Total:
    span: Span
    measures: tuple[tuple[Pattern, str], ...]
    by: str | None = None  # `total(... by target)`: the largest sum over one target


@dataclass(frozen=True, slots=True)
class Op:
    """and, or, not, unless, ==, !=, <, <=, >, >=, in, not in, +."""

    span: Span
    op: str
    args: tuple[Q, ...]


Q = Union[Lit, ListLit, Pattern, Member, Count, Total, Op]  # noqa: UP007 (forward references)


@dataclass(frozen=True, slots=True)
class Query:
    scope: str  # card | ability | effect
    cond: Q


def _span(tok: Any) -> Span:
    if isinstance(tok, Token):
        return Span(tok.line or 1, tok.column or 1)  # (a token from the lexer has both)
    return getattr(tok, "span", Span(1, 1))


def _op(name: str):
    def method(self, *children):
        kept = [c for c in children if not (isinstance(c, Token) and c.type != "CMPOP")]
        if name == "cmp":
            left, op, right = kept
            return Op(_span(left), str(op), (left, right))
        return Op(_span(kept[0]), name, tuple(kept))

    return method


@v_args(inline=True)
class _ToQuery(Transformer):
    def start(self, scope, cond):
        return Query(str(scope), cond)

    unless = _op("unless")
    or_ = _op("or")
    and_ = _op("and")
    in_ = _op("in")
    not_in = _op("not in")
    add = _op("+")
    cmp = _op("cmp")

    def not_(self, arg):
        return Op(_span(arg), "not", (arg,))

    def num(self, tok):
        limits.check_number(str(tok), tok.line, tok.column)  # (before int(): Python's own limit)
        return Lit(_span(tok), int(tok))

    def string(self, tok):
        return Lit(_span(tok), str(tok)[1:-1])

    def inf(self):
        return Lit(Span(1, 1), INF)

    def true(self):
        return Lit(Span(1, 1), True)

    def false(self):
        return Lit(Span(1, 1), False)

    def list(self, *items):
        items = tuple(i for i in items if i is not None)
        return ListLit(_span(items[0]) if items else Span(1, 1), items)

    def count(self, *patterns):
        return Count(patterns[0].span, patterns)

    def total(self, *measures):
        return Total(measures[0][0].span, measures)

    def total_by(self, *children):
        *measures, by = children
        return Total(measures[0][0].span, tuple(measures), str(by))

    def measure(self, pattern, field):
        return (pattern, str(field))

    def pattern(self, does, *children):
        names = tuple(str(c) for c in children if isinstance(c, Token))
        cond = children[-1] if children and not isinstance(children[-1], Token) else None
        return Pattern(_span(does or children[0]), names, cond, does is not None)

    def member(self, obj, attr):
        return Member(_span(obj), str(obj), str(attr))

    def member_of(self, obj, attr, arg):
        return Member(_span(obj), str(obj), str(attr), str(arg))


@cache
def _parser() -> Lark:
    return open_grammar("forbid.lark", maybe_placeholders=True, transformer=_ToQuery())


def parse_query(text: str) -> Query:
    """A query's AST; raises ParseError (line and column inside the text) when it does not parse."""
    try:
        limits.check_size(text)
        text = normalize(text)
        query = cast(Query, _parser().parse(text))  # (what the transformer builds)
        limits.check_depth(query.cond, len(text))
        return query
    except limits.LimitError as e:
        raise ParseError(e.message, e.line, e.col, e.hint, "LIMIT") from None
    except UnexpectedInput as e:
        expected = sorted({_describe(t) for t in getattr(e, "accepts", None)
                           or getattr(e, "expected", None) or ()})
        hint = "expected " + ", ".join(expected[:8]) if expected else \
            "a query reads `per card|ability|effect: CONDITION`"
        token = getattr(e, "token", None)
        if token is not None and str(token):
            raise ParseError(f"unexpected {str(token)!r}", getattr(e, "line", 1) or 1,
                             getattr(e, "column", 1) or 1, hint) from None
        line, col = text.count("\n") + 1, len(text) - (text.rfind("\n") + 1) + 1
        raise ParseError("unexpected end of query", line, col, hint) from None


def _describe(terminal: str) -> str:
    if terminal in ("NAME", "NUMBER", "STRING"):
        return f"a {terminal.lower()}"
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    return f"'{pattern.value}'" if pattern.type == "str" else terminal.lower()
