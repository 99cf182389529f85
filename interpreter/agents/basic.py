"""random, first, scripted and human agents."""

from __future__ import annotations

import random
import sys
from typing import Protocol

from interpreter.diagnostics import TcgError


class Agent(Protocol):
    def choose(self, observation: dict, options: list[str]) -> int:
        """Index of the chosen option."""


class RandomAgent:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: dict, options: list[str]) -> int:
        return self.rng.randrange(len(options))


class FirstAgent:
    def choose(self, observation: dict, options: list[str]) -> int:
        return 0


class ScriptError(TcgError):
    pass


class Concede(Exception):  # noqa: N818 - a signal, not an error
    """Raised by an agent instead of choosing: the player resigns."""


CONCEDE = "concede"  # a script step (and a human's input) that resigns


class ScriptedAgent:
    """Answers from a script: an option index, or a text the option label must contain."""

    def __init__(self, script: list, fallback: Agent | None = None) -> None:
        self.script = list(script)
        self.fallback = fallback

    def choose(self, observation: dict, options: list[str]) -> int:
        if not self.script:
            if self.fallback is None:
                raise ScriptError(f"script ran out; options were: {options}")
            return self.fallback.choose(observation, options)
        step = self.script.pop(0)
        if step == CONCEDE:
            raise Concede
        if isinstance(step, int):
            if not 0 <= step < len(options):
                raise ScriptError(f"option {step} does not exist; options were: {options}")
            return step
        matches = [i for i, o in enumerate(options) if str(step) in o]
        if not matches:
            raise ScriptError(f"no option matches {step!r}; options were: {options}")
        return matches[0]


class HumanAgent:
    """Plays in the terminal: shows the board and numbered options."""

    def choose(self, observation: dict, options: list[str]) -> int:
        from interpreter.run.narrate import board

        print(board(observation))
        for i, o in enumerate(options):
            print(f"  [{i}] {o}")
        while True:
            try:
                raw = input("> ").strip()
            except EOFError:
                raise TcgError("input closed") from None
            if raw.isdigit() and int(raw) < len(options):
                return int(raw)
            if raw == CONCEDE:
                raise Concede
            print(f"type a number from 0 to {len(options) - 1}, or 'concede'", file=sys.stderr)


AGENTS = ("random", "first", "human")


def make_agent(name: str, seed: int) -> Agent:
    if name == "random":
        return RandomAgent(seed)
    if name == "first":
        return FirstAgent()
    if name == "human":
        return HumanAgent()
    raise TcgError(f"unknown agent {name!r}; choose from {', '.join(AGENTS)}")
