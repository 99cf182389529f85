"""Hostile requests to the table and hostile logs (issue 39): the threat model of docs/TABLE.md,
class by class — tokens, Host and Origin, nothing written outside the server's folder, download
names, a seat acting for itself, `--host`; files a log or a scenario names, results folders'
links, questions naming hidden cards; body sizes, JSON depth, websocket frames and agent
budgets. The corpus is tests/hostile/table/."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

import httpx  # noqa: E402
from starlette.testclient import WebSocketDenialResponse  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from interpreter.diagnostics import DiagnosticError, TcgError  # noqa: E402
from interpreter.engine.state import visible  # noqa: E402
from interpreter.load import json_text  # noqa: E402
from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup, play  # noqa: E402
from interpreter.table.app import MAX_UPLOAD, Server  # noqa: E402
from interpreter.table.replay import Replay  # noqa: E402
from interpreter.table.results import Results  # noqa: E402
from interpreter.table.scenarios import puzzle  # noqa: E402
from interpreter.table.session import Table  # noqa: E402
from interpreter.words import speak  # noqa: E402
from tests.table_client import BASE, client_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "hostile" / "table"
NDJSON = {"Content-Type": "application/x-ndjson"}
DEEP = "[" * 100_000 + "]" * 100_000
PASSWD_LINE = "root:"  # (what /etc/passwd's first line begins with)


def tcg(*args: str, timeout: float = 120, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)


def a_table(agents=("human", "random"), seed: int = 1) -> tuple[Table, Server]:
    t = Table.new(load_game("ucb"), MatchSetup("ucb", [], seed, list(agents), 8))
    return t, Server([t])


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("log") / "m.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        play(MatchSetup("ucb", [], 2, ["random", "random"], 6), out)
    return path


@pytest.fixture()
def viewer(log) -> tuple[Server, object]:
    server = Server(replay=Replay(log))
    return server, client_of(server)


# ---------- tokens: every route that reads or changes a match ----------

def test_every_route_of_a_match_needs_the_seat_token():
    t, server = a_table()
    client = client_of(server, key=False)
    for method, url in (("GET", "/api/view"), ("POST", "/api/act"), ("GET", "/api/log"),
                        ("GET", "/api/view?seat=guess"), ("POST", "/api/act?seat=guess")):
        r = client.request(method, url, json={"option": 0})
        assert r.status_code == 403 and "unknown seat" in r.json()["error"], (method, url)
    for url in ("/ws", "/ws?seat=guess"):
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(url) as ws:
            ws.receive_json()
        assert closed.value.code == 4403


def test_every_replay_and_results_route_needs_the_viewer_key(log, tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "summary.json").write_text("{}", encoding="utf-8")
    server = Server(replay=Replay(log), results=Results(folder))
    for key in ("", "&key=guess"):
        client = client_of(server, key=False)
        for method, url, body in (
                ("GET", "/api/replay?step=0", None), ("GET", "/api/export?step=0", None),
                ("POST", "/api/fork", {"step": 1}), ("GET", "/api/results", None),
                ("GET", "/results/summary.json", None)):
            r = client.request(method, url + ("?" if "?" not in url else "") + key, json=body)
            assert r.status_code == 403 and "viewer" in r.json()["error"], (url, key)
        r = client.post("/api/replay?name=x.jsonl" + key, content=log.read_bytes(), headers=NDJSON)
        assert r.status_code == 403
    keyed = client_of(server)
    assert keyed.get("/api/replay?step=0").status_code == 200
    assert keyed.get("/results/summary.json").status_code == 200


# ---------- Host and Origin ----------

HOSTILE_HOSTS = ("evil.example", "evil.example:8000", "127.0.0.1.nip.io:8000", "", "localhost.evil")


@pytest.mark.parametrize("host", HOSTILE_HOSTS)
def test_a_name_the_server_is_not_served_under_is_refused(host, log):
    """DNS rebinding: a name of the attacker's answering 127.0.0.1 reaches the port, but its
    Host is not the server's: every request and websocket is refused."""
    t, server = a_table()
    server.replay = Replay(log)
    token = next(iter(t.tokens))
    client = client_of(server)
    headers = {"Host": host}
    for url in ("/", f"/api/view?seat={token}", "/api/replay?step=0", "/static/table.js"):
        assert client.get(url, headers=headers).status_code == 400, url
    r = client.post(f"/api/act?seat={token}", json={"concede": True}, headers=headers)
    assert r.status_code == 400 and t.g.result is None
    with pytest.raises(WebSocketDenialResponse) as refused, \
            client.websocket_connect(f"/ws?seat={token}", headers=headers):
        pass
    assert refused.value.status_code == 400


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_the_loopback_names_are_served(host):
    t, server = a_table()
    token = next(iter(t.tokens))
    r = client_of(server).get(f"/api/view?seat={token}", headers={"Host": host})
    assert r.status_code == 200 and r.json()["you"] == "P1"


