"""PyYAML's syntax errors explained for people, at the place of the mistake.

PyYAML reports where its scanner gave up (`problem_mark`), which is often a line after
the mistake, and where it started the construct it could not finish (`context_mark`).
Both marks and the source lines tell which common mistake it was: a key without its
colon, a key indented too far, a tab, a quote closing a text early, a text never closed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from interpreter.diagnostics import Diagnostic, Related

Explained = tuple[int, int, str, str]  # line, col (1-based), message, hint
_KEY = re.compile(r"^(\s*)(?:-\s+)?([^\s:#'\"][^:#]*?)\s*:(\s|$)")


def explain(path: str, text: str, e: yaml.MarkedYAMLError) -> Diagnostic:
    """One diagnostic for a YAML syntax error: the known mistakes in words with a fix,
    anything else in PyYAML's words at its mark, with the construct it was reading."""
    lines = text.splitlines()
    for rule in _RULES:
        found = rule(lines, e)
        if found is not None:
            line, col, message, hint = found
            return Diagnostic(path, line, col, "YAML", message, hint,
                              source_line=_at(lines, line))
    mark = e.problem_mark or e.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    related: tuple[Related, ...] = ()
    if e.context and e.context_mark and e.problem_mark \
            and e.context_mark.line != e.problem_mark.line:
        cl, cc = e.context_mark.line + 1, e.context_mark.column + 1
        related = (Related(path, cl, cc, e.context, _at(lines, cl)),)
    return Diagnostic(path, line, col, "YAML", f"malformed YAML: {e.problem or e.context}",
                      source_line=_at(lines, line), related=related)


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _at(lines: list[str], line: int) -> str:
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _tab(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A tab where YAML wants spaces."""
    problem = e.problem or ""
    if e.problem_mark is None:
        return None
    n = e.problem_mark.line + 1
    text = _at(lines, n)
    at_tab = text[e.problem_mark.column:e.problem_mark.column + 1] == "\t"
    if "tab" not in problem and "'\\t'" not in problem and not at_tab:
        return None
    col = text.find("\t") + 1 or e.problem_mark.column + 1
    return (n, col, "a tab is used to indent; YAML indents with spaces only",
            "replace the tab with spaces (as many as the lines around it use)")


def _cannot_start(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A plain value starting with a character YAML reserves (`@`, `` ` ``, `*`, `&`, `!`)."""
    problem = e.problem or ""
    if e.problem_mark is None or not (
            problem.startswith("found character that cannot start any token")
            or problem.startswith("did not find expected alphabetic or numeric character")
            or problem.startswith("did not find expected whitespace or line break")):
        return None
    n = e.problem_mark.line + 1
    text = _at(lines, n)
    col = e.problem_mark.column
    if "alias" in (e.context or "") or "anchor" in (e.context or "") or "tag" in (e.context or ""):
        col = e.context_mark.column if e.context_mark is not None else col
    ch = text[col:col + 1]
    if not ch.strip():
        return None
    return (n, col + 1, f"a value cannot start with {ch!r} unless it is in quotes",
            f"put the text in quotes: \"{text[col:].split(':')[0].strip()}\"")


def _misaligned(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A line whose indentation matches no mapping or list around it: PyYAML was reading
    the block that starts at its context mark and found this line out of step."""
    problem, context = e.problem or "", e.context or ""
    if e.problem_mark is None or e.context_mark is None or problem not in (
            "did not find expected key", "did not find expected '-' indicator"):
        return None
    n = e.problem_mark.line + 1
    text = _at(lines, n)
    indent = len(text) - len(text.lstrip(" "))
    want = e.context_mark.column
    if e.problem_mark.column != indent or indent == want:
        return None
    what, block = ("key", "mapping") if "mapping" in context else ("item", "list")
    return (n, indent + 1,
            f"this line is indented {_spaces(indent)}, but the {what}s of the {block} it "
            f"belongs to (from line {e.context_mark.line + 1}) are indented {want}",
            f"indent it by {_spaces(want)} like them, or more to put it inside the {what} above")


def _indented_start(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """The first key of the file is indented: the keys after it are not."""
    if (e.problem or "") != "did not find expected <document start>":
        return None
    n = next((k for k in range(1, len(lines) + 1) if _at(lines, k).strip()
              and not _at(lines, k).lstrip().startswith("#")), 0)
    text = _at(lines, n)
    indent = len(text) - len(text.lstrip(" "))
    if not n or not indent:
        return None
    return (n, indent + 1, f"the first line is indented {_spaces(indent)}; the keys of the file "
            "start at the first column", "remove the spaces before it")


def _missing_colon(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """`cost 3` in a mapping: PyYAML notices only at the next key, a line late."""
    if "could not find expected ':'" not in (e.problem or "") or e.context_mark is None:
        return None
    n = e.context_mark.line + 1
    text = _at(lines, n)
    start = e.context_mark.column
    m = re.match(r"([^\s:]+)(\s+)(\S.*)?$", text[start:])
    if m is None:
        return (n, start + 1, f"'{text[start:].strip()}' is not a 'key: value' pair",
                "a key is followed by ':' and a space")
    key, value = m.group(1), (m.group(3) or "").strip()
    col = start + len(key) + 1
    fix = f"{key}: {value}" if value else f"{key}:"
    return (n, col, f"missing ':' after the key '{key}'", f"write '{fix}'")


def _indented(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A key indented deeper than its siblings, or a ': ' inside a plain value."""
    mark = e.problem_mark
    if (e.problem or "") != "mapping values are not allowed in this context" or mark is None:
        return None
    n = mark.line + 1
    text = _at(lines, n)
    above = next((k for k in range(n - 1, 0, -1) if _at(lines, k).strip()
                  and not _at(lines, k).lstrip().startswith("#")), 0)
    prev = _KEY.match(_at(lines, above)) if above else None
    indent = len(text) - len(text.lstrip(" "))
    here = _KEY.match(text)
    if prev is not None and here is not None and indent > len(prev.group(1)):
        want = len(prev.group(1)) + (2 if _at(lines, above).lstrip().startswith("- ") else 0)
        key = here.group(2)
        return (n, indent + 1,
                f"'{key}' is indented {_spaces(indent)}, deeper than the key above it "
                f"({want})", f"indent '{key}' by {want} spaces, like '{prev.group(2)}'")
    return (n, mark.column + 1, "a ': ' inside a value that is not in quotes",
            "put the whole value in quotes (\"...\" or '...'), or remove the ':'")


def _closed_early(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A `"` inside a double-quoted text ends the text: the rest of the line is left over."""
    if e.problem_mark is None:
        return None
    n, col = e.problem_mark.line + 1, e.problem_mark.column
    text = _at(lines, n)
    before = text[:col].rstrip()
    if not before or before[-1] not in "\"'" or col >= len(text.rstrip()):
        return None
    quote = before[-1]
    opened = _opening_quote(before[:-1], quote)
    if opened < 0:
        return None
    other = "'" if quote == '"' else '"'
    return (n, len(before), f"this {quote} ends the text that starts at column {opened + 1}; "
            f"the rest of the line is left over",
            f"inside effect text write text as 「...」, or quote the whole value with {other} "
            f"instead of {quote}")


def _opening_quote(before: str, quote: str) -> int:
    """Where the quoted value that the last quote closes begins (after `key: ` or `- `)."""
    m = re.match(r"^\s*(?:-\s+)?(?:[^\s:#'\"][^:#]*?\s*:\s+)?(?:-\s+)?" + re.escape(quote),
                 before)
    return m.end() - 1 if m else -1


def _never_closed(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """A quoted text whose closing quote is missing: PyYAML runs to the end of the file."""
    if "quoted scalar" not in (e.context or "") or e.context_mark is None:
        return None
    n, col = e.context_mark.line + 1, e.context_mark.column + 1
    quote = _at(lines, n)[col - 1:col] or '"'
    return (n, col, f"this {quote} opens a text that is never closed",
            f"end the text with {quote} on the same line")


def _flow_never_closed(lines: list[str], e: yaml.MarkedYAMLError) -> Explained | None:
    """`[a, b` or `{a: 1` without its closing bracket."""
    context = e.context or ""
    if not context.startswith("while parsing a flow") or e.context_mark is None:
        return None
    n, col = e.context_mark.line + 1, e.context_mark.column + 1
    opener = _at(lines, n)[col - 1:col] or "["
    closer, what = ("]", "list") if opener == "[" else ("}", "mapping")
    return (n, col, f"this {opener} opens a {what} that is not closed",
            f"end the {what} with {closer} (items are separated by commas)")


_RULES: tuple[Callable[[list[str], yaml.MarkedYAMLError], Explained | None], ...] = (
    _tab, _missing_colon, _indented, _never_closed, _flow_never_closed, _closed_early,
    _misaligned, _cannot_start, _indented_start,
)
