"""The engine's primitive operations. Rulesets build their own verbs from these.

Each primitive mutates the state one atomic step at a time and runs the state
checks after each step, so a loss ends the game in the middle of an effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.engine import chance, kernel, vm
from interpreter.engine.actions import Offer
from interpreter.engine.model import offered
from interpreter.engine.priority import counter
from interpreter.engine.state import Frame, GameOver, GameState, Result, ZoneRef


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # cards | zone | player | number | text | state | name | any | ability | bool
    default: Any = ...


@dataclass(frozen=True)
class Primitive:
    fn: Callable
    params: tuple[Param, ...]
    doc: str


def move(g: GameState, env: dict, cards: Any, to: ZoneRef, position: str = "top",
         face: str | None = None, at: int | None = None) -> None:
    """Move cards to a zone: the game's mover for that zone does it (see movers)."""
    if to is not None:  # (a zone of no one, of an owner that is none: nothing to do, 1.1.4-style)
        g.game.movers[to.name](g, env, cards, to, position, face, at)


def movers(game: Any) -> dict[str, Callable]:
    """Per zone, a `move` into it made for this game: what it reads about the zone (its
    capacity and face, whether abilities work there, who hears a move, whether a win/loss
    rule reads it) is folded into its code. Asked once per game (and per narrowed game:
    who hears a move and where abilities work depend on the cards)."""
    hearing = game.triggers_on.get("moved")
    ends = game.end_reads if game.end_check is not None else frozenset()
    out = {}
    for name, zdef in game.ruleset.zones.items():
        plan = (zdef.capacity is not None, zdef.shared, name in game.scan_zone_set,
                hearing is not None, ends is None or name in ends, bool(ends),
                game.remembers,
                bool(game.ruleset.pools) and not zdef.shared, bool(zdef.enter),
                zdef.area is not None)
        make = _MOVER_MAKERS.get(plan)
        if make is None:
            make = _MOVER_MAKERS[plan] = _mover_maker(*plan)
        out[name] = make(name, zdef.capacity, zdef.face == "up", game.scan_zone_set, hearing,
                         ends, game.end_check, game.show, _area(game, zdef))
    return out


def _area(game: Any, zdef: Any) -> frozenset[str]:
    """The zones of `zdef`'s area (a card moving between two of one player's keeps its object:
    kernel.keeps), none when it is of no area."""
    zones = game.ruleset.zones.values()
    return frozenset(z.name for z in zones if zdef.area is not None and z.area == zdef.area)


# makers of movers, by what they fold (see movers)
_MOVER_MAKERS: dict[tuple, Callable[..., Callable]] = {}


