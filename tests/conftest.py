"""Shared fixtures: the bundled games, compiled once per test session; `tcg` run in this process."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.load import files
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def ucb():
    return load_game("ucb")


@pytest.fixture(scope="session")
def ucb_decks(ucb):
    return [d.sections for d in resolve_decks(ucb, "ucb", [])]


@pytest.fixture
def no_plots(monkeypatch):
    """`tcg simulate --out` without its PNGs, for tests that do not look at them: drawing them
    takes seconds, more than the matches. The tests of the plots draw them."""
    from interpreter.run import plots

    monkeypatch.setattr(plots, "simulation", lambda *args: [])
    monkeypatch.setattr(plots, "round_robin", lambda *args: [])


def bundled_rulesets() -> list[str]:
    return files.bundled_ids()


def tcg_in_process(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`tcg ARGS` run by `interpreter.cli.main` in this process, with what a child process would
    get: its own stdin, stdout and stderr, the exit code, and games read anew from any file it
    names (a test may have rewritten one). It saves the second or more a child spends starting
    Python and building a bundled game; tests of the process itself (signals, environment
    variables, `python -m`) start a real one."""
    from interpreter.cli import main
    from interpreter.run import cards, simulate

    out, err = io.StringIO(), io.StringIO()
    before = Path.cwd()
    os.chdir(cwd)
    try:
        if any(Path(a).exists() for a in args):
            load_game.cache_clear()
            simulate._setup.cache_clear()
            cards.card_spec.cache_clear()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _stdin(io.StringIO(stdin or "")):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's usage errors
                code = e.code if isinstance(e.code, int) else 2
    finally:
        os.chdir(before)
    return subprocess.CompletedProcess(["tcg", *args], code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(stream: io.StringIO):
    saved, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = saved
