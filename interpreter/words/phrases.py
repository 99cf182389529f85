"""A ruleset's phrases: per section (names, verbs, events, actions, decisions), per name, per
language, a text with `{placeholder}`s."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SECTIONS = ("names", "verbs", "events", "actions", "decisions")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class Asked:
    """A question the ruleset's or a card's code asks with no prompt of its own, or with one:
    its phrase key (`context.variable`, or `context` for `may` and `choose one`), the
    statement, and where (the YAML path of its text; None for a card's)."""

    key: str
    stmt: Any  # an A.Choose | A.ChooseValue | A.May | A.ChooseMode
    at: tuple | None = None


@dataclass(frozen=True)
class Phrases:
    table: Mapping[str, Mapping[str, Mapping[str, str]]] = field(default_factory=dict)
    language: str | None = None  # the ruleset's declared `language:`
    # the questions the code asks, by their engine prompt (a text, or the function of a prompt
    # that names variables): filled as texts are compiled (compile/stmts.py)
    asked: dict[Any, Asked] = field(default_factory=dict)

    def get(self, section: str, name: str, lang: str) -> str | None:
        entry = self.table.get(section, {}).get(name)
        return None if entry is None else entry.get(lang)


def read(raw: Mapping) -> Phrases:
    """The phrases of a ruleset's raw tree (already checked by the schema)."""
    table = {s: {str(k): {str(lang): str(t) for lang, t in (v or {}).items()}
                 for k, v in ((raw.get("phrases") or {}).get(s) or {}).items()}
             for s in SECTIONS}
    return Phrases(table, raw.get("language"))


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each {name} replaced by its value (an unknown one is left out)."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), ""), template)