HOSTILE_ORIGINS = ("http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1:8000",
                   "http://localhost:8000", "file://", "http://127.0.0.1:80a")


@pytest.mark.parametrize("origin", HOSTILE_ORIGINS)
def test_a_page_of_another_origin_cannot_drive_a_seat(origin):
    """A page elsewhere (another site, another port, a sandboxed frame) that learnt a seat's
    URL still cannot play it: browsers send Origin, and it is not the table's."""
    t, server = a_table()
    token = next(iter(t.tokens))
    client = client_of(server)
    headers = {"Origin": origin}
    r = client.post(f"/api/act?seat={token}", json={"concede": True}, headers=headers)
    assert r.status_code == 403 and t.g.result is None
    assert client.get(f"/api/view?seat={token}", headers=headers).status_code == 403
    with pytest.raises(WebSocketDenialResponse) as refused, \
            client.websocket_connect(f"/ws?seat={token}", headers=headers) as ws:
        ws.send_json({"concede": True})
    assert refused.value.status_code == 403
    assert t.g.result is None


def test_the_servers_own_page_may_use_it():
    t, server = a_table()
    token = next(iter(t.tokens))
    client = client_of(server)
    own = {"Origin": BASE}
    assert client.get(f"/api/view?seat={token}", headers=own).status_code == 200
    with client.websocket_connect(f"/ws?seat={token}", headers=own) as ws:
        assert ws.receive_json()["you"] == "P1"


# ---------- writes: nothing outside the server's folder ----------

@pytest.mark.parametrize("name", ["../../escaped.jsonl", "/tmp/tcg-owned.jsonl", "..", "a/../../b",
                                  "C:\\Windows\\x.jsonl", "x\r\nSet-Cookie: a=b.jsonl", "é" * 300])
def test_an_upload_writes_nothing_outside_the_servers_folder(name, log, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server = Server()
    client = client_of(server)
    target = Path("/tmp/tcg-owned.jsonl")
    target.unlink(missing_ok=True)
    r = client.post(f"/api/replay?{httpx.QueryParams({'name': name})}",
                    content=log.read_bytes(), headers=NDJSON)
    assert r.status_code == 200, r.text
    assert not target.exists() and list(tmp_path.iterdir()) == []
    assert list(Path(server.folder.name).iterdir()) == []  # (read, then removed)
    shown = client.get("/api/replay?step=0").json()["source"]
    assert re.fullmatch(r"[\w.+-]{1,100}", shown), shown
    export = client.get("/api/export?step=1")
    disposition = export.headers["content-disposition"]
    assert export.status_code == 200 and "\r" not in disposition and "\n" not in disposition
    assert "set-cookie" not in export.headers
    assert re.fullmatch(r'attachment; filename="[A-Za-z0-9._+-]+"; filename\*=UTF-8\'\'[\w%.+-]+',
                        disposition), disposition


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "text/plain; a=b"])
def test_a_post_a_page_can_send_without_asking_is_refused(content_type, log, viewer):
    """The types a page on another site may POST without a CORS preflight: none is accepted,
    so no such request does anything (the Origin check aside)."""
    server, client = viewer
    headers = {"Content-Type": content_type} if content_type else {}
    r = client.post("/api/replay?name=x.jsonl", content=log.read_bytes(), headers=headers)
    assert r.status_code == 400 and "Content-Type" in r.json()["error"]
    r = client.post("/api/fork", content=b'{"step": 1, "seat": "P1"}', headers=headers)
    assert r.status_code == 400 and len(server.rooms) == 0
    t, seat_server = a_table()
    r = client_of(seat_server).post(f"/api/act?seat={next(iter(t.tokens))}",
                                    content=b'{"concede": true}', headers=headers)
    assert r.status_code == 400 and t.g.result is None


