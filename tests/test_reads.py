"""What kept values read (compile/reads.py): a state rule is asked again, and the static
modifiers computed again, only after a change on a channel they read. That kept values are
never stale is tests/test_engine.py::test_kept_values_are_never_stale; here, that they are
kept where nothing they read changed, and never when a read cannot be tracked."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.compile.names import ruleset_names
from interpreter.compile.reads import Reads
from interpreter.compile.texts import parse_text
from interpreter.engine import primitives, vm


@pytest.fixture(scope="module")
def kannagi():
    return interpreter.load_game("kannagi")


def test_what_kannagi_state_rules_read(kannagi):
    reads = dict(zip((r.id for r in kannagi.ruleset.state_rules), kannagi.rule_reads,
                     strict=True))
    # 力 is power (modified by statics, which read the zones where abilities work) less 傷
    assert {"field", "counter:傷", "@mods"} <= set(reads["POWER_ZERO"])
    assert reads["LOST_HOST"] == ("@host", "possessions")
    assert reads["KAMI"] == ("field",)  # printed attributes and names
    for rule_reads in reads.values():  # a draw or a card put into the hand wakes none of them
        assert not {"deck", "hand"} & set(rule_reads)


def test_a_draw_keeps_what_was_found(kannagi):
    g = kannagi.new_state(interpreter.default_decks(kannagi), 1, log=False)
    rng = random.Random(1)
    # until the state rules have just found nothing, with a card on the turn player's field
    while g.rules_at != g.version or not g.zones[g.zone_key("field", g.turn_player)]:
        vm.answer(g, rng.choice(g.decision.options))
    statics = kannagi.static_mods(g)
    clean, p = g.rules_at, g.turn_player
    primitives.move(g, {}, g.zones[g.zone_key("deck", p)][0], g.zone_key("hand", p))
    assert g.version > clean
    assert all(g.unchanged(clean, reads) for reads in kannagi.rule_reads)
    assert kannagi.static_mods(g) is statics
    primitives.change(g, {}, g.zones[g.zone_key("field", p)], "傷", 1)
    assert not g.unchanged(clean, kannagi.rule_reads[0])  # POWER_ZERO looks again


def test_the_state_rules_asked_again_are_those_a_change_reached(kannagi):
    """vm._fire_state_rules asks only the rules whose reads changed since they last found
    nothing (all of them in a state never checked; an untracked rule every time)."""
    rules = kannagi.ruleset.state_rules
    marks = dict.fromkeys(kannagi.read_channels, 3)

    def asked(since: int = 3, changed=kannagi.rules_changed) -> list[str]:
        return [r.id for r in changed(marks, since)]

    assert asked() == []
    assert asked(-1) == [r.id for r in rules]
    marks["possessions"] = 4
    assert asked() == ["LOST_HOST"]
    marks["field"] = 4
    assert asked() == ["POWER_ZERO", "LOST_HOST", "SEASON_LEFT", "KAMI"]
    untracked = vm.rules_changed(((rules[0], None), (rules[1], ())))
    assert asked(5, untracked) == ["POWER_ZERO"]


@pytest.mark.parametrize("text", ["count(field(you) where playable(it)) > 0", "random(6) == 1"])
def test_a_read_the_engine_cannot_follow_is_never_kept(kannagi, text):
    names = ruleset_names(kannagi.ruleset.raw)
    reads = Reads(names, kannagi.modified_by(kannagi.pool), {}, frozenset(), frozenset())
    assert reads.of(parse_text("expr", text)) is None
    assert reads.of(parse_text("expr", "count(field(you) where power > 2) > 0")) is not None
