"""`timing: priority` (engine/priority.py) through the public API and the CLI: random matches of
the toy Magic-like ruleset end cleanly, every seat sees the stack, bad speeds are reported. The
rules themselves are tested by the scenarios under tests/scenarios/priority/."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter.engine import vm
from interpreter.engine.observe import observation
from interpreter.engine.priority import Priority
from interpreter.engine.timing_models import WINDOWS
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks
from tests.conftest import tcg_in_process

ROOT = Path(__file__).parent.parent
RULESET = str(ROOT / "tests" / "rulesets" / "priority.yaml")


def _new_match(seed: int):
    game = load_game(RULESET)
    decks = [d.sections for d in resolve_decks(game, RULESET, [])]
    return game.new_state(decks, seed, log=False)


def test_random_matches_end_without_error_over_many_seeds():
    """Random players (who cast, counter, target and attack at random) always reach a result
    by the rules, not by a loop limit."""
    for seed in range(60):
        g = _new_match(seed)
        rng = random.Random(seed)
        while g.result is None:
            vm.answer(g, rng.choice(g.decision.options))
        assert "loop limit" not in g.result.reason, (seed, g.result)
        assert "program ended" not in g.result.reason, (seed, g.result)


def test_tcg_play_of_the_toy_ruleset_ends_with_a_result():
    for seed in ("1", "7"):
        run = tcg_in_process("play", RULESET, "--seed", seed, "--agents", "random,greedy")
        assert run.returncode == 0, run.stderr
        assert run.stdout.rstrip().splitlines()[-1].startswith("result: "), run.stdout[-500:]
        assert "stacked: " in run.stdout and "resolving: " in run.stdout  # narrated, in words


def test_every_seat_sees_the_same_stack_top_first():
    g = _new_match(3)
    rng = random.Random(1)
    while len(g.stack) < 1 and g.result is None:
        vm.answer(g, rng.choice(g.decision.options))
    assert g.stack
    views = [observation(g, p)["stack"] for p in (0, 1)]
    assert views[0] == views[1] and len(views[0]) == len(g.stack)
    top = g.stack[-1]
    assert views[0][0]["card"]["id"] == top[1]
    assert views[0][0]["controller"] == f"P{top[2] + 1}"


def test_the_table_page_lists_the_stack():
    from interpreter.table.views import page

    g = _new_match(3)
    rng = random.Random(1)
    while not g.stack:
        vm.answer(g, rng.choice(g.decision.options))
    obs = observation(g, 1, options=False)
    view = page(g.game, obs, [], [], None, "play")
    assert [e["card"] for e in view["stack"]] == \
        [f"{g.defs[o[1]].name}#{o[1]}" for o in reversed(g.stack)]


def test_windows_stay_the_default_timing():
    game = load_game(str(ROOT / "tests" / "rulesets" / "mini.yaml"))
    assert game.ruleset.timing is WINDOWS and not game.ruleset.timing.has_stack
    assert not any(isinstance(i, Priority) for i in game.program)
    assert "stack" not in observation(game.new_state([{}, {}], 0), 0)


def test_an_unknown_speed_is_reported_at_its_place(tmp_path: Path):
    text = Path(RULESET).read_text(encoding="utf-8").replace("speed: instant", "speed: instnat", 1)
    bad = tmp_path / "rulesets" / "priority.yaml"
    bad.parent.mkdir()
    bad.write_text(text, encoding="utf-8")
    run = tcg_in_process("check", str(bad))
    assert run.returncode == 1
    line = next(x for x in run.stdout.splitlines() if "UNKNOWN-NAME" in x)
    assert "unknown speed 'instnat'" in line and "did you mean 'instant'?" in run.stdout
    row = next(i for i, x in enumerate(text.splitlines(), 1) if "speed: instnat" in x)
    assert f"priority.yaml:{row}:" in line


def _check(tmp_path: Path, ruleset: str, cards: str) -> str:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "cards" / "priority").mkdir(parents=True)
    (tmp_path / "rulesets" / "priority.yaml").write_text(ruleset, encoding="utf-8")
    (tmp_path / "cards" / "priority" / "bad.yaml").write_text(cards, encoding="utf-8")
    run = tcg_in_process("check", str(tmp_path / "rulesets" / "priority.yaml"),
                         str(tmp_path / "cards" / "priority" / "bad.yaml"))
    assert run.returncode == 1 and "Traceback" not in run.stderr, run
    return run.stdout


def test_bad_targeting_is_reported_where_it_is_written(tmp_path: Path):
    cards = """ruleset: priority
