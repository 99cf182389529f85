"""tcg-interpreter: a data-driven rules interpreter for trading card games.

    >>> import interpreter
    >>> game = interpreter.load_game(ruleset)                  # a bundled id or a path
    >>> state = game.new_state(interpreter.default_decks(game), seed=1)  # log=True keeps events
    >>> while not state.is_over:
    ...     actions = state.legal_actions()    # for state.current_player: kind, cards, label
    ...     state.apply(actions[0])
    >>> state.result.reason

Environments for reinforcement learning (the `rl` extra): interpreter.rl.aec_env, gym_env.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.diagnostics import Diagnostic, DiagnosticError, TcgError
    from interpreter.engine.game import Game
    from interpreter.engine.state import Action, GameState, IllegalAction, LegalActions, Result
    from interpreter.run.loading import load_game

# Imported on first use (PEP 562): `tcg --help` and `tcg check` must not pay for the engine
# and the effect parser, which importing any submodule (interpreter.cli) would otherwise load.
_LAZY = {"Diagnostic": "interpreter.diagnostics", "DiagnosticError": "interpreter.diagnostics",
         "TcgError": "interpreter.diagnostics", "Game": "interpreter.engine.game",
         "Action": "interpreter.engine.state", "GameState": "interpreter.engine.state",
         "IllegalAction": "interpreter.engine.state", "LegalActions": "interpreter.engine.state",
         "Result": "interpreter.engine.state", "load_game": "interpreter.run.loading"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def default_decks(game: Game) -> list[dict[str, list[str]]]:
    """The first two bundled decks of a game, as new_state() takes them."""
    from interpreter.run.match import resolve_decks

    return [d.sections for d in resolve_decks(game, game.source, [])]


__all__ = ["Action", "Diagnostic", "DiagnosticError", "Game", "GameState", "IllegalAction",
           "LegalActions", "Result", "TcgError", "default_decks", "load_game"]
