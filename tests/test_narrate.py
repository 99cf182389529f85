"""The account of a match (run/narrate.py): a verb marked `quiet` is not narrated, and its
event stays in the log."""

from __future__ import annotations

import os
import random
from pathlib import Path

import yaml

import interpreter
from interpreter.load import files
from interpreter.load.yamlpos import load_yaml
from interpreter.run.narrate import Narrator

ROOT = Path(__file__).resolve().parents[1]


def _ucb(tmp_path: Path, quiet: bool) -> interpreter.Game:
    """UCB, with its `draw` verb marked quiet or not (its cards and decks are the bundled ones)."""
    (tmp_path / "rulesets").mkdir()
    os.symlink(ROOT / "cards", tmp_path / "cards")
    data = load_yaml(files.RULESETS / "ucb.yaml").data
    data["verbs"]["draw"]["quiet"] = quiet
    path = tmp_path / "rulesets" / "ucb.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return interpreter.load_game(str(path))


def _account(game: interpreter.Game) -> tuple[list[dict], list[str]]:
    state = game.new_state(interpreter.default_decks(game), seed=3, log=True)
    rng = random.Random(3)
    for _ in range(200):
        if state.is_over:
            break
        state.apply(rng.randrange(len(state.legal_actions())))
    narrator = Narrator(game, lang="en")
    lines = [narrator.line(r) for r in state.log]
    return state.log, [line for line in lines if line is not None]


def test_a_quiet_verb_is_not_narrated_but_logged(tmp_path: Path):
    log, lines = _account(_ucb(tmp_path, quiet=True))
    assert any(r.get("e") == "draw" for r in log)
    assert not any(": draw " in line for line in lines), lines
    assert any(": pay " in line for line in lines)  # the other verbs are still told


def test_a_verb_is_narrated_unless_quiet(tmp_path: Path):
    _, lines = _account(_ucb(tmp_path, quiet=False))
    assert any(": draw " in line for line in lines), lines


def test_the_account_says_yes_no_and_none_in_words_never_python_values():
    # (issue 35: `fight([a], [b], True)` in the account of a UCB match)
    narrator = Narrator(interpreter.load_game("ucb"), lang="en")
    line = narrator.line({"e": "fight", "attacker": ["見習い剣士#1"], "blocker": ["石の番人#4"],
                          "first": True, "last": False, "target": None})
    assert line is not None and "見習い剣士#1" in line, line
    assert "True" not in line and "None" not in line and "False" not in line, line


KAIJU = ROOT / "tests" / "rulesets" / "kaiju.yaml"
ATTACK = {"e": "attack", "card": "ヒノコ#0", "player": "P1", "ability": [0, 1]}


def test_the_account_names_the_ability_an_action_used():
    """The option read `attack with ヒノコ#0 [ふんか]`: the account says ふんか too."""
    narrator = Narrator(interpreter.load_game(str(KAIJU)), lang="en")
    assert narrator.line(ATTACK) == "    P1: attack with ヒノコ#0: ふんか"
    assert narrator.line({**ATTACK, "ability": None}) == "    P1: attack with ヒノコ#0"


def test_an_action_phrase_may_place_the_ability(tmp_path: Path):
    data = load_yaml(KAIJU).data
    data.setdefault("phrases", {}).setdefault("actions", {})["attack"] = {
        "en": "{card} uses {ability}", "ja": "{card}の{ability}"}
    (tmp_path / "rulesets").mkdir()
    os.symlink(ROOT / "tests" / "cards", tmp_path / "cards")
    path = tmp_path / "rulesets" / "kaiju.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    game = interpreter.load_game(str(path))  # (no E-PHRASE: {ability} is something it shows)
    assert Narrator(game, lang="en").line(ATTACK) == "    P1: ヒノコ#0 uses ふんか"
    assert Narrator(game, lang="ja").line(ATTACK) == "    P1：ヒノコ#0のふんか"
