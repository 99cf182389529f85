"""Scenario files: a given state, scripted decisions, expectations. Run by `tcg test`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.agents.basic import Concede, ScriptedAgent, ScriptError
from interpreter.agents.protocol import decide
from interpreter.check.limits import LIMIT, LIMIT_HINT, too_many_cards
from interpreter.diagnostics import Diagnostic, DiagnosticError, TcgError
from interpreter.engine import chance, vm
from interpreter.engine.game import Game
from interpreter.engine.state import Frame, GameState, ZoneRef
from interpreter.engine.turn import PhaseStart
from interpreter.load import confine
from interpreter.load.yamlpos import Doc, load_yaml
from interpreter.run.loading import chosen_options, load_game, validate


@dataclass
class Outcome:
    path: str
    name: str
    diagnostics: list[Diagnostic] = field(default_factory=list)  # one per failure, positioned
    pending: str = ""  # the question pending when the script ended (pending_question)

    @property
    def failures(self) -> list[str]:
        return [d.message for d in self.diagnostics]

    @property
    def passed(self) -> bool:
        return not self.diagnostics


class StepFailed(ScriptError):
    """A scripted decision that could not be made: `step` is its index in `decisions`."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step


def _player(text: Any, players: int) -> int:
    digits = str(text).removeprefix("P")
    if not digits.isdecimal() or not 1 <= int(digits) <= players:
        raise TcgError(f"no player {text!r}: the players are P1 to P{players}")
    return int(digits) - 1


def _zone(game: Game, key: str) -> ZoneRef:
    name, _, owner = key.partition("@")
    if name not in game.ruleset.zones:
        raise TcgError(f"unknown zone {name!r} in {key!r}")
    if game.ruleset.zones[name].shared:
        return ZoneRef(name, -1)
    return ZoneRef(name, _player(owner or "P1", game.ruleset.players))


def build_state(game: Game, spec: dict, seed: int, random: Sequence = ()) -> GameState:
    """A state exactly as the scenario describes it, about to enter the given phase; `random`
    fixes the outcomes of its first random steps (engine/chance.py)."""
    g = GameState(game, seed)
    if random:
        g.chance = chance.Script(tuple(random))
    for name, zdef in game.ruleset.zones.items():
        for p in ([-1] if zdef.shared else list(g.players)):
            g.zones[ZoneRef(name, p)] = []
    g.res = [{k: v.get("initial", 0) for k, v in game.ruleset.resources.items()}
             for _ in g.players]
    hosts = []
    if (over := too_many_cards(spec)) is not None:
        raise TcgError(over[1])
    for key, cards in (spec.get("zones") or {}).items():
        ref = _zone(game, key)
        for entry in cards:
            entry = entry if isinstance(entry, dict) else {"card": entry}
            cid = _place(g, ref, entry)
            if "attached_to" in entry:
                hosts.append((cid, entry["attached_to"]))
    for cid, where in hosts:  # once every card is placed: the host may come later in the file
        g.host[cid] = _card_at(g, where)
    for who, values in (spec.get("resources") or {}).items():
        g.res[_player(who, g.game.ruleset.players)].update(values)
    g.turn_player = _player(spec.get("turn_player", "P1"), game.ruleset.players)
    g.turn = int(spec.get("turn", 1))
    g.frames.append(Frame(game.program, {"you": g.turn_player,
                                         "opponent": g.other(g.turn_player), "self": None},
                          "game"))
    g.frames[0].pc = _phase_pc(game, spec.get("phase"))
    vm.run(g)
    return g


def _card_at(g: GameState, where: str) -> int:
    """The card at `zone@P1:index`."""
    key, _, index = where.rpartition(":")
    cards = g.zones[_zone(g.game, key)]
    if not index.isdigit() or int(index) >= len(cards):
        raise TcgError(f"no card at {where!r} ({len(cards)} in {key or where})")
    return cards[int(index)]


def _place(g: GameState, ref: ZoneRef, entry: dict) -> int:
    game = g.game
    name = entry["card"]
    d = game.cards.get(name) or game.tokens.get(name)
    if d is None:
        raise TcgError(f"unknown card {name!r}")
    owner = ref.owner if ref.owner >= 0 else _shared_owner(entry.get("owner", "P1"), game)
    cid = game.new_card(g, d, owner, ref)
    g.zones[ref].append(cid)
    if "face" in entry:
        g.face[cid] = entry["face"] == "up"
    for state in entry.get("states") or ():
        g.give_state(cid, state)
    for counter, n in (entry.get("counters") or {}).items():
        g.counters[(cid, counter)] = n
    return cid


