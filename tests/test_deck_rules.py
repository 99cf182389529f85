"""Deck legality as data, for every game through the same rules: sizes, copies across sections,
banned and restricted lists, counted rules, per-group limits (unique names, one text per
rank), distinct-name counts, property totals (level-sum limits) and rules limited to sections."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.check.decks import check_deck
from interpreter.load.files import load_deck
from interpreter.run.loading import load_game

TESTS = Path(__file__).parent

MINI_DECK_RULES = """
deck:
  sections:
    main: {zone: deck, min: 4}
    side: {zone: hand, max: 4}
  copies: {max: 3}
  banned: [一斉]
  restricted: {霊: 1}
  rules:
    - id: UNIQUE-SIDE
      where: "true"
      sections: [side]
      per: name
      max: 1
      message: "side cards have unique names"
    - id: SPIRIT-POWER
      where: "kind == spirit"
      total: power
      max: 4
      message: "spirits' power adds up to 4 at most"
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory) -> str:
    root = tmp_path_factory.mktemp("game")
    (root / "rulesets").mkdir()
    (root / "cards" / "mini").mkdir(parents=True)
    text = (TESTS / "rulesets" / "mini.yaml").read_text("utf-8") + MINI_DECK_RULES
    (root / "rulesets" / "mini.yaml").write_text(text, "utf-8")
    shutil.copy(TESTS / "scenarios" / "engine" / "cards.yaml", root / "cards" / "mini" / "cards.yaml")
    return str(root / "rulesets" / "mini.yaml")


def _codes(game, tmp_path: Path, deck: dict) -> list[str]:
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(deck, allow_unicode=True), "utf-8")
    return sorted(d.code for d in check_deck(game, load_deck(path)))


def test_mini_legal_deck(mini, tmp_path):
    game = load_game(mini)
    deck = {"ruleset": "mini", "main": {"兵": 3, "霊": 1, "強霊": 1}, "side": {"号令": 1, "速兵": 1}}
    assert _codes(game, tmp_path, deck) == []


@pytest.mark.parametrize(("change", "code"), [
    ({"side": {"号令": 2}}, "DECK-UNIQUE-SIDE"),          # unique-name pool, only in `side`
    ({"main": {"兵": 3, "強霊": 2}}, "DECK-SPIRIT-POWER"),  # 3 + 3 > 4: a level-sum limit
    ({"main": {"兵": 3, "霊": 2}}, "DECK-COPIES"),          # restricted to 1
    ({"main": {"兵": 3, "一斉": 1}}, "DECK-COPIES"),        # banned
    ({"main": {"兵": 2, "霊": 1}, "side": {"兵": 2}}, "DECK-COPIES"),  # 4 copies across sections
    ({"main": {"兵": 3}}, "DECK-SIZE"),
])
def test_mini_illegal_deck(mini, tmp_path, change, code):
    game = load_game(mini)
    deck = {"ruleset": "mini", "main": {"兵": 3, "霊": 1, "強霊": 1}, "side": {"号令": 1}, **change}
    assert code in _codes(game, tmp_path, deck)


def test_unique_pool_counts_only_its_section(mini, tmp_path):
    game = load_game(mini)
    # 兵 twice in main and once in side: the pool of unique names is the side section only
    deck = {"ruleset": "mini", "main": {"兵": 2, "霊": 1, "強霊": 1}, "side": {"兵": 1, "号令": 1}}
    assert _codes(game, tmp_path, deck) == []


ULTIMATE = {"見習い騎士": 4, "墓守の斥候": 4, "盾の番兵": 4, "角笛の呼び子": 4, "氷の魔導士": 4,
            "弓騎兵": 4, "炎の剣士": 4, "略奪者": 4, "大地の巨人": 4, "竜王": 2, "赤のジョーカー": 1,
            "黒のジョーカー": 1}


def test_ultimate_deck_rules(tmp_path):
    game = load_game("ultimate")
    assert _codes(game, tmp_path, {"ruleset": "ultimate", "main": ULTIMATE}) == []  # two different jokers
    three_jokers = {**ULTIMATE, "竜王": 1, "白のジョーカー": 1}
    assert _codes(game, tmp_path, {"ruleset": "ultimate", "main": three_jokers}) == ["DECK-JOKERS"]
    two_texts = {**ULTIMATE, "盾の番兵": 2, "槍兵": 2}  # two texts for the rank 3
    assert _codes(game, tmp_path, {"ruleset": "ultimate", "main": two_texts}) == ["DECK-ONE-TEXT-PER-RANK"]
    five = {**ULTIMATE, "竜王": 1, "盾の番兵": 5}
    assert _codes(game, tmp_path, {"ruleset": "ultimate", "main": five}) == ["DECK-COPIES"]
    short = {**ULTIMATE, "竜王": 1}
    assert _codes(game, tmp_path, {"ruleset": "ultimate", "main": short}) == ["DECK-SIZE"]


