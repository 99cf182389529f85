"""Load a whole game (ruleset + its card sets) with every diagnostic collected."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from interpreter.compile.build import build_game
from interpreter.diagnostics import DiagnosticError
from interpreter.engine.game import Game
from interpreter.load import files, options
from interpreter.load.yamlpos import load_yaml


def validate(doc, kind: str) -> list:
    from interpreter.load.schema import validate as schema_validate

    return schema_validate(doc, kind)


@cache
def load_game(spec: str, extra_cards: tuple[str, ...] = (), reference: bool = False,
              chosen: options.Chosen = ()) -> Game:
    """A bundled id or ruleset path -> compiled Game. Raises DiagnosticError. `reference`: a
    game that runs on the reference path (the VM and engine/kernel.py, no generated code),
    whose logs are byte-identical to the fast path's. `chosen`: the ruleset's options picked
    (options.normalize), applied before anything is compiled."""
    path = files.ruleset_path(spec)
    doc = load_yaml(path)
    problems = validate(doc, "ruleset") or options.check(doc)
    if problems:
        raise DiagnosticError(problems)
    if chosen:
        doc = options.apply(doc, chosen)
        problems = validate(doc, "ruleset")
        if problems:
            raise DiagnosticError(problems)
    rid = doc.data.get("id", Path(path).stem)
    card_docs = []
    for p in [*files.card_paths(rid, path), *map(Path, extra_cards)]:
        cdoc = load_yaml(p)
        problems += validate(cdoc, "cards")
        card_docs.append(cdoc)
    if problems:
        raise DiagnosticError(problems)
    game = build_game(doc, card_docs, reference)
    game.source = str(path)
    return game


def chosen_options(spec: str, chosen: dict[str, str], where: str = "") -> options.Chosen:
    """`--option` / a scenario's `options:` checked against the ruleset's (TcgError)."""
    if not chosen:
        return ()
    return options.normalize(load_yaml(files.ruleset_path(spec)).data, chosen, where)
