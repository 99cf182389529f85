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
  gold: {initial: 1, min: 0}
counters: [dents]
states:
  marked: {}
  dazed: {clear: turn_end}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  vault: {visibility: public}
verbs:
  give:  # (a parameter named like a variable every env holds: the parameter wins)
    params: {opponent: player, n: number}
    do: "change(opponent, life, n)"
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [stash, spill, gift, hurt, mark, daze, bless, tax, hide]
actions:
  hide:
    do: |
      flip(hand(you), down); flip(top(hand(you)), up); flip(hand(opponent), "sideways")
  tax:
    do: |
      change(you, gold, -2); change(hand(you), dents, 2); change(top(hand(you)), dents, -5);
      assign(opponent, gold, 4); assign(hand(opponent), dents, 1)
  bless:
    do: "give(you, 2); give(opponent, -1)"
  mark:
    do: "set(hand(you), marked); change(you, life, 1)"
  daze:
    do: "set(hand(you), dazed); set(top(hand(opponent)), marked); set(hand(opponent), marked, false)"
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
  - win: "count(hand(player) where marked) == 2"
    reason: "two marks"
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


def test_a_win_rule_on_a_state_ends_the_game_at_the_change():
    g = _vaults()
    p = g.turn_player
    _take(g, "mark")
    assert g.result.winner == p and g.result.reason == f"P{p + 1} wins: two marks"
    assert g.res[p]["life"] == 3  # (stopped before `change`)


def test_a_state_that_ends_with_the_turn_is_cleared_then():
    """Set and cleared states change the cards' flags and are logged; a state that ends with
    the turn is gone at its end, the others stay."""
    g = _vaults()
    p, states = g.turn_player, g.game.ruleset.states
    dazed, marked = (1 << states[s].index for s in ("dazed", "marked"))
    hand, theirs = (list(g.zones[g.zone_key("hand", q)]) for q in (p, g.other(p)))
    _take(g, "daze")
    assert all(g.flags[c] == dazed for c in hand) and all(g.flags[c] == 0 for c in theirs)
    changes = [(e["state"], e["value"]) for e in g.log if e["e"] == "state"]
    assert changes == [("dazed", True)] * 2 + [("marked", True), ("marked", False)]
    _take(g, "pass")
    assert g.turn_player != p and all(g.flags[c] == 0 for c in hand)


def test_a_verb_parameter_named_opponent_is_the_argument():
    g = _vaults()
    p = g.turn_player
    _take(g, "bless")
    assert (g.res[p]["life"], g.res[g.other(p)]["life"]) == (5, 2)


def test_resources_and_counters_change_down_to_their_floors():
    g = _vaults()
    p, q = g.turn_player, g.other(g.turn_player)
    mine, theirs = (list(g.zones[g.zone_key("hand", x)]) for x in (p, q))
    _take(g, "tax")
    assert (g.res[p]["gold"], g.res[q]["gold"]) == (0, 4)
    assert [g.counters.get((c, "dents"), 0) for c in mine + theirs] == [0, 2, 1, 1]
    changes = [(e["e"], e["value"], e["delta"]) for e in g.log if e["e"] in ("resource", "counter")]
    assert changes == [("resource", 0, -1), ("counter", 2, 2), ("counter", 2, 2),
                       ("counter", 0, -2), ("resource", 4, 3), ("counter", 1, 1), ("counter", 1, 1)]


def test_flips_turn_cards_and_are_logged():
    """A flip to a face given as a word or as text (anything but up is down)."""
    g = _vaults()
    p, q = g.turn_player, g.other(g.turn_player)
    mine, theirs = (list(g.zones[g.zone_key("hand", x)]) for x in (p, q))
    assert all(g.face[c] for c in mine + theirs)  # (hands are face up)
    _take(g, "hide")
    assert [g.face[c] for c in mine + theirs] == [True, False, False, False]
    flips = [e["face"] for e in g.log if e["e"] == "flipped"]
    assert flips == ["down", "down", "up", "sideways", "sideways"]


