"""Playing a searched world on to one horizon for every option: the player's next turn.

A one-ply search judges each option where the player is next asked: after a card played, at
once; after ending the turn, after the opponent's whole turn. Options judged at different
horizons are not alike (ending the turn looks worse, for the opponent has acted, or better,
for it has not been answered). `to_next_turn` plays a world on from there to the first
question of the player's next turn, the player passing wherever it is asked (a
window lists its pass, or `done`, last) and everyone else answering with the first option,
so that each option is also judged as "this, then the turn as it stands, then the reply".
"""

from __future__ import annotations

from interpreter.engine.state import GameState

STEPS = 300  # at most this many decisions


def to_next_turn(world: GameState, player: int, steps: int = STEPS) -> None:
    """Play on to the first question of `player` in a turn of theirs after this one (at most
    `steps` decisions). Under `timing: priority` the world is left as it is (a pass there
    hands the turn on at once; settle_priority already played to a quiet point)."""
    if world.game.ruleset.timing == "priority":
        return
    turn = world.turn
    for _ in range(steps):
        d = world.decision
        if d is None:
            return
        mine = d.player == player
        if mine and world.turn != turn and world.turn_player == player:
            return
        world.apply(len(d.options) - 1 if mine else 0)
