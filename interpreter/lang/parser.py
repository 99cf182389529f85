"""Parse effect texts into the AST. Errors come back as `ParseError` with a position."""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache, lru_cache
from operator import itemgetter

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from interpreter.diagnostics import TcgError
from interpreter.lang import ast as A
from interpreter.lang import limits
from interpreter.lang.grammars import open_grammar

MAX_NESTING = 64


class ParseError(TcgError):
    def __init__(self, message: str, line: int, col: int, hint: str = "", code: str = "SYNTAX") -> None:
        super().__init__(message)
        self.message, self.line, self.col, self.hint, self.code = message, line, col, hint, code


# Tokens that carry meaning; every other token is punctuation or a keyword.
_VALUE_TOKENS = frozenset({"NAME", "NUMBER", "STRING", "MODOP", "CMPOP", "ADDOP", "MULOP"})


def _span_of(c) -> A.Span | None:
    span = getattr(c, "span", None)
    if span is None and isinstance(c, tuple) and c:
        span = getattr(c[0], "span", None)
    return span


def _token_classes() -> tuple[type, ...]:
    try:
        import lark_cython
    except ImportError:
        return (Token,)
    return (Token, lark_cython.Token)


_TOKENS = frozenset(_token_classes())


@lru_cache(maxsize=4096)
def _token_span(line: int, col: int) -> A.Span:
    """Spans are immutable: one per position, not one per node (this runs for every node)."""
    return A.Span(line, col)


def _positioned(method):
    """Run inside the parser (no tree): the node's span is that of its first token or child;
    keyword and punctuation tokens are dropped, value tokens become plain strings.
    Both Lark's and lark-cython's tokens are recognised."""

    def callback(self, children):
        span = None
        kept = []
        for c in children:
            if type(c) in _TOKENS:
                if span is None:
                    span = _token_span(c.line, c.column)
                if c.type in _VALUE_TOKENS:  # (interned: see load/yamlpos._scalar)
                    kept.append(sys.intern(str(c.value)))
            else:
                if span is None:
                    span = _span_of(c)
                kept.append(c)
        return method(self, span or A.NOWHERE, kept)

    return callback


class _ToAst(Transformer):
    # abilities
    def ability(self, span, c):
        if len(c) == 2 and isinstance(c[0], tuple):  # `in zones:` before the ability
            return A.InZones(c[1].span, c[0], c[1])
        return c[-1]

    def zones(self, span, c):
        return tuple(c)

    def trigger(self, span, c):
        cond = c[1] if len(c) == 3 else None
        return A.Trigger(span, c[0], cond, c[-1])

    def activated(self, span, c):
        cost = next((x for x in c[:-1] if isinstance(x, tuple)), ())
        cond = next((x for x in c[:-1] if not isinstance(x, tuple)), None)
        return A.Activated(span, cost, cond, c[-1])

    def cost(self, span, c):
        return c[0]

    def static(self, span, c):
        cond = c[0] if c and not isinstance(c[0], A.Modify) else None
        mods = tuple(x for x in c if isinstance(x, A.Modify))
        return A.Static(span, cond, mods)

    def replacement(self, span, c):
        cond = c[1] if len(c) == 3 else None
        return A.Replacement(span, c[0], cond, c[-1])

    def prohibition(self, span, c):
        return A.Prohibition(span, c[0], c[1] if len(c) > 1 else None)

    def permission(self, span, c):
        return A.Permission(span, c[0], c[1] if len(c) > 1 else None)

    def where(self, span, c):
        return c[0]

    # statements
    def body(self, span, c):
        return tuple(c)

    def block(self, span, c):
        return c[0] if c else ()

    def if_stmt(self, span, c):
        orelse = c[2] if len(c) == 3 else ()
        if isinstance(orelse, A.If):
            orelse = (orelse,)
        return A.If(span, c[0], c[1], orelse)

    def may_stmt(self, span, c):
        return A.May(span, c[0] if len(c) == 2 else None, c[-1])

    def choose_stmt(self, span, c):
        c, prompt = _prompt(c)
        up_to = bool(c) and c[0] == "upto"
        rest = c[1:] if up_to else c
        count, name, source = rest[0], rest[1], rest[2]
        by = rest[3] if len(rest) > 3 else None
        return A.Choose(span, count, up_to, name, source, by, prompt)

    def prompt(self, span, c):
        return c[0]

    def prompt_text(self, span, c):  # (a rule of its own: the span is the string's)
        return A.Prompt(span, c[0][1:-1])

    def choose_zone(self, span, c):
        return self._choose_value("zone", span, c)

    def choose_player(self, span, c):
        return self._choose_value("player", span, c)

    def _choose_value(self, kind, span, c):
        c, prompt = _prompt(c)
        return A.ChooseValue(span, kind, c[0], c[1], None, c[2] if len(c) > 2 else None, prompt)

    def choose_number(self, span, c):
        c, prompt = _prompt(c)
        return A.ChooseValue(span, "number", c[0], c[1], c[2], c[3] if len(c) > 3 else None,
                             prompt)

    def choose_mode(self, span, c):
        c, prompt = _prompt(c)
        modes = tuple(x for x in c if isinstance(x, A.Mode))
        by = c[-1] if not isinstance(c[-1], A.Mode) else None
        return A.ChooseMode(span, modes, by, prompt)

    def mode(self, span, c):
        return A.Mode(span, c[0][1:-1] if len(c) == 2 else None, c[-1])

    def upto(self, span, c):
        return "upto"

    def by(self, span, c):
        return c[0]

    def foreach_stmt(self, span, c):
        return A.ForEach(span, c[0], c[1], c[2])

    def repeat_stmt(self, span, c):
        return A.Repeat(span, c[0], c[1])

    def let_stmt(self, span, c):
        return A.Let(span, c[0], c[1])

    def modify(self, span, c):
        until = c[4] if len(c) == 5 else None
        return A.Modify(span, c[0], c[1], c[2], c[3], until)

    def duration(self, span, c):
        return c[0]

    def settle_stmt(self, span, c):
        return A.Settle(span)

    def together_stmt(self, span, c):
        return A.Together(span, c[0])

    def delay_stmt(self, span, c):
        return A.Delayed(span, c[0], c[1] if len(c) == 3 else None, c[-1])

    # expressions
    def filter(self, span, c):
        return A.Filter(span, c[0], c[1])

    def named_filter(self, span, c):
        return A.Filter(span, c[0], c[2], c[1])

    def _binary(self, op, span, c):
        return A.Binary(span, op, c[0], c[-1])

    def or_(self, span, c):
        return self._binary("or", span, c)

    def and_(self, span, c):
        return self._binary("and", span, c)

    def in_(self, span, c):
        return self._binary("in", span, c)

    def cmp(self, span, c):
        return A.Binary(span, c[1], c[0], c[2])

    def arith(self, span, c):
        return A.Binary(span, c[1], c[0], c[2])

    def not_(self, span, c):
        return A.Unary(span, "not", c[0])

    def neg(self, span, c):
        return A.Unary(span, "-", c[0])

    def member(self, span, c):
        return A.Member(span, c[0], c[1])

    def num(self, span, c):
        limits.check_number(c[0], span.line, span.col)  # (before int(): Python's own limit)
        return A.Num(span, int(c[0]))

    def string(self, span, c):
        return A.Str(span, sys.intern(c[0][1:-1]))

    def true(self, span, c):
        return A.Bool(span, True)

    def false(self, span, c):
        return A.Bool(span, False)

    def none(self, span, c):
        return A.NoneLit(span)

    def name(self, span, c):
        return A.Name(span, c[0])

    def paren(self, span, c):
        return c[0]

    def call(self, span, c):
        args = tuple(a for a in c[1:] if a is not None)
        return A.Call(span, c[0], args)

    def arg(self, span, c):
        return A.Arg(span, None, c[0])

    def named_arg(self, span, c):
        return A.Arg(span, c[0], c[1])


