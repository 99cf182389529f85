"""Game-owned card pools, `create` of real cards, `copy`, tokens with abilities (the toy game
tests/rulesets/pools.yaml; its scenarios are tests/scenarios/pools/): what `tcg check` says
about them, and what the players' views show of a pool's cards."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from interpreter.engine.state import ZoneRef
from interpreter.run.loading import load_game
from interpreter.run.match import resolve_decks
from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parents[1]
RULESET = ROOT / "tests" / "rulesets" / "pools.yaml"
CARDS = ROOT / "tests" / "cards" / "pools"
COPPERS = {"main": ["Copper"] * 5}


def diagnostics(out: str) -> list[tuple[str, int, int, str]]:
    rx = re.compile(r"^(.+?):(\d+):(\d+): error\[([A-Z0-9-]+)\]", re.M)
    return [(Path(p).name, int(a), int(b), c) for p, a, b, c in rx.findall(out)]


@pytest.fixture
def game_dir(tmp_path: Path) -> Path:
    """A copy of the toy game laid out as load_game finds it (rulesets/, cards/pools/)."""
    (tmp_path / "rulesets").mkdir()
    shutil.copy(RULESET, tmp_path / "rulesets" / "pools.yaml")
    shutil.copytree(CARDS, tmp_path / "cards" / "pools")
    return tmp_path


def edit(path: Path, old: str, new: str) -> int:
    """Replace `old` (once) in the file; the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_the_toy_game_is_clean_checked_with_or_without_its_card_sets():
    # alone, the ruleset's pool is checked against the card sets beside it (by name only)
    for args in (["tests/rulesets/pools.yaml"], ["tests/rulesets/pools.yaml", "tests/cards/pools",
                                                 "tests/scenarios/pools"]):
        r = tcg("check", *args)
        assert r.returncode == 0, r.stdout + r.stderr


def test_an_unknown_pool_card_is_reported_at_its_name_with_a_suggestion(game_dir: Path):
    ruleset = game_dir / "rulesets" / "pools.yaml"
    line = edit(ruleset, "cards: {Goblin: 2,", "cards: {Gobln: 2,")
    for args in (["rulesets/pools.yaml"], ["rulesets/pools.yaml", "cards/pools"]):
        r = tcg("check", *args, cwd=game_dir)
        assert r.returncode == 1, r.stdout + r.stderr
        assert ("pools.yaml", line, 13, "UNKNOWN-CARD") in diagnostics(r.stdout), r.stdout
        assert "unknown card 'Gobln' in pool 'market'" in r.stdout
        assert "did you mean 'Goblin'?" in r.stdout
    r = tcg("play", "rulesets/pools.yaml", cwd=game_dir)  # refused, with the same diagnostic
    assert r.returncode == 1 and "UNKNOWN-CARD" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr


def test_create_of_a_name_neither_token_nor_card_is_reported(game_dir: Path):
    cards = game_dir / "cards" / "pools" / "cards.yaml"
    line = edit(cards, 'create(\\"Goblin\\", play(you))', 'create(\\"Gobin\\", play(you))')
    r = tcg("check", "rulesets/pools.yaml", "cards/pools", cwd=game_dir)
    assert r.returncode == 1, r.stdout + r.stderr
    found = diagnostics(r.stdout)
    assert [d[3] for d in found] == ["UNKNOWN-TOKEN"], r.stdout
    assert found[0][:2] == ("cards.yaml", line), r.stdout
    assert "'Gobin' is neither a token of this ruleset (its tokens: Imp) nor a card" in r.stdout
    assert "did you mean 'Goblin'?" in r.stdout


def test_create_of_a_card_in_a_ruleset_text_is_checked_against_the_card_sets(game_dir: Path):
    ruleset = game_dir / "rulesets" / "pools.yaml"
    edit(ruleset, "  shuffle(market_deck);\n", '  shuffle(market_deck); create("Merchant", market);\n')
    assert tcg("check", "rulesets/pools.yaml", cwd=game_dir).returncode == 0
    edit(ruleset, 'create("Merchant", market)', 'create("Merchnt", market)')
    r = tcg("check", "rulesets/pools.yaml", cwd=game_dir)
    assert [d[3] for d in diagnostics(r.stdout)] == ["UNKNOWN-TOKEN"], r.stdout
    assert "did you mean 'Merchant'?" in r.stdout


def test_a_pool_must_deal_into_a_shared_zone(game_dir: Path):
    ruleset = game_dir / "rulesets" / "pools.yaml"
    line = edit(ruleset, "    zone: market_deck\n", "    zone: discard\n")
    r = tcg("check", "rulesets/pools.yaml", cwd=game_dir)
    assert ("pools.yaml", line, 11, "POOL-ZONE") in diagnostics(r.stdout), r.stdout
    assert "shared: true" in r.stdout


def test_with_pools_a_shared_zone_is_no_ability_zone(game_dir: Path):
    """A Goblin in the market would trigger with no controller (an internal error in play
    before): `tcg check` refuses the ruleset where the zone is listed."""
    ruleset = game_dir / "rulesets" / "pools.yaml"
    line = edit(ruleset, "ability_zones: [play]", "ability_zones: [play, market]")
    r = tcg("check", "rulesets/pools.yaml", cwd=game_dir)
    assert r.returncode == 1 and diagnostics(r.stdout) == [("pools.yaml", line, 23,
                                                            "POOL-ABILITY-ZONE")], r.stdout


