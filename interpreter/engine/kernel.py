"""The reference kernel: the engine's state changes written once, as plain functions.

Each function here holds the engine's invariants for one kind of change, and its docstring
states them. The fast path runs code generated per game from these rules
(`primitives._mover_maker` and its siblings, `vm._caller_maker`, `Game._number_reader`,
compile/straight.py); the reference path (`load_game(..., reference=True)`, `tcg play
--reference`, `tcg test --reference`) runs these functions instead, and the differential tests
(tests/test_reference.py) hold both paths to byte-identical logs.

The invariants every change keeps:

- **version**: `g.version` grows by one for every change (values derived from the state are
  kept per version); `vm.emit`, or `vm.quiet` when nobody hears the event, does it.
- **change marks**: after a change on a channel (compile/reads.py: a zone's name,
  `state:NAME`, `res:NAME`, `counter:NAME`, `@face`, `@mods`, `@host`, `@turn`) its mark is the
  new version, so the cached values that read it (state rules, static modifiers, score) are
  computed again. A move marks both zones.
- **epoch**: `g.epoch` grows whenever the cards whose abilities work may have changed (a card
  enters or leaves a zone where abilities work, or a state that disables abilities changes), or
  their abilities did (a card transformed there).
- **a new object**: a card that changes zone has no states, its zone's face (or the one asked
  for), its owner as controller in a shared zone (else the zone's owner), a new stamp (when it
  entered; when waiting abilities remember their cards the old one is kept in `left_stamp`), and
  forgets its modifiers, counters, attachments and who saw it — unless both zones are of one
  `area` of one player (`keeps`), where it stays the same object. A card of a pool
  (owned by no player) entering a player's zone becomes that player's.
- **win/loss checks**: after a change on a channel a win/loss rule reads, the rules are asked
  at once (vm.check_end): a player can lose in the middle of an effect.
- **events**: each change is announced (`vm.emit`) after it is made and before its marks;
  triggered abilities that hear it are collected then. A card leaving a zone where its
  abilities work looks back at that zone (the lookback of vm.emit).

The timing rule (when a timing point settles first) is engine/timing.py's `needs_settling`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from interpreter.engine import vm
from interpreter.engine.state import CARD_READERS, Frame, GameState, TcgError, ZoneRef, visible


# ---------- cards changing places ----------
def move(g: GameState, env: dict, cards: Any, to: ZoneRef, position: str = "top",
         face: str | None = None, at: int | None = None) -> None:
    """Move cards to zone `to`, one at a time, in order, each to the top (or the `bottom`), or
    to position `at` when it is given (see slot: 1 is the top).

    Per card: a full zone (its capacity reached) refuses it (`move_failed`, logged only), unless
    it is already there, and so does a zone whose `enter` rules keep it out (refused). Otherwise
    the card leaves its zone and becomes a new object in `to` (see the module's invariants: no
    states, face `face` or the zone's, controller, stamp, its modifiers, counters, attachments
    and sightings forgotten) — unless both zones are of one area (`keeps`: it stays the same
    object, only its face changing when `face` is given); the epoch grows when either zone
    is one where abilities work; `moved` is announced (looking back at the zone it left, when an
    ability of it there could hear); both zones are marked; the win/loss rules are asked when
    they read either zone."""
    if to is None:  # a zone of no one (an owner that is none): nothing to do
        return
    game = g.game
    zdef = game.ruleset.zones[to.name]
    up = (zdef.face if face is None else face) == "up"
    scan, hearing = game.scan_zone_set, game.triggers_on.get("moved")
    dest = g.zones[to]
    for cid in vm.as_cards(g, cards):
        src = g.zone_of[cid]
        if zdef.capacity is not None and len(dest) >= zdef.capacity and src is not to:
            refuse(g, cid, to, "zone is full")
            continue
        if zdef.enter and src is not to and (why := refused(g, cid, to)) is not None:
            refuse(g, cid, to, why)
            continue
        if to.name in scan or src.name in scan:
            g.epoch += 1
        g.zones[src].remove(cid)
        if at is not None:
            dest.insert(slot(dest, at), cid)
        elif position == "bottom":
            dest.append(cid)
        else:
            dest.insert(0, cid)
        below: tuple[int, ...] = ()
        if keeps(g, src, to):
            g.zone_of[cid] = to
            if face is not None:
                g.face[cid] = up
        else:
            below = beneath(g, cid) if g.under else ()
            _new_object(g, cid, to, up)
        _announce_move(g, cid, src, to, hearing)
        if below:
            carry(g, cid, below, to, up, hearing)


def keeps(g: GameState, src: ZoneRef, to: ZoneRef) -> bool:
    """A card moving from zone `src` to zone `to` stays the same object: both zones are of one
    `area` and one player (or both shared). It keeps its states, face (unless the move asks
    for one), controller, stamp, modifiers, counters, attachments and who saw it."""
    zones = g.game.ruleset.zones
    area = zones[to.name].area
    return area is not None and zones[src.name].area == area and src.owner == to.owner


def refused(g: GameState, cid: int, to: ZoneRef) -> str | None:
    """Why zone `to`'s `enter` rules keep card `cid` out (the rule's words), or None when each
    holds, or a live permission lifts it (`can ID where ...`, with `card` and `player`: the
    zone's owner, else the card's). Every way into a zone asks (move, swap, create, copy,
    transform), so a prohibition on entering has no way round it; `can_enter` asks the same
    of an option before it is offered."""
    rules = g.game.ruleset.zones[to.name].enter
    if not rules:
        return None
    player = to.owner if to.owner >= 0 else g.owner[cid]
    env = {"card": cid, "player": player, "you": player, "self": None,
           "opponent": None if player is None else g.game.opponent[player]}
    for rule_id, cond, why in rules:
        if not cond(g, env) and not lifted(g, rule_id, cid, player):
            return why
    return None


def lifted(g: GameState, rule_id: str, cid: int, player: int | None) -> bool:
    """A live permission `can RULE_ID` lifts the rule for card `cid` entering `player`'s zone."""
    return rule_id in g.game.static_keys.get("permission", ()) \
        and vm.permitted(g, rule_id, {"card": cid, "player": player})


