"""Per-card statistics of `tcg simulate`, and the paired ablation `--swap OLD=NEW`."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.agents import make_agent
from interpreter.agents.protocol import decide
from interpreter.load import files
from interpreter.run import cards as C
from interpreter.run import simulate as sim
from interpreter.run.ablation import mcnemar, paired
from interpreter.run.loading import load_game
from interpreter.run.report import render_cards
from interpreter.run.stats import newcombe
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent


tcg = tcg_in_process


def table(out: Path) -> dict:
    return json.loads((out / "cards.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ucb_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("cards")
    return tcg("simulate", "ucb", "--games", "24", "--workers", "1", "--seed", "3", "--out", str(out)), out


# ---------- the statistics ----------

def test_newcombe_interval_matches_his_worked_example():
    """Newcombe (1998), method 10: 56/70 vs 48/80 -> 0.0524 to 0.3339."""
    lo, hi = newcombe(56, 70, 48, 80)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_rows_count_games_drawn_opening_and_played():
    games = [(True, {"drawn": ["a", "b"], "opening": ["a"], "played": {"a": 3}}),
             (True, {"drawn": ["a"], "opening": [], "played": {}}),
             (False, {"drawn": ["b"], "opening": ["b"], "played": {"b": 5}}),
             (False, {"drawn": [], "opening": [], "played": {}})]
    rows = {r["card"]: r for r in C.card_rows("deck", games, ["a", "b", "c"])}
    a = rows["a"]
    assert (a["games"], a["drawn"], a["gih"], a["oh"], a["gns"], a["iwd"]) == (4, 2, 1.0, 1.0, 0.0, 1.0)
    played = (a["played"], a["played_wr"], a["play_rate"], a["dead"], a["first_turn_mean"])
    assert played == (1, 1.0, 0.5, 1, 3)
    assert a["gih_low"] < 1.0 == a["gih_high"] and a["iwd_low"] < 1.0
    b = rows["b"]
    assert (b["gih"], b["gns"], b["iwd"], b["play_rate"], b["first_turn_mean"]) == (0.5, 0.5, 0.0, 0.5, 5)
    c = rows["c"]
    assert (c["drawn"], c["gih"], c["gns"], c["iwd"]) == (0, None, 0.5, None)
    assert [r["card"] for r in C.card_rows("deck", games, ["a", "b", "c"])] == ["a", "b", "c"]


def test_never_played_lists_cards_drawn_often_and_not_played():
    games = [(True, {"drawn": ["idle", "used"], "opening": [], "played": {"used": 1}})] * 12
    idle = C.never_played(C.card_rows("deck", games, ["idle", "used"]))
    assert [r["card"] for r in idle] == ["idle"]


# ---------- what the ruleset calls drawing and playing ----------

def test_defaults_come_from_the_ruleset_and_ucb_leaves_mana_out_of_plays():
    ucb = load_game("ucb")
    assert C.card_spec(ucb) == C.CardSpec(("hand",), frozenset({"play", "cast"}))
    for rid in files.bundled_ids():
        assert C.card_spec(load_game(rid)).hand[0] == "hand"
    assert C.card_spec(load_game("manacard")).hand == ("hand", "skills")  # its skill deck
    kannagi = C.card_spec(load_game("kannagi"))
    assert kannagi.plays is None  # every action taken with a card in hand


def test_without_a_zone_named_hand_the_default_is_the_owners_undealt_zone():
    from types import SimpleNamespace

    from interpreter.engine.model import ZoneDef

    def rules(**zones):
        return SimpleNamespace(zones={n: ZoneDef(n, visibility=v) for n, v in zones.items()},
                               deck={"sections": {"main": {"zone": "deck"}, "skill": {"zone": "book"}}})
    assert C.default_hand(rules(deck="hidden", book="owner", field="public", tegoma="owner")) == "tegoma"
    assert C.default_hand(rules(deck="hidden", book="owner", field="public")) is None
    out = io.StringIO()
    render_cards(Console(file=out, width=100), [])
    assert "no per-card statistics: the ruleset has no hand zone" in out.getvalue()


def test_charging_mana_is_not_a_play_but_playing_is():
    """The ucb ruleset's `card_stats: {plays: [play, cast]}` (its charge action uses a card)."""
    game = load_game("ucb")
    plan = sim.make_plan("ucb", [], ["random"], 0, 1)
    sections = sim._setup(plan.ruleset, plan.decks)[1]
    g = game.new_state([sections["A"], sections["B"]], 5, log=False)
    agents = [make_agent("random", 5000), make_agent("random", 5001)]
    found = set()
    while g.result is None and len(found) < 2:
        d = g.decision
        for i, o in enumerate(d.options):
            if d.kind == "action" and len(o) == 3 and o[0] in ("charge", "play") and o[0] not in found:
                t = C.CardTracker(g)
                t.look(g, d, i)
                assert (o[1] in t.first) == (o[0] == "play")
                assert o[1] in t.seen
                found.add(o[0])
        g.apply(decide(agents[d.player], g, d.player)[0])
    assert found == {"charge", "play"}


