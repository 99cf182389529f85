"""Forbid queries over what effects do (docs/LANGUAGE.md 1.8): `does` expands the ruleset's
verbs into primitives, `total(... by F)` adds up per target. The evasion classes themselves
are cases of tests/forbid/ultimate_cases.yaml."""

from __future__ import annotations

import pytest
import yaml

from interpreter.check import forbid
from interpreter.load import files
from interpreter.load.yamlpos import load_text, load_yaml

RULESET = load_yaml(files.ruleset_path("ultimate"))


def _list(query: str, verbs: str = ""):
    entry = f"forbid:\n  - id: MINE\n    sentence: 文\n    explain: e\n    query: \"{query}\""
    raw = RULESET.text.replace("forbid: ultimate.forbid.yaml", entry)
    if verbs:
        raw = raw.replace("\nverbs:\n", f"\nverbs:\n{verbs}", 1)
    return forbid.for_ruleset(load_text(raw, "r.yaml"))


def _hits(query: str, *abilities: str, verbs: str = ""):
    entries, names, defaults = _list(query, verbs)
    assert entries.diagnostics == []
    card = {"name": "c", "rank": "3", "number": 3, "monster": True, "abilities": list(abilities)}
    doc = load_text(yaml.safe_dump({"ruleset": "ultimate", "cards": [card]}, allow_unicode=True,
                                   width=1000), "c.yaml")
    return [(d, doc.text.splitlines()[d.line - 1][d.col - 1:])
            for d in forbid.check_cards(entries, names, defaults, [doc])]


WHEN = "when summon where self in card: may { %s }"


def test_does_sees_through_verbs_and_reports_the_written_call():
    text = WHEN % "draw(you, 1); choose up to 1 c from battle(you); bounce(c)"
    ((_, at),) = _hits("per ability: total(does move(to.zone == hand).cards) > 1", text)
    assert at.startswith("bounce(c)")
    # the words of the text alone see only the draw
    assert not _hits("per ability: total(move(to.zone == hand).cards, draw.n) > 1", text)


def test_arguments_are_read_in_the_callers_scope():
    # draw's parameter `player` is the caller's `opponent`: the moves go to the opponent's hand
    assert _hits("per ability: does move(to.owner == opponent)", WHEN % "draw(opponent, 1)")
    assert not _hits("per ability: does move(to.owner == opponent)", WHEN % "draw(you, 1)")


def test_a_verb_that_calls_itself_is_followed_once():
    verbs = '  spin:\n    params: {target: cards}\n    do: "spin(target); set(target, 凍結)"\n'
    text = WHEN % "choose up to 1 t from battle(opponent); spin(t)"
    assert len(_hits("per effect: does set(state == 凍結)", text, verbs=verbs)) == 1


def test_by_target_adds_up_one_target_only():
    q = 'per ability: total(does modify(prop == number and op == \\"+=\\").value by target) > 4'
    assert _hits(q, WHEN % "choose 1 t from battle(you); t.number += 3; t.number += 2")
    assert not _hits(q, WHEN % "choose 1 t from battle(you); choose 1 u from battle(you); "
                               "t.number += 3; u.number += 2")
    assert not _hits(q, WHEN % "for each c in battle(you) { c.number += 3 }")
    assert _hits(q, WHEN % "repeat 2 { self.number += 3 }")


@pytest.mark.parametrize(("query", "words"), [
    ("per ability: does draw(n > 2)", "`does` looks at what effects come to"),
    ("per ability: total(does modify.value by tgt) > 2", "'tgt' is not a field of modify"),
])
def test_mistakes_in_the_new_forms_are_reported(query, words):
    diags = _list(query)[0].diagnostics
    assert len(diags) == 1 and words in diags[0].message, diags
