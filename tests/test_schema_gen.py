"""`tcg schema`: per-ruleset JSON Schemas for editors that only speak yaml-language-server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from interpreter.check.files import kind_of
from interpreter.check.schema_gen import load_declarations, ruleset_schemas
from interpreter.load.files import bundled_ids
from interpreter.load.yamlpos import load_text, load_yaml
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parents[1]


def _schemas(rid: str) -> dict[str, Draft7Validator]:
    ruleset, names = load_declarations(rid)
    return {kind: Draft7Validator(s) for kind, s in ruleset_schemas(ruleset, names).items()}


def _errors(validator: Draft7Validator, text: str) -> list[str]:
    return [e.message for e in validator.iter_errors(load_text(text, "x.yaml").data)]


@pytest.mark.parametrize("rid", bundled_ids())
def test_bundled_files_pass_their_rulesets_schemas(rid):
    schemas = _schemas(rid)
    for validator in schemas.values():
        Draft7Validator.check_schema(validator.schema)
    docs = [load_yaml(p) for p in [*(ROOT / "cards" / rid).rglob("*.yaml"),
                                   *(ROOT / "tests" / "scenarios" / rid).rglob("*.yaml")]]
    checked = {kind: 0 for kind in schemas}
    for doc in docs:
        kind = kind_of(doc)
        if kind in schemas and doc.data.get("ruleset") == rid:
            checked[kind] += 1
            assert [e.message for e in schemas[kind].iter_errors(doc.data)] == [], doc.path
    assert all(checked.values()), checked


def test_a_card_with_an_unknown_property_fails():
    schemas = _schemas("ucb")
    card = "ruleset: ucb\ncards:\n  - {name: 見習い剣士, kind: character, cost: 1, powr: 2}\n"
    assert any("powr" in m for m in _errors(schemas["cards"], card))


def test_enum_values_and_types_come_from_the_ruleset():
    cards = _schemas("ucb")["cards"]
    assert _errors(cards, "ruleset: ucb\ncards:\n  - {name: x, kind: creature}\n")
    assert _errors(cards, "ruleset: ucb\ncards:\n  - {name: x, cost: '3'}\n")
    assert not _errors(cards, "ruleset: ucb\ncards:\n  - {name: x, kind: spell, cost: 3}\n")


def test_a_deck_names_only_the_rulesets_cards():
    deck = _schemas("ucb")["deck"]
    assert not _errors(deck, "ruleset: ucb\nmain: {見習い剣士: 3}\n")
    assert any("見習い剣" in m for m in _errors(deck, "ruleset: ucb\nmain: {見習い剣: 3}\n"))


def test_a_scenario_names_the_rulesets_zones_players_and_phases():
    scenario = _schemas("ucb")["scenario"]
    assert not _errors(scenario, "ruleset: ucb\nstate: {phase: main, zones: {battle@P1: [x]}}\n")
    assert _errors(scenario, "ruleset: ucb\nstate: {zones: {battel@P1: [x]}}\n")
    assert _errors(scenario, "ruleset: ucb\nstate: {zones: {battle@P3: [x]}}\n")
    assert _errors(scenario, "ruleset: ucb\nstate: {phase: mian}\n")
    assert _errors(scenario, "ruleset: ucb\nstate: {zones: {battle@P1: [{card: x, states: [taped]}]}}\n")


def test_cli_writes_the_schemas(tmp_path):
    run = tcg_in_process("schema", "kannagi", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["kannagi.cards.schema.json", "kannagi.deck.schema.json",
                       "kannagi.scenario.schema.json"]
    schema = json.loads((tmp_path / "kannagi.cards.schema.json").read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_cli_names_an_unknown_ruleset():
    run = tcg_in_process("schema", "ucbb")
    assert run.returncode == 2
    assert "did you mean 'ucb'?" in run.stdout and "Traceback" not in run.stderr


def test_cli_says_when_it_cannot_write(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    run = tcg_in_process("schema", "ucb", "--out", str(blocker / "schemas"))
    assert run.returncode == 2
    assert f"cannot write {blocker / 'schemas'}" in run.stderr and "Traceback" not in run.stderr
