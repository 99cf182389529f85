"""Property tests: any text the generators make either gets diagnostics or runs without crashing.

Three generators: hand-written ones build effect texts from the grammar's constructs and the
UCB ruleset's own names (plus misspellings), so most texts are close to valid — where bugs
hide; `from_lark` derives texts from grammar/effect.lark itself (every construct, at random
depth); and real card texts are mutated (characters dropped, doubled, swapped, replaced).
"""

from __future__ import annotations

import contextlib
import os
import random

import pytest
from grammar_texts import grammar_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.compile.stmts import StmtCompiler
from interpreter.diagnostics import TcgError
from interpreter.engine import vm
from interpreter.engine.state import Frame
from interpreter.lang import parser as P
from interpreter.lang.parser import ParseError, parse_ability, parse_body, parse_expr
from interpreter.run.loading import load_game

GAME = load_game("ucb")
NAMES = ruleset_names(GAME.ruleset.raw)

zones = st.sampled_from(sorted(NAMES.zones))
players = st.sampled_from(["you", "opponent", "turn_player", "self", "owner", "x"])
props = st.sampled_from(sorted(NAMES.properties | NAMES.states) + ["name", "bogus"])
numbers = st.integers(min_value=-3, max_value=60).map(str)


def _exprs() -> st.SearchStrategy[str]:
    leaf = st.one_of(numbers, players, props, st.just("「剣士」"), st.just("true"),
                     st.builds(lambda z, p: f"{z}({p})", zones, players))
    return st.recursive(leaf, lambda inner: st.one_of(
        st.builds(lambda a, op, b: f"({a} {op} {b})", inner,
                  st.sampled_from(["+", "-", "*", "/", "==", "!=", "<", ">=", "and", "or", "in"]),
                  inner),
        st.builds(lambda a: f"not {a}", inner),
        st.builds(lambda a, p: f"({a}).{p}", inner, props),
        st.builds(lambda a, c: f"({a} where {c})", inner, inner),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["count", "exists", "top", "max",
                                                              "other", "playable"]), inner),
    ), max_leaves=8)


EXPRS = _exprs()
STMTS = st.one_of(
    st.builds(lambda v, a, b: f"{v}({a}, {b})", st.sampled_from(sorted(NAMES.verbs) + ["drow"]),
              EXPRS, EXPRS),
    st.builds(lambda n, s: f"choose {n} t from {s}; destroy(t)", EXPRS, EXPRS),
    st.builds(lambda c: f"if {c} {{ draw(you, 1) }}", EXPRS),
    st.builds(lambda s: f"for each c in {s} {{ tap(c) }}", EXPRS),
    st.builds(lambda s, v: f"({s}).power += {v} until end of turn", EXPRS, EXPRS),
    st.builds(lambda s: f"move({s}, hand(you))", EXPRS),
)


def _state():
    """A mid-game board: characters on both sides, cards in every zone."""
    from interpreter.run.match import resolve_decks

    decks = [d.sections for d in resolve_decks(GAME, "ucb", [])]
    g = GAME.new_state(decks, 7, log=False)
    rng = random.Random(7)
    for _ in range(60):
        vm.answer(g, rng.choice(g.decision.options))
    assert g.result is None and any(g.zones[z] for z in g.zones if z.name == "battle")
    return g


STATE = _state()


def _run_body(text: str) -> None:
    try:
        tree = parse_body(text)
    except ParseError:
        return
    if EffectChecker(NAMES, set()).body(tree):
        return  # diagnostics: fine
    code = StmtCompiler(NAMES).body(tree)
    g = STATE.clone()
    g.decision = None  # run the effect alone, on a mid-game board
    g.frames = [Frame(code, vm.effect_env(g, None, 0), "effect")]
    rng = random.Random(0)
    vm.run(g)
    for _ in range(50):
        if g.decision is None:
            break
        vm.answer(g, rng.choice(g.decision.options))


# CI runs a bounded number; TCG_FUZZ_EXAMPLES=5000 for a long run (see the README).
EXAMPLES = int(os.environ.get("TCG_FUZZ_EXAMPLES", 150))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))


@FUZZ
@given(EXPRS)
def test_expressions_check_or_evaluate(text: str) -> None:
    try:
        tree = parse_expr(text)
    except ParseError:
        return
    if EffectChecker(NAMES, set()).expr(tree):
        return
    from interpreter.compile.exprs import ExprCompiler

    fn = ExprCompiler(NAMES).compile(tree)
    with contextlib.suppress(TcgError):
        fn(STATE.clone(), vm.effect_env(STATE, None, 0))


