"""Game: a compiled ruleset plus its card pool; makes fresh match states."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from interpreter.diagnostics import TcgError
from interpreter.engine import chance, kernel, limits, observe, vm
from interpreter.engine.instructions import CallFromEnv, Speed, Together, verb_speeds
from interpreter.engine.model import CardDef, PropDef, Ruleset
from interpreter.engine.ordering import OrderTriggers
from interpreter.engine.primitives import flippers, movers, numbers, setters
from interpreter.engine.state import (
    CARD_READERS,
    STATICS,
    STATICS_PENDING,
    Frame,
    GameOver,
    GameState,
    ZoneRef,
)


class Game:
    """Everything immutable about a match: rules, cards, and tables derived from them."""

    # the engine's entry points GameState's public API calls (state.py imports neither)
    answer = staticmethod(vm.answer)
    finish = staticmethod(vm.finish)
    label = staticmethod(observe.label)
    option_kind = staticmethod(observe.option_kind)
    option_cards = staticmethod(observe.option_cards)
    observation = staticmethod(observe.observation)
    determinize = staticmethod(observe.determinize)

    def __init__(self, ruleset: Ruleset, cards: dict[str, CardDef], program: tuple,
                 tokens: dict[str, CardDef], rules_modify: frozenset[str] = frozenset(),
                 static_reads: frozenset[str] | None = None, reference: bool = False,
                 creates: frozenset[str] | None = frozenset()) -> None:
        # the reference path: the kernel's functions, no code generated per game (see kernel)
        self.reference = reference
        self.source = ""  # the ruleset file it was loaded from (run/loading.py)
        self.rules_modify = rules_modify  # properties the ruleset's own code modifies
        self.ruleset = ruleset
        # (see vm.check_end) under `state_checks: priority` asked by engine/priority.py only
        deferred = ruleset.state_checks == "priority"
        self.end_check = None if deferred else ruleset.end_check
        self.priority_check = ruleset.end_check if deferred else None
        self.cards = cards
        self.tokens = tokens
        # what `create` makes, by name: the ruleset's tokens and the cards of its card sets
        self.creatable = _Creatable({**cards, **tokens})
        self.ruleset_creates = creates  # what the ruleset's own texts create (see for_cards)
        self.warnings: list = []  # the builder's warnings (diagnostics), for tcg check
        self.pool_names = frozenset(n for p in ruleset.pools for n in p.cards)
        self.program = program
        self.order_code = (OrderTriggers(),)
        self.close_together = (Together(False),)  # (see vm._start_together)
        self.call_code = (CallFromEnv(),)
        self.offer_codes: dict[str, tuple] = {}  # see primitives.offer
        self.visibility = {name: z.visibility for name, z in ruleset.zones.items()}
        self.ability_zone_set = frozenset(ruleset.ability_zones)  # where abilities work by default
        pool = [*cards.values(), *tokens.values()]
        # a waiting ability remembers its card's zone and place in play order: when the
        # ruleset's `triggers` need them, or some ability says for itself that it does not
        # resolve once its card has left play
        self.remembers = ruleset.triggers.remembers or any(
            a.left_play == "skip" for d in pool for a in d.abilities)
        self._where_abilities_work(pool)
        self.hiding_mask = sum(1 << s.index for s in ruleset.states.values() if s.hides_properties)
        self.disabling_mask = sum(1 << s.index for s in ruleset.states.values()
                                  if s.disables_abilities)
        self.clear_masks: dict[str, int] = {}
        self.clear_marks: dict[str, tuple[str, ...]] = {}  # the channels a clear changes
        self.state_ends: dict[str, str] = {}  # state -> phase | turn, for states that end so
        for s in ruleset.states.values():
            if s.clear:
                until = self.state_ends[s.name] = s.clear.removesuffix("_end")
                self.clear_masks[until] = self.clear_masks.get(until, 0) | 1 << s.index
                self.clear_marks[until] = (*self.clear_marks.get(until, ()), f"state:{s.name}")
        self.state_marks = {name: f"state:{name}" for name in ruleset.states}
        self.op_rank = {op: i for i, op in enumerate(ruleset.modifier_order)}
        self._channels(static_reads)
        n = ruleset.players  # read-only environments for rules about each player
        self.opponent = tuple((p + 1) % n for p in range(n))  # (GameState.other, no call)
        self.player_envs: tuple[dict[str, Any], ...] = tuple(
            {"player": p, "you": p, "opponent": (p + 1) % n, "self": None} for p in range(n))
        # every zone of a match, in the ruleset's order, and each player's starting resources
        self.zone_refs = tuple(ZoneRef(name, p) for name, zdef in ruleset.zones.items()
                               for p in ((-1,) if zdef.shared else range(n)))
        self.initial_res = {k: v.get("initial", 0) for k, v in ruleset.resources.items()}
        self.field_types = dict(_ENGINE_FIELD_TYPES)
        for verb in ruleset.verbs.values():
            self.field_types.update(zip(verb.params, verb.types, strict=False))
        self._index_abilities(pool)
        self.readers = self._readers(pool)
        self._narrowed: dict[frozenset[str], Game] = {}

    def for_cards(self, names: Iterable[str]) -> Game:
        """This game narrowed to a match holding only the cards `names`, the pools' cards, the
        tokens and what they can create (`held`): the abilities of cards outside the match
        are never looked for. A pool of hundreds of cards then costs a match of forty cards
        nothing (its events are heard by no one, no card of it can forbid or replace a
        verb...). The pool's compiled code and change channels are kept: they stay right,
        being made for more cards."""
        key = frozenset(names)
        game = self._narrowed.get(key)
        if game is None:
            game = self._narrowed[key] = copy.copy(self)
            held = self.held(key)
            pool = [*(d for d in self.cards.values() if held is None or d.name in held),
                    *self.tokens.values()]
            game._where_abilities_work(pool)
            game._index_abilities(pool)
            game.readers = game._readers(pool)
        return game

    def held(self, names: Iterable[str]) -> frozenset[str] | None:
        """The names of the cards a match dealt `names` can hold: those, the pools' cards and
        what the ruleset's texts, the tokens and any of these cards can `create`, and so on;
        None when some text creates a name known only as it runs (any card)."""
        if self.ruleset_creates is None:
            return None
        held: set[str] = set()
        todo = [*names, *self.pool_names, *self.ruleset_creates, *self.tokens]
        while todo:
            name = todo.pop()
            if name in held:
                continue
            held.add(name)
            d = self.creatable.get(name)
            if d is not None:
                if d.creates is None:
                    return None
                todo.extend(d.creates)
        return frozenset(held)

    def _where_abilities_work(self, pool: list[CardDef]) -> None:
        own_zones = {z for d in pool for a in d.abilities if a.zones for z in a.zones}
        self.zoned = bool(own_zones)  # some ability says where it works (`in hand: ...`)
        self.scan_zone_set = self.ability_zone_set | own_zones
        zones = self.ruleset.zones
        self.ability_refs = tuple(
            ZoneRef(z, -1) if zones[z].shared else ZoneRef(z, p)
            for z in sorted(self.scan_zone_set, key=list(zones).index)
            for p in range(1 if zones[z].shared else self.ruleset.players))
        # where abilities work by default: the board score() counts
        self.board_refs = tuple(r for r in self.ability_refs if r.name in self.ability_zone_set)

    def _channels(self, static_reads: frozenset[str] | None) -> None:
        """What the static modifiers, the state rules, the win/loss rules and the heuristic
        read (compile/reads.py), as change channels (None: untracked); the static modifiers
        also change when the cards whose abilities work do."""
        live = {*self.scan_zone_set, "@host"}  # (an attachment moves its card's stamp)
        live.update(f"state:{s.name}" for s in self.ruleset.states.values()
                    if s.disables_abilities)
        self.static_reads = None if static_reads is None \
            else tuple(sorted(static_reads - {STATICS} | live))

        def expand(reads: frozenset[str] | None) -> tuple[str, ...] | None:
            if reads is None or STATICS in reads and self.static_reads is None:
                return None
            return tuple(sorted(reads - {STATICS} | set(self.static_reads or ()))) \
                if STATICS in reads else tuple(sorted(reads))

        self.rule_reads = tuple(expand(r.reads) for r in self.ruleset.state_rules)
        self.rules_with_reads = tuple(zip(self.ruleset.state_rules, self.rule_reads, strict=True))
        # see vm._fire_state_rules; the reference path asks every rule each time (asking only
        # those whose reads changed is the fast path's optimisation)
        self.rules_changed = kernel.every_rule(self.ruleset.state_rules) if self.reference \
            else vm.rules_changed(self.rules_with_reads)
        self.any_rule_reads = None if None in self.rule_reads \
            else tuple(sorted(set().union(*(r for r in self.rule_reads if r))))  # by any state rule
        # what the win/loss rules read: a change elsewhere cannot end the game
        ends = [expand(r.reads) for r in self.ruleset.end_rules]
        self.end_reads = None if None in ends else frozenset().union(*(r for r in ends if r))
        if self.end_reads is not None and self.end_reads & {"@host", "@mods", "@turn"}:
            # (changes to these come without a check of their own: a move that drops a card's
            # attachments or modifiers, the turn passing): every change needs one
            self.end_reads = None
        # what score() reads; by default the cards where abilities work (live_cards)
        self.score_reads = expand(self.ruleset.heuristic_reads) \
            if self.ruleset.heuristic is not None else tuple(sorted(live - {"@host"}))
        # the channels GameState.unchanged may be asked about: a match starts with them marked
        self.read_channels = frozenset(
            ["@mods", *(c for reads in (self.static_reads, self.any_rule_reads,
                                        self.score_reads) for c in reads or ())])

    def _index_abilities(self, pool: list[CardDef]) -> None:
        """The pool's abilities by what they do, for the engine to find the live ones fast."""
        self.pool = tuple(pool)  # the card definitions a match of this game can hold
        self.triggers_on: dict[str, dict[int, tuple[int, ...]]] = {}
        self.static_keys: dict[str, set[str]] = {}
        # per card definition, (index, ability, (kind, key), the zones it works in) for its
        # abilities of the kinds static_keys indexes, its triggered abilities and its static
        # ones (vm.live_statics indexes the live ones by (kind, key); a static's key is "")
        self.keyed_abilities: dict[int, tuple[tuple[int, Any, tuple[str, str], frozenset[str]],
                                              ...]] = {}
        self.has_statics = False
        for d in pool:
            for idx, a in enumerate(d.abilities):
                if a.kind == "trigger":
                    per_def = self.triggers_on.setdefault(a.key, {})
                    per_def[d.id] = (*per_def.get(d.id, ()), idx)
                elif a.kind == "static":
                    self.has_statics = True
                else:
                    self.static_keys.setdefault(a.kind, set()).add(a.key)
                self.keyed_abilities[d.id] = (*self.keyed_abilities.get(d.id, ()), (
                    idx, a, (a.kind, a.key), a.zones or self.ability_zone_set))  # (see works)
        for event in self.ruleset.delayed_events:  # heard (engine/delayed.py), by no card
            self.triggers_on.setdefault(event, {})
        # per action that some card could forbid or permit, the (kind, key) pairs of the
        # abilities that would; other actions never look at cards' abilities
        self.guard_keys: dict[str, tuple[tuple[str, str], ...]] = {}
        for name, adef in self.ruleset.actions.items():
            keys = tuple(("permission", k) for k in (name, *(r for r, _ in adef.requires))
                         if k in self.static_keys.get("permission", ()))
            if name in self.static_keys.get("prohibition", ()):
                keys += (("prohibition", name),)
            if keys:
                self.guard_keys[name] = keys
        self.guarded_verbs = frozenset(self.static_keys.get("prohibition", set())
                                       | self.static_keys.get("replacement", set()))
        # each verb's rung of the verb ladder; its rungs as sets, for the engine's membership tests
        self.verb_speed = verb_speeds(self.ruleset.verbs, self.guarded_verbs, self.triggers_on)
        self.direct_verbs = frozenset(n for n, s in self.verb_speed.items() if s >= Speed.DIRECT)
        self.inline_verbs = frozenset(n for n, s in self.verb_speed.items() if s is Speed.INLINE)
        self.action_plans: dict[tuple[str, ...], tuple] = {}  # see actions.legal_actions
        if self.reference:
            for name, table in kernel.tables(self).items():
                setattr(self, name, table)
            return
        self.callers = vm.callers(self)  # verb -> see vm.call_verb
        self.setters = setters(self)  # state -> see primitives.set_state
        # resource or counter -> see primitives.change, assign
        self.changers, self.assigners = numbers(self, True), numbers(self, False)
        self.movers = movers(self)  # zone name -> see primitives.move
        self.flippers = flippers(self)  # face -> see primitives.flip

    def _readers(self, pool: list[CardDef]) -> dict:
        """prop name -> fn(g, cid): one lookup per property read on the hot path (a plain dict:
        a dict subclass's `d[k]` costs a method call in CPython 3.11). A property that
        neither the ruleset nor a card of `pool` modifies reads its printed value."""
        modified = self.modified_props = self.modified_by(pool)
        if self.reference:  # (the same names: see kernel.read)
            return {name: _kernel_reader(name)
                    for name in (*CARD_READERS, *self.ruleset.states, *self.ruleset.properties)}
        readers = dict(CARD_READERS)
        for name, s in self.ruleset.states.items():
            readers[name] = lambda g, c, bit=1 << s.index: bool(g.flags[c] & bit)
        for i, (name, pdef) in enumerate(self.ruleset.properties.items()):
            if name not in modified:  # nothing can change it: the printed value
                readers[name] = _printed_reader(pdef, i, self.hiding_mask, pdef.in_bounds(pool))
            elif pdef.type == "number":
                readers[name] = self._number_reader(pdef)
            else:
                readers[name] = lambda g, c, p=pdef: g.word(c, p)
        return readers

    def modified_by(self, pool: list[CardDef]) -> frozenset[str]:
        """The properties the ruleset's own code or a text of a card of `pool` modifies."""
        return self.rules_modify.union(*(d.modifies for d in pool))

    def _number_reader(self, pdef: PropDef) -> Callable[[GameState, int], Any]:
        """A number property some text modifies: printed value (or formula), then modifiers
        in the ruleset's order, then clamp; None when it cannot be seen. Generated for the
        property (only the steps it needs): one of the hottest reads."""
        hide = 0 if pdef.always_known else self.hiding_mask
        lines = [f"if g.flags[cid] & {hide}:\n    return None"] if hide else []
        index = list(self.ruleset.properties).index(pdef.name)  # (in CardDef.printed)
        lines.append(f"value = g.defs[cid].printed[{index}]" if pdef.formula is None
                     else "value = formula(g, {'it': cid})")
        modifiers = """index = g.mod_index
if index[0] != g.version:
    index = g.index_mods()
mods = index[2].get(cid)
if mods and name in mods:
    value = value or 0
    for op, amount, _stamp in mods[name]:
        if op == "=":
            value = amount
        elif op == "+=":
            value += amount
        else:
            value -= amount"""  # (g.mods_of, inlined; the modifiers in order: index_mods)
        # with static abilities in the game there may be modifiers at any time
        lines.append(modifiers if self.has_statics
                     else "if g.mods:\n" + modifiers.replace("\n", "\n    ").join(["    ", ""]))
        if pdef.min is not None or pdef.max is not None:
            lines.append("if value is not None:")
            lines += [f"    if value {op} {bound!r}:\n        value = {bound!r}"
                      for op, bound in (("<", pdef.min), (">", pdef.max)) if bound is not None]
        source = "def read(g, cid):\n" + "".join(
            f"    {line}\n" for block in lines for line in block.split("\n")) + "    return value\n"
        namespace: dict[str, Any] = {"name": pdef.name, "formula": pdef.formula}
        exec(compile(source, f"<{pdef.name} reader>", "exec"), namespace)  # noqa: S102 (ours)
        return namespace["read"]

    def score(self, g: GameState, player: int) -> float:
        """The ruleset's heuristic for `player` (higher is better); by default, how many more
        cards `player` has than the opponent where abilities work (board presence)."""
        if g.result is not None:
            return 0.0 if g.result.winner is None else (1e6 if g.result.winner == player else -1e6)
        if self.ruleset.heuristic is not None:  # (an expression: it only reads its env)
            value = self.ruleset.heuristic(g, self.player_envs[player]) or 0
            return float(max(-_SCORE_BOUND, min(_SCORE_BOUND, value)))  # (a 540-digit number)
        mine = board = 0
        zones, flags, owner, mask = g.zones, g.flags, g.owner, self.disabling_mask
        for ref in self.board_refs:  # the live cards there (live_cards, without the others)
            for c in zones[ref]:  # (loops: a comprehension is a call of its own)
                if not flags[c] & mask:
                    board += 1
                    mine += owner[c] == player
        return float(2 * mine - board)

    def works(self, g: GameState, cid: int, ability, zone: str | None = None) -> bool:
        """Is this ability of a card (in `zone`, default its zone now) working?"""
        if not self.zoned:
            return True
        return (zone or g.zone_of[cid].name) in (ability.zones or self.ability_zone_set)

    # ---------- modifiers ----------
    def static_mods(self, g: GameState) -> Any:
        """The static abilities' modifiers, kept while nothing they read changed: the
        reference path's by card and property (_each_target), the fast path's by ability
        (_each_static, indexed by engine/modifiers.py)."""
        cached = g._statics
        if cached is not None:
            if cached[0] == g.version:
                return cached[1]
            if cached[1] is not STATICS_PENDING and g.unchanged(cached[0], self.static_reads):
                g._statics = (g.version, cached[1])  # nothing they read changed: kept
                return cached[1]
        index = g.mod_index  # (of the modifiers before: see below)
        g._statics = (g.version, STATICS_PENDING)  # while computing, reads see printed values
        out = _each_target(g) if self.reference else _each_static(g)
        if cached is not None and cached[1] is not STATICS_PENDING and cached[1] == out:
            out = cached[1]  # the same modifiers: their index holds (GameState.index_mods)
        g._statics = (g.version, out)
        g.mod_index = index  # (the one made while they were computed is without them)
        return out

    # ---------- building a match ----------
    def new_card(self, g: GameState, d: CardDef, owner: int | None, zone: ZoneRef) -> int:
        return self.new_cards(g, [d], owner, zone)[0]

    def new_cards(self, g: GameState, defs: list[CardDef], owner: int | None,
                  zone: ZoneRef) -> range:
        """New card instances (not yet in any zone's list), numbered in order; owner None:
        a pool's cards, of no player."""
        first, n = len(g.defs), len(defs)
        if first + n > limits.MAX_CARDS:
            limits.too_many_cards(g)
        g.defs.extend(defs)
        g.zone_of.extend([zone] * n)
        g.flags.extend([0] * n)
        g.face.extend([self.ruleset.zones[zone.name].face == "up"] * n)
        # None only for a pool's cards, until a player's zone takes them. GameState keeps the
        # lists typed `list[int]` on purpose: they type the cards whose abilities run, and with
        # pools no shared zone is an ability zone (POOL-ABILITY-ZONE); every reader that builds
        # an ability's env (vm, actions, triggers) relies on that, and `int | None` would push
        # a None check into those hot paths.
        g.owner.extend([owner] * n)  # type: ignore[list-item]
        g.controller.extend([owner] * n)  # type: ignore[list-item]
        g.stamp.extend([0] * n)
        g.home.extend([zone.name] * n)
        return range(first, first + n)

    def new_state(self, decks: list[dict[str, list[str]]], seed: int = 0,
                  log: bool = False, turns: int | None = None,
                  random: Sequence | None = None) -> GameState:
        """A match at its first decision. decks[p] maps a deck section to card names;
        `turns` overrides the ruleset's turn limit (`limits.turns`); `random` fixes the
        outcomes of the first random steps, setup's included (engine/chance.py). With `log=True` the
        state keeps every event in `state.log` (as `tcg play --log` writes them): off by
        default, since keeping it costs as much as the engine's own work."""
        # (set.union and map: C loops, at every match)
        g = GameState(self.for_cards(set().union(*(names for deck in decks
                                                   for names in deck.values()))), seed)
        g.keep_log([] if log else None)
        if turns is not None:
            g.turn_limit = turns
        if random:
            g.chance = chance.Script(tuple(random))
        g.zones = {ref: [] for ref in self.zone_refs}
        g.res = [dict(self.initial_res) for _ in range(self.ruleset.players)]
        try:
            self._deal(g, decks)
        except GameOver as over:  # (more cards than a match may hold: a limit, at the start)
            vm.finish(g, over.result)
            return g
        g.frames.append(Frame(self.program, {"you": 0, "opponent": g.other(0), "self": None},
                              "game"))
        vm.run(g)
        return g

    def _deal(self, g: GameState, decks: list[dict[str, list[str]]]) -> None:
        """The players' decks and the pools' cards into their zones."""
        sections: dict = self.ruleset.deck.get("sections") or {}  # (none when no deck is dealt)
        for p in range(self.ruleset.players):
            for section, names in decks[p].items():
                ref = g.zone_key(sections[section]["zone"], p)
                cards = self.new_cards(g, list(map(self.cards.__getitem__, names)), p, ref)
                g.zones[ref].extend(cards)
        for pool in self.ruleset.pools:  # cards of no player (owner None), the first on top
            ref = ZoneRef(pool.zone, -1)
            g.zones[ref].extend(self.new_cards(g, [self.cards[n] for n in pool.cards], None, ref))

    # ---------- presentation ----------
    def show(self, g: GameState, field: str, value: Any) -> Any:
        """A JSON-friendly form of an event field, for logs."""
        if type(value) is int:  # (most fields: a card or a player, first and without isinstance)
            kind = self.field_types.get(field, "any")
            if kind == "player":
                return f"P{value + 1}"
            return f"{g.defs[value].name}#{value}" if kind in ("cards", "card") else value
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, ZoneRef):
            return value.name if value.owner < 0 else f"{value.name}@P{value.owner + 1}"
        kind = self.field_types.get(field, "any")
        if kind == "player":
            return f"P{value + 1}"
        if isinstance(value, tuple):
            return [self.show(g, field, v) for v in value]
        if kind in ("cards", "card") and isinstance(value, int):
            return self.card_label(g, value)
        return value if isinstance(value, (int, float)) else str(value)

    def card_label(self, g: GameState, cid: int) -> str:
        return f"{g.defs[cid].name}#{cid}"


