"""Hostile input (issue 22): the corpus in tests/hostile/ and the inputs too large to keep
there give positioned diagnostics, never a traceback, a hang or unbounded memory; every
documented limit (docs/LANGUAGE.md §3) holds at its value and refuses one past it."""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from interpreter.diagnostics import DiagnosticError
from interpreter.lang import limits as text_limits
from interpreter.lang.parser import ParseError, parse_body, parse_expr
from interpreter.load import files, yamlpos

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = Path(__file__).parent / "hostile"
EXPECTED = yaml.safe_load((HOSTILE / "expected.yaml").read_text(encoding="utf-8"))
HEADER = re.compile(r"^.+?:(\d+):(\d+): error\[([A-Z0-9-]+)\]", re.M)
GIGABYTE = 1 << 30


def tcg(*args: str, timeout: float = 120, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The CLI in a child process held to 1 GB of address space and a timeout."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (GIGABYTE, GIGABYTE))

    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=limit)


def diagnostics(out: str) -> list[str]:
    return [f"{line}:{col} {code}" for line, col, code in HEADER.findall(out)]


# ---------- the corpus ----------

def test_every_corpus_file_is_listed():
    assert sorted(EXPECTED) == sorted(p.name for p in HOSTILE.glob("*.yaml") if p.name != "expected.yaml")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_file(name: str, capsys):
    code = main(["check", str(HOSTILE / name)])
    out, err = capsys.readouterr()
    assert diagnostics(out) == EXPECTED[name]["diagnostics"], out
    assert code == EXPECTED[name]["exit"]
    assert "Traceback" not in out + err and "internal error" not in err


def test_the_whole_corpus_in_one_bounded_process():
    r = tcg("check", *(str(HOSTILE / name) for name in sorted(EXPECTED)))
    assert r.returncode == 2, r.stderr  # some files are unusable
    assert "Traceback" not in r.stdout + r.stderr and "internal error" not in r.stderr
    assert len(diagnostics(r.stdout)) == sum(len(e["diagnostics"]) for e in EXPECTED.values())


def test_no_diagnostic_quotes_a_file_outside_the_game(capsys):
    main(["check", *map(str, sorted(HOSTILE.glob("*etc_passwd*.yaml")))])
    out, _ = capsys.readouterr()
    assert "root:" not in out and "/etc/passwd:" not in out
    assert out.count("OUTSIDE-GAME") == 3


def _card(effect: str) -> str:
    return f'ruleset: ucb\ncards:\n  - {{name: x, kind: spell, cost: 1, effect: "{effect}"}}\n'


@pytest.mark.parametrize("effect", [
    "if " + "not " * 20_000 + "true { draw(you, 1) }",  # the chains, past the text limit
    "draw(you, " + "-" * 20_000 + "1)",
    "draw(self" + ".owner" * 20_000 + ", 1)",
    "draw(you, " + "+".join(["1"] * 20_000) + ")",
    "if false { draw(you, 1) }" + " else if false { draw(you, 1) }" * 5_000,
    "draw(you, 1); " * 1_250_000,  # a 17.5 MB effect text
], ids=["not", "neg", "owner", "plus", "else-if", "17MB"])
def test_huge_effect_texts_are_refused_in_a_bounded_process(effect: str, tmp_path: Path):
    path = tmp_path / "card.yaml"
    path.write_text(_card(effect), encoding="utf-8")
    r = tcg("check", str(path))
    assert r.returncode == 1 and diagnostics(r.stdout) == ["3:46 LIMIT"], r.stdout[:500] + r.stderr
    assert f"the limit is {text_limits.MAX_TEXT:,}" in r.stdout


