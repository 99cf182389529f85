"""Readable, turn-by-turn lines from log records, as one player (or a spectator) may see them."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from interpreter.engine.game import Game
from interpreter.engine.observe import option_kind
from interpreter.engine.state import GameState, visible
from interpreter.words import catalog
from interpreter.words.catalog import say
from interpreter.words.phrases import fill
from interpreter.words.speak import Words, words_for

_QUIET = {"state", "flipped", "shuffled", "created", "phase_end", "turn_end", "resource",
          "counter", "game_over", "looked"}
_CARD = re.compile(r".+#\d+")  # how the log names a card: name#id


class Narrator:
    """viewer: the player whose eyes we use (a human playing), or None for a spectator.

    The log is omniscient, so a player's narrator follows every card from the records alone
    (where it went, which face is up, who was shown it) and names a card only while that
    player could see it; otherwise it is "a card". refs: cite the rule a record names."""

    def __init__(self, game: Game, viewer: int | None = None, refs: bool = False,
                 lang: str | None = None) -> None:
        self.game, self.viewer, self.refs = game, viewer, refs
        self.me = None if viewer is None else f"P{viewer + 1}"
        self.quiet = _quiet_events(game)
        self.place: dict[str, tuple[str, str | None, bool]] = {}  # card -> (zone, owner, face up)
        self.shown: set[str] = set()  # cards revealed to the viewer since they last moved
        # the live match, when there is one: the records do not say which face a card was
        # put with, the state does (a card is named only if the viewer can see it now too)
        self.state: GameState | None = None
        self.lang = lang
        rs = game.ruleset
        self._names = {*rs.zones, *rs.states, *(ph.name for ph in rs.phases)}

    def follow(self, g: GameState) -> None:
        self.state = g

    @property
    def words(self) -> Words:
        """The match's words (its game's: a match's game is narrowed to its cards, and its
        questions are that game's)."""
        return words_for(self.state.game if self.state is not None else self.game, self.lang)

    def line(self, r: dict) -> str | None:
        text = self._line(r)
        if text is not None and self.refs and r.get("ref") and "d" not in r:
            text += f"  [{r['ref']}]"
        return text

    def _line(self, r: dict) -> str | None:
        e: str = r.get("e") or ""  # (every record but a decision and the header has one)
        seen_before = e == "moved" and self._recorded(r["card"])
        if self.viewer is not None:
            self._follow(r)
            if r.get("private", self.me) != self.me:
                return None
        w = self.words
        if "d" in r and r.get("concede"):
            return "  " + w.say("concedes", player=r["d"])
        if "d" in r:
            return self._decision(r)
        if "tcg" in r or e in _QUIET or e in self.quiet:
            return None
        if e == "turn_start":
            return "\n" + w.say("turn_head", turn=r["turn"], player=r["player"])
        if e == "phase_start":
            return " " + w.say("phase_head", phase=w.phase(r["phase"]))
        if e == "moved":
            seen = self.viewer is None or seen_before or self.sees(r["card"])
            card = r["card"] if seen else w.say("a_card")
            src, dst = w.word(r["from_zone"]), w.word(r["to_zone"])
            if r.get("player"):
                return "    " + w.say("moved_of", card=card, owner=r["player"], src=src, dst=dst)
            return "    " + w.say("moved", card=card, src=src, dst=dst)
        if e == "move_failed":
            return "    " + w.say("move_failed", card=self.name(r["card"]), to=w.word(str(r["to"])),
                                  why=r["why"])
        values = {k: v for k, v in r.items() if k not in ("e", "ref", "ability", "private")}
        if any(v == [] for v in values.values()):
            return None  # the verb had nothing to act on
        return "    " + self._event(e, values, r.get("ability"))

    def _event(self, e: str, values: dict, ability: object = None) -> str:
        """An event in words: its phrase (the event's, else its verb's or action's), else its
        name and values."""
        w = self.words
        shown = {k: self._said(v) for k, v in values.items()}
        phrase = w.phrases.get("events", e, w.lang) or w.phrases.get("verbs", e, w.lang)
        if phrase is not None:
            return fill(phrase, shown)
        if e in self.game.ruleset.actions:
            what = w.action(e, shown, self._ability(values.get("card"), ability))
            return w.say("did", player=shown.get("player", ""), what=what)
        if f"event.{e}" in catalog.T:  # the engine's own events, in the catalog's words
            return w.say(f"event.{e}", **shown)
        args = [shown[k] for k in values if k != "player"]
        if "player" in values:
            args.insert(0, shown["player"])
        if not args:
            return w.say("event_bare", name=w.word(e))
        return w.say("event", name=w.word(e), args=w.say("comma").join(args))

    def _ability(self, card: object, ability: object) -> str:
        """The name (else the words) of the ability an action used, as its option showed it:
        the log's `ability` is [card id, index]; none of a card the viewer cannot see."""
        if not isinstance(ability, list) or not isinstance(card, str) or not self.sees(card):
            return ""
        d = self.game.cards.get(card.rpartition("#")[0]) or self.game.tokens.get(
            card.rpartition("#")[0])
        index = ability[1]
        return self.words.ability_name(d.abilities[index]) \
            if d is not None and 0 <= index < len(d.abilities) else ""

    def _said(self, v: object) -> str:
        w = self.words
        if isinstance(v, list):
            return catalog.joined([self.name(x) for x in v], w.lang) or w.say("none")
        if isinstance(v, bool):
            return w.say("true" if v else "false")
        if v is None:
            return w.say("none")
        text = self.name(v)
        return w.word(text) if text in self._names else text

    def _decision(self, r: dict) -> str | None:
        """A decision in words: from the live match when it is the one pending (its options
        as the viewer may see them), else the log's own words."""
        w, g = self.words, self.state
        d = g.decision if g is not None else None
        live = d is not None and f"P{d.player + 1}" == r["d"] and 0 <= r["i"] < len(d.options)
        if not live or g is None or d is None:  # (a replay: the log's words, worded if known)
            if self.viewer is not None and r["d"] != self.me:
                # the log's words may name a hidden card (the question's card, the answer):
                # what the other seat decided shows in what it did that was public
                return "  " + w.say("decides", player=r["d"])
            return "  " + w.say("decided_q", player=r["d"], question=w.logged_question(r.get("q", "")),
                                answer=r["o"])
        option = d.options[r["i"]]
        if d.kind == "action" and option_kind(option, d.kind) not in ("pass",):
            return None  # the action's own event tells it
        answer = w.option(g, option, self.viewer)
        if d.kind == "action":
            return "  " + w.say("decided", player=r["d"], answer=answer)
        return "  " + w.say("decided_q", player=r["d"], question=w.question(g, self.viewer),
                            answer=answer)

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
        return text if not _CARD.fullmatch(text) or self.sees(text) else self.words.say("a_card")



