"""A TestClient for the table as a browser on the server's own page reaches it: at a name it
is served under (127.0.0.1), with the viewer's key on every request."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from interpreter.table.app import Server

BASE = "http://127.0.0.1:8000"


class KeyedClient(TestClient):
    """Adds `key=` to every URL (httpx's own `params` would replace the URL's query); opens
    websockets at BASE too."""

    key = ""

    def request(self, method: str, url: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        url = str(url)
        if self.key:
            url += f"{'&' if '?' in url else '?'}key={self.key}"
        return super().request(method, url, **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        # (Starlette's would send Host: testserver, a name the table is not served under)
        return super().websocket_connect(BASE.replace("http", "ws", 1) + url, *args, **kwargs)


def client_of(server: Server, key: bool = True) -> TestClient:
    client = KeyedClient(server.app, base_url=BASE)
    client.key = server.key if key else ""
    return client
