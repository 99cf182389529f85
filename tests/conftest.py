"""Shared fixtures: the bundled games, compiled once per test session."""

from __future__ import annotations

import pytest

from interpreter.load import files
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks


@pytest.fixture(scope="session")
def ucb():
    return load_game("ucb")


@pytest.fixture(scope="session")
def ucb_decks(ucb):
    return [d.sections for d in resolve_decks(ucb, "ucb", [])]


def bundled_rulesets() -> list[str]:
    return files.bundled_ids()
