"""Decision-free code runs as generated Python (compile/straight.py) and hands over to the VM
midway when a verb it calls leaves code to run first: what a user sees must not change."""

from __future__ import annotations

from pathlib import Path

import yaml

from interpreter.engine.state import ZoneRef
from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state

ENGINE = Path(__file__).parent / "scenarios" / "engine"

RECURSIVE = """
id: rec
name: a verb that calls itself
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  echo:
    params: {player: player}
    do: "move(top(deck(player)), hand(player)); echo(player)"
setup: "echo(turn_player)"
turn:
  - phase: main
"""


def test_a_verb_calling_itself_ends_at_the_loop_limit(tmp_path):
    path = tmp_path / "rec.yaml"
    path.write_text(RECURSIVE, encoding="utf-8")
    g = load_game(str(path)).new_state([{}, {}], 0, log=True)
    assert g.result is not None and "loop limit" in g.result.reason


def _choose(g, label: str) -> None:
    labels = [a.label for a in g.legal_actions()]
    g.apply(next(i for i, x in enumerate(labels) if label in x))


def test_a_clone_taken_while_a_handed_over_loop_waits_plays_on_alone():
    """火の雨 burns 3 (a verb repeating damage); 手札の盾 replaces the first damage with a
    discard that asks P2. Cloned at that question, each copy finishes the loop its own way."""
    spec = yaml.safe_load((ENGINE / "replacement_in_a_called_verb_midway.yaml").read_text("utf-8"))
    game = load_game(str(ENGINE.parent.parent / "rulesets" / "mini.yaml"),
                     (str(ENGINE / "cards.yaml"),))
    g = build_state(game, spec["state"], 0)
    _choose(g, "cast 火の雨")
    assert g.decision is not None and g.decision.player == 1
    copy = g.clone()
    _choose(copy, "霊")      # copy: P2 keeps 強霊 and 止め, so the second damage is replaced
    _choose(copy, "止め")    # too; one card left: the third damage happens
    _choose(g, "強霊")
    _choose(g, "止め")
    for state, kept in ((g, "霊"), (copy, "強霊")):
        assert [state.defs[c].name for c in state.zones[ZoneRef("hand", 1)]] == [kept]
        assert [state.res[p]["life"] for p in (0, 1)] == [9, 9]  # 火の雨 then hits P1
        assert state.decision.player == 0  # the effect is over: P1's main phase again


CARDS_PARAMS = """
id: cardsp
name: a cards parameter given a zone, a card and a selection
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  tick:
    params: {player: player, target: cards}
    each: target
    do: "change(player, got, 1)"
setup: |
  move(deck(turn_player), hand(turn_player));
  tick(turn_player, hand(turn_player));
  tick(turn_player, top(hand(turn_player)));
  for each x in hand(turn_player) { tick(turn_player, x) };
  for each x in hand(turn_player) { may by turn_player { tick(turn_player, x) } }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def _game(ruleset: str, rid: str, cards: list[dict]):
    """A toy ruleset (YAML text, id `rid`) with a card set."""
    from interpreter.compile.build import build_game
    from interpreter.load.yamlpos import load_text

    card_file = load_text(yaml.safe_dump({"ruleset": rid, "cards": cards}), "c.yaml")
    return build_game(load_text(ruleset, f"{rid}.yaml"), [card_file])


def _three_copies(ruleset: str, rid: str):
    """A match of a toy ruleset, three copies of a card X in P1's deck."""
    return _game(ruleset, rid, [{"name": "X"}]).new_state([{"main": ["X", "X", "X"]}, {}], 0, log=True)


def test_a_cards_parameter_is_every_card_given_however_it_is_given():
    """A verb applied card by card (`each`) runs once per card of a zone, of a one-card
    selection and of a single card, from straight code and from the VM alike (the compiled
    call hands call_verb its cards as a tuple)."""
    g = _three_copies(CARDS_PARAMS, "cardsp")
    assert g.res[0]["got"] == 3 + 1 + 3
    for _ in range(3):
        assert g.decision.kind == "may"
        g.apply(next(i for i, a in enumerate(g.legal_actions()) if "yes" in a.label.lower()))
    assert g.res[0]["got"] == 3 + 1 + 3 + 3