def test_the_log_download_name_is_a_plain_file_name():
    t, server = a_table()
    token = next(iter(t.tokens))
    client = client_of(server)
    client.post(f"/api/act?seat={token}", json={"concede": True})
    r = client.get(f"/api/log?seat={token}")
    assert r.headers["content-disposition"].startswith('attachment; filename="table-seed1.jsonl"')


# ---------- a seat acts for itself ----------

def test_the_seat_not_deciding_cannot_wipe_the_match():
    t, server = a_table(("human", "human"))
    seats = {p: tok for tok, p in t.tokens.items()}
    client = client_of(server)
    waiting = 1 - t.g.decision.player
    before = t.g
    for message in ({"new": True}, {"new": 1}, {"option": 0}):
        r = client.post(f"/api/act?seat={seats[waiting]}", json=message)
        assert r.status_code == 400 and server.rooms[seats[waiting]].table.g is before, message
    deciding = 1 - waiting  # (nor may the deciding one, while the other plays on)
    assert client.post(f"/api/act?seat={seats[deciding]}", json={"new": True}).status_code == 400
    client.post(f"/api/act?seat={seats[waiting]}", json={"concede": True})  # a seat resigns itself
    assert t.g.result is not None and t.g.result.winner == deciding
    view = client.post(f"/api/act?seat={seats[waiting]}", json={"new": True}).json()
    assert view["result"] is None  # once over, either seat may start the next


def test_a_single_human_may_start_a_new_game_at_any_time():
    t, server = a_table()
    view = client_of(server).post(f"/api/act?seat={next(iter(t.tokens))}", json={"new": True}).json()
    assert view["result"] is None and view["question"]


# ---------- --host ----------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(*args: str, urls: int = 2) -> tuple[subprocess.Popen, list[str]]:
    """`tcg serve ARGS` and the first `urls` lines it prints."""
    p = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", *args], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [p.stdout.readline() for _ in range(urls)]
    return p, lines


def wait_for(url: str, **kwargs) -> httpx.Response:
    for _ in range(200):
        try:
            return httpx.get(url, timeout=5, **kwargs)
        except httpx.ConnectError:
            time.sleep(0.05)
    raise AssertionError(f"{url} never answered")


def test_serving_the_network_prints_its_real_urls_and_a_warning():
    port = free_port()
    p, lines = start("ucb", "--agents", "human,random", "--host", "0.0.0.0", "--port", str(port))
    try:
        seat, viewer_line = lines
        host = re.fullmatch(rf"P1: http://(.+):{port}/\?seat=[\w-]{{20,}}\n", seat)
        assert host and host[1] != "127.0.0.1", lines
        assert re.fullmatch(rf"replay viewer: http://.+:{port}/\?replay&key=[\w-]{{20,}}\n",
                            viewer_line)
        url = seat.split(": ", 1)[1].strip()
        local = re.sub(r"//.+?:", "//127.0.0.1:", url, count=1)
        assert wait_for(local.replace("/?", "/api/view?")).json()["you"] == "P1"
        assert httpx.get(local, headers={"Host": f"evil.example:{port}"}).status_code == 400
        assert httpx.get(f"http://127.0.0.1:{port}/api/view").status_code == 403  # no token
    finally:
        p.terminate()
        _, err = p.communicate(timeout=20)
    assert "warning: --host 0.0.0.0 serves the table to the network" in err, err


def test_loopback_prints_no_warning():
    port = free_port()
    p, lines = start("ucb", "--agents", "human,random", "--port", str(port))
    try:
        assert lines[0].startswith(f"P1: http://127.0.0.1:{port}/?seat=")
        wait_for(f"http://127.0.0.1:{port}/")
    finally:
        p.terminate()
        _, err = p.communicate(timeout=20)
    assert "warning" not in err


# ---------- disclosure: the files a log or a scenario names ----------

LOGS = sorted(p.name for p in CORPUS.glob("log_*.jsonl") if "agent" not in p.name)


@pytest.mark.parametrize("name", LOGS)
def test_a_log_naming_a_file_outside_the_game_is_refused_unquoted(name, tmp_path):
    for args in (["replay", str(CORPUS / name)], ["play", "--resume", str(_copy(CORPUS / name, tmp_path))]):
        r = tcg(*args)
        out = r.stdout + r.stderr
        assert r.returncode in (1, 2) and "OUTSIDE-GAME" in out, (args, out)
        assert PASSWD_LINE not in out and "Traceback" not in out
    with pytest.raises(TcgError, match="OUTSIDE-GAME") as e:
        Replay(CORPUS / name)  # serve --replay
    assert PASSWD_LINE not in str(e.value)


