"""Finding and loading the files of a game: ruleset, card sets, decks."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.load.yamlpos import Doc, load_yaml

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"


def default_ruleset() -> str:
    """The bundled ruleset a front end opens when it is given none (the README's quick
    start): named in rulesets/DEFAULT, data as the games are, else the first bundled one."""
    try:
        return (RULESETS / "DEFAULT").read_text(encoding="utf-8").strip()
    except OSError:
        return bundled_ids()[0]


def bundled_ids() -> list[str]:
    """Rulesets are rulesets/<id>.yaml; files beside them named <id>.<part>.yaml (a forbid
    list) belong to a ruleset and are not rulesets themselves."""
    return sorted(p.stem for p in RULESETS.glob("*.yaml") if "." not in p.stem)


def ruleset_path(spec: str) -> Path:
    """A ruleset given by bundled id (rulesets/<id>.yaml) or by path."""
    path = Path(spec)
    if path.is_file():
        return path
    bundled = RULESETS / f"{spec}.yaml"
    if bundled.is_file():
        return bundled
    hint = did_you_mean(spec, bundled_ids()) or f"bundled rulesets: {', '.join(bundled_ids())}"
    raise DiagnosticError([Diagnostic(spec, 1, 1, "NO-RULESET",
                                      f"no ruleset file or bundled id {spec!r}", hint)],
                          unusable=True)


def card_paths(ruleset_id: str, ruleset_file: Path) -> list[Path]:
    """The card sets that belong to a ruleset: cards/<id>/*.yaml beside its rulesets folder."""
    folder = ruleset_file.resolve().parent.parent / "cards" / ruleset_id
    return sorted(folder.glob("*.yaml"))


def card_names_beside(ruleset_doc: Doc) -> set[str]:
    """The card names of the card sets that belong to a ruleset (see card_paths), read but
    not compiled: what its pools and texts may name when it is checked on its own. A file
    that cannot be read adds none (it is reported when checked itself)."""
    path = Path(ruleset_doc.path)
    rid = str(ruleset_doc.data.get("id", path.stem))
    names: set[str] = set()
    for p in card_paths(rid, path):
        try:
            data = load_yaml(p).data
        except DiagnosticError:
            continue
        cards = data.get("cards") if isinstance(data, dict) else None
        if isinstance(cards, list):
            names.update(str(c["name"]) for c in cards if isinstance(c, dict) and "name" in c)
    return names


def deck_paths(ruleset_id: str, ruleset_file: Path) -> list[Path]:
    folder = ruleset_file.resolve().parent.parent / "cards" / ruleset_id / "decks"
    return sorted(folder.glob("*.yaml"))


@dataclass
class Deck:
    doc: Doc
    name: str
    sections: dict[str, list[str]]


MAX_DECK = 1_000  # cards in one deck file (the bundled games play 40 to 60)


def load_deck(path: str | Path) -> Deck:
    return deck_of(load_yaml(path))


def deck_of(doc: Doc) -> Deck:
    """The deck a loaded deck file lists."""
    data = doc.data if isinstance(doc.data, dict) else {}
    _check_deck_size(doc, data)
    sections = {k: [name for name, n in v.items() for _ in range(n if isinstance(n, int) else 0)]
                for k, v in data.items() if isinstance(v, dict)}
    return Deck(doc, str(data.get("name", Path(doc.path).stem)), sections)


def _check_deck_size(doc: Doc, data: dict) -> None:
    """Refuse a deck too large to lay out, before its sections are expanded card by card."""
    total = 0
    for section, entries in data.items():
        if not isinstance(entries, dict):
            continue
        for name, n in entries.items():
            total += n if isinstance(n, int) and n > 0 else 0
            if total > MAX_DECK:
                raise DiagnosticError([doc.diag((section, name), "DECK-TOO-LARGE",
                                                f"the deck holds more than {MAX_DECK:,} cards",
                                                "no game is played with decks this large")])
