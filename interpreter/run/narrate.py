"""Readable, turn-by-turn lines from log records; a board view for humans."""

from __future__ import annotations


def narrate(r: dict) -> str | None:
    e = r.get("e")
    if "d" in r:
        return f"    {r['d']} → {r['o']}"
    if e == "turn_start":
        return f"\n== turn {r['turn']}: {r['player']} =="
    if e == "phase_start":
        return f"  [{r['phase']}]"
    if e == "moved":
        return f"    {r['card']}: {r['from_zone']} → {r['to_zone']} ({r['player']})"
    if e == "game_over":
        return None
    if e in ("state", "flipped", "shuffled", "created", "phase_end", "turn_end", "resource",
             "counter") or e is None:
        return None
    fields = ", ".join(f"{k}={v}" for k, v in r.items() if k != "e")
    return f"    * {e}({fields})"


def board(obs: dict) -> str:
    lines = [f"-- turn {obs['turn']} ({obs['turn_player']}), {obs['phase']} phase; "
             f"you are {obs['you']} --"]
    for zone, cards in obs["zones"].items():
        shown = [c for c in cards if not c.get("hidden")]
        hidden = len(cards) - len(shown)
        parts = [_card(c) for c in shown] + ([f"{hidden} hidden"] if hidden else [])
        lines.append(f"  {zone:<14} {', '.join(parts) if parts else '-'}")
    return "\n".join(lines)


def _card(c: dict) -> str:
    extra = [f"{k}={v}" for k, v in c.items() if k not in ("id", "name", "hidden", "states",
                                                           "face_down")]
    extra += c.get("states", [])
    return f"{c['name']}({' '.join(extra)})" if extra else c["name"]
