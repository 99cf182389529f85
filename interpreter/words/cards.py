"""`tcg cards FILES…`: each card's printed text beside its abilities rendered in words, so a
designer sees where the two disagree."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from interpreter.diagnostics import TcgError
from interpreter.engine.game import Game
from interpreter.lang import parse_ability, parse_body
from interpreter.load import files
from interpreter.load.yamlpos import Doc, load_yaml
from interpreter.run.loading import load_game
from interpreter.words.catalog import say
from interpreter.words.speak import Words, words_for


def card_texts(path: str, lang: str | None = None) -> Iterator[str]:
    """The lines `tcg cards` prints for one card file."""
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    spec = data.get("ruleset")
    if not isinstance(spec, str):
        raise TcgError(f"{path}: a card file names its ruleset (ruleset: ID or a file)")
    beside = Path(path).parent / spec
    game = load_game(str(beside) if beside.is_file() else spec)
    w = words_for(game, lang)
    cards = data.get("cards") or ()
    if not isinstance(cards, list):
        raise TcgError(f"{path}: 'cards' must be a list of cards (tcg check {path} says more)")
    for i, card in enumerate(cards):
        if isinstance(card, dict):
            yield from _card(doc, i, card, game, w)


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
    try:
        return w.render().ability(parse_ability(str(text)))
    except Exception:  # noqa: BLE001 - a text tcg check refuses: said so, not rendered
        return say("does_not_parse", w.lang)


def _effect(w: Words, text: str) -> str:
    try:
        return w.render().body(parse_body(text))
    except Exception:  # noqa: BLE001 - as _ability
        return say("does_not_parse", w.lang)


def bundled_card_files() -> list[Path]:
    """Every bundled game's card files."""
    return [p for rid in files.bundled_ids() for p in files.card_paths(rid, files.ruleset_path(rid))]
