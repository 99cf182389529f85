"""The words of a match as one player may read them: questions, options, cards, events."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from interpreter.check.effects import PROMPT_TYPES
from interpreter.engine import observe
from interpreter.engine.actions import DECLINE, PASS
from interpreter.engine.game import Game
from interpreter.engine.instructions import DONE
from interpreter.engine.picks import Pick
from interpreter.engine.state import GameState, ZoneRef, visible
from interpreter.lang import ast as A
from interpreter.lang import parse_ability
from interpreter.words import catalog
from interpreter.words.phrases import PLACEHOLDER, Asked, Phrases, fill
from interpreter.words.render import Render, readable

# the engine's questions of a phase, a step or a window (turn.py, priority.py, actions.py)
_ENGINE_PROMPT = re.compile(r"(.+?)(?: phase| step)?: act(?: or pass(?: priority)?)?")

current: str | None = None  # the language a front end chose (--lang); None: the ruleset's


class Words:
    """A game's words in one language."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game, self.rs, self.lang = game, game.ruleset, lang
        self.phrases: Phrases = game.ruleset.phrases or Phrases()
        self._abilities: dict[str, str] = {}

    def say(self, key: str, **values: object) -> str:
        return catalog.say(key, self.lang, **values)

    def word(self, name: str) -> str:
        return self.phrases.get("names", name, self.lang) or readable(name)

    def phase(self, name: str) -> str:
        """A phase's word (`phase.NAME` first: a phase may share its name with a zone)."""
        return self.phrases.get("names", f"phase.{name}", self.lang) or self.word(name)

    def render(self) -> Render:
        return Render(self.rs, self.phrases, self.lang)

    def ability(self, text: str) -> str:
        """An ability's text (effect code) rendered in words."""
        if text not in self._abilities:
            try:
                self._abilities[text] = self.render().ability(parse_ability(text))
            except Exception:  # noqa: BLE001 - a text the checker refused: no words for it
                self._abilities[text] = self.say("nothing")
        return self._abilities[text]

    # ---- values ----
    def player(self, p: int) -> str:
        return f"P{p + 1}"

    def zone(self, ref: ZoneRef) -> str:
        zone = self.word(ref.name)
        return zone if ref.owner < 0 else self.say("zone_of", owner=self.player(ref.owner), zone=zone)

    def card(self, g: GameState, cid: int, viewer: int | None, ids: bool = True) -> str:
        if not visible(g, cid, viewer):
            ref = g.zone_of[cid]
            if ref.owner < 0:
                return self.say("a_card")
            return self.say("hidden_in", owner=self.player(ref.owner), zone=self.word(ref.name))
        name = g.defs[cid].name
        return f"{name}#{cid}" if ids else name

    def value(self, g: GameState, value: Any, kind: str, viewer: int | None) -> str:
        if kind == "player" and type(value) is int:
            return self.player(value)
        if kind == "cards":
            cards = (value,) if type(value) is int else value if type(value) is tuple else ()
            return catalog.joined([self.card(g, c, viewer, ids=False) for c in cards], self.lang) \
                or self.say("none")
        if isinstance(value, ZoneRef):
            return self.zone(value)
        if type(value) is bool:
            return self.say("true" if value else "false")
        return self.say("none") if value is None else str(value)

    # ---- the question and its options ----
    def asked(self, g: GameState) -> tuple[Asked | None, dict]:
        """The statement asking the pending question (None: the engine's own), and its env."""
        d = g.decision
        if d is None:
            return None, {}
        p = d[3]
        env = g.frames[-1].env if g.frames else {}
        asked = self.phrases.asked
        if type(p) is not str:
            return asked.get(getattr(p[0], "__self__", None)), p[2]
        if p in asked:
            return asked[p], env
        # a copy of a state holds its late prompt in words (GameState.clone): the instruction
        # asking still knows its prompt
        f = g.frames[-1] if g.frames else None
        instr = f.code[f.pc] if f is not None and 0 <= f.pc < len(f.code) else None
        for prompt in (getattr(instr, "fill", None), getattr(instr, "prompt", None)):
            found = asked.get(getattr(prompt, "said", prompt)) if prompt is not None else None
            if found is not None:
                return found, env
        return None, env

    def question(self, g: GameState, viewer: int | None) -> str:
        d = g.decision
        if d is None:
            return ""
        asked, env = self.asked(g)
        if d.kind == "action":
            text = self.say("phase_prompt", phase=self.phase(g.phase)) if g.phase \
                else self.logged_question(d.prompt)  # (a window outside the phases)
        elif d.kind == "order":
            text = self.say("order_prompt")
        elif asked is None:
            text = observe.prompt_for(g, viewer)  # (a hidden card it names stays hidden)
        else:
            text = self._asked_text(g, asked, env, viewer)
        card = env.get("card")
        if type(card) is tuple and len(card) == 1:
            card = card[0]
        if type(card) is int and card < len(g.defs) and d.kind != "action":
            name = self.card(g, card, viewer, ids=False)
            if name not in text:
                text = self.say("about", question=text, card=name)
        f = g.frames[-1] if g.frames else None
        if d.kind == "choose" and f is not None and f.choice is not None and f.choice[1] > 1:
            chosen = [self.card(g, c, viewer) for c in f.choice[2]]
            key = "chosen_of" if chosen else "none_chosen"
            text += " " + self.say(key, n=len(chosen), m=f.choice[1],
                                   cards=catalog.joined(chosen, self.lang))
        return text

    def logged_question(self, prompt: str) -> str:
        """A question as a log records it (the engine's words), in words when it is one of
        the game's own questions with no variables to fill."""
        asked = self.phrases.asked.get(prompt)
        if asked is None:
            m = _ENGINE_PROMPT.fullmatch(prompt)  # a phase's or window's own question
            return self.say("phase_prompt", phase=self.phase(m.group(1))) if m else prompt
        phrase = self.phrases.get("decisions", asked.key, self.lang)
        if phrase is not None and not PLACEHOLDER.search(phrase):
            return phrase
        if getattr(asked.stmt, "prompt", None) is not None:
            return prompt
        r = self.render()
        s = asked.stmt
        body = self.say("may_prompt", body=r.body(s.body)) if isinstance(s, A.May) else r.stmt(s)
        context = asked.key.split(".")[0]
        return f"{self.word(context)}: {body}" if context else body

    def _asked_text(self, g: GameState, asked: Asked, env: dict, viewer: int | None) -> str:
        phrase = self.phrases.get("decisions", asked.key, self.lang)
        types = self._types(asked)
        if phrase is not None:  # (a value of no known type is left out: it may be a card's id)
            return fill(phrase, {k: self.value(g, env[k], t, viewer)
                                 for k, t in types.items() if k in env})
        s = asked.stmt
        if getattr(s, "prompt", None) is not None:
            return observe.prompt_for(g, viewer)  # (a hidden card it names stays hidden)
        r = self.render()
        for k, t in types.items():
            if k in env and t in ("player", "cards", "number"):
                r.bound[k] = self.value(g, env[k], t, viewer)
        context = asked.key.split(".")[0]
        body = r.body(s.body) if isinstance(s, A.May) else r.stmt(s)
        text = self.say("may_prompt", body=body) if isinstance(s, A.May) else body
        return self.say("call", name=self._context(g, context, env, viewer), args=text) if context else text

    def _context(self, g: GameState, context: str, env: dict, viewer: int | None) -> str:
        """What a question is asked from: a card the viewer cannot see is a hidden card."""
        for key in ("self", "card"):
            c = env.get(key)
            if type(c) is int and 0 <= c < len(g.defs) and g.defs[c].name == context \
                    and not visible(g, c, viewer):
                return self.say("hidden_card")
        return self.word(context)

    def _types(self, asked: Asked) -> dict[str, str]:
        """The types of the variables a question may show: the asking verb's parameters, an
        action's card and player, and those its own prompt names (the checker's)."""
        verb = self.rs.verbs.get(asked.key.split(".")[0])
        types = {"you": "player", "opponent": "player", "card": "cards", "player": "player"}
        if verb is not None:
            types.update(zip(verb.params, verb.types, strict=True))
        prompt = getattr(asked.stmt, "prompt", None)
        if prompt is not None:
            types.update(PROMPT_TYPES.get(prompt, ()))
        return types

    def option(self, g: GameState, option: Any, viewer: int | None) -> str:
        if option == PASS:
            return self.say("end_phase", phase=self.phase(g.phase)) if g.phase else self.say("pass")
        if option == DECLINE:
            return self.say("pass")
        if option == DONE:
            return self.say("done")
        if option is True or option is False:
            return self.say("true" if option else "false")
        if isinstance(option, int):
            return self.card(g, option, viewer)
        if isinstance(option, Pick):
            return self._pick(g, option, viewer)
        if isinstance(option, tuple) and len(option) == 3 and isinstance(option[0], str):
            return self._action(g, option, viewer)
        if isinstance(option, tuple) and len(option) == 4:  # a waiting or stacked ability
            cid, idx = option[0], option[1]
            name = self.card(g, cid, viewer)
            if not visible(g, cid, viewer):
                return name
            return f"{name}: {self.ability_name(g.defs[cid].abilities[idx])}"
        if isinstance(option, tuple) and len(option) == 2 and option[0] == "player":
            return self.player(option[1])
        return str(option)

    def _pick(self, g: GameState, pick: Pick, viewer: int | None) -> str:
        asked, _env = self.asked(g)
        if asked is not None and isinstance(asked.stmt, A.ChooseMode) and type(pick.value) is int:
            return self.render().mode(asked.stmt.modes[pick.value])
        if isinstance(pick.value, ZoneRef):
            return self.zone(pick.value)
        if asked is not None and isinstance(asked.stmt, A.ChooseValue) \
                and asked.stmt.kind == "player" and type(pick.value) is int:
            return self.player(pick.value)
        return pick.text

    def _action(self, g: GameState, option: tuple, viewer: int | None) -> str:
        name, card, idx = option
        shown = self.card(g, card, viewer) if card is not None else ""
        said = self.ability_name(g.defs[card].abilities[idx]) \
            if idx is not None and visible(g, card, viewer) else ""
        return self.action(name, {"card": shown}, said)

    def action(self, name: str, values: Mapping[str, str], ability: str = "") -> str:
        """An action in words: its phrase (else its label) filled, the ability it used (its
        name, else its text in words) in the phrase's {ability}, else after it."""
        phrase = self.phrases.get("actions", name, self.lang) or self.rs.actions[name].label
        text = fill(phrase, {**values, "ability": ability})
        if ability and "{ability}" not in phrase:
            text += f"：{ability}" if self.lang == "ja" else f": {ability}"
        return text

    def ability_name(self, ability: Any) -> str:
        """An ability as an option names it: its name, else its text in words."""
        return ability.name or self.ability(ability.text)

    def named(self, ability: Any) -> str:
        """An ability in words, after its name when it has one (a card's panel lists them)."""
        said = self.ability(ability.text)
        if not ability.name:
            return said
        return f"{ability.name}：{said}" if self.lang == "ja" else f"{ability.name}: {said}"

    def card_texts(self, g: GameState, viewer: int | None) -> dict[str, list[str]]:
        """The abilities in words of every card the viewer can see, by card name."""
        out: dict[str, list[str]] = {}
        for cid, d in enumerate(g.defs):
            if d.name not in out and d.abilities and visible(g, cid, viewer):
                out[d.name] = [self.named(a) for a in d.abilities if a.text]
        return out

    def names(self, g: GameState) -> dict[str, str]:
        """The words for the names an observation shows (zones, phases, states, properties,
        resources), for a front end to show beside its keys."""
        rs = self.rs
        keys = [*rs.zones, *rs.states, *rs.properties, *rs.resources, *rs.counters,
                *(ph.name for ph in rs.phases)]
        keys += [v for p in rs.properties.values() if p.type == "enum" for v in p.values]
        out = {k: self.word(k) for k in keys}
        out.update({ph.name: self.phase(ph.name) for ph in rs.phases if ph.name not in rs.zones})
        return out