def can_enter(g: GameState, cards: Any, to: Any) -> bool:
    """Every card of `cards` may enter zone `to` by its `enter` rules (see refused; a full zone
    is its capacity's business, which a card leaving first may free), and there is one."""
    cards = vm.as_cards(g, cards)
    return bool(cards) and isinstance(to, ZoneRef) \
        and all(refused(g, cid, to) is None for cid in cards)


def refuse(g: GameState, cid: int, to: ZoneRef, why: str) -> None:
    """`move_failed`, logged only: the card did not go to zone `to`, for reason `why`."""
    if g.log is not None:
        g.log.append({"e": "move_failed", "card": g.game.show(g, "card", cid),
                      "to": zone_label(to), "why": why})


def slot(cards: list[int], at: Any) -> int:
    """The index in a zone's list of cards at which a card put at position `at` goes: positions
    count from 1 (the top, index 0: the leftmost card as a zone is shown); a position below 1 is
    the top, one past the last card (or more, or not a number) the bottom."""
    at = at[0] if type(at) is tuple and len(at) == 1 else at
    if type(at) is not int:
        return len(cards)
    return min(max(at - 1, 0), len(cards))


def swap(g: GameState, env: dict, a: Any, b: Any) -> None:
    """Cards `a` and `b` (the first card of each) exchange places: each takes the other's zone
    and position there. Nothing when either is no card, or both are the same card.

    As after a move, each card becomes a new object where it lands (its new zone's face; the
    same object when both zones are of one area: `keeps`) and
    `moved` is announced for it, `a` first (two cards of one zone too: a move within a zone
    makes a new object as well). The epoch grows when abilities work in either zone; both
    zones are marked; the win/loss rules are asked when they read either. Capacities hold: the
    zones keep their sizes. When a zone's `enter` rules keep its newcomer out (refused), nothing
    changes (`move_failed`, logged only)."""
    first, second = vm.as_cards(g, a)[:1], vm.as_cards(g, b)[:1]
    if not first or not second or first == second:
        return
    x, y = first[0], second[0]
    zx, zy = g.zone_of[x], g.zone_of[y]
    if zx is not zy:
        for cid, to in ((x, zy), (y, zx)):
            if (why := refused(g, cid, to)) is not None:
                refuse(g, cid, to, why)
                return
    lx, ly = g.zones[zx], g.zones[zy]
    ix, iy = lx.index(x), ly.index(y)
    lx[ix], ly[iy] = y, x
    scan = g.game.scan_zone_set
    if zx.name in scan or zy.name in scan:
        g.epoch += 1
    hearing, zones = g.game.triggers_on.get("moved"), g.game.ruleset.zones
    for cid, src, to in ((x, zx, zy), (y, zy, zx)):
        below: tuple[int, ...] = ()
        if keeps(g, src, to):
            g.zone_of[cid] = to
        else:
            below = beneath(g, cid) if g.under else ()
            _new_object(g, cid, to, zones[to.name].face == "up")
        _announce_move(g, cid, src, to, hearing)
        if below:
            carry(g, cid, below, to, zones[to.name].face == "up", hearing)


