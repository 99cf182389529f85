"""A simulation's output folder (`tcg simulate --out DIR`), read-only for the results page.

Only the files `tcg simulate` writes, by their known names, are ever read or served: a request
names one of them, never a path, so nothing outside the folder (and nothing else in it) can be
reached.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.diagnostics import TcgError
from interpreter.load import json_text

# the documents the page draws, by the key it reads them under
DOCUMENTS = {"summary": "summary.json", "cards": "cards.json", "ablation": "ablation.json",
             "matrix": "matrix.json"}
PLOTS = ("win_rates.png", "lengths.png", "cards.png", "matrix.png")
DOWNLOADS = ("summary.csv", "cards.csv", "matrix.csv")
SERVED = frozenset(DOCUMENTS.values()) | frozenset(PLOTS) | frozenset(DOWNLOADS)
MAX_DOCUMENT = 50_000_000  # bytes: a results file larger than this is not a simulation's


class Results:
    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise TcgError(f"{folder}: no such folder (give the --out folder of `tcg simulate`)")
        if not any(self.file(name) for name in ("summary.json", "cards.json", "matrix.json")):
            raise TcgError(f"{folder}: holds no summary.json, cards.json or matrix.json; give "
                           "the --out folder of `tcg simulate`")

    def file(self, name: str) -> Path | None:
        """The folder's file of that known name, if it is there (None for any other name)."""
        if name not in SERVED:
            return None
        path = self.folder / name
        inside = path.resolve().parent == self.folder.resolve()  # (a link out of it: not)
        return path if inside and path.is_file() else None

    def index(self) -> dict[str, Any]:
        """Every document present, parsed, and the names of the plots and downloads present."""
        page: dict[str, Any] = {"folder": self.folder.name or str(self.folder)}
        for key, name in DOCUMENTS.items():
            path = self.file(name)
            if path is not None:
                page[key] = _read(path)
        page["plots"] = [n for n in PLOTS if self.file(n)]
        page["downloads"] = [n for n in DOWNLOADS if self.file(n)]
        return page


def _read(path: Path) -> Any:
    if path.stat().st_size > MAX_DOCUMENT:
        raise TcgError(f"{path}: larger than {MAX_DOCUMENT // 1_000_000} MB")
    try:
        return json_text.parse(path.read_bytes())
    except json_text.JsonError as e:
        raise TcgError(f"{path}: not a simulation's JSON ({e})") from None
