"""random, first, scripted and human agents."""

from __future__ import annotations

import random
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Protocol

from interpreter.diagnostics import TcgError
from interpreter.words import ui  # noqa: F401 (its ui.* entries join the catalog)
from interpreter.words.catalog import say


class Agent(Protocol):
    def choose(self, observation: dict, options: list[str]) -> int:
        """Index of the chosen option."""


# ---------- when a human is asked at a priority window (timing: priority) ----------
STOPS = ("always", "respond", "stack", "own-turn")  # and the names of the ruleset's steps
ALWAYS = frozenset({"always"})
RESPOND = frozenset({"stack", "own-turn"})  # "stop only when I can respond", in your own turn too


def parse_stops(text: str, steps: Sequence[str] | None) -> frozenset[str]:
    """A human's stops, written `WHEN+WHEN...` (e.g. `respond+blockers`): `always` (be asked
    at every priority window where you have something besides pass), `stack` (when an object
    waits on the stack), `own-turn` (in any step of your own turn), a step's name (that step,
    in any turn), `respond` (stack+own-turn). `steps`: the ruleset's step names (None: not
    known yet, any name goes; check_stops checks them once the ruleset is loaded)."""
    words = [w.strip() for w in text.split("+")]
    unknown = [w for w in words if not w or w not in STOPS and steps is not None and w not in steps]
    if unknown:
        names = ", ".join([*STOPS, *(steps or ())])
        raise TcgError(f"unknown stop {unknown[0]!r}: write stops as WHEN+WHEN... from {names}")
    stops = frozenset(w for w in words if w != "respond") | (RESPOND if "respond" in words else set())
    return ALWAYS if "always" in stops else stops


def is_human(name: str) -> bool:
    """An agent name that seats a human (`human`, `human:STOPS`)."""
    return name.partition(":")[0] == "human"


def check_stops(agents: Sequence[str], steps: Sequence[str]) -> None:
    """Every human's stops (`human:STOPS`) name known stops or steps of the ruleset."""
    for name in agents:
        kind, _, params = name.partition(":")
        if kind == "human" and params:
            parse_stops(params, steps)


def auto_pass(stops: frozenset[str], observation: Mapping, options: Sequence[str]) -> int | None:
    """The index of pass when the `stops` let this decision go by without asking, else None.
    Only a priority window (timing: priority: the observation shows the stack) is passed: any
    other question is asked."""
    if "always" in stops or "stack" not in observation or not options or options[-1] != "pass" \
            or observation.get("deciding") != observation.get("you"):
        return None
    if "stack" in stops and observation["stack"] \
            or "own-turn" in stops and observation["turn_player"] == observation["you"] \
            or observation["phase"] in stops:
        return None
    return len(options) - 1


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
                raise ScriptError(f"script ran out; options were: {list(options)}")
            return self.fallback.choose(observation, options)
        step = self.script.pop(0)
        if step == CONCEDE:
            raise Concede
        if isinstance(step, int):
            if not 0 <= step < len(options):
                raise ScriptError(f"option {step} does not exist; options were: {list(options)}")
            return step
        matches = [i for i, o in enumerate(options) if str(step) in o]
        if not matches:
            raise ScriptError(f"no option matches {step!r}; options were: {list(options)}")
        return matches[0]


class HumanAgent:
    """Plays in the terminal: shows the board, the question and numbered options. `?N` shows
    card #N's text and properties; anything that is not an option number is asked again.
    `stops` say at which priority windows to be asked (see auto_pass): the others are passed
    without asking, and the pass is recorded as any answer."""

    def __init__(self, stops: frozenset[str] = ALWAYS, stable: bool | None = None) -> None:
        self.stops = stops
        self.numbers: dict[str, int] = {}  # a choice of several: each option's number so far
        # a person at a terminal sees numbers that do not shift as a choice of several picks;
        # piped answers (a script, a test) stay the engine's option indices, as logs record them
        self.stable = sys.stdin.isatty() if stable is None else stable

    def choose(self, observation: dict, options: list[str]) -> int:
        from interpreter.run.narrate import board

        passing = auto_pass(self.stops, observation, options)
        if passing is not None:
            return passing
        said = observation.get("said") or {}
        lang = said.get("lang", "en")
        labels = list(said.get("options") or options)
        numbers = self._numbering(observation, labels)
        print(board(observation))
        print(f"{said.get('question') or observation.get('question') or say('your_decision', lang)}:")
        for n, o in zip(numbers, labels, strict=True):
            print(f"  [{n}] {o}")
        while True:
            try:
                raw = input("> ")
            except EOFError:
                raise TcgError(say("ui.input_closed", lang)) from None
            answer = _answer(raw, observation, numbers, lang, set(self.numbers.values()))
            if isinstance(answer, int):
                return answer
            print(answer, file=sys.stderr)

    def _numbering(self, observation: dict, labels: list[str]) -> list[int]:
        """The numbers to show the options with. In a choice of several picks (the observation
        has `chosen`), each option keeps the number it had at the first pick, and the picked
        ones' numbers are not given again: the numbers do not shift as cards are picked."""
        if not self.stable:
            return list(range(len(labels)))
        before = self.numbers if observation.get("chosen") and len(set(labels)) == len(labels) else {}
        following = max(before.values(), default=-1) + 1
        numbers = []
        for label in labels:
            if label not in before:
                before = {**before, label: following}
                following += 1
            numbers.append(before[label])
        self.numbers = before if before else dict(zip(labels, numbers, strict=True))
        return numbers