def _quiet_events(game: Game) -> frozenset[str]:
    """The events only quiet verbs report: a verb that is not quiet keeps its event told."""
    verbs = game.ruleset.verbs.values()
    return frozenset({v.event for v in verbs if v.quiet} - {v.event for v in verbs if not v.quiet})


def board(obs: Mapping) -> str:
    """The board in words (the observation's `said`: its names in the reader's language), as
    the table shows it: internal resources left out, what is left of a resource with a max,
    flags by name, face-down cards the reader can see marked (a used token is not a fresh one)."""
    said = obs.get("said") or {}
    lang, names = said.get("lang", "en"), said.get("names", {})
    known = said.get("board") or {}
    internal, most = set(known.get("internal", ())), known.get("max", {})

    def word(key: str) -> str:
        name, _, owner = key.partition("@")
        shown = names.get(name, name)
        return f"{shown}@{owner}" if owner else shown

    def amount(key: str, value: object) -> str:
        if key in most:
            return f"{word(key)} " + say("table.left", lang, value=value, max=most[key])
        return f"{word(key)} {value}"

    lines = [say("board_head", lang, turn=obs["turn"], player=obs["turn_player"],
                 phase=word(obs["phase"] or "-"), you=obs["you"])]
    resources = "; ".join(f"{who} " + ", ".join(amount(k, v) for k, v in shown.items())
                          for who, values in obs["resources"].items()
                          if (shown := {k: v for k, v in values.items() if k not in internal}))
    if resources:
        lines.append(f"  {say('resources', lang):<14} {resources}")
    flags = frozenset(known.get("flags", ()))
    for zone, cards in obs["zones"].items():
        shown_cards = [_card(c, word, flags, lang) for c in cards if not c.get("hidden")]
        marked = [say("hidden_marked", lang, states=" ".join(map(word, c["states"])))
                  for c in cards if c.get("hidden") and c.get("states")]
        hidden = len(cards) - len(shown_cards) - len(marked)
        parts = shown_cards + marked + ([say("n_hidden", lang, n=hidden)] if hidden else [])
        lines.append(f"  {word(zone):<14} {', '.join(parts) if parts else '-'}")
    return "\n".join(lines)


def _card(c: dict, word: Callable[[str], str], flags: frozenset[str] = frozenset(),
          lang: str = "en") -> str:
    extra = [word(k) if k in flags else f"{word(k)} {word(v) if isinstance(v, str) else v}"
             for k, v in c.items()
             if k not in ("id", "name", "hidden", "states", "face_down", "counters", "text",
                          "abilities", "attached_to") and not (k in flags and not v)]
    extra += [word(s) for s in c.get("states", [])]
    extra += [f"{word(k)}×{n}" for k, n in (c.get("counters") or {}).items()]
    if c.get("face_down"):
        extra.append(say("face_down_mark", lang))
    return f"{c['name']}#{c['id']} [{', '.join(extra)}]" if extra else f"{c['name']}#{c['id']}"
