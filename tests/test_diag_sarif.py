"""Rule keepers' CI: SARIF rooted at the repository from any directory, tool version and
rule help, related locations, and reviewed waivers of forbid entries."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent

WAIVED = """\
ruleset: ultimate
cards:
  - name: 大いなる知恵
    rank: Q
    number: 2
    magic: true
    effect: "draw(you, 3)"
    waivers:
      - {forbid: DRAW-TWO, reason: "a one-off promo, reviewed by the rules keepers"}
"""


def _repo(tmp_path: Path, cards: str) -> Path:
    """A card repository: a `.git` folder at its root, the card file two folders down."""
    (tmp_path / ".git").mkdir()
    path = tmp_path / "sets" / "promo" / "cards.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(cards, encoding="utf-8")
    return path


def _sarif(path: Path, cwd: Path, capsys, monkeypatch) -> dict:
    monkeypatch.chdir(cwd)
    main(["check", "--format", "sarif", str(path)])
    return json.loads(capsys.readouterr().out)["runs"][0]


def test_sarif_uris_are_relative_to_the_repository_root_from_any_directory(
        tmp_path: Path, capsys, monkeypatch):
    path = _repo(tmp_path, WAIVED.split("    waivers:")[0])  # breaks DRAW-TWO
    elsewhere = tmp_path.parent
    for cwd in (tmp_path, path.parent, elsewhere):
        run = _sarif(path.relative_to(cwd) if cwd != elsewhere else path, cwd, capsys,
                     monkeypatch)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in run["results"]}
        bases = {r["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId")
                 for r in run["results"]}
        assert uris == {"sets/promo/cards.yaml"} and bases == {"%SRCROOT%"}, cwd
        assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.resolve().as_uri() + "/"


def test_sarif_names_the_tool_version_and_explains_rules_in_words(capsys, tmp_path: Path):
    path = _repo(tmp_path, WAIVED.replace("magic: true\n", "magic: true\n    x: 1\n", 1))
    main(["check", "--format", "sarif", str(path)])
    run = json.loads(capsys.readouterr().out)["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["version"][0].isdigit() and driver["informationUri"].split(":")[0] in (
        "https", "http", "file")
    rules = {r["id"]: r for r in driver["rules"]}
    assert rules["DRAW-TWO"]["help"]["text"] == \
        "One ability may draw or add to the hand at most two cards in total."
    assert "property" in rules["UNKNOWN-PROPERTY"]["help"]["text"]


def test_a_waived_breach_is_a_suppression_not_a_problem(capsys, tmp_path: Path):
    path = _repo(tmp_path, WAIVED)
    assert main(["check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "DRAW-TWO" not in out and "no problems found (1 waived)" in err
    assert main(["check", "--waivers", str(path)]) == 0
    listed = capsys.readouterr().out
    assert "cards.yaml:7:14: waived[DRAW-TWO]: 大いなる知恵" in listed
    assert "reason: a one-off promo, reviewed by the rules keepers" in listed
    main(["check", "--format", "sarif", str(path)])
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert result["ruleId"] == "DRAW-TWO"
    assert result["suppressions"] == [{"kind": "inSource", "status": "accepted",
                                       "justification": "a one-off promo, reviewed by the "
                                                        "rules keepers"}]


def test_a_waiver_must_name_an_entry_and_be_needed(capsys, tmp_path: Path):
    cards = WAIVED.replace("draw(you, 3)", "draw(you, 1)").replace(
        "      - {forbid: DRAW-TWO", "      - {forbid: DRAW-TW0, reason: typo}\n"
                                    "      - {forbid: DRAW-TWO")
    path = _repo(tmp_path, cards)
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "9:18: error[UNKNOWN-WAIVER]: no forbid entry 'DRAW-TW0' to waive" in out
    assert "did you mean 'DRAW-TWO'?" in out
    assert "10:18: warning[UNUSED-WAIVER]: the card does not break DRAW-TWO" in out


def test_a_waiver_without_a_reason_is_refused(capsys, tmp_path: Path):
    path = _repo(tmp_path, WAIVED.replace(', reason: "a one-off promo, reviewed by the rules '
                                          'keepers"', ""))
    assert main(["check", str(path)]) == 1
    assert "missing required key 'reason'" in capsys.readouterr().out


def test_related_locations_in_json_and_sarif(capsys, tmp_path: Path):
    bad = ROOT / "tests" / "bad" / "duplicate_card.yaml"
    main(["check", "--format", "json", str(bad)])
    (d,) = json.loads(capsys.readouterr().out)
    assert d["related"] == [{"path": str(bad), "line": 3, "col": 11,
                             "message": "first defined here"}]
    main(["check", "--format", "sarif", str(bad)])
    (r,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    (rel,) = r["relatedLocations"]
    assert rel["message"]["text"] == "first defined here"
    assert rel["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 11}
    assert rel["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "tests/bad/duplicate_card.yaml")