def test_a_token_named_like_a_card_is_refused(game_dir: Path):
    ruleset = game_dir / "rulesets" / "pools.yaml"
    line = edit(ruleset, "  Imp:\n", "  Copper: {}\n  Imp:\n")
    r = tcg("check", "rulesets/pools.yaml", "cards/pools", cwd=game_dir)
    assert ("pools.yaml", line, 3, "DUPLICATE-CARD") in diagnostics(r.stdout), r.stdout


def test_a_token_ability_is_checked_in_place(game_dir: Path):
    ruleset = game_dir / "rulesets" / "pools.yaml"
    line = edit(ruleset, "change(you, coins, 1)", "chnge(you, coins, 1)")
    r = tcg("check", "rulesets/pools.yaml", cwd=game_dir)
    assert ("pools.yaml", line, 47, "UNKNOWN-VERB") in diagnostics(r.stdout), r.stdout
    assert "did you mean 'change'?" in r.stdout


def test_pool_cards_belong_to_no_player_until_a_players_zone_takes_them():
    for reference in (False, True):
        game = load_game(str(RULESET), reference=reference)
        g = game.new_state([COPPERS, COPPERS], 0)
        row = g.zones[ZoneRef("market", -1)]
        assert [g.defs[c].name for c in row] == ["Goblin", "Merchant", "Conjurer"]
        assert {g.owner[c] for c in row} == {None}
        assert g.get(row[0], "owner") is None  # `c.owner` is none
        for label in ["play Copper"] * 3 + ["buy Goblin"]:
            g.apply(next(i for i, a in enumerate(g.legal_actions()) if label in a.label))
        bought = g.zones[ZoneRef("discard", 0)][-1]
        assert g.defs[bought].name == "Goblin" and g.owner[bought] == g.controller[bought] == 0


def test_the_views_show_the_pool_cards_in_the_row_and_hide_the_pile():
    """What the table draws and a learning agent reads come from the observation."""
    game = load_game(str(RULESET))
    g = game.new_state([COPPERS, COPPERS], 0)
    for player in (0, 1):
        zones = g.observation(player)["zones"]
        assert [c["name"] for c in zones["market"]] == ["Goblin", "Merchant", "Conjurer"]
        assert zones["market"][0]["abilities"]  # a real card, with its abilities
        assert zones["market_deck"] == [{"hidden": True}] * 4
    from interpreter.table import views

    shared = views.areas(game, g.observation(0)["zones"], "P1")["shared"]
    row = next(z for z in shared if z["name"] == "market")
    assert [c["name"] for c in row["cards"]] == ["Goblin", "Merchant", "Conjurer"]


def test_the_learning_layout_encodes_the_pool_cards():
    pytest.importorskip("numpy")
    from interpreter.rl.layout import Layout

    game = load_game(str(RULESET))
    g = game.new_state([COPPERS, COPPERS], 0)
    layout = Layout(game)
    vector, _ = layout.encode(g.observation(0), 0)
    on = {name for name, x in zip(layout.feature_names(), vector, strict=True) if x}
    assert {"market[0].card=Goblin", "market[1].card=Merchant", "market[2].card=Conjurer"} <= on
    assert not any(name.startswith("market_deck[") and name.endswith(("=Goblin", "=Twin"))
                   for name in on)


def test_create_of_a_name_known_only_as_it_runs_that_names_nothing_is_a_clear_error(game_dir: Path):
    """A variable's value cannot be checked: the match stops with an error naming it."""
    cards = game_dir / "cards" / "pools" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + """\
  - name: Odd
    abilities:
      - 'when moved where card == self and to_zone == "play": let n = "Nope"; create(n, play(you))'
""", encoding="utf-8")
    deck = game_dir / "odd.yaml"
    deck.write_text("ruleset: pools\nmain: {Odd: 4}\n", encoding="utf-8")
    assert tcg("check", "rulesets/pools.yaml", "cards/pools", "odd.yaml", cwd=game_dir).returncode == 0
    r = tcg("play", "rulesets/pools.yaml", "--deck", "odd.yaml", "--deck", "odd.yaml",
            "--agents", "greedy,greedy", cwd=game_dir)
    assert "create: 'Nope' is neither a token nor a card of this game" in r.stderr, r.stderr
    assert r.returncode != 0 and "Traceback" not in r.stderr and "internal error" not in r.stderr


def test_a_pool_cards_own_ability_zone_waits_until_a_player_owns_it(game_dir: Path):
    """A card whose ability works `in market:` sits there owned by no player: it has no `you`,
    so its abilities do not work until a player's zone takes it (the match stopped with an
    internal error before). Matches play to their end on both paths; every live card has a
    controller."""
    cards = game_dir / "cards" / "pools" / "cards.yaml"
    edit(cards, '      - "when turn_start where player == you: change(you, score, 1)"\n',
         '      - "when turn_start where player == you: change(you, score, 1)"\n'
         '      - "in market: when turn_start: change(you, score, 1)"\n')
    ruleset = str(game_dir / "rulesets" / "pools.yaml")
    for seed in (1, 2, 3):
        runs = [tcg("play", ruleset, "--seed", str(seed), *ref) for ref in ((), ("--reference",))]
        assert all(r.returncode == 0 and "result:" in r.stdout for r in runs), runs[0].stderr
        assert runs[0].stdout == runs[1].stdout
    game = load_game(ruleset)
    g = game.new_state([d.sections for d in resolve_decks(game, ruleset, [])], 1)
    market = g.zones[ZoneRef("market", -1)]
    assert market and all(g.controller[c] is None for c in market)
    assert not set(market) & set(g.live_cards())
