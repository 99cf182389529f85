"""Reads of a property some text modifies, inline in generated code (compile/exprs.py
modified_source): the printed value while the card has no modifier, else its reader's."""

from __future__ import annotations

from interpreter.compile.exprs import ExprCompiler, modified_source
from interpreter.compile.names import ruleset_names
from interpreter.compile.ruleset import _printed_source
from interpreter.engine import primitives, vm
from interpreter.engine.state import ZoneRef
from interpreter.lang.parser import parse_expr


def _modify(g, cid: int, op: str, amount: int) -> None:
    """A modifier as `modify` adds one (instructions.Modify)."""
    g.clock += 1
    g.mods.append((cid, "power", op, amount, None, g.clock))
    g.version += 1
    g.marks["@mods"] = g.version


def test_a_modified_property_read_inline_follows_its_modifiers(ucb, ucb_decks):
    g = ucb.new_state(ucb_decks, 1, log=False)
    props = list(ucb.ruleset.properties)
    assert "power" in ucb.modified_by(ucb.pool)  # (a static ability of ucb modifies it)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    printed = _printed_source(ucb.ruleset.properties["power"], props.index("power"),
                              ucb.hiding_mask)
    compiler.printed = {"power": modified_source("power", printed)}
    strong = compiler.compile(parse_expr("hand(you) where power >= 3"))
    env = vm.effect_env(g, None, 0)
    hand = g.zones[ZoneRef("hand", 0)]

    def check() -> tuple[int, ...]:
        for index_first in (False, True):  # modifiers indexed for this version or not yet
            if index_first:
                g.get(hand[0], "power")
            else:
                g.version += 1
            found = strong(g, env)
            assert found == tuple(c for c in hand if (g.get(c, "power") or 0) >= 3)
        return found

    weak = next(c for c in hand if g.get(c, "power") < 3)
    before = check()
    assert weak not in before
    _modify(g, weak, "+=", 5)  # while a modifier applies: read through the reader
    assert weak in check()
    _modify(g, weak, "=", 0)  # a later `=`, then the `+=` (the ruleset's order)
    assert weak in check() and g.get(weak, "power") == 5
    _modify(g, weak, "-=", 9)  # clamped at the property's minimum
    assert g.get(weak, "power") == 0 and weak not in check()
    g.mods.clear()  # the modifiers end: the printed value again
    g.version += 1
    g.marks["@mods"] = g.version
    assert check() == before
    primitives.set_state(g, env, (before[0],), "reversed")  # its power cannot be seen now
    assert before[0] not in check()


def test_modifiers_apply_in_the_rulesets_order_whatever_added_them(ucb, ucb_decks, monkeypatch):
    """`=` first, then `+=`, then `-=` (ucb's modifier_order), the oldest first within each:
    a static ability's `=` comes before a `modify`'s `+=` added earlier."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    card = g.zones[ZoneRef("hand", 0)][0]
    # as Game.static_mods finds them on the fast path: (targets, property, modifier)
    statics = [((card,), "power", ("=", 7, 0))]
    monkeypatch.setattr(g.game, "static_mods", lambda g: statics)
    _modify(g, card, "+=", 2)
    assert g.get(card, "power") == 9
    _modify(g, card, "-=", 4)
    assert g.get(card, "power") == 5
    g.mods.clear()
    _modify(g, card, "-=", 3)
    _modify(g, card, "=", 1)  # (a later `=` of `modify` wins over the static's)
    g.version += 1
    statics = [((card,), "power", ("+=", 4, 0)), ((card,), "power", ("=", 7, 0))]
    assert g.get(card, "power") == 1 + 4 - 3


def test_code_made_before_the_printed_properties_were_known_reads_them_inline(ucb, ucb_decks):
    """A function compiled before every card was (a rule's, an ability's) reads the properties
    no text modifies inline from its first call on (ExprCompiler.printed_known), with the
    same values as through their readers."""
    g = ucb.new_state(ucb_decks, 1, log=False)
    compiler = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    costly = compiler.compile(parse_expr("hand(you) where cost >= 2"))
    env = vm.effect_env(g, None, 0)
    hand = g.zones[ZoneRef("hand", 0)]
    through_readers = costly(g, env)
    assert "R" in costly.__code__.co_varnames
    cost = ucb.ruleset.properties["cost"]
    compiler.printed_later["cost"] = _printed_source(
        cost, list(ucb.ruleset.properties).index("cost"), ucb.hiding_mask)
    compiler.printed_known()
    assert costly(g, env) == through_readers == tuple(c for c in hand if g.get(c, "cost") >= 2)
    assert "R" not in costly.__code__.co_varnames and "printed" in costly.__code__.co_names
    primitives.set_state(g, env, (through_readers[0],), "reversed")  # its cost cannot be seen
    assert through_readers[0] not in costly(g, env)
    # an expression about one card (a deck rule's: its `g` is a view of printed cards, no
    # state) reads through the readers it is given
    fresh = ExprCompiler(ruleset_names(ucb.ruleset.raw))
    fresh.compile_card(parse_expr("count(hand(you) where cost >= it.cost) > 0"))
    assert fresh.unread == []