cards:
  - name: Zap
    kind: instant
    targeting:
      - {name: t, cards: "battlefeld(you)"}
      - {name: u}
    effect: "hurt(t, 1); hurt(v, 1)"
"""
    out = _check(tmp_path, Path(RULESET).read_text(encoding="utf-8"), cards)
    assert "bad.yaml:6:27: error[UNKNOWN-FUNCTION]" in out and "'battlefield'?" in out, out
    assert "bad.yaml:7:" in out and "error[TARGET]: target 'u' can be nothing" in out, out
    assert "bad.yaml:8:31: error[UNKNOWN-NAME]: unknown name 'v'" in out, out


def test_bad_ability_targeting_is_reported_where_it_is_written(tmp_path: Path):
    """An ability's `targeting` is checked as a spell's: its filters, the names its text uses,
    and only abilities that go on the stack may declare targets."""
    cards = """ruleset: priority
cards:
  - name: Zap
    kind: creature
    abilities:
      - text: "activate: hurt(t, 1); hurt(v, 1)"
        targeting: [{name: t, cards: "battlefeld(you)"}]
      - text: "static: self.power += 1"
        targeting: [{name: t, cards: "battlefield(you)"}]
      - text: "activate: counter(s)"
        targeting: [{name: s, abilities: "card.kind == creatur", cards: "stack"}]
"""
    out = _check(tmp_path, Path(RULESET).read_text(encoding="utf-8"), cards)
    assert "bad.yaml:7:39: error[UNKNOWN-FUNCTION]" in out and "'battlefield'?" in out, out
    assert "bad.yaml:6:43: error[UNKNOWN-NAME]: unknown name 'v'" in out, out
    assert "bad.yaml:9:20: error[TARGET]: a static ability does not go on the stack" in out, out
    assert "bad.yaml:11:" in out and "an ability on the stack: it cannot be a card" in out, out


def test_a_stack_action_without_priority_is_reported(tmp_path: Path):
    text = Path(RULESET).read_text(encoding="utf-8").replace("timing: priority\n", "")
    out = _check(tmp_path, text, "ruleset: priority\ncards: []\n")
    assert "error[STACK]: `stack: true` needs the ruleset's `timing: priority`" in out, out


def test_targeting_without_priority_is_reported(tmp_path: Path):
    """Targets are chosen as an object goes on the stack: a card declaring them in a ruleset
    without priority would never be asked (its target bound to nothing, the spell silently
    doing nothing), so `tcg check` says so at the key."""
    text = Path(RULESET).read_text(encoding="utf-8").replace("timing: priority\n", "")
    cards = """ruleset: priority
cards:
  - name: Zap
    kind: instant
    targeting: [{name: t, cards: "battlefield(opponent)"}]
    effect: "hurt(t, 1)"
