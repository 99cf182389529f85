"""Choices that are not cards (zones, numbers, players, modes) and prompts that say what a
choice is for (issue 27): the questions asked, and `tcg check` on each misuse. The toy game
is tests/rulesets/choose.yaml; its scenarios, tests/scenarios/choose/, play the choices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.engine import picks
from interpreter.engine.observe import observation
from interpreter.engine.state import ZoneRef
from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "tests" / "rulesets" / "choose.yaml"
CARDS = ROOT / "tests" / "cards" / "choose" / "cards.yaml"


def _state(zones: dict, ruleset: Path = RULESET):
    game = load_game(str(ruleset))
    return build_state(game, {"turn_player": "P1", "phase": "main", "zones": zones}, 0)


def _answer(g, text: str) -> None:
    labels = [a.label for a in g.legal_actions()]
    g.apply(next(i for i, label in enumerate(labels) if text in label))


def _question(g) -> tuple[str, list[str]]:
    """The decision's prompt (as the log's `q`) and its options' labels as the chooser sees them."""
    return g.decision.prompt, observation(g, g.decision.player)["options"]


def test_a_lane_choice_asks_its_own_question_naming_the_card():
    g = _state({"hand@P1": ["兵"], "deck@P1": ["兵"], "deck@P2": ["兵"]})
    _answer(g, "play 兵")
    assert _question(g) == ("which lane does 兵#0 go to?", ["left@P1", "middle@P1", "right@P1"])


def test_a_prompt_never_names_a_card_some_player_cannot_see(tmp_path: Path):
    """Without the reveal the card is still in its owner's hand: the question is no secret,
    so it says 'a hidden card' (the chooser sees the card among the options anyway)."""
    hidden = _copy(tmp_path, RULESET.read_text(encoding="utf-8").replace("reveal(card);", ""),
                   CARDS.read_text(encoding="utf-8"))
    g = _state({"hand@P1": ["兵"], "deck@P1": ["兵"], "deck@P2": ["兵"]}, hidden)
    _answer(g, "play 兵")
    assert _question(g)[0] == "which lane does a hidden card go to?"


def test_the_opponent_is_asked_with_the_card_that_asks():
    g = _state({"hand@P1": ["伝令"], "left@P2": ["兵", "伝令"], "deck@P1": ["兵"], "deck@P2": ["兵"]})
    _answer(g, "play 伝令")
    _answer(g, "right@P1")
    assert g.decision.player == 1
    assert _question(g)[0] == "which unit does 伝令#0 weaken?"


@pytest.mark.parametrize("card, question, options", [
    ("二択", "二択: choose one", ["damage(opponent, 2)", "draw a card"]),
    ("魔力解放", "pay how much mana?", ["0", "1", "2", "3"]),
    ("指名", "who draws 2?", ["P1", "P2"]),
])
def test_modes_numbers_and_players_are_offered_by_label(card, question, options):
    g = _state({"hand@P1": [card], "deck@P1": ["兵"], "deck@P2": ["兵"]})
    _answer(g, f"cast {card}")
    assert _question(g) == (question, options)


def test_a_default_prompt_says_what_is_chosen_from(tmp_path: Path):
    """A `choose` with no prompt of its own names its context and where it picks."""
    plain = _copy(tmp_path, RULESET.read_text(encoding="utf-8"), CARDS.read_text(
        encoding="utf-8").replace(' as "which unit does {self} weaken?"', ""))
    g = _state({"hand@P1": ["伝令"], "left@P2": ["兵", "伝令"], "deck@P1": ["兵"], "deck@P2": ["兵"]},
               plain)
    _answer(g, "play 伝令")
    _answer(g, "right@P1")
    assert _question(g)[0] == ("伝令: choose 1 t from union(left(opponent), middle(opponent), "
                               "right(opponent))")


def _copy(tmp: Path, ruleset: str, cards: str) -> Path:
    """A copy of the toy game (its cards in cards/choose/ beside its rulesets/ folder)."""
    (tmp / "rulesets").mkdir()
    (tmp / "cards" / "choose").mkdir(parents=True)
    (tmp / "cards" / "choose" / "cards.yaml").write_text(cards, encoding="utf-8")
    path = tmp / "rulesets" / "choose.yaml"
    path.write_text(ruleset, encoding="utf-8")
    return path


# ---------- tcg check: each misuse, at its position ----------

def _check(tmp_path: Path, effect: str) -> list[tuple[int, int, str, str]]:
    cards = tmp_path / "more.yaml"
    cards.write_text(f"ruleset: choose\ncards:\n  - name: 試し\n    kind: spell\n"
                     f"    effect: '{effect}'\n", encoding="utf-8")
    out = tcg_in_process("check", str(RULESET), str(cards))
    assert out.returncode == 1, out.stdout + out.stderr
    return [(int(m[1]), int(m[2]), m[3], m[4]) for m in
            re.finditer(r"more\.yaml:(\d+):(\d+): error\[([A-Z-]+)\]: (.*)", out.stdout)]