def _new_object(g: GameState, cid: int, to: ZoneRef, up: bool) -> None:
    """The card, now in zone `to`, is a new object (see the module's invariants)."""
    g.zone_of[cid] = to
    g.flags[cid] = 0
    g.face[cid] = up
    g.controller[cid] = g.owner[cid] if to.owner < 0 else to.owner
    if g.left_stamp is not None:
        g.left_stamp[cid] = g.stamp[cid]
    if g.owner[cid] is None and to.owner >= 0:  # a pool's card becomes the zone's player's
        g.owner[cid] = to.owner
    g.clock += 1
    g.stamp[cid] = g.clock
    forget(g, cid)


def _announce_move(g: GameState, cid: int, src: ZoneRef, to: ZoneRef,
                   hearing: dict | None) -> None:
    """`moved`, then both zones' marks, then the win/loss rules that read either zone."""
    gone = ((cid, src.name),) if hearing is not None and g.defs[cid].id in hearing \
        and src.name in g.game.scan_zone_set else ()
    if not vm.quiet(g, "moved", gone):
        vm.emit(g, "moved", {"card": cid, "from_zone": src.name, "to_zone": to.name,
                             "player": g.owner[cid]}, gone)
    g.marks[src.name] = g.marks[to.name] = g.version
    check_end_on(g, to.name, src.name)


def forget(g: GameState, cid: int) -> None:
    """The card's modifiers, counters, attachments and who saw it go (it is a new object).
    Dropping modifiers or attachments marks `@mods` or `@host` with the version the change
    that called this will reach (it counts after)."""
    if g.mods:
        drop_mods(g, cid)
    if g.counters:
        for key in [k for k in g.counters if k[0] == cid]:
            del g.counters[key]
    g.known.pop(cid, None)
    if g.under and g.under.pop(cid, None) is not None:  # it is beneath no card any more
        g.marks["@host"] = g.version + 1
    if g.host:  # it no longer hosts anything, nor is it attached to anything
        hosted = [k for k, v in g.host.items() if v == cid]
        if g.host.pop(cid, None) is not None or hosted:
            for k in hosted:
                del g.host[k]
            g.marks["@host"] = g.version + 1


# ---------- stacks of cards ----------
def beneath(g: GameState, top: int) -> tuple[int, ...]:
    """The cards beneath card `top`, the nearest first: their order in the zone that holds
    them (put_on puts each card going beneath on top of it)."""
    cards = [c for c, t in g.under.items() if t == top]
    if len(cards) < 2:
        return tuple(cards)
    return tuple(sorted(cards, key=lambda c: g.zones[g.zone_of[c]].index(c)))


