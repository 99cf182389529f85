"""A hand-written UCB (うちのこカードバトル) simulator: vanilla characters, random players.

The baseline of bench/bench_ucb.py. It follows rulesets/ucb.yaml restricted to characters
without abilities (no spells, no extra deck), and its random player chooses uniformly among
the same options the interpreter offers at each decision:

- mulligan (second player, once): yes / no;
- main phase: each kind of playable card in hand (copies are one option), or pass (no
  decision when nothing is playable);
- paying a cost, one mana card at a time: each kind of usable mana card (face-up tokens are
  interchangeable, and so are copies of one card); no decision when only one kind is left
  or when every remaining card must be paid;
- battle phase (only with a character): each kind of untapped, non-reversed character
  (same name and same states), or pass;
- blocking: each kind of non-reversed character (same name and tapped state), or no block;
- mana phase (at most 2 cards): each kind of card in hand, or pass.

Cards are shared objects (one per name), so copies compare equal and `distinct` can merge
them by identity. The top of a deck is the end of its list.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

VANILLA = Path(__file__).with_name("vanilla.yaml")
COPIES = 4
TOKENS = 3
HAND = 5
SLOTS = 5
CHARGES = 2
TURN_LIMIT = 200
PASS = "pass"
TOKEN = "token"  # a face-up mana token, as a payment option


class Card:
    __slots__ = ("name", "cost", "power")

    def __init__(self, name: str, cost: int, power: int) -> None:
        self.name, self.cost, self.power = name, cost, power


class Unit:
    """A character in a battle area. It enters tapped; `fresh`: played this turn."""

    __slots__ = ("card", "tapped", "reversed", "fresh")

    def __init__(self, card: Card) -> None:
        self.card, self.tapped, self.reversed, self.fresh = card, True, False, True


class Player:
    """`tokens`: face-up mana tokens; `mana`: the other mana cards (face down)."""

    __slots__ = ("index", "deck", "hand", "tokens", "mana", "battle", "discard")

    def __init__(self, index: int, deck: list[Card]) -> None:
        self.index, self.deck, self.hand = index, list(deck), []
        self.tokens, self.mana, self.battle, self.discard = TOKENS, [], [], []


class GameOver(Exception):
    def __init__(self, winner: int | None) -> None:
        super().__init__(winner)
        self.winner = winner


def load_cards(path: Path = VANILLA) -> list[Card]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Card(c["name"], c["cost"], c["power"]) for c in doc["cards"]]


def vanilla_deck(path: Path = VANILLA) -> list[Card]:
    """The bench deck: four of each card in the file (40 cards)."""
    return [card for card in load_cards(path) for _ in range(COPIES)]


def distinct(items: list, key=lambda x: x) -> list:
    """One item per class of interchangeable items, first one kept."""
    return list({key(x): x for x in reversed(items)}.values())


class Match:
    def __init__(self, deck: list[Card], seed: int) -> None:
        self.rng = random.Random(seed)
        self.players = [Player(0, deck), Player(1, deck)]
        self.turn = 0
        self.decisions = 0
        self.winner: int | None = None

    def choose(self, options: list):
        """The random player's decision."""
        self.decisions += 1
        return self.rng.choice(options)

    def run(self) -> Match:
        """Play to the end; `winner` is the winner's index, or None for a draw."""
        try:
            self.start()
            while self.turn < TURN_LIMIT:
                me, foe = self.players[self.turn % 2], self.players[1 - self.turn % 2]
                self.turn += 1
                self.play_turn(me, foe)
        except GameOver as over:
            self.winner = over.winner
        return self

    # ---------- deck and hand ----------
    def check_decks(self) -> None:
        """A player whose deck reaches 0 loses at that instant; both at once: draw."""
        losers = [p.index for p in self.players if not p.deck]
        if len(losers) == 2:
            raise GameOver(None)
        if losers:
            raise GameOver(1 - losers[0])

    def draw(self, p: Player, n: int) -> None:
        for _ in range(n):
            p.hand.append(p.deck.pop())
            self.check_decks()

    def damage(self, p: Player, n: int) -> None:
        for _ in range(n):
            p.discard.append(p.deck.pop())
            self.check_decks()

    def start(self) -> None:
        for p in self.players:
            self.rng.shuffle(p.deck)
            self.draw(p, HAND)
        second = self.players[1]
        if self.choose([True, False]):
            second.deck += second.hand
            second.hand = []
            self.rng.shuffle(second.deck)
            self.draw(second, HAND)

    # ---------- the turn ----------
    def play_turn(self, me: Player, foe: Player) -> None:
        self.setup_phase(me)
        self.main_phase(me)
        if me.battle:
            self.battle_phase(me, foe)
        self.mana_phase(me)
        for unit in me.battle:
            unit.fresh = False

    def setup_phase(self, me: Player) -> None:
        me.tokens = TOKENS
        self.draw(me, 1 if len(me.hand) >= HAND else HAND - len(me.hand))
        for unit in me.battle:
            unit.tapped = unit.reversed = False

    def main_phase(self, me: Player) -> None:
        while True:
            options = self.playable(me)
            if not options:
                return
            card = self.choose(distinct(options) + [PASS])
            if card == PASS:
                return
            self.pay(me, card.cost)
            me.hand.remove(card)
            me.battle.append(Unit(card))

    def playable(self, me: Player) -> list[Card]:
        if len(me.battle) >= SLOTS:
            return []
        usable = me.tokens + len(me.mana)
        fresh = {unit.card.name for unit in me.battle if unit.fresh}
        return [c for c in me.hand if c.cost <= usable and c.name not in fresh]

    def pay(self, me: Player, cost: int) -> None:
        """Choose the mana one card at a time; tokens turn face down, other cards are discarded."""
        left = [TOKEN] * me.tokens + me.mana
        paid: list = []
        while len(paid) < cost:
            if len(left) == cost - len(paid):
                paid += left
                break
            kinds = distinct(left)
            pick = kinds[0] if len(kinds) == 1 else self.choose(kinds)
            left.remove(pick)
            paid.append(pick)
        for m in paid:
            if m == TOKEN:
                me.tokens -= 1
            else:
                me.mana.remove(m)
                me.discard.append(m)

    def battle_phase(self, me: Player, foe: Player) -> None:
        while True:
            attackers = [u for u in me.battle if not u.tapped and not u.reversed]
            if not attackers:
                return
            unit = self.choose(distinct(attackers, lambda u: (u.card, u.fresh)) + [PASS])
            if unit == PASS:
                return
            self.attack(unit, foe)

    def attack(self, unit: Unit, foe: Player) -> None:
        blockers = [u for u in foe.battle if not u.reversed]
        blocker = PASS
        if blockers:
            blocker = self.choose(distinct(blockers, lambda u: (u.card, u.tapped)) + [PASS])
        if blocker == PASS:
            self.damage(foe, unit.card.power)
            unit.tapped = True
            return
        if unit.card.power > blocker.card.power:
            foe.battle.remove(blocker)
            foe.discard.append(blocker.card)
        unit.tapped = True
        if blocker in foe.battle:
            blocker.reversed = True

    def mana_phase(self, me: Player) -> None:
        for _ in range(CHARGES):
            if not me.hand:
                return
            card = self.choose(distinct(me.hand) + [PASS])
            if card == PASS:
                return
            me.hand.remove(card)
            me.mana.append(card)


def play(deck: list[Card], seed: int) -> Match:
    """One random match, played to the end."""
    return Match(deck, seed).run()


if __name__ == "__main__":
    m = play(vanilla_deck(), 0)
    print(f"winner {m.winner}, {m.turn} turns, {m.decisions} decisions")
