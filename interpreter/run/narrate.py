"""Readable, turn-by-turn lines from log records, as one player (or a spectator) may see them."""

from __future__ import annotations

from interpreter.engine.game import Game

_QUIET = {"state", "flipped", "shuffled", "created", "phase_end", "turn_end", "resource",
          "counter", "game_over", "looked"}


class Narrator:
    """viewer: the player whose eyes we use (a human playing), or None for a spectator."""

    def __init__(self, game: Game, viewer: int | None = None) -> None:
        self.game, self.viewer = game, viewer

    def line(self, r: dict) -> str | None:
        e = r.get("e")
        if "d" in r and r.get("concede"):
            return f"  {r['d']} concedes"
        if "d" in r:
            question = f" ({r['q']})" if r.get("q") and not r["q"].endswith(": act") else ""
            if self.viewer is not None and r["d"] != f"P{self.viewer + 1}":
                return f"  {r['d']} decides{question}"  # its consequences show what is public
            return f"  {r['d']}{question}: {r['o']}"
        if "tcg" in r or e in _QUIET or e in self.game.ruleset.actions:
            return None
        if e == "turn_start":
            return f"\n== turn {r['turn']}: {r['player']} =="
        if e == "phase_start":
            return f" [{r['phase']}]"
        if e == "moved":
            return self._move(r)
        if e == "move_failed":
            return f"    {r['card']} cannot go to {r['to']}: {r['why']}"
        values = [v for k, v in r.items() if k not in ("e", "ref", "ability", "private")]
        if any(v == [] for v in values):
            return None  # the verb had nothing to act on
        return f"    · {e}({', '.join(str(_short(v)) for v in values)})"

    def _move(self, r: dict) -> str:
        owner = int(r["player"][1:]) - 1
        seen = self.viewer is None or any(
            self._visible(z, owner) for z in (r["from_zone"], r["to_zone"]))
        card = r["card"] if seen else "a card"
        return f"    {card}: {r['from_zone']} → {r['to_zone']} ({r['player']})"

    def _visible(self, zone: str, owner: int) -> bool:
        vis = self.game.ruleset.zones[zone].visibility
        return vis == "public" or (vis == "owner" and owner == self.viewer)


def _short(v: object) -> object:
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    return v


def board(obs: dict) -> str:
    lines = [f"-- turn {obs['turn']} ({obs['turn_player']}), {obs['phase']} phase; "
             f"you are {obs['you']} --"]
    for zone, cards in obs["zones"].items():
        shown = [_card(c) for c in cards if not c.get("hidden")]
        marked = [f"a hidden card ({' '.join(c['states'])})" for c in cards
                  if c.get("hidden") and c.get("states")]
        hidden = len(cards) - len(shown) - len(marked)
        parts = shown + marked + ([f"{hidden} hidden"] if hidden else [])
        lines.append(f"  {zone:<14} {', '.join(parts) if parts else '-'}")
    return "\n".join(lines)


def _card(c: dict) -> str:
    extra = [f"{k}={v}" for k, v in c.items() if k not in ("id", "name", "hidden", "states",
                                                           "face_down")]
    extra += c.get("states", [])
    return f"{c['name']}({' '.join(extra)})" if extra else c["name"]
