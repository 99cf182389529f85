"""An OpenSpiel game for any ruleset (optional: `pip install open_spiel`).

    >>> from interpreter.rl import spiel
    >>> game = spiel.load("ucb")          # or pyspiel.load_game("tcg", {"ruleset": "ucb"})

Randomness is explicit chance nodes, each a seed uniform among `seeds` (default 1,000):
one at the start, the match's seed (`tcg play --seed N`'s: the deal); and one after every
player action that draws randomness (a mulligan's shuffle, a die): the seed the engine's
random generator takes before that action runs. (The engine draws inside its primitives and
cannot stop there, so an action is first tried on a copy: one that draws nothing is taken
as tried, one that draws waits for its chance node.) Players act with the ids and
observations of layout.py; the observation tensor and string of a player show only what that
player may see. Returns: +1 / -1, 0 for a draw.

An opponent: `spiel.bot(player)` is a pyspiel.Bot that plays `default` (or any tcg agent,
`spiel.bot(1, "greedy")`) in that seat, for `evaluate_bots`:

    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> evaluate_bots(game.new_initial_state(), [my_bot, spiel.bot(1)], np.random.default_rng(0))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from interpreter.engine.state import Action, GameState
from interpreter.load import files
from interpreter.rl.layout import Layout
from interpreter.rl.table import deck_sections
from interpreter.rl.table import load as load_ruleset

NAME = "tcg"
# turns: the turn limit (0: the ruleset's)
DEFAULTS = {"ruleset": files.default_ruleset(), "seeds": 1000, "turns": 0}
MAX_GAME_LENGTH = 100_000  # decisions: an upper bound no bundled match comes near

_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="tcg-interpreter: a trading card game from its rule files",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS)


class _Shared:
    """What every state of one game shares (never copied when OpenSpiel clones a state)."""

    def __init__(self, ruleset: str) -> None:
        self.game = load_ruleset(ruleset)
        self.decks = deck_sections(self.game, None)
        self.layout = Layout(self.game)

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class _Match:
    """The engine's state inside an OpenSpiel state: cloned as GameState.clone() does."""

    __slots__ = ("g", "seen")

    def __init__(self, g: GameState) -> None:
        self.g = g
        self.seen: tuple[int, dict[int, Action]] = (-1, {})

    def __deepcopy__(self, memo: dict) -> _Match:
        return _Match(self.g.clone())


class TcgGame(pyspiel.Game):
    def __init__(self, params: dict | None = None) -> None:
        params = {**DEFAULTS, **(params or {})}
        self.shared = _Shared(str(params["ruleset"]))
        layout, players = self.shared.layout, self.shared.game.ruleset.players
        if players != 2:
            raise ValueError(f"the OpenSpiel game takes two-player rulesets; this one has {players}")
        self.seeds = int(params["seeds"])
        self.turns = int(params["turns"]) or None
        info = pyspiel.GameInfo(num_distinct_actions=layout.n_actions,
                                max_chance_outcomes=self.seeds, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=MAX_GAME_LENGTH)
        super().__init__(_TYPE, info, params)

    def new_initial_state(self) -> TcgState:
        return TcgState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> Observer:
        return Observer(self.shared.layout)