def _answer(raw: str, observation: dict, numbers: list[int] | int, lang: str = "en",
            taken: set[int] | None = None) -> int | str:
    """An option index (by the number it is shown with), or what to tell the player (and ask
    again). `numbers`: each option's number (or how many options, numbered from 0)."""
    shown = list(range(numbers)) if isinstance(numbers, int) else numbers
    text = unicodedata.normalize("NFKC", raw).strip()  # full-width and circled digits: digits
    if text in (CONCEDE, say("concede_word", lang)):
        raise Concede
    number = _number(text)
    if number is not None and number in shown:
        return shown.index(number)
    if number is not None and number in (taken or ()):
        return say("already_chosen", lang, n=number)
    wanted = _number(text[1:].strip().lstrip("#")) if text.startswith("?") else None
    if wanted is not None:
        return _card_text(observation, wanted, lang)
    return say("ask_again", lang, last=max(shown, default=0))


def _number(text: str) -> int | None:
    # (ASCII digits only: int() reads other scripts' digits; a short number: int() refuses
    # thousands of digits)
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _card_text(observation: dict, cid: int, lang: str = "en") -> str:
    names = (observation.get("said") or {}).get("names", {})
    for zone, cards in observation["zones"].items():
        for c in cards:
            if c.get("id") == cid:
                lines = [say("card_in", lang, card=f"{c['name']}#{cid}", zone=zone)]
                lines += [f"  {names.get(k, k)}: {v}" for k, v in c.items()
                          if k not in ("id", "name", "text", "abilities", "rendered")]
                if c.get("text"):
                    lines.append(f"  | {c['text']}")
                said = (observation.get("said") or {}).get("cards", {})
                lines += [f"  | {t}" for t in said.get(c["name"], c.get("abilities", ()))]
                return "\n".join(lines)
    return say("no_card", lang, id=cid)


AGENTS = ("default", "default:WORLDS", "random", "first", "human", "human:STOPS", "greedy",
          "greedy:WORLDS", "mcts", "mcts:ITERATIONS", "mcts:SECONDSs", "mcts:ITERATIONS:SECONDSs")


def make_agent(name: str, seed: int) -> Agent:
    """An agent by name; search agents take parameters after colons (`mcts:400`, `mcts:2s`)."""
    kind, _, params = name.partition(":")
    if kind == "human":
        return HumanAgent(parse_stops(params, None) if params else ALWAYS)
    if kind in ("random", "first") and params:
        raise TcgError(f"agent {kind!r} takes no parameters, got {name!r}")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "first":
        return FirstAgent()
    if kind == "default":
        from interpreter.agents.default import DefaultAgent

        parts = params.split(":") if params else []
        if len(parts) > 1 or not all(_count(p) for p in parts):
            raise TcgError(f"bad agent {name!r}: write default or default:WORLDS (a whole number >= 1)")
        return DefaultAgent(seed, int(parts[0])) if parts else DefaultAgent(seed)
    if kind == "greedy":
        from interpreter.agents.greedy import GreedyAgent

        parts = params.split(":") if params else []
        if len(parts) > 1 or not all(_count(p) for p in parts):
            raise TcgError(f"bad agent {name!r}: write greedy or greedy:WORLDS (a whole number >= 1)")
        return GreedyAgent(seed, worlds=int(parts[0]) if parts else 1)
    if kind == "mcts":
        from interpreter.agents.mcts import ITERATIONS, MCTSAgent

        parts = params.split(":") if params else []
        counts = [int(p) for p in parts if _count(p)]
        seconds = [float(p[:-1]) for p in parts if p.endswith("s") and _seconds(p[:-1])]
        if len(counts) + len(seconds) != len(parts) or len(counts) > 1 or len(seconds) > 1:
            raise TcgError(f"bad agent {name!r}: write mcts, mcts:ITERATIONS, mcts:SECONDSs or "
                           "mcts:ITERATIONS:SECONDSs (e.g. mcts:400, mcts:0.5s)")
        iterations = counts[0] if counts else (None if seconds else ITERATIONS)
        return MCTSAgent(seed, iterations=iterations, time_limit=seconds[0] if seconds else None)
    raise TcgError(f"unknown agent {name!r}; choose from {', '.join(AGENTS)}")


def _count(text: str) -> bool:
    return text.isascii() and text.isdigit() and int(text) >= 1


def _seconds(text: str) -> bool:
    try:
        return 0 < float(text) < float("inf")
    except ValueError:
        return False
