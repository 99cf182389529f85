"""`tcg simulate`: seeded, seat-alternating, worker-count-independent, resumable."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from interpreter.load import files
from interpreter.run import simulate as sim
from interpreter.run.stats import outcome_of, spread, summarize, wilson
from tests.conftest import tcg_in_process

ROOT = Path(__file__).resolve().parents[1]
GAMES = "20"


def tcg(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """In this process, but in a process of its own where the environment matters (Ray's)."""
    if env is None:
        return tcg_in_process(*args)
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env=env)


def records(out: Path) -> list[dict]:
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return sorted((json.loads(x) for x in lines), key=lambda r: r["match"])


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("w1")
    return tcg("simulate", "ucb", "--games", GAMES, "--workers", "1", "--seed", "7",
               "--out", str(out)), out


def test_cli_reports_and_ends_with_a_result_line(one_worker):
    r, _ = one_worker
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert re.match(r"result: A .+ \d+\.\d% \[\d+\.\d–\d+\.\d%\], B .+, draws \d+\.\d%, timeouts "
                    r"\d+\.\d%, first player [+-]\d+\.\d pts, errors 0 — 20 games$", last), last
    # (the players behind the figures, with their budgets: no --agents is default's)
    assert re.search(r"^agents: A .+ played by default \(worlds=2\), B .+ played by default "
                     r"\(worlds=2\)$", r.stdout, re.M), r.stdout
    for shown in ("95% CI", "first player wins", "game length in turns: mean", "game length in "
                  "decisions", "how games ended", "timeouts: turn limit", "lead changes"):
        assert shown in r.stdout
    assert "Traceback" not in r.stderr
    # not a terminal: no progress bar (only the note on plots, when matplotlib is missing)
    plots_note = "note: no plots: plots need matplotlib"
    assert [x for x in r.stderr.splitlines() if not x.startswith(plots_note)] == []


def test_out_writes_results_and_summaries(one_worker):
    _, out = one_worker
    recs = records(out)
    assert [r["match"] for r in recs] == list(range(20))
    assert [r["seed"] for r in recs] == list(range(7, 27))
    assert all(r["seats"] == (["B", "A"] if r["match"] % 2 else ["A", "B"]) for r in recs)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 20 and summary["errors"]["count"] == 0
    assert {k: a["described"] for k, a in summary["agents"].items()} == \
        {"A": "default (worlds=2)", "B": "default (worlds=2)"}
    wins = summary["decks"]["A"]["win"]["count"] + summary["decks"]["B"]["win"]["count"]
    assert wins + summary["draw"]["count"] + summary["timeouts"]["count"] == 20
    csv = (out / "summary.csv").read_text(encoding="utf-8").splitlines()
    assert csv[0] == "metric,value,ci95_low,ci95_high,count,n"
    assert any(line.startswith("first_player_advantage,") for line in csv)
    assert any(line.startswith("decisions_sd,") for line in csv)


