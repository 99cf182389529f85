"""A long card set re-checked a card at a time (interpreter/lsp/incremental.py) says what
`tcg check`'s whole check says, after every kind of edit; and an edit of one card checks
that card alone."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from interpreter.check import files as check_files
from interpreter.check.files import Known, check_text
from interpreter.lsp import incremental
from interpreter.lsp.incremental import CardSets, split

ROOT = Path(__file__).resolve().parents[1]
PATH = str(ROOT / "unsaved-cards.yaml")


def _cards(n: int) -> str:
    bundled = []
    for name in ("characters", "spells"):
        bundled += yaml.safe_load((ROOT / "cards" / "ucb" / f"{name}.yaml").read_text("utf-8"))["cards"]
    many = [{**copy.deepcopy(bundled[i % len(bundled)]), "name": f"{bundled[i % len(bundled)]['name']}{i}"}
            for i in range(n)]  # (copies: shared lists would be written as YAML aliases)
    return yaml.safe_dump({"ruleset": "ucb", "cards": many}, allow_unicode=True, sort_keys=False, width=1000)


TEXT = _cards(120)
FIRST = yaml.safe_load(TEXT)["cards"][3]["name"]
EDITS = {
    "an unknown verb": lambda t: t.replace("draw(you, 1)", "drow(you, 1)", 1),
    "mended": lambda t: t,
    "an unknown key": lambda t: t.replace("  cost: 2\n", "  cost: 2\n  bogus: 1\n", 1),
    "a wrong value": lambda t: t.replace("  cost: 2\n", "  cost: many\n", 1),
    "a card renamed": lambda t: t.replace(f"name: {FIRST}\n", f"name: {FIRST}x\n", 1),
    "a name defined twice": lambda t: t.replace(f"name: {FIRST}\n", "name: ちびスライム0\n", 1),
    "a card without a name": lambda t: t.replace(f"- name: {FIRST}\n  ", "- ", 1),
    "not YAML": lambda t: t.replace("  cost: 2\n", "  cost: [2\n", 1),
    "a card added": lambda t: t + "- name: new\n  kind: character\n  cost: 1\n  power: 1\n  bogus: 3\n",
    "a card removed": lambda t: t.split("\n- name:", 1)[0] + "\n- name:" + t.split("\n- name:", 2)[2],
    "lines added above": lambda t: t.replace("cards:\n", "cards:\n# a note\n\n", 1),
    "a header key": lambda t: "bogus: 1\n" + t,
    "a key after the list": lambda t: t + "extra: 1\n",
}


def _same(a, b) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


@pytest.fixture(scope="module")
def sets() -> CardSets:
    cards = CardSets()
    cards.check(PATH, TEXT, Known())
    return cards


@pytest.mark.parametrize("edit", list(EDITS))
def test_each_edit_says_what_the_whole_check_says(sets, edit):
    text = EDITS[edit](TEXT)
    assert text != TEXT or edit == "mended"
    whole = check_text(PATH, text, Known()).diagnostics
    assert _same(sets.check(PATH, text, Known()).diagnostics, whole)
    silent = ("mended", "lines added above", "a card removed", "a card renamed")
    assert edit in silent or whole  # (the others must say something)


def test_an_edit_of_one_card_checks_that_card_alone(monkeypatch):
    cards = CardSets()
    cards.check(PATH, TEXT, Known())
    checked: list[str] = []
    real = check_files.check_text

    def spy(path, text, known):
        checked.append(text)
        return real(path, text, known)

    monkeypatch.setattr(incremental, "check_text", spy)
    edited = EDITS["an unknown verb"](TEXT)
    found = cards.check(PATH, edited, Known()).diagnostics
    assert [d.code for d in found] == ["UNKNOWN-VERB"]
    assert len(checked) == 1 and len(checked[0]) < len(TEXT) / 20  # the header and one card


def test_files_of_another_shape_are_checked_whole():
    assert split(TEXT) is not None
    assert split(TEXT + "extra: 1\n") is None
    assert split(TEXT.replace("cards:\n", "cards: &all\n", 1)) is None
    assert split("ruleset: ucb\ncards: []\n") is None
