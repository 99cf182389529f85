"""Build a Game from loaded YAML: parse every text, check it, compile it.

Every problem in every file is collected; nothing is compiled unless all is clean.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from interpreter.compile.cards import CardBuilder
from interpreter.compile.creates import CreatesReader
from interpreter.compile.reads import Reads
from interpreter.compile.ruleset import RulesetBuilder
from interpreter.diagnostics import DiagnosticError, did_you_mean
from interpreter.engine.game import Game
from interpreter.engine.model import CardDef, Ruleset
from interpreter.load.yamlpos import Doc


def build_game(ruleset_doc: Doc, card_docs: list[Doc], reference: bool = False,
               known_cards: Iterable[str] = ()) -> Game:
    """Compile a ruleset and its card files; raise DiagnosticError listing every problem.
    `reference`: for the reference path (no generated code: engine/kernel.py). `known_cards`:
    names of cards not given that the ruleset's texts and pools may name (a ruleset checked
    without its card sets)."""
    rb = RulesetBuilder(ruleset_doc, reference)
    # every text may `create` a card by name: the checker knows them before reading any text
    rb.names.cards = {*known_cards, *_card_names(card_docs)}
    rb.texts = CreatesReader(ruleset_doc, rb.names, rb.diags, rb.compiler)
    ruleset, program = rb.build()
    # cards' texts call inline verbs through vm.call_verb, and read properties through readers:
    # run a few times a match each, an inline copy would cost more to compile (at its first
    # run) than it saves
    rb.compiler.inlinable.clear()
    rb.compiler.exprs.inline_later = False
    rules_modify = frozenset(rb.compiler.modified)  # what the ruleset's own code modifies
    cards: dict[str, CardDef] = {}
    defined: dict[str, CardBuilder] = {}
    next_id = 0
    for doc in card_docs:
        builder = CardBuilder(rb, doc, next_id)
        built = builder.build()
        next_id = builder.next_id
        for name, d in built.items():
            if name in cards:
                first = defined[name]
                rb.diags.append(doc.diag(
                    builder.where(name), "DUPLICATE-CARD",
                    f"card {name!r} is defined in more than one file",
                    "rename one of them, or give only one of the files").with_related(
                        first.doc.related(first.where(name), "first defined here")))
            cards[name] = d
            defined.setdefault(name, builder)
    tokens = CardBuilder(rb, ruleset_doc, next_id).tokens(ruleset.tokens or {})
    _check_delayed(rb)
    ruleset.delayed_events = frozenset(rb.compiler.delayed_events)
    _check_pools(rb, ruleset, rb.names.cards)
    _check_token_names(rb, tokens, cards, defined)
    if any(d.severity == "error" for d in rb.diags):
        raise DiagnosticError(rb.diags)
    rb.compile_selections(ruleset, [*cards.values(), *tokens.values()])
    modified = frozenset(rb.compiler.modified)
    game = Game(ruleset, cards, program, tokens, rules_modify,
                _note_reads(rb, ruleset, modified), reference, rb.texts.creates)
    game.warnings = list(rb.diags)  # (warnings only: they do not stop a match)
    return game


def _check_delayed(rb: RulesetBuilder) -> None:
    """A delayed trigger becomes an ability of the card whose text sets it up: the ruleset's
    own texts (verbs, actions, phases) have no card to hold one."""
    for at, _span in rb.compiler.misplaced:
        rb.diags.append(rb.doc.diag(at or (), "DELAYED",
                                    "a delayed trigger (`at next ...`) is set up by a card's text",
                                    "write it in the card's effect or ability"))


def _card_names(card_docs: list[Doc]) -> set[str]:
    return {str(c["name"]) for doc in card_docs for c in doc.data.get("cards") or ()
            if isinstance(c, dict) and "name" in c}


def _check_pools(rb: RulesetBuilder, ruleset: Ruleset, names: set[str]) -> None:
    """A pool's cards are cards of the card sets (checked as a deck's names are)."""
    for pool in ruleset.pools:
        for name in dict.fromkeys(pool.cards):
            if name not in names:
                rb.diags.append(rb.doc.key_diag(
                    ("pools", pool.name, "cards", name), "UNKNOWN-CARD",
                    f"unknown card {name!r} in pool {pool.name!r}",
                    did_you_mean(name, names) or "pools hold cards of the card sets"))


def _check_token_names(rb: RulesetBuilder, tokens: dict[str, CardDef],
                       cards: dict[str, CardDef], defined: dict[str, CardBuilder]) -> None:
    """`create` finds what it makes by name: a token may not share a card's."""
    for name in tokens.keys() & cards.keys():
        first = defined[name]
        rb.diags.append(rb.doc.key_diag(
            ("tokens", name), "DUPLICATE-CARD",
            f"token {name!r} has the name of a card: `create({name!r})` could mean either",
            "rename the token").with_related(first.doc.related(first.where(name), "the card")))


def _note_reads(rb: RulesetBuilder, ruleset: Ruleset,
                modified: frozenset[str]) -> frozenset[str] | None:
    """What the state rules, the win/loss rules and the heuristic read (compile/reads.py), noted
    on the ruleset; returned: what the static abilities read."""
    reads = Reads(rb.names, modified, rb.formula_trees,
                  frozenset(s.name for s in ruleset.states.values() if s.hides_properties),
                  frozenset(p.name for p in ruleset.properties.values() if p.always_known))
    for kind, trees in (("state_rules", rb.rule_trees), ("end_rules", rb.end_trees)):
        setattr(ruleset, kind, tuple(replace(rule, reads=reads.of(tree)) for rule, tree
                                     in zip(getattr(ruleset, kind), trees, strict=True)))
    ruleset.heuristic_reads = reads.of(*rb.heuristic_trees)
    return reads.of(*rb.static_trees)