class _Creatable(dict):
    """`create`'s table. A name written in a text is checked (UNKNOWN-TOKEN); one known only
    as the effect runs (a variable) may name nothing: an error that says so, not a KeyError."""

    def __missing__(self, name: Any) -> CardDef:
        raise TcgError(f"create: {name!r} is neither a token nor a card of this game")


def _kernel_reader(name: str) -> Callable[[GameState, int], Any]:
    return lambda g, cid: kernel.read(g, cid, name)


_SCORE_BOUND = 10**300  # a heuristic's value past this is clipped (float() would overflow)
_STATIC = ("static", "")  # the live static abilities' key in vm.live_statics


def _each_target(g: GameState) -> dict[tuple[int, str], list]:
    """The reference path's static modifiers: (card, property) -> (op, value, stamp) of each
    static ability that works and holds, in the order found (GameState.index_mods orders
    them)."""
    out: dict[tuple[int, str], list] = {}
    for cid, _idx, ability in vm.live_statics(g).get(_STATIC, ()):  # (those that work)
        env = vm.effect_env(g, cid, g.controller[cid])
        if ability.cond is not None and not ability.cond(g, env):
            continue
        for target, prop, op, value_fn in ability.modifiers:
            value = value_fn(g, env)
            if value is None:
                continue
            for t in vm.as_cards(g, target(g, env)):
                out.setdefault((t, prop), []).append((op, value, g.stamp[cid]))
    return out


