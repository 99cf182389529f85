"""Readable, turn-by-turn lines from log records, as one player (or a spectator) may see them."""

from __future__ import annotations

import re

from interpreter.engine import observe
from interpreter.engine.game import Game
from interpreter.engine.state import GameState, visible

_QUIET = {"state", "flipped", "shuffled", "created", "phase_end", "turn_end", "resource",
          "counter", "game_over", "looked"}
_CARD = re.compile(r".+#\d+")  # how the log names a card: name#id


class Narrator:
    """viewer: the player whose eyes we use (a human playing), or None for a spectator.

    The log is omniscient, so a player's narrator follows every card from the records alone
    (where it went, which face is up, who was shown it) and names a card only while that
    player could see it; otherwise it is "a card". refs: cite the rule a record names."""

    def __init__(self, game: Game, viewer: int | None = None, refs: bool = False) -> None:
        self.game, self.viewer, self.refs = game, viewer, refs
        self.me = None if viewer is None else f"P{viewer + 1}"
        self.quiet = _quiet_events(game)
        self.place: dict[str, tuple[str, str | None, bool]] = {}  # card -> (zone, owner, face up)
        self.shown: set[str] = set()  # cards revealed to the viewer since they last moved
        # the live match, when there is one: the records do not say which face a card was
        # put with, the state does (a card is named only if the viewer can see it now too)
        self.state: GameState | None = None

    def follow(self, g: GameState) -> None:
        self.state = g

    def line(self, r: dict) -> str | None:
        text = self._line(r)
        if text is not None and self.refs and r.get("ref") and "d" not in r:
            text += f"  [{r['ref']}]"
        return text

    def _line(self, r: dict) -> str | None:
        e = r.get("e")
        seen_before = e == "moved" and self._recorded(r["card"])
        if self.viewer is not None:
            self._follow(r)
            if r.get("private", self.me) != self.me:
                return None
        if "d" in r and r.get("concede"):
            return f"  {r['d']} concedes"
        if "d" in r:
            q = self._question(r.get("q"))
            question = f" ({q})" if q and not q.endswith(": act") else ""
            if self.viewer is not None and r["d"] != self.me:
                return f"  {r['d']} decides{question}"  # its consequences show what is public
            return f"  {r['d']}{question}: {r['o']}"
        if "tcg" in r or e in _QUIET or e in self.quiet or e in self.game.ruleset.actions:
            return None
        if e == "turn_start":
            return f"\n== turn {r['turn']}: {r['player']} =="
        if e == "phase_start":
            return f" [{r['phase']}]"
        if e == "moved":
            seen = self.viewer is None or seen_before or self.sees(r["card"])
            card = r["card"] if seen else "a card"
            return f"    {card}: {r['from_zone']} → {r['to_zone']} ({r['player'] or 'no player'})"
        if e == "move_failed":
            return f"    {self.name(r['card'])} cannot go to {r['to']}: {r['why']}"
        fields = [(k, v) for k, v in r.items() if k not in ("e", "ref", "ability", "private")]
        if any(v == [] for _, v in fields):
            return None  # the verb had nothing to act on
        return f"    · {e}({', '.join(self._argument(k, v) for k, v in fields)})"

    def _argument(self, key: str, v: object) -> str:
        """A field in words: a yes/no or an absent value says which field it is."""
        if v is None or isinstance(v, bool):
            return f"{key}: {'none' if v is None else 'yes' if v else 'no'}"
        return str(self._short(v))

    def _question(self, q: str | None) -> str | None:
        """The question of a decision record as the viewer may read it: while it is the live
        match's pending one, a hidden card it names is hidden (observe.prompt_for)."""
        g = self.state
        if self.viewer is None or g is None or g.decision is None or g.decision.prompt != q:
            return q
        return observe.prompt_for(g, self.viewer)

    def _follow(self, r: dict) -> None:
        """Keep track of where each card is and whether the viewer may see it."""
        e = r.get("e")
        if e == "moved":
            card = r["card"]
            self.shown.discard(card)
            self.place[card] = (r["to_zone"], r["player"], self._face_up(r["to_zone"]))
        elif e == "created":
            self.place[str(r["card"])] = (r["to_zone"], None, self._face_up(r["to_zone"]))
        elif e == "flipped" and r["card"] in self.place:
            zone, owner, _ = self.place[r["card"]]
            self.place[r["card"]] = (zone, owner, r["face"] == "up")
        elif e == "revealed" or (e == "looked" and r.get("player") == self.me):
            self.shown.update(map(str, r.get("cards") or ()))

    def _face_up(self, zone: str) -> bool:
        zdef = self.game.ruleset.zones.get(zone)
        return zdef is None or zdef.face == "up"

    def sees(self, card: str) -> bool:
        """Whether the viewer may see the card now (as engine.state.visible rules)."""
        if self.viewer is None:
            return True
        if self.state is not None:
            cid = int(card.rpartition("#")[2])
            if cid >= len(self.state.defs) or not visible(self.state, cid, self.viewer):
                return False
        return self._recorded(card)

    def _recorded(self, card: str) -> bool:
        """Whether the viewer could see the card, as far as the records tell."""
        if self.viewer is None or card in self.shown:
            return True
        if card not in self.place:
            return False  # never seen moving: still where the game began it, in a deck
        zone, owner, face_up = self.place[card]
        zdef = self.game.ruleset.zones.get(zone)
        vis = zdef.visibility if zdef else "public"
        if vis == "hidden":
            return False
        return owner == self.me or (vis == "public" and face_up)

    def name(self, card: object) -> str:
        text = str(card)
        return text if not _CARD.fullmatch(text) or self.sees(text) else "a card"

    def _short(self, v: object) -> object:
        if isinstance(v, list):
            return "[" + ", ".join(self.name(x) for x in v) + "]"
        return self.name(v)


def _quiet_events(game: Game) -> frozenset[str]:
    """The events only quiet verbs report: a verb that is not quiet keeps its event told."""
    verbs = game.ruleset.verbs.values()
    return frozenset({v.event for v in verbs if v.quiet} - {v.event for v in verbs if not v.quiet})


def board(obs: dict) -> str:
    lines = [f"-- turn {obs['turn']} ({obs['turn_player']}), {obs['phase']} phase; "
             f"you are {obs['you']} --"]
    resources = "; ".join(f"{who} " + ", ".join(f"{k} {v}" for k, v in values.items())
                          for who, values in obs["resources"].items() if values)
    if resources:
        lines.append(f"  resources      {resources}")
    for zone, cards in obs["zones"].items():
        shown = [_card(c) for c in cards if not c.get("hidden")]
        marked = [f"a hidden card ({' '.join(c['states'])})" for c in cards
                  if c.get("hidden") and c.get("states")]
        hidden = len(cards) - len(shown) - len(marked)
        parts = shown + marked + ([f"{hidden} hidden"] if hidden else [])
        lines.append(f"  {zone:<14} {', '.join(parts) if parts else '-'}")
    return "\n".join(lines)


def _card(c: dict) -> str:
    extra = [f"{k}={v}" for k, v in c.items() if k not in ("id", "name", "hidden", "states", "face_down",
                                                           "counters", "text", "abilities")]
    extra += c.get("states", [])
    extra += [f"{k}×{n}" for k, n in (c.get("counters") or {}).items()]
    return f"{c['name']}#{c['id']}({' '.join(extra)})" if extra else f"{c['name']}#{c['id']}"
