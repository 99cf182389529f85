"""`tcg lsp` as a protocol peer under hostile input (issue 39): the corpus in
tests/hostile/lsp/ sent byte for byte to a server held to 1.5 GB, each case followed by a
probe (a hover that must still be answered); and hostile workspaces, typing faster than a
check, and closed documents."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

pytest.importorskip("pygls")

from interpreter.lsp.framing import Framer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).parent / "hostile" / "lsp"
LIMIT = 3 << 29  # 1.5 GB of address space
WAIT = 60.0


def _cases(soak: bool) -> list[Any]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        if bool(case.get("soak")) == soak:
            out.append(pytest.param(path, id=path.stem, marks=[pytest.mark.soak] if soak else []))
    return out


class Server:
    """`tcg lsp` in a child process, spoken to in raw bytes; what it sends, decoded."""

    def __init__(self, root: Path) -> None:
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))

        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "lsp"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, preexec_fn=limit)
        self.received: queue.Queue[dict] = queue.Queue()
        self.seen: list[dict] = []
        self._writes: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()
        self.request(1, "initialize", {"processId": None, "capabilities": {},
                                       "rootUri": root.as_uri(),
                                       "workspaceFolders": [{"uri": root.as_uri(), "name": "w"}]})
        self.answer(1)
        self.notify("initialized", {})

    def _read(self) -> None:
        framer = Framer()
        assert self.proc.stdout is not None
        while data := os.read(self.proc.stdout.fileno(), 65536):
            framer.feed(data)
            while (frame := framer.next_frame()) is not None:
                self.received.put(json.loads(frame.body))

    def _write(self) -> None:
        assert self.proc.stdin is not None
        while (data := self._writes.get()) is not None:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except OSError:
                return

    def send(self, data: bytes) -> None:
        self._writes.put(data)

    def message(self, body: Any, length_delta: int = 0) -> None:
        raw = json.dumps(body).encode()
        self.send(b"Content-Length: %d\r\n\r\n" % (len(raw) + length_delta) + raw)

    def request(self, msg_id: int, method: str, params: Any) -> None:
        self.message({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})

    def notify(self, method: str, params: Any) -> None:
        self.message({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, wanted, timeout: float = WAIT) -> dict:
        """The first message (seen before or arriving) for which wanted(message) is true."""
        end = time.monotonic() + timeout
        while True:
            found = next((m for m in self.seen if wanted(m)), None)
            if found is not None:
                return found
            left = end - time.monotonic()
            assert left > 0 and self.proc.poll() is None, f"no answer; server exit {self.proc.poll()}"
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.received.get(timeout=min(left, 1.0)))

    def answer(self, msg_id: int | None, timeout: float = WAIT) -> dict:
        return self.wait(lambda m: "method" not in m and m.get("id", "none") == msg_id, timeout)

    def published(self, uri: str, version: int | None = None, timeout: float = WAIT) -> dict:
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri
                         and (version is None or m["params"].get("version") == version), timeout)

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": version, "text": text}})

    def close(self) -> None:
        self._writes.put(None)
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.close()


@pytest.fixture(scope="module")
def peer(tmp_path_factory):
    """One server for the corpus: each case must leave it answering the next."""
    s = Server(tmp_path_factory.mktemp("workspace"))
    yield s
    s.close()


PROBE_TEXT = "ruleset: ucb\ncards:\n  - name: x\n    kind: character\n    cost: 1\n    power: 1\n"


def _substituted(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: _substituted(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_substituted(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def _run_case(server: Server, path: Path, tmp_path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    server.seen.clear()  # (the cases reuse ids)
    names = {"PROBE": (tmp_path / "probe.yaml").as_uri(), "BIG": (tmp_path / "big.yaml").as_uri()}
    server.open(names["PROBE"], PROBE_TEXT)
    server.published(names["PROBE"])
    for item in case["send"]:
        if "raw" in item:
            raw = item["raw"].encode("latin-1" if item.get("latin1") else "utf-8")
            for _ in range(0, item.get("repeat", 1), 1 << 20):  # (a megabyte of them at a time)
                server.send(raw * min(item.get("repeat", 1), 1 << 20))
        else:
            body = _substituted(item["message"], names)
            if "fill" in item:
                doc = body["params"]["textDocument"]
                doc["text"] = doc["text"].replace("#FILL", "#" + "x" * item["fill"])
            server.message(body, item.get("length", 0))
    for expected in case["answers"]:
        got = server.answer(expected["id"])
        assert got.get("error", {}).get("code") == expected.get("error"), got
    if "publishes" in case:
        uri = names[case["publishes"]["uri"]]
        got = server.published(uri)
        assert [d["code"] for d in got["params"]["diagnostics"]] == [case["publishes"]["code"]]
    server.request(999, "textDocument/hover", {"textDocument": {"uri": names["PROBE"]},
                                               "position": {"line": 2, "character": 10}})
    assert "error" not in server.answer(999), "the server no longer answers after the case"


@pytest.mark.parametrize("path", _cases(soak=False))
def test_corpus_case(peer, path, tmp_path):
    _run_case(peer, path, tmp_path)


@pytest.mark.parametrize("path", _cases(soak=True))
def test_corpus_case_soak(server, path, tmp_path):
    _run_case(server, path, tmp_path)


def test_too_large_is_what_tcg_check_says(server, tmp_path):
    """The TOO-LARGE diagnostic of a 20.9 MB buffer is `tcg check`'s for that file on disk."""
    text = "ruleset: ucb\ncards: []\n#" + "x" * 20_900_000
    big = tmp_path / "big.yaml"
    big.write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "check", str(big)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120).stdout
    server.open(big.as_uri(), text)
    (diag,) = server.published(big.as_uri())["params"]["diagnostics"]
    assert f"{big}:1:1: error[{diag['code']}]: {diag['message']}" in out


