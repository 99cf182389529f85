"""Between two decisions the engine runs on without its run loop where nothing waits to
settle (engine/turn.py, vm.run): what each timing point does must not change."""

from __future__ import annotations

from pathlib import Path

from interpreter.compile.build import build_game
from interpreter.engine.ordering import OrderTriggers
from interpreter.engine.turn import PhaseStart, TurnEnd
from interpreter.load.yamlpos import load_text
from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state

KNOCK = """
id: knock
name: an action limited on completion that changes nothing
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
turn:
  - phase: main
    actions: [knock]
actions:
  knock:
    limit: {count: 1, per: turn, on: complete}
    do: "let x = 1"
deck:
  sections:
    main: {zone: deck}
"""


def test_an_action_limited_on_completion_counts_even_when_it_changed_nothing():
    """The count waits for the action's end; with no state change nor trigger to settle
    there, the end still counts it: not offered again, P1 has nothing left to do this turn."""
    g = build_game(load_text(KNOCK, "knock.yaml"), []).new_state([{}, {}], 0, log=True)
    labels = [a.label for a in g.legal_actions()]
    assert any("knock" in x for x in labels)
    g.apply(next(i for i, x in enumerate(labels) if "knock" in x))
    assert g.decision.player == 1  # the window closed with nothing to offer: P2's turn


STILL = """
id: still
name: a board that never changes, judged by a judgement that decides nothing
players: 2
resources:
  heard: {initial: 0}
zones:
  deck: {ordered: true, visibility: hidden}
turn:
  - phase: main
limits:
  judge: "change(you, heard, 0)"
  same_board:
    turns: 2
    zones: [deck]
deck:
  sections:
    main: {zone: deck}
"""


def test_a_turn_judged_at_its_end_ends_once():
    """The same board at the second turn end: judged there; the judgement decides nothing,
    so the game is a draw. That turn_end was reported once: the judgement came after it."""
    g = build_game(load_text(STILL, "still.yaml"), []).new_state([{}, {}], 0, log=True)
    assert g.result is not None and g.result.winner is None
    assert "the same board for 2 turns" in g.result.reason
    ends = [r["turn"] for r in g.log if r["e"] == "turn_end"]
    assert ends == [1, 2]


def test_a_phase_start_trigger_resolves_before_an_empty_phase_ends():
    """Nothing runs between the bare phase's start and end but the timing point: the
    triggered ability that heard the start resolves before the phase ends."""
    rulesets = Path(__file__).parent / "rulesets"
    game = load_game(str(rulesets / "rest.yaml"), (str(rulesets / "rest_cards.yaml"),))
    g = game.new_state([{"main": ["bell"], "pile": ["bell"]}] * 2, 0, log=True)
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "end the main" in a.label))
    events = [(e["e"], e.get("phase")) for e in g.log
              if e["e"] in ("phase_start", "phase_end", "moved")]
    assert events[2:5] == [("phase_start", "bare"), ("moved", None), ("phase_end", "bare")]


PHASES = """
id: phases
name: three phases, the middle one skipped
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
turn:
  - phase: first
    actions: [knock]
  - phase: middle
    if: "count(deck(you)) > 99"
    actions: [knock]
  - phase: last
    actions: [knock]
actions:
  knock:
    do: "let x = 1"
deck:
  sections:
    main: {zone: deck}
"""


def _phase_events(g) -> list[tuple[str, str]]:
    return [(e["e"], e["phase"]) for e in g.log if e["e"] in ("phase_start", "phase_end")]


def test_one_instruction_ends_a_phase_and_starts_the_next():
    """Between two phases one dispatch does both (a start that ends the phase before), and
    the turn's end ends the last phase; a skipped phase is not ended."""
    game = build_game(load_text(PHASES, "phases.yaml"), [])
    starts = [(i.ending and i.ending.name, i.phase.name) for i in game.program
              if isinstance(i, PhaseStart)]
    assert starts == [(None, "first"), ("first", "middle"), (None, "middle"),
                      ("middle", "last"), (None, "last")]
    ends = [i.ending and i.ending.name for i in game.program if isinstance(i, TurnEnd)]
    assert ends == ["last", None]
    g = game.new_state([{}, {}], 0, log=True)
    for _ in range(2):  # pass in the first and the last phase
        g.apply(next(i for i, a in enumerate(g.legal_actions()) if "end the" in a.label))
    assert _phase_events(g) == [("phase_start", "first"), ("phase_end", "first"),
                                ("phase_start", "last"), ("phase_end", "last"),
                                ("phase_start", "first")]