def put_on(g: GameState, env: dict, card: Any, onto: Any) -> None:
    """Put card `card` (the first of `card`) on top of card `onto` (the first of `onto`, the
    top of its stack): `card` takes `onto`'s place (zone and position) and `onto`, with the
    cards beneath it, goes beneath `card`, into the ruleset's zone that holds cards beneath
    others (`beneath: true`; `onto`'s owner's). `card` is a new object there (no states, the
    zone's face, a new stamp), but it takes over the stack: `onto`'s counters, the cards
    attached to `onto` and the card `onto` is attached to. `onto` is a new object beneath
    (its states and modifiers forgotten). Nothing when either is no card, they are one card,
    either is beneath a card already, or the zone's `enter` rules keep `card` out (refused).
    The epoch grows when abilities work in a zone either leaves or enters; `put_on` is
    announced (`card`, `onto`, `from_zone`, `to_zone`, `player`); the three zones, `@host` and
    the counters taken over are marked; the win/loss rules that read them are asked."""
    cards, tops = vm.as_cards(g, card)[:1], vm.as_cards(g, onto)[:1]
    if not cards or not tops or cards == tops or cards[0] in g.under or tops[0] in g.under:
        return
    x, t = cards[0], tops[0]
    zones, src, place = g.game.ruleset.zones, g.zone_of[cards[0]], g.zone_of[tops[0]]
    holder = _holder(g, t)
    if zones[place.name].enter and src is not place and (why := refused(g, x, place)) is not None:
        refuse(g, x, place, why)
        return
    counters = {k[1]: n for k, n in g.counters.items() if k[0] == t}
    hosted, host = [k for k, v in g.host.items() if v == t], g.host.get(t)
    g.zones[src].remove(x)
    dest = g.zones[place]
    dest[dest.index(t)] = x
    g.zones[holder].insert(0, t)
    scan = g.game.scan_zone_set
    if {src.name, place.name, holder.name} & scan:
        g.epoch += 1
    _new_object(g, x, place, zones[place.name].face == "up")
    _new_object(g, t, holder, zones[holder.name].face == "up")
    for c in [c for c, top in g.under.items() if top == t] + [t]:
        g.under[c] = x
    for name, n in counters.items():
        g.counters[(x, name)] = n
    for k in hosted:
        g.host[k] = x
    if host is not None:
        g.host[x] = host
    if not vm.quiet(g, "put_on"):
        vm.emit(g, "put_on", {"card": x, "onto": t, "from_zone": src.name,
                              "to_zone": place.name, "player": g.owner[x]})
    channels = (src.name, place.name, holder.name, "@host", *(f"counter:{n}" for n in counters))
    for channel in channels:
        g.marks[channel] = g.version
    check_end_on(g, *channels)


def _holder(g: GameState, top: int) -> ZoneRef:
    """The zone that holds the cards beneath `top`: the ruleset's `beneath` zone, its owner's
    (a pool's card, owned by no player: its zone's player's, else the first player's)."""
    name = g.game.ruleset.beneath_zone
    if name is None:
        raise TcgError("put_on: no zone holds the cards beneath others "
                       "(give one zone `beneath: true`)")
    if g.game.ruleset.zones[name].shared:
        return ZoneRef(name, -1)
    owner = g.owner[top]
    return ZoneRef(name, owner if owner is not None else max(g.zone_of[top].owner, 0))


def carry(g: GameState, top: int, below: tuple[int, ...], to: ZoneRef, up: bool,
          hearing: dict | None) -> None:
    """The cards that were beneath `top`, which became a new object in zone `to`, go with it:
    each is moved right below it there (nearest first, whatever the zone's capacity: they
    are one stack), a new object as after any move (`moved` announced), beneath nothing."""
    dest, scan = g.zones[to], g.game.scan_zone_set
    for i, cid in enumerate(below, 1):
        if cid not in g.under:  # (moved away by something that heard the top's move)
            continue
        src = g.zone_of[cid]
        g.zones[src].remove(cid)
        if top in dest:
            dest.insert(dest.index(top) + i, cid)
        else:
            dest.append(cid)
        if to.name in scan or src.name in scan:
            g.epoch += 1
        _new_object(g, cid, to, up)
        _announce_move(g, cid, src, to, hearing)


def drop_mods(g: GameState, cid: int) -> None:
    """The modifiers on the card (`+=`, `-=`, `=`, flags set by `=`) go; dropping some marks
    `@mods` with the version the change that called this will reach (it counts after). The
    modifiers of static abilities are not in `g.mods`: they keep applying while their source
    works."""
    kept = [m for m in g.mods if m[0] != cid]
    if len(kept) != len(g.mods):
        g.mods = kept
        g.marks["@mods"] = g.version + 1