# ---------- hostile workspaces (in-process: what the walk reads) ----------

def _workspace_with_a_ruleset(tmp_path: Path) -> Path:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "toy.yaml").write_text(
        (ROOT / "rulesets" / "ucb.yaml").read_text(encoding="utf-8").replace("id: ucb", "id: toy", 1),
        encoding="utf-8")
    return tmp_path / "rulesets" / "toy.yaml"


def test_the_walk_skips_fifos_symlink_cycles_and_huge_files(tmp_path):
    from interpreter.lsp.workspace import Workspace

    ruleset = _workspace_with_a_ruleset(tmp_path)
    os.mkfifo(tmp_path / "pipe.yaml")  # opened, it would block the server forever
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / "again").symlink_to(tmp_path, target_is_directory=True)
    with open(tmp_path / "sparse.yaml", "wb") as f:  # 600 MB that take no disk
        f.truncate(600 << 20)
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "elsewhere.yaml").write_text("id: x\nturn: {}\n", encoding="utf-8")
    (tmp_path / "link.yaml").symlink_to(outside / "elsewhere.yaml")
    found = _in_a_child(lambda: Workspace([tmp_path]).ruleset_paths())
    assert found == [str(ruleset.resolve())]


def test_a_workspace_of_the_whole_filesystem_ends(tmp_path):
    from interpreter.lsp.workspace import MAX_FILES, Workspace

    found = _in_a_child(lambda: Workspace([Path("/")]).ruleset_paths(), timeout=120)
    assert len(found) <= MAX_FILES and all(Path(p).is_file() for p in found)


def _in_a_child(fn, timeout: float = 60):
    """fn() in a forked child held to LIMIT bytes and `timeout` seconds (a hang fails the
    test instead of stopping the run)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()

    def run() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
        out.put(fn())

    child = ctx.Process(target=run)
    child.start()
    try:
        return out.get(timeout=timeout)
    finally:
        child.kill()
        child.join()


# ---------- typing faster than a check; closing ----------

def _cards(n: int) -> str:
    cards = yaml.safe_load((ROOT / "cards" / "ucb" / "characters.yaml").read_text(encoding="utf-8"))["cards"]
    many = [{**cards[i % len(cards)], "name": f"{cards[i % len(cards)]['name']}{i}"} for i in range(n)]
    return yaml.safe_dump({"ruleset": "ucb", "cards": many}, allow_unicode=True, sort_keys=False)


def test_the_last_keystroke_wins(server, tmp_path):
    """20 edits of an 800-card file, each a whole check (the header changes), sent faster
    than they can be checked: the last is answered, and most of the others never are."""
    uri = (tmp_path / "many.yaml").as_uri()
    text = _cards(800)
    server.open(uri, text)
    server.published(uri, 1, timeout=120)
    for version in range(2, 22):
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": f"# edit {version}\n" + text}]})
        time.sleep(0.01)
    server.published(uri, 21, timeout=120)
    versions = {m["params"]["version"] for m in server.seen
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri}
    assert len(versions - {1, 21}) <= 5, sorted(versions)


def test_a_closed_document_leaves_nothing_behind(tmp_path):
    from interpreter.lsp import diagnostics
    from interpreter.lsp.workspace import Workspace

    ws = Workspace([ROOT])
    text = _cards(60)
    paths = [str(tmp_path / f"c{i}.yaml") for i in range(5)]
    for path in paths:
        ws.set_buffer(path, text.replace("ruleset: ucb", f"ruleset: ucb\n# {path}"))
        diagnostics.diagnose(ws, path, ws.buffers[path])
    for path in paths:
        ws.drop_buffer(path)
    held = [*ws.buffers, *ws._entries, *ws.card_sets._files]
    assert not set(paths) & set(held)


def test_a_path_with_spaces_and_kana_is_checked_and_answered(server, tmp_path):
    """An editor %-escapes such a path in its uri; the server still finds the open document."""
    uri = (tmp_path / "my cards" / "カード.yaml").as_uri()
    assert "%20" in uri
    server.open(uri, PROBE_TEXT.replace("power: 1", "power: 1\n    bogus: 2"))
    assert server.published(uri, 1)["params"]["diagnostics"]
    server.request(30, "textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": 2, "character": 10}})
    assert "error" not in server.answer(30)
