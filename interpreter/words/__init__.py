"""The game in words: what a person reads (narration, questions, options, card text), made
from the ruleset's `phrases:` in the reader's language, with readable defaults made from
names and arguments in words, never from effect code.

The language is chosen once by the front end (`--lang`): `choose(requested, declared)`."""

from __future__ import annotations

import locale
import os

LANGUAGES = ("ja", "en")
DEFAULT = "en"


def choose(requested: str | None, declared: str | None) -> str:
    """The language to speak: the one asked for (`--lang`), else the ruleset's declared
    `language:`, else the locale's, else English."""
    for lang in (requested, declared, _locale()):
        if lang in LANGUAGES:
            return lang
    return DEFAULT


def _locale() -> str | None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return value[:2].lower()
    code = locale.getlocale()[0]
    return code[:2].lower() if code else None
