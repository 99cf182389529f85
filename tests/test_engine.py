"""Whole matches: determinism, replay, invariants over many seeded random games."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from pathlib import Path

import pytest

import interpreter
from interpreter.engine import vm
from interpreter.engine.observe import observation
from interpreter.engine.state import Decision, ZoneRef
from interpreter.load import files
from interpreter.run.match import MatchSetup, play, replay

N_MATCHES = 60  # per bundled ruleset; the soak test below runs 1,000 each


def check_invariants(g, total: int) -> None:
    seen = Counter()
    for ref, cards in g.zones.items():
        cap = g.game.ruleset.zones[ref.name].capacity
        assert cap is None or len(cards) <= cap, f"{ref} over capacity"
        for cid in cards:
            assert g.zone_of[cid] == ref, f"card {cid} listed in {ref} but is in {g.zone_of[cid]}"
            seen[cid] += 1
    assert all(n == 1 for n in seen.values()), "a card is in two zones"
    assert sum(seen.values()) == total == len(g.defs), "cards were lost or duplicated"


def check_derived_values(g) -> None:
    """Values the engine keeps for a state version or until what they read changes (static
    modifiers, memoized counts and totals, the live abilities' index, "the state rules found
    nothing", "no one won or lost") are what a fresh look at the state gives: every change must
    invalidate them."""
    fresh = g.clone()  # no memo, no modifier index
    fresh._statics, fresh.version = None, g.version + 1
    assert vm.live_statics(g) == vm.live_statics(fresh), "the live abilities' index is stale"
    numbers = [n for n, p in g.game.ruleset.properties.items() if p.type == "number"]
    # cards in play, and those with modifiers (kept or fresh: a static may reach a hand)
    cards = {*g.live_cards(), *(m[0] for m in g.mods)}
    if g.game.has_statics:  # (the cards the modifiers' index holds, kept or fresh)
        cards.update(g.index_mods()[2], fresh.index_mods()[2])
    for cid in sorted(cards):
        for prop in numbers:
            assert g.get(cid, prop) == fresh.get(cid, prop), f"card {cid}'s {prop} is stale"
    for p in g.players:
        assert g.game.score(g, p) == g.game.score(fresh, p), "a kept count or total is stale"
    if g.rules_at == g.version:
        assert not vm._fire_state_rules(fresh, g.game.ruleset.state_rules), \
            "a state rule holds that was not acted on"
    for until, mask in g.game.clear_masks.items():  # an expiry looks at these cards only
        assert {c for c, x in enumerate(g.flags) if x & mask} <= set(g.expiring.get(until, ())), \
            f"a card in a state lasting until {until} end that its expiry will not see"
    if not g.atomic:  # every change that could end the game was checked at once
        assert not any(r.cond(fresh, env) for r in g.game.ruleset.end_rules
                       for env in g.game.player_envs), "a win/loss rule holds, unchecked"
    # a rule that read nothing changed since they all found nothing is not asked again
    rules = zip(g.game.ruleset.state_rules, g.game.rule_reads, strict=True)
    for rule in [r for r, reads in rules if g.unchanged(g.rules_at, reads)]:
        for env in g.game.player_envs:
            assert not vm.as_cards(fresh, rule.each(fresh, dict(env))), \
                f"state rule {rule.id} holds, but nothing it reads changed"


def _run_many(game, decks, n: int) -> None:
    for seed in range(n):
        g = game.new_state(decks, seed, log=False)
        rng = random.Random(seed)
        while g.result is None:
            check_invariants(g, len(g.defs))
            vm.answer(g, rng.choice(g.decision.options))
        check_invariants(g, len(g.defs))
        assert g.result.reason


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_random_matches_keep_invariants(ruleset: str):
    game = interpreter.load_game(ruleset)
    _run_many(game, interpreter.default_decks(game), N_MATCHES)


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_kept_values_are_never_stale(ruleset: str, monkeypatch):
    """At every timing point (where state rules and triggers are looked at), in random matches."""
    settle = vm.settle_point

    def checked(g):
        check_derived_values(g)
        return settle(g)

    monkeypatch.setattr(vm, "settle_point", checked)
    game = interpreter.load_game(ruleset)
    _run_many(game, interpreter.default_decks(game), 8)


def _trace(game, decks, seed: int, log: bool) -> tuple:
    """A random match: every decision asked (who, what, options), the result, the log."""
    g = game.new_state(decks, seed, log=log)
    rng, asked = random.Random(seed), []
    while g.result is None:
        asked.append((g.decision.player, g.decision.kind, g.decision.options))
        vm.answer(g, rng.choice(g.decision.options))
    return asked, g.result, g.log


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_a_match_looks_only_at_its_own_cards(ruleset: str, monkeypatch):
    """A match's game is narrowed to the cards its decks hold (Game.for_cards): it knows no
    ability of another card of the pool, and plays exactly as the whole pool would."""
    game = interpreter.load_game(ruleset)
    pool = sorted(game.cards)
    held = set(pool[::2])
    narrowed = game.for_cards(held)
    ids = {game.cards[n].id: n for n in pool}
    heard = {ids.get(i, "token") for per in narrowed.triggers_on.values() for i in per}
    keyed = {ids.get(i, "token") for i in narrowed.keyed_abilities}
    assert heard | keyed <= held | {"token"}
    assert {n for n in held if game.cards[n].abilities} <= heard | keyed | {
        n for n in held if all(a.kind == "static" for a in game.cards[n].abilities)}
    decks = interpreter.default_decks(game)
    runs = [[_trace(game, decks, seed, log) for seed in (1, 2) for log in (False, True)]]
    monkeypatch.setattr(type(game), "for_cards", lambda self, names: self)  # the whole pool
    runs.append([_trace(game, decks, seed, log) for seed in (1, 2) for log in (False, True)])
    assert runs[0] == runs[1]


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_thousand_random_matches(ruleset: str):
    game = interpreter.load_game(ruleset)
    _run_many(game, interpreter.default_decks(game), 1000)


def test_same_seed_same_log(tmp_path):
    logs = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        with open(path, "w", encoding="utf-8") as out:
            play(MatchSetup("ucb", [], 1, ["random", "random"]), out)
        logs.append(path.read_bytes())
    assert logs[0] == logs[1]
    ok, message = replay(tmp_path / "a.jsonl")
    assert ok, message


def test_replay_detects_a_tampered_log(tmp_path):
    path = tmp_path / "a.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        play(MatchSetup("ucb", [], 2, ["random", "random"]), out)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    ok, message = replay(path)
    assert not ok and "stops after line" in message


def test_clone_is_independent(ucb, ucb_decks):
    g = ucb.new_state(ucb_decks, 5, log=False)
    before = observation(g, 0)
    c = g.clone()
    rng = random.Random(0)
    while c.result is None:
        vm.answer(c, rng.choice(c.decision.options))
    assert observation(g, 0) == before
    # the clone replays identically from the same point
    d = g.clone()
    rng = random.Random(0)
    while d.result is None:
        vm.answer(d, rng.choice(d.decision.options))
    assert d.result == c.result


def test_a_program_that_ends_ends_the_game(ucb, ucb_decks):
    """The run loop finds no frame left (the game's program ran out): the game ends, a draw,
    whether the last frame ends in the run loop or an answer resumes it at its end."""
    from interpreter.engine.instructions import May
    from interpreter.engine.state import Frame

    g = ucb.new_state(ucb_decks, 5, log=False)
    g.decision = None
    g.frames[:] = [Frame((), {"you": 0}, "block")]
    vm.run(g)
    assert (g.result.winner, g.result.reason) == (None, "the game program ended")
    g = ucb.new_state(ucb_decks, 5, log=False)
    g.frames[:] = [Frame((May(None, 1, "?"),), {"you": 0}, "block")]
    vm.answer(g, False)
    assert (g.result.winner, g.result.reason) == (None, "the game program ended")


def test_timing_points_look_at_waiting_triggers_only_where_some_can_wait(ucb, ucb_decks):
    """GameState.triggers and queues: a timing point tests the lists of waiting triggered
    abilities only in a game whose cards have some (ucb's sample decks, not a deck of plain
    characters), the queue only where they resolve as one (kannagi). A clone keeps both."""
    g = ucb.new_state(ucb_decks, 0, log=False)
    assert (g.triggers, g.queues) == (True, False)
    plain = [c.name for c in ucb.pool if not c.abilities and "マナトークン" not in c.name][:10]
    deck = {"main": [n for n in plain for _ in range(4)]}
    g = ucb.new_state([deck, deck], 0, log=False)
    assert (g.triggers, g.queues) == (False, False)
    rng = random.Random(0)
    while g.result is None:
        vm.answer(g, rng.choice(g.decision.options))
        assert not g.pending and not g.queue
    kannagi = interpreter.load_game("kannagi")
    g = kannagi.new_state(interpreter.default_decks(kannagi), 0, log=False).clone()
    assert (g.triggers, g.queues) == (True, True)


def test_observation_hides_opponent_hand_and_decks(ucb, ucb_decks):
    g = ucb.new_state(ucb_decks, 3, log=False)
    obs = observation(g, 0)
    assert all(c.get("hidden") for c in obs["zones"]["hand@P2"])
    assert all(c.get("hidden") for c in obs["zones"]["deck@P1"])
    assert not any(c.get("hidden") for c in obs["zones"]["hand@P1"])
    assert len(obs["zones"]["hand@P2"]) == len(g.zones[ZoneRef("hand", 1)])


def test_clones_are_independent_while_triggers_are_being_ordered():
    game = interpreter.load_game("ucb")
    for seed in range(40):
        g = game.new_state(interpreter.default_decks(game), seed, log=False)
        rng = random.Random(seed)
        while not g.is_over and g.decision.kind != "order":
            g.apply(rng.randrange(len(g.legal_actions())))
        if g.is_over:
            continue
        before = [a.label for a in g.legal_actions()]
        copy = g.clone()
        copy.apply(0)
        assert [a.label for a in g.legal_actions()] == before
        g.apply(len(before) - 1)  # the original can still be answered
        return
    pytest.skip("no match reached a trigger-ordering decision")


def test_random_in_a_filter_draws_once_per_card(ucb, ucb_decks):
    """`random` draws from the match's RNG for every card a filter looks at, even once the
    answer is known (the compiler's speed-ups must not skip, reorder or share its draws)."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    # reads `player`, so it is evaluated afresh (not cached for the state version)
    fn = compiler.compile(parse_expr("exists(hand(you) where random(6) > 0 and owner == player)"))
    hand = g.zones[ZoneRef("hand", 0)]
    expected = g.clone()
    for _ in hand:
        expected.rng.randint(1, 6)
    assert len(hand) > 1
    assert fn(g, {**vm.effect_env(g, None, 0), "player": 0}) is True
    assert g.rng.getstate() == expected.rng.getstate()


def test_a_filter_its_count_and_its_existence_compiled_as_loops(ucb, ucb_decks):
    """A filter, or its count, or whether it has a card, compiled as a function of its own (a
    loop rather than a comprehension): the cards that pass, in zone order, with conditions on
    the candidate, on a variable, and on another filter."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    hand = g.zones[ZoneRef("hand", 0)]
    tapped = 1 << ucb.ruleset.states["tapped"].index
    for c in hand[::2]:
        g.flags[c] |= tapped
    cost = {c: g.defs[c].props.get("cost", 0) for c in hand}
    n_tapped = len(hand[::2])
    cases = {"cost >= 2": lambda c: cost[c] >= 2, "tapped": lambda c: c in hand[::2],
             "cost == 99": lambda c: False, "owner == player": lambda c: True,
             "cost > count(hand(player) where tapped)": lambda c: cost[c] > n_tapped}
    env = {**vm.effect_env(g, None, 0), "player": 0}
    kept = set()
    for cond, passes in cases.items():
        expected = tuple(c for c in hand if passes(c))
        kept.add(len(expected))
        selection = f"hand(you) where {cond}"
        assert compiler.compile(parse_expr(selection))(g, env) == expected
        assert compiler.compile(parse_expr(f"count({selection})"))(g, env) == len(expected)
        assert compiler.compile(parse_expr(f"exists({selection})"))(g, env) is bool(expected)
    assert 0 in kept and len(hand) in kept and len(kept) > 2


def test_a_total_adds_what_can_be_seen_and_follows_changes(ucb, ucb_decks):
    """`total(cards, prop)`: the sum of a property (a value that cannot be seen adds nothing)
    or of a counter, over a zone (kept for the state version: changes show at once) or a
    selection."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.engine import primitives
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    zone, selection = (compiler.compile(parse_expr(text)) for text in (
        "total(hand(you), cost)", "total(hand(you) where cost >= 2, cost)"))
    env = vm.effect_env(g, None, 0)
    hand = list(g.zones[ZoneRef("hand", 0)])
    cost = {c: g.defs[c].props.get("cost", 0) for c in hand}
    assert zone(g, env) == sum(cost.values()) > 0
    assert selection(g, env) == sum(v for v in cost.values() if v >= 2)
    primitives.set_state(g, env, (hand[0],), "reversed")  # its cost cannot be seen now
    assert zone(g, env) == sum(cost.values()) - cost[hand[0]]
    primitives.move(g, env, hand[1], ZoneRef("discard", 0))
    assert zone(g, env) == sum(cost.values()) - cost[hand[0]] - cost[hand[1]]

    kannagi = interpreter.load_game("kannagi")
    g = kannagi.new_state(interpreter.default_decks(kannagi), 1, log=False)
    damage = ExprCompiler(ruleset_names(kannagi.ruleset.raw)).compile(
        parse_expr("total(field(you), 傷)"))
    env = vm.effect_env(g, None, 0)
    field = [c for c in g.zones[ZoneRef("hand", 0)]][:2]
    primitives.move(g, env, tuple(field), ZoneRef("field", 0))
    assert damage(g, env) == 0
    primitives.change(g, env, field[0], "傷", 2)
    primitives.change(g, env, tuple(field), "傷", 1)
    assert damage(g, env) == 4


def test_a_property_compared_with_a_literal(ucb, ucb_decks):
    """`==` and `!=` against a literal (compiled to set lookups): a one-card selection reads
    as its card, and a value that cannot be seen (a reversed card's cost) is neither equal
    nor unequal to anything."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    eq, ne = (compiler.compile(parse_expr(f"c.cost {op} 2")) for op in ("==", "!="))
    costs = {g.defs[c].props.get("cost", 0) for c in range(len(g.defs))}
    assert {2, 3} <= costs
    for cid in range(len(g.defs)):
        cost = g.defs[cid].props.get("cost", 0)
        for c in (cid, (cid,)):
            env = {**vm.effect_env(g, None, 0), "c": c}
            assert (eq(g, env), ne(g, env)) == (cost == 2, cost != 2)
    g.flags[0] |= 1 << ucb.ruleset.states["reversed"].index
    env = {**vm.effect_env(g, None, 0), "c": 0}
    assert (eq(g, env), ne(g, env)) == (False, False)


def test_a_property_ordered_against_a_whole_number(ucb, ucb_decks):
    """`<`, `<=`, `>`, `>=` against a count, or another card's value (compiled inline for
    ints): a one-card selection reads as its card, a value that cannot be seen compares false
    either way round, and a filter inside another filter's cards compiles too."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    n = len(g.zones[ZoneRef("hand", 0)])
    ops = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}
    fns = {op: (compiler.compile(parse_expr(f"c.cost {op} count(hand(you)) - 4")),
                compiler.compile(parse_expr(f"count(hand(you)) - 4 {op} c.cost"))) for op in ops}
    cards = {op: compiler.compile(parse_expr(f"c {op} count(hand(you)) + 10")) for op in ops}
    costs = [g.defs[c].props.get("cost", 0) for c in range(len(g.defs))]
    assert len({(cost > n - 4) - (cost < n - 4) for cost in costs}) == 3  # below, equal, above
    for cid, cost in enumerate(costs):
        for c in (cid, (cid,)):
            env = {**vm.effect_env(g, None, 0), "c": c}
            for op, (left, right) in fns.items():
                assert (left(g, env), right(g, env)) == (ops[op](cost, n - 4),
                                                         ops[op](n - 4, cost))
                assert cards[op](g, env) == ops[op](cid, n + 10)  # the card's number
    nested = compiler.compile(parse_expr(
        "count((hand(player) where cost <= count(mana(player)) + 2) where 1 <= cost)"))
    top = len(g.zones[ZoneRef("mana", 0)]) + 2
    assert nested(g, {**vm.effect_env(g, None, 0), "player": 0}) == sum(
        1 for c in g.zones[ZoneRef("hand", 0)] if 1 <= costs[c] <= top)
    two = {op: compiler.compile(parse_expr(f"c.cost {op} d.cost")) for op in ops}  # no count
    for c in (0, (0,), None):
        for d in (1, (1,)):
            env = {**vm.effect_env(g, None, 0), "c": c, "d": d}
            for op, f in two.items():
                assert f(g, env) == (c is not None and ops[op](costs[0], costs[1]))
    g.flags[0] |= 1 << ucb.ruleset.states["reversed"].index
    env = {**vm.effect_env(g, None, 0), "c": 0, "d": 1}
    assert all(f(g, env) is False for pair in fns.values() for f in pair)
    assert all(f(g, env) is False for f in two.values())  # a hidden cost is never ordered


def test_counting_a_filter(ucb, ucb_decks):
    """`count(... where ...)` (one comprehension, no selection built): the cards for which the
    condition holds, `and`/`or`/`not` by truth, a named candidate, and `random` drawn once
    per card looked at."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    deck = g.zones[ZoneRef("deck", 0)]
    cost = [g.defs[c].props.get("cost", 0) for c in range(len(g.defs))]
    env = {**vm.effect_env(g, None, 0), "player": 0}
    count = compiler.compile(parse_expr(
        "count(deck(player) where not (cost == 1 or cost >= 3) and kind != token)"))
    assert count(g, env) == sum(1 for c in deck if cost[c] != 1 and cost[c] < 3)
    named = compiler.compile(parse_expr(
        "count(deck(player) as d where count(deck(player) where cost > d.cost) == 0)"))
    assert named(g, env) == sum(1 for c in deck if cost[c] == max(cost[d] for d in deck))
    drawn = compiler.compile(parse_expr("count(deck(player) where random(6) > 0)"))
    expected = g.clone()
    for _ in deck:
        expected.rng.randint(1, 6)
    assert drawn(g, env) == len(deck)
    assert g.rng.getstate() == expected.rng.getstate()


def test_a_filter_on_states_alone(ucb, ucb_decks):
    """A filter that only asks which states a card is in (compiled to one test of its flags)
    keeps exactly the cards in every state asked for and in none of those negated."""
    from interpreter.compile.exprs import ExprCompiler
    from interpreter.compile.names import ruleset_names
    from interpreter.lang.parser import parse_expr

    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    bits = {s: 1 << d.index for s, d in ucb.ruleset.states.items()}
    deck = g.zones[ZoneRef("deck", 0)]
    for i, cid in enumerate(deck):
        g.flags[cid] = i % 8  # every combination of three states
    env = {**vm.effect_env(g, None, 0), "player": 0}
    for cond, holds in [
            ("not tapped and not reversed", lambda f: not f & (bits["tapped"] | bits["reversed"])),
            ("not reversed", lambda f: not f & bits["reversed"]),
            ("tapped and not reversed", lambda f: f & bits["tapped"] and not f & bits["reversed"]),
            ("tapped and played_this_turn",
             lambda f: f & bits["tapped"] and f & bits["played_this_turn"]),
            ("tapped and not tapped", lambda f: False)]:
        fn = compiler.compile(parse_expr(f"deck(player) where {cond}"))
        assert fn(g, env) == tuple(c for c in deck if holds(g.flags[c])), cond


def test_a_zone_is_one_object_however_it_is_made(ucb, ucb_decks) -> None:
    """Zones are looked up by identity: every way of naming one (the class, a zone_key, a
    process pool's pickling) gives the same object, and it cannot be changed."""
    g = ucb.new_state(ucb_decks, 0, log=False)
    hand = ZoneRef("hand", 0)
    assert hand is ZoneRef("hand", 0) is g.zone_key("hand", 0)
    assert pickle.loads(pickle.dumps(hand)) is hand
    assert hand != ZoneRef("hand", 1) and hand != ZoneRef("deck", 0)
    assert len(g.zones[hand]) == 5
    with pytest.raises(AttributeError):
        hand.owner = 1


def test_a_property_no_ruleset_declares_reads_as_none(ucb, ucb_decks) -> None:
    g = ucb.new_state(ucb_decks, 0, log=False)
    card = g.zones[ZoneRef("hand", 0)][0]
    assert g.get(card, "power") is not None
    assert g.get(card, "no_such_property") is None


DEFAULTS = """
id: defaults
name: printed properties and their defaults
players: 2
zones:
  hand: {visibility: owner}
  field: {visibility: public}
properties:
  cost: {type: number, default: 3}
  kind: {type: enum, values: [unit, spell], default: unit}
actions:
  play:
    card: "hand(player) where kind == unit and cost == 3"
    do: "move(card, field(you))"
turn:
  - phase: main
    actions: [play]
"""

CARDS = """
ruleset: defaults
cards:
  - {name: plain}
  - {name: dear, cost: 5}
  - {name: spell, kind: spell}
"""


def test_a_property_a_card_does_not_print_reads_as_its_default(tmp_path) -> None:
    """`plain` prints neither cost nor kind: it reads as cost 3 and a unit, in an action's
    selection (which reads printed properties inline) and through the API."""
    from interpreter.run.loading import load_game
    from interpreter.run.scenario import build_state

    (tmp_path / "defaults.yaml").write_text(DEFAULTS, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(CARDS, encoding="utf-8")
    game = load_game(str(tmp_path / "defaults.yaml"), (str(tmp_path / "cards.yaml"),))
    g = build_state(game, {"turn_player": "P1", "phase": "main",
                           "zones": {"hand@P1": ["plain", "dear", "spell"]}}, 0)
    plain, dear, spell = g.zones[ZoneRef("hand", 0)]
    assert [(g.get(c, "cost"), g.get(c, "kind")) for c in (plain, dear, spell)] == \
        [(3, "unit"), (5, "unit"), (3, "spell")]
    assert [o for o in g.decision.options if o[0] == "play"] == [("play", plain, None)]


def test_each_match_hears_what_its_own_cards_hear() -> None:
    """Matches of one game with different cards: a state change or a move no card of one
    match hears is still heard in the next, which holds a card listening for it."""
    from interpreter.run.loading import load_game

    rulesets = Path(__file__).parent / "rulesets"
    game = load_game(str(rulesets / "rest.yaml"), (str(rulesets / "rest_cards.yaml"),))
    drawn = []
    for card, action in (("plain", "rest"), ("alarm", "rest"), ("plain", "leave"),
                         ("scout", "leave"), ("plain", "rest")):
        g = game.new_state([{"main": [card], "pile": ["plain"]},
                            {"main": ["plain"], "pile": ["plain"]}], 0, log=False)
        vm.answer(g, (action, g.zones[ZoneRef("field", 0)][0], None))
        drawn.append(len(g.zones[ZoneRef("deck", 0)]))
    assert drawn == [1, 0, 1, 0, 1]


REACH = """
id: reach
name: a computed property that names you
players: 2
zones:
  deck: {ordered: true, visibility: hidden}
  field: {visibility: public}
properties:
  power: {type: number, default: 1}
  reach: {type: number, formula: "power + count(field(you))"}
deck:
  sections:
    main: {zone: field}
turn:
  - phase: main
"""


def test_a_computed_property_reads_you_as_no_one(tmp_path) -> None:
    """A formula is about its card alone: `you` names no one there (no zone, no cards), as
    in a deck rule; every other piece of code has a `you`."""
    from interpreter.run.loading import load_game

    (tmp_path / "reach.yaml").write_text(REACH, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text("ruleset: reach\ncards:\n  - {name: a, power: 2}\n",
                                         encoding="utf-8")
    game = load_game(str(tmp_path / "reach.yaml"), (str(tmp_path / "cards.yaml"),))
    g = game.new_state([{"main": ["a", "a"]}, {"main": ["a"]}], 0, log=False)
    assert [g.get(c, "reach") for c in g.zones[ZoneRef("field", 0)]] == [2, 2]


def test_a_decision_is_a_tuple_made_in_c_that_reads_as_a_named_tuple():
    """Decision has no Python __new__ (one is made at every decision); its fields, equality,
    repr and pickling are a named tuple's."""
    assert "__new__" not in vars(Decision)
    d = Decision((1, "choose", (4, 5), "pick"))
    assert (d.player, d.kind, d.options, d.prompt) == (1, "choose", (4, 5), "pick")
    assert d == (1, "choose", (4, 5), "pick") and d._fields[2] == "options"
    assert repr(d) == "Decision(player=1, kind='choose', options=(4, 5), prompt='pick')"
    back = pickle.loads(pickle.dumps(d))
    assert type(back) is Decision and back == d


def test_an_illegal_action_is_a_tcg_error_with_the_options_named(ucb, ucb_decks):
    """apply() refuses an answer that is not legal now: a TcgError (the CLI and the front ends
    report those as input errors), still a ValueError for callers that catch that."""
    from interpreter.diagnostics import TcgError
    from interpreter.engine.state import IllegalAction

    g = ucb.new_state(ucb_decks, 0)
    n = len(g.legal_actions())
    with pytest.raises(TcgError, match=f"has {n} options") as raised:
        g.apply(n)
    assert isinstance(raised.value, IllegalAction) and isinstance(raised.value, ValueError)
    g.apply(0)  # the state is untouched: a legal answer still works


def test_the_engine_modules_import_one_another_one_way():
    """No import cycle among the engine's modules (state.py imports only the model, chance and
    modifiers, which import no engine module: the API
    reaches the VM through the state's Game), so each can be read and loaded bottom-up."""
    import ast
    import graphlib

    engine = Path(interpreter.__file__).parent / "engine"
    mods = {p.stem: p for p in engine.glob("*.py") if p.stem != "__init__"}
    deps = {}
    for name, path in mods.items():
        found = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If)
                       and getattr(block.test, "id", None) == "TYPE_CHECKING"
                       for n in ast.walk(block)}  # (imports for type hints only do not load)
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "interpreter.engine":
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "interpreter.engine."):
                found.add(node.module.split(".")[2])
        deps[name] = found & mods.keys()
    order = list(graphlib.TopologicalSorter(deps).static_order())  # (raises on a cycle)
    assert deps["state"] <= {"model", "chance", "modifiers"} \
        and order.index("state") < order.index("vm")
    assert deps["chance"] == deps["modifiers"] == set()