def _mover_maker(full: bool, shared: bool, into_play: bool, heard: bool, to_ends: bool,
                 ends: bool, keeps_left: bool, adopt: bool,
                 guarded: bool, area: bool) -> Callable[..., Callable]:
    """A maker of movers into zones that have a capacity (`full`), of no one (`shared`: a
    card entering is controlled by its owner, else by the zone's), where abilities work
    (`into_play`), when some triggered ability hears a move (`heard`), whose cards a win/loss
    rule reads (`to_ends`) or not while it reads some zone (`ends`), keeping the stamp a card
    had where it left (`keeps_left`: kernel.move's `left_stamp`), of a player in a game with
    pools (`adopt`: a pool's card, of no player, becomes the zone's), with `enter` rules
    (`guarded`: kernel.refused asks them of each card), of an `area` (a card coming from a
    zone of it, AREA, of the same player stays the same object: kernel.keeps). What differs between
    such zones and games, the maker's arguments, the mover reads from its closure (a local's
    speed; its code is shared). A move to a position (`at`) is the kernel's: rare, it keeps
    the per-card loop of the others free of a test."""
    lines = [
        "def make(NAME, CAPACITY, UP, SCAN, HEARING, ENDS, check_end, show, AREA):",
        "  def move(g, env, cards, to, position='top', face=None, at=None):",
        "    if at is not None:",
        "        return move_at(g, env, cards, to, position, face, at)",
        "    if type(cards) is not tuple:",
        "        cards = (cards,) if type(cards) is int else as_cards(g, cards)",
        "    up = UP if face is None else face == 'up'",
        # (three at most: CPython assigns two or three values without building a tuple)
        "    zones, zone_of, marks = g.zones, g.zone_of, g.marks",
        "    dest = zones[to]",
        *([] if shared else ["    owned = to.owner"]),
        # (nothing in the loop adds modifiers, counters, sightings or attachments)
        # (some card may have some to forget)
        "    tidy = g.mods or g.counters or g.known or g.host or g.under",
        "    for cid in cards:",
        "        src = zone_of[cid]",
    ]
    if full:
        lines += ["        if len(dest) >= CAPACITY and src is not to:",
                  "            if g.log is not None:",
                  "                g.log.append({'e': 'move_failed', 'card': show(g, 'card', cid),"
                  " 'to': label(to), 'why': 'zone is full'})",
                  "            continue"]
    if guarded:
        lines += ["        if src is not to:",
                  "            why = refused(g, cid, to)",
                  "            if why is not None:",
                  "                refuse(g, cid, to, why)",
                  "                continue"]
    # the cards whose abilities work may have changed
    lines += ["        g.epoch += 1"] if into_play \
        else ["        if src.name in SCAN:", "            g.epoch += 1"]
    lines += [
        "        zones[src].remove(cid)",
        "        if position == 'bottom':",
        "            dest.append(cid)",
        "        else:",
        "            dest.insert(0, cid)",
        "        zone_of[cid] = to",
    ]
    renew = [  # a new object: no state, new face and controller; the cards beneath follow it
        "below = beneath(g, cid) if g.under else ()",
        "g.flags[cid] = 0",
        "g.face[cid] = up",
        "g.controller[cid] = g.owner[cid]" if shared else "g.controller[cid] = owned",
        *(["g.left_stamp[cid] = g.stamp[cid]"] if keeps_left else []),
        *(["if g.owner[cid] is None:", "    g.owner[cid] = owned"] if adopt else []),
        "g.stamp[cid] = g.clock = g.clock + 1",
        "if tidy:",
        "    forget(g, cid)",
    ]
    if area:  # (kernel.keeps: the same object within the area)
        lines += ["        if src.name in AREA and src.owner == to.owner:",
                  "            below = ()",
                  "            if face is not None:",
                  "                g.face[cid] = up",
                  "        else:", *("            " + line for line in renew)]
    else:
        lines += ["        " + line for line in renew]
    fields = "{'card': cid, 'from_zone': src.name, 'to_zone': NAME, 'player': g.owner[cid]}"
    if heard:  # the card looks back at the zone it left, if an ability of it there could hear
        lines += ["        gone = ((cid, src.name),) if g.defs[cid].id in HEARING "
                  "and src.name in SCAN else ()",
                  "        if not quiet(g, 'moved', gone):",
                  f"            emit(g, 'moved', {fields}, gone)"]
    else:  # (vm.quiet, inlined: nothing hears it)
        lines += ["        if g.log is None:", "            g.version += 1", "        else:",
                  f"            emit(g, 'moved', {fields})"]
    lines.append("        marks[src.name] = marks[NAME] = g.version")
    if to_ends:  # (vm.check_end, without the channel test)
        lines.append("        check_end(g)")
    elif ends:
        lines += ["        if src.name in ENDS:", "            check_end(g)"]
    lines += ["        if below:", "            carry(g, cid, below, to, up, HEARING)"]
    lines.append("  return move")
    return _maker(lines)


def shuffle(g: GameState, env: dict, zone: ZoneRef) -> None:
    if zone is None:
        return
    chance.shuffle(g, g.zones[zone])
    if zone.name in g.game.scan_zone_set:
        g.epoch += 1  # (the order of the cards whose abilities work changed)
    if not vm.quiet(g, "shuffled"):
        vm.emit(g, "shuffled", {"zone": zone})
    g.marks[zone.name] = g.version
    vm.check_end(g, zone.name)


def set_state(g: GameState, env: dict, cards: Any, state: str, value: bool = True) -> None:
    """Set or clear a card state: the game's setter for that state does it (see setters)."""
    g.game.setters[state](g, env, cards, state, value)


def setters(game: Any) -> dict[str, Callable]:
    """Per state, a `set_state` of it made for this game: its bit, the phase or turn it ends
    with, whether it starts or stops the card's abilities, whether anything hears it, its
    change channel, whether a win/loss rule reads that and whether setting it drops the card's
    modifiers are folded into its code."""
    heard, ends = "state" in game.triggers_on, game.end_reads
    out = {}
    for name, sdef in game.ruleset.states.items():
        bit, until, channel = 1 << sdef.index, game.state_ends.get(name), game.state_marks[name]
        check = (ends is None or channel in ends) and game.end_check
        plan = (until is not None, bool(bit & game.disabling_mask), heard, bool(check),
                sdef.removes_modifiers)
        make = _SETTER_MAKERS.get(plan)
        if make is None:
            make = _SETTER_MAKERS[plan] = _setter_maker(*plan)
        out[name] = make(bit, until, channel, check)
    return out


