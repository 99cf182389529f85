"""Build a Game from loaded YAML: parse every text, check it, compile it.

Every problem in every file is collected; nothing is compiled unless all is clean.
"""

from __future__ import annotations

from dataclasses import replace

from interpreter.compile.cards import CardBuilder
from interpreter.compile.reads import Reads
from interpreter.compile.ruleset import RulesetBuilder
from interpreter.diagnostics import DiagnosticError
from interpreter.engine.game import Game
from interpreter.engine.model import CardDef, Ruleset, printed_values
from interpreter.load.yamlpos import Doc


def build_game(ruleset_doc: Doc, card_docs: list[Doc], reference: bool = False) -> Game:
    """Compile a ruleset and its card files; raise DiagnosticError listing every problem.
    `reference`: for the reference path (no generated code: engine/kernel.py)."""
    rb = RulesetBuilder(ruleset_doc, reference)
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
    tokens = {}
    for name, props in (ruleset.tokens or {}).items():
        props = dict(props or {})
        tokens[name] = CardDef(next_id, name, props, token=True,
                               printed=printed_values(props, ruleset.properties.values()))
        next_id += 1
    if rb.diags:
        raise DiagnosticError(rb.diags)
    rb.compile_selections(ruleset, [*cards.values(), *tokens.values()])
    modified = frozenset(rb.compiler.modified)
    return Game(ruleset, cards, program, tokens, rules_modify,
                _note_reads(rb, ruleset, modified), reference)


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
