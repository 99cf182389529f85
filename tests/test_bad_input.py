"""The bad-input corpus (tests/bad/): every file gets its positioned diagnostics and exit code."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main

BAD = Path(__file__).parent / "bad"
EXPECTED = yaml.safe_load((BAD / "expected.yaml").read_text(encoding="utf-8"))
HEADER = re.compile(r"^.+?:(\d+):(\d+): error\[([A-Z0-9-]+)\]", re.M)


def check(path: Path, capsys) -> tuple[int, str, str]:
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_bad_file_is_listed():
    assert sorted(EXPECTED) == sorted(p.name for p in BAD.glob("*.yaml") if p.name != "expected.yaml")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_file(name: str, capsys):
    code, out, err = check(BAD / name, capsys)
    found = [f"{line}:{col} {c}" for line, col, c in HEADER.findall(out)]
    assert found == EXPECTED[name]["diagnostics"], out
    assert code == EXPECTED[name]["exit"]
    for words in EXPECTED[name].get("words", ()):  # the diagnostic explains the mistake
        assert words in out, out
    assert "Traceback" not in out + err


def test_huge_file_is_refused_quickly(tmp_path: Path, capsys):
    path = tmp_path / "huge.yaml"
    path.write_text("ruleset: ucb\ncards:\n" + "  - {name: x}\n" * 1_600_000, encoding="utf-8")
    start = time.perf_counter()
    code, out, _ = check(path, capsys)
    assert code == 2 and "TOO-LARGE" in out
    assert time.perf_counter() - start < 5


def test_two_thousand_cards_check_in_seconds(tmp_path: Path, capsys):
    cards = "".join(f"  - {{name: 量産{i}, kind: character, cost: {i % 7}, power: {i % 9},"
                    f" abilities: [\"when summon where card == self: draw(you, 1)\"]}}\n"
                    for i in range(2000))
    path = tmp_path / "many.yaml"
    path.write_text("ruleset: ucb\ncards:\n" + cards, encoding="utf-8")
    start = time.perf_counter()
    code, out, _ = check(path, capsys)
    assert code == 0, out
    assert time.perf_counter() - start < 10


def test_a_stale_or_corrupt_grammar_cache_is_rebuilt(tmp_path: Path):
    """The analysed grammars are cached per user (start-up); a damaged cache file costs time,
    never a wrong parse or a traceback."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    files = [str(BAD / "syntax_error.yaml"), "rulesets/ultimate.yaml"]

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "interpreter.cli", "check", *files],
                              cwd=BAD.parent.parent, env=env, capture_output=True, text=True,
                              timeout=120)

    first = run()
    caches = sorted((tmp_path / "tcg-interpreter").glob("*.lark-cache"))
    assert len(caches) == 3  # the effect grammar (fast and explaining parsers) and forbid's
    for path in caches:
        path.write_bytes(b"not a cache\n")
    again = run()
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
    assert "Traceback" not in again.stderr
    assert all(path.read_bytes() != b"not a cache\n" for path in caches)
