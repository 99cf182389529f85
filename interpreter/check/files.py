"""`tcg check`: classify files, then check each kind against its ruleset."""

from __future__ import annotations

import bisect
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.check import forbid, limits
from interpreter.check.decks import check_deck, check_deck_names
from interpreter.check.scenarios import check_scenario
from interpreter.compile.build import build_game
from interpreter.diagnostics import Diagnostic, DiagnosticError, Report, TcgError, did_you_mean
from interpreter.engine.game import Game
from interpreter.load import confine, files, options
from interpreter.load.yamlpos import Doc, load_text, load_yaml
from interpreter.run.loading import chosen_options, load_game, validate


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
    """Every problem of the files (and the files in the folders) given."""
    report = Report()
    loaded = []
    for path in _yaml_files(paths, report):
        try:
            loaded.append(load_yaml(path))
        except DiagnosticError as e:
            report.extend(e.diagnostics)
            report.unusable = True
    return check_documents(loaded, report)


GameProvider = Callable[[str, tuple[str, ...]], Game]


@dataclass(frozen=True)
class Known:
    """What an editor's workspace lends a check, without it being checked itself: rulesets
    (by the name a file gives them: an id or a path as written), looked up before the
    bundled ones, and `game(ruleset, extra card sets)`, the compiled game a deck or
    scenario is checked against (a ruleset named by a path comes absolute; raises
    DiagnosticError). The editor caches its games; `tcg check` builds them as it goes.
    `cards`: names of cards a card set's texts may name besides its own (the editor checks a
    long card set one card at a time, with the names of the others)."""

    rulesets: Mapping[str, Doc] = field(default_factory=dict)
    game: GameProvider | None = None
    cards: frozenset[str] = frozenset()


def check_documents(loaded: list[Doc], report: Report | None = None,
                    known: Known = Known()) -> Report:
    """Every problem of documents already loaded (an editor's unsaved texts, through
    `load_text`), checked together: a deck or scenario against a ruleset among them, card
    sets with their ruleset. Files they refer to are read from disk, or lent by `known`."""
    report = report or Report()
    docs: dict[str, list[Doc]] = {"ruleset": [], "cards": [], "deck": [], "scenario": [], "forbid": []}
    flawed: set[int] = set()  # documents checked only in the parts that can be
    for doc in loaded:
        kind = kind_of(doc)
        problems = validate(doc, kind)
        report.extend(problems)
        usable = doc if not problems else _usable_part(doc, kind, problems)
        if usable is not None:
            docs[kind].append(usable)
            if problems:
                flawed.add(id(usable))
    rulesets = {**known.rulesets, **{d.data.get("id"): d for d in docs["ruleset"]}}
    for doc in docs["ruleset"]:
        _collect(report, lambda doc=doc: build_game(doc, [], known_cards=files.card_names_beside(doc)))
        _check_options(report, doc)
        report.extend(limits.ruleset_warnings(doc))
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
            # (a scenario's own card set may name the game's cards: create, transform)
            names = known.cards | files.card_names_beside(ruleset_doc)
            _collect(report, lambda r=ruleset_doc, c=card_docs, n=names: build_game(r, c, known_cards=n))
            report.extend(_forbidden(ruleset_doc, card_docs))
    finder = GameFinder(report, rulesets, groups, known.game)
    for doc in docs["deck"]:
        deck = _collect(report, lambda doc=doc: files.deck_of(doc))  # (too large: refused)
        game = finder.game_for(doc) if deck is not None else None
        if deck is not None and game is not None:
            check = check_deck_names if id(doc) in flawed else check_deck
            report.extend(check(game, deck))
    for doc in docs["scenario"]:
        extra = _scenario_cards(report, doc)
        game = finder.game_for(doc, extra) if extra is not None else None
        if game is not None:
            report.extend(check_scenario(game, doc))
            report.extend(limits.scenario_warnings(doc))
    # a card file can be reached twice (given, and as part of a deck's game): report once
    report.diagnostics = list(dict.fromkeys(report.diagnostics))
    return report


def _scenario_cards(report: Report, doc: Doc) -> tuple[str, ...] | None:
    """The card sets a scenario names (inside its game), or None when one is outside."""
    here = Path(doc.path).parent
    try:
        return tuple(str(confine.named_file(doc, ("cards", i), str(c), here))
                     for i, c in enumerate(doc.data.get("cards") or ()))
    except DiagnosticError as e:
        report.extend(e.diagnostics)
        return None


