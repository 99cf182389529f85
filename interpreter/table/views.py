"""An observation (plus the seat's options) as the JSON the page draws: a pure view.

Nothing here reads the game state: only the observation, the option labels it holds, and
the ruleset's and card pool's printed data, so a page cannot show what its seat cannot see.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.game import Game

LOG_LINES = 400  # the most recent narration lines a page is sent


def page(game: Game, obs: dict, option_cards: list[int | None], lines: list[str],
         result: dict | None, mode: str, **extra: Any) -> dict:
    r = game.ruleset
    you = obs["you"] or "P1"  # (everything seen: drawn from P1's side)
    out = {
        "mode": mode, "ruleset": {"id": r.id, "name": r.name}, "you": obs["you"],
        "turn": obs["turn"], "turn_player": obs["turn_player"], "phase": obs["phase"],
        "deciding": None if result else obs.get("deciding"),
        "resources": resources(game, obs["resources"]),
        "areas": areas(game, obs["zones"], you),
        "stack": [stack_entry(game, o) for o in obs.get("stack", ())],
        "question": question(obs, option_cards),
        "log": lines[-LOG_LINES:], "result": result,
    }
    out.update(extra)
    return out


def resources(game: Game, values: dict[str, dict]) -> dict[str, list[dict]]:
    described = game.ruleset.resources
    return {who: [{"name": k, "value": v, "about": str(described.get(k, {}).get("description", ""))}
                  for k, v in vals.items()] for who, vals in values.items()}


def areas(game: Game, zones: dict[str, list[dict]], you: str) -> dict[str, list[dict]]:
    """Zones by owner: the other players' at the top, shared ones between, the seat's below."""
    out: dict[str, list[dict]] = {"theirs": [], "shared": [], "mine": []}
    names = {c["id"]: c["name"] for cards in zones.values() for c in cards if "id" in c}
    for key, cards in zones.items():
        name, _, owner = key.partition("@")
        zdef = game.ruleset.zones[name]
        area = "shared" if zdef.shared else "mine" if owner == you else "theirs"
        layout = "slots" if zdef.capacity else "pile" if zdef.ordered else "row"
        if cards and all(c.get("hidden") for c in cards) and layout != "slots":
            layout = "backs"
        out[area].append({
            "key": key, "name": name, "owner": owner or None, "layout": layout,
            "about": zdef_description(game, name), "visibility": zdef.visibility,
            "capacity": zdef.capacity, "count": len(cards),
            "cards": [card(game, c, names) for c in cards],
        })
    return out


def stack_entry(game: Game, o: dict) -> dict:
    """An object on the stack (timing: priority), top first: its card, whose, what it does."""
    c = o["card"]
    name = "a hidden card" if c.get("hidden") else f"{c['name']}#{c['id']}"
    return {"object": o["object"], "controller": o["controller"], "card": name,
            "text": o.get("text") or ("" if c.get("hidden") else c.get("text", "")),
            "targets": [f"{k}: {v}" for k, v in o.get("targets", {}).items()]}


def zdef_description(game: Game, name: str) -> str:
    raw = (game.ruleset.raw.get("zones") or {}).get(name) or {}
    return str(raw.get("description", "")) if isinstance(raw, dict) else ""


def card(game: Game, c: dict, names: dict[int, str]) -> dict:
    if c.get("hidden"):
        return {"hidden": True, "states": c.get("states", [])}
    d = game.cards.get(c["name"]) or game.tokens.get(c["name"])
    printed = d.props if d is not None else {}
    props = []
    for prop, pdef in game.ruleset.properties.items():
        if prop in c:
            base = printed.get(prop)
            props.append({"name": prop, "value": c[prop], "type": pdef.type,
                          "printed": base if base != c[prop] else None})
    return {"id": c["id"], "name": c["name"], "text": c.get("text", ""),
            "abilities": c.get("abilities", []), "props": props, "states": c.get("states", []),
            "counters": c.get("counters", {}), "face_down": bool(c.get("face_down")),
            "attached_to": _host(c, names)}


def _host(c: dict, names: dict[int, str]) -> str | None:
    if "attached_to" not in c:
        return None
    host = c["attached_to"]
    return "a hidden card" if host is None else f"{names.get(host, '')}#{host}"


def question(obs: dict, option_cards: list[int | None]) -> dict | None:
    """The seat's question and options in words, in the game's language (the observation's
    `said`), else as the engine labels them."""
    said = obs.get("said") or {}
    labels = said.get("options") or obs.get("options")
    if not labels:
        return None
    return {"prompt": said.get("question", obs.get("question", "")), "chosen": obs.get("chosen", []),
            "options": [{"index": i, "label": label, "card": cid}
                        for i, (label, cid) in enumerate(zip(labels, option_cards, strict=True))]}
