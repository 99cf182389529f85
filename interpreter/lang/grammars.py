"""The bundled Lark grammars, their LALR tables kept in the user's cache directory.

Analysing a grammar takes ~0.3 s at every start of `tcg` (editors and pre-commit hooks run
`tcg check` on each save); Lark's cache loads the tables in ~10 ms. The cache lives under
$XDG_CACHE_HOME (or ~/.cache), not the shared temp dir Lark would pick, since Lark unpickles
it. Lark checks each file against the grammar, options and versions, and rebuilds it when
stale or unreadable; without a writable cache directory, grammars are analysed every time.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from lark import Lark


def open_grammar(file: str, **options) -> Lark:
    """Lark (LALR) over `interpreter/grammar/<file>`; one cache file per grammar and options."""
    return Lark.open_from_package("interpreter.grammar", file, parser="lalr",
                                  cache=_cache_file(file, options), **options)


def _cache_file(file: str, options: dict) -> str | bool:
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tcg-interpreter"
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    # the transformer and plugins are not in the tables: parsers differing only in them share one
    shape = sorted((k, repr(v)) for k, v in options.items() if k not in ("transformer", "_plugins"))
    digest = hashlib.sha256(repr((file, shape)).encode()).hexdigest()[:16]
    return str(root / f"{file}.{digest}.lark-cache")
