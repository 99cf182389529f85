"""Diagnostics: the one error type every stage reports through.

A stage never raises on bad input: it returns (or raises inside `DiagnosticError`)
positioned `Diagnostic`s, which the CLI renders like a compiler would.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Related:
    """A second place a diagnostic points at ("first defined here")."""

    path: str
    line: int
    col: int
    message: str
    source_line: str = ""


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""
    ref: str = ""
    severity: str = "error"
    source_line: str = ""
    end_col: int = 0  # where the offending text ends on the same line (exclusive; 0: unknown)
    related: tuple[Related, ...] = ()
    explanation: str = ""  # what the broken rule means, in words (SARIF's rule help)
    waived: str = ""  # the reason of a reviewed exemption: reported, but not a problem

    def header(self, lang: str = "en") -> str:
        """`path:line:col: severity[CODE]: message`: the prefix is a contract (scripts and
        editors read it), the message is in the reader's language."""
        message = _said(self.message, lang)
        return f"{self.path}:{self.line}:{self.col}: {self.severity}[{self.code}]: {message}"

    def render(self, lang: str | None = None) -> str:
        """As a compiler shows it, in `lang` (default: the tool's language, words.ui)."""
        from interpreter.words import ui

        lang = lang or ui.lang()
        word = {k: ui.say(f"ui.{k}", lang) for k in ("note", "help", "rule")}
        lines = [self.header(lang)]
        if self.source_line:
            lines += _quote(self.source_line, self.col, self.end_col, "^")
        for r in self.related:  # like rustc's secondary labels: the place, then its line
            lines.append(f"  {word['note']}: {r.path}:{r.line}:{r.col}: {_said(r.message, lang)}")
            if r.source_line:
                lines += _quote(r.source_line, r.col, 0, "-")
        if self.hint:
            lines.append(f"  = {word['help']}: {_said(self.hint, lang)}")
        if self.ref:
            lines.append(f"  = {word['rule']}: {self.ref}")
        return "\n".join(lines)

    def with_related(self, *related: Related) -> Diagnostic:
        return replace(self, related=self.related + related)


def _said(text: str, lang: str) -> str:
    if lang == "en":
        return text
    from interpreter.words import diag

    return diag.say(text, lang)


def _quote(source_line: str, col: int, end_col: int, mark: str) -> list[str]:
    """The source line and a row of marks under the offending text."""
    text, at = _window(source_line, col)
    end = min(at + max(end_col - col, 1), len(text) + 1)
    pad = _caret_pad(text, at)
    return [f"    {text}", "    " + pad + mark * max(len(_caret_pad(text, end)) - len(pad), 1)]


def _window(line: str, col: int, width: int = 100) -> tuple[str, int]:
    """A long source line cut around the column, so the caret stays on screen."""
    if len(line) <= width:
        return line, col
    start = max(col - 1 - width // 2, 0)
    cut = line[start:start + width]
    prefix = "…" if start else ""
    suffix = "…" if start + width < len(line) else ""
    return prefix + cut + suffix, col - start + len(prefix)


def _caret_pad(text: str, col: int) -> str:
    # East Asian wide characters take two terminal cells.
    import unicodedata

    width = 0
    for ch in text[: max(col - 1, 0)]:
        width += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return " " * width


class TcgError(Exception):
    """Root of every error this package raises on purpose.

    Raised with a catalog key and its values (`TcgError("err.turns", n=0)`, the entries in
    words/errors.py) it is said in the chosen language where the CLI prints it (`said()`);
    str() is the English, what logs and tests read. Raised with a plain
    message (the sites tests/test_ui_words.py still lists), it is shown as written."""

    def __init__(self, message: str = "", /, **values: object) -> None:
        self.key = message if message.startswith("err.") else None
        self.values = values
        super().__init__(self._in("en") if self.key else message)

    def _in(self, lang: str) -> str:
        from interpreter.words import errors

        return errors.say(self.key or "", lang, self.values)

    def said(self) -> str:
        """The message in the chosen language (words/ui.py)."""
        if self.key is None:
            return str(self)
        from interpreter.words.ui import lang

        return self._in(lang())


class DiagnosticError(TcgError):
    """Input that cannot be used; carries the diagnostics that say why."""

    def __init__(self, diagnostics: Iterable[Diagnostic], unusable: bool = False) -> None:
        self.diagnostics = list(diagnostics)
        self.unusable = unusable
        super().__init__("\n".join(d.header() for d in self.diagnostics))


@dataclass
class Report:
    """Collects diagnostics across files; knows the source text to quote."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    unusable: bool = False

    def add(self, diagnostic: Diagnostic) -> None:
        self.diagnostics.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error" and not d.waived]

    @property
    def waivers(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.waived]


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """A 'did you mean' hint, or '' when nothing is close."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def number_hint(value: object) -> str:
    """Why a value that looks like a number is not one: full-width digits, or quotes that
    make it text. '' when it does not look like a number."""
    import re
    import unicodedata

    if not isinstance(value, str):
        return ""
    plain = unicodedata.normalize("NFKC", value).strip()
    if not re.fullmatch(r"[-+]?[0-9]+", plain):
        return ""
    if plain != value.strip():
        digits = "a full-width digit" if len(value.strip()) == 1 else "in full-width digits"
        return f"'{value}' is {digits}: write {plain}"
    return f'"{value}" is text because of the quotes: write {plain}'
