"""The table's web app: a few routes and one websocket over the sessions.

A seat is a URL with an unguessable token; every page it gets is built from its own
observation. Replay routes read a log the user opened (everything in it is theirs to see); the
results page reads a simulation's output folder (see results.py). Those need the viewer's
token (`key`), printed with the viewer's URL. Every request must come to a name the server is
served under from a page of its own (guard.py); the threat model is in docs/TABLE.md.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.diagnostics import TcgError
from interpreter.load import confine, json_text
from interpreter.run.logs import check_agent
from interpreter.table.guard import LOOPBACK, OriginCheck
from interpreter.table.replay import Replay
from interpreter.table.results import Results
from interpreter.table.scenarios import export
from interpreter.table.session import Table, TableError

STATIC = Path(__file__).parent / "static"
MAX_UPLOAD = 50_000_000  # bytes of an uploaded log
MAX_MESSAGE = 100_000  # bytes of a JSON request or websocket message
# Bodies a page on another site can send without asking first (CORS "simple" requests) have
# one of these types, or none: a POST must name its own type (application/json, or
# application/x-ndjson for a log).
JSON, NDJSON = "application/json", "application/x-ndjson"


class TooLarge(TableError):
    """A request body past its limit: answered with HTTP 413."""


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
                if old.g.result is None and len(old.tokens) > 1:  # (a seat acts for itself)
                    raise TableError("the match goes on: a new game can start once it is "
                                     "over (or a seat concedes)")
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
    """The table's routes. `hosts`: the names it is served under (guard.served_names); `key`
    the viewer's token, which the replay and results routes need."""

    def __init__(self, tables: Sequence[Table] = (), replay: Replay | None = None,
                 make_replay: Callable[..., Replay] = Replay,
                 results: Results | None = None, hosts: Sequence[str] = LOOPBACK) -> None:
        self.rooms: dict[str, Room] = {}
        for t in tables:
            self.add(t)
        self.replay, self.make_replay, self.results = replay, make_replay, results
        self.key = secrets.token_urlsafe(16)
        # uploads are written here and nowhere else, whatever a request names
        self.folder = tempfile.TemporaryDirectory(prefix="tcg-serve-")
        self.uploads = 0
        middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=list(hosts)),
                      Middleware(OriginCheck, hosts=hosts)]
        self.app = Starlette(middleware=middleware, routes=[
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
                               ValueError: _refused, TooLarge: _too_large})

    def add(self, table: Table) -> list[str]:
        room = Room(table)
        for token in table.tokens:
            self.rooms[token] = room
        return list(table.tokens)

    def room(self, token: str | None) -> Room:
        if token not in self.rooms:
            raise PermissionError("unknown seat: open the URL `tcg serve` printed")
        return self.rooms[token]

    def viewer(self, request: Request) -> None:
        """The replay and results routes: only for the viewer's URL."""
        if not secrets.compare_digest(request.query_params.get("key", ""), self.key):
            raise PermissionError("no viewer's key: open the viewer's URL `tcg serve` printed")

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def get_view(self, request: Request) -> Response:
        token = request.query_params.get("seat", "")
        return JSONResponse(await self.room(token).current(token))

    async def post_act(self, request: Request) -> Response:
        token = request.query_params.get("seat", "")
        room = self.room(token)
        return JSONResponse(await room.act(token, await _json(request)))

    async def get_log(self, request: Request) -> Response:
        """The match's JSON Lines log, once it is over (before, it would show hidden cards)."""
        token = request.query_params.get("seat", "")
        table = self.room(token).table
        text = table.log_text()
        return Response(text, media_type="application/x-ndjson; charset=utf-8",
                        headers=attachment(f"table-seed{table.seed}.jsonl"))

    async def socket(self, ws: WebSocket) -> None:
        token = ws.query_params.get("seat", "")
        if token not in self.rooms:  # (accepted first: the page is told why, code 4403)
            await ws.accept()
            await ws.close(code=4403, reason="unknown seat")
            return
        room = self.rooms[token]
        await ws.accept()
        room.sockets.add((ws, token))
        try:
            await ws.send_json(await room.current(token))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    if message.get("text") is None:
                        raise TableError("send JSON as text frames, not binary ones")
                    await room.act(token, _message(message["text"]))
                except (TcgError, ValueError) as e:
                    await ws.send_json({"error": str(e)})
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets.discard((ws, token))

    # ---------- the replay viewer ----------
    def _replay(self) -> Replay:
        if self.replay is None:
            raise TableError("no log is open: start with `tcg serve --replay LOG` or upload one")
        return self.replay

    async def get_replay(self, request: Request) -> Response:
        self.viewer(request)
        replay, q = self._replay(), request.query_params
        step = replay.step_of_turn(_int(q["turn"])) if "turn" in q else _int(q.get("step", "0"))
        seen = q.get("view", "all")
        viewer = None if seen == "all" else _player(seen)
        return JSONResponse(await run_in_threadpool(replay.view, min(step, replay.steps), viewer))

    async def post_replay(self, request: Request) -> Response:
        """An uploaded log, written to the server's own folder under a name of the server's
        (the `name` a request gives is only shown); its files are looked for in the game the
        server was started in."""
        self.viewer(request)
        _content_type(request, NDJSON)
        self.uploads += 1
        path = Path(self.folder.name) / f"upload-{self.uploads}.jsonl"
        try:
            with open(path, "wb") as out:
                await _stream(request, MAX_UPLOAD, out.write)
            name = shown_name(request.query_params.get("name") or "uploaded.jsonl")
            home = confine.project_folder(Path.cwd()) or confine.BUNDLED
            self.replay = await run_in_threadpool(self.make_replay, path, name, home)
        finally:
            path.unlink(missing_ok=True)
        return JSONResponse({"steps": self.replay.steps})

    async def post_fork(self, request: Request) -> Response:
        self.viewer(request)
        replay, message = self._replay(), await _json(request)
        agent = check_agent(str(message.get("agent", "default")), "the fork")
        table = await run_in_threadpool(replay.fork, _int(message.get("step", 0)),
                                        _player(message.get("seat", "P1")), agent)
        return JSONResponse({"url": f"/?seat={self.add(table)[0]}"})

    async def get_export(self, request: Request) -> Response:
        self.viewer(request)
        replay = self._replay()
        step = _int(request.query_params.get("step", "0"))
        g = await run_in_threadpool(replay.state_at, step)
        stem = Path(replay.name).stem
        text = await run_in_threadpool(export, replay.game, g, replay.setup.ruleset,
                                       replay.setup.seed, f"{stem} at step {step}")
        return Response(text, media_type="application/yaml; charset=utf-8",
                        headers=attachment(f"{stem}-step{step}.yaml"))


    # ---------- a simulation's results ----------
    def _results(self) -> Results:
        if self.results is None:
            raise TableError("no results folder: start with `tcg serve --results DIR`")
        return self.results

    async def results_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "results.html")

    async def get_results(self, request: Request) -> Response:
        self.viewer(request)
        return JSONResponse(await run_in_threadpool(self._results().index))

    async def results_file(self, request: Request) -> Response:
        self.viewer(request)
        path = self._results().file(request.path_params["name"])
        if path is None:
            return JSONResponse({"error": "not a file of the results folder"}, status_code=404)
        return FileResponse(path)


