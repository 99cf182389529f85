"""Differential tests: the fast path (code generated per game) and the reference path (the VM
and engine/kernel.py, `load_game(..., reference=True)`) give byte-identical logs.

A divergence is a red test here: for every bundled ruleset (seeded random matches, logged and
unlogged, and greedy ones, which clone and search), every scenario under tests/scenarios, and
cards whose abilities hypothesis writes. The `soak` versions run many more."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from interpreter.diagnostics import DiagnosticError
from interpreter.engine import vm
from interpreter.load import files
from interpreter.load.yamlpos import load_yaml
from interpreter.run import scenario
from interpreter.run.loading import chosen_options, load_game
from interpreter.run.match import MatchSetup, play, resolve_decks
from tests.conftest import tcg_in_process

SCENARIOS = Path(__file__).parent / "scenarios"
RULESETS = files.bundled_ids()
_LOOP_LIMIT = "loop limit: "
SEEDS = int(os.environ.get("TCG_REFERENCE_SEEDS", 4))  # per ruleset, logged and unlogged


def _logged(ruleset: str, seed: int, agents: list[str], reference: bool) -> str:
    out = io.StringIO()
    play(MatchSetup(ruleset, [], seed, agents), out, reference=reference)
    return out.getvalue()


def _unlogged(ruleset: str, seeds: range, reference: bool) -> str:
    """Every decision's player, prompt and options, and each result, of matches played with no
    log (as bench_ucb.py plays them: logging off takes other paths in the engine)."""
    game = load_game(ruleset, reference=reference)
    decks = [d.sections for d in resolve_decks(game, ruleset, [])]
    digest = hashlib.sha256()
    for seed in seeds:
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(f"policy-{seed}")
        while g.result is None:
            d = g.decision
            digest.update(repr((d.player, d.prompt, d.options)).encode())
            vm.answer(g, rng.choice(d.options))
        digest.update(repr((g.result, g.turn)).encode())
    return digest.hexdigest()


def _same_logs(fast: str, reference: str) -> None:
    """Equal, or fail naming the first line that differs (not two whole logs). The one
    allowed difference: where the loop limit stops a forced loop (it counts VM steps, and a
    generated run is one step), so two logs that both end at it agree up to the shorter."""
    if fast == reference:
        return
    a, b = fast.splitlines(), reference.splitlines()
    if a and b and _LOOP_LIMIT in a[-1] and _LOOP_LIMIT in b[-1]:
        a, b = ([x for x in log if _LOOP_LIMIT not in x] for log in (a, b))
        n = min(len(a), len(b))
        a, b = a[:n], b[:n]
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    if a == b:
        return
    pytest.fail(f"the paths diverge at line {i + 1}:\n  fast:      "
                f"{a[i] if i < len(a) else '(end)'}\n  reference: {b[i] if i < len(b) else '(end)'}")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bundled_matches_log_the_same_on_both_paths(ruleset: str) -> None:
    for seed in range(SEEDS):
        _same_logs(_logged(ruleset, seed, ["random", "random"], False),
                   _logged(ruleset, seed, ["random", "random"], True))
    _same_logs(_logged(ruleset, 0, ["greedy", "random"], False),
               _logged(ruleset, 0, ["greedy", "random"], True))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bundled_matches_without_a_log_decide_the_same_on_both_paths(ruleset: str) -> None:
    assert _unlogged(ruleset, range(SEEDS), False) == _unlogged(ruleset, range(SEEDS), True)


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", RULESETS)
def test_soak_bundled_matches_on_both_paths(ruleset: str) -> None:
    seeds = range(SEEDS, SEEDS + 60)
    for seed in seeds:
        _same_logs(_logged(ruleset, seed, ["random", "random"], False),
                   _logged(ruleset, seed, ["random", "random"], True))
    for seed in range(1, 6):
        _same_logs(_logged(ruleset, seed, ["greedy", "random"], False),
                   _logged(ruleset, seed, ["greedy", "random"], True))
    assert _unlogged(ruleset, seeds, False) == _unlogged(ruleset, seeds, True)


def test_tcg_play_and_test_take_the_reference_path(tmp_path: Path) -> None:
    """`tcg play --reference` writes the log the fast path writes; `tcg test --reference` runs
    the scenarios there."""
    fast, ref = tmp_path / "fast.jsonl", tmp_path / "ref.jsonl"
    runs = [tcg_in_process("play", "kannagi", "--seed", "5", "--quiet", "--log", str(fast)),
            tcg_in_process("play", "kannagi", "--seed", "5", "--quiet", "--log", str(ref), "--reference")]
    assert [r.returncode for r in runs] == [0, 0], runs
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout.startswith("result: ")
    assert fast.read_bytes() == ref.read_bytes()
    tested = tcg_in_process("test", "tests/scenarios/engine", "--reference")
    assert tested.returncode == 0 and tested.stdout.rstrip().endswith(" failed"), tested
    assert " 0 failed" in tested.stdout.splitlines()[-1]


# ---------- scenarios ----------
def _scenario_files() -> list[Path]:
    """The scenarios (not the card sets beside them)."""
    return [p for p in sorted(SCENARIOS.rglob("*.yaml")) if "expect" in (load_yaml(p).data or {})]


def _scenario_log(path: Path, reference: bool) -> str:
    """The scenario's log and outcome, run as `tcg test` runs it, on one path."""
    spec = load_yaml(path).data
    extra = tuple(str(path.parent / c) for c in spec.get("cards") or ())
    ruleset = spec["ruleset"]
    if (path.parent / ruleset).is_file():
        ruleset = str(path.parent / ruleset)
    chosen = chosen_options(ruleset, spec.get("options") or {})  # (its ruleset options)
    g = scenario._start(load_game(ruleset, extra, reference, chosen), spec)
    try:
        scenario._play_script(g, spec.get("decisions") or [])
    except Exception as e:  # noqa: BLE001 (a script that fails must fail alike on both paths)
        return f"{json.dumps(g.log, ensure_ascii=False)}\n{type(e).__name__}: {e}"
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in g.log or ()) + f"\n{g.result}"


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_scenarios_log_the_same_on_both_paths(path: Path) -> None:
    _same_logs(_scenario_log(path, False), _scenario_log(path, True))
    assert scenario.run_scenario(path, reference=True).passed


