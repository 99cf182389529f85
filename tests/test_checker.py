"""The checker and compiler agree on meaning; what they accept runs as written."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from interpreter.check.effects import EffectChecker
from interpreter.compile.names import ruleset_names
from interpreter.compile.stmts import StmtCompiler
from interpreter.engine import vm
from interpreter.engine.state import Frame, ZoneRef
from interpreter.lang.parser import parse_ability, parse_body
from interpreter.run.loading import load_game
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parents[1]
GAME = load_game("ucb")
NAMES = ruleset_names(GAME.ruleset.raw)


def problems(text: str, ability: bool = False) -> list[str]:
    checker = EffectChecker(NAMES, set())
    found = checker.ability(parse_ability(text)) if ability else checker.body(parse_body(text))
    return [p.code for p in found]


def run_body(text: str, ucb_decks):
    checker = EffectChecker(NAMES, set())
    tree = parse_body(text)
    assert not checker.body(tree)
    compiler = StmtCompiler(NAMES)
    compiler.words = checker.words
    g = GAME.new_state(ucb_decks, 1, log=False)
    g.decision = None
    g.frames = [Frame(compiler.body(tree), vm.effect_env(g, None, 0), "effect")]
    vm.run(g)
    return g


@pytest.mark.parametrize("text, code", [
    ("if reversed { draw(you, 1) }", "TYPE"),            # a state name outside 'where' is text
    ("choose 1 t from battle(you) where kind; tap(t)", "TYPE"),
    ("draw(you, \"two\")", "TYPE"),
    ("count(hand(you))", "NOT-A-STATEMENT"),
    ("put_on(top(hand(you)), self)", "NO-BENEATH-ZONE"),  # (ucb holds no cards beneath)
    ("move(self, hand)", "ZONE-OWNER"),
    ("self.power += 1 until end of game", "DURATION"),
])
def test_bodies_with_one_problem(text: str, code: str):
    assert problems(text) == [code]


@pytest.mark.parametrize("text, code", [
    ("static: self.power += 1 until end of turn", "DURATION"),
    ("can destroy where self in target", "UNKNOWN-ACTION"),      # `can` lifts actions or rules
    ("cannot same_name where card == self", "UNKNOWN-ACTION"),   # `cannot` names actions or verbs
    ("when lookd: draw(you, 1)", "UNKNOWN-EVENT"),
])
def test_abilities_with_one_problem(text: str, code: str):
    assert problems(text, ability=True) == [code]


@pytest.mark.parametrize("text", [
    "can same_name where card.group == 「スライム」",
    "cannot destroy where self in target",
    "when looked where player == you: draw(you, 1)",
    "activate cost { tap(self) } where exists(hand(you)): draw(you, 1)",
])
def test_clean_abilities(text: str):
    assert problems(text, ability=True) == []


def test_a_variable_is_not_read_as_a_word(ucb_decks):
    g = run_body('let f = "down"; flip(mana(you), f)', ucb_decks)
    assert not any(g.face[c] for c in g.zones[ZoneRef("mana", 0)])
    g = run_body("flip(mana(you), down); flip(mana(you), up)", ucb_decks)
    assert all(g.face[c] for c in g.zones[ZoneRef("mana", 0)])


def test_block_text_positions_point_at_the_offending_word(tmp_path: Path):
    path = tmp_path / "cards.yaml"
    path.write_text("ruleset: ucb\ncards:\n  - name: 段落\n    kind: spell\n    effect: |\n"
                    "      draw(you, 1);\n        drow(you, 1)\n", encoding="utf-8")
    r = tcg_in_process("check", str(path))
    assert f"{path}:7:9: error[UNKNOWN-VERB]" in r.stdout, r.stdout


def test_replay_of_a_missing_or_foreign_file(tmp_path: Path):
    def replay(p: Path) -> subprocess.CompletedProcess:
        return tcg_in_process("replay", str(p))

    r = replay(tmp_path / "none.jsonl")
    assert r.returncode == 2 and "cannot read" in r.stderr
    foreign = tmp_path / "x.jsonl"
    foreign.write_text('{"hello": 1}\n', encoding="utf-8")
    r = replay(foreign)
    assert r.returncode == 1 and "not a tcg log" in r.stdout


def test_a_named_filter_candidate_is_visible_inside_nested_filters(ucb_decks):
    from collections import Counter

    from interpreter.compile.exprs import ExprCompiler
    from interpreter.lang.parser import parse_expr

    text = "hand(you) as c where count(hand(you) where name == c.name) > 1"
    assert EffectChecker(NAMES, set()).expr(parse_expr(text)) == []
    fn = ExprCompiler(NAMES).compile(parse_expr(text))
    g = GAME.new_state(ucb_decks, 2, log=False)
    hand = g.zones[ZoneRef("hand", 0)]
    names = Counter(g.defs[c].name for c in hand)
    assert fn(g, vm.effect_env(g, None, 0)) == tuple(c for c in hand if names[g.defs[c].name] > 1)
    # outside its condition the name is unknown again
    assert problems("let x = hand(you) as c where c.cost > 1; draw(you, c.cost)") == ["UNKNOWN-NAME"]
