"""`tcg lsp`: the language server's wiring (pygls, stdio).

Every feature is a function of (workspace, path, text, position) in its own module; this
module turns LSP messages into those calls and their answers into LSP messages, converts
positions to the client's units, and debounces checking while the user types.
"""

from __future__ import annotations

import asyncio
from importlib import metadata
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from interpreter.lsp import completion, definition, diagnostics, hover
from interpreter.lsp.workspace import Workspace

DELAY = 0.03  # seconds of quiet typing before a file is checked again (a check takes longer)
TRIGGERS = [".", "「", "(", " "]


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

    def at_cursor(self, params: types.TextDocumentPositionParams) -> tuple[TextDocument, str, int, int]:
        """The document a request is about, its path, and the cursor's line and column
        (in the server's units, from the client's)."""
        doc, path = self.document(params.text_document.uri)
        pos = doc.position_codec.position_from_client_units(doc.lines, params.position)
        return doc, path, pos.line, pos.character

    def check_soon(self, uri: str) -> None:
        old = self._pending.pop(uri, None)
        if old is not None:
            old.cancel()
        self._pending[uri] = asyncio.get_event_loop().call_later(DELAY, self.check, uri)

    def check(self, uri: str) -> None:
        self._pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return
        doc, path = self.document(uri)
        try:
            found = diagnostics.diagnose(self.files, path, doc.source)
        except Exception as e:  # noqa: BLE001 - a bug must not stop the server answering
            self.window_log_message(types.LogMessageParams(
                types.MessageType.Error, f"tcg lsp: internal error checking {path}: "
                                         f"{type(e).__name__}: {e} (this is a bug in tcg-interpreter)"))
            return
        for d in found:
            d.range = doc.position_codec.range_to_client_units(doc.lines, d.range)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=found))

    def check_dependents(self, uri: str) -> None:
        """A ruleset or card set changed: the open files of its game are checked again."""
        _, path = self.document(uri)
        entry = self.files.entry(path)
        if entry is None or entry.kind not in ("ruleset", "cards"):
            return
        for other in list(self.workspace.text_documents):
            if other != uri:
                other_entry = self.files.entry(self.document(other)[1])
                if other_entry is not None and other_entry.rid == entry.rid:
                    self.check_soon(other)


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
    ls.check_soon(params.text_document.uri)
    ls.check_dependents(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: TcgServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.check_soon(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: TcgServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.files.drop_buffer(str(Path(to_fs_path(uri) or uri).resolve()))
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def did_change_files(ls: TcgServer, params: types.DidChangeWatchedFilesParams) -> None:
    ls.files.files_changed()
    for uri in list(ls.workspace.text_documents):
        ls.check_soon(uri)


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=TRIGGERS))
def complete(ls: TcgServer, params: types.CompletionParams) -> types.CompletionList:
    doc, path, line, col = ls.at_cursor(params)
    items = completion.complete(ls.files, path, doc.source, line, col)
    return types.CompletionList(is_incomplete=False, items=items)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def on_hover(ls: TcgServer, params: types.HoverParams) -> types.Hover | None:
    doc, path, line, col = ls.at_cursor(params)
    text = hover.hover(ls.files, path, doc.source, line, col)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def on_definition(ls: TcgServer, params: types.DefinitionParams) -> types.Location | None:
    doc, path, line, col = ls.at_cursor(params)
    target = definition.definition(ls.files, path, doc.source, line, col)
    if target is None:
        return None
    entry = ls.files.entry(target.path)
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