_SETTER_MAKERS: dict[tuple, Callable[..., Callable]] = {}  # (see _setter_maker)


def _setter_maker(ends_with: bool, disabling: bool, heard: bool,
                  check: bool, silencing: bool) -> Callable[..., Callable]:
    """A maker of setters of states that end with a phase or turn (`ends_with`), that start
    or stop the card's abilities (`disabling`), when some triggered ability hears a state
    change (`heard`), that a win/loss rule reads (`check`), whose setting drops the card's
    modifiers (`silencing`). As _mover_maker: what differs, the maker's arguments, is in the
    setter's closure."""

    def changed(on: bool) -> list[str]:  # a card's state changed
        fields = f"{{'card': cid, 'state': state, 'value': {on}}}"
        return [*(["g.epoch += 1"] if disabling else []),
                *(["if not quiet(g, 'state'):", f"    emit(g, 'state', {fields})"] if heard
                  else ["if log is None:", "    g.version += 1", "else:",  # (vm.quiet, inlined)
                        f"    emit(g, 'state', {fields})"]),
                "g.marks[CHANNEL] = g.version", *(["check_end(g)"] if check else [])]

    lines = [
        "def make(BIT, UNTIL, CHANNEL, check_end):",
        "  def set_state(g, env, cards, state, value=True):",
        "    if type(cards) is not tuple:",
        "        cards = (cards,) if type(cards) is int else as_cards(g, cards)",
        "    flags, log = g.flags, g.log",
        "    if value:",
        "        for cid in cards:",
        "            had = flags[cid]",
        "            if had & BIT:",
        "                continue",
        "            flags[cid] = had | BIT",
        *(["            g.expiring.setdefault(UNTIL, []).append(cid)"] if ends_with else []),
        *(["            if g.mods:", "                drop_mods(g, cid)"] if silencing else []),
        *("            " + line for line in changed(True)),
        "    else:",
        "        for cid in cards:",
        "            had = flags[cid]",
        "            if not had & BIT:",
        "                continue",
        "            flags[cid] = had & ~BIT",
        *("            " + line for line in changed(False)),
        "  return set_state"]
    return _maker(lines)


def _maker(lines: list[str]) -> Callable[..., Callable]:
    """The function `make` the lines define (the code of a mover or a setter)."""
    namespace: dict[str, Any] = {"as_cards": vm.as_cards, "forget": kernel.forget, "emit": vm.emit,
                 "quiet": vm.quiet, "label": kernel.zone_label, "move_at": kernel.move,
                 "drop_mods": kernel.drop_mods, "refused": kernel.refused,
                 "refuse": kernel.refuse, "beneath": kernel.beneath, "carry": kernel.carry}
    exec(compile("\n".join(lines) + "\n", "<primitive>", "exec"), namespace)  # noqa: S102 (ours)
    return namespace["make"]


def flip(g: GameState, env: dict, cards: Any, face: str) -> None:
    """Turn cards face up or down: the game's function for the face does it (see flippers)."""
    flippers = g.game.flippers
    fn = flippers[face] if face in flippers else _flipper(g.game, face)
    fn(g, env, cards, face)


def flippers(game: Any) -> dict[str, Callable]:
    """Per face (up, down), a `flip` to it made for this game: whether anything hears a flip
    and whether a win/loss rule reads faces are folded into its code."""
    return {face: _flipper(game, face) for face in ("up", "down")}


def _flipper(game: Any, face: str) -> Callable:
    """The function of flippers() for one face (any other text turns cards face down)."""
    if game.reference:
        return kernel.flip
    ends = game.end_reads
    check = (ends is None or "@face" in ends) and game.end_check
    plan = ("flipped" in game.triggers_on, bool(check))
    make = _FLIPPER_MAKERS.get(plan)
    if make is None:
        make = _FLIPPER_MAKERS[plan] = _flipper_maker(*plan)
    return make(face == "up", check)


_FLIPPER_MAKERS: dict[tuple, Callable[..., Callable]] = {}  # (see _flipper_maker)


