"""`tcg check`: classify files, then check each kind against its ruleset."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from interpreter.check import forbid
from interpreter.check.decks import check_deck
from interpreter.compile.build import build_game
from interpreter.diagnostics import Diagnostic, DiagnosticError, Report, did_you_mean
from interpreter.engine.game import Game
from interpreter.load import files
from interpreter.load.yamlpos import Doc, load_text, load_yaml
from interpreter.run.loading import load_game, validate


def kind_of(doc: Doc) -> str:
    data = doc.data if isinstance(doc.data, dict) else {}
    if "turn" in data or "zones" in data:
        return "ruleset"
    if "forbid" in data and "ruleset" in data:
        return "forbid"
    if "cards" in data and "expect" not in data and "state" not in data:
        return "cards"
    if "expect" in data or "state" in data or "decisions" in data:
        return "scenario"
    return "deck"


def check_paths(paths: list[Path]) -> Report:
    report = Report()
    docs: dict[str, list[Doc]] = {"ruleset": [], "cards": [], "deck": [], "scenario": [], "forbid": []}
    for path in _yaml_files(paths, report):
        try:
            doc = load_yaml(path)
        except DiagnosticError as e:
            report.extend(e.diagnostics)
            report.unusable = True
            continue
        kind = kind_of(doc)
        problems = validate(doc, kind)
        report.extend(problems)
        if not problems:
            docs[kind].append(doc)
    rulesets = {d.data.get("id"): d for d in docs["ruleset"]}
    for doc in docs["ruleset"]:
        _collect(report, lambda doc=doc: build_game(doc, []))
        report.extend(forbid.for_ruleset(doc)[0].diagnostics)
    for doc in docs["forbid"]:
        ruleset_doc = rulesets.get(doc.data["ruleset"]) or _bundled(doc.data["ruleset"], doc, report)
        if ruleset_doc is not None:
            report.extend(forbid.compile_entries(doc, ("forbid",),
                                                 forbid.for_ruleset(ruleset_doc)[1]).diagnostics)
    groups: dict[str, list[Doc]] = {}
    for doc in docs["cards"]:
        groups.setdefault(doc.data["ruleset"], []).append(doc)
    for rid, card_docs in groups.items():
        ruleset_doc = rulesets.get(rid) or _bundled(rid, card_docs[0], report)
        if ruleset_doc is not None:
            _collect(report, lambda r=ruleset_doc, c=card_docs: build_game(r, c))
            report.extend(_forbidden(ruleset_doc, card_docs))
    for doc in docs["deck"]:
        game = _collect(report, lambda doc=doc: load_game(doc.data["ruleset"]))
        if game is not None:
            report.extend(check_deck(game, files.load_deck(doc.path)))
    # a card file can be reached twice (given, and as part of a deck's game): report once
    report.diagnostics = list(dict.fromkeys(report.diagnostics))
    return report


def _forbidden(ruleset_doc: Doc, card_docs: list[Doc]) -> list[Diagnostic]:
    """Card texts that match the ruleset's forbid list (the list's own problems are reported
    with the ruleset)."""
    entries, names, defaults = forbid.for_ruleset(ruleset_doc)
    return forbid.check_cards(entries, names, defaults, card_docs)


def _collect(report: Report, fn):
    try:
        return fn()
    except DiagnosticError as e:
        report.extend(e.diagnostics)
        report.unusable = report.unusable or e.unusable
        return None


def _bundled(rid: str, doc: Doc, report: Report) -> Doc | None:
    try:
        return load_yaml(files.ruleset_path(rid))
    except DiagnosticError:
        report.add(doc.diag(("ruleset",), "NO-RULESET", f"no ruleset {rid!r} to check against",
                            "name a bundled ruleset id or give the ruleset file too"))
        return None


def _yaml_files(paths: list[Path], report: Report) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(p.rglob("*.yaml")) + sorted(p.rglob("*.yml")))
        elif p.exists():
            out.append(p)
        else:
            report.add(Diagnostic(str(p), 1, 1, "IO", "no such file or directory"))
            report.unusable = True
    return out


def explain(entry_id: str, paths: list[Path]) -> str:
    """The forbid entry with that id, from the rulesets among `paths` (default: the bundled
    ones); raises TcgError naming the ids there are when none has it."""
    from interpreter.diagnostics import TcgError

    docs = [d for p in _yaml_files(paths, Report()) for d in _quiet_load(p)] if paths else \
        [d for rid in files.bundled_ids() for d in _quiet_load(files.ruleset_path(rid))]
    known: list[str] = []
    for doc in docs:
        if kind_of(doc) != "ruleset":
            continue
        entries = forbid.for_ruleset(doc)[0]
        entry = entries.get(entry_id)
        if entry is not None:
            return forbid.explain(entry)
        known += [e.id for e in entries.entries]
    raise TcgError(f"no forbid entry {entry_id!r}"
                   + (f"; {did_you_mean(entry_id, known)}" if did_you_mean(entry_id, known) else ""))


def _quiet_load(path: Path) -> list[Doc]:
    try:
        return [load_yaml(path)]
    except DiagnosticError:
        return []


def check_text(path: str, text: str, rulesets: Mapping[str, Doc] | None = None,
               game_for: Callable[[str], Game] = load_game) -> Report:
    """One file checked as `check_paths` checks it, read from `text` (an editor's unsaved
    buffer): the language server's entry. A card set or forbid list is checked against
    `rulesets` (id -> ruleset, e.g. those of the editor's workspace) before the bundled
    ones; a deck against `game_for(its ruleset)`."""
    report = Report()
    doc = _collect(report, lambda: load_text(text, path))
    if doc is None:
        return report
    kind = kind_of(doc)
    report.extend(validate(doc, kind))
    if report.diagnostics:
        return report
    rid = doc.data.get("ruleset")
    ruleset_doc = None
    if kind in ("cards", "forbid"):
        ruleset_doc = (rulesets or {}).get(rid) or _bundled(rid, doc, report)
    if kind == "ruleset":
        _collect(report, lambda: build_game(doc, []))
        report.extend(forbid.for_ruleset(doc)[0].diagnostics)
    elif kind == "forbid" and ruleset_doc is not None:
        names = forbid.for_ruleset(ruleset_doc)[1]
        report.extend(forbid.compile_entries(doc, ("forbid",), names).diagnostics)
    elif kind == "cards" and ruleset_doc is not None:
        _collect(report, lambda: build_game(ruleset_doc, [doc]))
        report.extend(_forbidden(ruleset_doc, [doc]))
    elif kind == "deck":
        game = _collect(report, lambda: game_for(rid))
        if game is not None:
            report.extend(check_deck(game, files.deck_of(doc)))
    return report