def test_card_stats_names_are_checked(tmp_path):
    text = (ROOT / "rulesets" / "ucb.yaml").read_text(encoding="utf-8")
    bad = text.replace("card_stats: {plays: [play, cast]}", "card_stats: {hand: hnd, plays: [play, kast]}")
    (tmp_path / "ucb.yaml").write_text(bad, encoding="utf-8")
    r = tcg("check", str(tmp_path / "ucb.yaml"))
    assert r.returncode == 1
    assert "error[UNKNOWN-ZONE]: unknown zone 'hnd'" in r.stdout and "did you mean 'hand'?" in r.stdout
    assert "error[UNKNOWN-ACTION]: unknown action 'kast'" in r.stdout and "did you mean 'cast'?" in r.stdout
    (tmp_path / "ucb.yaml").write_text(text.replace("card_stats: {plays: [play, cast]}",
                                                    "card_stats: {draws: hand}"), encoding="utf-8")
    r = tcg("check", str(tmp_path / "ucb.yaml"))
    assert r.returncode != 0 and "draws" in r.stdout + r.stderr


# ---------- tcg simulate ----------

def test_simulate_reports_and_writes_the_per_card_table(ucb_run):
    r, out = ucb_run
    assert r.returncode == 0, r.stdout + r.stderr
    assert "赤の速攻: cards by IWD" in r.stdout and "青の制御: cards by IWD" in r.stdout
    doc = table(out)
    assert doc["hand"] == ["hand"] and doc["columns"][:2] == ["deck", "card"]
    rows = doc["cards"]
    red = files.load_deck(ROOT / "cards" / "ucb" / "decks" / "aka_sokkou.yaml")
    assert {x["card"] for x in rows if x["deck"] == "赤の速攻"} == set(C.deck_cards(red.sections))
    for x in rows:
        assert x["games"] == 24 and 0 <= x["played"] <= x["drawn"] <= 24 and x["opening"] <= x["drawn"]
        if x["drawn"]:
            assert x["gih_low"] <= x["gih"] <= x["gih_high"]
    assert any(x["played"] for x in rows) and any(x["drawn"] < 24 for x in rows)
    with open(out / "cards.csv", encoding="utf-8") as f:
        lines = list(csv.DictReader(f))
    assert len(lines) == len(rows) and lines[0]["deck"] == rows[0]["deck"]
    assert {"gih", "gih_low", "gih_high", "iwd_low", "play_rate_high", "first_turn_mean"} <= set(lines[0])
    recs = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    blue = files.load_deck(ROOT / "cards" / "ucb" / "decks" / "ao_seigyo.yaml")
    for rec in recs:  # each deck's own cards, an opening hand each, played ones drawn first
        for key, deck in (("A", red), ("B", blue)):
            mine = rec["cards"][key]
            assert mine["opening"] and set(mine["opening"]) <= set(mine["drawn"])
            assert set(mine["drawn"]) <= set(C.deck_cards(deck.sections))
            assert set(mine["played"]) <= set(mine["drawn"])
            assert all(1 <= t <= rec["turns"] for t in mine["played"].values())
    if importlib.util.find_spec("matplotlib"):
        assert (out / "cards.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_every_bundled_ruleset_writes_a_card_table(ruleset, tmp_path):
    plan = sim.make_plan(ruleset, [], ["random"], 11, 3)
    run = sim.simulate(plan, workers=1, out=tmp_path)
    assert run.summary["errors"]["count"] == 0
    assert run.cards and {r["deck"] for r in run.cards} == set(plan.names)
    assert any(r["drawn"] for r in run.cards) and any(r["played"] for r in run.cards)
    assert all(r["played"] <= r["drawn"] for r in run.cards)
    assert len(table(tmp_path)["cards"]) == len(run.cards)
    assert len((tmp_path / "cards.csv").read_text(encoding="utf-8").splitlines()) == 1 + len(run.cards)


@pytest.mark.usefixtures("no_plots")
def test_resume_and_worker_count_keep_the_table(ucb_run, tmp_path):
    _, whole = ucb_run
    part = tmp_path / "part"
    assert tcg("simulate", "ucb", "--games", "10", "--workers", "2", "--seed", "3",
               "--out", str(part)).returncode == 0
    r = tcg("simulate", "ucb", "--games", "24", "--workers", "2", "--chunk", "3", "--seed", "3",
            "--out", str(part), "--resume")
    assert r.returncode == 0, r.stderr
    assert table(part) == table(whole)


@pytest.mark.usefixtures("no_plots")
def test_round_robin_has_a_table_per_pair_and_an_overall_one(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    for p in (ROOT / "cards" / "ucb" / "decks").glob("*.yaml"):
        shutil.copy(p, decks)
    shutil.copy(decks / "aka_sokkou.yaml", decks / "aka_ni.yaml")
    out = tmp_path / "out"
    r = tcg("simulate", "ucb", "--decks", str(decks), "--games", "4", "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "over all its pairs" in r.stdout
    overall = table(out)["cards"]
    assert {x["deck"] for x in overall} == {"赤の速攻 (aka_ni)", "赤の速攻 (aka_sokkou)", "青の制御"}
    pairs = [table(d)["cards"] for d in sorted(out.iterdir()) if d.is_dir()]
    assert len(pairs) == 3
    blue = "青の制御"
    for card in ("石の番人", "吹雪"):
        mine = [x for rows in pairs for x in rows if x["deck"] == blue and x["card"] == card]
        total = next(x for x in overall if x["deck"] == blue and x["card"] == card)
        assert len(mine) == 2 and total["games"] == 8
        assert total["drawn"] == sum(x["drawn"] for x in mine)
        assert total["played"] == sum(x["played"] for x in mine)


# ---------- a card that is too strong shows ----------

def test_an_overpowered_card_wins_more_when_drawn_than_its_deck(tmp_path):
    """A test-only 0-cost spell dealing 12 damage (tests/cards/overpowered.yaml), one copy in
    the weaker bundled deck: its GIH WR interval lies above the deck's win rate, and it leads
    the deck's cards by IWD."""
    (tmp_path / "rulesets").mkdir()
    shutil.copy(ROOT / "rulesets" / "ucb.yaml", tmp_path / "rulesets")
    shutil.copytree(ROOT / "cards" / "ucb", tmp_path / "cards" / "ucb")
    shutil.copy(HERE / "cards" / "overpowered.yaml", tmp_path / "cards" / "ucb")
    deck = (ROOT / "cards" / "ucb" / "decks" / "ao_seigyo.yaml").read_text(encoding="utf-8")
    assert "  殉教の僧兵: 2\n" in deck
    op_deck = deck.replace("  殉教の僧兵: 2\n", "  殉教の僧兵: 1\n  試験用の隕石: 1\n")
    (tmp_path / "blue_op.yaml").write_text(op_deck, encoding="utf-8")
    plan = sim.make_plan(str(tmp_path / "rulesets" / "ucb.yaml"),
                         [str(tmp_path / "cards" / "ucb" / "decks" / "aka_sokkou.yaml"),
                          str(tmp_path / "blue_op.yaml")], ["random"], 0, 200)
    run = sim.simulate(plan, workers=2)
    deck_rate = run.summary["decks"]["B"]["win"]["rate"]
    op = next(r for r in run.cards if r["card"] == "試験用の隕石")
    assert op["gih_low"] > deck_rate, (op, deck_rate)
    assert op["iwd_low"] > 0
    assert run.cards.index(op) == min(i for i, r in enumerate(run.cards) if r["deck"] == op["deck"])


# ---------- --swap ----------

@pytest.mark.usefixtures("no_plots")
def test_a_card_swapped_for_itself_changes_nothing(tmp_path):
    out = tmp_path / "o"
    r = tcg("simulate", "ucb", "--games", "12", "--workers", "1", "--out", str(out),
            "--swap", "落雷=落雷")
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "ablation.json").read_text(encoding="utf-8"))
    assert (doc["difference"], doc["low"], doc["high"], doc["games"]) == (0.0, 0.0, 0.0, 12)
    assert r.stdout.splitlines()[-1].startswith("swap: 赤の速攻 with 落雷 for 落雷: win rate +0.0 pts "
                                                "(95% CI +0.0 pts to +0.0 pts)")
    assert table(out / "swap")["cards"] == table(out)["cards"]
    (out / "results.jsonl").unlink()  # an earlier changed run is refused before any match
    r = tcg("simulate", "ucb", "--games", "12", "--out", str(out), "--swap", "落雷=落雷")
    assert r.returncode == 2 and "swap/results.jsonl already exists; pass --resume" in r.stderr
    assert not (out / "results.jsonl").exists()


@pytest.mark.usefixtures("no_plots")
def test_a_swap_replays_the_same_seeds_and_gives_a_paired_interval(tmp_path):
    out = tmp_path / "o"
    r = tcg("simulate", "ucb", "--games", "40", "--workers", "2", "--out", str(out),
            "--swap", "ちびスライム=伝説の勇者")
    assert r.returncode == 2 and "makes deck A illegal" in r.stderr  # five asterisk cards
    r = tcg("simulate", "ucb", "--games", "40", "--workers", "2", "--out", str(out),
            "--swap", "ちびスライム=知恵の泉")
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "ablation.json").read_text(encoding="utf-8"))
    assert doc["games"] == 40 and doc["low"] <= doc["difference"] <= doc["high"]
    assert doc["difference"] == pytest.approx(doc["after"] - doc["before"])
    assert doc["difference"] == pytest.approx((doc["better"] - doc["worse"]) / 40)
    base, swapped = (sorted((json.loads(x) for x in (d / "results.jsonl").read_text(encoding="utf-8")
                             .splitlines()), key=lambda x: x["match"]) for d in (out, out / "swap"))
    assert [x["seed"] for x in base] == [x["seed"] for x in swapped] == list(range(40))
    # the same seeds deal deck B the same opening hands (deck A's changed only where the card moved)
    assert all(x["cards"]["B"]["opening"] == y["cards"]["B"]["opening"]
               for x, y in zip(base, swapped, strict=True))
    rows = table(out / "swap")["cards"]
    assert "知恵の泉" in {x["card"] for x in rows if x["deck"] == "赤の速攻"}
    assert "ちびスライム" not in {x["card"] for x in rows if x["deck"] == "赤の速攻"}


