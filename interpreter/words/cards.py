"""`tcg cards FILES…`: each card's printed text beside its abilities rendered in words, so a
designer sees where the two disagree."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from interpreter.check.files import kind_of
from interpreter.diagnostics import DiagnosticError, TcgError, did_you_mean
from interpreter.engine.game import Game
from interpreter.lang import parse_ability, parse_body
from interpreter.load import files
from interpreter.load.yamlpos import Doc, load_yaml
from interpreter.run.loading import load_game
from interpreter.words.catalog import say
from interpreter.words.speak import Words, words_for


def card_texts(path: str, lang: str | None = None,
               rulesets: dict[str, str] | None = None) -> Iterator[str]:
    """The lines `tcg cards` prints for one card file. `rulesets`: the ruleset files given
    beside it, by id, for a card file that names its ruleset by id (as `tcg check` takes them)."""
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    game = load_game(_ruleset_of(doc, data, rulesets or {}))
    w = words_for(game, lang)
    cards = data.get("cards") or ()
    if not isinstance(cards, list):
        raise TcgError(f"{path}: 'cards' must be a list of cards (tcg check {path} says more)")
    for i, card in enumerate(cards):
        if isinstance(card, dict):
            yield from _card(doc, i, card, game, w)


def given_files(paths: list[str]) -> tuple[dict[str, str], list[str]]:
    """The files given to `tcg cards` split into rulesets (by id) and card files; a ruleset
    given alone stands for its card sets (cards/ID/*.yaml beside its folder)."""
    rulesets: dict[str, str] = {}
    cards: list[str] = []
    for path in paths:
        doc = load_yaml(path)
        if kind_of(doc) != "ruleset":
            cards.append(path)
            continue
        rid = str(doc.data.get("id", Path(path).stem))
        rulesets[rid] = path
    if not cards:
        cards = [str(p) for rid, path in rulesets.items() for p in files.card_paths(rid, Path(path))]
    return rulesets, cards


def _ruleset_of(doc: Doc, data: dict, rulesets: dict[str, str]) -> str:
    """The ruleset a card file names, found as `tcg check` finds it: a file beside it, a
    ruleset given by id, a bundled id."""
    spec = data.get("ruleset")
    if not isinstance(spec, str):
        raise TcgError(f"{doc.path}: a card file names its ruleset (ruleset: ID or a file)")
    beside = Path(doc.path).parent / spec
    if beside.is_file():
        return str(beside)
    if spec in rulesets:
        return rulesets[spec]
    if spec in files.bundled_ids():
        return spec
    raise DiagnosticError([doc.key_diag(
        ("ruleset",), "NO-RULESET",
        f"no ruleset {spec!r}: not a file beside {Path(doc.path).name}, nor a ruleset given "
        f"(given: {', '.join(rulesets) or 'none'}), nor a bundled id",
        did_you_mean(spec, [*rulesets, *files.bundled_ids()])
        or f"give the ruleset file first: tcg cards RULESET.yaml {doc.path}")], unusable=True)


def _card(doc: Doc, i: int, card: dict, game: Game, w: Words) -> Iterator[str]:
    line, _col = doc.pos(("cards", i))
    yield f"{doc.path}:{line}: {card.get('name', '?')}"
    yield f"  {say('printed', w.lang)}: {card.get('text') or '-'}"
    abilities = card.get("abilities") or []
    rendered = [_ability(w, a.get("text") if isinstance(a, dict) else a)
                for a in (abilities if isinstance(abilities, list) else [abilities])]
    if isinstance(card.get("effect"), str):
        rendered.append(_effect(w, card["effect"]))
    for text in rendered or ["-"]:
        yield f"  {say('rendered', w.lang)}: {text}"


def _ability(w: Words, text: object) -> str:
    return _said(w, lambda: parse_ability(str(text)), w.render().ability)


def _effect(w: Words, text: str) -> str:
    return _said(w, lambda: parse_body(text), w.render().body)


def _said(w: Words, parse: Callable[[], Any], render: Callable[[Any], str]) -> str:
    """A text in words; a text tcg check refuses is said so, and a text that parses but the
    words cannot say is told apart from it (it is tcg's gap, not the writer's mistake)."""
    try:
        tree = parse()
    except TcgError:
        return say("does_not_parse", w.lang)
    try:
        return render(tree)
    except Exception:  # noqa: BLE001 - a gap in the words must not stop the listing
        return say("cannot_say", w.lang)


def bundled_card_files() -> list[Path]:
    """Every bundled game's card files."""
    return [p for rid in files.bundled_ids() for p in files.card_paths(rid, files.ruleset_path(rid))]