def transform(g: GameState, env: dict, cards: Any, name: str) -> None:
    """Each card becomes the card `name` (looked up as `create` does) in place, card by card:
    it keeps its zone, its position there, its face, owner and controller. Otherwise it is a new
    object (see the module's invariants): no states, a new stamp, and its modifiers, counters,
    attachments (both ways) and who saw it are forgotten, and its triggered abilities waiting
    to resolve go with the old object. A card its zone's `enter` rules would keep out as the
    new card (refused, asked of it as it would be) stays as it is (`move_failed`, logged
    only). The epoch grows when abilities work in
    its zone (and the index of the live abilities is made again: the card's are others now);
    `transformed` is announced (with the name it had: `was`; private to its owner, or to no
    one, when not every player sees the card); its zone is marked (what was read
    of the card through its zone may have changed); the win/loss rules that read it are
    asked."""
    new = g.game.creatable[name]
    for cid in vm.as_cards(g, cards):
        zone, old = g.zone_of[cid], g.defs[cid]
        was = old.name
        g.defs[cid] = new
        if g.game.ruleset.zones[zone.name].enter and (why := refused(g, cid, zone)) is not None:
            g.defs[cid] = old
            refuse(g, cid, zone, why)
            continue
        g.flags[cid] = 0
        g.clock += 1
        g.stamp[cid] = g.clock
        forget(g, cid)
        drop_waiting(g, (cid,), ("trigger", "ability"))
        if zone.name in g.game.scan_zone_set:
            g.epoch += 1
            g.live_index = None
        if not vm.quiet(g, "transformed"):
            vm.emit(g, "transformed", {"card": cid, "name": new.name, "was": was},
                    private_to=_unseen_by(g, cid))
        g.marks[zone.name] = g.version
        vm.check_end(g, zone.name)


def drop_waiting(g: GameState, cards: Collection[int], kinds: Collection[str]) -> None:
    """The abilities of `cards` waiting to resolve will not: triggered ones waiting to be
    ordered or queued, and the objects on the stack of `kinds` (engine/priority.py's: "trigger",
    "ability"; a spell is its card's own). `cancel_triggers` drops the triggered ones; a card
    transformed drops both (they were the old object's: a waiting ability is its card and the
    index of one of its abilities). A change to the stack is a change (the version grows)."""
    if g.pending:
        g.pending = [t for t in g.pending if t[0] not in cards]
    if g.queue:
        g.queue = [t for t in g.queue if t[0] not in cards]
    if g.stack:
        kept = [o for o in g.stack if o[0] not in kinds or o[1] not in cards]
        if len(kept) != len(g.stack):
            g.stack = kept
            g.version += 1


def _unseen_by(g: GameState, cid: int) -> int | None:
    """Who alone may read an event naming what the card is (None: everyone sees the card): its
    owner when they see it, else -1, a player no view is (a zone no one sees)."""
    if all(visible(g, cid, p) for p in g.players):
        return None
    return g.owner[cid] if visible(g, cid, g.owner[cid]) else -1


def detach(g: GameState, env: dict, cards: Any) -> None:
    """The cards stop being attached to their hosts, card by card, and stay where they are:
    zone, position, states, face, stamp, modifiers and counters are kept (only the link goes;
    a card attached to nothing is passed over: no change, no event). `detached` is announced
    (with the former `host`); `@host` is marked; the win/loss rules that read attachments are
    asked."""
    for cid in vm.as_cards(g, cards):
        host = g.host.pop(cid, None)
        if host is None:
            continue
        if not vm.quiet(g, "detached"):
            vm.emit(g, "detached", {"card": cid, "host": host})
        g.marks["@host"] = g.version
        vm.check_end(g, "@host")


def create(g: GameState, env: dict, name: str, to: ZoneRef, face: str | None = None,
           n: int = 1, at: int | None = None) -> None:
    """Create `n` cards `name` (a token, or a card of the card sets) on top of zone `to` (or
    each at position `at`, see slot), owned by the zone's owner, else by `you`, one at a time:
    a full zone refuses the rest (`create_failed`, logged only), and so do the zone's `enter`
    rules (refused: the card is made, asked about, and unmade when kept out). Each is a new card (no state,
    face `face` or the zone's, a new stamp); the epoch grows when abilities work there;
    `created` is announced; the zone is marked; the win/loss rules that read it are asked."""
    if to is None:
        return
    zdef = g.game.ruleset.zones[to.name]
    up = (zdef.face if face is None else face) == "up"
    owner = to.owner if to.owner >= 0 else env["you"]
    for _ in range(max(n or 0, 0)):
        if zdef.capacity is not None and len(g.zones[to]) >= zdef.capacity:
            if g.log is not None:
                g.log.append({"e": "create_failed", "name": name, "to": zone_label(to),
                              "why": "zone is full"})
            return
        # a new card: new_cards gave it its zone, no state, its owner as controller
        cid = g.game.new_card(g, g.game.creatable[name], owner, to)
        if zdef.enter and (why := refused(g, cid, to)) is not None:
            _unmake(g, cid)
            if g.log is not None:
                g.log.append({"e": "create_failed", "name": name, "to": zone_label(to),
                              "why": why})
            return
        g.zones[to].insert(0 if at is None else slot(g.zones[to], at), cid)
        if to.name in g.game.scan_zone_set:
            g.epoch += 1
        g.face[cid] = up
        g.clock += 1
        g.stamp[cid] = g.clock
        if not vm.quiet(g, "created"):
            vm.emit(g, "created", {"card": cid, "to_zone": to.name})
        g.marks[to.name] = g.version
        vm.check_end(g, to.name)