def _shared_owner(text: Any, game: Game) -> int | None:
    """The owner of a card placed in a shared zone: a player, or `none` for a pool's card."""
    return None if text == "none" else _player(text, game.ruleset.players)


def _phase_pc(game: Game, phase: str | None) -> int:
    for i, instr in enumerate(game.program):
        # (not a start that ends the phase before first: the plain one follows it)
        if isinstance(instr, PhaseStart) and instr.ending is None \
                and (phase is None or instr.phase.name == phase):
            return i
    raise TcgError(f"no phase {phase!r} in the turn structure")


def run_scenario(path: str | Path, reference: bool = False,
                 options: dict[str, str] | None = None) -> Outcome:
    """Run a scenario file (`reference`: on the reference path, see load_game). `options`:
    the ruleset's options chosen on the command line; the scenario's own `options:` win."""
    doc = load_yaml(path)
    problems = validate(doc, "scenario")
    if problems:
        raise DiagnosticError(problems)
    spec = doc.data
    out = Outcome(str(path), spec.get("name", Path(path).stem))
    here = Path(path).parent
    cards = spec.get("cards") or ()
    for i, c in enumerate(cards):
        confine.named_file(doc, ("cards", i), c, here)
    extra = tuple(str(here / c) for c in cards)
    ruleset = spec["ruleset"]
    if (here / ruleset).is_file():  # a ruleset path is relative to the scenario file
        confine.named_file(doc, ("ruleset",), ruleset, here)
        ruleset = str(here / ruleset)
    try:
        chosen = chosen_options(ruleset, {**(options or {}), **(spec.get("options") or {})})
    except TcgError as e:
        raise DiagnosticError([doc.key_diag(("options",) if spec.get("options") else ("ruleset",),
                                            "OPTION", str(e))]) from None
    game = load_game(ruleset, extra, reference, chosen)
    if isinstance(spec.get("state"), dict) and (over := too_many_cards(spec["state"])):
        out.diagnostics.append(doc.key_diag(("state", "zones", over[0]), LIMIT, over[1],
                                            LIMIT_HINT))
        return out
    try:
        g = _start(game, spec)
    except chance.ChanceMismatch as e:
        out.diagnostics.append(doc.diag(("random", e.at), "SCENARIO", str(e)))
        return out
    except TcgError as e:
        out.diagnostics.append(doc.diag(("state",), "SCENARIO", str(e)))
        return out
    checkpoints = _Checkpoints(doc, g)
    failed: Diagnostic | None
    try:
        _play_script(g, spec.get("decisions") or [], checkpoints)
    except chance.ChanceMismatch as e:
        failed = doc.diag(("random", e.at), "SCENARIO", str(e))
    except StepFailed as e:
        failed = doc.diag(("decisions", e.step), "DECISION", str(e))
    except (ScriptError, TcgError) as e:
        failed = doc.diag(("decisions",), "DECISION", str(e))
    else:
        failed = None
    out.pending = pending_question(g)
    out.diagnostics += checkpoints.diagnostics
    if failed is not None:
        out.diagnostics.append(failed)
        return out
    out.diagnostics += [doc.diag(("expect", *at), "EXPECT", message) for at, message
                        in _expectations(g, spec.get("expect") or {}, checkpoints.since)]
    if g.chance is not None and g.chance.left():
        out.diagnostics.append(doc.diag(
            ("random", g.chance.at), "SCENARIO",
            f"{g.chance.left()} fixed random outcomes left over: the match took "
            f"{g.chance.at} random steps"))
    return out


def pending_question(g: GameState) -> str:
    """The question asked now and the options offered, as `tcg test --show-pending` prints
    them (the chooser's labels), or that the game is over."""
    if g.decision is None:
        return f"the game is over: {g.result.reason if g.result else ''}"
    d = g.decision
    lines = [f"P{d.player + 1} is asked: {d.prompt}"]
    lines += [f"  {i}: {a.label}" for i, a in enumerate(g.legal_actions())]
    return "\n".join(lines)


