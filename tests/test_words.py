"""What a person reads is words in their language, never effect code: a whole match in the
terminal on every bundled ruleset in ja and en, every bundled card's rendered text, and the
checker's words about phrases. Effect code is found by the project's own parser."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.lang import ast as A
from interpreter.lang import parse_body, parse_expr
from interpreter.load import files
from interpreter.words import catalog, choose
from interpreter.words.cards import bundled_card_files, card_texts

RULESETS = files.bundled_ids()
ROOT = Path(__file__).resolve().parents[1]

# fragments that could be code: a call with parentheses, a member read, a comparison, a
# choice statement; each is only code when the Lark grammar parses it as such
_CALL = re.compile(r"[^\W\d][\w]*\(")
_MEMBER = re.compile(r"[^\W\d]\w*\.[^\W\d]\w*")
_COMPARE = re.compile(r"[\w.()]+\s*(?:==|!=|<=|>=)\s*[\w.()「」\"]+")
_CHOOSE = re.compile(r"choose (?:up to )?(?:\d+|\S+\(\S*\)) [^\W\d]\w* from \S+")


def _balanced(text: str, start: int) -> str:
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0 and text[i] == ")":
            return text[:i + 1]
    return text


def effect_code(line: str) -> str | None:
    """The first fragment of `line` the effect language parses as code, else None."""
    for m in _CALL.finditer(line):
        fragment = _balanced(line[m.start():], m.end() - m.start() - 1)
        if _parses(fragment, (A.Call,)):
            return fragment
    for pattern in (_MEMBER, _COMPARE):
        for m in pattern.finditer(line):
            if _parses(m.group(0), (A.Member, A.Binary)):
                return m.group(0)
    for m in _CHOOSE.finditer(line):
        try:
            parse_body(m.group(0))
            return m.group(0)
        except Exception:  # noqa: BLE001 - not code
            pass
    return None


_SHOWN = re.compile(r"\[[^\]]*\]|[^\s,()\[\]]+#\d+")  # how the log shows values: one name each


def _parses(fragment: str, kinds: tuple[type, ...]) -> bool:
    try:
        return isinstance(parse_expr(_SHOWN.sub("x", fragment)), kinds)
    except Exception:  # noqa: BLE001 - not code
        return False


def test_the_detector_finds_what_players_were_shown_before() -> None:
    for line in ("zero_search: choose up to count(hand(player)) x from hand(player)",
                 "UCB: choose 1 c from cs", "    · possess([a card], [a card])",
                 "fight([石の番人#47], [見習い剣士#1], True)", "if self.power > 3",
                 "where name == 「見習い剣志」"):
        assert effect_code(line) is not None, line
    for line in ("P2は石の番人で攻撃する", "P2 attacks with 石の番人", "draw 1 (P1)",
                 "石の番人#47 [cost 3, power 4]", "the power of this card is at least 3"):
        assert effect_code(line) is None, line


def test_every_fixed_word_is_in_every_language() -> None:
    missing = [k for k, v in catalog.entries().items() if set(v) != {"ja", "en"}]
    assert missing == []


def test_the_language_is_asked_for_else_declared_else_the_locale(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert choose("en", "ja") == "en"
    assert choose(None, "en") == "en"
    assert choose(None, None) == "ja"
    monkeypatch.setenv("LANG", "C")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert choose(None, None) in ("en", "ja")


def _play(capsys, monkeypatch, ruleset: str, lang: str, agents: str, turns: int = 6,
          seed: int = 3) -> list[str]:
    rng = random.Random(f"{ruleset}-{lang}")
    monkeypatch.setattr("builtins.input", lambda prompt="": str(rng.randrange(4)))
    assert main(["play", ruleset, "--agents", agents, "--lang", lang, "--turns", str(turns),
                 "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    # (the result line is a contract scripts read, kept as it is: it cites its rule's place)
    return [line for line in out.splitlines() if line.strip() and not line.startswith("result: ")]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_match_in_the_terminal_reads_as_words(capsys, monkeypatch, ruleset: str,
                                                lang: str) -> None:
    lines = _play(capsys, monkeypatch, ruleset, lang, "human,random")
    assert any(line.startswith("  [0] ") for line in lines)  # the human was asked
    code = [(line, effect_code(line)) for line in lines if effect_code(line)]
    assert code == []
    if lang == "ja":  # the account is in Japanese: turns and phases are told in it
        assert any("ターン" in line for line in lines)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_spectators_account_reads_as_words(capsys, monkeypatch, ruleset: str) -> None:
    lines = _play(capsys, monkeypatch, ruleset, "en", "random,random")
    assert [line for line in lines if effect_code(line)] == []


def test_the_opponents_turn_is_a_story(capsys, monkeypatch) -> None:
    lines = _play(capsys, monkeypatch, "ucb", "en", "human,random")
    assert any(re.search(r"P2 (plays|casts|attacks with) \S", line) for line in lines)
    # a card the viewer cannot see is never named: P2's draws are "a card"
    assert any("a card goes from P2's deck to hand" in line for line in lines)
    assert not any("P2 decides" in line for line in lines)


def test_a_question_does_not_repeat_its_card(capsys, monkeypatch) -> None:
    blocks: list[str] = []
    for seed in range(8):
        if not blocks:
            lines = _play(capsys, monkeypatch, "ucb", "en", "random,human", 12, seed)
            blocks = [line for line in lines if "blocks" in line]
    assert blocks, "P2 was asked to block"
    assert all(not re.search(r"blocks (\S+)\?.*\1", line) for line in blocks)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_bundled_card_is_rendered_in_words(lang: str) -> None:
    lines = [line for path in bundled_card_files() for line in card_texts(str(path), lang)]
    rendered = [line for line in lines if line.startswith("  " + catalog.say("rendered", lang))]
    assert len(rendered) >= 100
    assert [line for line in rendered if effect_code(line)] == []
    assert not any(catalog.say("does_not_parse", lang) in line for line in rendered)


def test_a_card_is_shown_printed_and_rendered(capsys) -> None:
    assert main(["cards", "--lang", "ja", str(ROOT / "cards/ucb/core.yaml")]) == 0
    out = capsys.readouterr().out
    assert "印刷: 場に出た時、カードを1枚引く。" in out
    assert "能力から: 場に出る時、" in out and "自分はカードを1枚引く" in out


def _ruleset_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "rulesets/ucb.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "rulesets").mkdir(parents=True)
    path = tmp_path / "rulesets/ucb.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    shutil.copytree(ROOT / "cards/ucb", tmp_path / "cards/ucb")
    return path


def test_check_warns_of_a_question_with_no_phrase(tmp_path, capsys) -> None:
    line = ('    attack.blocker: {ja: "{card}をブロックするキャラクターは？", '
            'en: "which character blocks {card}?"}\n')
    path = _ruleset_copy(tmp_path, line, "")
    main(["check", str(path)])
    out = capsys.readouterr().out
    assert "warning[W-PHRASE]" in out and "attack.blocker" in out
    assert "add phrases: {decisions: {attack.blocker: {ja: ...}}}" in out
    assert main(["play", str(path), "--turns", "2", "--quiet"]) == 0  # a warning stops nothing
    assert capsys.readouterr().out.startswith("result: ")


def test_check_refuses_a_phrase_of_no_verb_or_a_placeholder_it_cannot_fill(tmp_path, capsys) -> None:
    path = _ruleset_copy(tmp_path, '    draw: {ja: "{player}はカードを{n}枚引く"',
                         '    drow: {ja: "{player}はカードを{n}枚引く"')
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "error[E-PHRASE]" in out and "drow" in out and "draw" in out
    path = _ruleset_copy(tmp_path / "b", '"{player}はカードを{n}枚引く"', '"{who}はカードを{n}枚引く"')
    assert main(["check", str(path)]) == 1
    assert "{who} is not something 'draw' has to show" in capsys.readouterr().out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_replayed_log_reads_as_words(ruleset: str) -> None:
    """A log told with no live match (the table's replay viewer): its questions are the
    game's own, put in words."""
    import io
    import json

    from interpreter.run.loading import load_game
    from interpreter.run.match import MatchSetup, play
    from interpreter.run.narrate import Narrator

    buf = io.StringIO()
    play(MatchSetup(ruleset, [], 2, ["random", "random"], 6), buf)
    narrator = Narrator(load_game(ruleset), 0, lang="ja")
    lines = [narrator.line(json.loads(line)) for line in buf.getvalue().splitlines()]
    told = [line for line in lines if line]
    assert told and [line for line in told if effect_code(line)] == []


def test_tcg_cards_says_what_is_wrong_with_a_bad_file(tmp_path, capsys) -> None:
    for text, said in (("cards: []\n", "names its ruleset"),
                       ("ruleset: ucb\ncards: 5\n", "'cards' must be a list")):
        path = tmp_path / "bad.yaml"
        path.write_text(text, encoding="utf-8")
        assert main(["cards", str(path)]) == 2
        assert said in capsys.readouterr().err
    path.write_text('ruleset: ucb\ncards: [{name: x, abilities: ["when (("]}]\n', encoding="utf-8")
    assert main(["cards", "--lang", "en", str(path)]) == 0
    assert "does not parse: run tcg check" in capsys.readouterr().out


def english_fixed_strings() -> set[str]:
    """The catalog's English fixed strings: each entry's text between its placeholders, where
    it has a word of three letters or more (what would show that an English string leaked)."""
    from interpreter.words import ui  # noqa: F401 (its entries join the catalog)

    out = set()
    for entry in catalog.entries().values():
        for part in re.split(r"\{\w+\}", entry["en"]):
            part = part.strip(" :;,.()[]“”'-=")
            if re.search(r"[A-Za-z]{3,}", part) and part != entry["ja"]:
                out.add(part)
    return out


def _english_words(lines: list[str], data: set[str]) -> set[str]:
    """The ASCII words of the lines that are not the game's own data (a card's name or text
    value, which a designer may write in any script)."""
    return {w for line in lines for w in re.findall(r"[A-Za-z_]{3,}", line)} - data


def _data_words(ruleset: str) -> set[str]:
    from interpreter.run.loading import load_game

    game = load_game(ruleset)
    values = [str(v) for d in [*game.cards.values(), *game.tokens.values()]
              for v in [d.name, *d.props.values()] if isinstance(v, str)]
    return {w for v in values for w in re.findall(r"[A-Za-z_]{3,}", v)}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_match_in_the_terminal_is_in_japanese(capsys, monkeypatch, ruleset: str) -> None:
    """A whole match (no turn limit of its own) in the terminal in ja: no effect code (the
    Lark parser finds none), no English fixed string of the catalog, no English word at all
    but the game's own data."""
    rng = random.Random(f"{ruleset}-whole")
    monkeypatch.setattr("builtins.input", lambda prompt="": str(rng.randrange(4)))
    assert main(["play", ruleset, "--agents", "human,random", "--lang", "ja", "--seed", "5"]) == 0
    captured = capsys.readouterr()
    lines = [line for line in (captured.out + captured.err).splitlines()
             if line.strip() and not line.startswith("result: ")]
    assert any(line.startswith("  [0] ") for line in lines)
    assert [(line, effect_code(line)) for line in lines if effect_code(line)] == []
    fixed = english_fixed_strings()
    assert [(line, s) for line in lines for s in fixed if s in line] == []
    assert _english_words(lines, _data_words(ruleset)) == set()


def test_every_bundled_card_is_rendered_in_japanese_words() -> None:
    """English names of events, phases or actions inside a Japanese rendering are found."""
    lines = [line for path in bundled_card_files() for line in card_texts(str(path), "ja")]
    rendered = [line for line in lines if line.startswith("  " + catalog.say("rendered", "ja"))]
    assert [line for line in rendered if re.search(r"[A-Za-z_]{3,}", line)] == []