@lru_cache(maxsize=32)
def _words(game: Game, lang: str) -> Words:
    return Words(game, lang)


def words_for(game: Game, lang: str | None = None) -> Words:
    """The game's words in `lang` (else the front end's choice, else the ruleset's)."""
    from interpreter.words import choose

    phrases = game.ruleset.phrases
    return _words(game, choose(lang or current, phrases.language if phrases else None))


def _board(game: Game) -> dict:
    """What the terminal's board needs to know of the ruleset to show it as the table does:
    its flags (shown by name when set), its internal resources (not shown), resource maxima."""
    rs = game.ruleset
    return {"flags": [k for k, p in rs.properties.items() if p.type == "flag"],
            "internal": [k for k, r in rs.resources.items() if r.get("internal")],
            "max": {k: r["max"] for k, r in rs.resources.items() if r.get("max") is not None}}


def said(g: GameState, viewer: int) -> dict:
    """The pending question and its options in words, for the seat asked (observation)."""
    w = words_for(g.game)
    out: dict[str, Any] = {"lang": w.lang, "names": w.names(g), "board": _board(g.game)}
    if g.decision is not None and g.decision.player == viewer:
        out["question"] = w.question(g, viewer)
        out["options"] = [w.option(g, o, viewer) for o in g.decision.options]
    out["cards"] = w.card_texts(g, viewer)
    return out