LOOPS = """
id: loops
name: loops over a zone, a single card and nothing
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  for each x in hand(turn_player) { change(turn_player, got, 1) };
  for each x in hand(turn_player) { for each y in x { change(turn_player, got, 10) } };
  for each x in deck(turn_player) { change(turn_player, got, 100) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_loop_in_straight_code_runs_once_per_card_of_any_kind_of_value():
    """`for each` takes a zone, a single card or no card as cards (straight code turns only
    what is not already a tuple into cards)."""
    g = _three_copies(LOOPS, "loops")
    assert g.res[0]["got"] == 3 * 1 + 3 * 10


UPKEEP = """
id: upkeep
name: a phase's procedure whose verb a card replaces with a choice
players: 2
ability_zones: [field]
resources:
  life: {initial: 10}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  field: {visibility: public}
  soul: {visibility: public}
verbs:
  damage:
    params: {player: player, n: number}
    do: "change(player, life, 0 - n)"
setup: |
  move(deck(turn_player) where name == 「Shield」, field(turn_player));
  move(deck(turn_player), hand(turn_player))
turn:
  - phase: upkeep
    do: "damage(you, 1); damage(opponent, 2)"
  - phase: main
    actions: [wait]
actions:
  wait:
    do: "change(you, life, 0)"
deck:
  sections:
    main: {zone: deck}
"""


def test_a_phase_procedure_handed_over_midway_goes_on_after_the_choice():
    """The procedure runs as straight code without a frame; Shield replaces its first
    damage with a discard that asks P1: the procedure waits for the answer, then goes on
    (the second damage) before the phase's window opens."""
    shield = {"name": "Shield", "abilities": [
        "instead damage where player == you: choose 1 c from hand(you); move(c, soul(you))"]}
    game = _game(UPKEEP, "upkeep", [shield, {"name": "X"}, {"name": "Y"}])
    g = game.new_state([{"main": ["Shield", "X", "Y"]}, {}], 0, log=True)
    assert (g.decision.player, g.decision.kind) == (0, "choose")
    assert [g.res[p]["life"] for p in (0, 1)] == [10, 10]  # the rest waits for the answer
    _choose(g, "X")
    assert [g.defs[c].name for c in g.zones[ZoneRef("soul", 0)]] == ["X"]
    assert [g.res[p]["life"] for p in (0, 1)] == [10, 8]
    assert (g.decision.player, g.decision.kind) == (0, "action")  # the main phase's window


SHADOW = """
id: shadow
name: a verb parameter named like an engine variable
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  pull:
    params: {you: player}
    do: "move(top(deck(you)), hand(you))"
actions:
  gift:
    do: "pull(opponent)"
turn:
  - phase: main
    actions: [gift]
"""


