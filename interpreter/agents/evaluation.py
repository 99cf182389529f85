"""How good a position looks to a player, worked out from the ruleset's own data.

No game is named here: the terms come from what every ruleset declares.

- **Margins**: each win/loss condition (the `end` rules, and the `if ...` around every `win`
  and `lose` in a procedure) is read for the quantities it compares: a resource of the player
  (`player.life <= 0`), the number of cards in one of their zones (`count(deck(player)) == 0`),
  or a property or counter of their cards (`exists(hero(player) where damage >= health)`). The
  comparison says which way is safe (for a loss) or progress (for a win). A loss margin counts
  as the square root of its share of its first size, so the last points before losing weigh
  most; a win's progress counts linearly.
- **Board**: the cards where abilities work (those that act), each player's.
- **Hand**: the cards in zones only their owner sees (options held back).
- **Means**: the cards in zones an action's `requires` counts (`card.cost <= count(soul(you))`:
  what pays for cards), other than those.
- **Strength**: each number property summed over the cards where abilities work, in units of
  its mean over the game's cards.
- **The ruleset's `heuristic`**, when it gives one, kept apart (`parts`): it is in its own
  units, so the agent puts it and the derived terms in one scale before adding them.

Each term is the player's value minus the opponent's; `Weights` say how much each counts
(`tcg train` tunes them per ruleset, interpreter/agents/train.py); `heuristic` is the share of
the ruleset's heuristic against the derived terms' (1: equal).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, fields

from interpreter.engine.state import GameState, ZoneRef
from interpreter.lang import ast as A
from interpreter.lang.parser import parse_body, parse_expr

WIN, LOSE = 1, -1
SAFE_IF_LARGER = {"<": True, "<=": True, "==": True, ">": False, ">=": False}  # for a loss


@dataclass(frozen=True)
class Weights:
    """How much each term counts, in cards on the board."""

    margin: float = 12.0
    board: float = 1.0
    hand: float = 0.4
    means: float = 0.5
    strength: float = 0.3
    heuristic: float = 1.0

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True)
class Term:
    """One quantity a win/loss condition compares: `kind` res | zone | cards; larger is
    better for the subject when `larger` holds; `bound` the constant it is compared with."""

    kind: str
    key: tuple[str, ...]
    larger: bool
    bound: float
    outcome: int  # WIN or LOSE


def _subject_quantity(e: A.Expr, subject: str) -> tuple[str, tuple[str, ...]] | None:
    if isinstance(e, A.Member) and isinstance(e.obj, A.Name) and e.obj.id == subject:
        return "res", (e.name,)
    if isinstance(e, A.Call) and e.name == "count" and len(e.args) == 1:
        src = e.args[0].value
        src = src.source if isinstance(src, A.Filter) else src
        return _zone_of(src, subject)
    return None


def _zone_of(e: A.Expr, subject: str) -> tuple[str, tuple[str, ...]] | None:
    if isinstance(e, A.Call) and len(e.args) == 1 and isinstance(e.args[0].value, A.Name) \
            and e.args[0].value.id == subject:
        return "zone", (e.name,)
    return None


def _terms(e: A.Expr, subject: str, outcome: int) -> Iterator[Term]:
    """The quantities of the subject that a condition (true: `outcome` happens) compares."""
    if isinstance(e, A.Unary) and e.op == "not":
        yield from _terms(e.operand, subject, -outcome)
    elif isinstance(e, A.Binary) and e.op in ("and", "or"):
        yield from _terms(e.left, subject, outcome)
        yield from _terms(e.right, subject, outcome)
    elif isinstance(e, A.Binary) and e.op in SAFE_IF_LARGER:
        for side, other, flipped in ((e.left, e.right, False), (e.right, e.left, True)):
            q = _subject_quantity(side, subject)
            if q is None:
                continue
            safe = SAFE_IF_LARGER[e.op] != flipped
            bound = float(other.value) if isinstance(other, A.Num) else 0.0
            yield Term(q[0], q[1], safe if outcome == LOSE else not safe, bound, outcome)
    elif isinstance(e, A.Call) and e.name == "exists" and len(e.args) == 1 \
            and isinstance(e.args[0].value, A.Filter):
        f = e.args[0].value
        zone, cond = _zone_of(f.source, subject), f.cond
        if zone and isinstance(cond, A.Binary) and cond.op in SAFE_IF_LARGER \
                and isinstance(cond.left, A.Name) and isinstance(cond.right, A.Name):
            # lose if some card has left <= right: the margin is left - right (larger: safer)
            safe = SAFE_IF_LARGER[cond.op]
            a, b = (cond.left.id, cond.right.id) if safe else (cond.right.id, cond.left.id)
            yield Term("cards", (zone[1][0], a, b), outcome == LOSE, 0.0, outcome)


def _procedure_ends(node: object, found: list[tuple[A.Expr, str, int]]) -> None:
    """Every `if COND { ... win(P) | lose(P) ... }` in a body: (COND, P's name, outcome)."""
    if isinstance(node, A.If):
        for stmt in node.then:
            call = getattr(stmt, "call", stmt)
            if isinstance(call, A.Call) and call.name in ("win", "lose") and call.args \
                    and isinstance(call.args[0].value, A.Name):
                found.append((node.cond, call.args[0].value.id, WIN if call.name == "win" else LOSE))
    if isinstance(node, tuple | list):
        for item in node:
            _procedure_ends(item, found)
    elif hasattr(node, "__dataclass_fields__") and not isinstance(node, A.Span):
        for f in fields(node):  # type: ignore[arg-type]
            _procedure_ends(getattr(node, f.name), found)


def _counted_zones(e: object, found: set[str]) -> None:
    """The zones of `count(ZONE(you))` (or `player`) anywhere in an expression."""
    if isinstance(e, A.Call) and e.name == "count" and len(e.args) == 1:
        src = e.args[0].value
        src = src.source if isinstance(src, A.Filter) else src
        if isinstance(src, A.Call) and len(src.args) == 1 and isinstance(src.args[0].value, A.Name) \
                and src.args[0].value.id in ("you", "player"):
            found.add(src.name)
    if isinstance(e, tuple | list):
        for item in e:
            _counted_zones(item, found)
    elif hasattr(e, "__dataclass_fields__") and not isinstance(e, A.Span):
        for f in fields(e):  # type: ignore[arg-type]
            _counted_zones(getattr(e, f.name), found)


def means(raw: dict) -> set[str]:
    """The zones the actions' requirements count: what pays for playing cards."""
    found: set[str] = set()
    for action in (raw.get("actions") or {}).values():
        for req in (action.get("requires") or ()) if isinstance(action, dict) else ():
            if isinstance(req, dict) and isinstance(req.get("if"), str):
                _counted_zones(parse_expr(req["if"]), found)
    return found


def conditions(raw: dict) -> list[tuple[A.Expr, str, int]]:
    """The ruleset's win/loss conditions: (condition, its subject's name, outcome)."""
    out: list[tuple[A.Expr, str, int]] = []
    for rule in raw.get("end") or ():
        for key, outcome in (("lose", LOSE), ("win", WIN)):
            if isinstance(rule, dict) and isinstance(rule.get(key), str):
                out.append((parse_expr(rule[key]), "player", outcome))
    for verb in (raw.get("verbs") or {}).values():
        text = verb.get("do") if isinstance(verb, dict) else None
        if isinstance(text, str):
            _procedure_ends(parse_body(text), out)
    return out


class Evaluation:
    """`parts(state, player)`: how good the state looks to `player` (higher is better), as its
    result, the derived terms and the heuristic. Made once per ruleset (DefaultAgent.evaluation)."""

    def __init__(self, game, weights: Weights | None = None) -> None:
        rs = game.ruleset
        self.game, self.weights = game, weights or Weights()
        terms: dict[tuple, Term] = {}
        for cond, subject, outcome in conditions(rs.raw):
            for t in _terms(cond, subject, outcome):
                if t.kind == "res" and t.key[0] not in rs.resources \
                        or t.kind in ("zone", "cards") and t.key[0] not in rs.zones:
                    continue
                terms.setdefault((t.kind, t.key, t.outcome), t)
        self.terms = list(terms.values())
        self.sizes: dict[Term, float] = {}  # each margin's first size (its scale)
        n = rs.players
        self.board_refs = [tuple(r for r in game.board_refs if r.owner == p) for p in range(n)]
        self.hand_refs = [tuple(ZoneRef(z, p) for z, d in rs.zones.items()
                                if d.visibility == "owner" and not d.shared) for p in range(n)]
        paying = sorted(means(rs.raw) - {r.name for refs in self.hand_refs for r in refs}
                        - {r.name for r in game.board_refs})
        self.means_refs = [tuple(ZoneRef(z, p) for z in paying if not rs.zones[z].shared)
                           for p in range(n)]
        self.numbers = [name for name, p in rs.properties.items() if p.type == "number"]
        self.scales = {name: self._mean(game, name) for name in self.numbers}

    @staticmethod
    def _mean(game, prop: str) -> float:
        values = [abs(v) for d in game.cards.values() if isinstance(v := d.props.get(prop), int | float)]
        return max(1.0, sum(values) / len(values)) if values else 1.0

    def parts(self, g: GameState, player: int) -> tuple[float, float, float]:
        """(result, derived terms, heuristic): result 1 won, -1 lost, 0 drawn or going on (the
        other two 0 once the game is over; the heuristic 0 when the ruleset gives none). The
        agent weighs the last two after putting them in one scale (they are in different
        units)."""
        r = g.result
        if r is not None:
            return (0.0 if r.winner is None else 1.0 if r.winner == player else -1.0), 0.0, 0.0
        h = g.game.score(g, player) if self.heuristic else 0.0
        return 0.0, self.derived(g, player), h

    @property
    def heuristic(self) -> bool:
        return bool(self.weights.heuristic) and self.game.ruleset.heuristic is not None

    def derived(self, g: GameState, player: int) -> float:
        other = g.game.opponent[player]
        w = self.weights
        v = w.margin * (self._margins(g, player) - self._margins(g, other))
        v += w.board * (self._count(g, self.board_refs[player]) - self._count(g, self.board_refs[other]))
        v += w.hand * (self._count(g, self.hand_refs[player]) - self._count(g, self.hand_refs[other]))
        if w.means:
            v += w.means * (self._count(g, self.means_refs[player]) - self._count(g, self.means_refs[other]))
        if w.strength and self.numbers:
            v += w.strength * (self._strength(g, player) - self._strength(g, other))
        return v

    @staticmethod
    def _count(g: GameState, refs: tuple[ZoneRef, ...]) -> int:
        zones = g.zones
        return sum(len(zones[r]) for r in refs)

    def _strength(self, g: GameState, player: int) -> float:
        total = 0.0
        get = g.get
        for name in self.numbers:
            scale, s = self.scales[name], 0
            for ref in self.board_refs[player]:
                for c in g.zones[ref]:
                    x = get(c, name)
                    if type(x) is int:
                        s += x
            total += s / scale
        return total

    def _margins(self, g: GameState, player: int) -> float:
        total = 0.0
        for t in self.terms:
            m = self._margin(g, player, t)
            if m is None:
                continue
            size = self.sizes.get(t)
            if size is None:
                size = self.sizes[t] = max(abs(m), abs(t.bound), 1.0)
            total += math.sqrt(max(m, 0.0) / size) if t.outcome == LOSE else max(m, 0.0) / size
        return total / max(1, len(self.terms))

    def _margin(self, g: GameState, player: int, t: Term) -> float | None:
        """How far the subject is on the safe (loss) or winning (win) side."""
        if t.kind == "res":
            q = _bounded(g.res[player].get(t.key[0], 0))
        elif t.kind == "zone":
            q = float(len(g.zones[g.zone_key(t.key[0], player)]))
        else:
            zone, a, b = t.key
            cards = g.zones[g.zone_key(zone, player)]
            if not cards:
                return None
            q = _bounded(min(self._read(g, c, a) - self._read(g, c, b) for c in cards))
            return q
        return q - t.bound if t.larger else t.bound - q if t.outcome == LOSE else \
            (q if t.larger else -q)

    @staticmethod
    def _read(g: GameState, cid: int, name: str) -> int:
        v = g.get(cid, name)
        if v is None:
            v = g.counter(cid, name)
        return v if type(v) is int else 0


def _bounded(n: int) -> float:
    """A number as a float, clipped where float() would overflow (a 540-digit resource)."""
    return float(max(-10**300, min(10**300, n)))
