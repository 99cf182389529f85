"""Ruleset options (`options:`, `--option NAME=CHOICE`) as a user meets them: a choice plays
differently, the log keeps it so that a replay plays the same match, the default changes
nothing, and a wrong name is refused with the ones that exist. The toy is
tests/rulesets/options.yaml; its scenarios (tests/scenarios/options/) test the readings."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from interpreter.run.simulate import make_plan
from tests.conftest import tcg_in_process as tcg

ROOT = Path(__file__).resolve().parents[1]
TOY = "tests/rulesets/options.yaml"


def _play(log: Path, *options: str):
    args = [f"--option={o}" for o in options]
    return tcg("play", TOY, "--seed", "1", "--quiet", "--agents", "first,first", "--log", str(log), *args)


def test_a_choice_is_logged_and_replayed(tmp_path: Path):
    log = tmp_path / "printed.jsonl"
    r = _play(log, "damage=printed", "hand=two")
    assert r.returncode == 0, r.stderr
    header = json.loads(log.read_text("utf-8").splitlines()[0])
    assert header["options"] == {"damage": "printed", "hand": "two"}
    again = tcg("replay", str(log))
    assert again.returncode == 0 and "identical" in again.stdout, again.stdout


def test_the_default_named_logs_as_none_named(tmp_path: Path):
    plain, named = tmp_path / "plain.jsonl", tmp_path / "named.jsonl"
    assert _play(plain).returncode == 0
    assert _play(named, "damage=current", "hand=one").returncode == 0
    assert plain.read_text("utf-8") == named.read_text("utf-8")
    assert "options" not in json.loads(plain.read_text("utf-8").splitlines()[0])


def test_unknown_options_and_choices_are_refused():
    r = tcg("play", TOY, "--option", "damage=printd")
    assert r.returncode == 2 and "has no choice 'printd'" in r.stderr and "did you mean 'printed'" in r.stderr
    r = tcg("play", TOY, "--option", "dmg=printed")
    assert r.returncode == 2 and "no option 'dmg'" in r.stderr and "damage, hand" in r.stderr
    r = tcg("play", TOY, "--option", "damage")
    assert r.returncode == 2 and "NAME=CHOICE" in r.stderr and "Traceback" not in r.stderr


def test_check_reports_a_choice_naming_no_place(tmp_path: Path):
    text = (ROOT / TOY).read_text("utf-8")
    shutil.copytree(ROOT / "tests" / "cards" / "options", tmp_path / "cards" / "options")
    bad = tmp_path / "options.yaml"
    bad.write_text(text.replace("verbs.strike.do:", "verbs.strik.do:"), "utf-8")
    r = tcg("check", str(bad))
    assert r.returncode == 1
    assert "error[OPTION]: option 'damage', choice 'printed': the ruleset has no place 'verbs.strik.do'" \
        in r.stdout


def test_check_compiles_every_choice(tmp_path: Path):
    """A choice no run has picked is compiled too; its error points into the option's text."""
    text = (ROOT / TOY).read_text("utf-8")
    shutil.copytree(ROOT / "tests" / "cards" / "options", tmp_path / "cards" / "options")
    bad = tmp_path / "options.yaml"
    bad.write_text(text.replace('"draw(you, 2)"', '"draw(you, 2"'), "utf-8")
    r = tcg("check", str(bad))
    line = next(i for i, x in enumerate(bad.read_text("utf-8").splitlines(), 1) if '"draw(you, 2"' in x)
    assert r.returncode == 1 and f"options.yaml:{line}:" in r.stdout and "error[SYNTAX]" in r.stdout


def test_simulate_reproduces_with_the_options():
    plan = make_plan(TOY, [], ["first", "first"], 0, 2, options=(("damage", "printed"),))
    line = plan.reproduce({"seats": ["A", "B"], "seed": 0})
    assert line.endswith("--agents first,first --option damage=printed")


def test_simulate_keeps_the_options_and_a_resume_must_name_them(tmp_path: Path):
    out = tmp_path / "run"
    args = ["simulate", TOY, "--games", "2", "--workers", "1", "--agents", "first,first", "--out", str(out)]
    r = tcg(*args, "--option", "damage=printed")
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "run.json").read_text("utf-8"))["options"] == [["damage", "printed"]]
    again = tcg(*args, "--resume")
    assert again.returncode == 2 and "options differ" in again.stderr, again.stderr


def test_check_reads_a_scenario_with_its_options(tmp_path: Path):
    """A decision only the chosen reading offers is no DECISION error; a choice the ruleset
    does not have is an OPTION error at the scenario's `options:`."""
    scenario = ROOT / "tests" / "scenarios" / "manacard" / "option_janken_winner_chooses.yaml"
    assert tcg("check", str(scenario)).returncode == 0
    bad = tmp_path / "zz_option_typo.yaml"
    bad.write_text(scenario.read_text("utf-8").replace("janken: winner_chooses", "janken: winner_choses"),
                   "utf-8")
    r = tcg("check", str(bad))
    assert r.returncode == 1 and "zz_option_typo.yaml:9:1: error[OPTION]" in r.stdout, r.stdout
    assert "did you mean 'winner_chooses'" in r.stdout
