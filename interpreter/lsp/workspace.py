"""What the language server knows of the editor's workspace: its rulesets and card sets,
read from the unsaved buffers first and the disk otherwise, parsed once per text.

A card set is checked against the ruleset of the workspace with its id (else the bundled
one); a deck against the game built from that ruleset and its card sets. The game is built
again only when one of those files changes.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from interpreter.check.files import kind_of
from interpreter.compile.build import build_game
from interpreter.compile.names import Names, ruleset_names
from interpreter.diagnostics import DiagnosticError
from interpreter.engine.game import Game
from interpreter.load import files
from interpreter.load.yamlpos import MAX_BYTES, Doc, load_text, load_yaml
from interpreter.lsp.incremental import CardSets
from interpreter.run.loading import load_game, validate

_SKIP = {".git", ".venv", "venv", "node_modules", "out", "__pycache__", ".ci-venv"}
_RULESET = re.compile(r"^(?:turn|zones):", re.M)  # (see check.files.kind_of)
_TOP_KEY = re.compile(r"^([^\s#:'\"-][^:#]*):", re.M)
_RULESET_KEY = re.compile(r"^(?:ruleset|id):[ \t]*[\"']?([^\s\"'#]+)", re.M)
MAX_FILES = 5_000  # a workspace that is a home folder must not be read whole
MAX_ENTRIES = 100_000  # names looked at in the walk (a workspace of `/` ends)


@dataclass(frozen=True)
class Entry:
    """A parsed file: its text (to tell when it changed), kind and ruleset (an id, or the
    absolute path of a ruleset file named by a path relative to this file)."""

    text: str
    doc: Doc | None  # None when the text does not parse, or is a ruleset its schema refuses
    kind: str
    rid: str | None
    stamp: tuple[int, int] | None = None  # a file's (mtime, size) when read from disk


class Workspace:
    def __init__(self, roots: Iterable[Path] = ()) -> None:
        self.roots = [Path(r) for r in roots]
        self.buffers: dict[str, str] = {}  # path -> the editor's unsaved text
        self._entries: dict[str, Entry] = {}
        self._paths: list[str] | None = None  # the workspace's ruleset files, found on first use
        self._ids: dict[str, str | None] = {}  # their ids, as the walk read them
        self._games: dict[tuple[str, tuple[str, ...]], tuple[tuple, Game | DiagnosticError]] = {}
        # each ruleset file's last text its schema accepts: its names stay known while a
        # change is half typed
        self._good: dict[str, Doc] = {}
        self.card_sets = CardSets()  # long card sets, checked a card at a time

    # --- what the editor tells us -------------------------------------------------------
    def set_buffer(self, path: str, text: str) -> None:
        self.buffers[path] = text

    def drop_buffer(self, path: str) -> None:
        """A file closed in the editor: its text and what was made of it are dropped (read
        from disk again when another file needs it)."""
        self.buffers.pop(path, None)
        self._entries.pop(path, None)
        self.card_sets.drop(path)
        if path not in (self._paths or ()):
            self._good.pop(path, None)
        self._games = {k: v for k, v in self._games.items() if path not in k[1]}

    def files_changed(self) -> None:
        """Files were created or deleted on disk: look for them again."""
        self._paths = None

    # --- files ----------------------------------------------------------------------------
    def entry(self, path: str) -> Entry | None:
        text, stamp = self.buffers.get(path), None
        old = self._entries.get(path)
        if text is None:
            try:
                st = os.stat(path)
                stamp = (st.st_mtime_ns, st.st_size)
                if old is not None and old.stamp == stamp:
                    return old
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
                    return None  # (a FIFO would block, a huge file fill memory)
                text = Path(path).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                return None
        if old is not None and old.text == text:
            return old
        try:
            doc: Doc | None = load_text(text, path)
        except DiagnosticError:
            doc = None
        # a text that does not parse (yet) is classified by its top-level keys
        kind = kind_of(doc or Doc(path, text, dict.fromkeys(_TOP_KEY.findall(text))))
        if doc is not None and kind == "ruleset":
            if validate(doc, "ruleset"):
                doc = None  # its name tables are read without further checks
            else:
                self._good[path] = doc
        entry = self._entries[path] = Entry(text, doc, kind, _resolved(path, ruleset_id(text)), stamp)
        return entry

    def rid_of(self, path: str, text: str) -> str | None:
        """The ruleset `entry(path).rid` would give for this text, read without parsing it."""
        return _resolved(path, ruleset_id(text))

    def ruleset_paths(self) -> list[str]:
        """The workspace's ruleset files (those open, and on disk those whose text has a
        ruleset's top-level keys), found once and again after `files_changed`."""
        if self._paths is None:
            found: list[str] = []
            self._ids = {}
            for root in self.roots:
                for p in _yaml_under(root, MAX_FILES - len(found)):
                    head = _head(p)
                    if _RULESET.search(head):
                        found.append(p)
                        self._ids[p] = ruleset_id(head)
            self._paths = found
        return sorted({*self._paths, *(p for p, t in self.buffers.items() if _RULESET.search(t))})

    def _conventional(self, rid: str) -> list[str]:
        """A workspace folder's rulesets/<rid>.yaml, if it is that ruleset: it would win over
        the others the search finds, so the first check need not wait for the search."""
        for root in self.roots:
            path = root / "rulesets" / f"{rid}.yaml"
            if _regular(str(path)) is not None:
                text = self.buffers.get(str(path.resolve()))
                if ruleset_id(text if text is not None else _head(str(path))) == rid:
                    return [str(path.resolve())]
        return []

    def _id(self, path: str) -> str | None:
        """The id a ruleset file's text gives (the editor's text, else the walk's look)."""
        text = self.buffers.get(path)
        return ruleset_id(text) if text is not None else self._ids.get(path)

    # --- rulesets, cards, games -------------------------------------------------------------
    def rulesets(self, rid: str | None = None) -> dict[str, Doc]:
        """id -> ruleset, of the workspace's rulesets (only those whose text names `rid`
        when given: the others are not parsed); when two share an id, the one named
        rulesets/<id>.yaml wins (a test's stand-in must not hide the game)."""
        paths = self._conventional(rid) if rid is not None else []
        if not paths:
            paths = [p for p in self.ruleset_paths() if rid is None or self._id(p) == rid]
        found = [(e.rid, self._good[p]) for p in paths
                 if (e := self.entry(p)) is not None and e.kind == "ruleset" and e.rid and p in self._good]
        found.sort(key=lambda f: Path(f[1].path).parts[-2:] != ("rulesets", f"{f[0]}.yaml"))
        out: dict[str, Doc] = {}
        for rid, doc in found:
            out.setdefault(rid, doc)
        return out

    def ruleset(self, rid: str | None) -> Doc | None:
        if not rid:
            return None
        found = self.rulesets(rid).get(rid)
        if found is not None:
            return found
        try:
            path = files.ruleset_path(rid)
        except DiagnosticError:
            return None
        self.entry(str(path.resolve()))
        return self._good.get(str(path.resolve()))

    def card_docs(self, rid: str) -> list[Doc]:
        """The card sets of `rid`: those in cards/<id>/ beside its rulesets folder (as
        `tcg play` finds them), and the open ones that name it."""
        ruleset = self.ruleset(rid)
        own = ruleset.data.get("id", rid) if ruleset is not None else rid
        paths = {str(p.resolve()) for p in files.card_paths(own, Path(ruleset.path))} if ruleset else set()
        paths |= {p for p in self.buffers if (e := self.entry(p)) is not None and e.rid in (rid, own)}
        entries = (self.entry(p) for p in sorted(paths))
        return [e.doc for e in entries if e is not None and e.doc is not None and e.kind == "cards"]

    def names(self, rid: str | None) -> Names | None:
        ruleset = self.ruleset(rid)
        return ruleset_names(ruleset.data) if ruleset is not None else None

    def game(self, rid: str, extra: tuple[str, ...] = ()) -> Game:
        """The game of `rid` with all its card sets and the `extra` ones (a scenario's);
        raises DiagnosticError. Built again only when one of those files changed (a failure
        too: a deck being typed must not rebuild a broken game at every keystroke)."""
        ruleset = self.ruleset(rid)
        if ruleset is None:
            return load_game(rid, extra)
        cards = self.card_docs(rid)
        have = {d.path for d in cards}
        cards += [self._card_set(p) for p in extra if str(Path(p).resolve()) not in have]
        key = (ruleset.text, *(d.text for d in cards))
        cached = self._games.get((rid, extra))
        if cached is None or cached[0] != key:
            try:
                built: Game | DiagnosticError = build_game(ruleset, cards)
            except DiagnosticError as e:
                built = e
            cached = self._games[rid, extra] = (key, built)
        if isinstance(cached[1], DiagnosticError):
            raise cached[1]
        return cached[1]

    def _card_set(self, path: str) -> Doc:
        """A card set named by a scenario: the editor's text, else the file (raises
        DiagnosticError when it cannot be read or is no card set its schema accepts)."""
        entry = self.entry(str(Path(path).resolve()))
        doc = entry.doc if entry is not None and entry.doc is not None else load_yaml(path)
        problems = validate(doc, "cards")
        if problems:
            raise DiagnosticError(problems)
        return doc

    def cards_named(self, rid: str | None) -> dict[str, tuple[Doc, int]]:
        """Card name -> (its card set, its index there), for completion and definitions."""
        out: dict[str, tuple[Doc, int]] = {}
        for doc in self.card_docs(rid) if rid else ():
            for i, card in enumerate(doc.data.get("cards") or ()):
                if isinstance(card, dict) and isinstance(card.get("name"), str):
                    out.setdefault(card["name"], (doc, i))
        return out


