"""How soon `tcg lsp` answers: its first diagnostic after it starts, and an edit, against
the checker alone on the whole file in the same run.

Run: python bench/bench_lsp.py [--cards N] [--edits N]

A card set of N UCB cards (the bundled cards, renamed copies past the first 42; 2,000 by
default) is opened in a server started over stdio, as an editor starts it; then the edits
alternately break one card's ability (an unknown verb) and mend it. The first diagnostic is
timed from starting the server's process (cold: imports, the workspace walk, the first whole
check) — on the bundled 42-card characters file, as a user's first file; each edit from
sending `didChange` to receiving the diagnostics for that version (debounce included). The
baseline is `check_text` on the whole text in this process.
Targets: the first diagnostic within 2 s; the median edit answered within 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from interpreter.check.files import check_text
from interpreter.load import files

TARGET_MS = 200
FIRST_TARGET_S = 2.0
GOOD, BAD = "draw(you, 1)", "drow(you, 1)"


def card_set(n: int) -> str:
    """n UCB cards as one card set: the bundled ones, then renamed copies of them."""
    bundled = []
    for path in files.card_paths("ucb", files.ruleset_path("ucb")):
        bundled += yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
    cards = []
    for i in range(n):
        card = copy.deepcopy(bundled[i % len(bundled)])
        if i >= len(bundled):
            card["name"] = f"{card['name']}{i}"
        cards.append(card)
    text = yaml.safe_dump({"ruleset": "ucb", "cards": cards}, allow_unicode=True, sort_keys=False,
                          width=1000)
    assert GOOD in text
    return text


async def first_diagnostic() -> tuple[float, float]:
    """Seconds from starting the server to the diagnostics of the first file opened, and
    the server's CPU seconds for that (and its exit): the figure that does not depend on
    what else the machine runs."""
    published: set[str] = set()
    client = LanguageClient("bench", "0")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(_client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        published.add(params.uri)

    path = files.ROOT / "cards" / "ucb" / "characters.yaml"
    start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp")
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=files.ROOT.as_uri(), name="repo")]))
    client.initialized(types.InitializedParams())
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=path.as_uri(), language_id="yaml", version=1, text=path.read_text(encoding="utf-8"))))
    while path.as_uri() not in published:
        await asyncio.sleep(0.001)
    took = time.perf_counter() - start
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return took, _children_cpu()


def _children_cpu() -> float:
    """CPU seconds of the child processes that have ended (the server, once stopped)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def lsp_edits(text: str, edits: int) -> list[float]:
    published: dict[tuple[str, int], float] = {}
    client = LanguageClient("bench", "0")

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(_client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        published[params.uri, params.version] = time.perf_counter()

    async def answered(uri: str, version: int) -> float:
        while (uri, version) not in published:
            await asyncio.sleep(0.001)
        return published[uri, version]

    await client.start_io(sys.executable, "-m", "interpreter.cli", "lsp")
    root = files.ROOT
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="repo")]))
    client.initialized(types.InitializedParams())
    uri = (Path(tempfile.gettempdir()) / "bench_lsp_cards.yaml").as_uri()  # a buffer, never written
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    await asyncio.wait_for(answered(uri, 1), 60)
    times = []
    for version in range(2, edits + 2):
        edited = text.replace(GOOD, BAD, 1) if version % 2 == 0 else text
        start = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=edited)]))
        times.append(await asyncio.wait_for(answered(uri, version), 60) - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2000)
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args()
    first, cpu = asyncio.run(first_diagnostic())
    print(f"first diagnostic after start (cold): {first:.2f} s, {cpu:.2f} s of the server's CPU "
          f"(target {FIRST_TARGET_S} s: {'met' if max(first, cpu) <= FIRST_TARGET_S else 'MISSED'})")
    text = card_set(args.cards)
    checks = []
    for i in range(3):
        start = time.perf_counter()
        check_text("cards.yaml", text.replace(GOOD, BAD, 1) if i % 2 == 0 else text)
        checks.append(time.perf_counter() - start)
    edits = asyncio.run(lsp_edits(text, args.edits))
    check_ms, edit_ms = statistics.median(checks) * 1000, statistics.median(edits) * 1000
    print(f"{args.cards}-card file, {args.edits} edits")
    print(f"check_text of the whole file (baseline): median {check_ms:.0f} ms")
    print(f"edit -> diagnostics over LSP: median {edit_ms:.0f} ms, max {max(edits) * 1000:.0f} ms "
          f"({edit_ms / check_ms:.2f}x the baseline; target {TARGET_MS} ms: "
          f"{'met' if edit_ms <= TARGET_MS else 'MISSED'})")


if __name__ == "__main__":
    main()
