"""A card's `targeting` (timing: priority): compiled into TargetDefs, and the names its effect
may use for them."""

from __future__ import annotations

from interpreter.compile.texts import TextReader
from interpreter.engine.model import TargetDef


def target_defs(texts: TextReader, at: tuple, card: dict) -> tuple[TargetDef, ...]:
    """Each declared target: its name, the cards it may be (an expression) and the players
    it may be (a condition on `player`), both seeing the targets declared before it; one that
    does not check is left out."""
    out = []
    compile_expr = texts.compiler.exprs.compile
    specs = card.get("targeting") or ()
    for i, spec in enumerate(specs):
        place = (*at, "targeting", i)
        earlier = target_scope({"targeting": specs[:i]})  # (a filter sees the targets before it)
        if spec.get("abilities"):
            out += ability_target(texts, place, spec, earlier)
            continue
        cards = texts.read((*place, "cards"), "expr", earlier) if spec.get("cards") else None
        players = texts.read((*place, "players"), "cond", {**earlier, "player": "player"}) \
            if spec.get("players") else None
        up_to = spec.get("up_to") or 0
        divide = spec.get("divide") or 0
        if divide and not up_to:
            texts.diags.append(texts.doc.diag(
                (*place, "divide"), "TARGET",
                f"target {spec.get('name')!r}: `divide` shares an amount among `up_to` cards",
                "give it `up_to: N` too"))
            continue
        if up_to and (players is not None or cards is None):
            texts.diags.append(texts.doc.diag(
                (*place, "up_to"), "TARGET",
                f"target {spec.get('name')!r}: `up_to` chooses several cards, not players",
                "give it `cards` only, or declare the player as a target of its own"))
            continue
        if cards is None and players is None:
            if not (spec.get("cards") or spec.get("players")):
                texts.diags.append(texts.doc.diag(
                    place, "TARGET", f"target {spec.get('name')!r} can be nothing",
                    "give it `cards` (an expression), `players` (a condition on `player`), "
                    "both, or `abilities` (a condition on `card`)"))
            continue
        out.append(TargetDef(str(spec["name"]),
                             None if cards is None else compile_expr(cards),
                             None if players is None else compile_expr(players),
                             str(spec.get("prompt", "")),
                             str(spec.get("as_player") or spec["name"]), up_to=up_to,
                             divide=min(divide, 1000)))
    return tuple(out)


def ability_target(texts: TextReader, place: tuple, spec: dict,
                   earlier: dict[str, str]) -> list[TargetDef]:
    """A target that is an activated or triggered ability on the stack: `abilities` is a
    condition on its source, `card` (an object on the stack is never a card or a player too)."""
    if spec.get("cards") or spec.get("players"):
        texts.diags.append(texts.doc.diag(
            (*place, "abilities"), "TARGET",
            f"target {spec.get('name')!r} is an ability on the stack: it cannot be a card or "
            "a player too", "declare a second target for those"))
        return []
    cond = texts.read((*place, "abilities"), "cond", {**earlier, "card": "cards"})
    if cond is None:
        return []
    return [TargetDef(str(spec["name"]), prompt=str(spec.get("prompt", "")),
                      abilities=texts.compiler.exprs.compile(cond))]


def target_scope(card: dict) -> dict[str, str]:
    """The names a card's effect may use for its targets: cards (an ability's target: its
    source), a player, or both names of a target that may be either."""
    scope: dict[str, str] = {}
    for t in card.get("targeting") or ():
        if isinstance(t, dict) and "name" in t:
            if t.get("cards") or t.get("abilities"):
                scope[str(t["name"])] = "cards"
            if t.get("players"):
                scope[str(t.get("as_player") or t["name"])] = "player"
    return scope