def _start(game: Game, spec: dict) -> GameState:
    """A given state, or (with `decks` and no `state`) the real start of a match."""
    seed = int(spec.get("seed", 0))
    fixed = [None if x == "any" else tuple(x) if isinstance(x, list) else x
             for x in spec.get("random") or ()]
    if "state" not in spec and spec.get("decks"):
        decks = [{section: [name for name, n in cards.items() for _ in range(n)]
                  for section, cards in deck.items()} for deck in spec["decks"]]
        return game.new_state(decks, seed, log=True, random=fixed)
    return build_state(game, spec.get("state") or {}, seed, fixed)


class _Checkpoints:
    """Checks each checkpoint of the script as the game reaches it. Its `log` expectations
    see the log written since the previous checkpoint (`since`), so that a step of the flow
    is tested by what that step did, not by an earlier one."""

    def __init__(self, doc: Doc, g: GameState) -> None:
        self.doc, self.g = doc, g
        self.since = 0
        self.count = 0
        self.diagnostics: list[Diagnostic] = []

    def __call__(self, at: int, entry: dict) -> None:
        self.count += 1
        name = f"checkpoint {entry['checkpoint']!r}" if "checkpoint" in entry \
            else f"checkpoint {self.count}"
        self.diagnostics += [
            self.doc.diag(("decisions", at, "expect", *where), "EXPECT", f"{name}: {message}")
            for where, message in _expectations(self.g, entry["expect"] or {}, self.since)]
        self.since = len(self.g.log or ())


def _is_checkpoint(step: Any) -> bool:
    return isinstance(step, dict) and "expect" in step


def _play_script(g: GameState, decisions: list,
                 checkpoint: Callable[[int, dict], None] | None = None) -> None:
    """Make the scripted decisions; `checkpoint(index, entry)` is called when the script
    reaches a checkpoint (without it, checkpoints are skipped). Checkpoints after the end
    of the game see its final state; decisions after it are a failure."""
    for at, step in enumerate(decisions):
        if _is_checkpoint(step):
            if checkpoint is not None:
                checkpoint(at, step)
        elif g.result is not None:
            left = sum(not _is_checkpoint(s) for s in decisions[at:])
            raise StepFailed(at, f"the game ended with {left} decisions left ({g.result.reason})")
        else:
            _decide(g, at, step)


def _decide(g: GameState, at: int, step: Any) -> None:
    d = g.decision
    assert d is not None  # (asked only before the game's end: _play_script)
    if isinstance(step, dict):
        want = _player(step.get("player", f"P{d.player + 1}"), g.game.ruleset.players)
        if want != d.player:
            raise StepFailed(at, f"expected a decision by P{want + 1}, but P{d.player + 1} "
                                 f"is asked: {d.prompt}")
        step = step.get("choose", 0)
    try:
        i, _labels = decide(ScriptedAgent([step]), g, d.player)
    except Concede:
        g.concede(d.player)
        return
    except ScriptError as e:
        raise StepFailed(at, str(e)) from None
    vm.answer(g, d.options[i])


def _expectations(g: GameState, expect: dict, since: int = 0) -> list[tuple[tuple, str]]:
    """(where under `expect`, what went wrong) for every expectation that failed; `log`
    expectations look at the log from index `since` on."""
    fails: list[tuple[tuple, str]] = []
    if "winner" in expect:
        got = "none" if g.result is None else (
            "draw" if g.result.winner is None else f"P{g.result.winner + 1}")
        if str(expect["winner"]) != got:
            why = f" ({g.result.reason})" if g.result else ""
            fails.append((("winner",), f"winner: expected {expect['winner']}, got {got}{why}"))
    if "reason" in expect:
        reason = g.result.reason if g.result else ""
        if expect["reason"] not in reason:
            fails.append((("reason",), f"reason: expected it to contain {expect['reason']!r}, "
                                       f"got {reason!r}"))
    for key, want in (expect.get("zones") or {}).items():
        fails += [(("zones", key), f) for f in _zone_expect(g, key, want)]
    for i, prop in enumerate(expect.get("properties") or ()):
        fails += [(("properties", i), f) for f in _prop_expect(g, prop)]
    for who, values in (expect.get("resources") or {}).items():
        try:
            res = g.res[_player(who, g.game.ruleset.players)]
        except TcgError as e:
            fails.append((("resources", who), str(e)))
            continue
        for name, value in values.items():
            amount = res.get(name, 0)
            if amount != value:
                fails.append((("resources", who, name), f"{who} {name}: expected {value}, got {amount}"))
    log = (g.log or [])[since:]
    fails += _log_expect(log, expect.get("log") or (), expect.get("not_log") or ())
    if "options" in expect:
        fails += _options_expect(g, expect["options"])
    return fails


