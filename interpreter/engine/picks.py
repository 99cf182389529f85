"""Options that are not cards (a zone, a number, a player, a mode of `choose one`) and the
words of a prompt that names variables ("which creature blocks {attacker}?")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.engine.state import GameState, ZoneRef, visible

# A `choose number` offers at most this many numbers, the lowest: a decision's options are
# all made at once, so an unbounded range would be unbounded memory.
MAX_NUMBERS = 1000


@dataclass(frozen=True, slots=True)
class Pick:
    """An option of a choice of one value: the value bound when it is picked, and its label
    (observe.label shows an option that is no card, action or ability as its str)."""

    value: Any
    text: str

    def __str__(self) -> str:
        return self.text


def zone_text(ref: ZoneRef) -> str:
    return ref.name if ref.owner < 0 else f"{ref.name}@P{ref.owner + 1}"


def player_text(p: int) -> str:
    return f"P{p + 1}"


def zones(value: Any) -> tuple[Pick, ...]:
    refs = (value,) if isinstance(value, ZoneRef) else value if type(value) is tuple else ()
    return tuple(Pick(r, zone_text(r)) for r in dict.fromkeys(refs) if isinstance(r, ZoneRef))


def numbers(low: Any, high: Any) -> tuple[Pick, ...]:
    if type(low) is not int or type(high) is not int:
        return ()
    return tuple(Pick(n, str(n)) for n in range(low, min(high, low + MAX_NUMBERS - 1) + 1))


def players(value: Any) -> tuple[Pick, ...]:
    ps = (value,) if type(value) is int else value if type(value) is tuple else ()
    return tuple(Pick(p, player_text(p)) for p in dict.fromkeys(ps) if type(p) is int)


# How a prompt shows a variable of each type (the checker's types; check/effects.py).
def _show_cards(g: GameState, value: Any) -> str:
    cards = (value,) if type(value) is int else value if type(value) is tuple else ()
    return ", ".join(_card_text(g, c) for c in cards) or "nothing"


def _card_text(g: GameState, cid: int) -> str:
    """A card as every player may see it: a prompt is no secret."""
    if all(visible(g, cid, p) for p in g.players):
        return f"{g.defs[cid].name}#{cid}"
    return "a hidden card"


def _show(g: GameState, value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, ZoneRef):
        return zone_text(value)
    if type(value) is bool:
        return "yes" if value else "no"
    return str(value)


SHOW: dict[str, Callable[[GameState, Any], str]] = {
    "cards": _show_cards,
    "player": lambda g, v: player_text(v) if type(v) is int else _show(g, v),
}


def prompt_maker(text: str, names: tuple[tuple[str, str], ...]) -> LatePrompt:
    """The prompt `text` with each `{name}` replaced by the variable's value as every player
    may see it; `names`: (name, its type) of each placeholder."""
    return LatePrompt(text, tuple((f"{{{name}}}", name, SHOW.get(t, _show_any)) for name, t in names))


class LatePrompt:
    """A prompt naming variables. Called as the question is asked, it gives a late prompt,
    `(words, g, env)`: Decision.prompt puts it in words when read, which is while the
    question is pending (most questions of a simulation are never read, and filling them in
    cost more than the engine's own work for them). The words module finds the statement
    that asks through `words.__self__`, this object."""

    __slots__ = ("text", "shown", "words")

    def __init__(self, text: str, shown: tuple) -> None:
        self.text, self.shown = text, shown
        self.words = self._words  # (one bound method, the same at every decision)

    def _words(self, g: GameState, env: dict) -> str:
        out = self.text
        for placeholder, name, show in self.shown:
            out = out.replace(placeholder, show(g, env.get(name)))
        return out

    def __call__(self, g: GameState, env: dict) -> tuple:
        return (self.words, g, env)


def _show_any(g: GameState, value: Any) -> str:
    return _show(g, value)
