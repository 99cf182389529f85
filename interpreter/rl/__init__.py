"""Standard environments for learning agents, for any ruleset (the optional `rl` extra:
`pip install 'tcg-interpreter[rl]'`, which brings PettingZoo and Gymnasium).

    >>> from interpreter import rl
    >>> env = rl.aec_env("ucb")                        # PettingZoo AEC, both seats
    >>> env = rl.gym_env("ucb", opponent="random")     # Gymnasium, seat 0 against random

Observations are {"observation": float32 vector, "action_mask": int8 vector} built from what
the seat may see; actions are ids of a Discrete space; both layouts come from the ruleset
(layout.py, docs/RL.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import TcgError
from interpreter.engine.game import Game

if TYPE_CHECKING:
    from interpreter.rl.aec import TcgAECEnv
    from interpreter.rl.single import TcgEnv

RulesetLike = str | Path | Game


def aec_env(ruleset: RulesetLike, decks: Sequence | None = None, *,
            render_mode: str | None = None, **opts: Any) -> TcgAECEnv:
    """A PettingZoo AECEnv of `ruleset` (a bundled id, a ruleset path or a Game). `decks`:
    deck files or sections per seat (None: the bundled decks). `opts`: slots, choices, stack (the
    layout), turns (the turn limit), shaping (the heuristic's weight in rewards)."""
    _need("pettingzoo", "gymnasium")
    from interpreter.rl.aec import TcgAECEnv
    from interpreter.rl.table import Table

    return TcgAECEnv(Table(ruleset, decks, **opts), render_mode=render_mode)


def gym_env(ruleset: RulesetLike, opponent: Any = "default", seat: int = 0,
            decks: Sequence | None = None, *, render_mode: str | None = None,
            **opts: Any) -> TcgEnv:
    """A Gymnasium Env: `seat` of `ruleset` against `opponent` (an agent name, an agent, or a
    policy on observations), with aec_env's `decks` and `opts`."""
    _need("gymnasium", "pettingzoo")
    from interpreter.rl.single import TcgEnv
    from interpreter.rl.table import Table

    return TcgEnv(Table(ruleset, decks, **opts), opponent, seat, render_mode=render_mode)


def _need(*modules: str) -> None:
    """The rl extra's packages, or an error that says how to get them."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise TcgError(f"interpreter.rl needs {' and '.join(missing)}: "
                       "pip install 'tcg-interpreter[rl]' (or pip install -e '.[rl]' in a checkout)")


__all__ = ["aec_env", "gym_env"]
