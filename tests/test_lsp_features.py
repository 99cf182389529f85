"""The language server's features in-process, on unsaved texts: what is offered where.
(tests/test_lsp.py drives the same features over stdio.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("lsprotocol")

from interpreter.lsp import completion, definition, diagnostics, hover  # noqa: E402
from interpreter.lsp.context import place_at  # noqa: E402
from interpreter.lsp.workspace import Workspace  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def ws() -> Workspace:
    return Workspace([ROOT])


def _labels(ws: Workspace, text: str, marker: str = "|") -> set[str]:
    """Completion labels at the marker (removed from the text)."""
    line = next(i for i, row in enumerate(text.splitlines()) if marker in row)
    col = text.splitlines()[line].index(marker)
    text = text.replace(marker, "", 1)
    path = str(ROOT / "unsaved.yaml")
    ws.set_buffer(path, text)
    try:
        return {item.label for item in completion.complete(ws, path, text, line, col)}
    finally:
        ws.drop_buffer(path)


CARD = "ruleset: ucb\ncards:\n  - name: x\n    abilities:\n      - \"{}\"\n"


def test_effect_text_offers_by_position(ws):
    everything = _labels(ws, CARD.format("when summon where card == self: d|"))
    assert {"draw", "damage", "move", "count", "battle", "tapped", "character", "炎の剣士", "card"} \
        <= everything
    assert "moved" not in everything
    assert {"moved", "summon", "attack"} <= _labels(ws, CARD.format("when |"))
    assert {"attack", "play", "destroy"} <= _labels(ws, CARD.format("cannot |"))
    replaced = _labels(ws, CARD.format("instead |"))
    assert "damage" in replaced and "moved" not in replaced
    members = _labels(ws, CARD.format("when summon where card == self: card.|"))
    assert {"power", "cost", "tapped", "owner"} <= members and "draw" not in members
    assert "炎の剣士" in _labels(ws, CARD.format("static: (battle(you) where name == 「|"))


def test_the_text_of_an_ability_written_as_a_mapping_is_effect_text(ws):
    """`abilities: [{text, targeting, left_play}]`: its `text` completes as effect text; a
    card's own `text` is prose and offers none of it."""
    mapping = ("ruleset: ucb\ncards:\n  - name: x\n    abilities:\n"
               "      - text: \"when summon where card == self: d|\"\n        left_play: skip\n")
    assert {"draw", "damage"} <= _labels(ws, mapping)
    prose = "ruleset: ucb\ncards:\n  - name: x\n    text: \"d|\"\n"
    assert "draw" not in _labels(ws, prose)


def test_variables_in_scope_are_those_bound_before_the_cursor(ws):
    labels = _labels(ws, CARD.format("activate: choose 1 t from battle(you); let n = 2; |"))
    assert {"t", "n", "you", "self"} <= labels
    assert "blocker" not in labels


def test_a_verbs_body_sees_its_parameters(ws):
    text = (ROOT / "rulesets" / "ucb.yaml").read_text(encoding="utf-8")
    text = text.replace('do: "repeat n { move(top(deck(player)), hand(player)) }"', 'do: "repeat |"', 1)
    assert {"n", "player"} <= _labels(ws, text)


def test_a_cards_keys_and_enum_values_come_from_the_ruleset(ws):
    keys = _labels(ws, "ruleset: ucb\ncards:\n  - name: x\n    |\n")
    assert {"cost", "power", "kind", "asterisk", "abilities"} <= keys
    assert _labels(ws, "ruleset: ucb\ncards:\n  - name: x\n    kind: |\n") == {"character", "spell", "token"}
    assert _labels(ws, "ruleset: ucb\ncards:\n  - name: x\n    asterisk: |\n") == {"true", "false"}


def test_other_keys_and_values_come_from_the_schemas_and_the_ruleset(ws):
    ruleset = "id: lsp_test\nname: t\nzones: {hand: {}}\nactions: {play: {do: ''}}\n"
    assert _labels(ws, ruleset + "resolution: |\n") == {"stack", "queue"}
    assert {"phase", "do", "actions", "if"} <= _labels(ws, ruleset + "turn:\n  - phase: main\n    |\n")
    assert _labels(ws, ruleset + "turn:\n  - phase: main\n    actions: [|]\n") == {"play"}
    assert {"state", "expect", "decisions"} <= _labels(ws, "ruleset: ucb\nstate: {}\n|\n")


def test_place_reads_the_enclosing_keys_of_a_block_scalar():
    lines = ["verbs:", "  draw:", "    do: |", "      repeat n {", "        move(", "      when x: y"]
    place = place_at(lines, 4, 13)
    assert place.keys == ("verbs", "draw", "do") and place.in_value
    assert place_at(lines, 5, 8) == place


