"""Errors of the front half of the pipeline (lang, load, check, compile) derive from TcgError:
bad input never escapes as a library's or Python's own exception."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

from interpreter.check.forbid_query import parse_query
from interpreter.cli import main
from interpreter.diagnostics import TcgError
from interpreter.lang.parser import ParseError, parse_expr

HUGE = "7" * 5000  # past int()'s 4,300 digits, and the languages' own limit


def test_every_error_class_of_the_front_half_is_under_the_root() -> None:
    errors = []
    for name in ("lang", "load", "check", "compile"):
        package = importlib.import_module(f"interpreter.{name}")
        for module in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            errors += [v for v in vars(importlib.import_module(module.name)).values()
                       if isinstance(v, type) and issubclass(v, BaseException)
                       and v.__module__ == module.name]
    assert ParseError in errors
    # a private class is a signal caught where it is raised (reads._Untracked), not an error
    assert [e for e in errors if not issubclass(e, TcgError) and not e.__name__.startswith("_")] == []


@pytest.mark.parametrize("parse, text, col", [
    (parse_expr, f"1 + {HUGE}", 5),
    (parse_query, f"per card: count(ability) > {HUGE}", 28),
])
def test_a_number_too_long_for_python_is_a_positioned_parse_error(parse, text: str, col: int) -> None:
    with pytest.raises(ParseError, match="number has 5,000 digits") as info:
        parse(text)
    assert (info.value.line, info.value.col) == (1, col)


def test_check_reports_a_number_too_long_as_a_diagnostic(tmp_path: Path, capsys) -> None:
    cards = tmp_path / "cards.yaml"
    cards.write_text(f"ruleset: ucb\ncards:\n  - name: Big\n    kind: character\n    cost: 1\n"
                     f"    power: 2\n    effect: \"draw(you, {HUGE})\"\n", encoding="utf-8")
    code = main(["check", str(cards)])
    out, err = capsys.readouterr()
    assert code == 1
    assert f"{cards}:7:24: error[LIMIT]: number has 5,000 digits; the limit is 18" in out
    assert "internal error" not in out + err
