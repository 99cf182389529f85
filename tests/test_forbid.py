"""Forbidden-effect lists: every entry of アルティメット・ゲーム's 禁止項目 is tested on both sides
(tests/forbid/ultimate_cases.yaml), queries report their own mistakes in place, and the
output formats keep their shape."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from interpreter.check import forbid
from interpreter.check.files import check_paths
from interpreter.cli import main
from interpreter.compile.build import build_game
from interpreter.load import files
from interpreter.load.yamlpos import load_text, load_yaml

CASES = yaml.safe_load((Path(__file__).parent / "forbid" / "ultimate_cases.yaml").read_text("utf-8"))
RULESET = load_yaml(files.ruleset_path("ultimate"))
ENTRIES, NAMES, DEFAULTS = forbid.for_ruleset(RULESET)


def _card_doc(cards: list[dict]):
    return load_text(yaml.safe_dump({"ruleset": "ultimate", "cards": cards}, allow_unicode=True),
                     "cases.yaml")


def _card(case: dict, side: str, i: int) -> dict:
    return {"name": f"case{i}-{side}", **CASES["base"], **case[side]}


def _codes(card: dict) -> set[str]:
    return {d.code for d in forbid.check_cards(ENTRIES, NAMES, DEFAULTS, [_card_doc([card])])}


def test_the_list_compiles_and_every_entry_says_why():
    assert ENTRIES.diagnostics == []
    assert len(ENTRIES.entries) >= 50
    for e in ENTRIES.entries:
        assert e.sentence and e.explain and (e.query_text or e.enforced), e.id


def test_every_entry_with_a_query_has_cases():
    queried = {e.id for e in ENTRIES.entries if e.query_text}
    cased = {c["entry"] for c in CASES["cases"]}
    assert cased <= queried, cased - queried
    assert queried <= cased, queried - cased


def test_every_entry_without_a_query_says_how_it_is_tested():
    enforced_only = {e.id for e in ENTRIES.entries if not e.query_text}
    assert set(CASES["enforced"]) == enforced_only
    root = Path(__file__).parent.parent
    for entry_id, how in CASES["enforced"].items():
        assert "untestable" in how or (root / how["test"]).is_file(), entry_id


@pytest.mark.parametrize("i", range(len(CASES["cases"])),
                         ids=[f"{c['entry']}-{i}" for i, c in enumerate(CASES["cases"])])
def test_case_breaks_and_near_miss_passes(i: int):
    case = CASES["cases"][i]
    assert case["entry"] in _codes(_card(case, "breaks", i))
    assert case["entry"] not in _codes(_card(case, "passes", i))


def test_case_cards_are_valid_card_texts():
    cards = [_card(c, side, i) for i, c in enumerate(CASES["cases"]) for side in ("breaks", "passes")]
    build_game(RULESET, [_card_doc(cards)])  # raises DiagnosticError on any text problem


def test_bundled_cards_are_clean():
    report = check_paths([Path(RULESET.path), files.ROOT / "cards" / "ultimate"])
    assert report.diagnostics == []


def test_violation_points_at_the_offending_call():
    text = ('ruleset: ultimate\ncards:\n  - name: 欲張り\n    rank: "3"\n    number: 3\n'
            '    monster: true\n    abilities:\n'
            '      - "when summon where self in card: may { draw(you, 1); draw(you, 2) }"\n')
    (d,) = forbid.check_cards(ENTRIES, NAMES, DEFAULTS, [load_text(text, "x.yaml")])
    col = text.splitlines()[7].index("draw(you, 2)") + 1  # the second draw: there it goes over 2
    assert (d.code, d.line, d.col, d.end_col) == ("DRAW-TWO", 8, col, col + len("draw(you, 2)"))
    assert d.render().splitlines()[2].strip() == "^" * len("draw(you, 2)")
    assert d.ref.startswith("効果テキストにおいて") and "two cards" in d.message


def _ruleset_with(query: str):
    entry = f"forbid:\n  - id: MINE\n    sentence: 文\n    explain: e\n    query: \"{query}\""
    raw = RULESET.text.replace("forbid: ultimate.forbid.yaml", entry)
    return load_text(raw, "r.yaml")


@pytest.mark.parametrize(("query", "code", "at", "words"), [
    ("per ability: draw(n > )", "SYNTAX", ")", "unexpected"),
    ("per ability: drow(n > 2)", "UNKNOWN-NAME", "drow", "did you mean 'draw'"),
    ("per ability: draw(m > 2)", "UNKNOWN-NAME", "m >", "not a field of draw"),
    ("per card: card.nmber > 2", "UNKNOWN-NAME", "card.", "did you mean 'number'"),
    ("per effect: destroy(target.size > 2)", "UNKNOWN-NAME", "target", "attribute"),
    ("per ability: when or draw(n > 2).n", "SYNTAX", ".n", "unexpected"),
    ("per ability: when(event in [summon, relase])", "UNKNOWN-NAME", "relase", "did you mean 'release'"),
    ("per effect: move(to.zone == hnd)", "UNKNOWN-NAME", "hnd", "names no zone"),
    ("per ability: cannot(name == atack)", "UNKNOWN-NAME", "atack", "did you mean 'attack'"),
    ("per effect: set(state == 疲", "SYNTAX", "", "end of query"),
    ("per card: 0 + 0", "TYPE", "0 +", "true or false"),   # found by tests/test_fuzz_queries.py
])
def test_query_mistakes_are_positioned(query, code, at, words):
    doc = _ruleset_with(query)
    diags = forbid.for_ruleset(doc)[0].diagnostics
    line = next(i for i, x in enumerate(doc.text.splitlines(), 1) if f'query: "{query}"' in x)
    col = len('    query: "') + (query.index(at) if at else len(query)) + 1
    assert [(d.code, d.line, d.col) for d in diags] == [(code, line, col)], diags
    assert words in diags[0].message + diags[0].hint


def test_explain_prints_the_entry(capsys):
    assert main(["check", "--explain", "BURN-FIVE"]) == 0
    out = capsys.readouterr().out
    assert "バーンダメージは最大5枚とする。" in out and "burn" in out and "per effect" in out
    assert main(["check", "--explain", "BURN-FIFE"]) == 2
    assert "did you mean 'BURN-FIVE'" in capsys.readouterr().err


BROKEN = Path(__file__).parent / "bad" / "forbid_broken.yaml"

# The parts of SARIF 2.1.0 (https://json.schemastore.org/sarif-2.1.0.json) a code host reads.
SARIF_SHAPE = {
    "type": "object", "required": ["version", "runs", "$schema"],
    "properties": {
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["tool", "results"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name", "rules"],
                    "properties": {"rules": {"type": "array", "items": {
                        "type": "object", "required": ["id"]}}}}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["ruleId", "message", "locations", "level"],
                    "properties": {
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": {"type": "object", "required": ["text"]},
                        "locations": {"type": "array", "minItems": 1, "items": {
                            "type": "object", "required": ["physicalLocation"],
                            "properties": {"physicalLocation": {
                                "type": "object", "required": ["artifactLocation", "region"],
                                "properties": {
                                    "artifactLocation": {"type": "object", "required": ["uri"]},
                                    "region": {"type": "object", "required": ["startLine", "startColumn"],
                                               "properties": {
                                                   "startLine": {"type": "integer", "minimum": 1},
                                                   "startColumn": {"type": "integer", "minimum": 1}}},
                                }}}}},
                    }}},
            }}},
    },
}


def test_sarif_output_has_the_sarif_shape(capsys):
    assert main(["check", "--format", "sarif", str(BROKEN)]) == 1
    log = json.loads(capsys.readouterr().out)
    jsonschema.validate(log, SARIF_SHAPE)
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    results = [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
               for r in run["results"]]
    assert ("NO-WIN", 7) in results and ("DRAW-TWO", 5) in results
    regions = {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"] for r in run["results"]}
    assert regions["NO-WIN"] == {"startLine": 7, "startColumn": 60, "endColumn": 68}
    assert all(r["ruleIndex"] == rules.index(r["ruleId"]) for r in run["results"])
    no_win = run["tool"]["driver"]["rules"][rules.index("NO-WIN")]
    assert no_win["fullDescription"]["text"] == "『このゲームに勝利する』効果はなしとする。"


def test_json_output_lists_every_diagnostic(capsys):
    assert main(["check", "--format", "json", str(BROKEN)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["line"], d["col"]) for d in out] == [
        ("SYNTAX", 6, 119), ("UNKNOWN-VERB", 8, 105), ("DRAW-TWO", 5, 107), ("NO-WIN", 7, 60),
        ("ACE-IS-ONE", 9, 33)]
    # the span of the offending text: the call `draw(you, 3)`, `win(you)`, the value `2`
    assert [d["end_col"] for d in out[2:]] == [107 + 12, 60 + 8, 33 + 1]
    assert out[3]["rule"] == "『このゲームに勝利する』効果はなしとする。"


def test_the_documented_queries_compile():
    """Every query written in LANGUAGE.md's forbid-list section compiles against the ruleset."""
    import re

    from interpreter.check.forbid_compile import compile_query
    from interpreter.check.forbid_query import parse_query

    text = (Path(__file__).parent.parent / "docs" / "LANGUAGE.md").read_text("utf-8")
    section = text[text.index("### 1.8 Forbid lists"):text.index("## 2. The effect language")]
    queries = [q.replace('\\"', '"') for q in re.findall(r'query: "(.*)"$', section, re.M)]
    queries += re.findall(r"^(per (?:card|ability|effect): .*?)(?:\s+#.*)?$", section, re.M)
    assert len(queries) >= 10
    for q in queries:
        assert compile_query(parse_query(q), NAMES).problems == [], q
