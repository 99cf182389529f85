"""Reading a match log as untrusted input: every field and decision checked, with its line.

A log may come from another machine, be edited by hand or be cut short by a kill; `tcg
replay` and `tcg play --resume` say what is wrong and on which line instead of failing
somewhere inside the engine.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.agents.basic import CONCEDE, Concede
from interpreter.diagnostics import TcgError
from interpreter.engine.state import GameState
from interpreter.load import confine, json_text
from interpreter.run.outputs import TextOut

LOG_VERSION = 1
MAX_LOG_BYTES = 512_000_000  # a million-decision match logs ~150 MB
MAX_BUDGET = 10_000  # a search agent's iterations or worlds, when a log or a request names it
MAX_SECONDS = 10
_PLAYER = re.compile(r"P[1-9][0-9]?$")


class BadDecision(TcgError):
    """A logged decision that the match does not offer."""


class OutOfDecisions(Exception):  # noqa: N818 - a signal: the log ends before the match
    pass


@dataclass(frozen=True)
class Step:
    line: int
    value: int | str  # an option's index, or CONCEDE


@dataclass
class Log:
    lines: list[str]
    header: dict[str, Any]
    steps: list[Step]


def read(path: str | Path, home: Path | None = None) -> Log:
    """The log at `path`, checked line by line; TcgError naming the line otherwise. The files
    its header names must lie inside `home` (default: the log's game folder), the bundled
    games or a folder given on the command line (load/confine.py)."""
    lines = _lines(path)
    if not lines:
        raise TcgError(f"{path} is empty")
    records = [_record(path, n, text) for n, text in enumerate(lines, start=1)]
    header = _header(path, records[0])
    _confine(path, header, confine.game_folder(path) if home is None else home)
    steps = [_step(path, n, r) for n, r in enumerate(records[1:], start=2) if "d" in r]
    return Log(lines, header, steps)


def _lines(path: str | Path) -> list[str]:
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a pipe or device would block or never end
            raise TcgError(f"{path} is not a regular file: not a tcg log")
        with open(path, "rb") as f:
            raw = f.read(MAX_LOG_BYTES + 1)
    except OSError as e:
        raise TcgError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > MAX_LOG_BYTES:
        raise TcgError(f"{path} is larger than {MAX_LOG_BYTES:,} bytes: not a tcg log")
    if not raw.endswith(b"\n"):  # a run killed mid-write: drop its unfinished line
        raw = raw[: raw.rfind(b"\n") + 1]
    try:
        return raw.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise TcgError(f"{path}: line {line}: not UTF-8 text: not a tcg log") from None


def _record(path: str | Path, n: int, text: str) -> dict:
    try:
        record = json_text.parse(text)
    except json_text.JsonError as e:
        what = "its header" if n == 1 else "a JSON object"
        raise TcgError(f"{path}: line {n}: not {what}: {e}") from None
    if not isinstance(record, dict):
        raise TcgError(f"{path}: line {n}: not a JSON object")
    return record


def _header(path: str | Path, h: dict) -> dict:
    def bad(field: str, want: str) -> TcgError:
        return TcgError(f"{path}: line 1: the header's {field!r} must be {want}, "
                        f"got {json.dumps(h.get(field), ensure_ascii=False)[:80]}")

    if h.get("tcg") != LOG_VERSION:
        raise TcgError(f"{path}: line 1: not a tcg log (its header's 'tcg' must be {LOG_VERSION}, "
                       f"got {json.dumps(h.get('tcg'))[:20]})")
    if not isinstance(h.get("ruleset"), str) or "\0" in h["ruleset"]:
        raise bad("ruleset", "text (a bundled id or a ruleset path)")
    if not _texts(h.get("decks")) or any("\0" in d for d in h["decks"]):
        raise bad("decks", "a list of deck file paths")
    if not _whole(h.get("seed")):
        raise bad("seed", "a whole number")
    if not _texts(h.get("agents")) or not h["agents"]:
        raise bad("agents", "a list of agent names")
    if "turns" in h and not (_whole(h["turns"]) and h["turns"] >= 1):
        raise bad("turns", "a whole number of at least 1")
    if "options" in h and not (isinstance(h["options"], dict)
                               and all(isinstance(v, str) for v in h["options"].values())):
        raise bad("options", "a mapping of option names to choices")
    return h


def _confine(path: str | Path, h: dict, home: Path) -> None:
    """A file the header names (read, as `tcg play` wrote it, relative to the current folder)
    must lie inside the game: a log from a stranger must not have the answer quote
    /etc/passwd. A ruleset that is no file is a bundled id."""
    named = [("ruleset", h["ruleset"])] if Path(h["ruleset"]).exists() else []
    named += [("decks", d) for d in h["decks"]]
    for field, spec in named:
        if not confine.inside(Path(spec), home):
            raise TcgError(f"{path}: line 1: error[OUTSIDE-GAME]: the header's {field!r} names "
                           f"{json.dumps(spec, ensure_ascii=False)[:120]}, outside the game's "
                           f"folder {home}; keep the log inside the game's folder, or name "
                           "files inside it")


def check_agent(name: str, where: str) -> str:
    """An agent named by a log or a request, held to a bounded search: every whole number in
    it at most MAX_BUDGET and every time at most MAX_SECONDS (a stranger's
    `mcts:1000000000` would search for days)."""
    for part in name.split(":")[1:]:
        timed = part.endswith("s")
        try:
            value = float(part[:-1] if timed else part)
        except ValueError:
            continue  # (not a budget: the agent's own parser says what is wrong)
        if not value <= (MAX_SECONDS if timed else MAX_BUDGET):  # (NaN too)
            raise TcgError(f"{where}: the agent {name[:80]!r} searches more than "
                           f"{MAX_BUDGET:,} steps or {MAX_SECONDS} s a decision, the most a "
                           "log or a request may ask for; name a smaller one")
    return name


def _step(path: str | Path, n: int, r: dict) -> Step:
    if not isinstance(r["d"], str) or not _PLAYER.match(r["d"]):
        raise TcgError(f"{path}: line {n}: a decision's 'd' must name a player (P1, P2, ...), "
                       f"got {json.dumps(r['d'], ensure_ascii=False)[:40]}")
    if r.get("concede") is True:
        return Step(n, CONCEDE)
    if not _whole(r.get("i")) or r["i"] < 0:
        raise TcgError(f"{path}: line {n}: a decision's 'i' must be an option's index "
                       f"(0, 1, ...), got {json.dumps(r.get('i'), ensure_ascii=False)[:40]}")
    return Step(n, r["i"])


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Script:
    """The logged decisions, answered in order, each checked against the options offered."""

    def __init__(self, path: str, steps: list[Step]) -> None:
        self.path, self.steps = path, deque(steps)

    def answer(self, g: GameState) -> int:
        step = self.steps.popleft()
        value, d = step.value, g.decision
        if value == CONCEDE:
            raise Concede
        assert isinstance(value, int) and d is not None  # (read: a whole number or CONCEDE)
        n = len(d.options)
        if value >= n:
            raise BadDecision(f"{self.path}: line {step.line}: decision {value} is not an "
                              f"option: {n} option{'s' if n != 1 else ''} ({d.prompt})")
        return value


class Checked:
    """A log being rewritten by --resume: each line must be the one the old log holds (the
    same files, seed and decisions give the same log), until the new one has them all."""

    def __init__(self, out: TextOut, old: list[str], path: str) -> None:
        self.out, self.old, self.path, self.written = out, old, path, 0
        self.name = out.name

    @property
    def complete(self) -> bool:
        return self.written >= len(self.old)

    def write(self, text: str) -> None:
        n = self.written
        if n < len(self.old) and text != self.old[n]:
            raise TcgError(f"{self.path}: line {n + 1} is not what the match gives now (were "
                           f"the ruleset, cards or decks changed?); the log is left as it was\n"
                           f"  log: {self.old[n].rstrip()[:200]}\n  now: {text.rstrip()[:200]}")
        self.out.write(text)
        self.written += 1

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.close()