def _unmake(g: GameState, cid: int) -> None:
    """The card just made (the last, in no zone's list yet) is no more."""
    for cards in (g.defs, g.zone_of, g.flags, g.face, g.owner, g.controller, g.stamp, g.home):
        del cards[cid:]


def copy(g: GameState, env: dict, cards: Any, to: ZoneRef, face: str | None = None,
         as_is: bool = False) -> None:
    """For each card of `cards`, in order, a new card of its definition on top of zone `to`,
    as `create` makes one (its printed properties, abilities and effect; owned by the zone's
    owner, else by `you`; `created` is announced). Nothing else of the card is copied: its
    states, counters, modifiers, attachments and face stay with it — unless `as_is`, where
    the copy also takes the card as it is now: its states (ending when the card's do), its
    counters and its own modifiers (`+=`, `-=`, `=`, in their order, each with its duration;
    not those of static abilities, which apply by their own `where`), with no event beyond
    `created`; the channels they are on are marked and the win/loss rules that read them
    asked. Never its attachments, nor the cards beneath it. A full zone refuses the copy
    (`create_failed`)."""
    for cid in vm.as_cards(g, cards):
        made = len(g.defs)
        create(g, env, g.defs[cid].name, to, face)
        if as_is and len(g.defs) > made and g.result is None:
            _as_is(g, cid, made)


def _as_is(g: GameState, cid: int, new: int) -> None:
    """Card `new` (a copy of `cid` just made) takes `cid`'s states, counters and modifiers."""
    channels: list[str] = []
    if g.flags[cid]:
        g.flags[new] = g.flags[cid]
        for cards in g.expiring.values():
            if cid in cards:
                cards.append(new)
        channels += [f"state:{s.name}" for s in g.game.ruleset.states.values()
                     if g.flags[cid] >> s.index & 1]
        g.epoch += 1  # (a state may stop its abilities)
    for (card, name), n in list(g.counters.items()):
        if card == cid:
            g.counters[(new, name)] = n
            channels.append(f"counter:{name}")
    own = [m for m in g.mods if m[0] == cid]
    for m in own:
        g.clock += 1
        g.mods.append((new, *m[1:5], g.clock))
    if own:
        channels.append("@mods")
    if channels:
        g.version += 1
        for channel in channels:
            g.marks[channel] = g.version
        check_end_on(g, *channels)


# ---------- a card's condition ----------
def set_state(g: GameState, env: dict, cards: Any, state: str, value: bool = True) -> None:
    """Set (or clear: `value` false) a card state, card by card, in order. A card already so is
    passed over: no change, no event. Otherwise: a state that ends with a phase or turn notes the
    card for expiry; a state that `removes_modifiers`, when set, drops the card's modifiers
    (drop_mods); a state that disables abilities grows the epoch; `state` is announced; the
    state's channel is marked; the win/loss rules that read it are asked."""
    game = g.game
    sdef = game.ruleset.states[state]
    bit = 1 << sdef.index
    until, channel = game.state_ends.get(state), game.state_marks[state]
    disabling = bit & game.disabling_mask
    on = bool(value)
    for cid in vm.as_cards(g, cards):
        had = g.flags[cid]
        if bool(had & bit) == on:
            continue
        g.flags[cid] = had | bit if on else had & ~bit
        if on and until is not None:
            g.expiring.setdefault(until, []).append(cid)
        if on and sdef.removes_modifiers and g.mods:
            drop_mods(g, cid)
        if disabling:
            g.epoch += 1
        if not vm.quiet(g, "state"):
            vm.emit(g, "state", {"card": cid, "state": state, "value": on})
        g.marks[channel] = g.version
        vm.check_end(g, channel)


