"""Schema validation of loaded YAML: friendly, positioned diagnostics."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from jsonschema import Draft7Validator

from interpreter.load.schema import KINDS, schema, validate
from interpreter.load.yamlpos import load_text

CARDS = """\
ruleset: ucb
cards:
  - name: Goblin
    cost: 1
    power: 2
    text: "When played, draw a card."
    effect: draw 1
  - name: Orc
    cost: 2
    abilities:
      - when attacks, power += 1
"""

RULESET = """\
id: ucb
name: Unnamed Card Battle
players: 2
resolution: stack
simultaneous_loss: draw
ability_zones: [battle]
modifier_order: ["=", "+=", "-="]
properties:
  cost: {type: number, min: 0, default: 0}
  power: {type: number}
  color: {type: enum, values: [red, blue]}
states:
  tapped:
  rested: {clear: turn_end}
resources:
  life: {initial: 20, min: 0}
counters: [plus1]
zones:
  deck: {ordered: true, visibility: hidden, face: down}
  hand: {visibility: owner}
tokens:
  Spirit: {power: 1, color: red}
verbs:
  draw:
    params: {n: number, who: {type: player, default: you}}
    do: move top n of deck to hand
    event: drew
actions:
  play: {label: Play, card: cards in hand, do: play it, limit: {count: 1, per: turn}}
setup: shuffle deck
turn:
  - {phase: draw, do: draw 1}
  - {phase: main, actions: [play]}
end:
  - {lose: life <= 0, reason: life}
  - {win: turn > 10, reason: time, ref: "9.1"}
limits: {turns: 50}
deck:
  sections: {main: {zone: deck, min: 40}, extra: {zone: extra, max: 15}}
  copies: {max: 3, except: [Goblin]}
  rules: [{id: one-red, where: color = red, max: 1, message: too red}]
  banned: [Orc]
  restricted: {Elf: 1}
"""

SCENARIO = """\
ruleset: ucb
name: attack
seed: 7
decks:
  - main: {Goblin: 3}
state:
  turn_player: 1
  phase: main
  zones:
    hand@P1: [Goblin, {card: Orc, states: [tapped], face: up, counters: {plus1: 1}}]
  resources: {P1: {life: 20}}
decisions: [attack, 0, {player: P2, choose: pass}]
expect:
  winner: none
  zones:
    hand@P1: [Goblin]
    grave@P2: {count: 1}
  properties:
    - {card: "battle@P1:0", prop: power, value: 3}
  log:
    - {event: attack, card: Goblin}
  not_log:
    - {event: draw}
  resources: {P2: {life: 17}}
