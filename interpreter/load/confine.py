"""Files named inside rule files stay inside the game.

A card repository's CI runs `tcg check` on files from strangers: a forbid list, a deck's
or a card set's `ruleset:`, a scenario's `cards:` must not open `/etc/passwd` and quote
it in a diagnostic. A path named in a file must resolve (links followed) inside that
file's *game folder* — the nearest folder above it holding `.git`, else the nearest
holding a `rulesets/` folder, else the current folder if the file is inside it, else its
own folder — or inside a folder given on the
command line, or inside the bundled games.
"""

from __future__ import annotations

from pathlib import Path

from interpreter.diagnostics import DiagnosticError
from interpreter.load.yamlpos import Doc, Path_

BUNDLED = Path(__file__).resolve().parents[2]
_allowed: set[Path] = set()


def allow(folder: Path) -> None:
    """A folder given on the command line: files there may be named from anywhere."""
    _allowed.add(folder.resolve())


def game_folder(file: str | Path) -> Path:
    """The nearest folder above `file` holding `.git`, else one holding `rulesets/`, else
    the current folder when `file` is inside it (a game kept in a plain folder, checked
    from there), else the file's own folder."""
    here = Path(file).resolve().parent
    marked = project_folder(here)
    if marked is not None:
        return marked
    cwd = Path.cwd().resolve()
    return cwd if here.is_relative_to(cwd) else here


def project_folder(here: Path) -> Path | None:
    """The nearest folder at or above `here` holding `.git`, else one holding `rulesets/`."""
    here = here.resolve()
    for marker in (".git", "rulesets"):
        for folder in (here, *here.parents):
            if (folder / marker).exists():
                return folder
    return None


def inside(path: Path, home: Path) -> bool:
    """Whether `path` (links followed) lies inside `home`, the bundled games or a folder given
    on the command line."""
    resolved = path.resolve()
    return any(resolved.is_relative_to(root) for root in (home.resolve(), BUNDLED, *_allowed))


def named_file(doc: Doc, at: Path_, spec: str, base: Path) -> Path:
    """The file `spec` (relative to `base`) that `doc` names at `at`; a DiagnosticError
    positioned there when it lies outside every allowed folder."""
    path = (base / spec).resolve()
    home = game_folder(doc.path)
    if not inside(path, home):
        raise DiagnosticError([doc.diag(
            at, "OUTSIDE-GAME", f"{spec!r} is outside the game's folder {home}",
            "name files inside the game's folder, or give their folder on the command line")])
    return path


def ruleset_spec(doc: Doc, at: Path_ = ("ruleset",)) -> str | None:
    """The ruleset a file names: a bundled id as it is, a path (read relative to the current
    folder, as `tcg play` reads one) only inside the allowed folders."""
    spec = doc.data[at[0]] if isinstance(doc.data, dict) else None
    if not isinstance(spec, str) or not Path(spec).exists():
        return spec
    return str(named_file(doc, at, spec, Path.cwd()))