def is_game_file(text: str) -> bool:
    """Whether a YAML text is one of ours: it names its ruleset, lists cards, or is a
    ruleset. An editor hands the server every YAML file (CI workflows, configs...): those
    are left alone."""
    return bool(re.search(r"^(?:ruleset|cards):", text, re.M)) or (
        bool(re.search(r"^id:", text, re.M)) and bool(_RULESET.search(text)))


def ruleset_id(text: str) -> str | None:
    """The ruleset a file belongs to (`ruleset:`, or a ruleset's own `id:`), read from the
    text so that it is known while the file does not parse."""
    match = _RULESET_KEY.search(text)
    return match.group(1) if match else None


def _resolved(path: str, rid: str | None) -> str | None:
    """A ruleset named by a path is read relative to the file that names it."""
    if rid is None or not rid.endswith((".yaml", ".yml")):
        return rid
    candidate = (Path(path).parent / rid).resolve()
    return str(candidate) if candidate.is_file() else rid


def _yaml_under(root: Path, limit: int) -> list[str]:
    """The YAML files under `root` (at most `limit`, after looking at MAX_ENTRIES names):
    regular files of at most MAX_BYTES, inside `root`. Symbolic links to folders are not
    followed (no cycles, no way out); one to a file is taken if the file is inside `root`."""
    out: list[str] = []
    stack = [root]
    seen = 0
    inside = root.resolve()
    while stack and len(out) < limit and seen < MAX_ENTRIES:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                children = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        seen += len(children)
        for child in children:
            if child.is_dir(follow_symlinks=False):
                if child.name not in _SKIP and not child.name.startswith("."):
                    stack.append(Path(child.path))
            elif child.name.endswith((".yaml", ".yml")) and (path := _regular(child.path)) \
                    and path.is_relative_to(inside):
                out.append(str(path))
    return out[:limit]


def _regular(path: str) -> Path | None:
    """The resolved path of a regular file of at most MAX_BYTES (not a FIFO, device, or a
    file too large to check), else None."""
    try:
        st = os.stat(path)
        resolved = Path(path).resolve()
    except (OSError, RuntimeError):
        return None
    return resolved if stat.S_ISREG(st.st_mode) and st.st_size <= MAX_BYTES else None


def _head(path: str) -> str:
    """The start of a file, where a ruleset's top-level keys are."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(200_000)
    except OSError:
        return ""
