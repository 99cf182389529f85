"""Texts derived from one of the package's Lark grammars by hypothesis's from_lark (fuzzing)."""

from __future__ import annotations

from importlib.resources import files

from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark
from lark.lexer import PatternStr


def grammar_texts(grammar_file: str, starts: tuple[str, ...], names: list[str],
                  tokens: dict[str, st.SearchStrategy[str]]) -> dict[str, st.SearchStrategy[str]]:
    """One strategy per entry point. Every terminal gets an explicit strategy padded with
    spaces: from_lark would otherwise glue tokens ("if" + "x" lexes as the name "ifx").
    NAME is one of `names` (texts then mostly check clean) or a fresh identifier; `tokens`
    gives the grammar's other value terminals."""
    text = files("interpreter.grammar").joinpath(grammar_file).read_text(encoding="utf-8")
    grammar = Lark(text, parser="lalr", start=list(starts))
    keywords = {t.pattern.value for t in grammar.terminals if isinstance(t.pattern, PatternStr)}
    fresh = st.from_regex(r"[a-zA-Z_あ-ん][a-zA-Z0-9_]{0,5}", fullmatch=True)
    by_name = {"NAME": st.one_of(st.sampled_from(sorted(names)), fresh)
               .filter(lambda n: n not in keywords),
               "WS": st.just(" "), "COMMENT": st.just("# note\n"), **tokens}
    explicit = {t.name: (by_name[t.name] if t.name in by_name else st.just(t.pattern.value))
                .map(lambda s: f" {s} ") for t in grammar.terminals
                if t.name in by_name or isinstance(t.pattern, PatternStr)}

    def reachable(start: str) -> set[str]:  # from_lark refuses strategies for other terminals
        terminals, _rules, ignored = grammar.grammar.compile([start], ())
        return {t.name for t in terminals} | set(ignored)

    return {start: from_lark(grammar, start=start,
                             explicit={k: v for k, v in explicit.items() if k in reachable(start)})
            for start in starts}