def test_a_flip_to_the_face_a_card_shows_does_nothing():
    """As `set` of a state a card is in: no change, so no `flipped` event (nothing to hear)."""
    g = _vaults()
    _take(g, "hide")
    seen = len(g.log)
    _take(g, "hide")  # again: only the top card of the hand turns (down, then up again)
    flips = [e["face"] for e in g.log[seen:] if e["e"] == "flipped"]
    assert flips == ["down", "up"]


# The same zone names as VAULTS, but a vault that holds one card, face down; a card that
# hears its own move into the vault.
BOXES = """
id: boxes
name: a zone with a capacity; a card hearing a move
players: 2
ability_zones: [vault]
resources:
  life: {initial: 3}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  vault: {visibility: public, capacity: 1, face: down}
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [spill]
actions:
  spill:
    do: "move(hand(you), vault(you))"
deck:
  sections:
    main: {zone: deck}
"""
HEARS = """
ruleset: boxes
cards:
  - name: A
  - name: Ear
    abilities:
      - "when moved where card == self and to_zone == \\"vault\\": change(you, life, 1)"
"""


def _boxes(decks: list[str], log: bool = True):
    game = build_game(load_text(BOXES, "boxes.yaml"), [load_text(HEARS, "cards.yaml")])
    return game.new_state([{"main": decks}] * 2, 0, log=log)


def test_a_move_into_a_full_zone_fails_card_by_card():
    """The first card fills the vault; the second stays in the hand, logged as move_failed
    (with or without a log kept, the same state)."""
    states = [_boxes(["A", "A"], log) for log in (True, False)]
    for g in states:
        p = g.turn_player
        hand = list(g.zones[g.zone_key("hand", p)])
        _take(g, "spill")
        assert g.zones[g.zone_key("vault", p)] == hand[:1]
        assert g.zones[g.zone_key("hand", p)] == hand[1:]
        assert not g.face[hand[0]]  # (the vault's cards are face down)
    failed = [e for e in states[0].log if e["e"] == "move_failed"]
    assert [(e["to"], e["why"]) for e in failed] == [(f"vault@P{p + 1}", "zone is full")]
    assert states[0].version == states[1].version and states[0].marks == states[1].marks


def test_each_game_has_its_own_movers():
    """A second ruleset with the same zone names moves by its own zones, and the first by its
    own after it; a match whose cards hear a move hears it, one whose cards do not moves on."""
    boxes = _boxes(["A", "A"])
    vaults = _vaults()
    p = vaults.turn_player
    _take(vaults, "spill")  # VAULTS: no capacity, face up
    assert len(vaults.zones[vaults.zone_key("vault", vaults.other(p))]) == 2
    assert all(vaults.face[c] for c in vaults.zones[vaults.zone_key("vault", vaults.other(p))])
    _take(boxes, "spill")
    assert len(boxes.zones[boxes.zone_key("vault", boxes.turn_player)]) == 1
    hearing = _boxes(["A", "Ear"], log=False)
    _take(hearing, "spill")
    assert hearing.res[hearing.turn_player]["life"] == 4
    assert boxes.game.movers["vault"] is not hearing.game.movers["vault"]


# Cards given to the opponent's vault, then pooled in a zone of no one.
PILES = """
id: piles
name: who controls a card entering a zone
players: 2
counters: [dents]
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  vault: {visibility: public}
  pile: {shared: true}
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [give, pool]
actions:
  give:
    do: "change(hand(you), dents, 1); move(hand(you), vault(opponent))"
  pool:
    do: "move(vault(opponent), pile)"
deck:
  sections:
    main: {zone: deck}
"""


def test_a_card_entering_a_players_zone_is_theirs_a_zone_of_no_one_its_owners():
    """Each card of a move is a new object (no counters) controlled by the zone's owner, or
    by its own owner in a shared zone (the movers fold which, per zone)."""
    g = _game(PILES, "piles", ["A", "B"]).new_state([{"main": ["A", "B"]}] * 2, 0, log=True)
    p = g.turn_player
    given = list(g.zones[g.zone_key("hand", p)])
    _take(g, "give")
    assert g.zones[g.zone_key("vault", g.other(p))] == given[::-1] and not g.counters
    assert [g.controller[c] for c in given] == [g.other(p)] * 2
    _take(g, "pool")
    assert sorted(g.zones[g.zone_key("pile", -1)]) == sorted(given)
    assert [g.controller[c] for c in given] == [p] * 2
