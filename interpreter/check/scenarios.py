"""`tcg check` of a scenario file against its game: every zone, card, state, counter,
resource, phase and player it names exists, so that `tcg test` fails only on behaviour."""

from __future__ import annotations

import re
from typing import Any

from interpreter.agents.basic import CONCEDE
from interpreter.diagnostics import Diagnostic, did_you_mean
from interpreter.engine.game import Game
from interpreter.engine.instructions import ChooseMode
from interpreter.engine.turn import PhaseStart
from interpreter.load.yamlpos import Doc

_PLAYER = re.compile(r"P?([1-9][0-9]*)$")
_ID = re.compile(r"#[0-9]*")


class ScenarioChecker:
    def __init__(self, game: Game, doc: Doc) -> None:
        self.game, self.doc = game, doc
        self.rules = game.ruleset
        self.out: list[Diagnostic] = []

    def check(self) -> list[Diagnostic]:
        spec = self.doc.data
        self._state(spec.get("state") or {})
        for i, deck in enumerate(spec.get("decks") or ()):
            for section, cards in (deck or {}).items():
                for name in cards or {}:
                    self._card(("decks", i, section, name), name, key=True)
        labels = None
        for i, step in enumerate(spec.get("decisions") or ()):
            at: tuple = ("decisions", i)
            if isinstance(step, dict) and "expect" in step:  # a checkpoint
                self._expect((*at, "expect"), step["expect"] or {})
                continue
            if isinstance(step, dict):
                if "player" in step:
                    self._player((*at, "player"), step["player"])
                step, at = step.get("choose"), (*at, "choose")
            if isinstance(step, str) and step != CONCEDE:
                labels = labels or _labels(self.game, self._phases())
                self._decision(at, step, labels)
        self._expect(("expect",), spec.get("expect") or {})
        for i, outcome in enumerate(spec.get("random") or ()):
            if isinstance(outcome, str) and outcome not in ("heads", "tails", "any"):
                self._card(("random", i), outcome)  # a random pick's card
            for j, name in enumerate(outcome if isinstance(outcome, list) else ()):
                self._card(("random", i, j), name)  # a shuffle's cards, top first
        return sorted(self.out, key=lambda d: (d.line, d.col))

    # ---------- the given state ----------
    def _state(self, state: dict) -> None:
        at = ("state",)
        if "turn_player" in state:
            self._player((*at, "turn_player"), state["turn_player"])
        if state.get("phase") is not None and state["phase"] not in self._phases():
            self._add((*at, "phase"), "UNKNOWN-PHASE", f"unknown phase {state['phase']!r}",
                      self._suggest(str(state["phase"]), self._phases(), "phases"))
        for key, cards in (state.get("zones") or {}).items():
            zat = (*at, "zones", key)
            if self._zone(zat, key):
                for i, entry in enumerate(cards or ()):
                    self._entry((*zat, i), entry)
        self._resources((*at, "resources"), state.get("resources") or {})

    def _entry(self, at: tuple, entry: Any) -> None:
        if not isinstance(entry, dict):
            self._card(at, entry)
            return
        self._card((*at, "card"), entry.get("card"))
        for i, state in enumerate(entry.get("states") or ()):
            if state not in self.rules.states:
                self._add((*at, "states", i), "UNKNOWN-STATE", f"unknown state {state!r}",
                          self._suggest(str(state), self.rules.states, "states"))
        for counter in entry.get("counters") or {}:
            if counter not in self.rules.counters:
                self._add((*at, "counters", counter), "UNKNOWN-NAME",
                          f"unknown counter {counter!r}",
                          self._suggest(str(counter), self.rules.counters, "counters"), key=True)
        if "owner" in entry and entry["owner"] != "none":
            self._player((*at, "owner"), entry["owner"], also="or none (a pool's card)")
        if "attached_to" in entry:
            self._place((*at, "attached_to"), entry["attached_to"])

    def _resources(self, at: tuple, values: dict) -> None:
        for who, named in values.items():
            if self._player((*at, who), who, key=True):
                for name in named or {}:
                    if name not in self.rules.resources:
                        self._add((*at, who, name), "UNKNOWN-NAME", f"unknown resource {name!r}",
                                  self._suggest(str(name), self.rules.resources, "resources"),
                                  key=True)

    def _decision(self, at: tuple, text: str, labels: list[str]) -> None:
        """A decision picks the first option whose label contains its text: a text that no
        label of this game can contain fails whatever the state."""
        wanted = _ID.sub("#", text)
        wanted = wanted.lstrip("0123456789") if wanted[:1].isdigit() else wanted
        if not wanted or any(wanted in label for label in labels):
            return
        shown = [label.replace("#", "") for label in labels]
        self._add(at, "DECISION", f"no option of this game can contain {text!r}",
                  did_you_mean(text, shown) or
                  "options are action labels, card names, 'yes', 'no', 'done', 'pass', "
                  "'end the PHASE phase', zones ('hand@P1'), players ('P1'), numbers and "
                  "the modes of 'choose one'")

    # ---------- expectations ----------
    def _expect(self, at: tuple, expect: dict) -> None:
        """The final `expect` or a checkpoint's, at `at`."""
        winner = expect.get("winner")
        if winner is not None and str(winner) not in ("draw", "none"):
            self._player((*at, "winner"), winner, also="draw or none")
        for key, want in (expect.get("zones") or {}).items():
            zat = (*at, "zones", key)
            if not self._zone(zat, key):
                continue
            names = want if isinstance(want, list) else (want or {}).get("contains") or ()
            sub = () if isinstance(want, list) else ("contains",)
            for i, name in enumerate(names):
                self._card((*zat, *sub, i), name)
        for i, prop in enumerate(expect.get("properties") or ()):
            self._place((*at, "properties", i, "card"), prop.get("card"))
            name = prop.get("prop")
            known = [*self.game.readers, *self.rules.counters]
            if name is not None and name not in known:
                self._add((*at, "properties", i, "prop"), "UNKNOWN-PROPERTY",
                          f"unknown property, state or counter {name!r}",
                          did_you_mean(str(name), known))
        self._resources((*at, "resources"), expect.get("resources") or {})

    # ---------- names ----------
    def _zone(self, at: tuple, text: str, key: bool = True) -> bool:
        """`zone@P1`, a zone's key (or, with key=False, part of a value)."""
        name, _, owner = str(text).partition("@")
        zones = self.rules.zones
        if name not in zones:
            self._add(at, "UNKNOWN-ZONE", f"unknown zone {name!r} in {text!r}",
                      self._suggest(name, zones, "zones"), key=key)
            return False
        return self._player(at, owner, key=key) if owner else True

    def _place(self, at: tuple, where: Any) -> None:
        """`zone@P1:index`, a card's place."""
        key, _, index = str(where).rpartition(":")
        if not key or not index.isdigit():
            self._add(at, "PLACE", f"{where!r} is not a card's place",
                      "write zone@P1:0 (the zone, its owner, the index from the top)")
        else:
            self._zone(at, key, key=False)

    def _card(self, at: tuple, name: Any, key: bool = False) -> None:
        if name in self.game.cards or name in self.game.tokens:
            return
        self._add(at, "UNKNOWN-CARD", f"unknown card {name!r}",
                  did_you_mean(str(name), [*self.game.cards, *self.game.tokens]), key=key)

    def _player(self, at: tuple, who: Any, key: bool = False, also: str = "") -> bool:
        m = _PLAYER.match(str(who))
        if m and 1 <= int(m.group(1)) <= self.rules.players:
            return True
        ids = " or ".join(f"P{i + 1}" for i in range(self.rules.players))
        self._add(at, "UNKNOWN-PLAYER", f"no player {who!r}: this game has "
                  f"{self.rules.players} players", f"write {ids}" + (f", {also}" if also else ""),
                  key=key)
        return False

    def _phases(self) -> list[str]:
        return list(dict.fromkeys(i.phase.name for i in self.game.program
                                  if isinstance(i, PhaseStart)))

    @staticmethod
    def _suggest(word: str, names: Any, what: str) -> str:
        names = list(names)
        return did_you_mean(word, names) or f"{what}: {', '.join(map(str, names))}"

    def _add(self, at: tuple, code: str, message: str, hint: str = "", key: bool = False) -> None:
        d = self.doc.key_diag(at, code, message, hint) if key else \
            self.doc.diag(at, code, message, hint)
        self.out.append(d)


