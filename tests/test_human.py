"""The terminal human agent and the narration a human reads (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.agents.basic import Concede, HumanAgent
from interpreter.engine.state import visible
from interpreter.run.loading import load_game
from interpreter.run.match import read_log, resolve_decks
from tests.conftest import bundled_rulesets
from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parent.parent
OBS = {"you": "P1", "turn": 1, "turn_player": "P1", "phase": "main", "question": "main phase: act",
       "resources": {"P1": {"life": 30}, "P2": {"life": 28}},
       "zones": {"hand@P1": [{"id": 7, "name": "炎の剣士", "power": 4,
                              "text": "場に出た時、カードを1枚引く。",
                              "abilities": ["when summon where card == self: draw(you, 1)"]}],
                 "hand@P2": [{"hidden": True}]}}


def ask(monkeypatch, capsys, answers: list[str], options=("play 炎の剣士#7", "pass")) -> tuple[int, str]:
    feed = iter(answers)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    choice = HumanAgent().choose(OBS, list(options))
    out = capsys.readouterr()
    return choice, out.out + out.err


@pytest.mark.parametrize("typed, index", [("1", 1), ("①", 1), ("１", 1), (" 0 ", 0), ("０", 0)])
def test_digits_of_any_width_choose(monkeypatch, capsys, typed, index):
    assert ask(monkeypatch, capsys, [typed])[0] == index


def test_anything_else_is_asked_again(monkeypatch, capsys):
    typed = ["", "abc", "2", "-1", "1.0", "٣", "⑳", "9" * 5000, "\x00", "?", "?x", "1"]
    choice, out = ask(monkeypatch, capsys, typed)
    assert choice == 1
    assert out.count("type a number from 0 to 1") == len(typed) - 1


def test_the_question_resources_and_card_text_are_shown(monkeypatch, capsys):
    choice, out = ask(monkeypatch, capsys, ["?7", "?#9", "0"])
    assert "main phase: act:" in out and "[0] play 炎の剣士#7" in out
    assert "P1 life 30; P2 life 28" in out
    assert "炎の剣士#7 in hand@P1" in out and "power: 4" in out and "カードを1枚引く" in out
    assert "no card #9 that you can see" in out
    assert choice == 0


def test_concede_and_closed_input(monkeypatch, capsys):
    with pytest.raises(Concede):
        ask(monkeypatch, capsys, ["concede"])
    from interpreter.diagnostics import TcgError
    with pytest.raises(TcgError, match="input closed"):
        ask(monkeypatch, capsys, [])


def test_a_match_in_the_terminal_survives_any_input():
    junk = "".join(f"{x}\n" for x in ["①", "?3", "x", "", "３", "?", "0"] * 400)
    r = tcg("play", "ucb", "--agents", "human,random", "--seed", "5", "--turns", "6", stdin=junk)
    assert r.returncode == 0, r.stderr[-500:]
    assert "result:" in r.stdout and "internal error" not in r.stderr


def test_face_down_cards_are_not_named_to_the_other_player():
    """Kannagi's possessions go face down; だんのこまち's characters are set face down and
    shown at game start: the opponent's narration names neither before it may."""
    r = tcg("play", "kannagi", "--agents", "human,random", "--seed", "3", "--lang", "en",
            stdin="0\n" * 3000)
    assert "a card goes from P2's hand to possessions" in r.stdout
    assert not re.search(r"#\d+ goes from P2's hand to possessions", r.stdout)
    r = tcg("play", "dannokomachi", "--agents", "random,human", "--seed", "3", "--turns", "2",
            "--lang", "en", stdin="0\n" * 3000)
    before = r.stdout[: r.stdout.index("P2 (choose your main character")]
    assert "a card goes from P1's character deck to main character" in before
    assert not re.search(r"#\d+ goes from P1's character deck to (main|sub)", before)


@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_the_terminal_never_names_a_card_the_human_has_not_seen(tmp_path, ruleset):
    """`tcg play` with a human: everything printed before the human's k-th answer (the account,
    the board, the options) names only cards the human could see by then (issue 23)."""
    log = tmp_path / "m.jsonl"
    r = tcg("play", ruleset, "--agents", "human,random", "--seed", "4", "--turns", "6",
            "--log", str(log), stdin="0\n" * 3000)
    assert r.returncode == 0, r.stderr[-500:]
    segments = r.stdout.split("\n> ")  # the input prompt ends what the human read before answering
    allowed = seen_before_each_answer(log, human=0)
    assert len(segments) == len(allowed)
    for k, (text, ids) in enumerate(zip(segments, allowed, strict=True)):
        named = {int(n) for n in re.findall(r"#(\d+)", text)}
        assert named <= ids, f"before answer {k}: cards never seen: {sorted(named - ids)}"


def seen_before_each_answer(log: Path, human: int) -> list[set[int]]:
    """The cards `human` had seen by each of its answers (and by the end): re-run the log."""
    _lines, setup, script = read_log(log)
    game = load_game(setup.ruleset)
    decks = [d.sections for d in resolve_decks(game, setup.ruleset, setup.decks)]
    g = game.new_state(decks, setup.seed, log=True, turns=setup.turns)
    seen: set[int] = set()
    out, read = [], 0
    me = f"P{human + 1}"
    for step in [*script, None]:
        seen |= {c for c in range(len(g.defs)) if visible(g, c, human)}
        for rec in (g.log or [])[read:]:  # shown between two decisions
            if rec.get("e") == "revealed" or (rec.get("e") == "looked" and rec["player"] == me):
                seen |= {int(str(c).rpartition("#")[2]) for c in rec["cards"]}
        read = len(g.log or [])
        if step is None or g.decision.player == human:
            out.append(set(seen))
        if step is not None:
            g.apply(step)
    return out
