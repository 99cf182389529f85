"""`tcg cards` on the card sets of a game that is not bundled (a ruleset given as `tcg check`
takes it) and on every function the checker accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.compile.names import FUNCTIONS
from interpreter.lang import parse_expr
from interpreter.run.loading import load_game
from interpreter.words import catalog
from interpreter.words.speak import words_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("game", ["kaiju", "pocket", "chance"])
def test_tcg_cards_takes_the_ruleset_as_tcg_check_does(capsys, game: str) -> None:
    ruleset, cards = ROOT / f"tests/rulesets/{game}.yaml", sorted(ROOT.glob(f"tests/cards/{game}/*.yaml"))
    assert main(["check", str(ruleset), *map(str, cards)]) == 0
    capsys.readouterr()
    assert main(["cards", "--lang", "en", str(ruleset), *map(str, cards)]) == 0
    out = capsys.readouterr().out
    assert out.count(catalog.say("rendered", "en")) >= len(cards), out


def test_a_card_files_unknown_ruleset_is_reported_at_its_key(tmp_path, capsys) -> None:
    path = tmp_path / "cards.yaml"
    path.write_text("# a set\nruleset: kaiju\ncards: []\n", encoding="utf-8")
    assert main(["cards", str(path)]) == 2
    said = capsys.readouterr()
    out = said.out + said.err
    assert f"{path}:2:1: error[NO-RULESET]" in out and "tcg cards RULESET.yaml" in out, out


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_function_the_checker_accepts_is_said_in_words(lang: str, name: str) -> None:
    """Each function of compile/names.py, with its fewest and its most arguments (up to two),
    reads as words in which every argument appears and no code does."""
    low, high = FUNCTIONS[name][:2]
    w = words_for(load_game(str(ROOT / "tests/rulesets/kaiju.yaml")), lang)
    for n in sorted({low, min(high, 2)}):
        args = ["7", "hand(you)"][:n] if n != 1 else ["hand(you)"]
        said = w.render().expr(parse_expr(f"{name}({', '.join(args)})"))
        assert said and f"{name}(" not in said, said
        for arg in args:
            assert w.render().expr(parse_expr(arg)) in said, (said, arg)