def _each_static(g: GameState) -> list[tuple[tuple[int, ...], str, tuple]]:
    """The fast path's: (targets, property, (op, value, stamp)) for each modifier of each
    static ability that works and holds, in the same order; engine/modifiers.py indexes them
    by card (a static raising N cards costs one entry, not N lists to sort)."""
    out = []
    for cid, _idx, ability in vm.live_statics(g).get(_STATIC, ()):  # (those that work)
        env = vm.effect_env(g, cid, g.controller[cid])
        if ability.cond is not None and not ability.cond(g, env):
            continue
        for target, prop, op, value_fn in ability.modifiers:
            value = value_fn(g, env)
            if value is not None:
                out.append((vm.as_cards(g, target(g, env)), prop, (op, value, g.stamp[cid])))
    return out


def _printed_reader(pdef: PropDef, index: int, hiding_mask: int,
                    in_bounds: bool) -> Callable[[GameState, int], Any]:
    """A property (the ruleset's `index`th) no text modifies, as one flat function: its
    printed value (clamped, unless every card's is `in_bounds`), unless hidden. The hottest
    read of all."""
    lo, hi = pdef.min, pdef.max
    hide = 0 if pdef.always_known else hiding_mask
    if in_bounds:  # nothing to clamp: shorter still
        if not hide:
            return lambda g, cid: g.defs[cid].printed[index]
        return lambda g, cid: None if g.flags[cid] & hide else g.defs[cid].printed[index]

    def read(g: GameState, cid: int) -> Any:
        if g.flags[cid] & hide:
            return None
        value = g.defs[cid].printed[index]
        if value is None:
            return None
        if lo is not None and value < lo:
            return lo
        if hi is not None and value > hi:
            return hi
        return value

    return read


_ENGINE_FIELD_TYPES = {"player": "player", "you": "player", "opponent": "player",
                       "winner": "player", "card": "cards", "cards": "cards", "ability": "any",
                       "host": "cards", "onto": "cards"}  # (attached, detached; put_on)
