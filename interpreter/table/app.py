"""The table's web app: a few routes and one websocket over the sessions.

A seat is a URL with an unguessable token; every page it gets is built from its own
observation. Replay routes read a log the user opened (everything in it is theirs to see); the
results page reads a simulation's output folder (see results.py).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.diagnostics import TcgError
from interpreter.table.replay import Replay
from interpreter.table.results import Results
from interpreter.table.scenarios import export
from interpreter.table.session import Table, TableError

STATIC = Path(__file__).parent / "static"
MAX_UPLOAD = 50_000_000  # bytes of an uploaded log


class Room:
    """A table and the websockets watching it; one decision is handled at a time."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.sockets: set[tuple[WebSocket, str]] = set()
        self.lock = asyncio.Lock()

    async def act(self, token: str, message: dict) -> dict:
        """Carry out a seat's message, send every watching seat its view; the sender's view."""
        async with self.lock:  # (the engine runs in a thread: no view is read meanwhile)
            player = self.table.seat(token)
            if message.get("new"):
                old = self.table
                if old.restart is None:
                    raise TableError("this table cannot start a new game")
                self.table = await run_in_threadpool(old.restart)
                self.table.tokens = old.tokens
                self.table.stops = old.stops  # (the humans' settings go on: asked as before)
                await run_in_threadpool(self.table.advance)
            elif message.get("concede"):
                self.table.concede(player)
            elif "option" in message:
                await run_in_threadpool(self.table.choose, player, message["option"])
            elif "stop" in message:
                await run_in_threadpool(self.table.set_stops, player, message["stop"])
            else:
                raise TableError("send {option: N}, {stop: WHEN}, {concede: true} or {new: true}")
            await self._broadcast()
            return self.view(token)

    async def current(self, token: str) -> dict:
        async with self.lock:
            return self.view(token)

    def view(self, token: str) -> dict:
        view = self.table.view(self.table.seat(token))
        view["hotseat"] = self.table.tokens[token] is None
        return view

    async def _broadcast(self) -> None:
        for ws, token in list(self.sockets):
            try:
                await ws.send_json(self.view(token))
            except (RuntimeError, WebSocketDisconnect):
                self.sockets.discard((ws, token))