def _prompt(c: list) -> tuple[list, A.Prompt | None]:
    """A choice's children without its prompt, and the prompt (the last child, if any)."""
    if c and isinstance(c[-1], A.Prompt):
        return c[:-1], c[-1]
    return c, None


for _name, _method in list(vars(_ToAst).items()):
    if not _name.startswith("_") and callable(_method):
        setattr(_ToAst, _name, _positioned(_method))


def _accelerator() -> dict:
    """lark-cython (the `fast` extra) parses about twice as fast; plain Lark otherwise."""
    try:
        import lark_cython
    except ImportError:
        return {}
    return {"_plugins": lark_cython.plugins}


def _lark(**options) -> Lark:
    # The transformer runs inside the LALR parser, so no parse tree is built; keeping
    # every token gives each node the position of its first token (keywords included).
    return open_grammar(
        "effect.lark",
        start=["ability", "body", "expr"],
        keep_all_tokens=True,
        maybe_placeholders=True,
        transformer=_ToAst(),
        **options,
    )


@cache
def _parser() -> Lark:
    parser = _tuned(_lark(**_accelerator()))
    try:  # a tuned table that this lark's loop cannot read fails here rather than on a card
        parser.parse("f(a.b) + 2 * -1", start="expr")
    except Exception:
        return _lark(**_accelerator())
    return parser


class _Reduction:
    """A parse-table reduction as the LALR loop reads it: `origin.name` and `expansion`."""

    __slots__ = ("origin", "expansion")

    def __init__(self, name: str, expansion: list) -> None:
        self.origin, self.expansion = _Origin(name), expansion


class _Origin:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


