"""`tcg check` of decks and scenarios of any ruleset: a ruleset path is relative to the file
that names it, a ruleset given on the command line serves the files beside it, and a missing
one is reported in the file that names it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.cli import main

TESTS = Path(__file__).resolve().parent


@pytest.fixture
def game(tmp_path: Path, monkeypatch) -> Path:
    """A game that is not bundled: its ruleset, a card set, a decks folder; checked from
    another directory."""
    folder = tmp_path / "mygame"
    (folder / "decks").mkdir(parents=True)
    shutil.copy(TESTS / "rulesets" / "mini.yaml", folder / "rules.yaml")
    shutil.copy(TESTS / "scenarios" / "engine" / "cards.yaml", folder / "cards.yaml")
    monkeypatch.chdir(tmp_path)
    return folder


def _deck(folder: Path, name: str, ruleset: str, cards: str) -> Path:
    path = folder / "decks" / name
    path.write_text(f"ruleset: {ruleset}\nname: {name}\nmain: {{{cards}}}\n", encoding="utf-8")
    return path


def test_a_deck_of_a_ruleset_given_on_the_command_line(game: Path, capsys):
    _deck(game, "a.yaml", "mini", "兵: 3, 霊兵: 1")
    code = main(["check", "mygame/rules.yaml", "mygame/cards.yaml", "mygame/decks"])
    out = capsys.readouterr().out
    assert code == 1 and "NO-RULESET" not in out
    assert "mygame/decks/a.yaml:3:1: error[DECK-SECTION]: unknown deck section 'main'" in out
    assert "the ruleset defines no deck sections" in out


def test_a_ruleset_path_in_a_deck_is_relative_to_the_deck(game: Path, capsys):
    _deck(game, "b.yaml", "../rules.yaml", "兵: 3")
    assert main(["check", "mygame/decks/b.yaml"]) == 1
    out = capsys.readouterr().out
    assert "NO-RULESET" not in out and "error[DECK-SECTION]" in out


def test_a_missing_ruleset_is_reported_in_the_deck_that_names_it(game: Path, capsys):
    _deck(game, "c.yaml", "toro", "兵: 3")
    assert main(["check", "mygame/decks/c.yaml"]) == 1
    out = capsys.readouterr().out
    assert "mygame/decks/c.yaml:1:1: error[NO-RULESET]: no ruleset 'toro': not a file " \
           "beside c.yaml" in out


def test_a_scenario_of_a_ruleset_given_on_the_command_line(game: Path, capsys):
    (game / "s.yaml").write_text(
        "ruleset: mini\nstate:\n  zones:\n    feild@P1: [兵]\n    field@P2: [兵士]\n"
        "expect: {winner: P1}\n", encoding="utf-8")
    assert main(["check", "mygame"]) == 1
    out = capsys.readouterr().out
    assert "mygame/s.yaml:4:5: error[UNKNOWN-ZONE]: unknown zone 'feild' in 'feild@P1'" in out
    assert "mygame/s.yaml:5:16: error[UNKNOWN-CARD]: unknown card '兵士'" in out


def test_the_bundled_scenarios_are_clean(capsys):
    """Every scenario of the bundled games passes the static checks (decisions included: a
    false 'cannot match' would show here)."""
    folders = [p for p in (TESTS / "scenarios").iterdir() if p.is_dir() and p.name != "engine"]
    assert len(folders) >= 5
    assert main(["check", *map(str, folders)]) == 0, capsys.readouterr().out


def test_documents_in_memory_are_checked_together():
    """The checker's entry point for an editor: unsaved texts, a deck with its ruleset."""
    from interpreter.check.files import check_documents
    from interpreter.load.yamlpos import load_text

    rules = load_text((TESTS / "rulesets" / "mini.yaml").read_text(encoding="utf-8"),
                      str(TESTS / "rulesets" / "mini.yaml"))
    scenario = load_text("ruleset: mini\ncards: [../scenarios/engine/cards.yaml]\n"
                         "state:\n  zones:\n    field@P1: [兵士]\n",
                         str(TESTS / "rulesets" / "unsaved.yaml"))
    report = check_documents([rules, scenario])
    assert [(d.path, d.line, d.col, d.code) for d in report.diagnostics] == [
        (scenario.path, 5, 16, "UNKNOWN-CARD")]