def test_deck_rule_names_are_checked(tmp_path):
    from interpreter.check.files import check_paths

    text = (TESTS / "rulesets" / "mini.yaml").read_text("utf-8") + MINI_DECK_RULES.replace(
        "total: power", "total: kind").replace("sections: [side]", "sections: [sid]")
    path = tmp_path / "mini.yaml"
    path.write_text(text, "utf-8")
    codes = sorted(d.code for d in check_paths([path]).diagnostics)
    assert codes == ["DECK-SECTION", "UNKNOWN-PROPERTY"]


def _bundled(path: str) -> dict:
    return yaml.safe_load((TESTS.parent / path).read_text("utf-8"))


KANNAGI_40 = {"春の小径": 4, "冬の廃校": 4, "無人駅": 4, "廃病院": 4, "発狂人形の家": 4, "狐火": 4,
              "影法師": 4, "桜の樹の下": 4, "旧校舎の音楽室": 4, "花見の丘": 4}


def test_kannagi_deck_size_and_copies(tmp_path):
    """巫カードゲーム 【用意するもの】: 「自分と相手のデッキ各40枚以上」 and 「1デッキに同じ札は4枚まで
    入れられます」 — 40 cards or more (no upper bound), at most 4 of a card."""
    game = load_game("kannagi")
    deck = {"ruleset": "kannagi"}
    main = dict(KANNAGI_40)
    assert sum(main.values()) == 40
    assert _codes(game, tmp_path, {**deck, "main": main}) == []
    assert _codes(game, tmp_path, {**deck, "main": {**main, "神鳴りの社": 4}}) == []  # 44: 以上
    assert _codes(game, tmp_path, {**deck, "main": {**main, "花見の丘": 3}}) == ["DECK-SIZE"]  # 39
    assert _codes(game, tmp_path, {**deck, "main": {**main, "花見の丘": 5}}) == ["DECK-COPIES"]


@pytest.mark.parametrize(("name", "limit"), [
    ("人魚の活血", 1), ("肥川の大蛇", 1), ("消さなきゃ", 1),
    ("悠習の古日記", 2), ("本物のお化け屋敷", 2), ("仮想世界の外", 2), ("暗躍者", 2),
])
def test_kannagi_restricted_lists(tmp_path, name, limit):
    """巫カードゲーム 【封印・制限・準制限について】: 「封印:…使用できない札です。なし」 /
    「制限:山札に1枚のみ 「人魚の活血」「肥川の大蛇」「消さなきゃ」」 / 「準制限:2枚まで
    「悠習の古日記」「本物のお化け屋敷」「仮想世界の外」「暗躍者」」. No card is banned: each
    listed card is legal up to its limit and one copy over is not."""
    game = load_game("kannagi")
    main = dict(KANNAGI_40)
    deck = {"ruleset": "kannagi", "main": {**main, name: limit}}
    assert _codes(game, tmp_path, deck) == []
    assert _codes(game, tmp_path, {**deck, "main": {**main, name: limit + 1}}) == ["DECK-COPIES"]
    assert not game.ruleset.deck.get("banned")  # 封印: なし


def test_manacard_any_number_of_a_name_but_unique(tmp_path):
    """異世界TCG マナカード 〇デッキ構成: 「※同名は一部を除き何枚でも入れる事が可能」 — any number
    of one name, except 【ユニーク】 cards (one of each)."""
    game = load_game("manacard")
    deck = _bundled("cards/manacard/decks/juso.yaml")
    assert _codes(game, tmp_path, deck) == []
    many = {**deck, "main": {"見習い剣士": 49, "赤竜": 1}, "skill": {"火の玉": 50}}
    assert _codes(game, tmp_path, many) == []
    two_unique = {**many, "main": {"見習い剣士": 48, "赤竜": 2}}
    assert _codes(game, tmp_path, two_unique) == ["DECK-UNIQUE"]