# ---------- cards hypothesis writes ----------
EVENTS = ["moved", "destroy", "damage", "draw", "state", "turn_start", "attack"]
ZONES = ["hand", "deck", "battle", "graveyard"]
WHO = ["you", "opponent"]
CARDS = st.one_of(
    st.builds(lambda z, w: f"{z}({w})", st.sampled_from(ZONES), st.sampled_from(WHO)),
    st.builds(lambda z, w: f"top({z}({w}))", st.sampled_from(ZONES), st.sampled_from(WHO)),
    st.builds(lambda z, w, n: f"{z}({w}) where power >= {n}", st.sampled_from(ZONES),
              st.sampled_from(WHO), st.integers(0, 6)),
    st.just("self"))
STATEMENTS = st.one_of(
    st.builds(lambda w, n: f"draw({w}, {n})", st.sampled_from(WHO), st.integers(0, 2)),
    st.builds(lambda w, n: f"damage({w}, {n})", st.sampled_from(WHO), st.integers(0, 2)),
    st.builds(lambda c, z, w: f"move({c}, {z}({w}))", CARDS, st.sampled_from(ZONES),
              st.sampled_from(WHO)),
    st.builds(lambda c: f"destroy({c})", CARDS),
    st.builds(lambda c: f"tap({c})", CARDS),
    st.builds(lambda c, n: f"({c}).power += {n} until end of turn", CARDS, st.integers(-2, 3)),
    st.builds(lambda c, d: f"swap(top({c}), top({d}))", CARDS, CARDS),
    st.builds(lambda c: f"for each x in {c} {{ tap(x) }}", CARDS),
    st.builds(lambda c: f"choose 1 t from {c}; destroy(t)", CARDS),
    st.builds(lambda c: f"if exists({c}) {{ draw(you, 1) }}", CARDS),
    st.builds(lambda c, w: f"choose zone z from zones(hand({w}), graveyard({w})); move(top({c}), z)",
              CARDS, st.sampled_from(WHO)),
    st.builds(lambda n: f"choose number x from 0 to {n}; draw(you, x)", st.integers(0, 3)),
    st.builds(lambda n: f"choose player p from players; damage(p, {n})", st.integers(0, 2)),
    st.builds(lambda c: f'choose one {{ tap({c}) }} or "draw": {{ draw(you, 1) }}', CARDS),
)
BODIES = st.lists(STATEMENTS, min_size=1, max_size=3).map("; ".join)
ABILITIES = st.one_of(
    st.builds(lambda e, b: f"when {e}: {b}", st.sampled_from(EVENTS), BODIES),
    # (`=` beside `+=` and `-=`: the fast path sums additions, the reference applies each)
    st.builds(lambda c, op, n: f"static: ({c}).power {op} {n}",
              st.sampled_from(["battle(you)", "battle(opponent)"]),
              st.sampled_from(["+=", "+=", "-=", "="]), st.integers(-1, 2)))
CARD_SETS = st.lists(ABILITIES, min_size=1, max_size=3)


def _with_cards(tmp: Path, abilities: list[str], seed: int, reference: bool) -> str:
    """A UCB match (random players, logged) where the first cards of each deck are cards
    with these abilities."""
    path = tmp / "cards.yaml"
    game = load_game("ucb", (str(path),), reference)
    decks = [d.sections for d in resolve_decks(load_game("ucb"), "ucb", [])]
    names = [f"試{i}" for i in range(len(abilities))]
    for deck in decks:
        deck["main"] = [names[i % len(names)] for i in range(6)] + deck["main"][6:]
    g = game.new_state(decks, seed, log=True)
    rng = random.Random(seed)
    while g.result is None and g.decisions < 300:
        vm.answer(g, rng.choice(g.decision.options))
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in g.log) + f"\n{g.result}"


EXAMPLES = int(os.environ.get("TCG_REFERENCE_EXAMPLES", 12))


