"""A variable spelt like a word of the game (an enum value, a state, a shared zone) would be
read as the word, never as the variable: `tcg check` says so where it is used (issue 35)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "rulesets" / "chance.yaml"  # kind: enum [unit, spell]


def _check(tmp_path: Path, verb: str, action_do: str) -> subprocess.CompletedProcess:
    text = TOY.read_text(encoding="utf-8")
    text = text.replace("verbs:\n", f"verbs:\n{verb}", 1)
    text = text.replace('do: "move(card, field(you))"', f'do: "{action_do}"', 1)
    (tmp_path / "rulesets").mkdir()
    path = tmp_path / "rulesets" / "chance.yaml"
    path.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "interpreter.cli", "check", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_a_verb_parameter_and_a_let_spelt_like_enum_values_are_errors_where_used(tmp_path):
    verb = '  toss:\n    params: {unit: cards}\n    do: "move(unit, discard(unit.owner))"\n'
    run = _check(tmp_path, verb, "let spell = card; move(spell, field(you))")
    assert run.returncode == 1, run.stdout
    errors = [line for line in run.stdout.splitlines() if "error[VARIABLE-WORD]" in line]
    assert len(errors) == 3  # unit twice, spell once, each at its use
    assert "'unit' is both a variable here and an enum value of the game" in errors[0]
    assert ":53:" in run.stdout and "rename the variable" in run.stdout


def test_a_variable_with_a_name_of_its_own_is_clean(tmp_path):
    verb = '  toss:\n    params: {target: cards}\n    do: "move(target, discard(target.owner))"\n'
    run = _check(tmp_path, verb, "let chosen = card; move(chosen, field(you))")
    assert run.returncode == 0, run.stdout
