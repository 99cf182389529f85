"""Forbidden-effect lists: load a ruleset's `forbid` entries, compile their queries against
the ruleset's names, and report every card text that matches one, where it is written.

A query is `per card|ability|effect: CONDITION` (grammar/forbid.lark), compiled once by
forbid_compile into closures over the facts of forbid_facts; nothing here knows any game or
any entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from interpreter.check import forbid_facts as F
from interpreter.check.forbid_compile import Ctx, compile_query
from interpreter.check.forbid_query import Query, parse_query
from interpreter.compile.names import Names
from interpreter.compile.texts import get_at
from interpreter.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from interpreter.lang.parser import ParseError, normalize
from interpreter.load import confine
from interpreter.load.yamlpos import Doc, load_yaml


@dataclass
class Entry:
    id: str
    sentence: str
    explain: str
    query_text: str
    enforced: str
    doc: Doc
    at: tuple
    query: Query | None = None
    run: Callable | None = None
    needs: frozenset[str] | None = None  # the card has none of these kinds: the query is false
    memo: dict | None = None  # a query about the card's properties only: result per values


@dataclass
class ForbidList:
    entries: list[Entry]
    diagnostics: list[Diagnostic]

    def get(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)


# ---------- loading ----------
def load_forbid(ruleset_doc: Doc, names: Names) -> ForbidList:
    """The ruleset's forbid list (inline or its own file), every query compiled; problems in
    it are diagnostics of the list, positioned in the file that holds it."""
    spec = ruleset_doc.data.get("forbid") if isinstance(ruleset_doc.data, dict) else None
    if spec is None:
        return ForbidList([], [])
    if isinstance(spec, str):
        try:
            path = confine.named_file(ruleset_doc, ("forbid",), spec, Path(ruleset_doc.path).parent)
        except DiagnosticError as e:
            return ForbidList([], e.diagnostics)
        try:
            doc = load_yaml(path)
        except DiagnosticError as e:
            where = ruleset_doc.diag(("forbid",), "IO", f"cannot load the forbid list {spec!r}",
                                     "give a path relative to the ruleset file")
            return ForbidList([], [where, *e.diagnostics])
        from interpreter.load.schema import validate

        problems = validate(doc, "forbid")
        if problems:
            return ForbidList([], problems)
        return compile_entries(doc, ("forbid",), names)
    return compile_entries(ruleset_doc, ("forbid",), names)


def compile_entries(doc: Doc, at: tuple, names: Names) -> ForbidList:
    out = ForbidList([], [])
    raw = doc.data
    for key in at:
        raw = raw[key]
    seen: dict[str, tuple] = {}
    for i, item in enumerate(raw or ()):
        where = (*at, i)
        entry = Entry(item["id"], item["sentence"], item["explain"], item.get("query", ""),
                      item.get("enforced", ""), doc, where)
        if entry.id in seen:
            out.diagnostics.append(doc.diag(
                (*where, "id"), "DUPLICATE-ID", f"forbid entry id {entry.id!r} is used twice",
                "give each entry its own id").with_related(
                    doc.related((*seen[entry.id], "id"), "first used here")))
        seen.setdefault(entry.id, where)
        if entry.query_text:
            _compile_entry(entry, names, out.diagnostics)
        out.entries.append(entry)
    return out


def _compile_entry(entry: Entry, names: Names, diags: list[Diagnostic]) -> None:
    at = (*entry.at, "query")
    try:
        entry.query = parse_query(entry.query_text)
    except ParseError as e:
        line, col = entry.doc.text_pos(at, e.line, e.col)
        diags.append(entry.doc.diag_at(line, col, e.code, f"forbid query: {e.message}", e.hint))
        return
    compiled = compile_query(entry.query, names)
    for span, message, hint, code in compiled.problems:
        line, col = entry.doc.text_pos(at, span.line, span.col)
        diags.append(entry.doc.diag_at(line, col, code, message, hint))
    entry.run, entry.needs = compiled.run, compiled.needs
    if compiled.properties_only:
        entry.memo = {}


# ---------- checking cards ----------
def for_ruleset(ruleset_doc: Doc) -> tuple[ForbidList, Names, dict[str, Any]]:
    """A ruleset's forbid list with what reading its cards needs (names, property defaults)."""
    from interpreter.compile.names import ruleset_names

    raw = ruleset_doc.data if isinstance(ruleset_doc.data, dict) else {}
    names = ruleset_names(raw)
    defaults = {p: (d or {}).get("default") for p, d in (raw.get("properties") or {}).items()}
    return load_forbid(ruleset_doc, names), names, defaults

def read_cards(doc: Doc, names: Names, defaults: dict[str, Any]) -> list[F.Card]:
    out = []
    for i, raw in enumerate(doc.data.get("cards") or ()):
        if isinstance(raw, dict):
            out.append(F.read_card(raw, ("cards", i), names, defaults))
    return out


def violations(entries: list[Entry], card: F.Card) -> list[tuple[Entry, tuple]]:
    """(entry, where) for every unit of every entry the card breaks. A unit without any of
    the kinds an entry needs is skipped without running the query."""
    out = []
    ctx = Ctx(card, [], [])
    for entry in entries:
        needs = entry.needs
        if entry.run is None or entry.query is None or (needs is not None and not needs & card.kinds):
            continue
        scope = entry.query.scope
        if entry.memo is not None:
            key = tuple(card.props.items())
            if key not in entry.memo:
                ctx.hits, ctx.props = [], []
                hit = entry.run(ctx)
                entry.memo[key] = (ctx.props[-1] if ctx.props else ("name",)) if hit else None
            if entry.memo[key] is not None:
                out.append((entry, ("prop", (*card.at, *entry.memo[key][-1:]))))
            continue
        if scope == "card":
            units = [(card.abilities, card.effects)]
        elif scope == "ability":
            units = [([a], a.effects) for a in card.abilities if needs is None or needs & a.kinds]
        else:
            units = [([e.ability], [e]) for e in card.effects
                     if needs is None or e.kind in needs or e.ability.kind in needs
                     or not needs.isdisjoint(e.done_kinds)]
        for abilities, effects in units:
            ctx.abilities, ctx.effects, ctx.node = abilities, effects, None
            ctx.ability = abilities[0] if scope != "card" else None
            ctx.hits, ctx.props = [], []
            if entry.run(ctx):
                where = ctx.hits[0] if ctx.hits else \
                    (("prop", ctx.props[-1]) if ctx.props else ("prop", (*card.at, "name")))
                out.append((entry, where))
    return out


