"""What the engine works out once per game instead of at every step: the win/loss rules of
every player as one check, and a mover per zone. A mistake in either would not show in the
bundled games' logs (no win rule there reads a zone their cards move into, no effect moves a
card into a full zone), so these use a toy ruleset."""

from __future__ import annotations

import yaml

from interpreter.compile.build import build_game
from interpreter.engine import vm
from interpreter.load.yamlpos import load_text

# A vault holding two cards wins (a zone no bundled game moves into); no life loses.
VAULTS = """
id: vaults
name: win/loss rules on a zone and a resource
players: 2
resources:
  life: {initial: 3}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  vault: {visibility: public}
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [stash, spill, gift, hurt]
actions:
  stash:
    card: "hand(player)"
    do: "move(card, vault(you)); change(you, life, 1)"
  spill:
    do: "move(hand(you), vault(opponent)); change(you, life, 1)"
  gift:
    do: "simultaneously { change(you, life, -3); move(hand(you), vault(you)) }"
  hurt:
    do: "change(opponent, life, -3); change(you, life, 1)"
deck:
  sections:
    main: {zone: deck}
end:
  - lose: "player.life <= 0"
    reason: "no life"
  - win: "count(vault(player)) == 2"
    reason: "a full vault"
"""


def _game(ruleset: str, name: str, cards: list[str]):
    pool = {"ruleset": name, "cards": [{"name": c} for c in cards]}
    return build_game(load_text(ruleset, f"{name}.yaml"),
                      [load_text(yaml.safe_dump(pool), "cards.yaml")])


def _vaults(log: bool = True):
    game = _game(VAULTS, "vaults", ["A", "B"])
    return game.new_state([{"main": ["A", "B"]}] * 2, 0, log=log)


def _take(g, action: str, nth: int = 0) -> None:
    vm.answer(g, [o for o in g.decision.options if o[0] == action][nth])


def test_a_win_rule_on_a_zone_ends_the_game_at_the_move():
    """The second card into P1's vault wins at once: the effect's last step never runs."""
    g = _vaults()
    p = g.turn_player
    _take(g, "stash")
    assert g.result is None and g.res[p]["life"] == 4
    _take(g, "stash")
    assert g.result is not None and g.result.winner == p
    assert g.result.reason == f"P{p + 1} wins: a full vault"
    assert g.res[p]["life"] == 4  # (stopped before `change`)


def test_each_player_is_checked():
    """Cards moved into the opponent's vault: the opponent wins (the rules are asked for
    every player, not only the one acting)."""
    g = _vaults()
    p = g.turn_player
    _take(g, "spill")
    assert g.result.winner == g.other(p)
    assert g.result.reason == f"P{g.other(p) + 1} wins: a full vault"


def test_a_loss_ends_the_game_mid_effect():
    g = _vaults()
    p = g.turn_player
    _take(g, "hurt")
    assert g.result.winner == p and g.result.reason == f"P{g.other(p) + 1} loses: no life"
    assert g.res[p]["life"] == 3  # (stopped before `change`)


def test_a_loss_beats_a_win_at_the_same_instant():
    """Within `simultaneously` the checks wait; at its end P1 both has a full vault and no
    life left: the loss counts."""
    g = _vaults()
    p = g.turn_player
    _take(g, "gift")
    assert g.result.winner == g.other(p)
    assert g.result.reason == f"P{p + 1} loses: no life"
