"""Who may talk to the table: the names it is served under (Host) and the pages it serves
(Origin), on every HTTP request and websocket (docs/TABLE.md, "Threat model").

A web page on another site may send requests to 127.0.0.1 from its visitor's browser, and a
DNS-rebinding name (`evil.example` answering 127.0.0.1) makes them look same-origin: the Host
check refuses names the server was not started under (Starlette's TrustedHostMiddleware);
the Origin check refuses requests and websockets opened by pages of any other origin.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")  # (Host writes an IPv6 one in brackets)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).is_loopback
    except ValueError:
        return False


def served_names(host: str) -> list[str]:
    """The names a browser may reach a server bound to `host` by: loopback ones always; the
    host itself; for every interface (0.0.0.0, ::, ''), the machine's name and addresses."""
    names = [*LOOPBACK]
    if host in ("0.0.0.0", "::", ""):
        hostname = socket.gethostname()
        names += [_outward_address() or hostname, hostname]
        with contextlib.suppress(OSError):  # (a name that does not resolve: loopback works)
            names += [str(info[4][0]) for info in socket.getaddrinfo(hostname, None)]
    elif host:
        names.append(host)
    names += [f"[{n}]" for n in names if ":" in n and not n.startswith("[")]
    return list(dict.fromkeys(n.lower() for n in names))


def _outward_address() -> str | None:
    """The address of the interface others reach this machine by (a UDP socket's 'connect'
    sends nothing; 192.0.2.1 is a documentation address)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        return str(s.getsockname()[0])
    return None


class OriginCheck:
    """Refuse an HTTP request or websocket whose Origin header names another origin than the
    Host it was sent to (browsers send Origin on every cross-origin request and websocket;
    scripts and command-line clients send none)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app, self.hosts = app, {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            secure = scope.get("scheme") in ("https", "wss")
            if origin is not None and not self.same_origin(origin, headers.get("host", ""),
                                                           "https" if secure else "http"):
                response = PlainTextResponse(f"refused: a page of {origin[:100]} may not use "
                                             "this table", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def same_origin(self, origin: str, host: str, scheme: str) -> bool:
        try:
            o = urlsplit(origin)
            return o.scheme == scheme and o.hostname in self.hosts \
                and o.netloc.lower() == host.lower()
        except ValueError:  # (a port that is not a number)
            return False
