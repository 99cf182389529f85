"""Output files that lose nothing: checked before a run, replaced whole, never an input.

A log or result file is checked before any work starts (its folder exists, it is not a
folder, not one of the run's own input files), and a file that replaces an earlier one
is written beside it under a temporary name and renamed into place only once complete,
so a failure half-way leaves the earlier file as it was. Every OSError becomes a TcgError
that names the file.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Protocol

from interpreter.diagnostics import TcgError


class TextOut(Protocol):
    """Where a log is written: an open text file, an Output, a log being checked (--resume)."""

    @property
    def name(self) -> str: ...

    def write(self, text: str, /) -> object: ...

    def flush(self) -> None: ...

    def close(self) -> None: ...


def check_output(path: str | Path, inputs: Iterable[str | Path] = (), option: str = "--log") -> None:
    """Refuse, before any work, an output path that cannot be written or would overwrite an
    input of the same run."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise TcgError(f"{option} {path}: is a folder; give a file name")
    if not folder.is_dir():
        raise TcgError(f"{option} {path}: the folder {folder} does not exist")
    if p.exists() and not p.is_file():
        raise TcgError(f"{option} {path}: not a regular file (a device or pipe)")
    if not os.access(folder, os.W_OK) or p.exists() and not os.access(p, os.W_OK):
        raise TcgError(f"{option} {path}: not writable")
    for source in inputs:
        if same_file(p, Path(source)):
            raise TcgError(f"{option} {path}: is an input of this run ({source}); "
                           "writing there would overwrite it")


def check_folder(path: str | Path, option: str = "--out") -> None:
    """An output folder: a folder, or created here (with its parents)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise TcgError(f"{option} {path}: exists and is not a folder")
    with writing(p):
        p.mkdir(parents=True, exist_ok=True)
    if not os.access(p, os.W_OK):
        raise TcgError(f"{option} {path}: not writable")


def lock_folder(folder: Path) -> Lock:
    """Hold FOLDER/.lock until the returned file is closed (or the process ends): a second
    run writing the same folder is refused instead of tearing the first one's files.

    The lock belongs to this process alone: a worker forked while it is held closes its
    copy (close_inherited_locks), so that a run killed outright leaves no lock behind even
    if a worker outlived it."""
    import fcntl

    f = open_output(folder / ".lock", "a")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise TcgError(f"{folder} is in use by another run (tcg simulate); wait for it to end "
                       "or choose another --out") from None
    _LOCKS.add(f.fileno())
    return Lock(f.f, f.name)


_LOCKS: set[int] = set()  # the descriptors of the folder locks this process holds


def close_inherited_locks() -> None:
    """In a forked worker: close the copies of the parent's folder locks (a lock held by
    an open file shared with a child lives as long as the child's copy)."""
    for fd in list(_LOCKS):
        with contextlib.suppress(OSError):
            os.close(fd)
    _LOCKS.clear()


def same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b) or a.resolve() == b.resolve()
    except OSError:
        return False


def open_output(path: str | Path, mode: str = "w") -> Output:
    """A text file to write (`mode` "w" or "a"), refused unless it is a regular file or
    absent (a pipe would block the run forever, a device swallow it); every OSError while
    writing, flushing or closing it is a TcgError that names it."""
    regular_or_absent(path)
    try:
        # (O_NONBLOCK: a pipe made after the check fails at once instead of waiting)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK
                     | (os.O_APPEND if mode == "a" else os.O_TRUNC), 0o666)
        os.set_blocking(fd, True)
        return Output(open(fd, mode, encoding="utf-8", newline=""), str(path))  # noqa: SIM115
    except OSError as e:
        raise TcgError(f"cannot write {path}: {e.strerror or e}") from None


def regular_or_absent(path: str | Path, verb: str = "write") -> None:
    """Refuse a path that names a pipe, a device, a socket or a folder (links followed)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise TcgError(f"cannot {verb} {path}: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise TcgError(f"cannot {verb} {path}: not a regular file (a folder, device, pipe or "
                       "socket); remove it or choose another place")


class Output:
    """An open text file whose OSErrors (a full disk, an I/O error, a vanished folder)
    are TcgErrors naming it: `cannot write FILE: ...`, exit 2, whatever was written so far
    left in place."""

    def __init__(self, f: IO[str], path: str) -> None:
        self.f, self.name = f, path

    def write(self, text: str) -> int:
        with writing(self.name):
            return self.f.write(text)

    def flush(self) -> None:
        with writing(self.name):
            self.f.flush()

    def fileno(self) -> int:
        return self.f.fileno()

    def close(self) -> None:
        """Close (the file is closed even when its last flush fails, which is reported)."""
        with writing(self.name):
            self.f.close()


class Lock(Output):
    """A folder's .lock, held while open."""

    def close(self) -> None:
        if not self.f.closed:
            _LOCKS.discard(self.f.fileno())
        super().close()


@contextlib.contextmanager
def writing(path: str | Path) -> Iterator[None]:
    """Turn an OSError while writing `path` (a full disk, a vanished folder) into a TcgError."""
    try:
        yield
    except OSError as e:
        raise TcgError(f"cannot write {path}: {e.strerror or e}") from None


def temporary_beside(path: str | Path) -> Path:
    """A new empty file in the folder of `path`, so that a rename onto `path` is atomic."""
    p = Path(path)
    with writing(p):
        fd, name = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent or ".")
        os.fchmod(fd, _mode_for(p))
        os.close(fd)
    return Path(name)


def _mode_for(path: Path) -> int:
    """The file's own mode when it exists, else what open() would give (mkstemp's is 0600)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_json(path: str | Path, doc: object) -> None:
    """A result file in JSON, written whole (see replace_whole)."""
    replace_whole(path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


def write_csv(path: str | Path, header: Iterable[str], rows: Iterable[Iterable[object]]) -> None:
    """A result table in CSV, written whole (see replace_whole)."""
    f = io.StringIO(newline="")
    w = csv.writer(f)
    w.writerow(header)
    w.writerows(rows)
    replace_whole(path, f.getvalue())


def replace_whole(path: str | Path, text: str) -> None:
    """Write `text` to `path` all at once: readers see the old file or the new one."""
    tmp = temporary_beside(path)
    try:
        with writing(path):
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
