"""Search agents under `timing: priority` (issue 26): their lookahead plays on until what was
cast has resolved (agents/greedy.py settle_priority), so a spell is judged by what it does,
not by the mana it cost. The toy ruleset is tests/rulesets/priority.yaml."""

from __future__ import annotations

from pathlib import Path

from interpreter.agents import make_agent
from interpreter.agents.greedy import settle
from interpreter.agents.mcts import MCTSAgent
from interpreter.agents.protocol import decide
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks
from interpreter.run.scenario import build_state

ROOT = Path(__file__).parent.parent
RULESET = str(ROOT / "tests" / "rulesets" / "priority.yaml")
GREEN = str(ROOT / "tests" / "cards" / "priority" / "decks" / "green.yaml")


def _shock_at_the_main_step(hand: tuple = ("Shock",), forests: int = 2):
    """P1 holds Shock with untapped Forests; each side has a Bear (rule 601.2c: the target
    is chosen as the spell is cast; 608.2: it acts when it resolves)."""
    game = load_game(RULESET)
    return build_state(game, {"turn_player": "P1", "phase": "main", "zones": {
        "deck@P1": ["Forest"], "deck@P2": ["Forest"], "hand@P1": list(hand),
        "battlefield@P1": ["Forest"] * forests + ["Bear"], "battlefield@P2": ["Bear"]}}, 0)


def _bears(g, player: int) -> list[str]:
    return [g.defs[c].name for c in g.zones[g.zone_key("battlefield", player)]
            if g.defs[c].name == "Bear"]


def test_greedy_with_mana_casts_its_spell_at_the_opponents_creature():
    """The spell resolves in the lookahead: the agent casts Shock and aims it at P2's Bear
    (its own Bear is the first target offered; P1 keeps priority over Shock, holding Insight:
    a lookahead that stopped there, Shock on the stack, saw every target alike and took the
    first)."""
    g = _shock_at_the_main_step(("Shock", "Insight"), 3)
    player = make_agent("greedy", 1)
    labels = [a.label for a in g.legal_actions()]
    assert labels[-1] == "pass" and any("cast Shock" in x for x in labels)
    g.apply(decide(player, g, 0)[0])
    assert g.stack == [] and g.decision.kind == "target", "Shock was not cast"
    targets = [a.label for a in g.legal_actions()]
    assert len(targets) == 4  # P1's Bear, P2's Bear, P1, P2
    choice = decide(player, g, 0)[0]
    assert g.defs[g.decision.options[choice]].name == "Bear"
    assert g.controller[g.decision.options[choice]] == 1, targets[choice]
    g.apply(choice)
    settle(g, 0)  # (what the lookahead saw: both pass, Shock resolves)
    assert _bears(g, 0) == ["Bear"] and _bears(g, 1) == []


def test_greedys_lookahead_passes_until_the_stack_is_empty():
    """With Insight in hand P1 keeps priority over its Shock (rule 117.3c): the lookahead
    passes (it casts nothing more) and Shock resolves."""
    g = _shock_at_the_main_step(("Shock", "Insight"), 3)
    g.apply([a.label for a in g.legal_actions()].index("cast Shock#2"))
    g.apply(1)  # at P2's Bear
    assert len(g.stack) == 1 and g.decision.player == 0
    assert "cast Insight#3" in [a.label for a in g.legal_actions()]
    settle(g, 0)
    assert g.stack == [] and g.result is None
    assert _bears(g, 1) == [] and "Insight" in [g.defs[c].name for c in g.zones[g.zone_key("hand", 0)]]


def test_an_mcts_playout_cut_short_is_scored_once_the_stack_is_empty():
    """A playout stopped by its step cap with Shock (at P2's Bear) still on the stack lets
    both players pass until it resolved: the position is worth more than where it started."""
    g = _shock_at_the_main_step(("Shock", "Insight"), 3)
    base = g.game.score(g, 0)
    g.apply(0)  # cast Shock
    g.apply([a.label for a in g.legal_actions()].index("Bear#8"))  # P2's Bear
    assert g.stack and g.controller[g.stack[-1][1]] == 0
    agent = MCTSAgent(0, playout_steps=0)
    assert agent._play_out(g, 0, base) > 0.5
    assert g.stack == [] and _bears(g, 1) == []


def test_greedy_beats_random_on_the_priority_toy():
    """40 mirror matches (both players with the creatures deck), seats alternating. Against
    a random player an agent no better than random wins about half: at least 30 wins of 40
    has a probability of about 0.1% for a coin (the greedy agent wins ~36)."""
    game = load_game(RULESET)
    sections = [d.sections for d in resolve_decks(game, RULESET, [GREEN, GREEN])]
    wins = 0
    for seed in range(40):
        seat = seed % 2
        agents = [make_agent("random", seed * 1000 + p) for p in (0, 1)]
        agents[seat] = make_agent("greedy", seed * 1000 + seat)
        g = game.new_state(sections, seed, log=False)
        while g.result is None:
            d = g.decision
            g.apply(decide(agents[d.player], g, d.player)[0])
        wins += g.result.winner == seat
    assert wins >= 30, wins