"""
    out = _check(tmp_path, text, cards)
    assert "bad.yaml:5:5: error[TARGET]: targets are chosen as an object goes on the stack" \
        in out, out


def test_the_documented_example_game_checks_and_plays(tmp_path: Path):
    """LANGUAGE.md's complete example of `timing: priority` (a ruleset and its cards) checks
    clean, and random matches of it end by its rules."""
    import yaml

    doc = (ROOT / "docs" / "LANGUAGE.md").read_text(encoding="utf-8")
    section = doc[doc.index("#### Priority and the stack"):]
    blocks = section.split("```yaml\n")[1:3]
    ruleset_text, cards_text = (b.split("```")[0] for b in blocks)
    ruleset = tmp_path / "rulesets" / "stack_demo.yaml"
    cards = tmp_path / "cards" / "stack_demo" / "cards.yaml"
    cards.parent.mkdir(parents=True)
    ruleset.parent.mkdir()
    ruleset.write_text(ruleset_text, encoding="utf-8")
    cards.write_text(cards_text, encoding="utf-8")
    assert yaml.safe_load(ruleset_text)["timing"] == "priority"
    run = tcg_in_process("check", str(ruleset), str(cards))
    assert run.returncode == 0, run.stdout
    game = load_game(str(ruleset))
    deck = {"main": ["Island"] * 8 + ["Shock"] * 8 + ["Cancel"] * 4}
    results = set()
    for seed in range(10):
        g = game.new_state([deck, deck], seed, log=False)
        rng = random.Random(seed)
        while g.result is None:
            vm.answer(g, rng.choice(g.decision.options))
        results.add(g.result.reason.split(": ", 1)[1])
    assert results <= {"life reached 0", "no cards left to draw"}, results


def test_a_stack_action_without_a_card_is_reported(tmp_path: Path):
    text = Path(RULESET).read_text(encoding="utf-8").replace(
        '    card: "hand(player) where kind == instant"\n', "", 1)
    out = _check(tmp_path, text, "ruleset: priority\ncards: []\n")
    assert "error[STACK]: an object on the stack is a card's spell or ability" in out, out


def test_an_ability_of_a_hidden_card_on_the_stack_stays_hidden():
    """The stack is public, its objects' cards are not: a triggered ability whose card is in
    its owner's hand shows its owner the card and the text, the opponent neither."""
    from interpreter.run.scenario import build_state

    g = build_state(load_game(RULESET), {"phase": "main", "zones": {
        "hand@P1": ["Martyr"], "deck@P1": ["Forest"], "deck@P2": ["Forest"]}}, 0)
    hand = g.zones[next(r for r in g.zones if r.name == "hand" and r.owner == 0)][0]
    g.stack.append(("trigger", hand, 0, (hand, 0, 0, ())))
    g.stack.append(("trigger", hand, 1, (hand, 0, 1, ())))  # (as if P2 controlled it)
    for obj in (0, 1):  # (the views list the top first)
        mine, theirs = observation(g, 0)["stack"][obj], observation(g, 1)["stack"][obj]
        assert mine["card"]["name"] == g.defs[hand].name and mine["text"]
        assert theirs["card"] == {"hidden": True} and set(theirs) == {"object", "controller", "card"}
        assert theirs["controller"] == mine["controller"] == f"P{2 - obj}"
    # as an option (a Stifle's target, an ordering): its text only to who sees the card
    from interpreter.engine.observe import label
    option = (hand, 0, 0, g.stack[0])
    assert "gains 2 life" in label(g, option, 0) or "gain(" in label(g, option, 0)
    assert label(g, option, 1).startswith("a hidden card") and "gain" not in label(g, option, 1)


def test_abilities_with_targets_and_their_counters_play_alike_on_both_paths():
    """Random matches of a deck of targeting abilities and Stifles (tests/cards/priority/decks/
    red.yaml) against the others end by the rules and log alike on both paths; between them
    they activate abilities with targets, stack triggers with targets and counter abilities."""
    import io

    from interpreter.run.match import MatchSetup, play

    decks = ROOT / "tests" / "cards" / "priority" / "decks"
    seen: set[str] = set()
    for seed in range(12):
        other = decks / ("blue.yaml" if seed % 2 else "green.yaml")
        setup = MatchSetup(RULESET, [str(decks / "red.yaml"), str(other)], seed, ["random", "random"])
        logs = []
        for reference in (False, True):
            out = io.StringIO()
            g = play(setup, out, reference=reference)
            assert "loop limit" not in g.result.reason and "program ended" not in g.result.reason
            logs.append(out.getvalue())
        assert logs[0] == logs[1], seed
        seen |= {e for e in ('"e": "no_target"', '"object": "ability"', '"e": "fizzled"',
                             '"e": "countered", "object"') if e in logs[0]}
    assert len(seen) == 4, seen


def test_every_seat_sees_what_an_ability_on_the_stack_targets():
    """An activated or triggered ability's targets are public, as a spell's: both seats'
    observations list them with the object."""
    game = load_game(RULESET)
    decks_dir = ROOT / "tests" / "cards" / "priority" / "decks"
    decks = [d.sections for d in resolve_decks(game, RULESET, [str(decks_dir / "red.yaml"),
                                                                str(decks_dir / "green.yaml")])]
    kinds = set()
    for seed in range(20):
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(seed)
        while g.result is None and g.decision is not None:
            top = g.stack[-1] if g.stack else None
            if top is not None and top[0] != "spell" and g.defs[top[1]].abilities[top[3][1]].targets \
                    and not (top[0] == "trigger" and g.decision.kind == "target"):
                views = [observation(g, p)["stack"][0] for p in (0, 1)]
                assert views[0]["targets"] == views[1]["targets"] and views[0]["targets"], views
                kinds.add(top[0])
            vm.answer(g, rng.choice(g.decision.options))
    assert kinds == {"ability", "trigger"}, kinds