def test_block_yaml_nested_900_deep(tmp_path: Path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text("ruleset: ucb\ncards:\n" + "".join("  " * i + "-\n" for i in range(1, 900)),
                    encoding="utf-8")
    assert main(["check", str(path)]) == 2
    depth = yamlpos.MAX_DEPTH  # the first list too deep: line 3 holds the list at depth 2
    assert diagnostics(capsys.readouterr()[0]) == [f"{depth + 3}:{2 * depth + 3} TOO-DEEP"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/stdin", "pipe"])
def test_devices_and_pipes_named_on_the_command_line_are_refused(device: str, tmp_path: Path):
    if device == "pipe":  # reading a pipe nobody writes would block forever
        device = str(tmp_path / "pipe.yaml")
        os.mkfifo(device)
    r = tcg("check", device, timeout=30)
    assert r.returncode == 2 and "NOT-A-FILE" in r.stdout, r.stdout + r.stderr


def test_a_folder_given_on_the_command_line_may_be_named(tmp_path: Path, capsys):
    """Files outside a file's game folder are refused unless their folder is given too."""
    game, shared = tmp_path / "game", tmp_path / "shared"
    game.mkdir()
    shared.mkdir()
    (game / ".git").mkdir()
    ruleset = (ROOT / "tests/rulesets/mini.yaml").read_text(encoding="utf-8")
    (game / "r.yaml").write_text(ruleset + "\nforbid: ../shared/f.yaml\n", encoding="utf-8")
    (shared / "f.yaml").write_text("ruleset: mini\nforbid: []\n", encoding="utf-8")
    main(["check", str(game / "r.yaml")])
    assert "OUTSIDE-GAME" in capsys.readouterr()[0]
    main(["check", str(game), str(shared)])
    assert "OUTSIDE-GAME" not in capsys.readouterr()[0]


# ---------- each limit at its value and one past it ----------

def _parses(text: str, start=parse_body) -> str:
    try:
        start(text)
    except ParseError as e:
        return e.code
    return "ok"


def test_effect_text_length_limit():
    at = "draw(you, 1)".ljust(text_limits.MAX_TEXT)
    assert _parses(at) == "ok"
    assert _parses(at + " ") == "LIMIT"


def test_effect_depth_limit():
    """A tree of MAX_DEPTH nested nodes parses; one more is refused (here: unary minus)."""
    assert _parses("-" * (text_limits.MAX_DEPTH - 1) + "1", parse_expr) == "ok"
    assert _parses("-" * text_limits.MAX_DEPTH + "1", parse_expr) == "LIMIT"


def test_number_digits_limit():
    assert _parses("9" * text_limits.MAX_DIGITS, parse_expr) == "ok"
    assert _parses("9" * (text_limits.MAX_DIGITS + 1), parse_expr) == "LIMIT"


CHAINS = {  # each: n -> an effect nested about n deep
    "not": lambda n: "if " + "not " * n + "true { draw(you, 1) }",
    "neg": lambda n: "draw(you, " + "-" * n + "1)",
    "plus": lambda n: "draw(you, " + "+".join(["1"] * n) + ")",
    "and": lambda n: "if " + " and ".join(["true"] * n) + " { draw(you, 1) }",
    "else-if": lambda n: "if false { draw(you, 1) }" + " else if false { draw(you, 1) }" * n,
    "where": lambda n: "choose 1 t from battle(opponent)" + " where cost <= 3" * n + "; destroy(t)",
    "repeat": lambda n: "repeat 2 { " * n + "draw(you, 1)" + " }" * n,
    "if": lambda n: "if true { " * n + "draw(you, 1)" + " }" * n,
}


@pytest.mark.parametrize("kind", sorted(CHAINS))
def test_the_deepest_accepted_effect_checks_and_compiles(kind: str, tmp_path: Path, capsys):
    """At the depth limit every construct still checks and compiles (the generated Python
    nests too); one level more is a LIMIT diagnostic."""
    make = CHAINS[kind]
    n = max(k for k in range(1, text_limits.MAX_DEPTH + 1) if _parses(make(k)) == "ok")
    assert _parses(make(n + 1)) == "LIMIT"
    path = tmp_path / "deep.yaml"
    path.write_text(_card(make(n)), encoding="utf-8")
    assert main(["check", str(path)]) == 0, capsys.readouterr()[0]


def _load(text: str) -> str:
    try:
        yamlpos.load_text(text, "x.yaml")
    except DiagnosticError as e:
        return e.diagnostics[0].code
    return "ok"


def test_yaml_depth_limit():
    def nested(n: int) -> str:
        return "a: " + "[" * n + "]" * n  # the mapping is level 0, the outermost list level 1

    assert _load(nested(yamlpos.MAX_DEPTH)) == "ok"
    assert _load(nested(yamlpos.MAX_DEPTH + 1)) == "TOO-DEEP"


def test_yaml_integer_digits_limit():
    assert _load("a: " + "9" * yamlpos.MAX_DIGITS) == "ok"
    assert _load("a: " + "9" * (yamlpos.MAX_DIGITS + 1)) == "NUMBER-TOO-LARGE"
    assert _load("a: '" + "9" * 5000 + "'") == "ok"  # quoted: text


def test_yaml_expanded_text_limit(monkeypatch):
    """Aliases count each time they expand: a text of 100 characters and 9 aliases of it
    are 1,000 characters (keys are not counted)."""
    text = "t: &t " + "x" * 100 + "\nu: [" + ", ".join(["*t"] * 9) + "]\n"
    monkeypatch.setattr(yamlpos, "MAX_EXPANDED", 1000)
    assert _load(text) == "ok"
    monkeypatch.setattr(yamlpos, "MAX_EXPANDED", 999)
    assert _load(text) == "ALIAS-BOMB"


def test_yaml_file_size_limit(tmp_path: Path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text("a: " + "x" * 97, encoding="utf-8")
    monkeypatch.setattr(yamlpos, "MAX_BYTES", 100)
    yamlpos.load_yaml(path)
    path.write_text("a: " + "x" * 98, encoding="utf-8")
    with pytest.raises(DiagnosticError, match="TOO-LARGE"):
        yamlpos.load_yaml(path)


def test_deck_size_limit(tmp_path: Path):
    path = tmp_path / "d.yaml"
    n = files.MAX_DECK
    path.write_text(f"ruleset: ucb\nmain: {{見習い剣士: {n - 1}, 炎の剣士: 1}}\n", encoding="utf-8")
    assert len(files.load_deck(path).sections["main"]) == n
    path.write_text(f"ruleset: ucb\nmain: {{見習い剣士: {n}, 炎の剣士: 1}}\n", encoding="utf-8")
    with pytest.raises(DiagnosticError) as e:
        files.load_deck(path)
    assert [(d.line, d.col, d.code) for d in e.value.diagnostics] == [(2, 27, "DECK-TOO-LARGE")]


def test_a_scenario_naming_a_third_player_fails_cleanly(tmp_path: Path):
    from interpreter.run.scenario import run_scenario

    path = tmp_path / "s.yaml"
    path.write_text("ruleset: ucb\nname: s\nstate:\n  resources: {P3: {x: 1}}\nexpect: {winner: none}\n",
                    encoding="utf-8")
    assert run_scenario(path).failures == ["no player 'P3': the players are P1 to P2"]