@pytest.mark.parametrize("name", LOGS)
def test_an_uploaded_log_naming_a_file_outside_the_game_is_refused_unquoted(name):
    client = client_of(Server())
    r = client.post("/api/replay?name=x.jsonl", content=(CORPUS / name).read_bytes(), headers=NDJSON)
    assert r.status_code == 400 and "OUTSIDE-GAME" in r.json()["error"]
    assert PASSWD_LINE not in r.text


def test_a_header_path_with_a_nul_is_refused_in_words(tmp_path):
    path = CORPUS / "header_paths_with_nul.jsonl"
    for args in (["replay", str(path)], ["play", "--resume", str(_copy(path, tmp_path))]):
        r = tcg(*args)
        assert r.returncode in (1, 2) and "the header's 'ruleset' must be text" in r.stdout + r.stderr
        assert "internal error" not in r.stderr
    r = client_of(Server()).post("/api/replay", content=path.read_bytes(), headers=NDJSON)
    assert r.status_code == 400 and "must be text" in r.json()["error"]


def test_a_log_inside_the_game_still_replays(log, tmp_path):
    """A log naming the game's own files (relative to where `tcg play` ran) still works."""
    deck = "cards/ucb/decks/aka_sokkou.yaml"
    path = tmp_path / "own.jsonl"
    with open(path, "w", encoding="utf-8") as out:
        play(MatchSetup("rulesets/ucb.yaml", [deck, deck], 1, ["random", "random"], 4), out)
    r = tcg("replay", str(path))
    assert r.returncode == 0 and "reproduced exactly" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("scenario_*.yaml")))
def test_a_puzzle_loads_nothing_from_outside_the_game(name):
    with pytest.raises(DiagnosticError) as e:
        puzzle(CORPUS / name, ["human", "random"])
    text = str(e.value)
    assert "OUTSIDE-GAME" in text and PASSWD_LINE not in text
    r = tcg("serve", "--scenario", str(CORPUS / name), "--port", "0", timeout=60)
    assert r.returncode in (1, 2) and "OUTSIDE-GAME" in r.stdout + r.stderr
    assert PASSWD_LINE not in r.stdout + r.stderr and "http://" not in r.stdout


def test_a_results_folder_serves_no_link_out_of_it(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    outside = tmp_path / "secret.json"
    outside.write_text('{"secret": "yes"}', encoding="utf-8")
    (folder / "cards.json").write_text('{"cards": []}', encoding="utf-8")
    (folder / "summary.json").symlink_to(outside)
    (folder / "cards.png").symlink_to("/etc/passwd")
    (folder / "summary.csv").symlink_to(folder / "cards.json")  # (a link inside: served)
    server = Server(results=Results(folder))
    client = client_of(server)
    page = client.get("/api/results").json()
    assert "summary" not in page and "secret" not in json.dumps(page)
    assert page["plots"] == [] and page["downloads"] == ["summary.csv"]
    for name in ("summary.json", "cards.png"):
        r = client.get(f"/results/{name}")
        assert r.status_code == 404 and PASSWD_LINE not in r.text and "secret" not in r.text
    assert client.get("/results/summary.csv").status_code == 200


def test_a_question_asked_from_a_card_in_a_hidden_hand_does_not_name_it(monkeypatch):
    """UCB: a spell played from the hand asks its target while the card is still there; the
    other seat reads "P2 (a hidden card: choose …): …", never the card's name — in its
    view's log and its websocket frames (in English: `--lang en`)."""
    monkeypatch.setattr(speak, "current", "en")
    t, server = a_table(("human", "human"), seed=0)
    seats = {p: tok for tok, p in t.tokens.items()}
    client = client_of(server)
    rng = random.Random(0)
    hidden_questions = 0
    while t.g.result is None and t.g.turn <= 12:
        g = t.g
        d = g.decision
        card = g.frames[-1].env.get("self") if g.frames else None
        other = 1 - d.player
        asked_from_hidden = type(card) is int and not visible(g, card, other) \
            and d.prompt.startswith(f"{g.defs[card].name}: ")
        view = client.post(f"/api/act?seat={seats[d.player]}",
                           json={"option": rng.randrange(len(d.options))}).json()
        if asked_from_hidden:
            hidden_questions += 1
            name = t.g.defs[card].name
            log = client.get(f"/api/view?seat={seats[other]}").json()["log"]
            decided = [line for line in log if line.strip().startswith(f"P{d.player + 1} (")][-1]
            assert f"{name}:" not in decided and "a hidden card: " in decided, decided
        assert view.get("error") is None
    assert hidden_questions > 0  # (the match did ask such a question)


# ---------- resources ----------

def asgi_post(server: Server, path: str, chunks, headers: list[tuple[bytes, bytes]]) -> tuple[int, int]:
    """POST a body chunk by chunk straight to the app; (status, chunks it read)."""
    read, sent = 0, []
    body = iter(chunks)

    async def receive():
        nonlocal read
        chunk = next(body, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message):
        sent.append(message)

    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "root_path": "",
             "query_string": query.encode(), "server": ("127.0.0.1", 8000),
             "client": ("127.0.0.1", 1), "headers": [(b"host", b"127.0.0.1:8000"), *headers]}
    asyncio.run(server.app(scope, receive, send))
    return next(m["status"] for m in sent if m["type"] == "http.response.start"), read


