"""`tcg cards` on the card sets of a game that is not bundled (a ruleset given as `tcg check`
takes it) and on every function the checker accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.words import catalog

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
