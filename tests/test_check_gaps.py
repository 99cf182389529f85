"""Checker gaps found while putting the games in words (issue 33 item 6): a misspelt card
name in a comparison, a printed number outside its property's bounds."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _game(tmp_path: Path, cards: str) -> list[str]:
    (tmp_path / "rulesets").mkdir()
    shutil.copy(ROOT / "rulesets/ucb.yaml", tmp_path / "rulesets/ucb.yaml")
    shutil.copytree(ROOT / "cards/ucb", tmp_path / "cards/ucb")
    if cards:
        (tmp_path / "cards/ucb/gaps.yaml").write_text("ruleset: ucb\ncards:\n" + cards,
                                                     encoding="utf-8")
    return [str(tmp_path / "rulesets/ucb.yaml"), str(tmp_path / "cards/ucb")]


def test_a_misspelt_card_name_in_a_comparison_is_an_error(tmp_path, capsys) -> None:
    paths = _game(tmp_path, '''  - name: 誤字の騎士
    kind: character
    abilities:
      - "static: (battle(you) where name == 「見習い剣志」).power += 1"
      - "when summon where card.name != 「見習い剣士」: draw(you, 1)"
''')
    assert main(["check", *paths]) == 1
    out = capsys.readouterr().out
    assert out.count("error[UNKNOWN-CARD]") == 1  # (見習い剣士 is a card: no error)
    assert "'見習い剣志'" in out and "did you mean '見習い剣士'?" in out


def test_a_printed_number_below_its_bound_is_not_accepted_silently(tmp_path, capsys) -> None:
    """(a warning: a value out of bounds is read clamped, which a ruleset may mean)"""
    paths = _game(tmp_path, '''  - name: 負の騎士
    kind: character
    cost: -1
''')
    main(["check", *paths])
    out = capsys.readouterr().out
    assert "gaps.yaml:5:11: warning[OUT-OF-RANGE]: 'cost' is -1" in out
    assert "(min 0): it reads as 0" in out


def test_a_duplicate_cards_copy_is_checked_too(tmp_path, capsys) -> None:
    paths = _game(tmp_path, '''  - name: 丁
    kind: character
    abilities: ["when summon: drow(you, 1)"]
  - name: 丁
    kind: character
    abilities: ["when summon: drew(you, 1)"]
''')
    assert main(["check", *paths]) == 1
    out = capsys.readouterr().out
    assert "error[DUPLICATE-CARD]" in out
    assert "unknown verb 'drow'" in out and "unknown verb 'drew'" in out


def test_a_rulesets_schema_problem_does_not_hide_its_other_problems(tmp_path, capsys) -> None:
    paths = _game(tmp_path, "")
    ruleset = Path(paths[0])
    text = ruleset.read_text(encoding="utf-8")
    text = text.replace("players: 2\n", "players: two\n").replace('do: "set(card, tapped)"',
                                                                  'do: "sett(card, tapped)"')
    ruleset.write_text(text, encoding="utf-8")
    assert main(["check", str(ruleset)]) == 1
    out = capsys.readouterr().out
    assert "error[SCHEMA]: players must be an integer" in out
    assert "error[UNKNOWN-VERB]: unknown verb 'sett'" in out