@FUZZ
@given(STMTS)
def test_effects_check_or_run(text: str) -> None:
    with contextlib.suppress(TcgError):
        _run_body(text)


# ---------- texts derived from the grammar itself ----------

def _grammar_strategies() -> dict[str, st.SearchStrategy[str]]:
    """from_lark per entry point; names are the ruleset's own (most texts then check clean
    and run) or fresh identifiers."""
    known = {*NAMES.zones, *NAMES.properties, *NAMES.states, *NAMES.verbs} \
        | {"you", "opponent", "self", "c", "t", "x", "count", "exists", "top", "playable"}
    return grammar_texts("effect.lark", ("ability", "body", "expr"), list(known), {
        "NUMBER": st.integers(0, 99).map(str),
        "STRING": st.sampled_from(["「剣士」", "「」", '"x"', "「見習い剣士」"]),
        "MODOP": st.sampled_from(["+=", "-=", "="]),
        "CMPOP": st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]),
        "ADDOP": st.sampled_from(["+", "-"]),
        "MULOP": st.sampled_from(["*", "/", "%"]),
    })


GRAMMAR = _grammar_strategies()
# from_lark is slow (0.05 s an ability, 0.4 s an effect, 0.7 s an expression, mostly spent
# generating): a few abilities and effects in CI (they hold expressions too),
# TCG_GRAMMAR_EXAMPLES=N for more, and the soak test below (all three) for a long run.
GRAMMAR_FUZZ = settings(max_examples=int(os.environ.get("TCG_GRAMMAR_EXAMPLES", 8)), deadline=None,
                        suppress_health_check=list(HealthCheck))


def _parsed(parse, text: str):
    """The grammar made this text, so it parses: only the nesting limit may refuse it."""
    try:
        return parse(text)
    except ParseError as e:
        assert "nested" in e.message, f"{text!r}: {e.message}"
        return None


def _ability_checks(text: str) -> None:
    tree = _parsed(parse_ability, text)
    if tree is not None:
        for problem in EffectChecker(NAMES, set()).ability(tree):
            assert problem.code and problem.message  # a diagnostic, not a crash


def _body_runs(text: str) -> None:
    if _parsed(parse_body, text) is not None:
        with contextlib.suppress(TcgError):
            _run_body(text)


def _expr_evaluates(text: str) -> None:
    if _parsed(parse_expr, text) is not None:
        test_expressions_check_or_evaluate.hypothesis.inner_test(text)


GRAMMAR_CHECKS = {"ability": _ability_checks, "body": _body_runs, "expr": _expr_evaluates}


@GRAMMAR_FUZZ
@given(GRAMMAR["ability"])
def test_grammar_abilities_parse_then_check_clean_or_diagnose(text: str) -> None:
    _ability_checks(text)


@GRAMMAR_FUZZ
@given(GRAMMAR["body"])
def test_grammar_effects_parse_then_diagnose_or_run(text: str) -> None:
    _body_runs(text)


@pytest.mark.soak
@settings(max_examples=int(os.environ.get("TCG_SOAK_GRAMMAR_EXAMPLES", 3000)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(GRAMMAR)).flatmap(lambda s: GRAMMAR[s].map(lambda t: (s, t))))
def test_soak_grammar_texts(start_text: tuple[str, str]) -> None:
    start, text = start_text
    GRAMMAR_CHECKS[start](text)


# ---------- real texts, mutated ----------

def _real_texts() -> list[tuple[str, str]]:
    """(entry point, text) for every effect text of the bundled card sets."""
    from interpreter.load import files
    from interpreter.load.yamlpos import load_yaml

    out = set()
    for ruleset in files.bundled_ids():
        for path in files.card_paths(ruleset, files.ruleset_path(ruleset)):
            for card in load_yaml(path).data.get("cards") or []:
                out |= {("ability", a) for a in card.get("abilities") or [] if isinstance(a, str)}
                out |= {(start, card[key]) for key, start in (("effect", "body"), ("condition", "expr"))
                        if isinstance(card.get(key), str)}
    return sorted(out)


REAL_TEXTS = _real_texts()
PARSERS = {"ability": parse_ability, "body": parse_body, "expr": parse_expr}
CHECKERS = {"ability": EffectChecker.ability, "body": EffectChecker.body, "expr": EffectChecker.expr}