def test_x_costs_delayed_triggers_control_and_casting_play_alike_on_both_paths():
    """Random matches of a deck of {X} costs, delayed triggers, control changes and spells
    cast by effects (tests/cards/priority/decks/beyond.yaml) end by the rules and log alike on
    both paths; between them they steal, give back, cast from the graveyard and trigger later."""
    import io

    from interpreter.run.match import MatchSetup, play

    decks = ROOT / "tests" / "cards" / "priority" / "decks"
    seen: set[str] = set()
    for seed in range(12):
        other = decks / ("red.yaml" if seed % 2 else "green.yaml")
        setup = MatchSetup(RULESET, [str(decks / "beyond.yaml"), str(other)], seed,
                           ["random", "random"])
        logs = []
        for reference in (False, True):
            out = io.StringIO()
            g = play(setup, out, reference=reference)
            assert "loop limit" not in g.result.reason and "program ended" not in g.result.reason
            logs.append(out.getvalue())
        assert logs[0] == logs[1], seed
        seen |= {e for e in ('"e": "control"', '"object": "trigger", "card": "Unearth',
                             '"object": "trigger", "card": "Study', '"card": "Recall')
                 if e in logs[0]}
    assert len(seen) == 4, seen


def test_search_agents_clone_delayed_triggers_and_control_changes():
    """A clone keeps the delayed triggers set up and the control changes to undo, and
    changing the copy leaves the original alone (greedy and MCTS search on copies)."""
    from interpreter.run.scenario import build_state

    g = build_state(load_game(RULESET), {"phase": "main", "zones": {
        "deck@P1": ["Forest"], "deck@P2": ["Forest"], "hand@P1": ["Threaten", "Study"],
        "battlefield@P1": ["Forest", "Forest"], "battlefield@P2": ["Bear"]}}, 0)
    for text in ("cast Study", "cast Threaten"):
        vm.answer(g, next(o for o in g.decision.options if text in observation(g, 0)["options"]
                          [g.decision.options.index(o)]))
    assert len(g.delayed) == 1 and len(g.controls) == 1
    copy = g.clone()
    copy.delayed.clear()
    copy.controls.clear()
    assert len(g.delayed) == 1 and len(g.controls) == 1


def test_a_delayed_trigger_in_a_ruleset_text_is_reported(tmp_path: Path):
    text = Path(RULESET).read_text(encoding="utf-8").replace(
        'do: "change(card, damage, n)"', 'do: "change(card, damage, n); at next turn_end { draw(you) }"', 1)
    out = _check(tmp_path, text, "ruleset: priority\ncards: []\n")
    assert "error[DELAYED]: a delayed trigger (`at next ...`) is set up by a card's text" in out, out


def test_state_checks_at_priority_need_priority(tmp_path: Path):
    text = Path(RULESET).read_text(encoding="utf-8").replace("timing: priority\n", "", 1)
    text = text.replace("    stack: true\n", "").replace("    fizzled:", "    # fizzled:")
    out = _check(tmp_path, text, "ruleset: priority\ncards: []\n")
    assert "error[STATE-CHECKS]: `state_checks: priority` needs `timing: priority`" in out, out


def test_every_seat_sees_each_card_of_an_up_to_target():
    """A spell's `up_to` target shows each card it chose, as `ts[1]`, `ts[2]`, to both seats."""
    from interpreter.run.scenario import build_state

    g = build_state(load_game(RULESET), {"phase": "main", "zones": {
        "deck@P1": ["Forest"], "deck@P2": ["Forest"], "hand@P1": ["Volley", "Shock"],
        "battlefield@P1": ["Forest", "Forest"], "battlefield@P2": ["Bear", "Ox"]}}, 0)
    for text in ("cast Volley", "Bear", "Ox"):
        labels = observation(g, 0)["options"]
        vm.answer(g, g.decision.options[next(i for i, x in enumerate(labels) if text in x)])
    for seat in (0, 1):
        targets = observation(g, seat)["stack"][0]["targets"]
        assert [k for k in targets] == ["ts[1]", "ts[2]"], targets
        assert targets["ts[1]"].startswith("Bear") and targets["ts[2]"].startswith("Ox")