@pytest.mark.parametrize("effect, at, code, message", [
    ("choose zone z from top(deck(you)); move(self, z)", "top(deck", "TYPE",
     "'choose zone' picks from zones(...) or a zone; got cards"),
    ("choose zone z from zones(left(you), right(you)) where count(it); move(self, z)",
     "count(it);", "TYPE", "a 'where' condition must be true or false, got a number"),
    ("choose zone z from hand(you) where cost > 1; move(self, z)", "cost", "UNKNOWN-NAME",
     "'cost' is a card property; say whose"),
    ("choose player p from players where it.power > 1; draw(p)", "it.power", "TYPE",
     "'.power' reads a card; got a player"),
    ("choose zone z from zones(left(you), right(you)); draw(you, z)", "z)", "TYPE",
     "'n' of 'draw' must be a number, got a zone"),
    ('choose number x from 1 to "many"; draw(you, x)', '"many"', "TYPE",
     "'choose number' picks from a number to a number; got a text"),
    ("choose player p from hand(you); draw(p)", "hand", "TYPE",
     "'choose player' picks from players; got a zone"),
    ("choose player p from players; move(self, p)", "p)", "TYPE",
     "'to' of 'move' must be a zone, got a player"),
    ('choose one "a": { draw(you) } or "a": { damage(you, 1) }', '"a": { damage', "DUPLICATE-MODE",
     "two modes read 'a': an answer could not tell them apart"),
    ('choose player p from players as "who gets {nobody}?"; draw(p)', "nobody", "UNKNOWN-NAME",
     "unknown name 'nobody'"),
])
def test_misuse_is_reported_where_it_is(tmp_path: Path, effect, at, code, message):
    [found] = _check(tmp_path, effect)
    # the effect starts at column 14 of line 5 of the card file
    assert found == (5, 14 + effect.index(at), code, message)


def test_a_huge_number_range_offers_a_bounded_number_of_options(tmp_path: Path):
    """`choose number` from 0 to a billion: the lowest MAX_NUMBERS numbers, not a billion."""
    ruleset = _copy(tmp_path, RULESET.read_text(encoding="utf-8"), CARDS.read_text(
        encoding="utf-8").replace("from 0 to you.mana", "from 0 to you.mana * 1000000000"))
    g = _state({"hand@P1": ["魔力解放"], "deck@P1": ["兵"], "deck@P2": ["兵"]}, ruleset)
    _answer(g, "cast 魔力解放")
    options = _question(g)[1]
    assert len(options) == picks.MAX_NUMBERS and options[0] == "0" and options[-1] == "999"


def test_tcg_check_knows_the_labels_of_zones_players_and_modes(tmp_path: Path):
    """A scenario may answer with a zone, a player or a mode; a misspelt one is reported."""
    good = (ROOT / "tests" / "scenarios" / "choose" / "mode_draw.yaml").read_text(encoding="utf-8")
    scenario = tmp_path / "typo.yaml"
    scenario.write_text(good.replace("../../rulesets/choose.yaml", str(RULESET)).replace(
        '"draw a card"]', '"draw a crad", "middle@P2", "P2"]'), encoding="utf-8")
    out = tcg_in_process("check", str(scenario))
    assert out.returncode == 1, out.stdout + out.stderr
    assert re.findall(r"error\[(\w+)\]: (.*)", out.stdout) == [
        ("DECISION", "no option of this game can contain 'draw a crad'")], out.stdout
    assert "did you mean 'draw a card'?" in out.stdout


def test_a_phase_procedure_prompt_names_its_phase(tmp_path: Path):
    """A `choose` in a phase's `do` with no prompt of its own names the phase, as a verb's names
    the verb (not the ruleset's `turn` key)."""
    ruleset = RULESET.read_text(encoding="utf-8").replace(
        'do: "draw(you); change(you, mana, 3 - you.mana)"',
        'do: "choose player p from players; draw(p); change(you, mana, 3 - you.mana)"')
    game = load_game(str(_copy(tmp_path, ruleset, CARDS.read_text(encoding="utf-8"))))
    g = build_state(game, {"turn_player": "P1", "phase": "draw",
                           "zones": {"deck@P1": ["兵", "兵"], "deck@P2": ["兵"]}}, 0)
    assert _question(g) == ("draw: choose player p from players", ["P1", "P2"])


@pytest.mark.parametrize("p2_life, options", [(5, ["P1", "P2"]), (10, None)])
def test_a_where_narrows_the_players_offered(tmp_path: Path, p2_life: int, options):
    """`players where it.life < 10`: only the players it holds for are offered (one left:
    it is taken without a question)."""
    cards = CARDS.read_text(encoding="utf-8").replace(
        "from players as", "from players where it.life < 10 as")
    g = _state({"hand@P1": ["指名"], "deck@P1": ["兵", "兵"], "deck@P2": ["兵", "兵"]},
               _copy(tmp_path, RULESET.read_text(encoding="utf-8"), cards))
    g.res[0]["life"], g.res[1]["life"] = 5, p2_life
    _answer(g, "cast 指名")
    if options:
        assert _question(g) == ("who draws 2?", options)
    else:
        assert len(g.zones[ZoneRef("hand", 0)]) == 2 and len(g.zones[ZoneRef("hand", 1)]) == 0


def test_a_prompt_naming_variables_is_worded_when_read_and_a_copy_keeps_its_words():
    """A prompt that names variables (UCB's "which character blocks {card}?") is put in words
    when read, not at every ask; a copy of the state (a search world, a replay snapshot) holds
    the words of the moment it was copied, whatever the original does next."""
    import random

    import interpreter

    game = interpreter.load_game("ucb")
    state = game.new_state(interpreter.default_decks(game), 3)
    rng, copies = random.Random(1), []
    while not state.is_over and len(copies) < 5:
        d = state.decision
        if type(d[3]) is not str:
            copy = state.clone()
            assert type(copy.decision[3]) is str and copy.decision.prompt == d.prompt
            assert "{" not in d.prompt and ("blocks" in d.prompt or "pay" in d.prompt), d.prompt
            copies.append((copy, d.prompt))
        state.apply(rng.randrange(len(d.options)))
    assert len(copies) == 5
    assert all(copy.decision.prompt == words for copy, words in copies)
