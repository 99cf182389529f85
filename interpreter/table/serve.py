"""`tcg serve`'s options as a server: a match, a puzzle, a replay or a simulation's results."""

from __future__ import annotations

import argparse
import socket

import uvicorn

from interpreter.diagnostics import TcgError
from interpreter.load import files
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup
from interpreter.table.app import Server
from interpreter.table.replay import Replay
from interpreter.table.results import Results
from interpreter.table.scenarios import puzzle
from interpreter.table.session import Table


def prepare(args: argparse.Namespace) -> tuple[Server, list[tuple[str, str]]]:
    """The server and what to print: (who, path) for each URL."""
    agents = [a.strip() for a in args.agents.split(",")]
    if args.turns is not None and args.turns < 1:
        raise TcgError(f"--turns must be at least 1, got {args.turns}")
    results = Results(args.results) if getattr(args, "results", None) else None
    shown = [("results", "/results")] if results else []
    if args.replay:
        if args.scenario or args.ruleset:
            raise TcgError("--replay opens a log's own match: drop the ruleset and --scenario")
        return Server(replay=Replay(args.replay), results=results), [("replay", "/?replay")] + shown
    if results and not (args.scenario or args.ruleset or args.deck):
        return Server(results=results), shown  # the results alone: no match is started
    if args.scenario:
        table = puzzle(args.scenario, agents, args.hotseat)
    else:
        ruleset = args.ruleset or files.default_ruleset()
        game = load_game(ruleset)
        if len(agents) != game.ruleset.players:
            raise TcgError(f"--agents names {len(agents)} seats; {ruleset} has "
                           f"{game.ruleset.players} players")
        table = Table.new(game, MatchSetup(ruleset, args.deck, args.seed, agents, args.turns),
                          args.hotseat)
    server = Server([table], results=results)
    urls = [("both seats" if p is None else f"P{p + 1}", f"/?seat={token}")
            for token, p in table.tokens.items()]
    return server, urls + shown


def serve(args: argparse.Namespace) -> int:
    server, urls = prepare(args)
    try:  # (bound here: a port in use is an error in words, before any URL is printed)
        sock = socket.create_server((args.host, args.port))
    except OSError as e:
        raise TcgError(f"cannot listen on {args.host}:{args.port}: {e.strerror}; "
                       "choose another --port") from None
    port = sock.getsockname()[1]
    host = "127.0.0.1" if args.host in ("0.0.0.0", "") else args.host
    for who, path in urls:
        print(f"{who}: http://{host}:{port}{path}", flush=True)
    uvicorn.Server(uvicorn.Config(server.app, log_level="warning")).run(sockets=[sock])
    return 0