@st.composite
def mutated(draw) -> tuple[str, str]:
    start, text = draw(st.sampled_from(REAL_TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, max(0, len(text) - 1)))
        how = draw(st.sampled_from(["drop", "double", "swap", "replace", "cut"]))
        if how == "drop":
            text = text[:i] + text[i + 1:]
        elif how == "double":
            text = text[:i + 1] + text[i:]
        elif how == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif how == "replace":
            text = text[:i] + draw(st.sampled_from(list("(){};:,.\"「」=<>+-*#0 xé\n"))) + text[i + 1:]
        else:
            text = text[:i]
    return start, text


def test_the_real_texts_cover_every_entry_point() -> None:
    starts = [s for s, _ in REAL_TEXTS]
    assert len(REAL_TEXTS) >= 60 and set(starts) == set(PARSERS), (len(REAL_TEXTS), set(starts))


@FUZZ
@given(mutated())
def test_mutated_real_texts_parse_and_check_or_diagnose(start_text: tuple[str, str]) -> None:
    start, text = start_text
    try:
        tree = PARSERS[start](text)
    except ParseError as e:
        assert e.line >= 1 and e.col >= 1 and e.message  # positioned, said in words
        return
    for problem in CHECKERS[start](EffectChecker(NAMES, set()), tree):
        assert problem.code and problem.message


# ---------- the tuned parsers against plain Lark ----------

# The oracle: pure-Python Lark, its parse table untouched, building the AST with the same
# transformer. The parser in use is tuned (`parser._tuned`); so is plain Lark when lark-cython
# is not installed: both must build exactly what the oracle builds, spans included.
ORACLE = Lark.open_from_package("interpreter.grammar", "effect.lark", parser="lalr",
                                start=["ability", "body", "expr"], keep_all_tokens=True,
                                maybe_placeholders=True, transformer=P._ToAst())
TUNED = {"in use": P._parser(), "plain Lark, tuned": P._tuned(P._lark())}


def _parsed_by(parser: Lark, start: str, text: str):
    try:
        return parser.parse(text, start=start)
    except UnexpectedInput:
        return "syntax error"


def _same_as_oracle(start: str, text: str) -> None:
    text = P.normalize(text)
    expected = _parsed_by(ORACLE, start, text)
    for name, parser in TUNED.items():
        assert _parsed_by(parser, start, text) == expected, (name, text)


def test_the_parsers_are_tuned() -> None:
    """Else the tests below compare the oracle with itself."""
    for parser in TUNED.values():
        table = parser.parser.parser._parse_table.states
        assert any(isinstance(arg, P._Reduction) for actions in table.values()
                   for _action, arg in actions.values())


def test_tuned_parsers_build_what_plain_lark_builds_on_every_bundled_text() -> None:
    for start, text in REAL_TEXTS:
        _same_as_oracle(start, text)


@FUZZ
@given(mutated())
def test_tuned_parsers_build_what_plain_lark_builds_on_mutated_texts(start_text) -> None:
    _same_as_oracle(*start_text)


@GRAMMAR_FUZZ
@given(st.sampled_from(sorted(GRAMMAR)).flatmap(lambda s: GRAMMAR[s].map(lambda t: (s, t))))
def test_tuned_parsers_build_what_plain_lark_builds_on_grammar_texts(start_text) -> None:
    _same_as_oracle(*start_text)


def test_a_parser_without_the_expected_internals_is_left_as_is() -> None:
    earley = Lark.open_from_package("interpreter.grammar", "effect.lark", parser="earley",
                                    start=["ability", "body", "expr"])
    assert P._tuned(earley) is earley
    assert earley.parse("draw(you, 1)", start="body").data == "body"


def test_a_tuned_parser_the_loop_cannot_read_falls_back_to_the_untouched_one(monkeypatch) -> None:
    tune = P._tuned

    def unreadable(parser: Lark) -> Lark:  # as if this lark's loop read a copy of the callbacks
        callbacks = tune(parser)._callbacks
        for key in [k for k in callbacks if isinstance(k, P._Reduction)]:
            del callbacks[key]
        return parser

    monkeypatch.setattr(P, "_tuned", unreadable)
    P._parser.cache_clear()
    try:
        _same_as_oracle("ability", "when destroy where self in target: draw(you, 1)")
        assert P._parser().parse("draw(you, 1)", start="body") == \
            ORACLE.parse("draw(you, 1)", start="body")
    finally:
        P._parser.cache_clear()