def test_unknown_swaps_are_clear_errors():
    r = tcg("simulate", "ucb", "--games", "2", "--swap", "石の番人=落雷")
    assert r.returncode == 2 and "deck A" in r.stderr and "holds no '石の番人'" in r.stderr
    r = tcg("simulate", "ucb", "--games", "2", "--swap", "落雷=ファイアボーノレ")
    assert r.returncode == 2 and "has no card 'ファイアボーノレ'" in r.stderr
    assert "did you mean 'ファイアボール'?" in r.stderr
    r = tcg("simulate", "ucb", "--games", "2", "--swap", "落雷")
    assert r.returncode == 2 and "--swap wants OLD=NEW" in r.stderr
    assert "Traceback" not in r.stderr


def test_paired_difference_counts_only_the_twins_that_differ():
    def rec(seed: int, winner: str | None) -> dict:
        return {"seed": seed, "outcome": "win" if winner else "draw", "winner": winner}
    before = [rec(0, "A"), rec(1, "B"), rec(2, "B"), rec(3, None), rec(4, "A")]
    after = [rec(0, "A"), rec(1, "A"), rec(2, "A"), rec(3, "A"), rec(4, "B")]
    p = paired(before, after)
    assert (p["games"], p["better"], p["worse"]) == (5, 3, 1)
    assert p["difference"] == pytest.approx(0.4) and p["low"] < 0.4 < p["high"]
    assert p["p_value"] == pytest.approx(mcnemar(3, 1)) == pytest.approx(0.625)
    assert paired(before, before)["low"] == paired(before, before)["high"] == 0.0
    assert mcnemar(0, 0) == 1.0 and mcnemar(0, 10) == pytest.approx(2 / 1024)