def test_an_upload_is_refused_while_it_is_read():
    """A 200 MB upload with no Content-Length is refused once 50 MB have come, not read whole
    first; one that declares its size is refused before a byte is read."""
    server = Server()
    mb = b"x" * 1_000_000
    status, read = asgi_post(server, f"/api/replay?key={server.key}", (mb for _ in range(200)),
                             [(b"content-type", NDJSON["Content-Type"].encode())])
    assert status == 413 and read <= MAX_UPLOAD // len(mb) + 1
    status, read = asgi_post(server, f"/api/replay?key={server.key}", (mb for _ in range(200)),
                             [(b"content-type", b"application/x-ndjson"),
                              (b"content-length", b"200000000")])
    assert status == 413 and read == 0
    assert list(Path(server.folder.name).iterdir()) == []


def test_deep_json_is_a_clear_error_everywhere(log, viewer, tmp_path):
    server, client = viewer
    t, seat_server = a_table()
    token = next(iter(t.tokens))
    seat_client = client_of(seat_server)
    for what, r in (("act", seat_client.post(f"/api/act?seat={token}", content=DEEP,
                                             headers={"Content-Type": "application/json"})),
                    ("fork", client.post("/api/fork", content=DEEP,
                                         headers={"Content-Type": "application/json"}))):
        assert r.status_code in (400, 413) and "error" in r.json(), what
    deep_object = '{"option": ' + "[" * 200 + "]" * 200 + "}"  # (small, but past the bound)
    r = seat_client.post(f"/api/act?seat={token}", content=deep_object,
                         headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]
    with seat_client.websocket_connect(f"/ws?seat={token}") as ws:
        ws.receive_json()
        ws.send_text(deep_object)
        assert "nested deeper" in ws.receive_json()["error"]
    # a log with a record nested 100,000 deep, for replay, resume and upload
    deep_log = tmp_path / "deep.jsonl"
    deep_log.write_text(log.read_text(encoding="utf-8").splitlines(keepends=True)[0]
                        + '{"e": ' + DEEP + "}\n", encoding="utf-8")
    for args in (["replay", str(deep_log)], ["play", "--resume", str(deep_log)]):
        r = tcg(*args)
        assert r.returncode in (1, 2) and "line 2" in r.stdout + r.stderr, r.stdout + r.stderr
        assert "Traceback" not in r.stderr and "RecursionError" not in r.stdout + r.stderr
    r = client.post("/api/replay?name=deep.jsonl", content=deep_log.read_bytes(), headers=NDJSON)
    assert r.status_code == 400 and "line 2" in r.json()["error"]
    # a results folder's document
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "summary.json").write_text(DEEP, encoding="utf-8")
    r = client_of(Server(results=Results(folder))).get("/api/results")
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]