def test_out_draws_png_plots_without_a_display(one_worker):
    r, out = one_worker
    pytest.importorskip("matplotlib")
    for name in ("win_rates.png", "lengths.png"):
        data = (out / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert width >= 400 and height >= 200, (name, width, height)
        assert str(out / name) in r.stdout


def test_without_matplotlib_the_results_stand_and_a_note_says_why(tmp_path):
    hide = "import sys; sys.modules['matplotlib'] = None; from interpreter.cli import main; sys.exit(main())"
    r = subprocess.run([sys.executable, "-c", hide, "simulate", "ucb", "--games", "2", "--workers", "1",
                        "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "note: no plots: plots need matplotlib, which is not installed: pip install -e '.[plot]'" \
        in r.stderr
    assert (tmp_path / "summary.json").exists() and not (tmp_path / "win_rates.png").exists()


@pytest.mark.usefixtures("no_plots")
def test_worker_count_does_not_change_any_match(one_worker, tmp_path):
    _, out1 = one_worker
    r = tcg("simulate", "ucb", "--games", GAMES, "--workers", "2", "--seed", "7", "--chunk", "3",
            "--out", str(tmp_path), "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    assert records(tmp_path) == records(out1)
    assert (tmp_path / "summary.json").read_text() == (out1 / "summary.json").read_text()


@pytest.mark.usefixtures("no_plots")
def test_resume_plays_only_the_missing_matches(one_worker, tmp_path):
    _, out1 = one_worker
    lines = (out1 / "results.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    for name in ("results.jsonl", "run.json"):
        (tmp_path / name).write_bytes((out1 / name).read_bytes())
    # keep 12 lines, then a line torn in half as a killed run leaves it
    (tmp_path / "results.jsonl").write_text("".join(lines[:12]) + lines[12][:25], encoding="utf-8")
    r = tcg("simulate", "ucb", "--games", GAMES, "--workers", "1", "--seed", "7",
            "--out", str(tmp_path), "--resume")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "8 played" in r.stdout and "12 from --resume" in r.stdout
    assert records(tmp_path) == records(out1)
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 20
    assert json.loads((tmp_path / "summary.json").read_text()) == \
        json.loads((out1 / "summary.json").read_text())
    assert r.stdout.splitlines()[-1] == one_worker[0].stdout.splitlines()[-1]


def test_resume_refuses_another_run_and_out_is_not_overwritten(one_worker):
    _, out1 = one_worker
    r = tcg("simulate", "ucb", "--games", "4", "--seed", "8", "--out", str(out1), "--resume")
    assert r.returncode == 2 and "holds a different run (seed differ)" in r.stderr
    r = tcg("simulate", "ucb", "--games", "4", "--seed", "7", "--out", str(out1))
    assert r.returncode == 2 and "pass --resume" in r.stderr


def test_illegal_deck_is_a_positioned_diagnostic(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text("ruleset: ucb\nmain: {見習い剣士: 4}\n", encoding="utf-8")
    r = tcg("simulate", "ucb", "--deck", str(deck), "--deck", str(deck), "--games", "2")
    assert r.returncode == 1
    assert re.search(r"d\.yaml:\d+:\d+: error\[DECK-SIZE\]", r.stdout), r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_ray_backend_gives_the_same_matches_and_card_table_as_local(one_worker):
    """A real local Ray instance (its files in a temp dir), two workers, chunks of 3: the one
    Ray run of the suite (starting Ray takes many seconds)."""
    pytest.importorskip("ray")
    _, out1 = one_worker
    home = Path(tempfile.mkdtemp(prefix="tcgray", dir="/tmp"))  # short: Ray's socket paths
    try:
        env = {**os.environ, "HOME": str(home), "RAY_TMPDIR": str(home / "t")}
        r = tcg("simulate", "ucb", "--games", GAMES, "--workers", "2", "--seed", "7", "--chunk", "3",
                "--backend", "ray", "--out", str(home / "out"), "--quiet", env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        assert records(home / "out") == records(out1)
        assert r.stdout.splitlines()[-1] == one_worker[0].stdout.splitlines()[-1]
        cards = (json.loads((d / "cards.json").read_text(encoding="utf-8")) for d in (home / "out", out1))
        assert next(cards) == next(cards)  # the per-card table (test_cards.py) too
    finally:
        shutil.rmtree(home, ignore_errors=True)


def test_ray_backend_without_ray_is_a_clear_error():
    hide_ray = "import sys; sys.modules['ray'] = None; from interpreter.cli import main; sys.exit(main())"
    r = subprocess.run([sys.executable, "-c", hide_ray, "simulate", "ucb", "--games", "2",
                        "--backend", "ray"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "the ray backend needs Ray, which is not installed: pip install -e '.[ray]'" in r.stderr


def test_bad_backend_choices_are_refused():
    r = tcg("simulate", "ucb", "--games", "2", "--backend", "spark")
    assert r.returncode == 2 and "unknown backend 'spark'; choose from local, ray" in r.stderr
    r = tcg("simulate", "ucb", "--games", "2", "--address", "10.0.0.1:6379")
    assert r.returncode == 2 and "use it with --backend ray" in r.stderr
    if importlib.util.find_spec("ray"):  # a dead address fails fast (Ray would retry for minutes)
        r = tcg("simulate", "ucb", "--games", "2", "--backend", "ray", "--address", "127.0.0.1:1",
                env=dict(os.environ))  # (Ray imported in a child, not here)
        assert r.returncode == 2 and "cannot reach the Ray cluster at 127.0.0.1:1" in r.stderr


def test_round_robin_plays_every_pair_into_a_matrix(tmp_path):
    decks = tmp_path / "decks"
    decks.mkdir()
    for deck in sorted((ROOT / "cards" / "ucb" / "decks").glob("*.yaml")):
        shutil.copy(deck, decks / deck.name)
    text = (decks / "aka_sokkou.yaml").read_text(encoding="utf-8")
    (decks / "aka_ni.yaml").write_text(re.sub(r"(?m)^name: .*$", "name: 赤の二", text), encoding="utf-8")
    out = tmp_path / "out"
    r = tcg("simulate", "ucb", "--decks", str(decks), "--games", "6", "--workers", "1", "--seed", "3",
            "--agents", "random,random", "--out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[-1].startswith("result: 3 decks, best ")
    assert "round robin of 3 decks, 3 pairs, 18 games" in r.stdout and "overall" in r.stdout
    doc = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    names = [d["name"] for d in doc["decks"]]
    assert names == ["赤の二", "赤の速攻", "青の制御"]  # files in sorted order
    wins = doc["wins"]
    for i in range(3):
        assert wins[i][i] is None
        for j in range(i + 1, 3):
            assert wins[i][j]["n"] == wins[j][i]["n"] == 6
            assert wins[i][j]["count"] + wins[j][i]["count"] <= 6
    # a cell is the ordinary simulation of that pair with the same seeds
    plan = sim.make_plan("ucb", [str(decks / "aka_sokkou.yaml"), str(decks / "ao_seigyo.yaml")],
                         ["random"], 3, 6)
    alone = sim.simulate(plan, workers=1).summary["decks"]
    assert (wins[1][2]["count"], wins[2][1]["count"]) == (alone["A"]["win"]["count"],
                                                         alone["B"]["win"]["count"])
    assert len(records(out / "aka_sokkou--ao_seigyo")) == 6
    assert len((out / "matrix.csv").read_text(encoding="utf-8").splitlines()) == 1 + 6
    if importlib.util.find_spec("matplotlib"):
        assert (out / "matrix.png").read_bytes()[:4] == b"\x89PNG"
    r = tcg("simulate", "ucb", "--decks", str(decks), "--deck", str(decks / "aka_ni.yaml"))
    assert r.returncode == 2 and "either --deck" in r.stderr
    r = tcg("simulate", "ucb", "--decks", str(tmp_path / "out" / "aka_sokkou--ao_seigyo"))
    assert r.returncode == 2 and "at least two deck files" in r.stderr


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_every_bundled_ruleset_simulates_the_same_on_one_or_two_workers(ruleset):
    plan = sim.make_plan(ruleset, [], ["random"], 100, 4)
    one, two = sim.simulate(plan, workers=1), sim.simulate(plan, workers=2, chunk=2)
    assert one.records == two.records
    s = one.summary
    assert s["errors"]["count"] == 0 and s["completed"] == 4, s["errors"]
    decided = sum(d["win"]["count"] for d in s["decks"].values())
    assert decided + s["draw"]["count"] + s["timeouts"]["count"] == 4
    assert s["decisions"]["n"] == 4 and s["lead_changes"]["n"] == 4


def test_lead_changes_follow_the_heuristic_and_ties_keep_the_leader():
    class Game:  # the state is a (score of seat 0, score of seat 1) pair
        score_reads = None  # (untracked: looked at every time)

        def score(self, state, seat):
            return state[seat]

    lead = sim.LeadTracker(Game())
    for state in [(0, 0), (3, 1), (2, 2), (1, 4), (1, 4), (5, 0), (0, 5)]:
        lead.look(state)
    assert lead.changes == 3  # seat 0 leads, tie (still 0), 1 leads, 0 leads, 1 leads


@pytest.mark.parametrize("ruleset", files.bundled_ids())
def test_lead_changes_are_the_same_when_unchanged_scores_are_not_looked_at_again(ruleset):
    import random

    import interpreter
    from interpreter.engine import vm

    game = interpreter.load_game(ruleset)
    for seed in range(3):
        g = game.new_state(interpreter.default_decks(game), seed, log=False)
        kept, every = sim.LeadTracker(game), sim.LeadTracker(game)
        every.reads = None  # the oracle: both scores at every decision
        rng = random.Random(seed)
        while g.result is None:
            kept.look(g)
            every.look(g)
            assert (kept.leader, kept.changes) == (every.leader, every.changes)
            vm.answer(g, rng.choice(g.decision.options))


def test_wilson_interval_known_values():
    # Newcombe (1998), Statistics in Medicine 17:857, method 3
    for (k, n), (lo, hi) in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                             (0, 10): (0.0, 0.2775), (10, 10): (0.7225, 1.0),
                             (5, 10): (0.2366, 0.7634)}.items():
        got = wilson(k, n)
        assert got == pytest.approx((lo, hi), abs=5e-5), (k, n, got)
    assert wilson(0, 0) == (0.0, 1.0)


def test_outcomes_keep_timeouts_apart_from_draws():
    assert outcome_of(None, "turn limit: 200 turns reached") == "turn_limit"
    assert outcome_of(None, "loop limit: 200000 steps without a decision") == "loop_limit"
    assert outcome_of(None, "draw: both decks ran out") == "draw"
    assert outcome_of(1, "P2 wins: x") == "win"
    s = spread([1, 2, 2, 3, 10])
    assert s["mean"] == 3.6 and sum(h["count"] for h in s["histogram"]) == 5


def test_a_match_matches_tcg_play_with_the_same_seed():
    from interpreter.run.match import MatchSetup, play

    plan = sim.make_plan("ucb", [], ["random", "random"], 40, 2)
    for index in (0, 1):
        rec = sim.play_match(plan.ruleset, plan.decks, plan.agents, plan.seed, index)
        seats = [sim.KEYS.index(k) for k in rec["seats"]]
        g = play(MatchSetup("ucb", [plan.decks[i] for i in seats], plan.seed + index, ["random"] * 2))
        assert (rec["winner_seat"], rec["reason"], rec["turns"], rec["decisions"]) == \
            (g.result.winner, g.result.reason, g.result.turns, g.decisions)
        assert f"--seed {40 + index}" in plan.reproduce(rec)


def test_a_raising_match_is_an_error_record_not_a_crash(monkeypatch):
    import interpreter.agents as agents

    real = agents.make_agent

    class Boom:
        def choose(self, observation, options):
            raise RuntimeError("boom")

    monkeypatch.setattr(agents, "make_agent", lambda name, seed: Boom() if seed // 1000 == 3 else
                        real(name, seed))
    plan = sim.make_plan("ucb", [], ["random", "random"], 0, 6)
    run = sim.simulate(plan, workers=1)
    bad = [r for r in run.records if r["outcome"] == "error"]
    assert [r["seed"] for r in bad] == [3] and bad[0]["error"] == "RuntimeError: boom"
    assert run.summary["errors"] == {"count": 1, "seeds": [3], "messages": {"RuntimeError: boom": 1}}
    assert run.summary["completed"] == 5
    assert "--seed 3" in run.summary["reproduce"]["3"]
    assert summarize(run.records, {"A": "a", "B": "b"})["games"] == 6


def test_a_turn_limit_reaches_every_match_and_its_reproduce_line():
    """`--turns N` (e.g. だんのこまち's time limit as turns): every match stops by turn N and is
    judged there, exactly as `tcg play --turns N` with its seed plays it."""
    from interpreter.run.match import MatchSetup, play

    plan = sim.make_plan("dannokomachi", [], ["random", "random"], 3, 4, turns=2)
    for index in range(4):
        rec = sim.play_match(plan.ruleset, plan.decks, plan.agents, plan.seed, index, plan.turns)
        assert rec["turns"] <= 2 and rec["outcome"] != "error", rec
        assert "--turns 2" in plan.reproduce(rec)
        seats = [sim.KEYS.index(k) for k in rec["seats"]]
        g = play(MatchSetup("dannokomachi", [plan.decks[i] for i in seats], plan.seed + index,
                            ["random"] * 2, turns=2))
        assert (rec["winner_seat"], rec["reason"]) == (g.result.winner, g.result.reason)
    with pytest.raises(sim.TcgError, match="--turns"):
        sim.make_plan("dannokomachi", [], ["random", "random"], 3, 4, turns=0)
