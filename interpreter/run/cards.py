"""Per-card statistics: which cards a deck drew and played in each match, and their win rates.

What "drawn" and "played" mean is the ruleset's (its `card_stats` key, see docs/LANGUAGE.md):
a card is *drawn* in a match when it is seen in one of its owner's hand zones at some decision
(or at the end), in the *opening hand* when it is there at the first decision that finds a card
in a hand, and *played* when its owner takes one of the playing actions with it while it is in
a hand zone. A `CardTracker` follows one match by looking at the state at each decision (the
simulate path keeps no log and announces only the events some card hears, so the tracker
reads the hand zones and the chosen options instead: a set update and a tuple check a
decision). Each match's findings go into its results.jsonl line, so the tables below are a
pure function of the records, whatever backend, worker count or --resume produced them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from interpreter.run import outputs
from interpreter.run.stats import newcombe, wilson

CARDS_JSON, CARDS_CSV = "cards.json", "cards.csv"
NEVER_PLAYED_DRAWN = 10  # "drawn in many games": at least this many...
NEVER_PLAYED_RATE = 0.05  # ...and played in at most this share of them


# ---------- what the ruleset calls drawing and playing ----------

@dataclass(frozen=True)
class CardSpec:
    hand: tuple[str, ...]  # the zones whose cards count as drawn (none: no per-card statistics)
    plays: frozenset[str] | None  # the actions that play a card (None: every action)


@cache
def card_spec(game) -> CardSpec:
    """The ruleset's `card_stats`, with its defaults: the zone named `hand`, else the first
    zone only its owner sees that no deck section deals into; every action taken with a card
    from a hand zone plays it."""
    raw = game.ruleset.raw.get("card_stats") or {}
    hand = raw.get("hand") or default_hand(game.ruleset)
    plays = raw.get("plays")
    return CardSpec(tuple([hand] if isinstance(hand, str) else hand or ()),
                    None if plays is None else frozenset(plays))


def default_hand(ruleset) -> str | None:
    if "hand" in ruleset.zones:
        return "hand"
    dealt = {s.get("zone") for s in (ruleset.deck.get("sections") or {}).values()}
    return next((z.name for z in ruleset.zones.values()
                 if z.visibility == "owner" and not z.shared and z.name not in dealt), None)


class CardTracker:
    """One match's cards seen in hand (by card id), the opening hands, and first plays."""

    __slots__ = ("refs", "hands", "plays", "seen", "opening", "first")

    def __init__(self, g) -> None:
        spec = card_spec(g.game)
        players = range(g.game.ruleset.players)
        self.refs = tuple(dict.fromkeys(g.zone_key(z, p) for z in spec.hand for p in players))
        self.hands = frozenset(self.refs)
        self.plays = spec.plays
        self.seen: set[int] = set()
        self.opening: frozenset[int] | None = None
        self.first: dict[int, int] = {}  # card id -> the turn it was first played

    def look(self, g, d: tuple, index: int) -> None:
        """Before the answer `index` to decision `d` is applied."""
        zones, seen = g.zones, self.seen
        for ref in self.refs:
            seen.update(zones[ref])
        if self.opening is None and seen:
            self.opening = frozenset(seen)
        if d[1] == "action":
            o = d[2][index]  # (action, card, ability) or a pass
            if len(o) == 3 and o[1] is not None and g.zone_of[o[1]] in self.hands \
                    and (self.plays is None or o[0] in self.plays) and o[1] not in self.first:
                self.first[o[1]] = g.turn

    def record(self, g, keys: tuple[str, ...]) -> dict:
        """Per deck key (by seat): the names drawn, in the opening hand, and played (first turn)."""
        zones, seen = g.zones, self.seen
        for ref in self.refs:  # what was drawn after the last decision
            seen.update(zones[ref])
        defs, owner = g.defs, g.owner
        drawn: list[set[str]] = [set() for _ in keys]
        opening: list[set[str]] = [set() for _ in keys]
        played: list[dict[str, int]] = [{} for _ in keys]
        for c in seen:
            drawn[owner[c]].add(defs[c].name)
        for c in self.opening or ():
            opening[owner[c]].add(defs[c].name)
        for c, turn in self.first.items():  # (in the order they were played)
            played[owner[c]].setdefault(defs[c].name, turn)
        return {k: {"drawn": sorted(drawn[s]), "opening": sorted(opening[s]),
                    "played": dict(sorted(played[s].items()))} for s, k in enumerate(keys)}


# ---------- the tables ----------

def deck_cards(sections: dict[str, list[str]]) -> list[str]:
    """A deck's distinct card names, in the deck's order."""
    return list(dict.fromkeys(n for names in sections.values() for n in names))


def sides(records: Iterable[dict], key: str) -> list[tuple[bool, dict]]:
    """(won?, that deck's card findings) of each completed match of deck `key`."""
    return [(r["winner"] == key, r["cards"][key]) for r in records
            if r["outcome"] != "error" and "cards" in r and key in r["seats"]]