class GameFinder:
    """The game a deck or scenario is for, from its `ruleset:` — a path relative to the
    file, a ruleset given on the command line (by id; with the card sets given for it and
    those beside it), or a bundled id — compiled once per ruleset and extra card sets, or
    asked of `provider` (an editor's cache of games) once the ruleset is found."""

    def __init__(self, report: Report, rulesets: dict[str, Doc],
                 cards: dict[str, list[Doc]], provider: GameProvider | None = None) -> None:
        self.report, self.rulesets, self.cards = report, rulesets, cards
        self.provider = provider
        self.built: dict[tuple, Game | None] = {}

    def game_for(self, doc: Doc, extra: tuple[str, ...] = ()) -> Game | None:
        """(A scenario's game with the ruleset options it names.)"""
        spec = str(doc.data["ruleset"])
        here = Path(doc.path).parent
        wanted = doc.data.get("options") or {}
        try:  # (a path must stay inside the game: load/confine.py)
            if (here / spec).is_file():
                path = str(confine.named_file(doc, ("ruleset",), spec, here))
                return self._load(path, extra, chosen_options(path, wanted))
            if spec in self.rulesets:
                return self._given(spec, extra, options.normalize(self.rulesets[spec].data, wanted))
            if spec in files.bundled_ids():
                return self._load(spec, extra, chosen_options(spec, wanted))
            if Path(spec).is_file():
                path = str(confine.named_file(doc, ("ruleset",), spec, Path.cwd()))
                return self._load(path, extra, chosen_options(path, wanted))
        except DiagnosticError as e:
            self.report.extend(e.diagnostics)
            return None
        except TcgError as e:  # an option or choice the ruleset does not have
            self.report.add(doc.key_diag(("options",), "OPTION", str(e)))
            return None
        given = ", ".join(self.rulesets) or "none"
        self.report.add(doc.key_diag(
            ("ruleset",), "NO-RULESET",
            f"no ruleset {spec!r}: not a file beside {Path(doc.path).name}, nor a ruleset "
            f"given to check (given: {given}), nor a bundled id",
            did_you_mean(spec, [*self.rulesets, *files.bundled_ids()])
            or "give the ruleset file too, or write its path relative to this file"))
        return None

    def _load(self, spec: str, extra: tuple[str, ...], chosen: options.Chosen = ()) -> Game | None:
        key = ("load", spec, extra, chosen)
        if key not in self.built:
            provider = self.provider
            build = (lambda: provider(spec, extra)) if provider is not None and not chosen \
                else (lambda: load_game(spec, extra, chosen=chosen))
            self.built[key] = _collect(self.report, build)
        return self.built[key]

    def _given(self, rid: str, extra: tuple[str, ...], chosen: options.Chosen = ()) -> Game | None:
        if self.provider is not None:
            return self._load(rid, extra, chosen)
        key = ("given", rid, extra, chosen)
        if key not in self.built:
            ruleset_doc = self.rulesets[rid]
            given: dict[str, Doc | None] = {str(Path(d.path).resolve()): d
                                            for d in self.cards.get(rid, ())}
            for p in [*files.card_paths(rid, Path(ruleset_doc.path)), *map(Path, extra)]:
                if str(p.resolve()) not in given:
                    given[str(p.resolve())] = self._card_set(p)
            card_docs = [d for d in given.values() if d is not None]
            self.built[key] = _collect(self.report, lambda: build_game(
                options.apply(ruleset_doc, chosen), card_docs))
        return self.built[key]

    def _card_set(self, path: Path) -> Doc | None:
        doc = _collect(self.report, lambda: load_yaml(path))
        problems = validate(doc, "cards") if doc is not None else []
        self.report.extend(problems)
        return None if problems else doc


# a ruleset's keys nothing else names: one with a schema problem is left out and the rest of
# the ruleset checked, so the first problem does not hide the others
_RULESET_LEAVES = frozenset({"name", "source", "language", "players", "resolution", "timing",
                             "simultaneous_loss", "triggers", "modifier_order", "limits",
                             "card_stats", "heuristic", "phrases", "deck", "forbid"})


