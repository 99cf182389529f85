"""Hostile runs (issue 22): matches that would never end, tampered logs, and the ways a run
could lose its results. Each ends cleanly, says what is wrong and where, and keeps every
file it was given."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
from interpreter.cli import main
from interpreter.diagnostics import TcgError
from interpreter.engine import limits
from interpreter.engine.state import GameOver
from interpreter.load import files
from interpreter.load.yamlpos import load_yaml
from interpreter.run import logs, outputs
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup, play, replay, resume

ROOT = Path(__file__).resolve().parents[1]
DECKS = ROOT / "cards/ucb/decks"


# ---------- matches that would never end ----------

def _hostile_game(tmp_path: Path, rid: str, body: str) -> interpreter.Game:
    """A bundled ruleset whose turn starts with `body`; `%s` in it names a zone each player
    has (its cards and decks are the bundled ones)."""
    import yaml

    (tmp_path / "rulesets").mkdir(exist_ok=True)
    if not (tmp_path / "cards").exists():
        os.symlink(ROOT / "cards", tmp_path / "cards")
    data = load_yaml(files.RULESETS / f"{rid}.yaml").data
    zone = next(z for z, d in data["zones"].items() if not d.get("shared") and not d.get("capacity"))
    data.setdefault("tokens", {})["敵意"] = {}
    data["turn"] = [{"phase": "敵意", "do": body.replace("%s", zone)}, *data["turn"]]
    data.pop("forbid", None)
    path = tmp_path / "rulesets" / f"{rid}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return interpreter.load_game(str(path))


def _play_out(game: interpreter.Game) -> interpreter.GameState:
    state = game.new_state(interpreter.default_decks(game), seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("rid", files.bundled_ids())
@pytest.mark.parametrize("body, reason", [
    ("repeat 1000000000 { shuffle(%s(you)) }", f"more than {limits.MAX_PASSES:,} passes"),
    ("repeat 100000 { repeat 100000 { shuffle(%s(you)) } }", f"more than {limits.MAX_PASSES:,} passes"),
    ('create(敵意, %s(you), "up", 1000000000)', f"more than {limits.MAX_CARDS:,} cards"),
    ('create(敵意, %s(you), "up", 1000); for each a in %s(you) { for each b in %s(you) { '
     'for each c in %s(you) { let x = 1 } } }', f"more than {limits.MAX_PASSES:,} passes"),
], ids=["repeat", "nested-repeat", "create", "nested-for-each"])
def test_unbounded_work_ends_every_bundled_game(rid: str, body: str, reason: str, tmp_path: Path):
    result = _play_out(_hostile_game(tmp_path, rid, body)).result
    assert result.winner is None and result.reason.startswith("loop limit: " + reason), result


RETRIGGER = """ruleset: ucb
cards:
  - {name: 反響甲, kind: character, cost: 0, power: 1, abilities: ["when shuffled: shuffle(deck(you))"]}
  - {name: 反響乙, kind: character, cost: 0, power: 1, abilities: ["when shuffled: shuffle(deck(opponent))"]}
  - {name: 撹拌, kind: spell, cost: 0, effect: "shuffle(deck(you))"}
