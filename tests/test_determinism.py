"""Same files, seed and decisions give a byte-identical log — across processes and hash seeds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.load import files

ROOT = Path(__file__).resolve().parents[1]


def play_log(ruleset: str, seed: int, hashseed: str, out: Path) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    r = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", ruleset, "--seed",
                        str(seed), "--quiet", "--log", str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return out.read_bytes()


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_hash_randomisation_does_not_leak_into_the_log(ruleset: str, tmp_path: Path):
    a = play_log(ruleset, 7, "0", tmp_path / "a.jsonl")
    b = play_log(ruleset, 7, "4242", tmp_path / "b.jsonl")
    assert a == b
    assert len(a.splitlines()) > 50
