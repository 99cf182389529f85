"""The server's end of the JSON-RPC connection: bodies from `framing` decoded, checked and
handed to pygls, and every request that cannot be handled answered with an error.

pygls turns a message whose params do not fit the method's types (a negative position, no
`uri`) into an exception inside its read loop, so such a request was never answered; here it
gets -32602 with lsprotocol's explanation, a body that is not JSON -32700 (and the stream is
resynchronised after it), anything else malformed -32600.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import threading
from typing import Any, Protocol

from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest, JsonRpcParseError
from pygls.protocol import JsonRPCProtocol

from interpreter.lsp.framing import MAX_BODY, Frame, Framer

CHUNK = 65_536
STALL = 0.5  # seconds without bytes before an incomplete body is looked at again
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")')
_METHOD = re.compile(rb'"method"\s*:\s*"([^"\\]{1,100})"')
_URI = re.compile(rb'"uri"\s*:\s*"((?:[^"\\]|\\.){1,4000})"')


class Peer(Protocol):
    """What the connection needs of the server."""

    @property
    def protocol(self) -> JsonRPCProtocol: ...

    def too_large(self, uri: str, size: int) -> None: ...


async def serve(server: Peer, fd: int, stop: threading.Event) -> None:
    """Read messages from `fd` until it ends (or `stop` is set) and handle each."""
    framer = Framer()
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=16)  # (bounded: the reader waits)

    def read() -> None:
        """(A daemon thread: a read waiting on the editor must not keep the process alive.)"""
        data = b"x"
        while data:
            try:
                data = os.read(fd, CHUNK)
            except OSError:
                data = b""
            try:
                asyncio.run_coroutine_threadsafe(chunks.put(data), loop).result()
            except RuntimeError:  # the loop has ended
                return

    threading.Thread(target=read, name="tcg-lsp-read", daemon=True).start()
    while not stop.is_set():
        frame = framer.next_frame()
        if frame is not None:
            deliver(server, framer, frame)
            continue
        try:
            data = await asyncio.wait_for(chunks.get(), STALL)
        except asyncio.TimeoutError:
            stalled = framer.stalled()
            if stalled is not None:
                deliver(server, framer, stalled)
            continue
        if not data:
            break
        framer.feed(data)


def deliver(server: Peer, framer: Framer, frame: Frame) -> None:
    if frame.too_large:
        _too_large(server, frame)
        return
    try:
        data = json.loads(frame.body)
    except (ValueError, UnicodeDecodeError):
        framer.reject(frame)  # probably a wrong Content-Length: find the next message
        _answer(server.protocol, None, JsonRpcParseError("the message is not JSON (or its "
                                                         "Content-Length is wrong)"))
        return
    except RecursionError:
        _answer(server.protocol, None, JsonRpcInvalidRequest("the message is nested too deep"))
        return
    if frame.cut:
        _answer(server.protocol, _request_id(data), JsonRpcInvalidRequest(
            f"the message's Content-Length ({frame.size:,}) is more than its {len(frame.body):,} bytes"))
        return
    handle(server.protocol, data)


def handle(protocol: JsonRPCProtocol, data: Any) -> None:
    """One decoded message: structured into lsprotocol's types and handled by pygls, or
    answered with the reason it cannot be."""
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        _answer(protocol, _request_id(data), JsonRpcInvalidRequest(
            "not a JSON-RPC 2.0 message (an object with \"jsonrpc\": \"2.0\")"))
        return
    msg_id = _request_id(data)
    if "id" in data and msg_id is None:
        _answer(protocol, None, JsonRpcInvalidRequest("a request's id is a number or a string"))
        return
    try:
        message = protocol.structure_message(data)
    except JsonRpcException as e:
        cause = e.__cause__
        if msg_id is not None and "method" in data:
            detail = f": {_explain(cause)}" if cause is not None else ""
            _answer(protocol, msg_id, type(e)(f"invalid params for {data['method']}{detail}"))
        return  # (a notification is never answered; pygls has logged it)
    except RecursionError:
        _answer(protocol, msg_id, JsonRpcInvalidRequest("the message is nested too deep"))
        return
    protocol.handle_message(message)


def _request_id(data: Any) -> int | str | None:
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _explain(error: BaseException) -> str:
    """cattrs' validation error in one line: the innermost messages."""
    leaves: list[str] = []

    def walk(e: BaseException) -> None:
        inner = getattr(e, "exceptions", None)
        if inner:
            for sub in inner:
                walk(sub)
        else:
            note = "; ".join(getattr(e, "__notes__", ()) or ())
            leaves.append(f"{note + ': ' if note else ''}{e}")

    walk(error)
    return "; ".join(leaves)[:500]


def _too_large(server: Peer, frame: Frame) -> None:
    """A body past MAX_BODY was skipped: a request is answered, an opened or changed
    document gets the TOO-LARGE diagnostic `tcg check` gives a file that size."""
    head = frame.body
    msg_id = _ID.search(head)
    method = _METHOD.search(head)
    uri = _URI.search(head)
    if method and method.group(1) in (b"textDocument/didOpen", b"textDocument/didChange") and uri:
        server.too_large(json.loads(b'"' + uri.group(1) + b'"'), frame.size)
    if msg_id is not None:
        _answer(server.protocol, json.loads(msg_id.group(1)), JsonRpcInvalidRequest(
            f"the message is {frame.size:,} bytes, more than the {MAX_BODY:,} accepted"))


def _answer(protocol: JsonRPCProtocol, msg_id: int | str | None, error: JsonRpcException) -> None:
    """An error response (written here: pygls' own leaves out an `id` of null, which
    JSON-RPC requires when the request's id could not be read)."""
    protocol._send_data({"jsonrpc": "2.0", "id": msg_id,
                         "error": {"code": error.code, "message": error.message}})