def test_json_depth_is_bounded_without_recursing():
    assert json_text.parse('[[["ok"]]]') == [[["ok"]]]
    for text in (DEEP, "[" * 65 + "]" * 65, '{"a": ' * 70 + "1" + "}" * 70):
        with pytest.raises(json_text.JsonError, match="nested deeper than 64"):
            json_text.parse(text)
    assert json_text.depth(json_text.parse("[" * 64 + "]" * 64)) == 64


FRAMES = [("text", "not json"), ("text", ""), ("text", "   "), ("bytes", b"\x00\xff binary"),
          ("bytes", b'{"option": 0}'), ("text", "[1, 2]"), ("text", "42"), ("text", '"option"'),
          ("text", '{"option": "0"}'), ("text", '{"nothing": 1}'), ("text", "{" * 5000),
          ("text", "1" * 5000), ("text", '{"stop": ' + "[" * 100 + "]" * 100 + "}")]


def test_bad_websocket_frames_get_an_error_answer_and_the_socket_goes_on():
    t, server = a_table()
    token = next(iter(t.tokens))
    with client_of(server).websocket_connect(f"/ws?seat={token}") as ws:
        ws.receive_json()
        for kind, frame in FRAMES:
            (ws.send_text if kind == "text" else ws.send_bytes)(frame)
            answer = ws.receive_json()
            assert set(answer) == {"error"} and answer["error"], (frame, answer)
        ws.send_json({"concede": True})  # still playing: a good message is carried out
        assert ws.receive_json()["result"]["winner"] == "P2"


def test_an_oversized_websocket_frame_is_closed_with_a_close_frame(tmp_path):
    """Through uvicorn: a frame past the table's message size ends with close code 1009."""
    websockets = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed
    port = free_port()
    p, (seat, _viewer) = start("ucb", "--agents", "human,random", "--port", str(port))
    try:
        token = seat.strip().rpartition("seat=")[2]
        wait_for(f"http://127.0.0.1:{port}/")
        with websockets.connect(f"ws://127.0.0.1:{port}/ws?seat={token}", max_size=None) as ws:
            ws.recv()
            ws.send("x" * 2_000_000)
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
            assert ws.close_code == 1009
    finally:
        p.terminate()
        p.communicate(timeout=20)


@pytest.mark.parametrize("agent", ["mcts:1000000000", "greedy:99999999", "mcts:1000000s",
                                   "mcts:nans", "mcts:infs", "mcts:" + "9" * 5000])
def test_a_fork_asking_for_an_endless_search_is_refused(agent, viewer):
    server, client = viewer
    started = time.monotonic()
    r = client.post("/api/fork", json={"step": 1, "seat": "P1", "agent": agent})
    assert r.status_code == 400 and "searches more than" in r.json()["error"]
    assert time.monotonic() - started < 10 and not server.rooms


@pytest.mark.parametrize("name", sorted(p.name for p in CORPUS.glob("log_agent_*.jsonl")))
def test_resuming_a_log_naming_an_endless_search_is_refused(name, tmp_path):
    r = tcg("play", "--resume", str(_copy(CORPUS / name, tmp_path)), timeout=60)
    assert r.returncode in (1, 2) and "searches more than" in r.stderr, r.stdout + r.stderr


def test_sigterm_stops_the_server_after_a_hostile_fork(log):
    port = free_port()
    p, (viewer_line,) = start("--replay", str(log), "--port", str(port), urls=1)
    try:
        url = viewer_line.split(": ", 1)[1].strip()
        key = url.rpartition("key=")[2]
        wait_for(f"http://127.0.0.1:{port}/")
        r = httpx.post(f"http://127.0.0.1:{port}/api/fork?key={key}", timeout=30,
                       json={"step": 1, "seat": "P1", "agent": "mcts:1000000000"})
        assert r.status_code == 400
        r = httpx.post(f"http://127.0.0.1:{port}/api/fork?key={key}", timeout=30,
                       json={"step": 1, "seat": "P1", "agent": "mcts:2"})
        assert r.status_code == 200 and r.json()["url"].startswith("/?seat=")
    finally:
        p.send_signal(signal.SIGTERM)
        started = time.monotonic()
        p.communicate(timeout=30)
    assert time.monotonic() - started < 15


def _copy(path: Path, folder: Path) -> Path:
    """A corpus log copied where `--resume` may rewrite it, inside the repository's game
    folder's sight: a temporary folder is its own game folder."""
    target = folder / path.name
    shutil.copy(path, target)
    os.chmod(target, 0o644)
    return target
