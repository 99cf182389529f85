"""Every scenario file under tests/scenarios/ passes; the runner can fail; and the UCB rules
that a mid-game scenario cannot reach (game start, deck construction, hidden zones)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from interpreter.engine import vm
from interpreter.engine.observe import label, observation
from interpreter.engine.state import ZoneRef
from interpreter.load.files import load_deck
from interpreter.run.loading import load_game
from interpreter.run.scenario import run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"
UCB = SCENARIOS / "ucb"


def _is_scenario(path: Path) -> bool:
    """Scenario files, not the card sets that sit beside them (`cards:` of mappings)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "ruleset" not in data:
        return False
    if any(isinstance(c, dict) for c in data.get("cards") or ()):
        return False
    return any(k in data for k in ("state", "expect", "decisions", "decks"))


SCENARIO_FILES = sorted(p for p in SCENARIOS.rglob("*.yaml") if _is_scenario(p))


def test_scenarios_are_found():
    assert len([p for p in SCENARIO_FILES if p.parent == UCB]) >= 30
    assert UCB / "cards.yaml" not in SCENARIO_FILES


@pytest.mark.parametrize("path", SCENARIO_FILES,
                         ids=[str(p.relative_to(SCENARIOS)) for p in SCENARIO_FILES])
def test_scenario(path: Path):
    outcome = run_scenario(path)
    assert outcome.passed, "\n".join(outcome.failures)


def test_every_ucb_scenario_cites_the_seed():
    for path in SCENARIO_FILES:
        if path.parent == UCB:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            assert data.get("ref"), f"{path.name} has no ref:"
            assert data.get("name"), f"{path.name} has no name:"


# ---------- the runner can fail ----------
def _copy(tmp_path: Path, name: str, change) -> Path:
    """A copy of one of the UCB scenarios, with `change(data)` applied."""
    data = yaml.safe_load((UCB / name).read_text(encoding="utf-8"))
    data["cards"] = [str(UCB / c) for c in data.get("cards") or ()]
    change(data)
    out = tmp_path / name
    out.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return out


def test_wrong_expected_zone_fails(tmp_path):
    def wrong(data):
        data["expect"]["zones"]["discard@P2"] = ["テスト剣士"]  # really the 3 milled cards

    outcome = run_scenario(_copy(tmp_path, "battle_unblocked_mills_power.yaml", wrong))
    assert not outcome.passed
    assert any("discard@P2" in f for f in outcome.failures)


def test_wrong_expected_winner_and_log_fail(tmp_path):
    def wrong(data):
        data["expect"]["winner"] = "P2"
        data["expect"]["log"] = [{"event": "draw", "player": "P1"}]

    outcome = run_scenario(_copy(tmp_path, "deck_out_mid_effect.yaml", wrong))
    assert not outcome.passed
    assert any(f.startswith("winner:") for f in outcome.failures)
    assert any(f.startswith("log:") for f in outcome.failures)


def test_a_failed_log_expectation_shows_what_the_log_has_of_that_event(tmp_path):
    """A writer comparing their expectation with what happened sees the events of that name
    (or that there were none), not only that the expected one was missing."""
    def wrong(data):
        data["expect"]["log"] = [{"event": "moved", "card": "nobody"}]

    outcome = run_scenario(_copy(tmp_path, "deck_out_mid_effect.yaml", wrong))
    fail = next(f for f in outcome.failures if f.startswith("log:"))
    assert "the log's 'moved' events: {" in fail and "'to_zone'" in fail, fail

    def unheard(data):
        data["expect"]["log"] = [{"event": "nothing_such"}]

    outcome = run_scenario(_copy(tmp_path, "deck_out_mid_effect.yaml", unheard))
    assert any("the log has no 'nothing_such' event" in f for f in outcome.failures)


def test_impossible_decision_fails(tmp_path):
    def wrong(data):
        data["decisions"] = ["play テスト剣士", "play テスト剣士"]  # the same-name rule forbids it

    outcome = run_scenario(_copy(tmp_path, "play_same_name_blocked_until_next_turn.yaml", wrong))
    assert [f.split(";")[0] for f in outcome.failures] == ["no option matches 'play テスト剣士'"]


def test_unchanged_copy_passes(tmp_path):
    outcome = run_scenario(_copy(tmp_path, "battle_unblocked_mills_power.yaml", lambda d: None))
    assert outcome.passed, outcome.failures


# ---------- game start: draw 5, second-player mulligan, tokens face up ----------
@pytest.fixture
def start(ucb, ucb_decks):
    """A fresh UCB match at its first decision."""
    return ucb.new_state(ucb_decks, 7, log=True)


def _answer(g, text: str) -> None:
    labels = [label(g, o, g.decision.player) for o in g.decision.options]
    vm.answer(g, g.decision.options[labels.index(text)])


def _hand(g, p: int) -> list[int]:
    return list(g.zones[ZoneRef("hand", p)])


def test_start_draws_five_and_offers_the_second_player_a_mulligan(start):
    """ref: 対戦開始前 3.お互いのプレイヤーは山札からカードを5枚引く。
    4.後攻のプレイヤーは後攻マリガンを実施する。"""
    g = start
    assert len(_hand(g, 0)) == 5 and len(_hand(g, 1)) == 5
    assert g.decision.player == 1 and g.decision.kind == "may"
    assert not any(r["e"] == "mulligan" for r in g.log)