def _flipper_maker(heard: bool, check: bool) -> Callable[..., Callable]:
    """A maker of flips when some triggered ability hears one (`heard`), when a win/loss rule
    reads faces (`check`). As _mover_maker: what differs is in the function's closure."""
    fields = "{'card': cid, 'face': face}"
    lines = [
        "def make(UP, check_end):",
        "  def flip(g, env, cards, face):",
        "    if type(cards) is not tuple:",
        "        cards = (cards,) if type(cards) is int else as_cards(g, cards)",
        "    faces, marks = g.face, g.marks",
        "    for cid in cards:",
        "        if faces[cid] is UP:",  # (as set_state: no change, no event)
        "            continue",
        "        faces[cid] = UP",
        *(["        if not quiet(g, 'flipped'):", f"            emit(g, 'flipped', {fields})"]
          if heard else ["        if g.log is None:", "            g.version += 1",  # (vm.quiet)
                         "        else:", f"            emit(g, 'flipped', {fields})"]),
        "        marks['@face'] = g.version",
        *(["        check_end(g)"] if check else []),
        "  return flip"]
    return _maker(lines)


def change(g: GameState, env: dict, target: Any, name: str, n: int) -> None:
    """A player's resource or cards' counter `name` grows by n: the game's function for the
    name does it (see numbers)."""
    changers = g.game.changers
    fn = changers[name] if name in changers else _number_fn(g.game, name, True)
    fn(g, env, target, name, n)


def assign(g: GameState, env: dict, target: Any, name: str, n: int) -> None:
    """A player's resource or cards' counter `name` becomes n (see change)."""
    assigners = g.game.assigners
    fn = assigners[name] if name in assigners else _number_fn(g.game, name, False)
    fn(g, env, target, name, n)


def numbers(game: Any, add: bool) -> dict[str, Callable]:
    """Per resource and counter, a `change` (`add`) or `assign` of it made for this game:
    whether it is a resource, its floor, whether anything hears it and whether a win/loss
    rule reads it are folded into its code."""
    return {name: _number_fn(game, name, add)
            for name in (*game.ruleset.resources, *game.ruleset.counters)}


def _number_fn(game: Any, name: str, add: bool) -> Callable:
    """The function of numbers() for one name (a name no ruleset declares, from a variable,
    is a counter's)."""
    if game.reference:
        return kernel.change if add else kernel.assign
    spec = game.ruleset.resources.get(name)
    channel = ("counter:" if spec is None else "res:") + name
    low, high = (None, None) if spec is None else (spec.get("min"), spec.get("max"))
    event = "counter" if spec is None else "resource"
    check = (game.end_reads is None or channel in game.end_reads) and game.end_check
    plan = (spec is not None, low is not None, high is not None, event in game.triggers_on,
            bool(check), add)
    make = _NUMBER_MAKERS.get(plan)
    if make is None:
        make = _NUMBER_MAKERS[plan] = _number_maker(*plan)
    return make(name, low, high, channel, check)


_NUMBER_MAKERS: dict[tuple, Callable[..., Callable]] = {}  # (see _number_maker)


def _number_maker(resource: bool, low: bool, high: bool, heard: bool, check: bool,
                  add: bool) -> Callable[..., Callable]:
    """A maker of changes (`add`) or assignments of resources (`resource`, with a floor:
    `low`, a cap: `high`) or counters, that a triggered ability hears (`heard`), that a win/loss rule reads
    (`check`). As _mover_maker: what differs is in the function's closure."""
    event, who = ("resource", "player") if resource else ("counter", "card")
    fields = f"{{{who!r}: who, 'name': NAME, 'value': value, 'delta': value - old}}"
    set_value = [
        "value = old + n" if add else "value = n",
        *(["if value < LOW:", "    value = LOW"] if low else [] if resource
          else ["if value < 0:", "    value = 0"]),
        *(["if value > HIGH:", "    value = HIGH"] if high else []),
        f"{'res' if resource else 'counters'}[key] = value",
        *([f"if not quiet(g, {event!r}, changed=value != old):",
           f"    emit(g, {event!r}, {fields}, changed=value != old)",
           "if value != old:", "    g.marks[CHANNEL] = g.version"] if heard else
          ["if g.log is not None:",  # (vm.quiet, inlined: it hears nothing else)
           f"    emit(g, {event!r}, {fields}, changed=value != old)",
           "    if value != old:", "        g.marks[CHANNEL] = g.version",
           "elif value != old:", "    g.version += 1", "    g.marks[CHANNEL] = g.version"])]
    if resource:
        body = ["n = n or 0", "who, res, key = target, g.res[target], NAME",
                "old = res[key] if key in res else 0", *set_value]
    else:
        body = ["n = n or 0", "counters = g.counters",
                "for who in target if type(target) is tuple else as_cards(g, target):",
                "    key = (who, NAME)",
                "    old = counters[key] if key in counters else 0",
                *("    " + line for line in set_value)]
    lines = ["def make(NAME, LOW, HIGH, CHANNEL, check_end):",
             "  def number(g, env, target, name, n):",
             *("    " + line for line in body),
             *(["    check_end(g)"] if check else []),
             "  return number"]
    return _maker(lines)