def test_hover_on_a_rulesets_top_level_key_quotes_the_reference(ws):
    path = str(ROOT / "rulesets" / "ucb.yaml")
    text = Path(path).read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines()) if row.startswith("resolution:"))
    shown = hover.hover(ws, path, text, line, 2)
    assert "docs/LANGUAGE.md 1.2 Ruleset" in shown and "`stack` or `queue`" in shown


def test_the_choice_forms_and_the_board_and_pool_words_are_offered(ws):
    """issue 27's choice forms (keywords), primitives and functions in effect text, and a
    card's `position` among the members."""
    everything = _labels(ws, CARD.format("activate: |"))
    assert {"choose zone", "choose number", "choose player", "choose one", 'as "..."', "transform",
            "detach", "copy", "left", "right", "adjacent", "zones"} <= everything
    assert "position" in _labels(ws, CARD.format("when summon where card == self: card.|"))
    assert "lane" in _labels(ws, CARD.format(
        "activate: choose zone lane from zones(battle(you), mana(you)); |"))


@pytest.mark.parametrize("word, row", [
    ("adjacent", "the cards next to a card in its zone"),
    ("position", "its place in its zone, from 1"),
])
def test_hover_on_a_board_word_quotes_its_reference_row(ws, word, row):
    text = CARD.format("static: (battle(you) where position == 1 or it in adjacent(self)).power += 1")
    line, col = 4, text.splitlines()[4].index(word) + 1
    path = str(ROOT / "unsaved.yaml")
    ws.set_buffer(path, text)
    assert row in hover.hover(ws, path, text, line, col)


def test_hover_on_a_property_shows_its_declaration(ws):
    text = CARD.format("static: (battle(you)).power += 1")
    line, col = 4, text.splitlines()[4].index("power") + 1
    path = str(ROOT / "unsaved.yaml")
    ws.set_buffer(path, text)
    shown = hover.hover(ws, path, text, line, col)
    assert "**property** `power`" in shown and "never below 0" in shown


def test_definition_of_a_zone_and_of_a_card_in_effect_text(ws):
    text = CARD.format("static: (battle(you) where name == 「炎の剣士」).power += 1")
    path = str(ROOT / "unsaved.yaml")
    ws.set_buffer(path, text)
    row = text.splitlines()[4]
    zone = definition.definition(ws, path, text, 4, row.index("battle") + 1)
    ruleset = (ROOT / "rulesets" / "ucb.yaml").read_text(encoding="utf-8").splitlines()
    assert zone.path.endswith("rulesets/ucb.yaml") and ruleset[zone.line].lstrip().startswith("battle:")
    card = definition.definition(ws, path, text, 4, row.index("炎の剣士") + 1)
    assert card.path.endswith("cards/ucb/core.yaml")


def test_a_ruleset_named_by_a_path_is_read_relative_to_the_file(ws):
    scenario = ROOT / "tests" / "scenarios" / "engine" / "unsaved.yaml"
    text = "ruleset: ../../rulesets/mini.yaml\nstate:\n  zones:\n    |\n"
    line, col = 3, 4
    ws.set_buffer(str(scenario), text.replace("|", ""))
    labels = {i.label for i in completion.complete(ws, str(scenario), text.replace("|", ""), line, col)}
    assert {"field@P1", "spirits@P2"} <= labels


def test_tcg_check_does_not_import_the_language_server():
    code = ("import sys; from interpreter.cli import main; main(['check', 'cards/ucb/core.yaml']); "
            "print(sorted(m for m in sys.modules "
            "if m.startswith(('pygls', 'lsprotocol', 'interpreter.lsp'))))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_without_pygls_tcg_lsp_says_how_to_install_it():
    code = ("import sys; sys.modules['pygls'] = None; from interpreter.cli import main; "
            "sys.exit(main(['lsp']))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert "pip install -e '.[lsp]'" in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("name", ["cards/ucb/characters.yaml", "rulesets/kannagi.yaml",
                                  "cards/ucb/decks/aka_sokkou.yaml", "rulesets/ultimate.forbid.yaml",
                                  "tests/scenarios/dannokomachi/battle_options.yaml"])
