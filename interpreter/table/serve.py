"""`tcg serve`'s options as a server: a match, a puzzle, a replay or a simulation's results."""

from __future__ import annotations

import argparse
import socket
import sys

import uvicorn

from interpreter.diagnostics import TcgError
from interpreter.load import files
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup
from interpreter.table.app import MAX_MESSAGE, Server
from interpreter.table.guard import is_loopback, served_names
from interpreter.table.replay import Replay
from interpreter.table.results import Results
from interpreter.table.scenarios import puzzle
from interpreter.table.session import Table


def prepare(args: argparse.Namespace,
            hosts: list[str] | None = None) -> tuple[Server, list[tuple[str, str]]]:
    """The server and what to print: (who, path) for each URL. `hosts`: the names it is
    served under (default: loopback ones)."""
    agents = [a.strip() for a in args.agents.split(",")]
    if args.turns is not None and args.turns < 1:
        raise TcgError(f"--turns must be at least 1, got {args.turns}")
    results = Results(args.results) if getattr(args, "results", None) else None
    names = served_names("127.0.0.1") if hosts is None else hosts
    if args.replay:
        if args.scenario or args.ruleset:
            raise TcgError("--replay opens a log's own match: drop the ruleset and --scenario")
        server = Server(replay=Replay(args.replay), results=results, hosts=names)
        return server, _viewer_urls(server)
    if results and not (args.scenario or args.ruleset or args.deck):
        server = Server(results=results, hosts=names)  # the results alone: no match
        return server, _viewer_urls(server)
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
    server = Server([table], results=results, hosts=names)
    urls = [("both seats" if p is None else f"P{p + 1}", f"/?seat={token}")
            for token, p in table.tokens.items()]
    return server, urls + _viewer_urls(server)


def _viewer_urls(server: Server) -> list[tuple[str, str]]:
    """The replay viewer (to open or upload a log) and the results page, with the viewer's key."""
    urls = [("replay viewer", f"/?replay&key={server.key}")]
    if server.results is not None:
        urls.append(("results", f"/results?key={server.key}"))
    return urls


def serve(args: argparse.Namespace) -> int:
    names = served_names(args.host)
    server, urls = prepare(args, names)
    try:  # (bound here: a port in use is an error in words, before any URL is printed)
        sock = socket.create_server((args.host, args.port))
    except OSError as e:
        raise TcgError(f"cannot listen on {args.host}:{args.port}: {e.strerror}; "
                       "choose another --port") from None
    port = sock.getsockname()[1]
    host = _shown_host(args.host, names)
    for who, path in urls:
        print(f"{who}: http://{host}:{port}{path}", flush=True)
    if not is_loopback(args.host):
        given = args.host or "''"
        print(f"warning: --host {given} serves the table to the network: anyone "
              "who can reach this machine and holds one of these URLs plays that seat or "
              "reads the replays; give each URL to its player only", file=sys.stderr,
              flush=True)
    config = uvicorn.Config(server.app, log_level="warning", ws_max_size=MAX_MESSAGE)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _shown_host(host: str, names: list[str]) -> str:
    """The host part of the URLs printed: the one given, or for every interface the first
    name others reach the machine by (an IPv6 address in brackets)."""
    if host in ("0.0.0.0", "::", ""):
        host = next((n for n in names if not is_loopback(n) and not n.startswith("[")),
                    "127.0.0.1")
    return f"[{host}]" if ":" in host else host
