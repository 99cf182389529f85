"""Deck legality from the ruleset's `deck:` section: sizes, copies, lists and card rules."""

from __future__ import annotations

from collections import Counter
from typing import Any

from interpreter.diagnostics import Diagnostic, did_you_mean
from interpreter.engine.game import Game
from interpreter.load.files import Deck


class _Printed:
    """Just enough of a game state for a condition to read printed properties of cards."""

    def __init__(self, game: Game, cards: list) -> None:
        self.props, self.cards = game.ruleset.properties, cards
        self.game = self  # conditions read properties through g.game.readers[prop](g, card)
        self.readers = _PrintedReaders()

    def printed(self, index: int, prop: str) -> Any:
        d = self.cards[index]
        if prop == "name":
            return d.name
        pdef = self.props.get(prop)
        return d.props.get(prop, pdef.default if pdef else None)


class _PrintedReaders(dict):
    def __missing__(self, prop: str):
        return lambda view, index: view.printed(index, prop)


def check_deck(game: Game, deck: Deck) -> list[Diagnostic]:
    rules = game.ruleset.deck or {}
    out = check_deck_names(game, deck)
    sections = rules.get("sections") or {}
    out += _sizes(deck, sections)
    out += _copies(game, deck, rules)
    out += _card_rules(game, deck)
    return out


def check_deck_names(game: Game, deck: Deck) -> list[Diagnostic]:
    """The sections and cards a deck names that the game does not have (all that can be
    checked of a deck whose structure is wrong: its sizes and copies would mislead)."""
    doc, out = deck.doc, []
    sections = (game.ruleset.deck or {}).get("sections") or {}
    for section, names in deck.sections.items():
        if section not in sections:
            known = f"sections: {', '.join(sections)}" if sections else \
                "the ruleset defines no deck sections"
            out.append(doc.key_diag((section,), "DECK-SECTION",
                                    f"unknown deck section {section!r}",
                                    did_you_mean(section, sections) or known))
            continue
        for name in dict.fromkeys(names):
            if name not in game.cards:
                out.append(doc.key_diag((section, name), "UNKNOWN-CARD",
                                        f"unknown card {name!r}", did_you_mean(name, game.cards)))
    return out


def _sizes(deck: Deck, sections: dict) -> list[Diagnostic]:
    out = []
    for section, spec in sections.items():
        n = len(deck.sections.get(section, ()))
        lo, hi = spec.get("min", 0), spec.get("max")
        if n < lo or (hi is not None and n > hi):
            want = f"exactly {lo}" if lo == hi else f"{lo}–{hi if hi is not None else '∞'}"
            out.append(deck.doc.diag((section,), "DECK-SIZE",
                                     f"{section} has {n} cards; it must have {want}",
                                     ref=spec.get("ref", "")))
    return out


def _copies(game: Game, deck: Deck, rules: dict) -> list[Diagnostic]:
    copies = rules.get("copies") or {}
    limit, own = copies.get("max"), copies.get("property")
    allowed = {**(rules.get("restricted") or {}), **{n: 0 for n in rules.get("banned") or ()}}
    counts = Counter(n for names in deck.sections.values() for n in names)
    out = []
    for name, n in counts.items():
        cap = allowed.get(name, limit)
        card = game.cards.get(name)
        if name not in allowed and own and card is not None and card.props.get(own) is not None:
            cap = max(cap or 0, card.props[own])  # the card's text allows more copies
        if cap is not None and n > cap and name not in (copies.get("except") or ()):
            section = next(s for s, names in deck.sections.items() if name in names)
            out.append(_too_many(deck, section, name, n, cap, copies.get("ref", "")))
    for section, spec in (rules.get("sections") or {}).items():
        cap = (spec or {}).get("copies")
        for name, n in Counter(deck.sections.get(section, ())).items():
            if cap is not None and n > cap:
                out.append(_too_many(deck, section, name, n, cap, spec.get("ref", ""),
                                     f" in {section}"))
    return out


def _too_many(deck: Deck, section: str, name: str, n: int, cap: int, ref: str,
              where: str = "") -> Diagnostic:
    return deck.doc.diag((section, name), "DECK-COPIES",
                         f"{n} copies of {name!r}{where}; at most {cap} allowed", ref=ref)


def _card_rules(game: Game, deck: Deck) -> list[Diagnostic]:
    """How many cards match each rule's `where` (in the whole deck, or in its `section(s)`),
    the `total` of a property over them, or (`count: names`) how many names — overall or
    `per` group; with `copies`, how many copies of each such name."""
    out = []
    for rule, cond in game.ruleset.deck_rules:
        sections = rule.get("sections") or ([rule["section"]] if "section" in rule else list(deck.sections))
        names = [n for s in sections for n in deck.sections.get(s, ()) if n in game.cards]
        view = _Printed(game, [game.cards[n] for n in names])
        matching = [i for i in range(len(names)) if cond(view, {"it": i})]
        code, message = f"DECK-{rule.get('id', 'RULE')}", rule.get("message", rule["where"])
        at = (rule["section"],) if rule.get("section") in deck.sections else ()
        for group, n in _measure(rule, view, names, matching):
            if n > rule.get("max", n) or n < rule.get("min", n):
                what = f"a total {rule['total']} of {n}" if "total" in rule else str(n)
                among = f" among cards with {rule['per']} {group!r}" if "per" in rule else ""
                out.append(deck.doc.diag(at, code, f"{message} (this deck has {what}{among})",
                                         ref=rule.get("ref", "")))
        if "copies" in rule:
            out += _rule_copies(deck, rule, code, message, sections,
                                [names[i] for i in matching])
    return out


def _measure(rule: dict, view: _Printed, names: list[str], matching: list[int]) -> list[tuple[Any, int]]:
    """The rule's measure for each group (one group without `per`): cards, distinct names,
    or the total of a property over the matching cards."""
    groups: dict[Any, list[int]] = {}
    for i in matching:
        key = view.printed(i, rule["per"]) if "per" in rule else None
        groups.setdefault(key, []).append(i)
    if not groups and "per" not in rule:
        groups[None] = []
    out = []
    for key, members in groups.items():
        if "total" in rule:
            n = sum(view.printed(i, rule["total"]) or 0 for i in members)
        elif rule.get("count") == "names":
            n = len({names[i] for i in members})
        else:
            n = len(members)
        out.append((key, n))
    return out


def _rule_copies(deck: Deck, rule: dict, code: str, message: str, sections: list[str],
                 names: list[str]) -> list:
    """A rule's `copies`: at most that many of each name among the cards it matched."""
    out = []
    for name, k in Counter(names).items():
        if k > rule["copies"]:
            section = next(s for s in sections if name in deck.sections.get(s, ()))
            out.append(deck.doc.diag((section, name), code, f"{message} ({k} copies of {name!r})",
                                     ref=rule.get("ref", "")))
    return out