def _usable_part(doc: Doc, kind: str, problems: list[Diagnostic]) -> Doc | None:
    """What can still be checked of a file with structural problems, so that they do not
    hide the name errors of its other parts: a card set without the cards they are in
    (None in their place, so every other node keeps its path); a scenario without the
    top-level parts they are in; a deck as it is (only its names are checked); a ruleset
    without the keys they are in, when nothing else names those. None when a problem is
    where nothing can go on (the `ruleset` key, a ruleset's zones or verbs, a forbid list)."""
    if kind == "cards" and isinstance(doc.data.get("cards"), list):
        bad = _parts(doc, ("cards",), range(len(doc.data["cards"])), problems)
        if bad is None:
            return None
        cards = [None if i in bad else c for i, c in enumerate(doc.data["cards"])]
        return dataclasses.replace(doc, data={**doc.data, "cards": cards})
    if kind == "ruleset" and isinstance(doc.data, dict):
        bad = _parts(doc, (), list(doc.data), problems)
        if bad is None or not bad <= _RULESET_LEAVES:
            return None  # (a bad zone, verb or action would make every text that names it wrong)
        return dataclasses.replace(doc, data={k: v for k, v in doc.data.items() if k not in bad})
    if kind in ("scenario", "deck") and isinstance(doc.data, dict) \
            and isinstance(doc.data.get("ruleset"), str):
        parts = [k for k in doc.data if k != "ruleset"]
        bad = _parts(doc, (), parts, problems)
        if bad is None or kind == "deck":
            return None if bad is None else doc
        return dataclasses.replace(doc, data={k: v for k, v in doc.data.items() if k not in bad})
    return None


def _parts(doc: Doc, at: tuple, parts, problems: list[Diagnostic]) -> set | None:
    """Which of the parts (items or keys of the node at `at`) the problems lie in, by line;
    None when one lies outside them all."""
    parts = sorted(parts, key=lambda p: doc.key_pos((*at, p))[0])
    starts = [doc.key_pos((*at, p))[0] for p in parts]
    bad = set()
    for d in problems:
        i = bisect.bisect_right(starts, d.line) - 1
        if i < 0 or d.path != doc.path:
            return None
        bad.add(parts[i])
    return bad


def _forbidden(ruleset_doc: Doc, card_docs: list[Doc]) -> list[Diagnostic]:
    """Card texts that match the ruleset's forbid list (the list's own problems are reported
    with the ruleset)."""
    entries, names, defaults = forbid.for_ruleset(ruleset_doc)
    return forbid.check_cards(entries, names, defaults, card_docs)


def _check_options(report: Report, doc: Doc) -> None:
    """A ruleset's options name places it has, and each choice compiles (a reading no run
    has picked yet is checked too)."""
    problems = options.check(doc)
    report.extend(problems)
    if problems:
        return
    for name, spec in options.declared(doc.data).items():
        for choice in spec["choices"]:
            if choice != spec["default"]:
                _collect(report, lambda c=((name, choice),): build_game(
                    options.apply(doc, c), [], known_cards=files.card_names_beside(doc)))


def _collect(report: Report, fn):
    try:
        value = fn()
        report.extend(getattr(value, "warnings", ()))  # (a game built with warnings)
        return value
    except DiagnosticError as e:
        report.extend(e.diagnostics)
        report.unusable = report.unusable or e.unusable
        return None


def _bundled(rid: str, doc: Doc, report: Report) -> Doc | None:
    spec = _collect(report, lambda: confine.ruleset_spec(doc))
    if spec is None:
        return None
    try:
        return load_yaml(files.ruleset_path(spec))
    except DiagnosticError:
        report.add(doc.diag(("ruleset",), "NO-RULESET", f"no ruleset {rid!r} to check against",
                            "name a bundled ruleset id or give the ruleset file too"))
        return None


def _yaml_files(paths: list[Path], report: Report) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            confine.allow(p)  # a folder given: its files may be named from anywhere
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


def check_text(path: str, text: str, known: Known = Known()) -> Report:
    """One file checked as `check_paths` checks it, read from `text` (an editor's unsaved
    buffer): the language server's entry."""
    report = Report()
    doc = _collect(report, lambda: load_text(text, path))
    return check_documents([doc], report, known) if doc is not None else report