def _labels(game: Game, phases: list[str]) -> list[str]:
    """Every option label the game can show, a card's id written as a bare `#`
    (engine/observe.py makes them: card labels, action labels with their card and the
    ability they use, triggered abilities to order, yes/no/done/pass, a phase's end)."""
    rules = game.ruleset
    cards = [*game.cards.values(), *game.tokens.values()]
    shown = [f"{d.name}#" for d in cards] + [
        f"a hidden card in {zone}@P{p + 1}" for zone in rules.zones for p in range(rules.players)]
    texts = {f"{d.name}#": [a.name or a.text for a in d.abilities] for d in cards}
    out = ["pass", "done", "yes", "no", *(f"end the {phase} phase" for phase in phases)]
    for action in rules.actions.values():
        for card in shown:
            with_card = action.label.replace("{card}", card)
            out.append(with_card)
            out += [f"{with_card} [{text}]" for text in texts.get(card, ())]
    for card in shown:
        out += [f"{card}: {text}" for text in texts.get(card, ())]
        out.append(card)
    return out + _value_labels(game)


def _value_labels(game: Game) -> list[str]:
    """The labels of choices that are not cards: zones, players, the modes of `choose one`
    (numbers read as numbers)."""
    rules = game.ruleset
    out = [zone if z.shared else f"{zone}@P{p + 1}" for zone, z in rules.zones.items()
           for p in range(1 if z.shared else rules.players)]
    out += [f"P{p + 1}" for p in range(rules.players)]
    codes = [*(v.body for v in rules.verbs.values()), *(a.body for a in rules.actions.values())]
    for d in game.cards.values():
        codes += [d.effect, *(a.body for a in d.abilities), *(a.cost for a in d.abilities)]
    return out + [str(m) for code in codes for i in code if isinstance(i, ChooseMode)
                  for m in i.modes]


def check_scenario(game: Game, doc: Doc) -> list[Diagnostic]:
    """Every name in the scenario `doc` that `game` does not have."""
    return ScenarioChecker(game, doc).check()