"""


def check(text: str, kind: str, ruleset: str | None = None):
    rules = load_text(ruleset, "r.yaml").data if ruleset is not None else None
    return validate(load_text(text, "x.yaml"), kind, ruleset=rules)


@pytest.mark.parametrize("kind", KINDS)
def test_bundled_schemas_are_valid_draft7(kind):
    Draft7Validator.check_schema(schema(kind))
    raw = resources.files("interpreter.schemas").joinpath(f"{kind}.schema.json").read_text()
    assert json.loads(raw)["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_unknown_kind():
    with pytest.raises(ValueError):
        schema("nope")


@pytest.mark.parametrize("text,kind", [
    (CARDS, "cards"), (RULESET, "ruleset"), (SCENARIO, "scenario"),
    ("ruleset: ucb\nname: Aggro\nmain: {Goblin: 3}\nextra: {Orc: 1}\n", "deck"),
])
def test_clean_files_have_no_diagnostics(text, kind):
    assert check(text, kind) == []
    assert check(text, kind, RULESET) == []


def test_wrong_type_is_positioned_and_names_the_key():
    text = CARDS.replace("cost: 2", "cost: three")
    assert check(text, "cards") == []  # without the ruleset, any scalar will do
    diags = check(text, "cards", RULESET)
    assert len(diags) == 1
    d = diags[0]
    assert d.code == "SCHEMA"
    assert (d.line, d.col) == (9, 11)
    assert d.message == "cost must be an integer, got 'three'"
    assert "'three'" in d.message


def test_unknown_key_gets_did_you_mean():
    text = RULESET.replace("hand: {visibility: owner}", "hand: {visiblity: owner}")
    [d] = check(text, "ruleset")
    assert "unknown key 'visiblity'" in d.message and "zone 'hand'" in d.message
    assert d.hint == "did you mean 'visibility'?"
    assert (d.line, d.col) == (20, 10)


def test_unknown_card_property_with_ruleset():
    [d] = check(CARDS.replace("power: 2", "powr: 2"), "cards", RULESET)
    assert d.message == "unknown key 'powr' in card 'Goblin'"
    assert d.hint == "did you mean 'power'?"
    assert (d.line, d.col) == (5, 5)


def test_card_property_bounds_and_enum_from_ruleset():
    text = CARDS.replace("cost: 1", "cost: -1").replace("power: 2", "power: 2\n    color: green")
    diags = check(text, "cards", RULESET)
    assert [d.message for d in diags] == [
        "cost must be at least 0, got -1",
        "color must be one of: 'red', 'blue'; got 'green'",
    ]


def test_deck_sections_from_ruleset():
    [d] = check("ruleset: ucb\nmian: {Goblin: 3}\n", "deck", RULESET)
    assert d.message == "unknown key 'mian'"
    assert d.hint == "did you mean 'main'?"


def test_misspelt_card_key_in_open_mapping_gets_did_you_mean():
    text = CARDS.replace("    abilities:\n", "    abilites:\n")
    [d] = check(text, "cards")
    assert "abilites" in d.message
    assert d.hint == "did you mean 'abilities'?"


def test_missing_ruleset_is_reported_at_the_object():
    diags = check("cards:\n  - name: Goblin\n", "cards")
    assert [d.message for d in diags] == ["missing required key 'ruleset'"]
    assert (diags[0].line, diags[0].col) == (1, 1)


def test_missing_card_name_names_the_card():
    [d] = check("ruleset: ucb\ncards:\n  - cost: 1\n", "cards")
    assert d.message == "missing required key 'name' in card 1"
    assert (d.line, d.col) == (3, 5)


def test_deck_count_zero():
    [d] = check("ruleset: ucb\nmain:\n  Goblin: 0\n", "deck")
    assert "Goblin" in d.message and "at least 1" in d.message
    assert (d.line, d.col) == (3, 11)


def test_enum_lists_allowed_values():
    [d] = check(RULESET.replace("resolution: stack", "resolution: lifo"), "ruleset")
    assert "resolution" in d.message and "'lifo'" in d.message
    assert "'stack'" in d.message and "'queue'" in d.message


def test_every_error_is_reported_once():
    text = "ruleset: ucb\ncards:\n  - {name: A, cost: x}\n  - {name: B, cost: y}\n  - {cost: 1}\n"
    diags = check(text, "cards", RULESET)
    assert len(diags) == 3
    assert len({(d.line, d.col, d.message) for d in diags}) == 3
    assert [d.line for d in diags] == [3, 4, 5]


def test_one_of_picks_the_specific_alternative():
    text = RULESET.replace("n: number,", "n: numbr,")
    [d] = check(text, "ruleset")
    assert "'numbr'" in d.message and "'number'" in d.message
    assert d.hint == "did you mean 'number'?"


def test_one_of_with_no_matching_type_lists_the_types():
    [d] = check(SCENARIO.replace("[attack, 0,", "[attack, true,"), "scenario")
    assert "decisions[1]" in d.message and "got true" in d.message


def test_end_rule_needs_exactly_one_of_lose_or_win():
    both = check(RULESET.replace("{lose: life <= 0,", "{lose: a, win: b,"), "ruleset")
    assert [d.message for d in both] == ["end rule 1 must not have both 'lose' and 'win'"]
    neither = check(RULESET.replace("{lose: life <= 0,", "{"), "ruleset")
    assert [d.message for d in neither] == ["end rule 1 needs 'lose' or 'win'"]


def test_enum_property_needs_values():
    [d] = check(RULESET.replace(", values: [red, blue]", ""), "ruleset")
    assert d.message == "missing required key 'values' in property 'color'"


def test_ruleset_rejects_schema_key():
    [d] = check("$schema: x\n" + RULESET, "ruleset")
    assert "unknown key '$schema'" in d.message


def test_scenario_zone_keys_and_players():
    text = SCENARIO.replace("hand@P1: [Goblin, {", "hand@X: [Goblin, {").replace(
        "{P2: {life: 17}}", "{Q: {life: 17}}")
    diags = check(text, "scenario")
    assert [d.message for d in diags] == ["key 'hand@X' is not valid", "key 'Q' is not valid"]