def flip(g: GameState, env: dict, cards: Any, face: str) -> None:
    """Turn cards face up (`face` "up") or down (any other text), card by card. A card already
    so is passed over: no change, no event. Otherwise `flipped` is announced, `@face` is marked
    and the win/loss rules that read faces are asked."""
    up = face == "up"
    for cid in vm.as_cards(g, cards):
        if g.face[cid] is up:
            continue
        g.face[cid] = up
        if not vm.quiet(g, "flipped"):
            vm.emit(g, "flipped", {"card": cid, "face": face})
        g.marks["@face"] = g.version
        vm.check_end(g, "@face")


# ---------- numbers ----------
def change(g: GameState, env: dict, target: Any, name: str, n: int) -> None:
    """A player's resource or cards' counter `name` grows by `n` (see set_number)."""
    set_number(g, target, name, n, True)


def assign(g: GameState, env: dict, target: Any, name: str, n: int) -> None:
    """A player's resource or cards' counter `name` becomes `n` (see set_number)."""
    set_number(g, target, name, n, False)


def set_number(g: GameState, target: Any, name: str, n: int | None, add: bool) -> None:
    """A resource of player `target` (a name the ruleset declares as one) or the counter `name`
    of each of the cards `target`, in order, grows by `n` (`add`) or becomes `n` (n None: 0).
    A resource stays within its `min` and `max` (clamped); a counter at or above 0. Each is
    announced (`resource` or `counter`, with its value and the delta applied: what clamping
    left of the change) even when it did not change, which
    then is no change (the version stays, nothing is marked); a change marks `res:NAME` or
    `counter:NAME`. Once all are done, the win/loss rules that read that channel are asked."""
    spec = g.game.ruleset.resources.get(name)
    n = n or 0
    if spec is not None:
        low, high = spec.get("min"), spec.get("max")
        res = g.res[target]
        old = res.get(name, 0)
        value = old + n if add else n
        if low is not None and value < low:
            value = low
        if high is not None and value > high:
            value = high
        res[name] = value
        _number_changed(g, "resource", "player", target, name, value, old, "res:" + name)
    else:
        counters = g.counters
        for cid in target if type(target) is tuple else vm.as_cards(g, target):
            key = (cid, name)
            old = counters.get(key, 0)
            value = max(old + n if add else n, 0)
            counters[key] = value
            _number_changed(g, "counter", "card", cid, name, value, old, "counter:" + name)
    vm.check_end(g, ("res:" if spec is not None else "counter:") + name)


def _number_changed(g: GameState, event: str, who_field: str, who: int, name: str, value: int,
                    old: int, channel: str) -> None:
    changed = value != old
    if not vm.quiet(g, event, changed=changed):
        vm.emit(g, event, {who_field: who, "name": name, "value": value, "delta": value - old},
                changed=changed)
    if changed:
        g.marks[channel] = g.version


# ---------- verbs ----------
def call_verb(g: GameState, name: str, params: dict, caller: dict) -> bool:
    """Call the ruleset verb `name` with its parameters (`params`: a new dict made for this
    call, `cards` parameters as tuples) from code running with env `caller`. True when code
    was left to run first, on new frames.

    A verb applied card by card (`each`) is called once per card, in order (vm._call_each).
    A live prohibition of it stops it (`prevented`, logged only); else the first live
    replacement that has not replaced this call yet runs instead. Its env is the parameters
    plus the caller's you, opponent and self (a parameter of that name wins); the cards a
    triggered ability could look back at (`#live`) and the replacements already applied
    (`#replaced`) ride along. Then its body runs on a frame of its own, its event last. (A
    direct verb, game.direct_verbs: its body runs as a function here, and a frame holds only
    what it left to run.)"""
    game = g.game
    verb = game.ruleset.verbs[name]
    if verb.each is not None and len(params[verb.each]) != 1:
        return len(params[verb.each]) > 1 and vm._call_each(g, name, params, caller)
    replaced = caller.get("#replaced", ())
    if name in game.guarded_verbs:
        if vm.forbidden(g, name, params):
            if g.log is not None:
                g.log.append({"e": "prevented", "verb": name})
            return False
        if vm._replace(g, name, params, replaced):
            return True
    if {"you", "opponent", "self"}.isdisjoint(verb.params):
        env = params  # (the same dict, as the generated callers keep it)
        env["you"], env["opponent"], env["self"] = caller["you"], caller["opponent"], caller["self"]
    else:
        env = {"you": caller["you"], "opponent": caller["opponent"], "self": caller["self"],
               **params}
    hearing = game.triggers_on.get(verb.event) if verb.card_params else None
    if hearing is not None:
        env["#live"] = vm.lookback(g, hearing, [c for p in verb.card_params for c in params[p]])
    if replaced:
        env["#replaced"] = replaced
    if name not in game.direct_verbs:
        g.frames.append(Frame(verb.body, env, "verb"))
        return True
    below = len(g.frames)
    resume = verb.body[0].fn(g, env)
    if resume is None:
        return False
    f = Frame(verb.body, env, "verb")  # it goes on in the VM, after what it left to run
    f.pc = resume
    g.frames.insert(below, f)
    return True


