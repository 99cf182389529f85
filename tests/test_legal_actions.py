"""Legal actions: the compiled selections (printed properties read inline, candidates first)
offer exactly what the rules allow, and interchangeable cards are one option per action."""

from __future__ import annotations

import random

import pytest
import yaml

import interpreter
from interpreter.compile.build import build_game
from interpreter.engine import actions, primitives, repetition, vm
from interpreter.engine.state import ZoneRef
from interpreter.load import files
from interpreter.load.yamlpos import load_text
from interpreter.run.scenario import build_state

# `cost` is clamped to 0..5 and a veiled card's properties cannot be seen.
RULESET = """
id: bounds
name: bounded properties
players: 2
properties:
  cost: {type: number, default: 0, min: 0, max: 5}
states:
  veiled: {hides_properties: true}
zones:
  deck: {ordered: true, visibility: hidden, face: down}
  hand: {visibility: owner}
  pile: {visibility: public}
verbs:
  dump:
    params: {card: cards}
    do: "move(card, pile(card.owner))"
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [free, dear, any]
actions:
  free:
    card: "hand(player)"
    requires: "card.cost == 0"
    do: "dump(card)"
  dear:
    card: "hand(player)"
    requires: "card.cost == 5"
    do: "dump(card)"
  any:
    card: "hand(player)"
    do: "dump(card)"
  rich:
    card: "hand(player) where cost <= count(pile(player))"
    do: "dump(card)"
  pair:
    card: "hand(player) as c where exists(hand(player) where cost == c.cost and name != c.name)"
    do: "dump(card)"
  lone:
    card: "hand(player) where count(attached(it)) == 0"
    do: "dump(card)"
  other:
    card: "hand(player)"
    requires:
      - {id: cheap, if: "card.cost <= count(hand(player))"}
      - {id: named, if: "card.name != 「Two」"}
    do: "dump(card)"
deck:
  sections:
    main: {zone: deck}
end:
  - lose: "count(pile(player)) == 4"
    reason: "all cards dumped"
"""


def _bounds_game(costs: dict[str, int]):
    cards = {"ruleset": "bounds", "cards": [{"name": n, "cost": c} for n, c in costs.items()]}
    return build_game(load_text(RULESET, "bounds.yaml"),
                      [load_text(yaml.safe_dump(cards), "cards.yaml")])


def _offered(g) -> list[tuple[str, str]]:
    return [(o[0], g.defs[o[1]].name) for o in g.decision.options if o != actions.PASS]


def test_a_printed_value_out_of_bounds_reads_clamped():
    """Selections read printed properties inline, but only where no card needs clamping."""
    game = _bounds_game({"Minus": -2, "Plus": 9, "Mid": 3})
    g = game.new_state([{"main": ["Minus", "Plus", "Mid", "Mid"]}] * 2, 0, log=False)
    assert set(_offered(g)) >= {("free", "Minus"), ("dear", "Plus")}
    assert not {("free", "Mid"), ("dear", "Mid")} & set(_offered(g))


def test_a_hidden_property_meets_no_requirement_and_its_card_is_not_merged():
    game = _bounds_game({"Zero": 0, "Two": 2})
    g = game.new_state([{"main": ["Zero", "Zero", "Two", "Two"]}] * 2, 0, log=False)
    assert sorted(_offered(g)) == [("any", "Two"), ("any", "Zero"), ("free", "Zero")]
    zero = next(o[1] for o in g.decision.options if o[0] == "free")
    g.flags[zero] |= 1 << game.ruleset.states["veiled"].index
    options = actions.legal_actions(g, ("free", "dear", "any"), 0)
    # the other Zero is still free; the veiled one is an option of its own (its facts differ)
    assert sorted((o[0], g.defs[o[1]].name) for o in options) == [
        ("any", "Two"), ("any", "Zero"), ("any", "Zero"), ("free", "Zero")]
    assert zero in [o[1] for o in options if o[0] == "any"]
    assert zero not in [o[1] for o in options if o[0] == "free"]