def _options_expect(g: GameState, want: dict) -> list[tuple[tuple, str]]:
    """What the pending decision offers (labels, by substring)."""
    labels = [a.label for a in g.legal_actions()]
    fails = [(("options", "include", i), f"options: expected one containing {x!r}, got {labels}")
             for i, x in enumerate(want.get("include") or ())
             if not any(x in lab for lab in labels)]
    fails += [(("options", "exclude", i), f"options: expected none containing {x!r}, got {labels}")
              for i, x in enumerate(want.get("exclude") or ()) if any(x in lab for lab in labels)]
    return fails


def _zone_expect(g: GameState, key: str, want: Any) -> list[str]:
    try:
        names = [g.defs[c].name for c in g.zones[_zone(g.game, key)]]
    except TcgError as e:
        return [str(e)]
    if isinstance(want, list):
        return [] if names == want else [f"{key}: expected {want}, got {names}"]
    fails = []
    if "count" in want and len(names) != want["count"]:
        fails.append(f"{key}: expected {want['count']} cards, got {len(names)} {names}")
    for name in want.get("contains") or ():
        if name not in names:
            fails.append(f"{key}: expected it to contain {name!r}, got {names}")
    return fails


def _prop_expect(g: GameState, spec: dict) -> list[str]:
    try:
        cid = _card_at(g, spec["card"])
    except TcgError as e:
        return [str(e)]
    prop = spec["prop"]
    got = g.counter(cid, prop) if prop in g.game.ruleset.counters else g.get(cid, prop)
    if prop == "host" and got is not None:  # a card: named as the log names it (name#id)
        got = g.game.show(g, "card", got)
        if _same(got, spec["value"]):
            return []
    if got != spec["value"]:
        return [f"{spec['card']} ({g.defs[cid].name}) {spec['prop']}: "
                f"expected {spec['value']!r}, got {got!r}"]
    return []


def _matches(record: dict, want: dict) -> bool:
    if record.get("e") != want.get("event"):
        return False
    return all(_same(record.get(k), v) for k, v in want.items() if k not in ("event", "count"))


def _same(got: Any, want: Any) -> bool:
    """Log values match as written; a card may be named without its '#id'."""
    if str(got) == str(want):
        return True
    names = [_card_name(x) for x in got] if isinstance(got, list) else [_card_name(got)]
    wanted = want if isinstance(want, list) else [want]
    return names == [str(w) for w in wanted]


def _card_name(label: Any) -> str:
    return str(label).rpartition("#")[0] or str(label)


def _seen(log: list[dict], want: dict, most: int = 5) -> str:
    """What the log holds of the event a failed expectation names, for the writer to compare
    (the first few, as logged), or that it holds none."""
    same = [r for r in log if r.get("e") == want.get("event")]
    if not same:
        return f"; the log has no {want.get('event')!r} event"
    shown = "; ".join(str({k: v for k, v in r.items() if k != "e"}) for r in same[:most])
    more = f" (and {len(same) - most} more)" if len(same) > most else ""
    return f"; the log's {want.get('event')!r} events: {shown}{more}"


def _log_expect(log: list[dict], wanted: Any, unwanted: Any) -> list[tuple[tuple, str]]:
    """Entries with a `count` are counted over all of `log`; the others must appear in order."""
    fails, at = [], 0
    for i, want in enumerate(wanted):
        if "count" in want:
            continue
        while at < len(log) and not _matches(log[at], want):
            at += 1
        if at == len(log):
            fails.append((("log", i), f"log: expected {want} (in order){_seen(log, want)}"))
            break
        at += 1
    for i, want in enumerate(wanted):
        if "count" in want:
            got = sum(_matches(r, want) for r in log)
            if got != want["count"]:
                event = {k: v for k, v in want.items() if k != "count"}
                fails.append((("log", i), f"log: expected exactly {want['count']} of {event}, "
                                          f"got {got}"))
    for i, bad in enumerate(unwanted):
        if any(_matches(r, bad) for r in log):
            fails.append((("not_log", i), f"log: expected no {bad}"))
    return fails
