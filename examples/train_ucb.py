"""Train a small policy for UCB with interpreter.rl and measure it against the random agent.

Run: python examples/train_ucb.py [--games 1500] [--eval-games 400] [--seed 0]
(needs the rl extra: pip install -e '.[rl]')

The policy is tabular: a preference per (phase, action id), softmax over the legal ids (the
observation's action mask). It reads the phase from the observation's one-hot and learns by
REINFORCE with a running baseline, from the match's end reward (+1 / -1 / 0), playing both
seats in turn against the random agent (`gym_env(..., opponent="random")`). Evaluation plays
the greedy version (the best legal id) on seeds training never saw, seats alternating, and
prints the win rate with a 95% Wilson interval, the games and the time.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from interpreter import rl

EVAL_SEEDS = 1_000_000  # evaluation seeds start here: training plays seeds from 0


class TabularPolicy:
    """Preferences per (phase, action id): the phase is the observation's phase one-hot."""

    def __init__(self, layout, rng: np.random.Generator) -> None:
        self.phase_at, self.phases = layout.phase_at, len(layout.phases) + 1
        self.prefs = np.zeros((self.phases, layout.n_actions))
        self.rng = rng

    def phase(self, obs: np.ndarray) -> int:
        onehot = obs[self.phase_at:self.phase_at + self.phases - 1]
        return int(onehot.argmax()) if onehot.any() else self.phases - 1

    def probabilities(self, obs: dict) -> tuple[int, np.ndarray, np.ndarray]:
        phase, legal = self.phase(obs["observation"]), np.flatnonzero(obs["action_mask"])
        logits = self.prefs[phase, legal]
        p = np.exp(logits - logits.max())
        return phase, legal, p / p.sum()

    def sample(self, obs: dict) -> tuple[int, tuple]:
        phase, legal, p = self.probabilities(obs)
        k = self.rng.choice(len(legal), p=p)
        return int(legal[k]), (phase, legal, p, k)

    def best(self, obs: dict) -> int:
        phase, legal, _p = self.probabilities(obs)
        return int(legal[self.prefs[phase, legal].argmax()])

    def learn(self, steps: list[tuple], advantage: float, rate: float) -> None:
        """REINFORCE: the log-probability's gradient of each choice, times the advantage."""
        for phase, legal, p, k in steps:
            grad = -p
            grad[k] += 1
            self.prefs[phase, legal] += rate * advantage * grad


def episode(env, policy: TabularPolicy, seed: int, greedy: bool = False) -> tuple[float, list]:
    obs, _info = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        if greedy:
            action = policy.best(obs)
        else:
            action, step = policy.sample(obs)
            steps.append(step)
        obs, reward, done, _truncated, _info = env.step(action)
        total += reward
    return total, steps


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1500, help="training matches")
    parser.add_argument("--eval-games", type=int, default=400)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    envs = [rl.gym_env("ucb", opponent="random", seat=seat) for seat in (0, 1)]
    policy = TabularPolicy(envs[0].table.layout, np.random.default_rng(args.seed))
    start, baseline, recent = time.process_time(), 0.0, []
    for game in range(args.games):
        total, steps = episode(envs[game % 2], policy, args.seed * args.games + game)
        policy.learn(steps, total - baseline, args.rate)
        baseline += 0.02 * (total - baseline)
        recent = [*recent[-199:], total > 0]
        if (game + 1) % 250 == 0:
            print(f"  {game + 1} games: won {sum(recent) / len(recent):.0%} of the last {len(recent)}")
    trained = time.process_time() - start
    wins = draws = 0
    start = time.process_time()
    for game in range(args.eval_games):
        total, _steps = episode(envs[game % 2], policy, EVAL_SEEDS + game, greedy=True)
        wins += total > 0
        draws += total == 0
    evaluated = time.process_time() - start
    low, high = wilson(wins, args.eval_games)
    print(f"trained on {args.games} games in {trained:.0f} CPU-s; against random, seats "
          f"alternating, {args.eval_games} new games ({evaluated:.0f} CPU-s): won {wins}, "
          f"drew {draws}, lost {args.eval_games - wins - draws}")
    print(f"result: win rate {wins / args.eval_games:.1%} (95% CI {low:.1%}-{high:.1%})")


if __name__ == "__main__":
    main()