"""


def test_cards_retriggering_each_other_through_order_questions_end(tmp_path: Path, monkeypatch):
    """Each shuffle triggers both cards, and each time the only decision is which resolves
    first, so the steps-without-a-decision limit never fires: the decisions limit ends it."""
    from interpreter.engine import vm
    from interpreter.engine.observe import LazyLabels
    from interpreter.run.scenario import build_state

    (tmp_path / "cards.yaml").write_text(RETRIGGER, encoding="utf-8")
    game = load_game("ucb", (str(tmp_path / "cards.yaml"),))
    g = build_state(game, {"turn_player": "P1", "turn": 3, "phase": "main", "zones": {
        "deck@P1": ["見習い剣士"] * 3, "deck@P2": ["見習い剣士"] * 3,
        "battle@P1": ["反響甲", "反響乙"], "hand@P1": ["撹拌"]}}, 0)
    monkeypatch.setattr(limits, "MAX_DECISIONS", 500)
    vm.answer(g, g.decision.options[list(LazyLabels(g)).index(next(
        label for label in LazyLabels(g) if "撹拌" in label))])
    while g.result is None:
        assert g.decision.prompt == "which triggered ability resolves next"
        vm.answer(g, g.decision.options[0])
    assert g.result.reason == "loop limit: more than 500 decisions in one match"


def test_repeat_passes_limit_at_its_value_and_one_past():
    """The VM's loop start charges the match; the generated code does the same inline (the
    hostile games above end by it)."""
    from interpreter.engine.instructions import IterInit
    from interpreter.engine.state import Frame

    game = load_game("ucb")
    g = game.new_state(interpreter.default_decks(game), seed=1)
    g.steps = 0
    IterInit("#k", lambda g, env: limits.MAX_PASSES, True, None, 9).run(g, Frame((), {}))
    with pytest.raises(GameOver, match=f"more than {limits.MAX_PASSES:,} passes"):
        IterInit("#k", lambda g, env: 1, True, None, 9).run(g, Frame((), {}))


def test_cards_limit_at_its_value_and_one_past():
    game = load_game("ucb")
    g = game.new_state(interpreter.default_decks(game), seed=1)
    token = next(iter(game.tokens.values()))
    zone = next(z for z in g.zones if z.name == "mana")
    game.new_cards(g, [token] * (limits.MAX_CARDS - len(g.defs)), 0, zone)
    with pytest.raises(GameOver, match=f"more than {limits.MAX_CARDS:,} cards"):
        game.new_card(g, token, 0, zone)


def test_decisions_limit_at_its_value_and_one_past(monkeypatch):
    from interpreter.engine import vm

    game = load_game("ucb")
    g = game.new_state(interpreter.default_decks(game), seed=1)
    monkeypatch.setattr(limits, "MAX_DECISIONS", g.decisions + 1)
    vm.answer(g, g.decision.options[0])
    assert g.result is None
    vm.answer(g, g.decision.options[0])
    assert g.result.reason == f"loop limit: more than {g.decisions - 1:,} decisions in one match"


# ---------- tampered logs: replay and resume say what is wrong and where ----------

@pytest.fixture(scope="module")
def good_log(tmp_path_factory) -> list[str]:
    path = tmp_path_factory.mktemp("log") / "good.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        play(MatchSetup("ucb", [], 3, ["random", "random"]), f)
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _decision_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.startswith('{"d"')]


def _edit(lines: list[str], at: int, **changes) -> list[str]:
    record = json.loads(lines[at])
    record.update(changes)
    return [*lines[:at], json.dumps(record, ensure_ascii=False) + "\n", *lines[at + 1:]]


def _tampered(lines: list[str], how: str) -> tuple[list[str], str]:
    """A tampered copy of the log and what the error must say."""
    d = _decision_lines(lines)
    if how == "index":
        return _edit(lines, d[6], i=7), f"line {d[6] + 1}: decision 7 is not an option:"
    if how == "negative":
        return _edit(lines, d[6], i=-1), f"line {d[6] + 1}: a decision's 'i' must be an option's index"
    if how == "deleted":
        return [x for i, x in enumerate(lines) if i != d[5]], "line"
    if how == "swapped":
        out = list(lines)
        out[d[5]], out[d[6]] = out[d[6]], out[d[5]]
        return out, "line"
    header = json.loads(lines[0])
    bad = {"seed-text": ("seed", "3"), "seed-bool": ("seed", True), "agents-text": ("agents", "random"),
           "agents-ints": ("agents", [1, 2]), "decks-map": ("decks", {"a": 1}), "turns": ("turns", 0),
           "version": ("tcg", 2), "ruleset": ("ruleset", 5)}[how]
    header[bad[0]] = bad[1]
    message = "line 1: not a tcg log" if how == "version" else f"line 1: the header's {bad[0]!r} must be"
    return [json.dumps(header) + "\n", *lines[1:]], message


HOW = ["index", "negative", "deleted", "swapped", "seed-text", "seed-bool", "agents-text",
       "agents-ints", "decks-map", "turns", "version", "ruleset"]


@pytest.mark.parametrize("how", HOW)
def test_a_tampered_log_is_refused_by_replay_and_resume(how: str, good_log, tmp_path: Path):
    lines, message = _tampered(good_log, how)
    path = tmp_path / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    ok, why = replay(path)
    assert not ok and message in why, why
    with pytest.raises(TcgError, match=message.split(":")[0]):
        resume(path)
    assert path.read_text(encoding="utf-8") == "".join(lines)  # the log is left as it was
    assert [p.name for p in tmp_path.iterdir()] == ["log.jsonl"]  # and no temporary file


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_mutated_logs_through_replay_and_resume(good_log, tmp_path_factory, data):
    """Any edit of a log: replay explains it and resume either plays on or refuses, never
    raising anything but a TcgError and never changing the log it refuses."""
    lines = list(good_log[: data.draw(st.integers(1, len(good_log)), label="kept lines")])
    for _ in range(data.draw(st.integers(1, 3), label="edits")):
        i = data.draw(st.integers(0, len(lines) - 1), label="line")
        kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "byte", "number"]))
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "byte":
            k = data.draw(st.integers(0, max(len(lines[i]) - 2, 0)))
            lines[i] = lines[i][:k] + data.draw(st.sampled_from('0 9 -"{}[]:,x\\')) + lines[i][k + 1:]
        elif kind == "number":
            lines[i] = lines[i].replace(": 0", f": {data.draw(st.integers(-5, 10**30))}", 1)
    path = tmp_path_factory.mktemp("fuzz") / "log.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    with contextlib.suppress(TcgError):  # (a deck or ruleset that cannot be loaded, as in the CLI)
        assert isinstance(replay(path)[1], str)
    try:
        resume(path)
    except TcgError:
        assert path.read_text(encoding="utf-8") == "".join(lines)
    assert [p.name for p in path.parent.iterdir()] == ["log.jsonl"]


# ---------- nothing lost ----------

def tcg(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, **kw)


def test_resume_with_a_moved_deck_keeps_the_log(tmp_path: Path, capsys):
    deck = tmp_path / "deck.yaml"
    shutil.copy(DECKS / "aka_sokkou.yaml", deck)
    log = tmp_path / "log.jsonl"
    assert main(["play", "ucb", "--deck", str(deck), "--deck", str(deck), "--log", str(log), "--quiet"]) == 0
    kept = log.read_bytes()
    log.write_bytes(kept[: len(kept) // 2])  # interrupted half-way
    half = log.read_bytes()
    deck.rename(tmp_path / "moved.yaml")
    assert main(["play", "--resume", str(log), "--quiet"]) == 2
    assert "cannot read file" in capsys.readouterr()[0]
    assert log.read_bytes() == half
    (tmp_path / "moved.yaml").rename(deck)
    assert main(["play", "--resume", str(log), "--quiet"]) == 0
    assert log.read_bytes() == kept


def test_a_log_is_never_written_over_an_input(tmp_path: Path, capsys):
    deck = tmp_path / "deck.yaml"
    shutil.copy(DECKS / "aka_sokkou.yaml", deck)
    before = deck.read_bytes()
    assert main(["play", "ucb", "--deck", str(deck), "--deck", str(deck), "--log", str(deck)]) == 2
    assert "is an input of this run" in capsys.readouterr()[1]
    assert deck.read_bytes() == before


@pytest.mark.parametrize("where, message", [
    ("missing/log.jsonl", "does not exist"),
    (".", "is a folder"),
    ("/dev/full", "not a regular file"),
    ("/proc/log.jsonl", "cannot write"),
])
def test_unusable_log_paths_are_clear_errors(where: str, message: str, tmp_path: Path, capsys):
    path = where if where.startswith("/") else str(tmp_path / where)
    assert main(["play", "ucb", "--quiet", "--log", path]) == 2
    assert message in capsys.readouterr()[1]


def test_a_full_disk_mid_match_is_a_clear_error(tmp_path: Path, monkeypatch, capsys):
    class Full:
        name = str(tmp_path / "log.jsonl")

        def write(self, text: str) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(outputs, "open_output", lambda path, mode="w": Full())
    assert main(["play", "ucb", "--quiet", "--log", Full.name]) == 2
    assert f"cannot write {Full.name}: No space left on device" in capsys.readouterr()[1]


def _simulate(out: Path, *extra: str) -> int:
    return main(["simulate", "ucb", "--workers", "1", "--quiet", "--out", str(out), *extra])


def test_simulate_out_is_locked_against_a_second_run(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    lock = outputs.lock_folder(out)
    try:
        r = tcg("simulate", "ucb", "--games", "2", "--workers", "1", "--quiet", "--out", str(out))
    finally:
        lock.close()
    assert r.returncode == 2 and "is in use by another run" in r.stderr, r.stderr
    assert not (out / "results.jsonl").exists()


def test_simulate_resume_never_drops_finished_matches(tmp_path: Path, capsys):
    out = tmp_path / "out"
    assert _simulate(out, "--games", "6") == 0
    results = (out / "results.jsonl").read_bytes()
    assert _simulate(out, "--games", "2", "--resume") == 2
    assert "--games 2 would drop 4 of them: give --games 6 or more" in capsys.readouterr()[1]
    assert (out / "results.jsonl").read_bytes() == results
    (out / "run.json").unlink()
    assert _simulate(out, "--games", "8", "--resume") == 2
    assert "no run.json" in capsys.readouterr()[1]
    assert (out / "results.jsonl").read_bytes() == results


def test_simulate_out_that_is_a_file_is_a_clear_error(tmp_path: Path, capsys):
    (tmp_path / "file").write_text("mine\n", encoding="utf-8")
    assert _simulate(tmp_path / "file", "--games", "2") == 2
    assert "exists and is not a folder" in capsys.readouterr()[1]
    assert (tmp_path / "file").read_text(encoding="utf-8") == "mine\n"


def test_logs_module_reads_what_play_writes(good_log, tmp_path: Path):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(good_log), encoding="utf-8")
    log = logs.read(path)
    assert log.header["seed"] == 3 and len(log.steps) == len(_decision_lines(good_log))


# ---------- soak: the real limits, in a child process held to 1 GB ----------

SOAK_CHILD = """
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
sys.path.insert(0, {tests!r})
from pathlib import Path
import test_hostile_runs as t
start = time.perf_counter()
{body}
print(f"{{time.perf_counter() - start:.1f}} s", result.reason)
"""


def _child(body: str, tmp_path: Path) -> str:
    import resource

    code = SOAK_CHILD.format(tests=str(Path(__file__).parent), body=body)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
    print(f"\n{r.stdout.strip()} (peak of the children so far: {peak} MB)")
    return r.stdout


@pytest.mark.soak
def test_soak_retrigger_loop_to_the_real_decisions_limit(tmp_path: Path):
    body = f"""
