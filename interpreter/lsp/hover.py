"""Hover: what a name under the cursor is — a verb's parameters, body and `ref`, a property's
declaration, a primitive's or function's entry in docs/LANGUAGE.md, a card's text."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from interpreter.compile.names import ENGINE_EVENTS, FUNCTIONS
from interpreter.engine.primitives import PRIMITIVES
from interpreter.load import files
from interpreter.lsp.context import name_at, word_at
from interpreter.lsp.workspace import Workspace

LANGUAGE_MD = files.ROOT / "docs" / "LANGUAGE.md"
# the reference sections whose tables have one row per name: in effect text, and for a
# ruleset's top-level keys (2.4 last: its members, `position`, after any function of that name)
EFFECT_SECTIONS = ("2.5 Functions", "2.6 Primitives", "2.7 Events", "2.4 Expressions")
KEY_SECTIONS = ("1.2 Ruleset",)
# ruleset declarations a name can come from, and what to call them
DECLARATIONS = {"verbs": "verb", "actions": "action", "properties": "property", "states": "state",
                "zones": "zone", "resources": "resource", "counters": "counter", "tokens": "token",
                "windows": "window"}


def hover(ws: Workspace, path: str, text: str, line: int, col: int) -> str | None:
    """Markdown describing the name at (line, col), or None."""
    entry = ws.entry(path)
    rid = entry.rid if entry is not None else None
    lines = text.splitlines()
    if line >= len(lines):
        return None
    source = lines[line]
    cards = ws.cards_named(rid)
    card = name_at(source, col, cards)
    if card is not None:
        doc, index = cards[card]
        return _card(card, doc.data["cards"][index], doc.path)
    start, end = word_at(source, col)
    word = source[start:end]
    if not word:
        return None
    ruleset = ws.ruleset(rid)
    parts = []
    if ruleset is not None:
        parts += [_declared(what, word, ruleset.data[section][word], ruleset.path,
                            ruleset.pos((section, word)))
                  for section, what in DECLARATIONS.items()
                  if isinstance(ruleset.data.get(section), dict) and word in ruleset.data[section]]
    if word in PRIMITIVES:
        parts.append(f"**primitive** `{word}` — {PRIMITIVES[word].doc}")
    if word in FUNCTIONS:
        parts.append(f"**function** `{word}` — {FUNCTIONS[word][2]}")
    if word in ENGINE_EVENTS:
        parts.append(f"**engine event** `{word}` — fields: {', '.join(ENGINE_EVENTS[word])}")
    top_key = entry is not None and entry.kind == "ruleset" and source.startswith(f"{word}:")
    reference = reference_entry(word, KEY_SECTIONS if top_key else EFFECT_SECTIONS)
    if reference:
        parts.append(reference)
    return "\n\n---\n\n".join(parts) or None


def _declared(what: str, name: str, spec: Any, path: str, pos: tuple[int, int]) -> str:
    spec = spec if isinstance(spec, dict) else {}
    out = [f"**{what}** `{name}`" + _signature(what, spec)]
    if isinstance(spec.get("description"), str):
        out.append(spec["description"])
    details = [f"{k}: `{v}`" for k, v in spec.items()
               if k not in ("description", "ref", "do", "params") and not isinstance(v, (dict, list))]
    if isinstance(spec.get("values"), list):
        details.append(f"values: {', '.join(map(str, spec['values']))}")
    if details:
        out.append("; ".join(details))
    if isinstance(spec.get("do"), str):
        out.append(f"```\n{spec['do'].strip()}\n```")
    if spec.get("ref"):
        out.append(f"rule: {spec['ref']}")
    out.append(f"defined at {path}:{pos[0]}")
    return "\n\n".join(out)


def _signature(what: str, spec: dict) -> str:
    if what != "verb":
        return ""
    given = spec.get("params")
    params = given if isinstance(given, dict) else {}
    shown = [f"{p}: {t.get('type', 'any')}" if isinstance(t, dict) else f"{p}: {t or 'any'}"
             for p, t in params.items()]
    return f" `({', '.join(shown)})`"


def _card(name: str, card: dict, path: str) -> str:
    out = [f"**card** {name}"]
    values = [f"{k}: {v}" for k, v in card.items() if k not in ("name", "text", "abilities", "effect")]
    if values:
        out.append(", ".join(values))
    if isinstance(card.get("text"), str):
        out.append(card["text"])
    code = [*(card.get("abilities") or ()), card.get("effect")]
    code = [c for c in code if isinstance(c, str)]
    if code:
        out.append("```\n" + "\n".join(map(str, code)) + "\n```")
    out.append(f"defined in {path}")
    return "\n\n".join(out)


def reference_entry(word: str, sections: tuple[str, ...]) -> str | None:
    """The row for `word` in the first of `sections` of docs/LANGUAGE.md that has one."""
    entry = next((e for section in sections if (e := _reference().get((section, word)))), None)
    return f"docs/LANGUAGE.md {entry[0]}:\n\n{entry[1]}" if entry else None


@cache
def _reference() -> dict[tuple[str, str], tuple[str, str]]:
    """(section, name) -> (section, its table row under the table's header, as markdown)
    from the language reference; empty when the reference is not beside the package."""
    try:
        text = LANGUAGE_MD.read_text(encoding="utf-8")
    except OSError:
        return {}
    out: dict[tuple[str, str], tuple[str, str]] = {}
    section, header = "", ""
    for row in text.splitlines():
        if row.startswith("### "):
            section, header = row[4:].strip(), ""
        elif section in (*EFFECT_SECTIONS, *KEY_SECTIONS) and row.startswith("|"):
            if not header:
                header = row
            elif not set(row) <= set("|-: "):
                first = row.split("|")[1]
                for name in re.findall(r"`([^\W\d]\w*)", first):
                    table = f"{header}\n|{'---|' * (header.count('|') - 1)}\n{row}"
                    out.setdefault((section, name), (section, table))
        elif not row.startswith("|"):
            header = ""  # a table ended
    return out