def test_a_scenario_started_at_a_later_phase_does_not_end_the_phase_before():
    game = build_game(load_text(PHASES, "phases.yaml"), [])
    g = build_state(game, {"turn_player": "P1", "phase": "last"}, 0)
    assert _phase_events(g) == [("phase_start", "last")]


def test_a_pass_goes_on_at_once_up_to_the_end_of_the_game():
    """A pass runs on from the window in the answer itself (Window.resume): there the turn
    limit that ends the game is reached, and the game ends as in the run loop."""
    g = build_game(load_text(PHASES + "limits: {turns: 1}\n", "phases.yaml"), []).new_state(
        [{}, {}], 0, log=True)
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "end the" in a.label))
    assert g.decision.prompt == "last phase: act"
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "end the" in a.label))
    assert g.result is not None and "turn limit" in g.result.reason
    assert g.decision is None and not g.frames
    assert g.log[-1]["e"] == "game_over"


PICK = """
id: pick
name: a choice whose last pick ends the game
players: 2
zones:
  deck: {ordered: true, visibility: public}
  hand: {visibility: owner}
turn:
  - phase: main
    actions: [pick]
actions:
  pick:
    do: "choose 2 c from deck(you); move(c, hand(you))"
end:
  - lose: "count(hand(player)) == 2"
    reason: "two in hand"
deck:
  sections:
    main: {zone: deck}
"""


def test_a_pick_goes_on_at_once_up_to_the_end_of_the_game():
    """An answer to a choice runs on from it (Choose.resume): the next pick is asked, and
    after the last one what follows the choice runs, here up to the end of the game."""
    cards = "ruleset: pick\ncards:\n  - {name: a}\n  - {name: b}\n  - {name: c}\n"
    game = build_game(load_text(PICK, "pick.yaml"), [load_text(cards, "cards.yaml")])
    g = game.new_state([{"main": ["a", "b", "c"]}] * 2, 0, log=True)
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "pick" in a.label))
    assert g.decision.kind == "choose" and len(g.decision.options) == 3
    g.apply(0)
    assert g.decision.kind == "choose" and len(g.decision.options) == 2
    g.apply(0)
    assert g.result is not None and g.result.winner == 1 and "two in hand" in g.result.reason
    assert g.decision is None and not g.frames


def test_counts_that_end_with_a_phase_end_in_the_state_not_in_its_clones():
    """Action counts end in place at the phase's end (turn.expire): a clone made before
    keeps its own."""
    text = PHASES.replace('do: "let x = 1"', 'limit: {count: 2, per: phase}\n    do: "let x = 1"')
    g = build_game(load_text(text, "phases.yaml"), []).new_state([{}, {}], 0, log=True)
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "knock" in a.label))
    before = g.clone()
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "end the" in a.label))
    assert g.decision.prompt == "last phase: act" and g.counts == {}
    assert list(before.counts.values()) == [1]


def test_a_pending_choice_is_kept_by_its_frame_and_copied_with_it():
    """The state of a choice between picks is the frame's (Frame.choice), not a key of its
    env; a clone made between two picks goes on with its own copy."""
    cards = "ruleset: pick\ncards:\n  - {name: a}\n  - {name: b}\n  - {name: c}\n"
    game = build_game(load_text(PICK, "pick.yaml"), [load_text(cards, "cards.yaml")])
    g = game.new_state([{"main": ["a", "b", "c"]}] * 2, 0, log=True)
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "pick" in a.label))
    g.apply(0)
    f = g.frames[-1]
    assert f.choice is not None and len(f.choice[2]) == 1
    assert not any(k.startswith("#") for k in f.env)
    copy = g.clone()
    copy.apply(0)
    assert copy.result is not None and g.result is None
    assert len(g.frames[-1].choice[2]) == 1 and len(g.decision.options) == 2


def test_a_lone_triggered_ability_is_delivered_without_ordering(monkeypatch):
    """One triggered ability waiting: the order frame delivers it at its first run, without
    grouping by player (OrderTriggers.run); it resolves as before."""
    runs = []
    original = OrderTriggers.run
    monkeypatch.setattr(OrderTriggers, "run", lambda self, g, f: (runs.append(1),
                                                                    original(self, g, f)))
    rulesets = Path(__file__).parent / "rulesets"
    game = load_game(str(rulesets / "rest.yaml"), (str(rulesets / "rest_cards.yaml"),))
    g = game.new_state([{"main": ["alarm"], "pile": ["plain", "plain"]}] * 2, 0, log=True)
    hand = g.zones[g.zone_key("hand", 0)]
    g.apply(next(i for i, a in enumerate(g.legal_actions()) if "rest" in a.label))
    assert runs == [1] and len(hand) == 1  # the alarm heard its resting: it drew a card