def test_no_position_of_a_file_being_typed_raises(ws, name):
    """Every feature at 60 places of a bundled file, typed up to there (the text cut at
    the cursor, as it is while typing) and whole."""
    path = str(ROOT / name)
    whole = (ROOT / name).read_text(encoding="utf-8")
    for offset in range(0, len(whole), len(whole) // 60 + 1):
        line = whole.count("\n", 0, offset)
        col = offset - (whole.rfind("\n", 0, offset) + 1)
        for text in (whole[:offset], whole):
            ws.set_buffer(path, text)
            completion.complete(ws, path, text, line, col)
            hover.hover(ws, path, text, line, col)
            definition.definition(ws, path, text, line, col)


def test_a_ruleset_half_typed_lends_the_names_of_its_last_good_text(ws):
    path = str(ROOT / "rulesets" / "typing.yaml")
    good = "id: typing\nname: t\nzones: {hand: {}}\nverbs:\n  draw:\n    params: {n: number}\n    do: \"\"\n"
    ws.set_buffer(path, good)
    assert ws.names("typing") is not None
    typing = good.replace("{n: number}", "pla").replace('do: ""', 'do: "dr"')
    ws.set_buffer(path, typing)
    labels = {i.label for i in completion.complete(ws, path, typing, 6, 12)}
    assert {"draw", "hand", "n"} <= labels


def test_a_misspelt_key_is_fixed_where_it_is_written(ws):
    path = str(ROOT / "unsaved.yaml")
    text = "ruleset: ucb\ncards:\n  - name: x\n    kind: character\n    cots: 1\n"
    ws.set_buffer(path, text)
    found = diagnostics.diagnose(ws, path, text)
    fixes = diagnostics.quick_fixes("file:///unsaved.yaml", found)
    edit = fixes[0].edit.changes["file:///unsaved.yaml"][0]
    assert (edit.range.start.line, edit.range.start.character, edit.range.end.character) == (4, 4, 8)
    assert edit.new_text == "cost"


def test_a_new_card_set_without_its_ruleset_is_still_checked(ws):
    path = str(ROOT / "unsaved.yaml")
    text = "cards:\n  - name: x\n"
    ws.set_buffer(path, text)
    assert diagnostics.diagnose(ws, path, text)


MINI = (ROOT / "tests" / "rulesets" / "mini.yaml").read_text(encoding="utf-8")
UCB_CARDS = (ROOT / "cards" / "ucb" / "characters.yaml").read_text(encoding="utf-8")
EXTRA = "ruleset: ucb\ncards:\n  - {name: 新しい剣士, kind: character, cost: 1, power: 1}\n"
MISTAKES = {  # a file of each kind with mistakes (name, for the file on disk, and text)
    "ruleset": ("mini.yaml", MINI.replace("id: mini", "id: lsp_same")
                .replace("damage(player, 1)", "damag(player, 1)")),
    "cards": ("cards.yaml", UCB_CARDS.replace("draw(you, 1)", "drow(you, 1)", 1)),
    "cards with a schema error": ("cards.yaml", UCB_CARDS.replace("draw(you, 1)", "drow(you, 1)", 1)
                                  .replace("  - name: 村の番犬", "  - nam: 村の番犬")),
    "deck": ("deck.yaml", "ruleset: ucb\nmain:\n  炎の剣: 3\n  炎の剣士: 1\n"),
    "scenario": ("scenario.yaml", "ruleset: ucb\ncards: [extra.yaml]\nstate:\n  phase: mian\n"
                                  "  zones:\n    batle@P1: [炎の剣士]\n    hand@P1: [新しい剣士]\n"
                                  "    hand@P3: [炎の剣]\nexpect: {winner: P1}\n"),
    "scenario naming a file outside its game": ("scenario.yaml", "ruleset: ucb\ncards: [/etc/passwd]\n"
                                                                 "state: {phase: main}\n"),
    "forbid": ("forbid.yaml", "ruleset: ucb\nforbid:\n  - id: X\n    sentence: s\n    explain: e\n"
                              "    query: \"per ability: when(evnt in [summon])\"\n"),
}


@pytest.mark.parametrize("kind", MISTAKES)
def test_the_editor_says_what_tcg_check_says_of_each_kind_of_file(ws, tmp_path, kind):
    """Each kind of file with mistakes, saved and checked by `tcg check`, and open unsaved
    in the editor: the same problems at the same places."""
    from interpreter.check.files import check_paths

    name, text = MISTAKES[kind]
    (tmp_path / "extra.yaml").write_text(EXTRA, encoding="utf-8")  # a scenario's own card set
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    expected = [(d.line - 1, d.code, d.message) for d in check_paths([path]).diagnostics]
    ws.set_buffer(str(path), text)
    found = [(d.range.start.line, d.code, d.message.split("\n")[0])  # (+ help, rule)
             for d in diagnostics.diagnose(ws, str(path), text)]
    assert expected and sorted(found) == sorted(expected)