def card_rows(deck: str, games: list[tuple[bool, dict]], cards: list[str]) -> list[dict]:
    """One row per card of the deck, sorted by IWD (best first; undefined last)."""
    t = _Tally(games)
    rows = [t.row(deck, card) for card in cards]
    return sorted(rows, key=lambda r: (r["iwd"] is None, -(r["iwd"] or 0.0), r["card"]))


class _Tally:
    """Per card name, over a deck's games (one pass): games drawn, in the opening hand and
    played, the wins among each, and the sum of the turns it was first played on."""

    def __init__(self, games: list[tuple[bool, dict]]) -> None:
        self.games, self.wins = len(games), sum(won for won, _ in games)
        self.drawn: Counter[str] = Counter()
        self.opening: Counter[str] = Counter()
        self.played: Counter[str] = Counter()
        self.drawn_wins: Counter[str] = Counter()
        self.opening_wins: Counter[str] = Counter()
        self.played_wins: Counter[str] = Counter()
        self.turns: Counter = Counter()
        for won, s in games:
            self.drawn.update(s["drawn"])
            self.opening.update(s["opening"])
            self.played.update(s["played"].keys())
            self.turns.update(s["played"])  # (a mapping's values are added: card -> turn)
            if won:
                self.drawn_wins.update(s["drawn"])
                self.opening_wins.update(s["opening"])
                self.played_wins.update(s["played"].keys())

    def row(self, deck: str, card: str) -> dict:
        n, wins = self.games, self.wins
        k, w, played = self.drawn[card], self.drawn_wins[card], self.played[card]
        row = {"deck": deck, "card": card, "games": n, "wins": wins}
        row |= _rate("gih", w, k, "drawn")
        row |= _rate("oh", self.opening_wins[card], self.opening[card], "opening")
        row |= _rate("gns", wins - w, n - k, "not_drawn")
        iwd = _diff(w, k, wins - w, n - k)
        row |= {"iwd": iwd[0], "iwd_low": iwd[1], "iwd_high": iwd[2]}
        row |= _rate("played_wr", self.played_wins[card], played, "played")
        row |= _rate("play_rate", played, k, None)
        row["dead"] = k - played
        row |= _rate("dead_rate", k - played, k, None)
        row["first_turn_mean"] = self.turns[card] / played if played else None
        return row


def _rate(name: str, k: int, n: int, count: str | None) -> dict:
    """`count` games (n) and successes, the rate and its Wilson interval (None when n is 0)."""
    out = {count: n, f"{count}_wins": k} if count else {}
    if not n:
        return out | {name: None, f"{name}_low": None, f"{name}_high": None}
    lo, hi = wilson(k, n)
    return out | {name: k / n, f"{name}_low": lo, f"{name}_high": hi}


def _diff(k1: int, n1: int, k2: int, n2: int) -> tuple[float | None, float | None, float | None]:
    if not n1 or not n2:
        return None, None, None
    lo, hi = newcombe(k1, n1, k2, n2)
    return k1 / n1 - k2 / n2, lo, hi


def never_played(rows: list[dict]) -> list[dict]:
    """Cards drawn in many games but (almost) never played: often a card the agents cannot
    use, a wrong cost, or a rule bug."""
    return [r for r in rows if r["drawn"] >= NEVER_PLAYED_DRAWN
            and r["played"] <= NEVER_PLAYED_RATE * r["drawn"]]


# ---------- files ----------

COLUMNS = ("deck", "card", "games", "wins", "drawn", "drawn_wins", "gih", "gih_low", "gih_high",
           "opening", "opening_wins", "oh", "oh_low", "oh_high", "not_drawn", "not_drawn_wins", "gns",
           "gns_low", "gns_high", "iwd", "iwd_low", "iwd_high", "played", "played_wins", "played_wr",
           "played_wr_low", "played_wr_high", "play_rate", "play_rate_low", "play_rate_high",
           "dead", "dead_rate", "dead_rate_low", "dead_rate_high", "first_turn_mean")


def write_cards(out: Path, rows: list[dict], hand: tuple[str, ...]) -> None:
    """cards.json (the rows, the never-played list, what "drawn" meant) and cards.csv."""
    doc = {"hand": list(hand), "columns": list(COLUMNS), "cards": [_rounded(r) for r in rows],
           "never_played": [{"deck": r["deck"], "card": r["card"], "drawn": r["drawn"],
                             "played": r["played"]} for r in never_played(rows)]}
    outputs.write_json(out / CARDS_JSON, doc)
    outputs.write_csv(out / CARDS_CSV, COLUMNS,
                      (["" if r[c] is None else _round(r[c]) for c in COLUMNS] for r in rows))


def _rounded(row: dict) -> dict:
    return {c: _round(row[c]) for c in COLUMNS}


def _round(x):
    return round(x, 6) if isinstance(x, float) else x
