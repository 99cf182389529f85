"""The effect language: what parses, into what, and how failures are reported."""

from __future__ import annotations

import pytest

from interpreter.lang import ast as A
from interpreter.lang.parser import ParseError, parse_ability, parse_body, parse_expr


def test_trigger_with_condition_and_body():
    a = parse_ability("when destroy where self in target: draw(you, 1)")
    assert isinstance(a, A.Trigger) and a.event == "destroy"
    assert isinstance(a.cond, A.Binary) and a.cond.op == "in"
    assert a.body[0].name == "draw" and a.body[0].span == A.Span(1, 36)


def test_choose_up_to_with_filter_and_chooser():
    (c,) = parse_body("choose up to 2 t from battle(opponent) where cost <= 3 by opponent")
    assert isinstance(c, A.Choose) and c.up_to and c.name == "t"
    assert isinstance(c.source, A.Filter) and isinstance(c.by, A.Name)


def test_if_else_chain_and_loops():
    body = parse_body("if x > 1 { a() } else if x > 0 { b() } else { c() }; "
                      "for each c in hand(you) { d(c) }; repeat 2 { e() }")
    assert isinstance(body[0], A.If) and isinstance(body[0].orelse[0], A.If)
    assert isinstance(body[1], A.ForEach) and isinstance(body[2], A.Repeat)


def test_modifier_with_duration():
    (m,) = parse_body("self.power += 2 until end of turn")
    assert (m.prop, m.op, m.until) == ("power", "+=", "turn")


def test_static_prohibition_permission_replacement_activated():
    assert isinstance(parse_ability("static: (battle(you) where it != self).power += 1"), A.Static)
    assert isinstance(parse_ability("cannot attack where card == self"), A.Prohibition)
    assert isinstance(parse_ability("can attack where card == self"), A.Permission)
    assert isinstance(parse_ability("instead destroy where self in target: tap(self)"),
                      A.Replacement)
    act = parse_ability("activate cost { tap(self) }: draw(you)")
    assert isinstance(act, A.Activated) and act.cost[0].name == "tap"


def test_unicode_names_quotes_and_fullwidth_digits():
    e = parse_expr("name == 「勇者」 and コスト <= ３")
    assert e.left.right == A.Str(A.Span(1, 9), "勇者")
    assert e.right.left.id == "コスト" and e.right.right.value == 3


def test_precedence():
    e = parse_expr("1 + 2 * 3 > 6 and not false or true")
    assert e.op == "or" and e.left.op == "and" and e.left.left.op == ">"
    assert e.left.left.left.right.op == "*"


@pytest.mark.parametrize("text, line, col, fragment", [
    ("draw(1", 1, 7, "end of text"),
    ("draw(1) draw(2)", 1, 9, "unexpected 'draw'"),
    ("draw(1);\n  x ==", 2, 5, "unexpected"),
    ("draw(1) $", 1, 9, "unexpected character"),
])
def test_errors_are_positioned(text, line, col, fragment):
    with pytest.raises(ParseError) as info:
        parse_body(text)
    assert (info.value.line, info.value.col) == (line, col)
    assert fragment in info.value.message


def test_expected_tokens_are_suggested():
    with pytest.raises(ParseError) as info:
        parse_body("draw(1")
    assert "')'" in info.value.hint


def test_deep_nesting_is_a_diagnostic_not_a_crash():
    with pytest.raises(ParseError) as info:
        parse_expr("(" * 5000 + "1" + ")" * 5000)
    assert "nesting" in info.value.message


def test_strings_keep_their_exact_characters():
    e = parse_expr("name == 「ＡＢＣ…」 and x == \"（ｘ）\" and cost <= ３")
    assert e.left.left.right.value == "ＡＢＣ…"
    assert e.left.right.right.value == "（ｘ）"
    assert e.right.right.value == 3