def reveal(g: GameState, env: dict, cards: Any) -> None:
    cards = vm.as_cards(g, cards)
    everyone = (1 << g.game.ruleset.players) - 1
    for cid in cards:
        g.known[cid] = everyone
    if not vm.quiet(g, "revealed"):
        vm.emit(g, "revealed", {"cards": cards})


def look(g: GameState, env: dict, cards: Any, player: int) -> None:
    """Only `player` sees the cards (until they change zones)."""
    cards = vm.as_cards(g, cards)
    for cid in cards:
        g.known[cid] = g.known.get(cid, 0) | 1 << player
    if not vm.quiet(g, "looked"):
        vm.emit(g, "looked", {"cards": cards, "player": player}, private_to=player)


def win(g: GameState, env: dict, player: int, reason: str = "an effect", ref: str = "") -> None:
    raise GameOver(Result(player, f"P{player + 1} wins: {reason}", ref))


def lose(g: GameState, env: dict, player: int, reason: str = "an effect", ref: str = "") -> None:
    raise GameOver(Result(g.other(player), f"P{player + 1} loses: {reason}", ref))


def draw_game(g: GameState, env: dict, reason: str = "an effect", ref: str = "") -> None:
    raise GameOver(Result(None, f"draw: {reason}", ref))


def first_turn(g: GameState, env: dict, player: int) -> None:
    """`player` takes the first turn (from `setup`, e.g. after a coin toss); until then they
    count as the turn player, so `turn_order` starts with them."""
    g.turn_player = player
    if not vm.quiet(g, "first_turn"):
        vm.emit(g, "first_turn", {"player": player})
    g.marks["@turn"] = g.version


def attach(g: GameState, env: dict, card: Any, host: Any) -> None:
    """Attach cards to a host card (possession, equipment); attached() lists them in order."""
    hosts = vm.as_cards(g, host)
    if not hosts:
        return
    for cid in vm.as_cards(g, card):
        g.host[cid] = hosts[0]
        g.clock += 1
        g.stamp[cid] = g.clock
        if not vm.quiet(g, "attached"):
            vm.emit(g, "attached", {"card": cid, "host": hosts[0]})
        g.marks["@host"] = g.version
        vm.check_end(g, "@host")


def offer(g: GameState, env: dict, player: int, action: str) -> bool:
    """Give a player a window to take an action, or one of a named window's actions (or
    pass), e.g. a response to a declaration. True when the window is left to run (HANDING)."""
    codes = g.game.offer_codes
    code = codes[action] if action in codes else _offer_code(g, action)
    return code[0].open(g, code, player)


def _offer_code(g: GameState, action: str) -> tuple:
    """The window's code, made once per game (some rulesets offer a window at every
    declaration)."""
    w = g.game.ruleset.windows.get(action)
    code = g.game.offer_codes[action] = (
        Offer(offered(g.game.ruleset, action), None, action) if w is None
        else Offer(w.actions, w.max_actions, w.name),)
    return code


def cancel(g: GameState, env: dict) -> None:
    vm.cancel_action(g)


def cancel_triggers(g: GameState, env: dict, card: Any) -> None:
    """Triggered abilities of these cards that are waiting will not resolve: those not yet
    ordered or queued, and those on the stack (timing: priority)."""
    kernel.drop_waiting(g, set(vm.as_cards(g, card)), ("trigger",))


def resolve(g: GameState, env: dict, ability: Any) -> None:
    cid, idx = ability
    body = g.defs[cid].abilities[idx].body
    g.frames.append(Frame(body, vm.effect_env(g, cid, g.controller[cid]), "effect"))


def run(g: GameState, env: dict, card: Any) -> None:
    for cid in vm.as_cards(g, card):
        g.frames.append(Frame(g.defs[cid].effect, vm.effect_env(g, cid, env["you"]), "effect"))