class Server:
    def __init__(self, tables: list[Table] = (), replay: Replay | None = None,
                 make_replay: Callable[[str], Replay] = Replay,
                 results: Results | None = None) -> None:
        self.rooms: dict[str, Room] = {}
        for t in tables:
            self.add(t)
        self.replay, self.make_replay, self.results = replay, make_replay, results
        self.app = Starlette(routes=[
            Route("/", self.index),
            Route("/api/view", self.get_view),
            Route("/api/act", self.post_act, methods=["POST"]),
            Route("/api/log", self.get_log),
            Route("/api/replay", self.get_replay),
            Route("/api/replay", self.post_replay, methods=["POST"]),
            Route("/api/fork", self.post_fork, methods=["POST"]),
            Route("/api/export", self.get_export),
            Route("/results", self.results_page),
            Route("/results/{name}", self.results_file),
            Route("/api/results", self.get_results),
            WebSocketRoute("/ws", self.socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ], exception_handlers={TcgError: _refused, PermissionError: _forbidden,
                               ValueError: _refused})

    def add(self, table: Table) -> list[str]:
        room = Room(table)
        for token in table.tokens:
            self.rooms[token] = room
        return list(table.tokens)

    def room(self, token: str | None) -> Room:
        if token not in self.rooms:
            raise PermissionError("unknown seat: open the URL `tcg serve` printed")
        return self.rooms[token]

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def get_view(self, request: Request) -> Response:
        token = request.query_params.get("seat")
        return JSONResponse(await self.room(token).current(token))

    async def post_act(self, request: Request) -> Response:
        token = request.query_params.get("seat")
        message = await _json(request)
        return JSONResponse(await self.room(token).act(token, message))

    async def get_log(self, request: Request) -> Response:
        """The match's JSON Lines log, once it is over (before, it would show hidden cards)."""
        token = request.query_params.get("seat")
        table = self.room(token).table
        text = table.log_text()
        filename = f"table-seed{table.seed}.jsonl"
        return Response(text, media_type="application/x-ndjson; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def socket(self, ws: WebSocket) -> None:
        token = ws.query_params.get("seat")
        if token not in self.rooms:
            await ws.close(code=4403)
            return
        room = self.rooms[token]
        await ws.accept()
        room.sockets.add((ws, token))
        try:
            await ws.send_json(await room.current(token))
            while True:
                message = await ws.receive_json()
                try:
                    await self.rooms[token].act(token, message if isinstance(message, dict) else {})
                except (TcgError, ValueError) as e:
                    await ws.send_json({"error": str(e)})
        except (WebSocketDisconnect, json.JSONDecodeError):
            pass
        finally:
            room.sockets.discard((ws, token))

    # ---------- the replay viewer ----------
    def _replay(self) -> Replay:
        if self.replay is None:
            raise TableError("no log is open: start with `tcg serve --replay LOG` or upload one")
        return self.replay

    async def get_replay(self, request: Request) -> Response:
        replay, q = self._replay(), request.query_params
        step = replay.step_of_turn(_int(q["turn"])) if "turn" in q else _int(q.get("step", "0"))
        seen = q.get("view", "all")
        viewer = None if seen == "all" else _player(seen)
        return JSONResponse(await run_in_threadpool(replay.view, min(step, replay.steps), viewer))

    async def post_replay(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_UPLOAD:
            raise TableError(f"the log is larger than {MAX_UPLOAD // 1_000_000} MB")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / (request.query_params.get("name") or "uploaded.jsonl")
            path.write_bytes(body)
            self.replay = await run_in_threadpool(self.make_replay, str(path))
        return JSONResponse({"steps": self.replay.steps})

    async def post_fork(self, request: Request) -> Response:
        replay, message = self._replay(), await _json(request)
        table = await run_in_threadpool(replay.fork, _int(message.get("step", 0)),
                                        _player(message.get("seat", "P1")),
                                        str(message.get("agent", "default")))
        return JSONResponse({"url": f"/?seat={self.add(table)[0]}"})

    async def get_export(self, request: Request) -> Response:
        replay = self._replay()
        step = _int(request.query_params.get("step", "0"))
        g = await run_in_threadpool(replay.state_at, step)
        name = f"{Path(replay.source).stem} at step {step}"
        text = await run_in_threadpool(export, replay.game, g, replay.setup.ruleset,
                                       replay.setup.seed, name)
        filename = f"{Path(replay.source).stem}-step{step}.yaml"
        return Response(text, media_type="application/yaml; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{filename}"'})


    # ---------- a simulation's results ----------
    def _results(self) -> Results:
        if self.results is None:
            raise TableError("no results folder: start with `tcg serve --results DIR`")
        return self.results

    async def results_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "results.html")

    async def get_results(self, request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(self._results().index))

    async def results_file(self, request: Request) -> Response:
        path = self._results().file(request.path_params["name"])
        if path is None:
            return JSONResponse({"error": "not a file of the results folder"}, status_code=404)
        return FileResponse(path)


async def _json(request: Request) -> dict[str, Any]:
    try:
        data = json.loads(await request.body() or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TableError(f"the request is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise TableError("the request must be a JSON object")
    return data


def _int(text: Any) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise TableError(f"expected a whole number, got {text!r}") from None


def _player(text: Any) -> int:
    text = str(text)
    if not (text.startswith("P") and text[1:].isdigit() and 1 <= int(text[1:]) <= 8):
        raise TableError(f"expected a seat like P1 or P2, got {text!r}")
    return int(text[1:]) - 1


async def _refused(request: Request, e: Exception) -> Response:
    return JSONResponse({"error": str(e)}, status_code=400)


async def _forbidden(request: Request, e: Exception) -> Response:
    return JSONResponse({"error": str(e)}, status_code=403)