def test_a_selection_computes_what_no_candidate_changes_once():
    """A part of a filter that reads no candidate is computed once, before the loop over the
    candidates (`count(pile(player))`); a part that reads one, as `it` or by name, for each."""
    game = _bounds_game({"One": 1, "Two": 2, "Three": 3, "Deux": 2})
    g = game.new_state([{"main": ["One", "Two", "Three", "Deux"]}] * 2, 0, log=False)
    for cid in list(g.zones[ZoneRef("hand", 0)]):
        if g.defs[cid].name in ("One", "Three"):
            primitives.move(g, {}, cid, ZoneRef("pile", 0))
    names = ("rich", "pair", "lone")
    offered = {p: sorted((o[0], g.defs[o[1]].name) for o in actions.legal_actions(g, names, p))
               for p in g.players}
    assert offered[0] == [("lone", "Deux"), ("lone", "Two"), ("pair", "Deux"), ("pair", "Two"),
                          ("rich", "Deux"), ("rich", "Two")]
    assert offered[1] == [("lone", "Deux"), ("lone", "One"), ("lone", "Three"), ("lone", "Two"),
                          ("pair", "Deux"), ("pair", "Two")]


def test_a_read_a_state_would_hide_after_a_rule_that_found_the_card_without_it_is_plain():
    """`card.cost <= N` is false for a veiled card; after it, `card.name` is read without
    the test of the veil (exprs._unveiled), and still offers only what the rules allow."""
    from interpreter.compile.exprs import _unveiled

    conds = ["not g.flags[_v0] & 2 and g.defs[_v0].printed[0] <= _x6",
             "not ((None if g.flags[_v0] & 2 else g.defs[_v0].name) in _j5)",
             "(None if g.flags[_v0] & 6 else g.defs[_v0].printed[1]) == 1",
             "(None if g.flags[it] & 2 else g.defs[it].name) == 'A'"]
    assert _unveiled("_v0", conds) == [f"({c})" for c in (
        conds[0], "not (g.defs[_v0].name in _j5)", *conds[2:])]
    assert _unveiled("_v0", [f"not g.flags[_v0] & 2 or {conds[0]}", conds[1]])[1] \
        == f"({conds[1]})"  # (an `or`: the card may be veiled)
    game = _bounds_game({"One": 1, "Two": 2, "Ten": 5})
    g = game.new_state([{"main": ["One", "Two", "Ten", "Ten"]}] * 2, 0, log=False)
    hand = list(g.zones[ZoneRef("hand", 0)])
    one = next(c for c in hand if g.defs[c].name == "One")
    assert sorted(g.defs[o[1]].name for o in actions.legal_actions(g, ("other",), 0)) == ["One"]
    g.flags[one] |= 1 << game.ruleset.states["veiled"].index
    assert not actions.legal_actions(g, ("other",), 0)


