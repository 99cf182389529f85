"""A `may` question names what the optional block does (issue 27: not "may the optional effect?")."""

from __future__ import annotations

import pytest

from interpreter.compile.describe import describe
from interpreter.lang.parser import parse_body
from interpreter.run.match import MatchSetup, play


@pytest.mark.parametrize("text, prompt", [
    ("draw(you, 2)", "draw(you, 2)"),
    ("choose up to 1 t from battle(opponent) where 疲労; destroy(t)",
     "choose up to 1 t from battle(opponent) where …; destroy(t)"),
    ("if count(hand(you)) > 0 { change(you, life, 0 - n) } else { mill(you, n) }",
     "change(you, life, 0 - n); mill(you, n)"),
    ("let x = 1; for each c in hand(you) { c.power += x until end of turn }",
     "c.power += x"),
    ("move(top(deck(you)), deck(you), bottom); shuffle(deck(you)); draw(you); draw(opponent)",
     "move(top(deck(you)), deck(you), bottom); shuffle(deck(you)); draw(you); …"),
    ("create(\"マナ\", mana(you), face=up)", 'create("マナ", mana(you), face=up)'),
])
def test_describe_reads_as_the_text(text: str, prompt: str):
    assert describe(parse_body(text)) == prompt


def test_a_match_asks_may_with_the_effect_named():
    """Seeded アルティメット matches: each `may` question names its card and what it does."""
    records: list[dict] = []
    for seed in range(3):
        play(MatchSetup("ultimate", [], seed, ["random", "random"]), on_event=records.append)
    prompts = {r["q"] for r in records if "d" in r and ": may " in r.get("q", "")}
    assert "見習い騎士: may draw(you, 1)?" in prompts, prompts
    assert not any("optional effect" in p or "(...)" in p for p in prompts), prompts
