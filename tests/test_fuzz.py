"""Property tests: any text the generators make either gets diagnostics or runs without crashing.

The generators build effect texts from the grammar's constructs and the UCB ruleset's own
names (plus misspellings), so most texts are close to valid — where bugs hide.
"""

from __future__ import annotations

import contextlib
import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.compile.stmts import StmtCompiler
from interpreter.diagnostics import TcgError
from interpreter.engine import vm
from interpreter.engine.state import Frame
from interpreter.lang.parser import ParseError, parse_body, parse_expr
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


# CI runs a bounded number; TCG_FUZZ_EXAMPLES=5000 for a long run.
FUZZ = settings(max_examples=int(os.environ.get("TCG_FUZZ_EXAMPLES", 150)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


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