async def _json(request: Request) -> dict[str, Any]:
    """A request's JSON object: its type said, its size and nesting bounded."""
    _content_type(request, JSON)
    chunks: list[bytes] = []
    await _stream(request, MAX_MESSAGE, chunks.append)
    return _message(b"".join(chunks) or b"{}")


def _message(body: str | bytes) -> dict[str, Any]:
    """A message (a websocket frame's text, or a request's body): a JSON object, else
    TableError saying what is wrong."""
    if len(body) > MAX_MESSAGE:
        raise TableError(f"the message is larger than {MAX_MESSAGE:,} bytes")
    if not body.strip():
        raise TableError("the message is empty: send a JSON object such as {\"option\": 0}")
    try:
        value = json_text.parse(body)
    except json_text.JsonError as e:
        raise TableError(f"the message is {e}") from None
    if not isinstance(value, dict):
        raise TableError("the message must be a JSON object such as {\"option\": 0}")
    return value


def _content_type(request: Request, wanted: str) -> None:
    """Refuse a body of another type: the types a page on another site may send without the
    browser asking the server first (text/plain, forms, none) are all others."""
    given = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if given != wanted:
        raise TableError(f"send the body as {wanted} (Content-Type), not {given or 'untyped'}")


async def _stream(request: Request, limit: int, write: Callable[[bytes], Any]) -> None:
    """Hand the body on chunk by chunk, refusing it as soon as it passes `limit` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise TooLarge(f"the body is larger than {limit:,} bytes")
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"the body is larger than {limit:,} bytes")
        write(chunk)


_UNSAFE = re.compile(r"[^\w.+-]+")


def shown_name(name: str) -> str:
    """A name a request gave, fit to show and to download as: letters, digits and `._+-`
    only (no path, no quote, no line break), at most 100 characters."""
    name = _UNSAFE.sub("_", name.replace("\\", "/").rpartition("/")[2]).strip("._")[:100]
    return name or "uploaded.jsonl"


def attachment(filename: str) -> dict[str, str]:
    """A Content-Disposition header that downloads as `filename`: an ASCII fallback and the
    UTF-8 name percent-encoded (RFC 6266), so nothing in it can end the header."""
    fallback = re.sub(r"[^A-Za-z0-9._+-]+", "_", filename) or "download"
    return {"Content-Disposition":
            f"attachment; filename=\"{fallback}\"; filename*=UTF-8''{quote(filename, safe='')}"}


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


async def _too_large(request: Request, e: Exception) -> Response:
    return JSONResponse({"error": str(e)}, status_code=413)
