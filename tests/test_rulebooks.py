"""Rule books (docs/rules/GAME.md): every rule of a bundled game's seed, where the ruleset
encodes it, what tests it and how faithfully. The source of each book is docs/rules/GAME.yaml;
the .md is generated from it and the ruleset (`python tests/test_rulebooks.py` rewrites them).

These tests fail when a `ref:` of a bundled ruleset (or an entry of its forbidden list) has no
row, when a row names a ruleset key, a test file or a test function that does not exist, when a
ruling or an unsupported rule does not say why, when a game's scenario is cited by no row, or
when a .md is out of step with its source."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT / "docs" / "rules"
GAMES = ["ucb", "dannokomachi", "manacard", "ultimate", "kannagi"]
STATUSES = {"exact", "ruling", "not supported"}
ROW_KEYS = {"seed", "words", "rule", "where", "engine", "tests", "status", "ruling", "note"}


# ---------------------------------------------------------------- the ruleset's keys and refs

def _name(item: Any, i: int) -> str:
    """A list item is named by its id or phase, else its position."""
    if isinstance(item, dict):
        for key in ("id", "phase"):
            if isinstance(item.get(key), str):
                return item[key]
    return str(i)


def _walk(node: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}" if path else str(key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _walk(item, f"{path}.{_name(item, i)}")


def ruleset_tree(game: str) -> dict[str, Any]:
    """Every key path of a bundled ruleset, its forbidden list's entries as `forbid.ID`."""
    doc = yaml.safe_load((ROOT / "rulesets" / f"{game}.yaml").read_text("utf-8"))
    forbid = doc.get("forbid")
    if isinstance(forbid, str):
        listed = yaml.safe_load((ROOT / "rulesets" / forbid).read_text("utf-8"))
        doc = {**doc, "forbid": {e["id"]: e for e in listed["forbid"]}}
    return dict(_walk(doc, ""))


def refs(tree: dict[str, Any]) -> dict[str, str]:
    """Key path -> the seed passage it cites (its `ref:`, or a forbidden entry's sentence)."""
    out = {}
    for path, node in tree.items():
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("ref"), str):
            out[path] = node["ref"]
        elif path.startswith("forbid.") and path.count(".") == 1 and "sentence" in node:
            out[path] = node["sentence"]
    return out


# ---------------------------------------------------------------- the book

def load_book(game: str) -> dict[str, Any]:
    return yaml.safe_load((BOOKS / f"{game}.yaml").read_text("utf-8"))


def _filled(row: dict[str, Any], tree: dict[str, Any]) -> dict[str, Any]:
    """A forbidden-list row may leave its words and rule to the list's own entry."""
    where = row.get("where") or []
    entry = tree.get(where[0]) if where and where[0].startswith("forbid.") else None
    if isinstance(entry, dict):
        return {"words": entry.get("sentence", ""), "rule": entry.get("explain", ""), **row}
    return row


def _cell(text: Any) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _test_link(test: str) -> str:
    file, _, func = test.partition("::")
    shown = file.removeprefix("tests/scenarios/")
    label = f"{shown}::{func}" if func else shown
    return f"[{label}](../../{file})"


def _where(row: dict[str, Any], tree: dict[str, Any], cited: dict[str, str]) -> str:
    parts = []
    for path in row.get("where") or []:
        node, ref = tree.get(path), cited.get(path)
        if path.startswith("options.") and path.count(".") == 1 and isinstance(node, dict):
            choices = ", ".join(f"`{c}`" + (" (default)" if c == node.get("default") else "")
                                for c in node.get("choices") or {})
            parts.append(f"option `{path.removeprefix('options.')}`: {choices} "
                         f"(`--option {path.removeprefix('options.')}=CHOICE`)")
        elif path.startswith("forbid.") and isinstance(node, dict):
            parts.append(f"`{path}`" + (f" · enforced: {_cell(node['enforced'])}" if node.get("enforced") else
                                        " · query"))
        else:
            parts.append(f"`{path}`" + (f" · ref 「{_cell(ref)}」" if ref else ""))
    if row.get("engine"):
        parts.append(f"engine: {_cell(row['engine'])}")
    return "<br>".join(parts) or "—"


