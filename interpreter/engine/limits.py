"""Limits on what one match may do, whatever its cards say: each ends the match as a draw
whose reason starts with "loop limit" (counted with the timeouts by `tcg simulate`).

The VM already ends a run of MAX_STEPS_PER_DECISION instructions without a decision; these
bound what a single instruction or a chain of decisions can do: a `repeat` compiled into
one straight run of Python, a `create` of a billion cards, two cards that trigger each other
forever when each pass asks only the order of their triggers, abilities that put more of
themselves on the stack (or in the queue) than resolve.
"""

from __future__ import annotations

from interpreter.engine.state import GameOver, GameState, Result

# Passes of `repeat` and `for each` loops in one match: each loop's count (or cards) is added
# to g.steps as it starts, so nested loops count as they multiply (inline, in IterInit and in
# the generated code: a call per loop would cost). A random match of the bundled games takes
# at most a few thousand.
MAX_PASSES = 100_000
MAX_CARDS = 20_000  # cards in one match, the decks' and the created ones
MAX_DECISIONS = 100_000  # decisions in one match (a random UCB match takes ~100)
# Triggered abilities waiting at once (to be ordered, in the queue, started and not finished)
# and objects on the stack, each counted where it is added (triggers.heard, deliver,
# push_trigger, stack.push_object): the bundled games never hold more than a few dozen. Low
# enough that what a step does once per waiting ability (find the next to choose targets,
# filter the stack for a counter) stays cheap up to it.
MAX_WAITING = 1_000


def too_many_passes(g: GameState) -> None:
    raise GameOver(Result(None, f"loop limit: more than {MAX_PASSES:,} passes of loops "
                                "in one match", turns=g.turn))


def too_many_cards(g: GameState) -> None:
    raise GameOver(Result(None, f"loop limit: more than {MAX_CARDS:,} cards in one match",
                          turns=g.turn))


def decisions(g: GameState) -> None:
    raise GameOver(Result(None, f"loop limit: more than {MAX_DECISIONS:,} decisions in one "
                                "match", turns=g.turn))


def waiting(g: GameState) -> int:
    """The triggered abilities waiting and the objects on the stack (see MAX_WAITING)."""
    return len(g.pending) + len(g.queue) + len(g.stack)


def too_many_waiting(g: GameState) -> None:
    raise GameOver(Result(None, f"loop limit: more than {MAX_WAITING:,} abilities waiting or "
                                "on the stack at once", turns=g.turn))
