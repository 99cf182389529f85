"""Forbid queries derived from grammar/forbid.lark by hypothesis's from_lark: every generated
query parses; compiling it gives a query or positioned problems; a compiled query runs over
every bundled アルティメット card without raising."""

from __future__ import annotations

import os

import pytest
from grammar_texts import grammar_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.check import forbid
from interpreter.check.forbid_compile import compile_query
from interpreter.check.forbid_query import parse_query
from interpreter.lang.parser import ParseError
from interpreter.load import files as bundled
from interpreter.load.yamlpos import load_yaml

RULESET = load_yaml(bundled.ruleset_path("ultimate"))
ENTRIES, NAMES, DEFAULTS = forbid.for_ruleset(RULESET)
CARDS = [card for path in sorted((bundled.ROOT / "cards" / "ultimate").glob("*.yaml"))
         for card in forbid.read_cards(load_yaml(path), NAMES, DEFAULTS)]


def _queries() -> st.SearchStrategy[str]:
    """Names are the ruleset's verbs, fields and words, or fresh ones."""
    known = {*NAMES.verbs, *NAMES.properties, *NAMES.zones, *NAMES.events} \
        | {"card", "ability", "any", "modify", "when", "static", "target", "n", "count", "zone",
           "owner", "max", "number", "opponent", "you", "self"}
    return grammar_texts("forbid.lark", ("start",), list(known), {
        "NUMBER": st.integers(0, 12).map(str),
        "STRING": st.sampled_from(['"x"', "「A」", "「」"]),
        "CMPOP": st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]),
        "SCOPE": st.sampled_from(["card", "ability", "effect"]),
    })["start"]


# ~0.3 s a query (from_lark generates slowly): 20 in CI, TCG_QUERY_EXAMPLES=N for a long run.
QUERY_FUZZ = settings(max_examples=int(os.environ.get("TCG_QUERY_EXAMPLES", 20)), deadline=None,
                      suppress_health_check=list(HealthCheck))


@QUERY_FUZZ
@given(_queries())
def test_generated_queries_parse_then_compile_or_diagnose_and_run(text: str) -> None:
    try:
        query = parse_query(text)
    except ParseError as e:  # the grammar made it: only a nesting limit may refuse it
        pytest.fail(f"{text!r} does not parse: {e.message}")
    compiled = compile_query(query, NAMES)
    if compiled.run is None:
        assert compiled.problems and all(message and code for _s, message, _h, code in compiled.problems)
        return
    entry = forbid.Entry("FUZZ", "", "", text, "", RULESET, (), query, compiled.run,
                         compiled.needs)
    for card in CARDS:
        forbid.violations([entry], card)  # a result, never an exception