def test_mulligan_redraws_the_second_players_hand(start):
    """ref: 後攻マリガン (reading: the whole hand goes back, the deck is shuffled, draw 5 again)."""
    g = start
    before = len(g.log)
    _answer(g, "yes")
    after = g.log[before:]
    back = [r for r in after if r["e"] == "moved" and r["from_zone"] == "hand"
            and r["to_zone"] == "deck" and r["player"] == "P2"]
    assert len(back) == 5
    assert any(r["e"] == "shuffled" and r["zone"] == "deck@P2" for r in after)
    assert any(r["e"] == "mulligan" and r["player"] == "P2" for r in after)
    assert any(r["e"] == "draw" and r["player"] == "P2" and r["n"] == 5 for r in after)
    assert len(_hand(g, 1)) == 5
    assert len(g.zones[ZoneRef("deck", 1)]) == 35
    # the first player is never offered a mulligan
    assert not any(r["e"] == "mulligan" and r["player"] == "P1" for r in g.log)


def test_declining_the_mulligan_keeps_the_hand(start):
    g = start
    hand = list(_hand(g, 1))
    _answer(g, "no")
    assert _hand(g, 1) == hand
    assert not any(r["e"] == "mulligan" for r in g.log)


def test_mana_tokens_face_up_at_start_and_first_player_draws_one(start):
    """ref: 対戦開始前 5.お互いのマナトークンすべてを表向きにする。 /
    1.セットアップフェイズ: 既に5枚以上ある場合はカードを1枚引く
    (先行のプレイヤーもカードを1枚引くことになる)。"""
    g = start
    _answer(g, "no")
    for p in (0, 1):
        tokens = [c for c in g.zones[ZoneRef("mana", p)] if g.defs[c].name == "マナトークン"]
        assert tokens and all(g.face[c] for c in tokens)
    assert g.turn_player == 0 and g.phase == "main"
    assert len(_hand(g, 0)) == 6  # the first player also draws 1 in the first setup phase


# ---------- zones: who may see what ----------
def test_zone_visibility(start):
    """ref: 山札(非公開情報) / 手札(非公開情報) / マナエリア(自身のみ確認できる) / 捨て札(公開情報)."""
    g = start
    mine, theirs = observation(g, 0)["zones"], observation(g, 1)["zones"]
    assert all(c.get("hidden") for c in mine["deck@P1"])  # not even the owner sees the deck
    assert not any(c.get("hidden") for c in mine["hand@P1"])
    assert all(c.get("hidden") for c in theirs["hand@P1"])
    assert not any(c.get("hidden") for c in mine["mana@P1"])
    assert all(c.get("hidden") for c in theirs["mana@P1"])


# ---------- deck construction ----------
def _deck(tmp_path: Path, main: Counter, extra: Counter | None = None):
    data = {"ruleset": "ucb", "name": "t", "main": dict(main)}
    if extra:
        data["extra"] = dict(extra)
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return load_deck(path)


LEGAL_MAIN = Counter({"見習い剣士": 4, "ちびスライム": 4, "村の番犬": 4, "旅の傭兵": 4,
                      "岩山のゴーレム": 4, "森の大熊": 4, "古の巨竜": 4, "知恵の泉": 4,
                      "落雷": 4, "勇気の歌": 4})


def _codes(ucb, deck) -> set[str]:
    from interpreter.check.decks import check_deck

    return {d.code for d in check_deck(ucb, deck)}


def test_legal_deck(ucb, tmp_path):
    """ref: 構築ルール: 枚数は40枚 / 追加山札は0〜10枚 / 同名のカードは4枚まで."""
    assert _codes(ucb, _deck(tmp_path, LEGAL_MAIN, Counter({"聖騎士": 4, "炎帝": 4,
                                                           "大王スライム": 2}))) == set()


@pytest.mark.parametrize("main,extra,code", [
    (LEGAL_MAIN - Counter({"落雷": 1}), None, "DECK-SIZE"),                     # 39 cards
    (LEGAL_MAIN + Counter({"石の番人": 1}), None, "DECK-SIZE"),                  # 41 cards
    (LEGAL_MAIN, Counter({"聖騎士": 4, "炎帝": 4, "大王スライム": 3}), "DECK-SIZE"),  # 11 extra
    (LEGAL_MAIN - Counter({"落雷": 1}) + Counter({"見習い剣士": 1}), None, "DECK-COPIES"),
    (LEGAL_MAIN, Counter({"見習い剣士": 1}), "DECK-COPIES"),  # 4 in the deck + 1 extra
    (LEGAL_MAIN - Counter({"落雷": 2}) + Counter({"伝説の勇者": 1, "時の砂時計": 1}), None,
     "DECK-ASTERISK"),
])
def test_illegal_decks(ucb, tmp_path, main, extra, code):
    """ref: 構築ルール: 40枚 / 追加山札は0〜10枚 / 山札・追加山札の両者合わせて4枚まで /
    *カードは合計1枚まで."""
    assert code in _codes(ucb, _deck(tmp_path, main, extra))


def test_load_game_with_test_cards():
    game = load_game("ucb", (str(UCB / "cards.yaml"),))
    assert all(name.startswith("テスト") for name in game.cards if name not in
               load_game("ucb").cards)