def _reference(g, names: tuple[str, ...], player: int) -> set[tuple]:
    """Every action's options rule by rule (the interpreted path, no compiled selection),
    one per class of interchangeable cards."""
    out = []
    for name in names:
        adef = g.game.ruleset.actions[name]
        if adef.limit and g.counts.get((name, adef.limit[1], player), 0) >= adef.limit[0]:
            continue
        group: list[tuple] = []
        actions._candidates(g, adef, player, group)
        out += actions._distinct(g, group, player)
    if g.board is not None:
        out = repetition.barred(g, player, out)
    return {(o[0], vm.card_classes(g, [o[1]], player)[0], o[2]) for o in out}


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_compiled_selections_offer_what_the_rules_allow(ruleset: str):
    """At decisions of random matches, with some cards put in each state (hiding or
    disabling ones too), the compiled selections agree with the rule-by-rule path."""
    game = interpreter.load_game(ruleset)
    windows = [p.actions for p in game.ruleset.phases if p.actions]
    windows += [w.actions for w in game.ruleset.windows.values()]
    windows += [names for names in game.ruleset.selections if names not in windows]  # offered
    assert all(names in game.ruleset.selections for names in windows)
    rng = random.Random(7)
    checked = 0
    for seed in range(4):
        g = game.new_state(interpreter.default_decks(game), seed, log=False)
        while not g.is_over and g.decisions < 150:
            if g.decisions % 10 == 0:
                s = g.clone()
                for cid in rng.sample(range(len(s.defs)), len(s.defs) // 3):
                    s.flags[cid] |= 1 << rng.randrange(max(len(game.ruleset.states), 1))
                s.epoch += 1  # flags that disable abilities change the live cards
                for names in windows:
                    for p in s.players:
                        got = actions.legal_actions(s, names, p)
                        keys = {(o[0], vm.card_classes(s, [o[1]], p)[0], o[2]) for o in got}
                        assert len(keys) == len(got), "two options of one class"
                        assert keys == _reference(s, names, p), (names, p)
                        checked += 1
            g.apply(rng.randrange(len(g.legal_actions())))
    assert checked > 20


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_distinct_cards_merges_only_copies_their_player_sees_alike(ruleset: str):
    """vm.distinct_cards (a class looked at only for cards with a copy in the list) keeps every
    card its player cannot see, and drops a card only for an earlier one in the same class."""
    from interpreter.engine.state import visible

    game = interpreter.load_game(ruleset)
    s = game.new_state(interpreter.default_decks(game), 3, log=False)
    rng = random.Random(3)
    merged = 0
    for step in range(80):
        if s.is_over:
            break
        if step % 20 == 0:
            c = s.clone()
            c.face[::3] = [False] * len(c.face[::3])  # face-down cards, public zones included
            for p in c.players:
                for cards in c.zones.values():
                    kept = vm.distinct_cards(c, tuple(cards), p)
                    keys = dict(zip(cards, vm.card_classes(c, cards, p), strict=True))
                    assert [k for k in cards if k in kept] == list(kept)
                    assert all(x in kept for x in cards if not visible(c, x, p))
                    assert len({keys[x] for x in kept}) == len(kept)
                    assert {keys[x] for x in kept} == set(keys.values())
                    merged += len(cards) - len(kept)
        s.apply(rng.randrange(len(s.legal_actions())))
    assert merged > 0


def test_a_pick_changes_only_its_own_class():
    """vm.distinct_after (a choice's next pick) finds what distinct_cards finds again: after any
    card offered is picked, the other classes keep their first card and the picked card's class
    shows its next card in its place, with face-down and marked cards among them."""
    healed = 0
    for ruleset in files.bundled_ids():
        game = interpreter.load_game(ruleset)
        s = game.new_state(interpreter.default_decks(game), 5, log=False)
        rng = random.Random(5)
        for step in range(60):
            if s.is_over:
                break
            if step % 15 == 0:
                healed += _picks_checked(s.clone())
            s.apply(rng.randrange(len(s.legal_actions())))
    assert healed > 0


def _picks_checked(c) -> int:
    """Every pick from every zone checked as above; how many showed the picked card's next copy."""
    c.face[::4] = [False] * len(c.face[::4])
    big = max(c.zones.values(), key=len)
    c.counters[(big[1], "x")] = 1  # a marked card (likely a copy): never merged
    healed = 0
    for p in c.players:
        for cards in map(tuple, c.zones.values()):
            shown = vm.distinct_cards(c, cards, p)
            for picked in shown:
                at = cards.index(picked)
                rest = cards[:at] + cards[at + 1:]
                after = vm.distinct_after(c, rest, at, shown, picked, p)
                assert after == vm.distinct_cards(c, rest, p)
                healed += len(after) == len(shown)
    return healed


def test_hidden_copies_merge_once_their_player_has_looked_and_marked_cards_never():
    """card_classes (card_class inlines the visibility rule): a card its player cannot see gets a
    class only once that player has looked at it (g.known), never for the other player; a
    card with a counter of its own stays apart; None stays None."""
    game = interpreter.load_game("ucb")
    s = game.new_state(interpreter.default_decks(game), 1, log=False)
    deck = list(s.zones[s.zone_key("deck", 0)])
    assert vm.card_classes(s, deck, 0) == deck  # a hidden zone: no card has a class
    for c in deck[::2]:
        s.known[c] = 1  # P1 looked at these
    keys = vm.card_classes(s, deck, 0)
    assert [k == c for c, k in zip(deck, keys, strict=True)] == [i % 2 == 1 for i in range(len(deck))]
    assert len(set(keys[::2])) < len(deck[::2])  # looked-at copies share a class
    assert vm.card_classes(s, deck, 1) == deck
    kept = vm.distinct_cards(s, tuple(deck), 0)
    assert [c for c in deck if c in kept] == list(kept)  # the first of each class, in order
    assert len(kept) == len(set(keys))
    s.counters[(deck[0], "x")] = 1
    assert vm.card_classes(s, [None, *deck], 0) == [None, deck[0], *keys[1:]]


SIGHT = RULESET.replace("  veiled: {hides_properties: true}\n",
                        "  veiled: {hides_properties: true}\n  tapped: {}\n").replace(
    "  any:\n", '  peek:\n    card: "deck(player)"\n    do: "dump(card)"\n'
    '  spy:\n    card: "hand(other(player)) where cost >= 0"\n    do: "dump(card)"\n  any:\n', 1)


def test_a_selection_merges_copies_only_where_its_player_sees_them_alike():
    """The compiled selections merge copies as the cards pass (compile_selection): copies in
    the player's hand are one option, unless their states differ or one has a counter of its
    own; copies the player cannot see (their own hidden deck, the opponent's hand) are one
    option each, until the player has looked at them (g.known)."""
    cards = {"ruleset": "bounds", "cards": [{"name": "A"}, {"name": "B"}]}
    game = build_game(load_text(SIGHT, "sight.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    g = game.new_state([{"main": ["A", "A", "A", "A", "B", "B"]}] * 2, 0, log=False)
    hand = g.zones[g.zone_key("hand", 0)]
    a1, a2, a3, a4 = (c for c in hand if g.defs[c].name == "A")
    b1, b2 = (c for c in hand if g.defs[c].name == "B")
    for c in (a3, b2, a4):
        primitives.move(g, {}, c, g.zone_key("deck", 0))

    def offered(name: str, player: int = 0) -> list[int]:
        return [o[1] for o in actions.legal_actions(g, (name,), player)]

    assert offered("any") == [c for c in hand if c in (a1, b1)]
    assert offered("peek") == list(g.zones[g.zone_key("deck", 0)])  # hidden: each its own
    assert len(offered("spy")) == 6  # the opponent's hand: six cards, two printed cards
    assert sorted(offered("spy", 1)) == sorted([a1, a2, b1])  # P1's hand, which P2 cannot see
    g.known[a3] = g.known[a4] = 1  # P1 looked at both
    assert sorted(offered("peek")) == sorted([b2, min(a3, a4, key=g.zones[g.zone_key(
        "deck", 0)].index)])
    g.flags[a2] |= 1 << game.ruleset.states["tapped"].index
    assert sorted(offered("any")) == sorted([a1, a2, b1])  # a state apart
    g.flags[a2] = g.flags[a1]
    g.counters[(a2, "x")] = 1
    assert sorted(offered("any")) == sorted([a1, a2, b1])  # a counter of its own
    del g.counters[(a2, "x")]
    assert sorted(offered("any")) == sorted([a1, b1])


PILES = SIGHT.replace("  any:\n", '  dig:\n    card: "pile(player)"\n    do: "dump(card)"\n'
                      '  rob:\n    card: "pile(other(player))"\n    do: "dump(card)"\n  any:\n',
                      1).replace("count(pile(player)) == 4", "count(pile(player)) == 9")


def test_copies_in_a_public_zone_merge_face_up_and_for_their_owner_face_down():
    """A public zone (compile_selection merges its copies inline, _keep): face-up copies are
    one option for either player; face-down ones one for their owner, who sees them, and
    one each for the opponent; copies of different faces or states are never one."""
    cards = {"ruleset": "bounds", "cards": [{"name": "A"}, {"name": "B"}]}
    game = build_game(load_text(PILES, "piles.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    g = game.new_state([{"main": ["A", "A", "A", "B"]}] * 2, 0, log=False)
    pile = g.zone_key("pile", 0)
    for c in list(g.zones[g.zone_key("hand", 0)]):
        primitives.move(g, {}, c, pile)
    a1, a2, a3 = (c for c in g.zones[pile] if g.defs[c].name == "A")
    b1 = next(c for c in g.zones[pile] if g.defs[c].name == "B")

    def offered(name: str, player: int) -> list[int]:
        return sorted(o[1] for o in actions.legal_actions(g, (name,), player))

    assert offered("dig", 0) == offered("rob", 1) == sorted([a1, b1])
    for c in (a1, a2, a3):
        g.face[c] = False
    assert offered("dig", 0) == sorted([a1, b1])  # their owner sees them
    assert offered("rob", 1) == sorted([a1, a2, a3, b1])  # the opponent does not
    g.face[a2] = True
    assert offered("dig", 0) == sorted([a1, a2, b1])  # a face apart
    g.face[a1] = g.face[a3] = True
    g.flags[a3] |= 1 << game.ruleset.states["tapped"].index
    assert offered("dig", 0) == offered("rob", 1) == sorted([a1, a3, b1])  # a state apart


GUARDED = RULESET.replace("players: 2\n", "players: 2\nability_zones: [pile]\n").replace(
    "actions: [free, dear, any]", "actions: [free, dear, twice]").replace(
    "  any:\n", '  twice:\n    card: "hand(player)"\n    limit: {count: 1, per: turn}\n'
    '    do: "dump(card)"\n  any:\n', 1).replace("count(pile(player)) == 4",
                                              "count(pile(player)) == 9")


def test_a_window_offers_an_action_up_to_its_limit_and_as_abilities_forbid_or_permit():
    """A phase's window (its actions' selections in one function: compile_window): an action
    with a limit is offered until taken that many times; a card in play that permits an
    action lifts its requirement, one that forbids it removes it (rule by rule then)."""
    cards = {"ruleset": "bounds", "cards": [
        {"name": "Zero", "cost": 0}, {"name": "Five", "cost": 5},
        {"name": "Key", "cost": 3, "abilities": ["can free where card.owner == you"]},
        {"name": "Lock", "cost": 3, "abilities": ["cannot free"]}]}
    game = build_game(load_text(GUARDED, "guarded.yaml"),
                      [load_text(yaml.safe_dump(cards), "c.yaml")])
    assert ("free", "dear", "twice") in game.ruleset.selections
    g = game.new_state([{"main": ["Zero", "Five", "Key", "Lock", "Zero"]}] * 2, 0, log=False)
    everyone = ["Five", "Key", "Lock", "Zero"]
    assert sorted(_offered(g)) == [("dear", "Five"), ("free", "Zero"),
                                   *(("twice", n) for n in everyone)]
    g.apply(_offered(g).index(("twice", "Key")))  # Key to the pile: it permits `free`
    assert sorted(_offered(g)) == [("dear", "Five"), ("free", "Five"), ("free", "Lock"),
                                   ("free", "Zero")]  # `twice` taken once: no more
    primitives.move(g, {}, next(c for c in g.zones[g.zone_key("hand", 0)]
                                if g.defs[c].name == "Lock"), g.zone_key("pile", 0))
    options = actions.legal_actions(g, ("free", "dear", "twice"), 0)
    assert [(o[0], g.defs[o[1]].name) for o in options] == [("dear", "Five")]  # Lock forbids


def test_a_window_shared_by_games_narrowed_to_other_decks_plans_for_each():
    """A phase's window keeps its plan (which actions its game's cards may take) for one
    game at a time: games narrowed to other decks share the window's code, and each gets
    the options of its own plan, as they take turns."""
    cards = {"ruleset": "kinds", "cards": [{"name": "Unit", "kind": "unit"},
                                           {"name": "Spell", "kind": "spell"}]}
    game = build_game(load_text(KINDS, "kinds.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    for _ in range(2):
        units = game.new_state([{"main": ["Unit", "Unit"]}] * 2, 0, log=False)
        mixed = game.new_state([{"main": ["Unit", "Spell"]}] * 2, 0, log=False)
        assert units.game is not mixed.game  # narrowed: one game per set of cards
        assert _offered(units) == [("any", "Unit")]
        assert sorted(_offered(mixed)) == [("any", "Spell"), ("any", "Unit"), ("cast", "Spell")]
        units.apply(0)  # the next decision of each: its window asks again
        mixed.apply(_offered(mixed).index(("any", "Unit")))
        assert _offered(units) == [("any", "Unit")]
        assert sorted(_offered(mixed)) == [("any", "Spell"), ("cast", "Spell")]


def test_a_choice_offers_the_first_uncollected_copy_of_each_class_at_every_pick():
    """A choice of several cards, one at a time: each pick offers one card per class among
    the cards not chosen yet, in their order (a taken copy's place goes to the next copy);
    once one class is left, its first cards are taken without asking."""
    text = RULESET.replace("actions: [free, dear, any]", "actions: [pick]").replace(
        "deck:\n", '  pick:\n    do: "choose 3 c from hand(you); move(c, pile(you))"\ndeck:\n', 1)
    cards = {"ruleset": "bounds", "cards": [{"name": n} for n in "ABC"]}
    game = build_game(load_text(text, "bounds.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    g = game.new_state([{"main": ["B", "C", "A", "B", "A"]}] * 2, 0, log=False)
    hand = g.zones[g.zone_key("hand", 0)]
    assert [g.defs[c].name for c in hand] == ["A", "B", "A", "C", "B"]
    a1, b1, a2, c1, b2 = hand
    g.apply(0)  # pick
    picks = []
    for option, offered in [(a1, [a1, b1, c1]), (c1, [b1, a2, c1]), (b1, [b1, a2])]:
        assert g.decision.kind == "choose"
        assert list(g.decision.options) == offered
        picks.append(option)
        vm.answer(g, option)
    assert sorted(g.zones[g.zone_key("pile", 0)]) == sorted(picks)
    g = game.new_state([{"main": ["A", "A", "B", "A"]}] * 2, 0, log=False)
    hand = list(g.zones[g.zone_key("hand", 0)])
    assert [g.defs[c].name for c in hand] == ["A", "B", "A", "A"]
    g.apply(0)  # pick
    assert list(g.decision.options) == hand[:2]
    vm.answer(g, hand[1])  # B: only copies of A are left, the first two are taken
    assert sorted(g.zones[g.zone_key("pile", 0)]) == sorted(hand[:3])


def test_distinct_cards_keeps_a_copy_with_a_counter_or_an_attachment_of_its_own_apart():
    """A copy marked by a counter or an attachment of its own is never merged with the others
    (vm.distinct_cards looks the marked cards up once, when a copy shows up)."""
    cards = {"ruleset": "bounds", "cards": [{"name": "A"}, {"name": "B"}]}
    game = build_game(load_text(RULESET, "bounds.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    g = game.new_state([{"main": ["A", "A", "B", "A"]}] * 2, 0, log=False)
    hand = tuple(g.zones[g.zone_key("hand", 0)])
    a1, a2, a3 = (c for c in hand if g.defs[c].name == "A")
    b1 = next(c for c in hand if g.defs[c].name == "B")
    assert set(vm.distinct_cards(g, hand, 0)) == {a1, b1}
    g.counters[(a2, "x")] = 1
    assert set(vm.distinct_cards(g, hand, 0)) == {a1, a2, b1}
    del g.counters[(a2, "x")]
    g.counters[(a1, "x")] = 1
    assert set(vm.distinct_cards(g, hand, 0)) == {a1, a2, b1}  # a2 and a3: one class
    del g.counters[(a1, "x")]
    g.host[a3] = b1  # (as if attached)
    assert set(vm.distinct_cards(g, hand, 0)) == {a1, a3, b1}


KINDS = """
id: kinds
name: printed kinds
players: 2
properties:
  kind: {type: enum, values: [unit, spell], always_known: true}
zones:
  deck: {ordered: true, visibility: hidden, face: down}
  hand: {visibility: owner}
  pile: {visibility: public}
setup: "for each p in players { move(deck(p), hand(p)) }"
turn:
  - phase: main
    actions: [cast, any]
actions:
  cast:
    card: "hand(player) where kind == spell"
    do: "move(card, pile(you))"
  any:
    card: "hand(player)"
    do: "move(card, pile(you))"
deck:
  sections:
    main: {zone: deck}
end:
  - lose: "count(pile(player)) == 2"
    reason: "two cards played"
"""


def test_an_action_for_cards_no_deck_holds_is_left_out_and_only_then():
    """An action whose cards must have a printed, never hidden property no card of the match
    has is never looked at; a match (or a scenario's state, which may hold any card of the
    pool) with such a card offers it."""
    cards = {"ruleset": "kinds", "cards": [{"name": "Unit", "kind": "unit"},
                                           {"name": "Spell", "kind": "spell"}]}
    game = build_game(load_text(KINDS, "kinds.yaml"), [load_text(yaml.safe_dump(cards), "c.yaml")])
    units = game.new_state([{"main": ["Unit", "Unit"]}] * 2, 0, log=False)
    assert _offered(units) == [("any", "Unit")]
    assert [p[0] for p in units.game.action_plans[("cast", "any")]] == ["any"]
    mixed = game.new_state([{"main": ["Unit", "Spell"]}] * 2, 0, log=False)
    assert sorted(_offered(mixed)) == [("any", "Spell"), ("any", "Unit"), ("cast", "Spell")]
    for hand, offered in [("Unit", [("any", "Unit")]), ("Spell", [("any", "Spell"), ("cast", "Spell")])]:
        scenario = build_state(game, {"zones": {"hand@P1": [hand]}, "phase": "main"}, 0)
        assert sorted(_offered(scenario)) == offered


CHOICE_COUNTS = """
id: counts
name: choices of a negative, an unknown and too large a number of cards
players: 2
properties:
  cost: {type: number}
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  pile: {visibility: public}
setup: |
  move(deck(turn_player), hand(turn_player));
  let k = 0 - 2;
  choose k a from hand(turn_player);
  let u = top(pile(turn_player)).cost;
  choose u b from hand(turn_player);
  choose 9 c from hand(turn_player);
  change(turn_player, got, count(a) + 10 * count(b) + 100 * count(c))
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_choice_of_a_negative_or_unknown_number_picks_none_and_of_too_many_all():
    """`choose N`: N below 0, or unknown (the cost of no card), picks no card and asks
    nothing; N above the candidates picks them all, without asking either."""
    cards = load_text(yaml.safe_dump({"ruleset": "counts", "cards": [
        {"name": n, "cost": 1} for n in ("X", "Y", "Z")]}), "c.yaml")
    game = build_game(load_text(CHOICE_COUNTS, "counts.yaml"), [cards])
    g = game.new_state([{"main": ["X", "Y", "Z"]}, {}], 0, log=True)
    assert g.decision is None and g.res[0]["got"] == 300  # (no action: on to the turn limit)


def test_generated_code_looks_up_no_env_nor_zone_it_knows_when_compiled(ucb):
    """A window whose selections read no variable looks up no player's env; the end check,
    where `player` is a number, reads each player's zone as a constant (no table of them)."""
    window = ucb.ruleset.selections[("play", "cast", "activate", "evolve")]
    assert "player_envs" not in window.__code__.co_names
    assert ZoneRef("deck", 0) in ucb.ruleset.end_check.__globals__.values()


def test_a_window_computes_what_its_actions_rules_share_once(ucb):
    """play, cast and evolve each ask `card.cost <= count(mana(you) where ...)`: the window
    of the main phase counts the mana once per call, for whichever of them gets there first
    (test_compiled_selections_offer_what_the_rules_allow: the options stay the same)."""
    window = ucb.ruleset.selections[("play", "cast", "activate", "evolve")]
    shared = [v for v in window.__code__.co_varnames if v.startswith("_x")]
    # two shared values: the mana count, and the battle area that play's and evolve's
    # `can_enter` look up once for the player (not once per action or per card)
    assert len(shared) == 2, shared
