"""Named abilities with typed costs (issue 35, item 3): a card's activated ability may carry a
`name` (shown in options), `once_per` and a `cost` in the ruleset's `typed_costs`. The toy game
is tests/rulesets/pocket.yaml; its scenarios (tests/scenarios/pocket/) play them on both paths.
Here: the mistakes a card writer can make in those keys, each at its place."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parent.parent
RULESET = ROOT / "tests" / "rulesets" / "pocket.yaml"


def _check(tmp_path: Path, ability: str, ruleset: str | None = None) -> str:
    rules = tmp_path / "pocket.yaml"
    if ruleset is None:
        shutil.copy(RULESET, rules)
    else:
        rules.write_text(ruleset, encoding="utf-8")
    cards = tmp_path / "cards.yaml"
    cards.write_text("ruleset: pocket\ncards:\n  - name: 試\n    kind: monster\n    abilities:\n"
                     f"      - {ability}\n", encoding="utf-8")
    done = tcg_in_process("check", str(rules), str(cards))
    return done.stdout + done.stderr


@pytest.mark.parametrize("ability, code", [
    ('{name: 火, text: "activate: draw(you)", cost: {fier: 1}}', "UNKNOWN-NAME"),
    ('{name: 火, text: "when moved: draw(you)", once_per: turn}', "TYPE"),
    ('{name: 火, text: "when moved: draw(you)", cost: {fire: 1}}', "TYPE"),
    ('{name: 火, text: "activate: draw(you)", once_per: game}', "SCHEMA"),
    ('{name: 火, text: "activate: draw(you)", cost: {fire: 0}}', "SCHEMA"),
])
def test_a_wrong_key_of_a_named_ability_is_reported_at_its_place(tmp_path, ability, code):
    out = _check(tmp_path, ability)
    assert "cards.yaml:6:" in out and f"error[{code}]" in out, out


def test_a_typed_cost_needs_the_rulesets_typed_costs(tmp_path):
    text = RULESET.read_text(encoding="utf-8").replace(
        'typed_costs: {cards: "attached(self)", type: element}\n', "")
    out = _check(tmp_path, '{name: 火, text: "activate: draw(you)", cost: {fire: 1}}', text)
    assert "error[NO-TYPED-COSTS]" in out, out


def test_typed_costs_must_name_an_enum_property(tmp_path):
    text = RULESET.read_text(encoding="utf-8").replace("type: element}", "type: elemnt}")
    out = _check(tmp_path, '{name: 火, text: "activate: draw(you)"}', text)
    assert "error[UNKNOWN-PROPERTY]" in out and "did you mean 'element'" in out, out


def _state(zones: dict):
    from interpreter.run.loading import load_game
    from interpreter.run.scenario import build_state

    game = load_game(str(RULESET))
    return game, build_state(game, {"phase": "main", "zones": {"deck@P2": ["ゼニガメ"], **zones}}, 0)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_option_and_a_card_panel_name_the_ability_never_its_code(lang):
    from interpreter.words.speak import Words

    game, g = _state({"active@P1": ["ゼニガメ"]})
    words = Words(game, lang)
    said = [words.option(g, o, 0) for o in g.decision.options]
    assert any("からにこもる" in s for s in said), said
    assert not any("change(" in s for s in said), said
    panel = words.card_texts(g, 0)["ゼニガメ"]
    assert panel[0].startswith("からにこもる"), panel
    assert "change(" not in panel[0], panel


def test_the_observation_lists_ability_names_and_the_card_a_card_is_beneath():
    from interpreter.engine.observe import observation

    _game, g = _state({"active@P1": ["ヒトカゲ"], "hand@P1": ["リザード"], "bench@P1": ["ゼニガメ"]})
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "evolve" in a.label))
    zones = observation(g, 0)["zones"]
    top, = zones["active@P1"]
    under, = zones["stacked@P1"]
    assert (top["name"], under["name"], under["beneath"]) == ("リザード", "ヒトカゲ", top["id"])
    assert zones["bench@P1"][0]["ability_names"] == ["からにこもる"]
def test_tcg_check_accepts_a_decision_that_names_an_ability(tmp_path):
    """An option reads `attack with ヒノコ#0 [ふんか]`: a decision `ふんか` is one `tcg test`
    plays, so `tcg check` knows abilities' names among the labels' parts."""
    scenario = tmp_path / "by_name.yaml"
    scenario.write_text(
        f"ruleset: {ROOT / 'tests' / 'rulesets' / 'kaiju.yaml'}\nname: by its name\n"
        "state:\n  phase: attack\n  zones:\n    active@P1: [ヒノコ]\n    active@P2: [ミズガメ]\n"
        "decisions:\n  - ふんか\n  - ふんかx\n", encoding="utf-8")
    out = tcg_in_process("check", str(scenario))
    assert out.stdout.count("error[DECISION]") == 1 and "'ふんかx'" in out.stdout, out.stdout


def test_two_abilities_of_one_name_on_a_card_are_reported_at_the_second(tmp_path):
    """Their options would read the same (`attack with 試#0 [火]` twice): which one a player
    or a scenario picks could not be told."""
    out = _check(tmp_path, '{name: 火, text: "activate: draw(you)"}\n'
                           '      - {name: 火, text: "activate: draw(you); draw(you)"}\n'
                           '      - {name: 水, text: "activate: draw(you)"}')
    assert out.count("error[") == 1 and "cards.yaml:7:16: error[DUPLICATE-ABILITY]" in out, out
    assert "cards.yaml:6:16: first defined here" in out and "give each ability its own name" in out