# ---------- plots ----------

def _system_has_cjk_font() -> bool:
    """fontconfig's own answer (CI installs fonts-noto-cjk), independent of matplotlib's cache."""
    return bool(shutil.which("fc-list")) and "cjk" in subprocess.run(
        ["fc-list"], capture_output=True, text=True).stdout.lower()


@pytest.fixture
def stale_font_cache(monkeypatch):
    """matplotlib's font list as a cache built before any CJK font was installed."""
    font_manager = pytest.importorskip("matplotlib.font_manager")
    from interpreter.run import plots

    fonts = font_manager.fontManager
    monkeypatch.setattr(fonts, "ttflist", [f for f in fonts.ttflist if not plots._cjk_among({f.name})])
    plots.cjk_font.cache_clear()
    yield font_manager
    plots.cjk_font.cache_clear()


def _card_rows() -> list[dict]:
    return C.card_rows("赤の速攻", [(True, {"drawn": ["見習い剣士"], "opening": [], "played": {}}),
                                    (False, {"drawn": [], "opening": [], "played": {}})], ["見習い剣士"])


def test_plots_find_a_cjk_font_installed_after_matplotlibs_font_cache(stale_font_cache, tmp_path):
    from interpreter.run import plots

    if not _system_has_cjk_font():
        pytest.skip("no CJK font on this machine")
    font = plots.cjk_font()
    assert font is not None and "CJK" in font and plots.font_note() is None
    found = stale_font_cache.findfont(stale_font_cache.FontProperties(family=font),
                                      fallback_to_default=False)
    assert "cjk" in Path(found).name.lower(), found  # the names are drawn in that file's glyphs
    assert plots.cards(_card_rows(), {"赤の速攻": 0.5}, tmp_path / "cards.png").read_bytes()[:4] == b"\x89PNG"


def test_without_any_cjk_font_the_plots_are_drawn_and_the_note_says_install_one(
        stale_font_cache, monkeypatch, tmp_path):
    from interpreter.run import plots

    monkeypatch.setattr(stale_font_cache, "findSystemFonts", lambda *a, **k: [])
    assert plots.cjk_font() is None
    assert "apt-get install fonts-noto-cjk" in plots.font_note()
    path = plots.cards(_card_rows(), {"赤の速攻": 0.5}, tmp_path / "cards.png")
    assert path.read_bytes()[:4] == b"\x89PNG"  # drawn all the same, the names perhaps as boxes
