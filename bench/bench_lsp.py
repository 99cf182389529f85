"""How soon `tcg lsp` answers an edit with diagnostics, against the checker alone in the same run.

Run: python bench/bench_lsp.py [--edits N]

A 40-card UCB card set (the bundled cards) is opened in a server started over stdio, as an
editor starts it; then N edits alternately break one card's ability (an unknown verb) and
mend it. Each edit is timed from sending `didChange` to receiving the diagnostics for that
version (debounce included). The baseline is `check_text` on the same text in this process.
Target: the median edit answered within 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
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
GOOD, BAD = "draw(you, 1)", "drow(you, 1)"


def card_set(n: int = 40) -> str:
    """The first n bundled UCB cards as one card set."""
    cards = []
    for path in files.card_paths("ucb", files.ruleset_path("ucb")):
        cards += yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]
    text = yaml.safe_dump({"ruleset": "ucb", "cards": cards[:n]}, allow_unicode=True, sort_keys=False,
                          width=1000)
    assert len(cards) >= n and GOOD in text
    return text


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
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    text = card_set()
    checks = []
    for i in range(args.edits):
        start = time.perf_counter()
        check_text("cards.yaml", text.replace(GOOD, BAD, 1) if i % 2 == 0 else text)
        checks.append(time.perf_counter() - start)
    edits = asyncio.run(lsp_edits(text, args.edits))
    check_ms, edit_ms = statistics.median(checks) * 1000, statistics.median(edits) * 1000
    print(f"40-card file, {args.edits} edits")
    print(f"check_text alone (baseline): median {check_ms:.0f} ms")
    print(f"edit -> diagnostics over LSP: median {edit_ms:.0f} ms, max {max(edits) * 1000:.0f} ms "
          f"({edit_ms / check_ms:.2f}x the baseline; target {TARGET_MS} ms: "
          f"{'met' if edit_ms <= TARGET_MS else 'MISSED'})")


if __name__ == "__main__":
    main()
