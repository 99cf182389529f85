"""Nothing lost: a process killed with SIGKILL mid-run resumes to what an unbroken run gives."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parents[1]
TCG = [sys.executable, "-m", "interpreter.cli"]  # the runs killed; the others run in this process


def wait_for(condition, what: str, timeout: float = 120) -> None:
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_play_killed_mid_match_resumes_to_the_identical_log(tmp_path: Path):
    """The human's process is killed while it waits for its 41st answer."""
    args = ["play", "ucb", "--agents", "human,random", "--seed", "6", "--quiet"]
    answers = "0\n" * 3000
    full = tmp_path / "full.jsonl"
    assert tcg(*args, "--log", str(full), stdin=answers).returncode == 0
    log = tmp_path / "killed.jsonl"
    p = subprocess.Popen([*TCG, *args, "--log", str(log)], cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        p.stdin.write(b"0\n" * 40)
        p.stdin.flush()
        wait_for(lambda: sum('"d": "P1"' in x for x in lines(log)) == 40, "40 answers in the log")
        time.sleep(0.2)  # let it run on to its next question
    finally:
        p.kill()
        p.wait()
    assert p.returncode == -9
    kept = log.read_text(encoding="utf-8")
    assert full.read_text(encoding="utf-8").startswith(kept) and len(kept) < full.stat().st_size
    r = tcg("replay", str(log))
    assert r.returncode == 1 and "stops after line" in r.stdout, r.stdout
    r = tcg("play", "--resume", str(log), "--quiet", stdin=answers)
    assert r.returncode == 0 and "result: P" in r.stdout.splitlines()[-1], r.stderr
    assert log.read_bytes() == full.read_bytes()


@pytest.mark.usefixtures("no_plots")
def test_simulate_killed_mid_run_keeps_its_matches_and_resumes(tmp_path: Path):
    games, out = 60, tmp_path / "killed"
    args = ["simulate", "ucb", "--games", str(games), "--workers", "1", "--seed", "11", "--quiet"]
    p = subprocess.Popen([*TCG, *args, "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: len(lines(out / "results.jsonl")) >= 10, "10 finished matches")
    finally:
        p.kill()
        p.wait()
    assert p.returncode == -9
    kept = []
    for x in lines(out / "results.jsonl"):
        with contextlib.suppress(json.JSONDecodeError):  # the line being written at the kill
            kept.append(json.loads(x))
    assert 10 <= len(kept) < games and [r["match"] for r in kept] == list(range(len(kept)))
    r = tcg(*args, "--out", str(out), "--resume")
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{games - len(kept)} played" in r.stdout and f"{len(kept)} from --resume" in r.stdout
    fresh = tmp_path / "fresh"
    assert tcg(*args, "--out", str(fresh)).returncode == 0
    assert lines(out / "results.jsonl") == lines(fresh / "results.jsonl")
    assert (out / "summary.json").read_text() == (fresh / "summary.json").read_text()
