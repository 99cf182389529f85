"""Seed rules that are about the match as a whole rather than one situation, checked on a
played match: each test quotes the seed's words and names the rule's section."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

import interpreter
from interpreter.check.decks import check_deck
from interpreter.check.files import check_paths
from interpreter.engine.observe import observation
from interpreter.load.files import load_deck

ROOT = Path(__file__).parent.parent


def _turns(name: str, seed: int = 0, turns: int = 8) -> list[tuple[int, dict, dict]]:
    """The turn player at each new turn of a random match, with what each seat sees of the
    resources then."""
    game = interpreter.load_game(name)
    g = game.new_state(interpreter.default_decks(game), seed, log=False)
    rng = random.Random(seed)
    seen: list[tuple[int, dict, dict]] = []
    while not g.is_over and len(seen) < turns:
        if not seen or seen[-1][0] != g.turn_player:
            seen.append((g.turn_player, observation(g, 0)["resources"], observation(g, 1)["resources"]))
        g.apply(rng.randrange(len(g.legal_actions())))
    assert len(g.players) == 2
    return seen


def test_dannokomachi_two_players_take_turns():
    """だんのこまちTCG 1.0.1 「二人用の対戦ゲーム」; 1.2.1–1.2.2 「ターンプレイヤーとは、現在進行中の
    ターンのプレイヤー」 / 「相手プレイヤーは自分ではないもう一方のプレイヤー」: two seats, and the
    turn player is each of them in turn."""
    seen = _turns("dannokomachi")
    assert [p for p, _, _ in seen] == [0, 1] * 4


def test_dannokomachi_unused_cost_is_public():
    """だんのこまちTCG 1.5.4a 「未使用コストに残っている消費していないコストは常に全てのプレイヤーに
    公開されている」: both seats see both players' unused cost, and see the same numbers."""
    seen = _turns("dannokomachi")
    assert any(mine["P1"]["pool"] > 0 and mine["P2"]["pool"] > 0 for _, mine, _ in seen)
    for _, first, second in seen:
        assert first["P1"]["pool"] == second["P1"]["pool"]
        assert first["P2"]["pool"] == second["P2"]["pool"]


HALF = """ruleset: dannokomachi
cards:
  - name: 半端
    kind: character
    attack: {attack}
    hp: 4
    text: 「攻撃時」あなたはコストを{gain}つ獲得する。
    abilities:
      - "when on_attack where self in attacker: gain_cost(you, {gain})"
"""


def test_dannokomachi_only_whole_numbers(tmp_path):
    """だんのこまちTCG 1.6.1 / 1.6.1a 「このゲームでは整数だけを用いる」 / 「分数や少数を選択したり…
    することはできない」: a card with a fraction, as a printed number or in its effect, is rejected
    by `tcg check`, the same card with whole numbers is not."""
    path = tmp_path / "cards.yaml"
    path.write_text(HALF.format(attack=1, gain=1), "utf-8")
    assert [d.code for d in check_paths([path]).diagnostics] == []
    path.write_text(HALF.format(attack=1.5, gain=1.5), "utf-8")
    assert sorted(d.code for d in check_paths([path]).diagnostics) == ["SYNTAX", "TYPE"]


def test_dannokomachi_card_means_a_card_of_this_game(tmp_path):
    """だんのこまちTCG 1.7.1 「ルールや文章に「カード」と記されていた場合、だんのこまちTCGのカードを
    指します」: a deck holding another game's card (巫カードゲーム's 春の小径) is not a legal deck."""
    game = interpreter.load_game("dannokomachi")
    deck = yaml.safe_load((ROOT / "cards/dannokomachi/decks/anko.yaml").read_text("utf-8"))
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(deck, allow_unicode=True), "utf-8")
    assert [d.code for d in check_deck(game, load_deck(path))] == []
    deck["main"] = {**deck["main"], "煙玉": 1, "春の小径": 1}
    path.write_text(yaml.safe_dump(deck, allow_unicode=True), "utf-8")
    assert [d.code for d in check_deck(game, load_deck(path))] == ["UNKNOWN-CARD"]


ULTIMATE_CARD = """ruleset: ultimate
cards:
  - {{name: 試し, rank: "3", number: 3, monster: true, text: x, abilities: ["{ability}"]}}
"""


@pytest.mark.parametrize(("ability", "code"), [
    # NO-TURN-END 「相手のターンを終了させる効果は…他のカードはなしとする…ターンスキップもなしとする」
    ("when summon where self in card: may { end_turn(opponent) }", "UNKNOWN-VERB"),
    ("when summon where self in card: may { skip_turn(opponent) }", "UNKNOWN-VERB"),
    # NO-GAINED-ABILITIES 「『〜次の効果を得る』系の能力に派生するのはなしとする」
    ("when summon where self in card: may { gain_ability(self, 「when attack: draw(you, 1)」) }",
     "UNKNOWN-VERB"),
    # SUITS-NO-RULE 「スペード、ダイヤ、ハート、クローバーのマークは基本はゲームルールに関係なしとする」
    ("static: (battle(you) where suit == spade).number += 1", "UNKNOWN-NAME"),
    # FIELD-WORDS 「場は…を差し、バトルフィールドはバトルフィールドのみを表す語」: texts name the zone
    ("when summon where self in card: may { choose up to 1 t from field(opponent); tire(t) }",
     "UNKNOWN-FUNCTION"),
    # ONE-OUTSIDE-FIELD / DECK-TOP-SUMMON: a summon has no destination but the battle field
    ("when summon where self in card: may { summon(self, mana(you)) }", "ARITY"),
])
def test_ultimate_texts_cannot_write_what_the_list_forbids(tmp_path, ability, code):
    """アルティメット・ゲーム 禁止項目: what the list forbids and the ruleset has no words for is
    rejected by `tcg check` when a card text tries it; a text the ruleset has words for is not."""
    path = tmp_path / "cards.yaml"
    path.write_text(ULTIMATE_CARD.format(ability="when summon where self in card: may { draw(you, 1) }"),
                    "utf-8")
    assert [d.code for d in check_paths([path]).diagnostics] == []
    path.write_text(ULTIMATE_CARD.format(ability=ability), "utf-8")
    assert code in [d.code for d in check_paths([path]).diagnostics]
