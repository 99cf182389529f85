"""Match rules against endless games: a repeated board, and forced loops of triggers.

Both are opt-in ruleset data (`limits.same_board`, `limits.loop`); a ruleset without them
pays nothing (`g.board` and `g.seen` stay None).

- The board: at every turn end the engine takes a fingerprint of the declared zones and
  resources. `streak` counts the turn ends in a row that showed the same board. The actions
  players took during the streak (which kept the board as it was) may not be taken again in
  the turn that would make the streak reach the limit; if it reaches it anyway, the game is
  judged.
- Forced loops: between two decisions, each time triggered abilities are about to resolve,
  the whole state (with the waiting abilities) is fingerprinted; when it comes back to a
  fingerprint already seen `returns` times, the waiting abilities are dropped and the loop
  ends there.
"""

from __future__ import annotations

from typing import NamedTuple

from interpreter.engine.state import GameState


class Board(NamedTuple):
    fingerprint: tuple
    streak: int  # turn ends in a row with this board
    repeated: frozenset  # actions taken during the streak: (player, action, card id, ability)
    this_turn: frozenset  # actions taken in the current turn


def _cards(g: GameState, cids) -> tuple:
    return tuple((g.defs[c].id, g.face[c], g.flags[c], g.host.get(c), g.under.get(c))
                 for c in cids)


def board_fingerprint(g: GameState) -> tuple:
    limits = g.game.ruleset.limits
    zones = tuple(_cards(g, cids) for ref, cids in g.zones.items()
                  if ref.name in limits.board_zones)
    counters = tuple(sorted((g.defs[c].id, name, n) for (c, name), n in g.counters.items()
                            if g.zone_of[c].name in limits.board_zones))
    res = tuple(r.get(name, 0) for r in g.res for name in limits.board_resources)
    return zones, counters, res


def board_at_turn_end(g: GameState) -> bool:
    """Record this turn's board; True when it has stayed the same for the limit's turns."""
    fp, old = board_fingerprint(g), g.board
    if old is not None and old.fingerprint == fp:
        g.board = Board(fp, old.streak + 1, old.repeated | old.this_turn, frozenset())
    else:
        g.board = Board(fp, 1, frozenset(), frozenset())
    return g.board.streak >= g.game.ruleset.limits.board_turns


def note_action(g: GameState, player: int, option: tuple) -> None:
    b = g.board
    g.board = b._replace(this_turn=b.this_turn | {_action_key(g, player, option)})


def barred(g: GameState, player: int, options: list[tuple]) -> list[tuple]:
    """In the last turn before judgement, the actions that kept the board are not offered."""
    b = g.board
    turns = g.game.ruleset.limits.board_turns  # (set: a board is kept only then)
    if turns is None or b.streak < turns - 1 or not b.repeated:
        return options
    return [o for o in options if _action_key(g, player, o) not in b.repeated]


def _action_key(g: GameState, player: int, option: tuple) -> tuple:
    """An action as 'the same effect': the card's printed identity, not the copy."""
    name, card, idx = option
    return player, name, None if card is None else g.defs[card].id, idx


def loop_returned(g: GameState) -> bool:
    """True when the state, with the abilities waiting to resolve, has come back to one seen
    `returns` times since the last decision: the waiting abilities are then dropped."""
    # (each card's definition too: `transform` changes it in place)
    fp = (tuple(tuple(z) for z in g.zones.values()), tuple(d.id for d in g.defs),
          tuple(g.flags), tuple(g.face),
          tuple(sorted(g.counters.items())), tuple(tuple(sorted(r.items())) for r in g.res),
          tuple(sorted(g.host.items())), tuple(sorted(g.under.items())),
          tuple(m[:5] for m in g.mods),
          tuple(g.pending), tuple(g.queue))
    seen = g.seen
    if seen is None:  # (no `loop` rule: never asked)
        return False
    seen[fp] = seen.get(fp, 0) + 1
    if seen[fp] <= g.game.ruleset.limits.loop_returns:
        return False
    g.pending, g.queue = [], []
    seen.clear()
    if g.log is not None:
        g.log.append({"e": "loop_stopped", "ref": g.game.ruleset.limits.loop_ref})
    return True