def _tuned(parser: Lark) -> Lark:
    """Speed up the LALR loop (Lark's and lark-cython's alike) without changing what it builds.

    At each reduction the loop compares the table's `Rule` with an int (`assert arg !=
    end_state`) and looks up the next state by the rule's name, a lark `Token`: both run
    Python-level `__eq__` methods. Here every reduction becomes a `_Reduction` (identity
    equality, a plain-str name, the same expansion) keyed to the same callback; a rule that
    only passes its single child up (`?sum: product`) gets a C-level `itemgetter(0)`.
    Relies on the parser's internals: if they are not as expected, the parser is left as is.
    """
    try:
        from lark.parsers.lalr_analysis import Shift

        lalr = parser.parser.parser
        states, callbacks = lalr._parse_table.states, parser._callbacks
        tuned: dict = {}
        for actions in states.values():
            for action, rule in actions.values():
                if action is not Shift and rule not in tuned:
                    tuned[rule] = _Reduction(str(rule.origin.name), rule.expansion)
        callback = {r: itemgetter(0) if _passes_child_up(r) else callbacks[r] for r in tuned}
    except (ImportError, AttributeError, KeyError, TypeError, ValueError):
        return parser
    for rule, reduction in tuned.items():
        callbacks[reduction] = callback[rule]
    for actions in states.values():
        for term, (action, rule) in actions.items():
            if action is not Shift:
                actions[term] = (action, tuned[rule])
    return parser


def _passes_child_up(rule) -> bool:
    """An inlined rule (`?rule`) of one symbol, not itself inlined: its only child is that
    symbol's value, which Lark passes up as it is."""
    if len(rule.expansion) != 1 or not rule.options.expand1 or rule.alias or rule.options.empty_indices:
        return False
    symbol = rule.expansion[0]
    return symbol.is_term or not symbol.name.startswith("_")


@cache
def _plain_parser() -> Lark:
    """Pure-Python Lark, used to explain a syntax error (its 'expected' sets are exact)."""
    return open_grammar("effect.lark", start=["ability", "body", "expr"], maybe_placeholders=True)


def backend() -> str:
    return "lark-cython" if _accelerator() else "lark"


_STRINGS = re.compile(r'("[^"\n]*"|「[^」\n]*」)')


def normalize(text: str) -> str:
    """NFKC outside string literals (full-width digits and letters read as ASCII); a string
    keeps its exact characters, so 「ＡＢＣ」 still names the card called ＡＢＣ."""
    if text.isascii():
        return text  # NFKC leaves ASCII as it is
    parts = _STRINGS.split(text)
    return "".join(p if i % 2 else unicodedata.normalize("NFKC", p) for i, p in enumerate(parts))


def _parse(text: str, start: str):
    try:
        return _parse_within_limits(text, start)
    except limits.LimitError as e:
        raise ParseError(e.message, e.line, e.col, e.hint, "LIMIT") from None


def _parse_within_limits(text: str, start: str):
    limits.check_size(text)
    text = normalize(text)
    _check_nesting(text)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput:
        pass
    else:
        limits.check_depth(tree, len(text))
        return tree
    try:
        _plain_parser().parse(text, start=start)
    except UnexpectedInput as e:
        raise _friendly(e, text) from None
    raise ParseError("cannot parse this text", 1, 1)  # pragma: no cover - parsers disagree


def _check_nesting(text: str) -> None:
    if text.count("(") + text.count("{") <= MAX_NESTING:
        return  # cannot be nested that deep: skip the scan
    depth = 0
    for i, ch in enumerate(text):
        if ch in "({":
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, i) + 1
                col = i - (text.rfind("\n", 0, i) + 1) + 1
                raise ParseError(
                    f"nesting deeper than {MAX_NESTING} levels", line, col,
                    "split the effect into smaller steps or a ruleset verb",
                )
        elif ch in ")}":
            depth -= 1


def _describe(name: str) -> str:
    if name in ("NAME",):
        return "a name"
    if name == "NUMBER":
        return "a number"
    if name == "STRING":
        return "a string"
    if name in ("$END", "$end"):
        return "end of text"
    try:
        pattern = _plain_parser().get_terminal(name).pattern
    except KeyError:
        return name
    return f"'{pattern.value}'" if pattern.type == "str" else name.lower()


def _friendly(e: UnexpectedInput, text: str) -> ParseError:
    line, col = getattr(e, "line", 1), getattr(e, "column", 1)
    if isinstance(e, UnexpectedEOF) or (
        isinstance(e, UnexpectedToken) and e.token.type == "$END"
    ):
        expected = sorted({_describe(t) for t in (getattr(e, "expected", None) or [])})
        line = text.count("\n") + 1
        col = len(text) - (text.rfind("\n") + 1) + 1
        return ParseError("unexpected end of text", line, col, _expect_hint(expected))
    if isinstance(e, UnexpectedCharacters):
        return ParseError(f"unexpected character {e.char!r}", line, col)
    assert isinstance(e, UnexpectedToken)
    accepts = e.accepts or e.expected
    expected = sorted({_describe(t) for t in accepts})
    token: Token = e.token
    return ParseError(f"unexpected {token.value!r}", line, col, _expect_hint(expected))


def _expect_hint(expected: list[str]) -> str:
    if not expected:
        return ""
    if len(expected) > 8:
        expected = expected[:8] + ["..."]
    return "expected " + ", ".join(expected)


def parse_ability(text: str) -> A.Ability:
    return _parse(text, "ability")


def parse_body(text: str) -> A.Body:
    return _parse(text, "body")


def parse_expr(text: str) -> A.Expr:
    return _parse(text, "expr")