def _cards_differential(tmp: Path, abilities: list[str], seed: int) -> None:
    cards = {"ruleset": "ucb", "cards": [
        {"name": f"試{i}", "kind": "character", "cost": 1, "power": 2, "abilities": [text]}
        for i, text in enumerate(abilities)]}
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "cards.yaml").write_text(yaml.safe_dump(cards, allow_unicode=True), encoding="utf-8")
    try:
        load_game("ucb", (str(tmp / "cards.yaml"),))
    except DiagnosticError:
        assume(False)  # (a text the checker refuses: no match to compare)
    try:
        _same_logs(_with_cards(tmp, abilities, seed, False), _with_cards(tmp, abilities, seed, True))
    finally:
        load_game.cache_clear()  # (the next example writes other cards at the same path)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(CARD_SETS, st.integers(0, 3))
def test_cards_hypothesis_writes_log_the_same_on_both_paths(tmp_path_factory, abilities, seed):
    _cards_differential(tmp_path_factory.mktemp("cards"), abilities, seed)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(CARD_SETS, st.integers(0, 3))
def test_static_modifiers_counted_per_card_apply_as_each_one(tmp_path_factory, monkeypatch,
                                                             abilities, seed):
    """A board with many static modifiers takes engine/modifiers.py's counting path (its
    threshold set to none here): the same logs as the reference path, which applies each."""
    from interpreter.engine import modifiers

    monkeypatch.setattr(modifiers, "_FEW", -1)
    _cards_differential(tmp_path_factory.mktemp("cards"), abilities, seed)


@pytest.mark.parametrize("few", [64, -1])  # (listed, and counted as on a big board)
def test_an_assignment_among_additions_applies_in_order_on_both_paths(tmp_path, monkeypatch, few):
    from interpreter.engine import modifiers

    monkeypatch.setattr(modifiers, "_FEW", few)
    for seed in range(2):
        _cards_differential(tmp_path / str(seed), ["static: (battle(you)).power += 2",
                                                   "static: (battle(you)).power = 1",
                                                   "static: (battle(opponent)).power -= 1"], seed)


@pytest.mark.soak
@settings(max_examples=int(os.environ.get("TCG_SOAK_REFERENCE_EXAMPLES", 300)), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(CARD_SETS, st.integers(0, 1000))
def test_soak_cards_hypothesis_writes(tmp_path_factory, abilities, seed):
    _cards_differential(tmp_path_factory.mktemp("cards"), abilities, seed)


# ---------- the timing rule ----------
def test_the_timing_rule_inlined_is_the_timing_rule() -> None:
    """The timing points compile the settle test into their code (timing.inline_settle): on
    every combination of what it reads, the inlined test says what the function says."""
    import itertools
    from types import SimpleNamespace

    from interpreter.engine.timing import inline_settle, needs_settling

    @inline_settle
    def inlined(state: object) -> bool:
        return bool(needs_settling(state))

    assert "needs_settling" not in inlined.__code__.co_names  # (no call left)
    for triggers, pending, queues, queue, rules, at in itertools.product(
            (False, True), ([], [1]), (False, True), ([], [1]), (False, True), (3, 4)):
        g = SimpleNamespace(triggers=triggers, pending=pending, queues=queues, queue=queue,
                            state_rules=rules, rules_at=at, version=4)
        assert inlined(g) == bool(needs_settling(g)), g


# ---------- the toy games under tests/rulesets (not bundled), their decks in tests/cards/NAME ----------
TOYS = {
    "board": "positions, adjacency, create and move to a position, transform, detach, silence",
    "ordered": "triggers by timestamp, abilities that do not resolve once their card left play",
    "pools": "a market dealt from a game-owned pool, cards created and copied with abilities",
    "choose": "choices of zones, numbers, players and modes",
    "priority": "the priority loop, the stack, targets and counters (a Magic-like core)",
    "duel": "a Yu-Gi-Oh-like chain, written from the docs alone by a new user",
    "hearth": "a Hearthstone-like core (positions, pools, silence, transform), likewise",
    "entering": "a zone's enter rules on every way in, verbs that say what they did, any_time",
    "chance": "coins, a die, a random pick and shuffles through the chance steps",
    "pocket": "an active spot and a bench as one area (a card keeps its identity), stacks",
}


@pytest.mark.parametrize("name", TOYS)
def test_toy_matches_log_the_same_on_both_paths(name: str) -> None:
    """Each toy game's seeded matches end by the rules and log alike on both paths: random
    players logged and unlogged, and a greedy one (which clones and searches)."""
    path = str(Path(__file__).parent / "rulesets" / f"{name}.yaml")
    for seed in range(SEEDS):
        logged = _logged(path, seed, ["random", "random"], False)
        assert '"e": "game_over"' in logged, logged[-500:]
        _same_logs(logged, _logged(path, seed, ["random", "random"], True))
    _same_logs(_logged(path, 0, ["greedy", "random"], False),
               _logged(path, 0, ["greedy", "random"], True))
    assert _unlogged(path, range(SEEDS), False) == _unlogged(path, range(SEEDS), True)