def render(game: str) -> str:
    book, tree = load_book(game), ruleset_tree(game)
    cited = refs(tree)
    rows = [_filled(r, tree) for r in book["rows"]]
    count = {s: sum(r["status"] == s for r in rows) for s in ("exact", "ruling", "not supported")}
    tested = sum(bool(r.get("tests")) for r in rows)
    out = [
        f"# {book['title']} — rule book",
        "",
        f"<!-- Generated from docs/rules/{game}.yaml and rulesets/{game}.yaml by "
        "`python tests/test_rulebooks.py`: edit those, not this page. -->",
        "",
        f"Seed: `{book['seed']}` (Japanese). Ruleset: [rulesets/{game}.yaml](../../rulesets/{game}.yaml).",
        "",
        _cell(book["intro"]),
        "",
        f"{len(rows)} rules: {count['exact']} exact, {count['ruling']} ruling, "
        f"{count['not supported']} not supported; {tested} tested by the files named.",
        "",
        "Status: **exact** — encoded as the seed says; **ruling** — the seed is unclear or silent "
        "and the reading chosen is written below with its reasoning and the alternative; "
        "**not supported** — missing or approximated, with what is missing below.",
        "",
        "| # | Seed | Seed's words | Rule | Where (ruleset key · ref) | Tested by | Status |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, row in enumerate(rows, 1):
        tests = "<br>".join(_test_link(t) for t in row.get("tests") or []) or "— (untested)"
        status = row["status"] + (f" ([R{i}](#r{i}))" if row.get("ruling") or row.get("note") else "")
        out.append(f"| {i} | {_cell(row['seed'])} | {_cell(row['words'])} | {_cell(row['rule'])} "
                   f"| {_where(row, tree, cited)} | {tests} | {status} |")
    notes = [(i, r) for i, r in enumerate(rows, 1) if r.get("ruling") or r.get("note")]
    if notes:
        out += ["", "## Rulings and notes", ""]
        for i, row in notes:
            head = f"**{_cell(row['seed'])}** 「{_cell(row['words'])}」 — {row['status']}."
            out += [f"### R{i}", "", head, ""]
            out += [_cell(row.get("ruling") or row.get("note")), ""]
    return "\n".join(out).rstrip() + "\n"


# ---------------------------------------------------------------- the tests

@pytest.mark.parametrize("game", GAMES)
def test_every_ref_has_a_row(game):
    tree = ruleset_tree(game)
    placed = {p for row in load_book(game)["rows"] for p in row.get("where") or []}
    missing = sorted(set(refs(tree)) - placed)
    assert not missing, (f"rulesets/{game}.yaml: these keys cite the seed but "
                         f"docs/rules/{game}.yaml has no row: {missing}")


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_its_ruling(game):
    """An option is a ruling's alternative made choosable: the row saying which reading each
    choice is must name it (with or without a `ref:`)."""
    tree = ruleset_tree(game)
    options = {p for p in tree if p.startswith("options.") and p.count(".") == 1}
    rows = [r for r in load_book(game)["rows"] if set(r.get("where") or ()) & options]
    placed = {p for r in rows for p in r["where"]}
    assert options <= placed, f"docs/rules/{game}.yaml places no row for {sorted(options - placed)}"
    assert all(r["status"] == "ruling" for r in rows), "an option's row is a ruling"


@pytest.mark.parametrize("game", GAMES)
def test_rows_name_what_exists(game):
    tree = ruleset_tree(game)
    problems = []
    for i, row in enumerate(load_book(game)["rows"], 1):
        if set(row) - ROW_KEYS:
            problems.append(f"row {i}: unknown keys {sorted(set(row) - ROW_KEYS)}")
        if row.get("status") not in STATUSES:
            problems.append(f"row {i}: status {row.get('status')!r} is not one of {sorted(STATUSES)}")
        if row.get("status") == "ruling" and not row.get("ruling"):
            problems.append(f"row {i}: a ruling needs its reasoning and the alternative (`ruling:`)")
        if row.get("status") == "not supported" and not row.get("note"):
            problems.append(f"row {i}: say what is missing (`note:`)")
        for path in row.get("where") or []:
            if path not in tree:
                problems.append(f"row {i}: rulesets/{game}.yaml has no key {path}")
        for test in row.get("tests") or []:
            file, _, func = test.partition("::")
            if not (ROOT / file).is_file():
                problems.append(f"row {i}: no test file {file}")
            elif func and not re.search(rf"\bdef {re.escape(func)}\b", (ROOT / file).read_text("utf-8")):
                problems.append(f"row {i}: {file} has no test {func}")
        if not (_filled(row, tree).get("words") and _filled(row, tree).get("rule") and row.get("seed")):
            problems.append(f"row {i}: seed, words and rule are required")
    assert not problems, "\n".join(problems)


def _is_scenario(path: Path) -> bool:
    """A scenario, not a card set beside it (card sets list cards as mappings)."""
    doc = yaml.safe_load(path.read_text("utf-8"))
    return (isinstance(doc, dict) and not any(isinstance(c, dict) for c in doc.get("cards") or ())
            and any(k in doc for k in ("state", "decks", "decisions", "expect")))


@pytest.mark.parametrize("game", GAMES)
def test_every_scenario_of_the_game_has_a_row(game):
    """A scenario nobody placed tests a rule the book does not list."""
    cited = {t.partition("::")[0] for row in load_book(game)["rows"] for t in row.get("tests") or []}
    scenarios = [p for p in sorted((ROOT / "tests" / "scenarios" / game).glob("*.yaml")) if _is_scenario(p)]
    missing = [str(p.relative_to(ROOT)) for p in scenarios if str(p.relative_to(ROOT)) not in cited]
    assert not missing, f"docs/rules/{game}.yaml names no row for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_the_page_is_up_to_date(game):
    page = BOOKS / f"{game}.md"
    assert page.is_file() and page.read_text("utf-8") == render(game), (
        f"{page} is out of step with docs/rules/{game}.yaml: run `python tests/test_rulebooks.py`")


def test_a_missing_row_is_reported(tmp_path, monkeypatch):
    """The check above finds a ref nobody placed (a row dropped from a book)."""
    book = load_book("ucb")
    dropped = book["rows"][0]["where"][0]
    book["rows"] = [r for r in book["rows"] if dropped not in (r.get("where") or [])]
    (tmp_path / "ucb.yaml").write_text(yaml.safe_dump(book, allow_unicode=True), "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "BOOKS", tmp_path)
    with pytest.raises(AssertionError, match=re.escape(dropped)):
        test_every_ref_has_a_row("ucb")


def test_a_missing_scenario_is_reported(tmp_path, monkeypatch):
    book = load_book("ucb")
    book["rows"][0]["tests"] = ["tests/scenarios/ucb/no_such_file.yaml"]
    (tmp_path / "ucb.yaml").write_text(yaml.safe_dump(book, allow_unicode=True), "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "BOOKS", tmp_path)
    with pytest.raises(AssertionError, match="no test file tests/scenarios/ucb/no_such_file.yaml"):
        test_rows_name_what_exists("ucb")


if __name__ == "__main__":
    for name in GAMES:
        (BOOKS / f"{name}.md").write_text(render(name), "utf-8")
        print(f"wrote {BOOKS / name}.md")
