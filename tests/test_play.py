"""`tcg play` and `tcg replay` as a user runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parents[1]


def tcg_process(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_play_ends_with_one_result_line(tmp_path: Path):
    """In a process of its own, as a user runs it (the other tests run `tcg` in this one)."""
    log = tmp_path / "m.jsonl"
    r = tcg_process("play", "ucb", "--seed", "1", "--log", str(log), "--lang", "en")
    assert r.returncode == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.match(r"result: (P[12] wins|draw) — .+ after \d+ turns", last), last
    assert "== turn 1: P1 ==" in r.stdout
    records = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["tcg"] == 1 and records[0]["seed"] == 1
    assert records[-1]["e"] == "game_over"
    again = tcg_process("replay", str(log))
    assert again.returncode == 0 and "identical" in again.stdout


def test_a_human_sees_only_their_side():
    r = tcg("play", "ucb", "--agents", "human,random", "--seed", "2", "--lang", "en",
            stdin="0\n" * 3000)
    assert r.returncode == 0, r.stderr
    assert "result:" in r.stdout
    assert "a card goes from P2's deck to hand" in r.stdout
    assert not re.search(r"#\d+ goes from P2's deck to hand", r.stdout)
    board = r.stdout[r.stdout.index("-- turn"):]
    assert re.search(r"hand@P2 +\d+ hidden\n", board)


def test_bad_deck_leaves_no_log(tmp_path: Path):
    deck = tmp_path / "d.yaml"
    deck.write_text("ruleset: ucb\nmain: {見習い剣士: 4}\n", encoding="utf-8")
    log = tmp_path / "m.jsonl"
    r = tcg("play", "ucb", "--deck", str(deck), "--deck", str(deck), "--log", str(log))
    assert r.returncode == 1 and "DECK-SIZE" in r.stdout
    assert not log.exists()


def test_unknown_ruleset_suggests():
    r = tcg("play", "ucbb")
    assert r.returncode == 2 and "did you mean 'ucb'?" in r.stdout
    assert "Traceback" not in r.stderr


def test_a_human_may_concede_and_the_log_replays(tmp_path: Path):
    log = tmp_path / "c.jsonl"
    r = tcg("play", "ucb", "--agents", "random,human", "--seed", "4", "--log", str(log),
            stdin="concede\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1].startswith("result: P1 wins — P2 concedes")
    again = tcg("replay", str(log))
    assert again.returncode == 0 and "identical" in again.stdout, again.stdout


def test_an_interrupted_match_resumes_to_the_identical_log(tmp_path: Path):
    full = tmp_path / "full.jsonl"
    assert tcg("play", "ucb", "--seed", "9", "--log", str(full), "--quiet").returncode == 0
    data = full.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: len(data) // 2])  # killed mid-line, even mid-character
    r = tcg("replay", str(cut))
    assert r.returncode == 1 and "stops after line" in r.stdout
    r = tcg("play", "--resume", str(cut), "--quiet")
    assert r.returncode == 0 and r.stdout.startswith("result:")
    assert cut.read_bytes() == data


def test_a_human_match_resumes_with_the_logged_answers(tmp_path: Path):
    full = tmp_path / "h.jsonl"
    answers = "0\n" * 3000
    tcg("play", "ucb", "--agents", "human,random", "--seed", "3", "--log", str(full), "--quiet",
        stdin=answers)
    lines = full.read_text(encoding="utf-8").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:300]), encoding="utf-8")
    tcg("play", "--resume", str(cut), "--quiet", stdin=answers)
    assert cut.read_text(encoding="utf-8") == "".join(lines)


def test_turn_limit_option_ends_in_judgement_and_replays(tmp_path: Path):
    """`--turns N` sets the match's turn limit; the ruleset's judgement decides at it, and the
    log's header keeps the limit so that replay and resume see the same match."""
    log = tmp_path / "m.jsonl"
    r = tcg("play", "dannokomachi", "--seed", "1", "--turns", "2", "--log", str(log))
    assert r.returncode == 0, r.stderr
    assert re.search(r"result: P[12] wins — P[12] wins: 判定: .+ after 2 turns", r.stdout), \
        r.stdout[-300:]
    records = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["turns"] == 2
    assert any(x.get("e") == "judgement" for x in records)
    again = tcg("replay", str(log))
    assert again.returncode == 0 and "identical" in again.stdout, again.stdout
    bad = tcg("play", "dannokomachi", "--turns", "0")
    assert bad.returncode == 2 and "--turns" in bad.stderr and "Traceback" not in bad.stderr


def test_resume_refuses_settings_the_log_already_fixes(tmp_path: Path):
    log = tmp_path / "m.jsonl"
    tcg("play", "ucb", "--seed", "3", "--log", str(log), "--quiet")
    r = tcg("play", "--resume", str(log), "--seed", "4", "--agents", "first,first")
    assert r.returncode == 2 and "drop --seed, --agents" in r.stderr, r.stderr