# primitives that start code (a frame) to run after them, or drop running code: only the last
# statement of a decision-free run may be one of them (compile/straight.py)
FRAMING = frozenset({"cancel", "resolve", "run"})
# primitives that may start code to run after them, returning True when they did: a
# decision-free run goes on after one as after a verb call, handing over when it did
HANDING = frozenset({"offer"})

P = Param
PRIMITIVES: dict[str, Primitive] = {
    "move": Primitive(move, (P("cards", "cards"), P("to", "zone"), P("position", "text", "top"),
                             P("face", "text", None), P("at", "number", None)),
                      "move cards to a zone, one at a time (top or bottom, or to position `at`; "
                      "face up or down)"),
    "shuffle": Primitive(shuffle, (P("zone", "zone"),), "shuffle a zone with the match RNG"),
    "set": Primitive(set_state, (P("cards", "cards"), P("state", "state"), P("value", "bool", True)),
                     "set or clear a card state"),
    "flip": Primitive(flip, (P("cards", "cards"), P("face", "text")), "turn cards face up or down"),
    "change": Primitive(change, (P("target", "any"), P("name", "name"), P("n", "number")),
                        "add n to a player resource or a card counter"),
    "assign": Primitive(assign, (P("target", "any"), P("name", "name"), P("n", "number")),
                        "set a player resource or a card counter to n"),
    "reveal": Primitive(reveal, (P("cards", "cards"),), "show cards to every player"),
    "look": Primitive(look, (P("cards", "cards"), P("player", "player")),
                      "let one player see cards (e.g. the top of their deck)"),
    "win": Primitive(win, (P("player", "player"), P("reason", "text", "an effect"),
                           P("ref", "text", "")), "the player wins now (ref: the rule, for the log)"),
    "lose": Primitive(lose, (P("player", "player"), P("reason", "text", "an effect"),
                             P("ref", "text", "")), "the player loses now"),
    "draw_game": Primitive(draw_game, (P("reason", "text", "an effect"), P("ref", "text", "")),
                           "the game is a draw"),
    "first_turn": Primitive(first_turn, (P("player", "player"),),
                            "the player takes the first turn (in setup: after a coin toss)"),
    "create": Primitive(kernel.create, (P("name", "text"), P("to", "zone"), P("face", "text", None),
                                 P("n", "number", 1), P("at", "number", None)),
                        "create tokens or cards of the card sets in a zone (on top, or at position `at`)"),
    "transform": Primitive(kernel.transform, (P("cards", "cards"), P("name", "text")),
                           "cards become another card in place (zone and position kept), "
                           "as new objects"),
    "detach": Primitive(kernel.detach, (P("cards", "cards"),),
                        "cards stop being attached to their hosts and stay where they are"),
    "copy": Primitive(kernel.copy, (P("cards", "cards"), P("to", "zone"), P("face", "text", None),
                                    P("as_is", "bool", False)),
                      "new cards made from the definitions of cards (as_is: with their states, "
                      "counters and modifiers as they are now)"),
    "swap": Primitive(kernel.swap, (P("a", "cards"), P("b", "cards")),
                      "two cards exchange places (zones and positions)"),
    "put_on": Primitive(kernel.put_on, (P("card", "cards"), P("onto", "cards")),
                        "put a card on top of another: it takes the stack's place, counters and "
                        "attachments; the covered card goes beneath it (beneath(card))"),
    "attach": Primitive(attach, (P("card", "cards"), P("host", "cards")),
                        "attach cards to a host card; attached(host) lists them, oldest first"),
    "offer": Primitive(offer, (P("player", "player"), P("action", "action")),
                       "let a player take an action (or one of a window's) now, or pass"),
    "cancel": Primitive(cancel, (), "abandon the running action: it does not count as done"),
    "cancel_triggers": Primitive(cancel_triggers, (P("card", "cards"),),
                                 "waiting triggered abilities of these cards (on the stack too) "
                                 "will not resolve"),
    "resolve": Primitive(resolve, (P("ability", "ability"),),
                         "pay an activated ability's cost and resolve it"),
    "run": Primitive(run, (P("card", "cards"),), "resolve a card's own effect (a spell)"),
    "counter": Primitive(counter, (P("card", "cards"),),
                         "these cards' spells, and their abilities the resolving object "
                         "targets, leave the stack without resolving (timing: priority)"),
}
