"""The run loop: execute frames until a player must decide or the game ends.

Also the engine's event machinery: emitting events (the triggered abilities that hear them
are collected, ordered and delivered by engine/triggers.py), the timing points' state rules,
and the state checks that end the game at the instant a rule says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter
from typing import Any, NoReturn

from interpreter.engine import delayed, limits, repetition, triggers
from interpreter.engine.state import (
    Decision,
    Frame,
    GameOver,
    GameState,
    Result,
    ZoneRef,
)
from interpreter.engine.timing import inline_settle, needs_settling
from interpreter.engine.triggers import effect_env

MAX_STEPS_PER_DECISION = 200_000


_RUN = object()  # answer's option when there is no question to resume: run on


def run(g: GameState) -> None:
    """Execute until a decision is pending or the game is over."""
    if g.result is None:  # only finish() sets it: below, GameOver ends the loop
        answer(g, _RUN)


def finish(g: GameState, result: Result) -> None:
    g.result = Result(result.winner, result.reason, result.ref, g.turn)
    g.decision = None
    g.frames.clear()
    if g.log is not None:
        g.log.append({"e": "game_over", "winner": _player(result.winner),
                      "reason": result.reason, "ref": result.ref, "turns": g.turn})


def ask(g: GameState, player: int, kind: str, options: tuple, prompt: str) -> None:
    g.decision = Decision((player, kind, options, prompt))


@inline_settle
def answer(g: GameState, option: Any) -> None:
    """Resume the instruction that asked, with the chosen option, and run on until a decision
    is pending or the game is over. (The run loop is here, not in run(): one call less an
    answer.)"""
    frames = g.frames
    try:
        if option is not _RUN:
            g.decision = None
            g.decisions += 1
            if g.decisions > limits.MAX_DECISIONS:
                limits.decisions(g)
            if g.seen:
                g.seen.clear()  # a forced loop is one that runs without decisions
            f = frames[-1]
            f.code[f.pc].resume(g, f, option)  # (it may go on up to the next question)
        steps, limit = 0, MAX_STEPS_PER_DECISION  # (counting up: small ints are not allocated)
        while g.decision is None:
            try:  # (no truth test of the list, a call: a try costs nothing until it fails)
                f = frames[-1]
            except IndexError:
                raise GameOver(Result(None, "the game program ended", turns=g.turn)) from None
            code = f.code
            end = len(code)
            # stay on this frame while it runs on: no frame pushed or popped, no question (the
            # game's frame, at the bottom, is only popped here: `frames` is never empty there)
            while (pc := f.pc) < end:
                code[pc].run(g, f)  # (a timing point settles first: see Instr)
                steps += 1
                if g.decision is not None or frames[-1] is not f or steps > limit:
                    break
            else:
                frames.pop()
                if f.kind in _EFFECT_KINDS:  # an effect's end
                    if "#complete" in f.env:  # an action whose limit counts once it completes
                        done = f.env["#complete"]
                        g.counts[done] = g.counts.get(done, 0) + 1
                    if needs_settling(g):  # a timing point
                        settle_point(g)
                continue  # (no run here: `steps` is as it was)
            if steps > limit:
                raise GameOver(Result(None, f"loop limit: {MAX_STEPS_PER_DECISION} steps "
                                            "without a decision", turns=g.turn))
    except GameOver as over:
        finish(g, over.result)


# ---------- values ----------
def as_cards(g: GameState, value: Any) -> tuple[int, ...]:
    kind = type(value)
    if kind is tuple:
        return value
    if kind is int:  # (the primitives' common case: one card, before any isinstance call)
        return (value,)
    if value is None:
        return ()
    if isinstance(value, ZoneRef):
        return tuple(g.zones[value])
    if isinstance(value, int):
        return (value,)
    return tuple(value)


def distinct_cards(g: GameState, cards: tuple[int, ...], player: int) -> tuple[int, ...]:
    """One card per class of interchangeable cards, as `player` sees them: the first of
    each, in order.

    Copies of one card in the same zone and condition make the same choice; offering
    each of them would only multiply decisions. Cards the player cannot see, or with
    counters (above 0) or modifiers of their own, are never merged (that would leak or lose
    facts).
    """
    if len(cards) < 2:
        return cards
    defs = g.defs
    plain = not (g.mods or g.counters or g.host or g.under)  # no card marked (_unmerged)
    marked = None  # the marked cards, once looked up (marked_cards)
    first: dict = {}  # printed card -> its first card here, or its classes here (kept_copy)
    out = []
    for c in cards:  # a card's class is only looked at once a copy of it shows up
        i = defs[c].id
        if i not in first:
            first[i] = c
            out.append(c)
        elif type(a := first[i]) is int and (plain or a not in (
                marked := marked or marked_cards(g, first)) and c not in marked) \
                and (ref := g.zone_of[c]) is g.zone_of[a] and g.flags[a] == g.flags[c] \
                and (face := g.face[c]) == g.face[a] and (owner := g.owner[c]) == g.owner[a] \
                and ((vis := g.game.visibility[ref.name]) == "public" and face
                     or vis != "hidden" and owner == player or player is None):
            pass  # (kept_copy's common case, inlined: a copy alike the first card, _alike)
        elif kept_copy(g, first, i, c, player):
            out.append(c)
    return tuple(out)


def distinct_after(g: GameState, cards: tuple[int, ...], at: int, shown: tuple[int, ...],
                   picked: int, player: int) -> tuple[int, ...]:
    """distinct_cards(g, cards, player), known the classes before `picked` left the cards from
    index `at`: `shown` was their first cards then, `picked` among them. The other classes keep
    their first card; picked's class shows its next card, if any, in its place in the order.
    (A choice's next pick: nothing changes between two picks, so no other class is looked at.)"""
    k = shown.index(picked)
    rest = shown[:k] + shown[k + 1:]
    defs, i, n = g.defs, g.defs[picked].id, len(rest)
    marked = _unmerged(g)
    for c in cards[at:]:  # (k: where the next shown card after picked is in rest)
        if k < n and c == rest[k]:
            k += 1
        elif defs[c].id == i and (marked is _NONE and _alike(g, picked, c, player) or card_class(
                g, picked, player, marked) == card_class(g, c, player, marked)):
            return rest[:k] + (c,) + rest[k:]
    return rest


def kept_copy(g: GameState, first: dict, i: int, c: int, player: int) -> bool:
    """distinct_cards' test of card `c`, a copy of printed card `i` that showed before
    (`first[i]`: the first card of it, or the classes of its cards so far): False when an
    earlier card is in its class. The generated action selections call it too.
    The cards never merged (_unmerged) are found once per list of cards: `first[None]`."""
    classes = first[i]
    marked: Any = _NONE
    if g.mods or g.counters or g.host or g.under:
        marked = first.get(None)
        if marked is None:
            marked = first[None] = _unmerged(g)
        if type(classes) is int and (classes in marked or c in marked):
            classes = first[i] = {card_class(g, classes, player, marked): None}
    if type(classes) is int:  # the first copy (neither it nor the first card is marked)
        if _alike(g, classes, c, player):
            return False  # (no class looked at: the common case)
        classes = first[i] = {card_class(g, classes, player, marked): None}
    key = card_class(g, c, player, marked)
    if key in classes:
        return False
    classes[key] = None  # (a dict: set() is a call)
    return True


def marked_cards(g: GameState, first: dict) -> set | frozenset:
    """The marked cards (_unmerged), kept where kept_copy looks for them (`first`: see
    distinct_cards)."""
    marked = first[None] = _unmerged(g)
    return marked


def _alike(g: GameState, a: int, b: int, player: int) -> bool:
    """Copies `a` and `b`, neither marked, are in one class by the rule of their zone: in
    the same zone, condition and owner, which `player` sees (as card_class; a card the
    player has only looked at is left to card_class)."""
    ref = g.zone_of[a]
    face, owner = g.face[a], g.owner[a]
    if ref is not g.zone_of[b] or face != g.face[b] or owner != g.owner[b] \
            or g.flags[a] != g.flags[b]:
        return False
    vis = g.game.visibility[ref.name]
    return vis == "public" and face or vis != "hidden" and owner == player or player is None


def card_classes(g: GameState, cards: Iterable[int | None], player: int) -> list:
    """Per card (None stays None), a key under which interchangeable cards (as `player`
    sees them) are equal. Copies of one card share a definition: cards of different
    definitions never share a key."""
    marked = _unmerged(g)
    return [c if c is None else card_class(g, c, player, marked) for c in cards]


def card_class(g: GameState, c: int, player: int, marked: set | frozenset) -> Any:
    """The card's key: (printed card, zone, face, states, owner) when `player` sees it and
    it is not `marked` (see _unmerged); the card itself otherwise."""
    if c in marked:
        return c
    ref = g.zone_of[c]
    vis = g.game.visibility[ref.name]  # as visible(g, c, player), inlined
    face = g.face[c]
    if vis == "public" and face or vis != "hidden" and g.owner[c] == player \
            or player is None or g.known and g.known.get(c, 0) >> player & 1:
        return (g.defs[c].id, ref, face, g.flags[c], g.owner[c])
    return c


_NONE: frozenset = frozenset()
_first = itemgetter(0)  # a modifier's or a counter key's card


def _unmerged(g: GameState) -> set | frozenset:
    """Cards never merged: with modifiers, counters (not at 0: a counter back at 0 is as none)
    or attachments of their own, or cards beneath them."""
    if not (g.mods or g.counters or g.host or g.under):
        return _NONE
    marked = set(map(_first, g.mods))  # (map: no Python frame per item, as a comprehension)
    marked.update(card for (card, _name), n in g.counters.items() if n)
    marked.update(g.host)
    marked.update(g.host.values())
    marked.update(g.under.values())
    return marked


def _player(p: int | None) -> str | None:
    return None if p is None else f"P{p + 1}"


# ---------- events and triggers ----------
def emit(g: GameState, name: str, fields: dict, lookback: tuple = (), ref: str = "",
         private_to: int | None = None, changed: bool = True) -> None:
    """Log an event and collect the triggered abilities that hear it. `changed`: the event
    reports a change to the state (values derived from the state are computed again); False
    for an announcement (a verb was used, a turn is ending) that changes nothing itself."""
    if changed:
        g.version += 1
    if g.log is not None:
        record = {"e": name, **{k: g.game.show(g, k, v) for k, v in fields.items()}}
        if ref:
            record["ref"] = ref
        if private_to is not None:
            record["private"] = f"P{private_to + 1}"
        g.log.append(record)
    if g.delayed:  # (one-shot abilities effects set up: engine/delayed.py)
        delayed.heard(g, name, fields)
    index = g.game.triggers_on.get(name)
    if index is None:
        return
    if not lookback:  # the live abilities that hear it, indexed once per set of live cards
        for cid, idx, ability in live_statics(g).get(("trigger", name), ()):
            triggers.heard(g, cid, idx, ability, fields)
        return
    live = g.live_cards()
    before = dict(lookback)  # card -> the zone it was in (cards that just left, and so on)
    live = live + [c for c in before if c not in live]
    defs = g.defs
    for cid in live:
        heard_by = index.get(defs[cid].id)
        if heard_by is None:
            continue
        for idx in heard_by:
            ability = defs[cid].abilities[idx]
            # it works where the card is now, or where it was just before (a card leaving play)
            if g.game.works(g, cid, ability) \
                    or (cid in before and g.game.works(g, cid, ability, before[cid])):
                triggers.heard(g, cid, idx, ability, fields)


def quiet(g: GameState, name: str, lookback: tuple | None = None,
          changed: bool = True) -> bool:
    """True when no log is kept and no triggered ability can hear this event (a live card's,
    or one of `lookback`): then all emit would do is move the state's version (when the
    event reports a change: `changed`, as for emit), done here, and the caller gathers no
    fields for emit."""
    if g.log is not None or name in g.game.triggers_on and (
            lookback or g.delayed or ("trigger", name) in live_statics(g)):
        return False
    if changed:
        g.version += 1
    return True


def lookback(g: GameState, hearing: dict, cards: tuple[int, ...] | list[int]) -> tuple:
    """(card, zone) for those of `cards` in play now whose abilities could hear an event
    (`hearing`: its index in game.triggers_on), for emit to look back at once they left."""
    defs = g.defs
    cards = [c for c in cards if defs[c].id in hearing]
    if not cards:
        return ()
    live, zone_of = g.live_cards(), g.zone_of
    return tuple([(c, zone_of[c].name) for c in cards if c in live])


_EFFECT_KINDS = frozenset({"effect", "trigger", "action"})


def settle_point(g: GameState) -> bool:
    """State rules, then waiting triggered abilities; True when something was started."""
    # asked very often: no call when there are no state rules, or nothing changed since
    # they last found nothing
    if g.state_rules and g.rules_at != g.version:
        changed = g.game.rules_changed  # (see instructions.Straight.run)
        rules = changed(g.marks, g.rules_at)
        if not rules:  # nothing they read changed since they last found nothing
            g.rules_at = g.version
        elif _fire_state_rules(g, rules):
            return True
    if g.pending or g.queue and not triggers.resolving(g):
        if g.seen is not None and repetition.loop_returned(g):
            return False
        triggers.checkpoint(g)
        return True
    return False


def _fire_state_rules(g: GameState, rules: tuple | list) -> bool:
    """Rules that act whenever their condition holds (a power at 0 sends a card away...).

    They are asked player by player (seat order), rule by rule; the first card found decides.
    Found by a `one_at_a_time` rule, that card alone: its `do` runs as an effect, then every
    rule looks again, so a card an earlier `do` already dealt with is not dealt with twice.
    Found by a `together` rule: every card the `together` rules find, as one event
    (_start_together). A rule is not asked again while nothing it reads changed since all of
    them last found nothing: `rules` are those to ask (Game.rules_changed)."""
    for penv in g.game.player_envs:  # (read-only: an expression writes no variable)
        for rule in rules:
            found = as_cards(g, rule.each(g, penv))
            if found:
                if rule.together:
                    _start_together(g, rules)
                else:
                    g.frames.append(Frame(rule.body, {**penv, "card": found[0]}, "effect"))
                return True
    g.rules_at = g.version
    return False


def _start_together(g: GameState, rules: tuple | list) -> None:
    """Every card each `together` rule of `rules` finds now, for every player (seat order, rule
    by rule; a card once, for the first rule finding it), gets that rule's `do`, all as one
    effect inside a `simultaneously` block: nothing settles between them (they run as blocks;
    the effect's end is the timing point) and the win/loss rules are asked once, after the
    last (だんのこまち 1.4.3e: both players' dango removed at once, the turn player loses)."""
    group: list[Frame] = []
    taken: set[int] = set()
    for penv in g.game.player_envs:
        for rule in rules:
            if rule.together:
                for c in as_cards(g, rule.each(g, penv)):
                    if c not in taken:
                        taken.add(c)
                        group.append(Frame(rule.body, {**penv, "card": c}, "block"))
    g.atomic += 1  # (the Together at the bottom closes it, as at the end of `simultaneously`)
    g.frames.append(Frame(g.game.close_together, {}, "effect"))
    g.frames.extend(reversed(group))  # (the first on top: it runs first)


def rules_changed(rules_with_reads: tuple) -> Callable[[dict, int], tuple | list]:
    """`changed(marks, since)`: the state rules something they read changed on after version
    `since` (as GameState.unchanged: every rule when `since` < 0 or its reads are untracked),
    as one generated function (GameState.unchanged per rule: a call and a loop each)."""
    tests = ["def changed(m, s):", "  if s < 0:", "    return R"]
    reads = [r for _rule, r in rules_with_reads]
    if None not in reads:  # (each channel any of them reads once, where nothing changed)
        tests += [f"  if not ({_changed(set().union(*reads))}):", "    return ()"]
    tests.append("  out = []")
    for i, r in enumerate(reads):
        tests += [f"  if {'True' if r is None else _changed(r)}:", f"    out.append(R{i})"]
    source = "\n".join(tests) + "\n  return out\n"
    rules = tuple(rule for rule, _reads in rules_with_reads)
    namespace: dict[str, Any] = {"R": rules, **{f"R{i}": rule for i, rule in enumerate(rules)}}
    exec(compile(source, "<state rules changed>", "exec"), namespace)  # noqa: S102
    return namespace["changed"]


def _changed(channels: Iterable[str]) -> str:
    """The source of: a change on one of `channels` after version `s` (marks `m`)."""
    return " or ".join(f"m[{c!r}] > s" for c in sorted(channels)) or "False"


def cancel_action(g: GameState) -> None:
    """Abandon the innermost running action: it ends here and does not count as completed."""
    for depth in range(len(g.frames) - 1, -1, -1):
        if g.frames[depth].kind == "action":
            del g.frames[depth:]
            if g.log is not None:
                g.log.append({"e": "cancelled"})
            return


# ---------- verbs, prohibitions, replacements ----------
def statics_of(g: GameState, kind: str, key: str) -> list[tuple]:
    """(source, index, ability) for live abilities of one kind about `key`."""
    if key not in g.game.static_keys.get(kind, ()):
        return []
    return live_statics(g).get((kind, key), [])


def live_statics(g: GameState) -> dict[tuple[str, str], list[tuple]]:
    """Live prohibitions, permissions, replacements, triggered and static abilities by (kind,
    key), once per set of live cards: every action offered, verb called and event emitted
    asks (and Game.static_mods, whenever what the static modifiers read changed)."""
    index = g.live_index
    if index is not None and g.live_at == g.epoch:  # (live_cards would change nothing)
        return index
    live = g.live_cards()  # also drops the index when the live cards changed
    index = g.live_index
    if index is None:
        index = g.live_index = {}
        keyed, defs, zone_of = g.game.keyed_abilities, g.defs, g.zone_of
        for cid in live:
            abilities = keyed.get(defs[cid].id)
            if abilities is not None:
                zone = zone_of[cid].name
                for idx, ability, key, zones in abilities:
                    if zone in zones:  # it works there (Game.works, inlined)
                        index.setdefault(key, []).append((cid, idx, ability))
    return index


def _holds(g: GameState, cid: int, ability, env: dict) -> bool:
    penv = effect_env(g, cid, g.controller[cid])
    for k, v in env.items():
        if k not in penv:
            penv[k] = v
    return ability.cond is None or bool(ability.cond(g, penv))


def forbidden(g: GameState, key: str, env: dict) -> bool:
    return any(_holds(g, c, a, env) for c, _i, a in statics_of(g, "prohibition", key))


def permitted(g: GameState, key: str, env: dict) -> bool:
    return any(_holds(g, c, a, env) for c, _i, a in statics_of(g, "permission", key))


def call_verb(g: GameState, name: str, params: dict, caller: dict) -> bool:
    """Call a ruleset verb with its parameters (a new dict, made for this call, which becomes
    the verb's env; a `cards` one a tuple: the compiled call makes it one, see
    _Generator.params). The game's caller of the verb does it (see callers): True when code
    was left to run first, on new frames."""
    return g.game.callers[name](g, params, caller)


def callers(game: Any) -> dict[str, Callable]:
    """Per verb, a call_verb of it made for this game (and narrowed game: who could look back
    at its cards depends on them): its body, `cards` parameters and `each`, whether a card
    could forbid or replace it, the triggered abilities that could look back at its cards,
    whether it runs directly (game.direct_verbs: a Python function, no frame), and whether a
    parameter is named you, opponent or self are folded into its code."""
    out = {}
    for name, verb in game.ruleset.verbs.items():
        hearing = game.triggers_on.get(verb.event) if verb.card_params else None
        plan = (verb.each is not None, name in game.guarded_verbs, hearing is not None,
                len(verb.card_params) == 1, name in game.direct_verbs,
                not {"you", "opponent", "self"}.isdisjoint(verb.params))
        make = _CALLER_MAKERS.get(plan)
        if make is None:
            make = _CALLER_MAKERS[plan] = _caller_maker(*plan)
        out[name] = make(name, verb.body, verb.body[0] if verb.body else None, verb.card_params,
                         verb.each, hearing)
    return out


_CALLER_MAKERS: dict[tuple, Callable[..., Callable]] = {}  # (see _caller_maker)


def _caller_maker(each: bool, guarded: bool, heard: bool, one_cards: bool, direct: bool,
                  shadows: bool) -> Callable[..., Callable]:
    """A maker of callers of verbs applied card by card (`each`), that a card could forbid or
    replace (`guarded`), whose cards a triggered ability could look back at (`heard`: at its
    one `cards` parameter, `one_cards`, or several), run directly (`direct`), with a
    parameter named you, opponent or self (`shadows`). What differs between such verbs, the
    maker's arguments, is in the caller's closure (read as fast as a local)."""
    lines = ["def make(NAME, BODY, STRAIGHT, CARDS, EACH, HEARING):",
             "  def call(g, params, caller):"]
    if each:  # once per card: zero times, or in turn
        lines += ["    if len(params[EACH]) != 1:",
                  "        return len(params[EACH]) > 1 and call_each(g, NAME, params, caller)"]
    lines.append("    replaced = caller['#replaced'] if '#replaced' in caller else ()")
    if guarded:  # a card could forbid or replace it
        lines += ["    if forbidden(g, NAME, params):",
                  "        if g.log is not None:",
                  "            g.log.append({'e': 'prevented', 'verb': NAME})",
                  "        return False",
                  "    if replace(g, NAME, params, replaced):",
                  "        return True"]
    # (every env that runs code holds you, opponent and self: effect_env, action and turn envs)
    lines += ["    env = {'you': caller['you'], 'opponent': caller['opponent'], "
              "'self': caller['self'], **params}"] if shadows else [  # a parameter wins
        "    env = params  # (no new dict: the parameters' own is the env)",
        "    env['you'], env['opponent'], env['self'] = caller['you'], caller['opponent'], "
        "caller['self']"]
    if heard:  # triggers may need to look back at these cards
        cards = "params[CARDS[0]]" if one_cards else "[c for p in CARDS for c in params[p]]"
        lines.append(f"    env['#live'] = lookback(g, HEARING, {cards})")
    lines += ["    if replaced:  # (only replacements read it: see _replace)",
              "        env['#replaced'] = replaced"]
    if not direct:
        lines += ["    g.frames.append(Frame(BODY, env, 'verb'))", "    return True"]
    else:
        lines += ["    frames = g.frames",
                  "    below = len(frames)",
                  "    fn = STRAIGHT.fn  # (see instructions.Straight.run)",
                  "    resume = fn(g, env)",
                  "    if resume is None:",
                  "        return False",
                  "    f = Frame(BODY, env, 'verb')  # it goes on in the VM, after what it left to run",
                  "    f.pc = resume",
                  "    frames.insert(below, f)",
                  "    return True"]
    lines.append("  return call")
    namespace: dict[str, Any] = {"call_each": _call_each, "forbidden": forbidden, "replace": _replace,
                 "lookback": lookback, "Frame": Frame}
    exec(compile("\n".join(lines) + "\n", "<verb caller>", "exec"), namespace)  # noqa: S102
    return namespace["make"]


def _call_each(g: GameState, name: str, params: dict, caller: dict) -> bool:
    """A verb applied card by card, in order. Calls that cannot run now (not direct, or
    after a call that left code to run first) wait on frames of their own, in order."""
    each = g.game.ruleset.verbs[name].each
    cards = params[each]
    if name in g.game.direct_verbs:
        for i, cid in enumerate(cards):
            below = len(g.frames)
            if call_verb(g, name, {**params, each: (cid,)}, caller):
                _call_later(g, below, name, params, cards[i + 1:], caller)
                return True
        return False
    _call_later(g, len(g.frames), name, params, cards, caller)
    return True


def _call_later(g: GameState, at: int, name: str, params: dict, cards: tuple,
                caller: dict) -> None:
    each = g.game.ruleset.verbs[name].each
    g.frames[at:at] = [Frame(g.game.call_code, {**caller, "#verb": name,
                                                "#params": {**params, each: (c,)}}, "block")
                       for c in reversed(cards)]


def _replace(g: GameState, name: str, params: dict, replaced: tuple) -> bool:
    """Start the first live replacement of this verb call (each replaces it once at most)."""
    for cid, idx, ability in statics_of(g, "replacement", name):
        if (cid, idx) in replaced or not _holds(g, cid, ability, params):
            continue
        renv = effect_env(g, cid, g.controller[cid])
        renv.update(params)
        renv["#replaced"] = replaced + ((cid, idx),)
        if g.log is not None:
            g.log.append({"e": "replaced", "verb": name, "by": g.game.show(g, "card", cid)})
        g.frames.append(Frame(ability.body, renv, "block"))
        return True
    return False


# ---------- state checks ----------
def check_end(g: GameState, channel: str | None = None) -> None:
    """Apply the ruleset's win/loss rules now; ends the game at this instant if one holds.
    After a change on `channel` (compile/reads.py) that no rule reads, nothing to do."""
    game = g.game
    check = game.end_check  # (all rules for all players: compile/ruleset.py)
    if check is None:
        return
    if channel is not None:
        ends = game.end_reads
        if ends is not None and channel not in ends:
            return
    check(g)


def end_game(g: GameState) -> NoReturn:
    """A win/loss rule holds for someone: decide the game, looking at every player."""
    rules = g.game.ruleset.end_rules
    losers: list[tuple[int, Any]] = []
    winners: list[tuple[int, Any]] = []
    for p, env in enumerate(g.game.player_envs):
        for rule in rules:
            if rule.cond(g, env):
                (losers if rule.outcome == "lose" else winners).append((p, rule))
                break
    if losers:
        raise GameOver(_loss_result(g, losers))
    p, rule = winners[0]
    raise GameOver(Result(p, f"{_player(p)} wins: {rule.reason}", rule.ref))


def _loss_result(g: GameState, losers: list[tuple[int, Any]]) -> Result:
    lost = {p for p, _ in losers}
    p, rule = losers[0]
    if len(lost) < g.game.ruleset.players:
        winner = next(q for q in g.players if q not in lost)
        return Result(winner, f"{_player(p)} loses: {rule.reason}", rule.ref)
    if g.game.ruleset.simultaneous_loss == "turn_player_loses":
        winner = g.other(g.turn_player)
        return Result(winner, f"both players lose at once; the turn player "
                              f"{_player(g.turn_player)} loses: {rule.reason}", rule.ref)
    return Result(None, f"draw: both players lose at once ({rule.reason})", rule.ref)