class TcgState(pyspiel.State):
    def __init__(self, game: TcgGame) -> None:
        super().__init__(game)
        self.shared, self.seeds, self.turns = game.shared, game.seeds, game.turns
        self.match: _Match | None = None  # None: at the chance node (no seed drawn yet)
        self.pending: int | None = None  # an option that draws randomness, once it has a seed

    def current_player(self) -> int:
        if self.match is None or self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        player = self.match.g.current_player
        return pyspiel.PlayerId.TERMINAL if player is None else player  # (None: the match is over)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(seed, 1.0 / self.seeds) for seed in range(self.seeds)]

    def _legal(self) -> dict[int, Action]:
        match = self.match
        assert match is not None  # (legal actions are asked after the deal)
        g = match.g
        if match.seen[0] != g.decisions:
            player = g.current_player
            assert player is not None  # (and before the end: OpenSpiel asks a terminal state none)
            _vector, positions = self.shared.layout.encode(g.observation(player, options=False),
                                                           player)
            actions = list(g.legal_actions())
            ids = self.shared.layout.ids(actions, positions)
            match.seen = (g.decisions, {i: a for i, a in zip(ids, actions, strict=True)
                                        if i is not None})
        return match.seen[1]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal())

    def _apply_action(self, action: int) -> None:
        if self.match is None:  # the deal
            shared = self.shared
            self.match = _Match(shared.game.new_state(shared.decks, int(action), turns=self.turns))
        elif self.pending is not None:  # the seed of an action that draws randomness
            g = self.match.g
            g.rng.seed(int(action))
            g.apply(self.pending)
            self.pending = None
        else:
            g, legal = self.match.g, self._legal()
            if action not in legal:  # (as OpenSpiel's own games fail: a SpielError)
                raise pyspiel.SpielError(
                    f"apply_action: action {action} is not legal for player "
                    f"{g.current_player} here; legal actions: {sorted(legal)}")
            chosen = legal[action]
            tried = g.clone()
            tried.apply(chosen.index)
            if tried.rng.getstate() == g.rng.getstate():
                self.match = _Match(tried)  # it drew nothing: as it would have gone
            else:
                self.pending = chosen.index

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self.shared.layout.describe(action)

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.g.is_over

    def returns(self) -> list[float]:
        result = None if self.match is None else self.match.g.result
        if result is None or result.winner is None:
            return [0.0, 0.0]
        return [1.0 if result.winner == p else -1.0 for p in range(2)]

    def __str__(self) -> str:
        """What anyone may know: the turn, the phase, who decides, the result."""
        if self.match is None:
            return "before the deal"
        g = self.match.g
        if g.result is not None or g.decision is None:
            return f"turn {g.turn}: {g.result.reason if g.result else 'over'}"
        return f"turn {g.turn}, {g.phase or 'no'} phase, P{g.decision.player + 1} decides " \
               f"(decision {g.decisions})"


class Observer:
    """An observation (layout.py's vector) of one player: only what they may see."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TcgState, player: int) -> None:
        if state.match is None:
            self.tensor.fill(0)
            return
        view = state.match.g.observation(player, options=False)
        self.tensor[:] = self.layout.encode(view, player)[0]

    def string_from(self, state: TcgState, player: int) -> str:
        if state.match is None:
            return "before the deal"
        from interpreter.run.narrate import board

        return board(state.match.g.observation(player, options=False))


class AgentBot(pyspiel.Bot):
    """A seat of the tcg game played by a tcg agent (`default`, the default; any name `tcg play
    --agents` takes: "greedy", "mcts:200", "random"...), for OpenSpiel's `evaluate_bots` and
    the like: an opponent to measure a learned policy against.

    The agent answers from the engine's state inside the OpenSpiel state (a search agent
    reads it only through determinized copies, as everywhere) and its option becomes that
    decision's action id; an option with no id (past the layout's `choices`) is replaced by
    the lowest legal id. The agent is made anew for each match, seeded from the deal's seed as
    `tcg play --seed N --agents` seeds it (N*1000 + seat), so a bot plays the same for the
    same history."""

    def __init__(self, player: int, agent: str = "default") -> None:
        from interpreter.agents.basic import make_agent

        super().__init__()
        self.player, self.agent_name = player, agent
        self._seed: int | None = None
        self._agent: Any = make_agent(agent, player)  # (a bad name fails here)

    def step(self, state: TcgState) -> int:
        from interpreter.agents.basic import make_agent
        from interpreter.agents.protocol import decide

        if state.match is None or state.current_player() != self.player:
            raise pyspiel.SpielError(f"AgentBot of P{self.player + 1} asked to act where it does "
                                     "not decide")
        deal = state.history()[0]
        if deal != self._seed:
            self._seed, self._agent = deal, make_agent(self.agent_name, deal * 1000 + self.player)
        legal = state._legal()
        index = decide(self._agent, state.match.g, self.player)[0]
        return next((i for i, a in sorted(legal.items()) if a.index == index), min(legal))

    def restart_at(self, state: pyspiel.State) -> None:
        pass  # (the agent is made anew from the deal's seed when a new match reaches it)

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass  # (the agent reads the state it is given; it keeps no history of its own)

    def provides_policy(self) -> bool:
        return False


def bot(player: int, agent: str = "default") -> AgentBot:
    """A bot for `player` (0 or 1) playing the tcg agent `agent`: `default` unless named."""
    return AgentBot(player, agent)


def load(ruleset: str | None = None, seeds: int = 1000, turns: int = 0) -> pyspiel.Game:
    """The OpenSpiel game of a ruleset (a bundled id or a ruleset path; default the bundled
    default, files.default_ruleset); `turns` overrides the ruleset's turn limit."""
    ruleset = ruleset or files.default_ruleset()
    return pyspiel.load_game(NAME, {"ruleset": str(ruleset), "seeds": seeds, "turns": turns})


pyspiel.register_game(_TYPE, TcgGame)