def test_a_verb_parameter_named_you_is_the_verbs_you(tmp_path):
    """`pull(opponent)` names the opponent `you` inside pull: the opponent draws."""
    (tmp_path / "shadow.yaml").write_text(SHADOW, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("ruleset: shadow\ncards:\n  - {name: c}\n",
                                         encoding="utf-8")
    game = load_game(str(tmp_path / "shadow.yaml"), (str(tmp_path / "cards.yaml"),))
    g = build_state(game, {"turn_player": "P1", "phase": "main",
                           "zones": {"deck@P1": ["c"], "deck@P2": ["c"]}}, 0)
    _choose(g, "gift")
    assert [len(g.zones[ZoneRef("hand", p)]) for p in (0, 1)] == [0, 1]


INLINE = """
id: inline
name: leaf verbs, which their callers' generated code runs inline
players: 2
resources:
  got: {initial: 0}
  seen: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  score:
    params: {player: player, target: cards, n: {type: number, default: 1}}
    do: |
      let k = n * 10;
      for each x in target { change(player, got, k) };
      if not exists(x) { change(player, seen, 1) }
  mark:
    params: {player: player, target: cards}
    each: target
    do: "change(player, got, 1000)"
  twice:
    params: {player: player, target: cards}
    do: "let k = 1; score(player, target, 3); mark(player, target); change(player, got, k)"
  bump:
    params: {player: player, c: cards}
    do: "for each x in c { change(player, got, 100) }"
  outer:
    params: {player: player, target: cards}
    do: "for each c in target { bump(player, target) }"
setup: |
  move(deck(turn_player), hand(turn_player));
  let k = 7;
  let x = 5;
  score(turn_player, hand(turn_player), 2);
  score(turn_player, deck(turn_player));
  mark(turn_player, hand(turn_player));
  mark(turn_player, deck(turn_player));
  twice(turn_player, top(hand(turn_player)));
  outer(turn_player, hand(turn_player));
  change(turn_player, got, k * 100000);
  change(turn_player, seen, x * 10)
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_leaf_verb_run_inline_keeps_its_variables_to_itself():
    """A verb's `let` and loop variables are its own: unset until bound (a loop over nothing
    leaves `x` unset), never the caller's `k` and `x`, which stay as they were, nor those of
    a verb it calls (twice's `k`; bump's `c` is its parameter, not outer's loop variable); its
    default applies; `each` runs it once per card, and not at all for no card."""
    g = _three_copies(INLINE, "inline")
    assert g.res[0]["got"] == 3 * 20 + 0 + 3 * 1000 + 0 + (30 + 1000 + 1) + 3 * 3 * 100 \
        + 7 * 100000
    assert g.res[0]["seen"] == 1 + 5 * 10


def test_a_plain_verb_run_inline_logs_as_one_called(monkeypatch):
    """The oracle: every bundled game's matches log byte for byte the same when no verb call
    runs inline (every one through vm.call_verb, as before leaves existed)."""
    import copy
    import io

    from interpreter.engine.game import Game
    from interpreter.load import files
    from interpreter.run.match import MatchSetup, play

    def logs() -> list[str]:
        out = []
        for ruleset in files.bundled_ids():
            for seed in (0, 1):
                buf = io.StringIO()
                play(MatchSetup(ruleset, [], seed, ["random", "random"]), buf)
                out.append(buf.getvalue())
        return out

    inline = logs()
    narrow = Game.for_cards

    def none_plain(self, names):
        game = copy.copy(narrow(self, names))
        game.inline_verbs = frozenset()
        return game

    monkeypatch.setattr(Game, "for_cards", none_plain)
    assert logs() == inline


DIRECT = """
id: direct
name: an action whose body runs without a frame
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  grave: {visibility: public}
actions:
  mill:
    limit: {count: 1, per: turn, on: complete}
    do: "move(top(deck(you)), grave(you))"
turn:
  - phase: main
    actions: [mill]
end:
  - lose: "count(deck(player)) == 0"
    reason: "no cards left"
deck:
  sections:
    main: {zone: deck}
"""


def _direct(p1: int):
    return _game(DIRECT, "direct", [{"name": "X"}]).new_state(
        [{"main": ["X"] * p1}, {"main": ["X", "X"]}], 0, log=True)


def test_an_action_run_at_once_counts_on_completion_and_can_end_the_game():
    """mill's body is one straight run, taken as the answer comes (no frame): its limit counts
    once it completes (P1's window then closes: P2 acts), and milling the last card loses at
    that instant."""
    g = _direct(2)
    _choose(g, "mill")
    assert len(g.zones[ZoneRef("grave", 0)]) == 1
    assert (g.result, g.decision.player) == (None, 1)
    g = _direct(1)
    _choose(g, "mill")
    assert g.result is not None and g.result.winner == 1 and "no cards left" in g.result.reason


def test_a_clone_without_the_log_plays_as_the_logged_state(ucb, ucb_decks):
    """A clone keeps no log unless asked to, and plays on exactly as the state it copies (the
    events nobody hears follow the log: GameState.keep_log)."""
    import random

    from interpreter.engine import vm

    g = ucb.new_state(ucb_decks, 3, log=True)
    quiet, logged = g.clone(), g.clone(keep_log=True)
    assert quiet.log is None and logged.log == g.log
    for state in (g, quiet, logged):
        rng = random.Random(0)
        while state.result is None:
            vm.answer(state, rng.choice(state.decision.options))
    assert g.result == quiet.result == logged.result and quiet.log is None
    assert logged.log == g.log and len(g.log) > 100


READS = """
id: reads
name: straight code reading printed and modified properties
players: 2
ability_zones: [field]
properties:
  power: {type: number, default: 0}
  cost: {type: number, default: 0}
states:
  veiled: {hides_properties: true}
resources:
  costs: {initial: 0}
  powers: {initial: 0}
  chosen: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  field: {visibility: public}
setup: |
  move(deck(turn_player), field(turn_player));
  set(field(turn_player) where name == 「V」, veiled);
  for each c in field(turn_player) {
    change(turn_player, costs, c.cost); change(turn_player, powers, c.power)
  };
  choose 1 k from field(turn_player) where cost >= 4 and power >= 4;
  for each c in k { change(turn_player, chosen, c.cost) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_straight_code_reads_a_printed_property_inline_and_a_modified_one_as_modified():
    """Straight code is made at its first run, once every card is compiled, and so is an
    expression of the ruleset's code (the choice's filter, compiled before the cards): `cost`,
    which no text modifies, reads as printed (hidden on a veiled card); `power`, which a card's
    static ability raises, reads with the modifier (B alone passes the filter: V's cost is
    hidden, A's power too low)."""
    game = _game(READS, "reads", [
        {"name": "A", "power": 2, "cost": 1},
        {"name": "B", "power": 3, "cost": 4, "abilities": ["static: field(you).power += 1"]},
        {"name": "V", "power": 5, "cost": 6}])
    g = game.new_state([{"main": ["A", "B", "V"]}, {}], 0, log=True)
    assert (g.res[0]["costs"], g.res[0]["powers"]) == (1 + 4, 3 + 4)
    assert g.res[0]["chosen"] == 4


ANSWER = """
id: answer
name: a verb offering windows midway through its straight code
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  pile: {visibility: public}
verbs:
  declare:
    params: {player: player}
    do: |
      offer(other(player), answer);
      change(player, got, 1);
      change(player, got, 10);
      offer(player, answer);
      change(player, got, 100)
setup: "move(deck(other(turn_player)), hand(other(turn_player)))"
turn:
  - phase: main
    do: "declare(you)"
    actions: [wait]
actions:
  answer:
    card: "hand(player)"
    do: "move(card, pile(card.owner))"
  wait:
    do: "change(you, got, 0)"
deck:
  sections:
    main: {zone: deck}
"""


def test_a_window_offered_midway_holds_the_rest_of_the_code_until_it_closes():
    """declare runs as straight code (a window with nothing to offer closes at once, with no
    frame); P2's window opens: the rest waits until P2 answered and the window closed, then
    runs on (P1's window offers nothing) before the phase's own window."""
    g = _game(ANSWER, "answer", [{"name": "X"}]).new_state([{}, {"main": ["X"]}], 0, log=True)
    assert (g.decision.player, g.decision.kind) == (1, "action")
    assert g.res[0]["got"] == 0  # the rest waits for the answer
    _choose(g, "answer")
    assert [g.defs[c].name for c in g.zones[ZoneRef("pile", 1)]] == ["X"]
    assert g.res[0]["got"] == 111
    assert (g.decision.player, g.decision.kind) == (0, "action")  # the main phase's window


def test_a_loop_goes_on_after_a_window_opened_in_one_of_its_passes():
    """A window offered in a loop's pass opens: the VM runs the rest of that pass once it
    closed, then the loop's next passes (as straight code again), each in order."""
    rounds = ANSWER.replace('''      offer(other(player), answer);
      change(player, got, 1);
      change(player, got, 10);
      offer(player, answer);
      change(player, got, 100)''', '''      repeat 3 {
        change(player, got, 1);
        offer(other(player), answer);
        change(player, got, 10)
      }''')
    g = _game(rounds, "answer", [{"name": "X"}, {"name": "Y"}]).new_state(
        [{}, {"main": ["X", "Y"]}], 0, log=True)
    assert (g.decision.player, g.res[0]["got"]) == (1, 1)  # the first pass waits
    _choose(g, "X")
    assert (g.decision.player, g.res[0]["got"]) == (1, 1)  # the window reopens (Y left)
    _choose(g, "pass")
    assert (g.decision.player, g.res[0]["got"]) == (1, 12)  # the second pass waits
    _choose(g, "Y")  # the window closes (nothing left), the last pass offers nothing
    assert g.res[0]["got"] == 33
    assert (g.decision.player, g.decision.kind) == (0, "action")  # the main phase's window


TOPS = """
id: tops
name: the top cards of a zone moved one by one, and into a zone that can refuse them
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
  slot: {visibility: public, capacity: 1}
verbs:
  draw:
    params: {player: player, n: {type: number, default: 1}}
    do: "repeat n { move(top(deck(player)), hand(player)) }"
setup: |
  draw(turn_player, 3);
  repeat 3 { move(top(deck(turn_player)), slot(turn_player)) };
  repeat 2 { move(top(hand(turn_player)), deck(turn_player), bottom) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_loop_moving_a_zones_top_card_moves_the_top_cards_at_once(monkeypatch):
    """`repeat n { move(top(Z), D) }` moves the top n cards of Z in one call of D's mover, in
    the order the passes would (each ends on top of the hand, or at the bottom of the deck),
    inline (draw) or not; into a zone with a capacity, each pass tries the top card again,
    refused as often as the passes try it."""
    from interpreter.engine import game as games

    calls = []
    made = games.movers

    def counted(game):
        return {name: (lambda *a, m=m, name=name: calls.append(name) or m(*a))
                for name, m in made(game).items()}

    monkeypatch.setattr(games, "movers", counted)
    game = _game(TOPS, "tops", [{"name": n} for n in "ABCDE"])
    g = game.new_state([{"main": list("ABCDE")}, {}], 0, log=True)
    names = {zone: [g.defs[c].name for c in g.zones[ZoneRef(zone, g.turn_player)]]
             for zone in ("hand", "deck", "slot")}
    assert names == {"hand": ["A"], "slot": ["D"], "deck": ["E", "C", "B"]}
    assert (calls.count("hand"), calls.count("slot"), calls.count("deck")) == (1, 3, 1)
    refused = [e["card"] for e in g.log if e["e"] == "move_failed"]
    assert len(refused) == 2 and refused[0] == refused[1] and "E" in refused[0]


EXISTS = """
id: exists
name: conditions asking whether a filter finds a card
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  if count(hand(turn_player)) > 1 and not exists(hand(turn_player) where name == 「Z」) {
    change(turn_player, got, 1)
  };
  if exists(hand(turn_player) where name == 「A」) and count(hand(turn_player)) > 5 {
    change(turn_player, got, 10)
  } else { change(turn_player, got, 100) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_condition_on_a_filter_finding_a_card_runs_a_loop_each_conjunct_in_turn():
    """`if a and exists(S where C)` in straight code: the conjuncts are tested in turn, the
    existence by a loop (no generator), and `else` runs when any conjunct is false."""
    from interpreter.engine import instructions as I

    g = _game(EXISTS, "exists", [{"name": "A"}, {"name": "B"}]).new_state(
        [{"main": ["A", "B"]}, {}], 0, log=True)
    assert g.res[0]["got"] == 1 + 100
    run = next(i for i in g.game.program[0].code if isinstance(i, I.Straight))
    assert not [c for c in run.fn.__code__.co_consts if hasattr(c, "co_name")]  # no generator


EACH = """
id: each
name: a loop's card read in its body
players: 2
properties:
  cost: {type: number, default: 0}
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  for each c in hand(turn_player) { change(turn_player, got, c.cost) };
  move(c, deck(turn_player))
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_loops_card_is_a_local_in_its_body_and_stays_in_the_env_after_it():
    """`for each c in ...` in straight code: the body reads `c` from a Python local, a card
    number (its cost inline: no _field), and the env keeps the last card for what follows."""
    from interpreter.engine import instructions as I

    g = _game(EACH, "each", [{"name": "A", "cost": 2}, {"name": "B", "cost": 5}]).new_state(
        [{"main": ["A", "B"]}, {}], 0, log=True)
    assert g.res[0]["got"] == 2 + 5
    deck = [g.defs[c].name for c in g.zones[ZoneRef("deck", 0)]]
    assert deck == ["A"]  # (the hand was B, A: the loop ended on A)
    run = next(i for i in g.game.program[0].code if isinstance(i, I.Straight))
    assert "_field" not in run.fn.__code__.co_names


ZONE_PARAMS = """
id: zonep
name: a leaf verb given a zone's cards, a filter's and its caller's
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  tick:
    params: {player: player, target: cards}
    each: target
    do: "change(player, got, 1)"
  tock:
    params: {player: player, target: cards}
    do: "tick(player, target)"
setup: |
  move(deck(turn_player), hand(turn_player));
  tick(turn_player, hand(turn_player));
  tick(turn_player, hand(turn_player) where name == 「X」);
  tock(turn_player, hand(turn_player) where name == 「Y」)
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_leaf_verb_run_inline_takes_a_zones_or_a_filters_cards_as_a_tuple(monkeypatch):
    """Inline, a `cards` parameter given a zone reads its list, given a filter runs a loop,
    given its caller's cards parameter takes that tuple: as_cards is never called."""
    from interpreter.compile import exprs
    from interpreter.engine import vm

    calls = []
    monkeypatch.setitem(exprs._HELPERS, "as_cards",
                        lambda g, v: calls.append(v) or vm.as_cards(g, v))
    g = _game(ZONE_PARAMS, "zonep", [{"name": "X"}, {"name": "Y"}]).new_state(
        [{"main": ["X", "X", "Y"]}, {}], 0, log=True)
    assert g.res[0]["got"] == 3 + 2 + 1 and not calls


CHOOSER = """
id: chooser
name: who chooses
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
verbs:
  pick:
    params: {player: player}
    do: "choose 1 c from hand(player) by player; move(c, deck(player))"
setup: |
  repeat 3 { move(top(deck(opponent)), hand(opponent)) };
  pick(opponent);
  choose 1 d from hand(opponent) by turn_player; move(d, deck(opponent))
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


CLEARS = """
id: clears
name: a state set on the cards of a zone that are not so already
players: 2
states:
  tapped: {}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  set(top(hand(turn_player)), tapped);
  set(hand(turn_player) where tapped, tapped, false);
  set(hand(turn_player) where not tapped, tapped)
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_choice_by_a_variable_reads_it_without_a_call():
    """`choose ... by player`, a variable the env surely holds: the choice reads it from the
    env (no compiled function); `by turn_player`, a special name, keeps its function."""
    from interpreter.engine import instructions as I
    from interpreter.engine import vm

    game = _game(CHOOSER, "chooser", [{"name": "A"}, {"name": "B"}, {"name": "C"}])
    g = game.new_state([{}, {"main": ["A", "B", "C"]}], 0, log=True)
    picks = [i for i in game.ruleset.verbs["pick"].body if isinstance(i, I.Choose)]
    assert [(c.by_var, c.by) for c in picks] == [("player", None)]
    assert (g.decision.player, g.decision.kind) == (1, "choose")  # the opponent picks
    vm.answer(g, g.decision.options[0])
    assert (g.decision.player, g.decision.kind) == (0, "choose")  # the turn player picks
    setup = [i for i in game.program[0].code if isinstance(i, I.Choose)]
    assert [(c.by_var, c.by is not None) for c in setup] == [(None, True)]


def test_a_state_set_on_a_zones_cards_not_so_already_goes_to_the_setter_unfiltered(monkeypatch):
    """`set(Z where S, S, false)` and `set(Z where not S, S)` give the setter all of Z's
    cards (it passes over those already so): no loop filters them; the same changes, in
    order, as the filter's cards would make."""
    from interpreter.engine import game as games

    given = []
    made = games.setters

    def recorded(game):
        return {name: (lambda g, env, cards, *a, s=s: given.append(cards) or s(g, env, cards, *a))
                for name, s in made(game).items()}

    monkeypatch.setattr(games, "setters", recorded)
    g = _game(CLEARS, "clears", [{"name": n} for n in "ABC"]).new_state(
        [{"main": list("ABC")}, {}], 0, log=True)
    hand = tuple(g.zones[ZoneRef("hand", g.turn_player)])
    assert given == [hand[:1], hand, hand] and all(g.flags[c] for c in hand)
    changes = [(e["card"], e["value"]) for e in g.log if e["e"] == "state"]
    assert [v for _, v in changes] == [True, False, True, True, True]
    assert changes[0][0] == changes[1][0] == changes[2][0]


LOOPED = """
id: looped
name: a loop's card given to primitives
players: 2
states:
  tapped: {}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  for each c in hand(turn_player) { set(c, tapped); flip(c, down); move(c, deck(turn_player)) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_a_loops_card_goes_to_a_primitive_as_a_one_card_tuple(monkeypatch):
    """In straight code a loop's card is an int local: a primitive gets it as `(card,)`,
    the form it takes with no test of the type."""
    from interpreter.engine import game as games

    given = []

    def recording(made):
        def recorded(game):
            return {k: (lambda g, env, cards, *a, f=f: given.append(cards) or f(g, env, cards, *a))
                    for k, f in made(game).items()}
        return recorded

    for made in ("setters", "flippers", "movers"):
        monkeypatch.setattr(games, made, recording(getattr(games, made)))
    g = _game(LOOPED, "looped", [{"name": n} for n in "AB"]).new_state(
        [{"main": list("AB")}, {}], 0, log=True)
    deck = g.zones[ZoneRef("deck", g.turn_player)]
    assert [type(c) for c in given] == [ZoneRef] + [tuple] * 6 and len(deck) == 2
    assert all(g.flags[c] == 0 and g.face[c] for c in deck)  # (moved: new objects)


HELD = """
id: held
name: cards held in a variable, counted and tested
players: 2
resources:
  got: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
  hand: {visibility: owner}
setup: |
  move(deck(turn_player), hand(turn_player));
  let x = top(hand(turn_player), 2);
  if exists(x) { change(turn_player, got, count(x)) };
  let y = none;
  if not exists(y) { change(turn_player, got, 10 * count(y) + 100) }
turn:
  - phase: main
deck:
  sections:
    main: {zone: deck}
"""


def test_count_and_exists_of_a_tuple_of_cards_call_nothing(monkeypatch):
    """`count(x)`, `exists(x)` where x holds a tuple of cards (the usual value) read it as it
    is; any other value (none here) goes through as_cards."""
    from interpreter.compile import exprs
    from interpreter.engine import vm

    calls = []
    monkeypatch.setitem(exprs._HELPERS, "as_cards",
                        lambda g, v: calls.append(v) or vm.as_cards(g, v))
    g = _game(HELD, "held", [{"name": n} for n in "AB"]).new_state(
        [{"main": ["A", "B", "A"]}, {}], 0, log=True)
    assert g.res[g.turn_player]["got"] == 2 + 100 and calls == [None, None]