# ---------- reading ----------
def read(g: GameState, cid: int, prop: str) -> Any:
    """A card's property or state as code reads it. A declared property is None while a state
    hides it (unless `always_known`), else its printed value (or formula), then its modifiers
    in the ruleset's order (a number's `=`, `+=`, `-=` in turn; a word's latest `=`), then a
    number is clamped to its bounds; only a property some text modifies (or a formula) has
    modifiers to look at (game.modified_props). A state is whether the card is in it; an
    engine attribute (name, owner, zone...) reads as state.CARD_READERS; any other name is
    None."""
    game = g.game
    pdef = game.ruleset.properties.get(prop)
    if pdef is None:
        sdef = game.ruleset.states.get(prop)
        if sdef is not None:
            return bool(g.flags[cid] >> sdef.index & 1)
        attr = CARD_READERS.get(prop)
        return None if attr is None else attr(g, cid)
    modified = prop in game.modified_props
    if modified and pdef.type != "number":
        return g.word(cid, pdef)
    if g.flags[cid] & game.hiding_mask and not pdef.always_known:
        return None
    value = g.defs[cid].printed[list(game.ruleset.properties).index(prop)] \
        if pdef.formula is None else pdef.formula(g, {"it": cid})
    if modified:
        for op, amount, _stamp in g.mods_of(cid, prop) or ():
            value = value or 0
            value = amount if op == "=" else value + amount if op == "+=" else value - amount
    if value is not None:
        if pdef.min is not None and value < pdef.min:
            value = pdef.min
        if pdef.max is not None and value > pdef.max:
            value = pdef.max
    return value


def every_rule(rules: tuple) -> Callable[[dict, int], tuple]:
    """The state rules to ask at a timing point (Game.rules_changed): all of them, every time
    (a rule acts whenever its condition holds). The fast path asks only those something they
    read changed on since they last found nothing (vm.rules_changed)."""
    return lambda marks, since: rules


def zone_label(ref: ZoneRef) -> str:
    """A zone as logs show it: its name, and its owner for a player's zone (`hand@P1`)."""
    return ref.name if ref.owner < 0 else f"{ref.name}@P{ref.owner + 1}"


def check_end_on(g: GameState, *channels: str) -> None:
    """The win/loss rules, once, after a change on `channels`, when one of them reads one."""
    ends = g.game.end_reads
    if g.game.end_check is not None and (ends is None or not ends.isdisjoint(channels)):
        g.game.end_check(g)


def tables(game: Any) -> dict[str, dict]:
    """The reference path's per-game tables (Game.movers and the others), each entry one of
    the functions above, in place of the generated ones."""
    verbs = game.ruleset.verbs
    numbers = (*game.ruleset.resources, *game.ruleset.counters)
    return {
        "movers": dict.fromkeys(game.ruleset.zones, move),
        "setters": dict.fromkeys(game.ruleset.states, set_state),
        "flippers": dict.fromkeys(("up", "down"), flip),
        "changers": dict.fromkeys(numbers, change),
        "assigners": dict.fromkeys(numbers, assign),
        "callers": {name: _caller(name) for name in verbs},
    }


def _caller(name: str) -> Any:
    def call(g: GameState, params: dict, caller: dict) -> bool:
        return call_verb(g, name, params, caller)
    return call

