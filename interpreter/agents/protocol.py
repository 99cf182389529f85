"""How runners ask an agent: through what the player may see, never the state itself.

An agent implements `choose(observation, labels) -> index`. A search agent may instead
implement `choose_in(state, player, labels) -> index`; it receives the real state but must
read hidden information only through `state.determinize(player, rng)` (a tested contract:
swapping the cards it cannot see does not change its choice).
"""

from __future__ import annotations

from typing import Any, Protocol

from interpreter.engine.observe import LazyLabels, LazyObservation
from interpreter.engine.state import GameState


class ChoosesIn(Protocol):
    """A search agent: it chooses in the state itself (see above)."""

    def choose_in(self, g: GameState, player: int, labels: LazyLabels) -> int: ...


def decide(agent: Any, g: GameState, player: int) -> tuple[int, LazyLabels]:
    """The agent's answer to the pending decision, and the labels it was offered."""
    labels = LazyLabels(g)
    choose_in = getattr(agent, "choose_in", None)
    if choose_in is not None:
        return choose_in(g, player, labels), labels
    return agent.choose(LazyObservation(g, player), labels), labels
