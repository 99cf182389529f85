"""`tcg check`'s diagnostics for one open file, as LSP diagnostics (and their quick fixes).

Positions here are 0-based lines and Python string indexes; the server converts them to the
client's units (UTF-16 by default)."""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types

from interpreter.check.files import Known
from interpreter.diagnostics import Diagnostic
from interpreter.load.yamlpos import MAX_BYTES
from interpreter.lsp.workspace import Workspace, is_game_file, ruleset_id
from interpreter.words import diag as words_diag
from interpreter.words import ui

SOURCE = "tcg"
_SUGGESTION = re.compile(r"did you mean '([^']+)'\?")
_QUOTED = re.compile(r"'([^']+)'")
_WORD = re.compile(r"[\w-]+")


def diagnose(ws: Workspace, path: str, text: str,
             cancelled: Callable[[], bool] = lambda: False) -> list[types.Diagnostic]:
    """What `tcg check` says about this file, read from `text` (nothing about a YAML file
    that is not a game's). `cancelled` is asked between the parts of a long card set: when
    it says yes, incremental.Cancelled is raised."""
    if _too_large(text):
        return [too_large(path)]
    if not is_game_file(text):
        return []
    rid = ws.rid_of(path, text)  # (not ws.entry: parsing a long file twice costs a keystroke)
    ruleset = ws.ruleset(rid)
    named = ruleset_id(text)  # as the file writes it: a path is read relative to the file
    rulesets = {named: ruleset} if named and ruleset is not None else {}
    report = ws.card_sets.check(path, text, Known(rulesets, ws.game), cancelled)
    lines = text.splitlines()
    own = [to_lsp(d, lines) for d in report.diagnostics if d.path == path]
    elsewhere = [d for d in report.diagnostics if d.path != path]
    if elsewhere:
        own.append(_elsewhere(elsewhere, lines))
    return own


def _too_large(text: str) -> bool:
    """Whether the text is more than MAX_BYTES in UTF-8 (a character is 1 to 4 bytes)."""
    return len(text) > MAX_BYTES or (len(text) * 4 > MAX_BYTES and len(text.encode("utf-8")) > MAX_BYTES)


def too_large(path: str) -> types.Diagnostic:
    """`tcg check`'s answer to a file larger than it reads (load/yamlpos.py)."""
    return to_lsp(Diagnostic(path, 1, 1, "TOO-LARGE", f"file is larger than {MAX_BYTES:,} bytes"), [])


def _elsewhere(found: list[Diagnostic], lines: list[str]) -> types.Diagnostic:
    """Problems in the files this one is checked against (its ruleset, the game's card
    sets), which stop this one from being checked in full: said once, on its first line."""
    first = found[0]
    more = ui.tr("ui.and_more", n=len(found) - 1) if len(found) > 1 else ""
    return types.Diagnostic(
        range=types.Range(types.Position(0, 0), types.Position(0, len(lines[0]) if lines else 0)),
        message=ui.tr("ui.elsewhere", header=first.header(ui.lang()), more=more),
        severity=types.DiagnosticSeverity.Warning, code="DEPENDENCY", source=SOURCE)


def _message(d: Diagnostic) -> str:
    """The message, help and rule in the server's language (`tcg lsp --lang`, else the
    locale's); the quick fix reads the English hint."""
    lang = ui.lang()
    message = words_diag.say(d.message, lang)
    if d.hint:
        message += f"\n{ui.tr('ui.help')}: {words_diag.say(d.hint, lang)}"
    return message + (f"\n{ui.tr('ui.rule')}: {d.ref}" if d.ref else "")


def to_lsp(d: Diagnostic, lines: list[str]) -> types.Diagnostic:
    line = min(max(d.line - 1, 0), max(len(lines) - 1, 0))
    source = lines[line] if lines else ""
    start, end = _span(d, source)
    message = _message(d)
    fix = _SUGGESTION.search(d.hint)
    return types.Diagnostic(
        range=types.Range(types.Position(line, start), types.Position(line, end)),
        message=message,
        severity=types.DiagnosticSeverity.Error if d.severity == "error"
        else types.DiagnosticSeverity.Warning,
        code=d.code,
        source=SOURCE,
        data={"replace": fix.group(1)} if fix else None,
    )


def _span(d: Diagnostic, source: str) -> tuple[int, int]:
    """The characters a diagnostic is about: its own end if it knows it, else the name the
    message quotes when it is on that line, else the word at its column."""
    start = min(max(d.col - 1, 0), len(source))
    if d.end_col > d.col:
        return start, min(d.end_col - 1, len(source))
    quoted = _QUOTED.search(d.message)
    if quoted:
        at = _nearest(source, quoted.group(1), start)
        if at >= 0:
            return at, at + len(quoted.group(1))
    word = _WORD.match(source, start)
    return start, word.end() if word else min(start + 1, len(source))


def _nearest(source: str, word: str, col: int) -> int:
    """Index of the occurrence of `word` in `source` as a whole word nearest `col` (-1: none)."""
    spots = [m.start() for m in re.finditer(rf"(?<![\w]){re.escape(word)}(?![\w])", source)]
    return min(spots, key=lambda i: abs(i - col)) if spots else -1


def quick_fixes(uri: str, diagnostics: list[types.Diagnostic]) -> list[types.CodeAction]:
    """A 'did you mean' diagnostic's fix: replace the name with the suggestion."""
    out = []
    for diag in diagnostics:
        data = diag.data if isinstance(diag.data, dict) else {}
        replacement = data.get("replace")
        if not isinstance(replacement, str) or diag.source != SOURCE:
            continue
        edit = types.TextEdit(range=diag.range, new_text=replacement)
        out.append(types.CodeAction(
            title=f"Change to '{replacement}'",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diag],
            is_preferred=True,
            edit=types.WorkspaceEdit(changes={uri: [edit]}),
        ))
    return out
