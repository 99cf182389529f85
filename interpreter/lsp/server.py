"""`tcg lsp`: the language server's wiring (pygls, stdio).

Every feature is a function of (workspace, path, text, position) in its own module; this
module turns LSP messages into those calls and their answers into LSP messages, converts
positions to the client's units, and checks files while the user types: debounced, on a
thread of its own (the connection keeps being read), the last text winning — a check whose
text has changed since is abandoned, its answer never sent.
"""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from interpreter.lsp import diagnostics, peer
from interpreter.lsp.incremental import Cancelled
from interpreter.lsp.workspace import Workspace

DELAY = 0.03  # seconds of quiet typing before a file is checked again (a check takes longer)
TRIGGERS = [".", "「", "(", " "]
MAX_INDEX = 2**31 - 1  # LSP's uinteger
_RULESET = re.compile(r"^(?:turn|zones):", re.M)  # (as check.files.kind_of tells them)
_CARDS = re.compile(r"^cards:", re.M)


def _version() -> str:
    try:
        return metadata.version("tcg-interpreter")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


class TcgServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("tcg", _version())
        self._workspace: Workspace | None = None
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="tcg-lsp-check")
        self._running: dict[str, Future] = {}  # uri -> its check under way
        self._again: set[str] = set()  # files changed while their check was under way
        self._dependents: set[str] = set()  # files whose dependents are checked after them
        self.lock = threading.Lock()  # the workspace is read by one thread at a time

    def start_io(self, stdin=None, stdout=None) -> None:
        """pygls' stdio server, reading through `peer` (bounded, resynchronising framing)."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(peer.serve(self, (stdin or sys.stdin.buffer).fileno(), self._stop_event))
        except BrokenPipeError:
            pass  # the editor went away
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self._checker.shutdown(wait=False, cancel_futures=True)
            self.shutdown()

    @property
    def files(self) -> Workspace:
        """The editor's workspace, made on first use (its folders are known after `initialize`)."""
        if self._workspace is None:
            roots = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
            if not roots and self.workspace.root_path:
                roots = [self.workspace.root_path]
            self._workspace = Workspace(Path(r) for r in roots if r)
        return self._workspace

    def document(self, uri: str) -> tuple[TextDocument, str]:
        """The open document and its file path (resolved, as the workspace names files)."""
        doc = self.workspace.get_text_document(uri)
        path = str(Path(to_fs_path(uri) or uri).resolve())
        self.files.set_buffer(path, doc.source)
        return doc, path

    def at_cursor(self, params: types.CompletionParams | types.HoverParams | types.DefinitionParams,
                  ) -> tuple[TextDocument, str, int, int]:
        """The document a request is about, its path, and the cursor's line and column
        (in the server's units, from the client's). A document that is not open, or a
        position past its last line, is invalid params (a column past its line's end is
        that end, as LSP says)."""
        uri, at = params.text_document.uri, params.position
        if self.opened(uri) is None:
            raise JsonRpcInvalidParams(f"{uri} is not open (didOpen it first)")
        doc, path = self.document(uri)
        if at.line > max(len(doc.lines), 1) or at.character > MAX_INDEX:
            raise JsonRpcInvalidParams(f"position {at.line}:{at.character} is outside {uri}, "
                                       f"which has {len(doc.lines)} lines")
        pos = doc.position_codec.position_from_client_units(doc.lines, at)
        return doc, path, pos.line, pos.character

    def check_soon(self, uri: str, dependents: bool = False) -> None:
        """Check `uri` once the user has stopped typing (`dependents`: and then the open files
        checked against it)."""
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        if dependents:
            self._dependents.add(uri)
        self._pending[uri] = asyncio.get_event_loop().call_later(DELAY, self.check, uri)

    def check(self, uri: str) -> None:
        """Check the document's current text on the checking thread; if a check of it is
        under way, once that one ends (it stops early, its text being old)."""
        self._pending.pop(uri, None)
        if self.opened(uri) is None:
            return
        if uri in self._running:
            self._again.add(uri)
            return
        doc = self.workspace.get_text_document(uri)
        version, text = doc.version, doc.source
        loop = asyncio.get_event_loop()
        job = self._checker.submit(self._diagnose, uri, version, text, uri in self._dependents)
        self._dependents.discard(uri)
        self._running[uri] = job
        job.add_done_callback(lambda f: loop.call_soon_threadsafe(self._checked, uri, version, f))

    def opened(self, uri: str) -> TextDocument | None:
        """The open document of `uri` (pygls keeps them by their unquoted uri: an editor
        writes a path with spaces or kana %-escaped)."""
        return self.workspace.text_documents.get(unquote(uri))

    def _current(self, uri: str, version: int | None) -> bool:
        doc = self.opened(uri)
        return doc is not None and doc.version == version

    def _diagnose(self, uri: str, version: int | None, text: str,
                  dependents: bool) -> tuple[list[types.Diagnostic] | None, list[str]]:
        """(On the checking thread.) The diagnostics of this text (None when it is no
        longer the document's), and the files to check after it."""
        path = str(Path(to_fs_path(uri) or uri).resolve())
        with self.lock:
            if not self._current(uri, version):
                return None, []
            self.files.set_buffer(path, text)
            others = self.dependents(uri, path) if dependents else []
            try:
                return diagnostics.diagnose(self.files, path, text,
                                            cancelled=lambda: not self._current(uri, version)), others
            except Cancelled:
                return None, others

    def _checked(self, uri: str, version: int | None, job: Future) -> None:
        self._running.pop(uri, None)
        if uri in self._again:
            self._again.discard(uri)
            self.check_soon(uri)
        error = job.exception() if not job.cancelled() else None
        if error is not None:  # a bug must not stop the server answering
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Error, f"tcg lsp: internal error checking {uri}: "
                f"{type(error).__name__}: {error} (this is a bug in tcg-interpreter)"))
            return
        found, others = job.result() if not job.cancelled() else (None, [])
        for other in others:
            self.check_soon(other)
        if found is None or not self._current(uri, version):
            return
        doc = self.workspace.get_text_document(uri)
        for d in found:
            d.range = doc.position_codec.range_to_client_units(doc.lines, d.range)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=found))

    def too_large(self, uri: str, size: int) -> None:
        """A message opening or changing `uri` was too large to read (peer.py)."""
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, diagnostics=[diagnostics.too_large(uri)]))

    def forget(self, uri: str) -> None:
        """A closed document: nothing of it is kept."""
        path = str(Path(to_fs_path(uri) or uri).resolve())
        timer = self._pending.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self._again.discard(uri)
        with self.lock:
            self.files.drop_buffer(path)

    def dependents(self, uri: str, path: str) -> list[str]:
        """(On the checking thread.) When `uri` is a ruleset or card set, the other open
        files of its game: they are checked again after it."""
        text = self.files.buffers.get(path, "")
        if not (_RULESET.search(text) or _CARDS.search(text)):
            return []  # (read from the text: parsing a long card set costs a keystroke)
        rid = self.files.rid_of(path, text)
        out = []
        for other in list(self.workspace.text_documents):
            doc = self.workspace.text_documents.get(other)
            if other != uri and doc is not None:
                other_path = str(Path(to_fs_path(other) or other).resolve())
                self.files.set_buffer(other_path, doc.source)
                other_entry = self.files.entry(other_path)
                if other_entry is not None and other_entry.rid == rid:
                    out.append(other)
        return out


