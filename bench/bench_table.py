"""The playtest table on UCB: what one click costs, from the browser's message to the next view.

Run: python bench/bench_table.py [--matches 5] [--agent random] [--seed 0]

A click's round trip, measured three ways over the same matches (human vs --agent, the human
picking option i*7 mod n at its i-th decision):
  engine  the engine alone answering the same decisions (apply, then the agent's moves until
          the human decides): the baseline, measured in this run
  table   the same through the session: the records narrated for both seats and the seat's
          view (observation -> page JSON) built
  socket  through the running server (uvicorn on 127.0.0.1) over the websocket, as the page
          does it: send {"option": i}, wait for the view
Prints the median, 90th percentile and worst, and each path's median as a ratio of the engine's.
The target: a click answers in < 100 ms (the socket median).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import uvicorn  # noqa: E402
import websockets  # noqa: E402

from interpreter.agents import make_agent  # noqa: E402
from interpreter.agents.protocol import decide  # noqa: E402
from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup, resolve_decks  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.session import Table  # noqa: E402

RULESET = "ucb"


def pick(n: int, i: int) -> int:
    return (i * 7) % n


def engine_clicks(game, seed: int, agent: str) -> list[float]:
    decks = [d.sections for d in resolve_decks(game, RULESET, [])]
    g = game.new_state(decks, seed)
    ai = make_agent(agent, seed * 1000 + 1)
    out, i = [], 0

    def run_ai() -> None:
        while g.result is None and g.decision.player == 1:
            g.apply(decide(ai, g, 1)[0])

    run_ai()
    while g.result is None:
        t = time.perf_counter()
        g.apply(pick(len(g.decision.options), i))
        run_ai()
        out.append(time.perf_counter() - t)
        i += 1
    return out


def table_clicks(game, seed: int, agent: str) -> list[float]:
    table = Table.new(game, MatchSetup(RULESET, [], seed, ["human", agent]))
    out, i = [], 0
    while table.g.result is None:
        t = time.perf_counter()
        table.choose(0, pick(len(table.g.decision.options), i))
        json.dumps(table.view(0), ensure_ascii=False)
        out.append(time.perf_counter() - t)
        i += 1
    return out


def socket_clicks(game, seed: int, agent: str) -> list[float]:
    table = Table.new(game, MatchSetup(RULESET, [], seed, ["human", agent]))
    token = next(iter(table.tokens))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(Server([table]).app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)

    async def play() -> list[float]:
        out = []
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws?seat={token}",
                                      max_size=None) as ws:
            view = json.loads(await ws.recv())
            i = 0
            while view["result"] is None:
                n = len(view["question"]["options"])
                t = time.perf_counter()
                await ws.send(json.dumps({"option": pick(n, i)}))
                view = json.loads(await ws.recv())
                out.append(time.perf_counter() - t)
                i += 1
        return out

    try:
        return asyncio.run(play())
    finally:
        server.should_exit = True
        thread.join(10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=5)
    p.add_argument("--agent", default="random")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    game = load_game(RULESET)
    results: dict[str, list[float]] = {"engine": [], "table": [], "socket": []}
    for m in range(args.matches):
        seed = args.seed + m
        results["engine"] += engine_clicks(game, seed, args.agent)
        results["table"] += table_clicks(game, seed, args.agent)
        results["socket"] += socket_clicks(game, seed, args.agent)
    base = statistics.median(results["engine"])
    print(f"UCB, human vs {args.agent}, {args.matches} matches, "
          f"{len(results['socket'])} clicks per path")
    print(f"{'path':<8}{'median ms':>11}{'p90 ms':>9}{'worst ms':>10}{'x engine':>10}")
    for path, times in results.items():
        ms = sorted(t * 1000 for t in times)
        p90 = ms[int(len(ms) * 0.9)]
        print(f"{path:<8}{statistics.median(ms):>11.2f}{p90:>9.2f}{ms[-1]:>10.2f}"
              f"{statistics.median(times) / base:>10.1f}")
    verdict = "meets" if statistics.median(results["socket"]) < 0.1 else "MISSES"
    print(f"target: a click answers in < 100 ms: {verdict} it")


if __name__ == "__main__":
    main()
