"""YAML syntax errors: every mutation of a bundled file that breaks it gets one positioned
diagnostic inside the file, never a traceback; the common mistakes are explained."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.diagnostics import DiagnosticError
from interpreter.load.yamlpos import load_text

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "cards").rglob("*.yaml"))


def _mutate(rng: random.Random, text: str) -> str:
    """One typing slip: a quote, a colon or a bracket too many, a colon missing, a line
    indented one space more, a tab, a line cut short."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    line = lines[i]
    j = rng.randrange(len(line) + 1)
    slip = rng.randrange(6)
    if slip == 0:
        line = line[:j] + rng.choice("\"':[]{}*&!|>,#") + line[j:]
    elif slip == 1:
        line = " " + line
    elif slip == 2:
        line = "\t" + line.lstrip(" ")
    elif slip == 3:
        line = line.replace(":", "", 1)
    elif slip == 4:
        line = line[:j]
    else:
        line = line[:j] + ": " + line[j:]
    lines[i] = line
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(4))
def test_broken_yaml_always_gets_a_positioned_diagnostic(seed: int):
    rng = random.Random(seed)
    explained = broken = 0
    for _ in range(150):
        text = _mutate(rng, rng.choice(FILES).read_text(encoding="utf-8"))
        try:
            load_text(text, "slip.yaml")
        except DiagnosticError as e:
            d = e.diagnostics[0]
            if d.code != "YAML":  # well-formed, but refused (a duplicate key, a tag)
                continue
            assert len(e.diagnostics) == 1
            broken += 1
            explained += not d.message.startswith("malformed YAML")
            assert 1 <= d.line <= text.count("\n") + 1 and d.col >= 1, d
            assert d.render().startswith(f"slip.yaml:{d.line}:{d.col}: error[YAML]")
    assert broken >= 30
    assert explained >= broken * 0.6, (explained, broken)  # most slips are put in words
