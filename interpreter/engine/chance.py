"""Chance as data: every random step of a match (a die `random(n)`, coin flips `heads(n)`, a
random pick `random_card(cards)`, a `shuffle`) draws here, from the match's seeded RNG, or
from outcomes fixed in advance.

Fixed outcomes (`Script`, a state's `chance`) are taken in order, one per step: a number from 1
to n for a die, `heads` or `tails` for a coin, a card's name for a random pick, card names
for a shuffle (top first: those cards go on top in that order, the rest below in the RNG's
order), or None (the RNG decides that step). When they run out the RNG decides, unless the
script is a probe: then the step raises `Chance` with its outcomes and their probabilities,
which is how `outcomes` enumerates every way an answer can go (docs/LANGUAGE.md "Chance as
data"). The steps inside expressions are left unshared by compile/exprs.py (`_impure`)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import TcgError

if TYPE_CHECKING:
    from interpreter.engine.state import GameState

HEADS, TAILS = "heads", "tails"
HALF = Fraction(1, 2)


class ChanceMismatch(TcgError):
    """A fixed outcome that does not fit its step (`heads` for a die): `at` is its index."""

    def __init__(self, at: int, message: str) -> None:
        super().__init__(message)
        self.at = at


class Chance(Exception):
    """A probe reached a random step with no fixed outcome: its outcomes, each with its
    probability (internal to `outcomes`, never seen by a user)."""

    def __init__(self, choices: list[tuple[Any, Fraction]]) -> None:
        super().__init__("a chance step")
        self.choices = choices


@dataclass
class Script:
    entries: tuple
    at: int = 0
    probe: bool = False

    def copy(self) -> Script:
        return Script(self.entries, self.at, self.probe)

    def left(self) -> int:
        return len(self.entries) - self.at


def _next(g: GameState, choices: Any) -> Any:
    """The fixed outcome for this step (None: the RNG decides); `choices()` lists the step's
    outcomes for a probe."""
    s = g.chance
    if s is None:
        return None
    if s.at < len(s.entries):
        s.at += 1
        return s.entries[s.at - 1]
    if s.probe:
        raise Chance(choices())
    return None


def roll(g: GameState, n: int) -> int:
    """A whole number from 1 to n (`random(n)`)."""
    got = _next(g, lambda: [(k, Fraction(1, n)) for k in range(1, n + 1)])
    if got is None:
        return g.rng.randint(1, n)
    if type(got) is not int or not 1 <= got <= n:
        raise ChanceMismatch(g.chance.at - 1, f"random({n}) draws a number from 1 to {n}, "
                                              f"the fixed outcome is {got!r}")
    return got


def heads(g: GameState, n: int) -> int:
    """The number of heads in n coin flips (`heads(n)`), each a step of its own."""
    return sum(_flip(g) for _ in range(n))


def _flip(g: GameState) -> bool:
    got = _next(g, lambda: [(HEADS, HALF), (TAILS, HALF)])
    if got is None:
        return g.rng.randint(1, 2) == 1
    if got not in (HEADS, TAILS):
        raise ChanceMismatch(g.chance.at - 1, f"a coin flip is heads or tails, "
                                              f"the fixed outcome is {got!r}")
    return got == HEADS


def pick(g: GameState, cards: tuple[int, ...]) -> tuple[int, ...]:
    """One of the cards at random (`random_card(cards)`), fixed by its name: cards of one
    name are one outcome, the first of them (as options are)."""
    if not cards:
        return ()
    got = _next(g, lambda: _names(g, cards))
    if got is None:
        return (cards[g.rng.randrange(len(cards))],)
    card = next((c for c in cards if g.defs[c].name == got), None)
    if card is None:
        have = sorted({g.defs[c].name for c in cards})
        raise ChanceMismatch(g.chance.at - 1, f"a random pick among {have} cannot give {got!r}")
    return (card,)


def _names(g: GameState, cards: tuple[int, ...]) -> list[tuple[Any, Fraction]]:
    counts = Counter(g.defs[c].name for c in cards)
    return [(name, Fraction(k, len(cards))) for name, k in counts.items()]


def shuffle(g: GameState, cards: list[int]) -> None:
    """Shuffles a zone's list in place."""
    got = _next(g, lambda: _orders(g, cards))
    if got is None:
        g.rng.shuffle(cards)
        return
    if not isinstance(got, tuple):
        raise ChanceMismatch(g.chance.at - 1, f"a shuffle is fixed by card names, top first "
                                              f"(a list), not {got!r}")
    rest, top = cards[:], []
    for name in got:
        card = next((c for c in rest if g.defs[c].name == name), None)
        if card is None:
            have = sorted({g.defs[c].name for c in cards})
            raise ChanceMismatch(g.chance.at - 1, f"the shuffled zone holds no (other) "
                                                  f"{name!r}: it holds {have}")
        rest.remove(card)
        top.append(card)
    g.rng.shuffle(rest)  # (the cards not named: below, in the RNG's order)
    cards[:] = top + rest


def _orders(g: GameState, cards: list[int]) -> list[tuple[Any, Fraction]]:
    """A shuffle's outcomes: the distinct orders of its cards' names, each with its chance."""
    names = [g.defs[c].name for c in cards]
    count = math.factorial(len(names))
    for k in Counter(names).values():
        count //= math.factorial(k)
    if count > LIMIT:
        raise TcgError(f"a shuffle of {len(names)} cards has {count} orders: more than the "
                       f"{LIMIT} outcomes chance_outcomes enumerates")
    orders = dict.fromkeys(itertools.permutations(names))
    return [(order, Fraction(1, count)) for order in orders]


LIMIT = 10_000  # outcomes `outcomes` enumerates at most


@dataclass(frozen=True)
class Outcome:
    """One way a random answer goes: its probability, the steps' outcomes in order (as a
    scenario's `random` writes them), and the state it leads to."""

    probability: Fraction
    draws: tuple
    state: GameState


def outcomes(g: GameState, action: Any) -> list[Outcome]:
    """Every way answering `action` (as `GameState.apply` takes it) can go, with its
    probability (they add up to 1), in the order of the steps' outcomes. An answer with no
    random step has one outcome, of probability 1."""
    done: list[Outcome] = []
    todo: list[tuple[tuple, Fraction]] = [((), Fraction(1))]
    while todo:
        draws, p = todo.pop()
        h = g.clone(keep_log=True)
        h.chance = Script(draws, probe=True)
        try:
            h.apply(action)
        except Chance as step:
            todo += [(draws + (v,), p * q) for v, q in reversed(step.choices)]
            if len(todo) + len(done) > LIMIT:
                raise TcgError(f"more than {LIMIT} outcomes: too many to enumerate") from None
            continue
        h.chance = None
        done.append(Outcome(p, draws, h))
    return done