server = TcgServer()


@server.feature(types.INITIALIZED)
def initialized(ls: TcgServer, params: types.InitializedParams) -> None:
    """Ask the editor to say when YAML files are created, changed or deleted on disk (a
    ruleset or card set changed by another program re-checks the open files)."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if watched and watched.dynamic_registration:
        watcher = types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")
        ls.client_register_capability(types.RegistrationParams([types.Registration(
            id="tcg-yaml-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions([watcher]))]))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: TcgServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.check(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: TcgServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.check_soon(params.text_document.uri, dependents=True)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TcgServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.check_soon(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TcgServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.forget(uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_files(ls: TcgServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.files.files_changed()
    for uri in list(ls.workspace.text_documents):
        ls.check_soon(uri)


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=TRIGGERS))
@server.thread()  # (the workspace may be busy with a check: the connection is still read)
def complete(ls: TcgServer, params: types.CompletionParams) -> types.CompletionList:
    from interpreter.lsp import completion  # (imported on first use: a quicker first diagnostic)

    with ls.lock:
        doc, path, line, col = ls.at_cursor(params)
        items = completion.complete(ls.files, path, doc.source, line, col)
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@server.thread()
def on_hover(ls: TcgServer, params: types.HoverParams) -> types.Hover | None:
    from interpreter.lsp import hover

    with ls.lock:
        doc, path, line, col = ls.at_cursor(params)
        text = hover.hover(ls.files, path, doc.source, line, col)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@server.thread()
def on_definition(ls: TcgServer, params: types.DefinitionParams) -> types.Location | None:
    from interpreter.lsp import definition

    with ls.lock:
        doc, path, line, col = ls.at_cursor(params)
        target = definition.definition(ls.files, path, doc.source, line, col)
        entry = ls.files.entry(target.path) if target is not None else None
    if target is None:
        return None
    lines = entry.text.splitlines() if entry is not None else []
    span = types.Range(types.Position(target.line, target.start), types.Position(target.line, target.end))
    return types.Location(uri=from_fs_path(target.path) or target.path,
                          range=doc.position_codec.range_to_client_units(lines, span))


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
def code_actions(ls: TcgServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    return diagnostics.quick_fixes(params.text_document.uri, list(params.context.diagnostics))


def main() -> None:
    server.start_io()