from interpreter.engine import vm
from interpreter.engine.observe import LazyLabels
from interpreter.run.loading import load_game
from interpreter.run.scenario import build_state
Path({str(tmp_path / "cards.yaml")!r}).write_text(t.RETRIGGER, encoding="utf-8")
game = load_game("ucb", ({str(tmp_path / "cards.yaml")!r},))
g = build_state(game, {{"turn_player": "P1", "turn": 3, "phase": "main", "zones": {{
    "deck@P1": ["見習い剣士"] * 3, "deck@P2": ["見習い剣士"] * 3,
    "battle@P1": ["反響甲", "反響乙"], "hand@P1": ["撹拌"]}}}}, 0)
vm.answer(g, g.decision.options[[i for i, x in enumerate(LazyLabels(g)) if "撹拌" in x][0]])
while g.result is None:
    vm.answer(g, g.decision.options[0])
result = g.result
"""
    assert "more than 100,000 decisions" in _child(body, tmp_path)


@pytest.mark.soak
@pytest.mark.parametrize("rid", files.bundled_ids())
def test_soak_unbounded_work_in_a_bounded_process(rid: str, tmp_path: Path):
    for hostile in ("repeat 1000000000 { shuffle(%s(you)) }", 'create(敵意, %s(you), "up", 1000000000)',
                    "repeat 100000 { repeat 100000 { shuffle(%s(you)) } }",
                    "repeat 300 { repeat 300 { shuffle(%s(you)) } }"):
        body = f"result = t._play_out(t._hostile_game(Path({str(tmp_path)!r}), {rid!r}, {hostile!r})).result"
        assert "loop limit" in _child(body, tmp_path)


@pytest.mark.soak
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_soak_fuzz_mutated_logs(good_log, tmp_path_factory, data):
    test_fuzz_mutated_logs_through_replay_and_resume.hypothesis.inner_test(good_log, tmp_path_factory, data)


@pytest.mark.parametrize("args", [["replay", "/dev/zero"], ["play", "--resume", "/dev/zero"]])
def test_a_device_given_as_a_log_is_refused(args: list[str], capsys):
    assert main(args) == 2
    assert "is not a regular file" in capsys.readouterr()[1]
