"""The public API's cost against the engine's own loop, on UCB with the bundled decks.

Run: python bench/bench_api.py [--matches N] [--chunks C] [--ruleset ID]

- engine: the loop bench/bench_ucb.py times, `vm.answer(g, rng.choice(g.decision.options))`;
- api: what a user writes, `state.apply(rng.choice(state.legal_actions()))` until
  `state.is_over`, on a state from `game.new_state(decks, seed)` (no log, the default);
- api, logged: the same with `new_state(..., log=True)`, every event kept;
- with --envs, the environments of interpreter.rl (the rl extra): steps/s of random legal
  ids through the PettingZoo AEC env (both seats) and the Gymnasium env (seat 0 against the
  random agent; a step there includes the opponent's moves up to the learner's next
  decision), each observation and mask built.

The three play the same matches (the same seeds, the same random choices). They run in chunks
that alternate between them, a moment apart; each ratio is the median of the chunks' ratios
(this machine's speed drifts by +-20-30% between minutes). Times are CPU seconds of this
process. The issue's target: the api within 1.25x of the engine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_ucb import pin_one_core, policy  # noqa: E402

import interpreter  # noqa: E402
from interpreter.engine import vm  # noqa: E402

TARGET = 1.25


def engine_loop(game, decks: list[dict], seed: int) -> int:
    g = game.new_state(decks, seed, log=False)
    rng = policy(seed)
    while g.result is None:
        vm.answer(g, rng.choice(g.decision.options))
    return g.decisions


def api_loop(game, decks: list[dict], seed: int, log: bool = False) -> int:
    state = game.new_state(decks, seed, log=log)
    rng = policy(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state.decisions


def timed(play: Callable[[int], int], seeds: range) -> tuple[float, int]:
    """CPU seconds and decisions of the matches with these seeds."""
    start, decisions = time.process_time(), 0
    for seed in seeds:
        decisions += play(seed)
    return time.process_time() - start, decisions


def env_steps(ruleset: str, matches: int) -> None:
    """Steps/s of the environments, random legal ids, seeds 0..matches-1."""
    import numpy as np

    from interpreter import rl

    aec, steps = rl.aec_env(ruleset), 0
    start = time.process_time()
    for seed in range(matches):
        aec.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in aec.agent_iter():
            obs, _reward, done, truncated, _info = aec.last()
            aec.step(None if done or truncated else rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
    aec_rate = steps / (time.process_time() - start)
    env, steps = rl.gym_env(ruleset), 0
    start = time.process_time()
    for seed in range(matches):
        obs, _info = env.reset(seed=seed)
        rng, done = np.random.default_rng(seed), False
        while not done:
            obs, _reward, done, _truncated, _info = env.step(
                rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
    gym_rate = steps / (time.process_time() - start)
    print(f"  environments ({matches} matches): PettingZoo AEC {aec_rate:,.0f} steps/s, "
          f"Gymnasium against random {gym_rate:,.0f} steps/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=600)
    parser.add_argument("--chunks", type=int, default=10)
    parser.add_argument("--ruleset", default="ucb")
    parser.add_argument("--envs", type=int, default=0, metavar="MATCHES",
                        help="also time the rl environments over this many matches")
    args = parser.parse_args()
    pin_one_core()
    game = interpreter.load_game(args.ruleset)
    decks = interpreter.default_decks(game)
    loops = {"engine": lambda s: engine_loop(game, decks, s),
             "api": lambda s: api_loop(game, decks, s),
             "api, logged": lambda s: api_loop(game, decks, s, log=True)}
    for play in loops.values():
        play(10**6)  # warm up: compiled code, caches
    size = max(1, args.matches // args.chunks)
    seconds = {name: [] for name in loops}
    decisions = dict.fromkeys(loops, 0)
    for chunk in range(args.chunks):
        seeds = range(chunk * size, (chunk + 1) * size)
        for name, play in loops.items():
            t, d = timed(play, seeds)
            seconds[name].append(t)
            decisions[name] += d
    assert len(set(decisions.values())) == 1, f"the loops played different matches: {decisions}"
    engine = seconds["engine"]
    print(f"{args.ruleset}: {size * args.chunks} matches, {decisions['engine']} decisions each way")
    for name in loops:
        total = sum(seconds[name])
        ratio = statistics.median(t / e for t, e in zip(seconds[name], engine, strict=True))
        print(f"  {name:12} {decisions[name] / total:10,.0f} decisions/s  {ratio:5.2f}x the engine")
    ratio = statistics.median(t / e for t, e in zip(seconds["api"], engine, strict=True))
    if args.envs:
        env_steps(args.ruleset, args.envs)
    verdict = "within" if ratio <= TARGET else "ABOVE"
    print(f"result: the api costs {ratio:.2f}x the engine's own loop ({verdict} the {TARGET}x target)")


if __name__ == "__main__":
    main()
