"""An observation (plus the seat's options) as the JSON the page draws: a pure view.

Nothing here reads the game state: only the observation, the option labels it holds, and
the ruleset's and card pool's printed data, so a page cannot show what its seat cannot see.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.engine.game import Game
from interpreter.words import catalog
from interpreter.words.speak import Words, words_for

LOG_LINES = 400  # the most recent narration lines a page is sent


def page(game: Game, obs: dict, option_cards: list[int | None], lines: list[str],
         result: dict | None, mode: str, **extra: Any) -> dict:
    r = game.ruleset
    w = words_for(game)
    you = obs["you"] or "P1"  # (everything seen: drawn from P1's side)
    out = {
        "mode": mode, "ruleset": {"id": r.id, "name": r.name}, "you": obs["you"],
        "lang": w.lang, "words": table_words(w.lang),
        "turn": obs["turn"], "turn_player": obs["turn_player"],
        "phase": w.phase(obs["phase"]) if obs["phase"] else None,
        "deciding": None if result else obs.get("deciding"),
        "resources": resources(game, w, obs["resources"]),
        "areas": areas(game, obs["zones"], you, w),
        "stack": [stack_entry(w, o) for o in obs.get("stack", ())],
        "question": question(obs, option_cards),
        "log": lines[-LOG_LINES:], "result": result and worded_result(w, result),
    }
    out.update(extra)
    return out


def table_words(lang: str) -> dict[str, str]:
    """The page's fixed strings (catalog keys `table.*`) in `lang`, `{name}` placeholders
    left for the page to fill."""
    return {k[len("table."):]: v.get(lang) or v["en"]
            for k, v in catalog.entries().items() if k.startswith("table.")}


def resources(game: Game, w: Words, values: dict[str, dict]) -> dict[str, list[dict]]:
    """The players' resources a person reads: those the ruleset marks `internal` (its own
    bookkeeping) are left out; one with a `max` shows what is left of it."""
    described = game.ruleset.resources
    return {who: [{"key": k, "name": w.word(k), "value": v, "max": described.get(k, {}).get("max"),
                   "about": str(described.get(k, {}).get("description", ""))}
                  for k, v in vals.items() if not described.get(k, {}).get("internal")]
            for who, vals in values.items()}


def worded_result(w: Words, result: dict) -> dict:
    """The result in words: who won (the catalog's) and why (the ruleset's reason)."""
    winner, reason = result["winner"], _reason(w, str(result["reason"]))
    head = w.say("win", player=winner) if winner else w.say("draw_game")
    ref = result["ref"] if result["ref"] and not _KEY.fullmatch(result["ref"]) else ""
    return {**result, "ref": ref, "text": f"{head}{w.say('comma')}{reason}"}


_KEY = re.compile(r"\w+(?:\.\w+)*")  # a ref naming a ruleset key (limits.turns): the words say it


def _reason(w: Words, reason: str) -> str:
    """The engine's reasons in words; a ruleset's own (`win(p, "…")`) as it wrote it."""
    if m := re.fullmatch(r"(P\d+) concedes", reason):
        return w.say("concedes", player=m[1])
    if m := re.search(r"turn limit: (\d+) turns reached", reason):
        return w.say("table.turn_limit", n=m[1])
    if reason.startswith("loop limit"):
        return w.say("table.loop_limit")
    if reason == "the game program ended":
        return w.say("table.program_ended")
    return reason.partition(": ")[2] or reason


def areas(game: Game, zones: dict[str, list[dict]], you: str,
          w: Words | None = None) -> dict[str, list[dict]]:
    """Zones by owner: the other players' at the top, shared ones between, the seat's below."""
    w = w or words_for(game)
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
            "key": key, "name": w.word(name), "owner": owner or None, "layout": layout,
            "about": zdef_description(game, name), "visibility": zdef.visibility,
            "capacity": zdef.capacity, "count": len(cards),
            "cards": [card(game, w, c, names) for c in cards],
        })
    return out


def stack_entry(w: Words, o: dict) -> dict:
    """An object on the stack (timing: priority), top first: its card, whose, what it does
    (its ability in words, else the card's printed text)."""
    c = o["card"]
    name = w.say("hidden_card") if c.get("hidden") else f"{c['name']}#{c['id']}"
    text = w.ability(o["text"]) if o.get("text") else "" if c.get("hidden") else c.get("text", "")
    return {"object": o["object"], "controller": o["controller"], "card": name, "text": text,
            "targets": [f"{k}: {v}" for k, v in o.get("targets", {}).items()]}


def zdef_description(game: Game, name: str) -> str:
    raw = (game.ruleset.raw.get("zones") or {}).get(name) or {}
    return str(raw.get("description", "")) if isinstance(raw, dict) else ""


def card(game: Game, w: Words, c: dict, names: dict[int, str]) -> dict:
    """A card as a person reads it: its printed text and its abilities rendered in words
    (never their effect code), its properties, states and counters by the ruleset's words."""
    if c.get("hidden"):
        return {"hidden": True, "states": [w.word(s) for s in c.get("states", [])]}
    d = game.cards.get(c["name"]) or game.tokens.get(c["name"])
    printed = d.props if d is not None else {}
    props = []
    for prop, pdef in game.ruleset.properties.items():
        if prop in c:
            base = printed.get(prop)
            props.append({"name": w.word(prop), "value": _value(w, pdef.type, c[prop]),
                          "type": pdef.type,
                          "printed": _value(w, pdef.type, base) if base != c[prop] else None})
    return {"id": c["id"], "name": c["name"], "text": c.get("text", ""),
            "abilities": [w.ability(a) for a in c.get("abilities", [])], "props": props,
            "states": [w.word(s) for s in c.get("states", [])],
            "counters": {w.word(k): n for k, n in c.get("counters", {}).items()},
            "face_down": bool(c.get("face_down")), "attached_to": _host(w, c, names)}


def _value(w: Words, kind: str, value: Any) -> Any:
    """An enum value by the ruleset's word for it (`names:`); other values as they are."""
    return w.word(value) if kind == "enum" and isinstance(value, str) else value


def _host(w: Words, c: dict, names: dict[int, str]) -> str | None:
    if "attached_to" not in c:
        return None
    host = c["attached_to"]
    return w.say("hidden_card") if host is None else f"{names.get(host, '')}#{host}"


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