def check_cards(forbid: ForbidList, names: Names, defaults: dict[str, Any],
                docs: list[Doc]) -> list[Diagnostic]:
    """Every card text that breaks an entry; a card's `waivers` turn its breaches of the
    entries they name into waived diagnostics (reported, not problems)."""
    out = []
    known = [e.id for e in forbid.entries]
    for doc in docs:
        found = []
        for card in read_cards(doc, names, defaults):
            waivers = _waivers(doc, card.at)
            broken = violations(forbid.entries, card)
            for entry, where in broken:
                d = _diagnostic(doc, card, entry, where)
                reason = waivers.get(entry.id, (None, ""))[1]
                found.append(replace(d, waived=reason) if reason else d)
            found += _waiver_problems(doc, waivers, known, {e.id for e, _ in broken})
        out += sorted(found, key=lambda d: (d.line, d.col))
    return out


def _waivers(doc: Doc, at: tuple) -> dict[str, tuple[tuple, str]]:
    """A card's waivers: forbid id -> (its place, its reason)."""
    raw = get_at(doc.data, (*at, "waivers"))
    out = {}
    for i, w in enumerate(raw if isinstance(raw, list) else ()):
        if isinstance(w, dict) and isinstance(w.get("forbid"), str):
            out[w["forbid"]] = ((*at, "waivers", i, "forbid"), str(w.get("reason") or ""))
    return out


def _waiver_problems(doc: Doc, waivers: dict, known: list[str], broken: set[str]
                     ) -> list[Diagnostic]:
    """A waiver of an entry the list does not have is an error (a typo would exempt
    nothing); one the card does not need is a warning (it hides a future breach)."""
    out = []
    for entry_id, (at, _reason) in waivers.items():
        if entry_id not in known:
            out.append(doc.diag(at, "UNKNOWN-WAIVER", f"no forbid entry {entry_id!r} to waive",
                                did_you_mean(entry_id, known)))
        elif entry_id not in broken:
            out.append(replace(doc.diag(at, "UNUSED-WAIVER",
                                        f"the card does not break {entry_id}: nothing to waive",
                                        "remove the waiver"), severity="warning"))
    return out


def _diagnostic(doc: Doc, card: F.Card, entry: Entry, where: tuple) -> Diagnostic:
    if where[0] == "prop":
        line, col = doc.pos(where[1])
        end = col + len(str(get_at(doc.data, where[1]))) + (doc.line_text(line)[col - 1:col] in "\"'")
    else:
        at, span, whole = where
        line, col = doc.text_pos(at, span.line, span.col)
        end = _end_col(doc, at, span, line, whole)
    d = doc.diag_at(line, col, entry.id, f"{card.name}: {entry.explain}",
                    f"tcg check --explain {entry.id}", entry.sentence)
    return replace(d, end_col=end, explanation=entry.explain)


def _end_col(doc: Doc, at: tuple, span, line: int, whole: bool) -> int:
    """Where the offending node ends: a call at its closing parenthesis, a statement or an
    ability where it ends (on the line it starts on)."""
    text = normalize(get_at(doc.data, at))
    lines = text.split("\n")
    start = sum(len(x) + 1 for x in lines[:span.line - 1]) + span.col - 1
    stop = _extent(text, start, not whole)
    stop_line = text.count("\n", 0, stop) + 1
    if stop_line != span.line:
        return len(doc.line_text(line)) + 1
    end_line, end_col = doc.text_pos(at, stop_line, stop - (text.rfind("\n", 0, stop) + 1) + 1)
    return end_col if end_line == line else len(doc.line_text(line)) + 1


_CALL = re.compile(r"[^\W\d]\w*\s*\(")


def _extent(text: str, i: int, call: bool) -> int:
    depth, j = 0, i
    call = call and _CALL.match(text, i) is not None
    while j < len(text):
        ch = text[j]
        if ch in "\"「":
            j = text.find("」" if ch == "「" else '"', j + 1)
            if j < 0:
                return len(text)
        elif ch in "({":
            depth += 1
        elif ch == ")" and depth == 0 and not call:
            pass  # a modifier's span starts inside `(target)`: its parenthesis closes here
        elif ch in ")}":
            depth -= 1
            if depth < 0 or (call and depth == 0):
                return j + (depth == 0)
        elif ch == ";" and depth == 0:
            break
        j += 1
    return len(text[:j].rstrip()) if j <= len(text) else len(text)


def explain(entry: Entry) -> str:
    line, col = entry.doc.pos(entry.at)
    lines = [f"{entry.id}  ({_shown(entry.doc.path)}:{line}:{col})", f"  rule:      {entry.sentence}",
             f"  explained: {entry.explain}"]
    if entry.query_text:
        lines.append(f"  query:     {entry.query_text}")
    if entry.enforced:
        lines.append(f"  enforced:  {entry.enforced}")
    return "\n".join(lines)


def _shown(path: str) -> str:
    """A path relative to the working directory when it is below it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path
