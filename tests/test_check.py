"""`tcg check`: every problem, positioned, with a suggestion; exit codes 0 / 1 / 2."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parents[1]


def headers(out: str) -> list[tuple[str, int, int, str]]:
    rx = re.compile(r"^(.+?):(\d+):(\d+): error\[([A-Z0-9-]+)\]", re.M)
    return [(p, int(a), int(b), c) for p, a, b, c in rx.findall(out)]


def test_bundled_ucb_is_clean():
    r = tcg("check", "rulesets/ucb.yaml", "cards/ucb")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no problems found" in r.stderr


BAD_CARDS = """\
ruleset: ucb
cards:
  - name: 誤字の剣士
    kind: character
    cost: three
    power: 1
    abilities:
      - "when summon where card == self: drow(you, 1)"
  - name: 迷子の呪文
    kind: spell
    cost: 1
    effect: "move(self, graveyard(you))"
"""


def test_misspelt_verb_wrong_type_unknown_zone(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_CARDS, encoding="utf-8")
    r = tcg("check", str(path))
    assert r.returncode == 1, r.stdout + r.stderr
    found = {(line, col, code) for _p, line, col, code in headers(r.stdout)}
    assert len(headers(r.stdout)) == 3, r.stdout
    assert (5, 11, "TYPE") in found or any(c in ("TYPE", "SCHEMA") and ln == 5
                                           for ln, _c, c in found), r.stdout
    assert (8, 42, "UNKNOWN-VERB") in found, r.stdout
    assert any(ln == 12 and code == "UNKNOWN-FUNCTION" for ln, _c, code in found), r.stdout
    assert "did you mean 'draw'?" in r.stdout
    assert "^" in r.stdout  # the offending line is quoted with a caret


def test_broken_yaml_is_unusable_input(tmp_path: Path):
    path = tmp_path / "broken.yaml"
    path.write_text("ruleset: ucb\ncards: [\n", encoding="utf-8")
    r = tcg("check", str(path))
    assert r.returncode == 2
    assert "Traceback" not in r.stdout + r.stderr
    assert headers(r.stdout)[0][3] == "YAML"


def test_unsafe_tag_refused(tmp_path: Path):
    path = tmp_path / "evil.yaml"
    path.write_text("ruleset: !!python/object/apply:os.system [echo hi]\ncards: []\n")
    r = tcg("check", str(path))
    assert r.returncode == 2 and "UNSAFE-TAG" in r.stdout


def test_illegal_deck_cites_the_rule(tmp_path: Path):
    path = tmp_path / "deck.yaml"
    path.write_text("ruleset: ucb\nname: short\nmain: {炎の剣士: 5}\n", encoding="utf-8")
    r = tcg("check", str(path))
    assert r.returncode == 1
    codes = {h[3] for h in headers(r.stdout)}
    assert {"DECK-SIZE", "DECK-COPIES"} <= codes, r.stdout
    assert "rule: 構築ルール" in r.stdout


def test_missing_file_is_reported_not_raised():
    r = tcg("check", "no/such/file.yaml")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_deck_rules_total_and_copies(tmp_path: Path):
    """A rule may bound the total of a property (恩恵スキルレベル ≤ 10) or the copies of each
    matching name (ユニーク: one per kind across the sections), or what one section holds —
    マナカード's deck rules."""
    deck = tmp_path / "deck.yaml"
    deck.write_text("ruleset: manacard\nmain: {見習い剣士: 48, 赤竜: 2}\n"
                    "skill: {火の玉: 49, 槍兵: 1}\n"
                    "status: {剛力の加護: 1, 賢者の加護: 1, 俊足の加護: 1}\n", encoding="utf-8")
    r = tcg("check", str(deck))
    assert r.returncode == 1, r.stdout
    codes = {h[3] for h in headers(r.stdout)}
    assert codes == {"DECK-BLESSING", "DECK-UNIQUE", "DECK-SKILL-KINDS"}, r.stdout
    assert "a total level of 12" in r.stdout and "2 copies of '赤竜'" in r.stdout, r.stdout
    legal = tcg("check", "cards/manacard/decks")
    assert legal.returncode == 0, legal.stdout


def test_windows_name_known_actions(tmp_path: Path):
    """A window lists actions; `offer` names an action or a window: typos are reported."""
    mini = (ROOT / "tests/rulesets/mini.yaml").read_text(encoding="utf-8")
    bad = mini.replace("    actions: [tool, cast]\n", "    actions: [tool, cats]\n") \
              .replace('do: "offer(opponent, reply)"', 'do: "offer(opponent, replly)"')
    path = tmp_path / "mini.yaml"
    path.write_text(bad, encoding="utf-8")
    r = tcg("check", str(path))
    assert r.returncode == 1, r.stdout
    assert [h[3] for h in headers(r.stdout)] == ["UNKNOWN-ACTION", "UNKNOWN-ACTION"], r.stdout
    assert "did you mean 'cast'?" in r.stdout and "did you mean 'reply'?" in r.stdout, r.stdout


def test_a_run_parses_each_text_once(monkeypatch):
    """`tcg check` builds a game for the ruleset, for its cards and for each deck, and reads
    the cards again for the forbid list: each distinct text is still parsed only once."""
    from collections import Counter

    from interpreter.check.files import check_paths
    from interpreter.compile.texts import parse_text
    from interpreter.lang import parser

    parses: Counter = Counter()
    real = parser._parse

    def counted(text: str, start: str):
        parses[start, text] += 1
        return real(text, start)

    monkeypatch.setattr(parser, "_parse", counted)
    parse_text.cache_clear()
    paths = [ROOT / "rulesets" / "ultimate.yaml", ROOT / "cards" / "ultimate"]
    assert not check_paths(paths).diagnostics
    assert len(parses) > 50 and set(parses.values()) == {1}, parses.most_common(3)
