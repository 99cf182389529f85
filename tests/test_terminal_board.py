"""The terminal shows the board as the table does (issue 33): what is left of a resource,
no internal resources, a used (face-down) UCB mana token told from a fresh one; and a
multi-pick keeps its numbers as cards are picked."""

from __future__ import annotations

import random
import re

from interpreter.agents.basic import HumanAgent
from interpreter.cli import main
from interpreter.run.narrate import board


def _obs(options: list[str], chosen: list[int] | None = None, **extra) -> dict:
    obs = {"turn": 1, "turn_player": "P1", "phase": "main", "you": "P1",
           "resources": {"P1": {"mana": 2, "streak": 0}}, "zones": {"hand@P1": []},
           "said": {"lang": "en", "names": {"mana": "mana"}, "options": options,
                    "board": {"flags": [], "internal": ["streak"], "max": {"mana": 5}}}, **extra}
    if chosen:
        obs["chosen"] = chosen
    return obs


def test_the_board_shows_what_is_left_and_hides_internal_resources() -> None:
    text = board(_obs([]))
    assert "mana 2 of 5 left" in text
    assert "streak" not in text


def test_a_used_ucb_mana_token_is_not_shown_as_a_fresh_one(capsys, monkeypatch) -> None:
    """UCB's マナトークンルール: a used token turns face down and stays in the mana area."""
    rng = random.Random(7)
    monkeypatch.setattr("builtins.input", lambda prompt="": str(rng.randrange(3)))
    assert main(["play", "ucb", "--agents", "human,random", "--lang", "ja", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    tokens = re.findall(r"マナトークン#\d+ \[([^\]]*)\]", out)
    assert "種類 トークン, 裏向き" in tokens and "種類 トークン" in tokens


def test_a_multi_pick_keeps_its_numbers(capsys, monkeypatch) -> None:
    agent = HumanAgent(stable=True)
    answers = iter(["1", "1", "2"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert agent.choose(_obs(["a#1", "b#2", "c#3"]), ["a", "b", "c"]) == 1
    capsys.readouterr()
    # b#2 picked: the others keep their numbers; 1 is taken, 2 is still c#3
    assert agent.choose(_obs(["a#1", "c#3"], chosen=[2]), ["a", "c"]) == 1
    out, err = capsys.readouterr()
    assert "  [0] a#1" in out and "  [2] c#3" in out and "[1]" not in out
    assert "[1] is already chosen" in err


def test_a_new_question_numbers_from_zero_again(capsys, monkeypatch) -> None:
    agent = HumanAgent(stable=True)
    monkeypatch.setattr("builtins.input", lambda prompt="": "0")
    agent.choose(_obs(["a#1", "b#2"]), ["a", "b"])
    agent.choose(_obs(["x#5", "y#6"]), ["x", "y"])  # (nothing chosen: another question)
    assert "  [0] x#5" in capsys.readouterr().out
