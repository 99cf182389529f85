"""`tcg check --format`: diagnostics as text (like a compiler), JSON, or SARIF 2.1.0 (so that
code-hosting tools can annotate a pull request of a card repository)."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.diagnostics import Diagnostic, Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

# What each built-in code means (SARIF's rule help); a forbid entry's code carries its own
# explanation. The list of codes with examples is docs/LANGUAGE.md, section 3.
CODE_HELP = {
    "IO": "The file does not exist or cannot be read.",
    "TOO-LARGE": "The file is larger than 20 MB.",
    "ENCODING": "The file is not UTF-8.",
    "EMPTY": "The file is empty.",
    "YAML": "The file is not well-formed YAML.",
    "DUPLICATE-KEY": "A key appears twice in one mapping.",
    "UNSAFE-TAG": "A YAML tag such as !!python/object: only plain data is read.",
    "MERGE": "A YAML merge key (<<), which is not supported.",
    "KEY": "A mapping key that is not a plain scalar.",
    "ALIAS-BOMB": "Anchors and aliases that expand past the node limit.",
    "NO-RULESET": "The ruleset named is neither a file nor a bundled id.",
    "SCHEMA": "The file does not have the structure of its kind (ruleset, cards, deck, "
              "scenario, forbid list).",
    "SYNTAX": "An effect text or forbid query does not parse.",
    "TYPE": "A value of the wrong type.",
    "DUPLICATE-CARD": "Two cards have the same name.",
    "DUPLICATE-ABILITY": "Two abilities of one card have the same name.",
    "DUPLICATE-ID": "Two entries of a forbid list have the same id.",
    "COMPUTED-PROPERTY": "A card sets a property the ruleset computes.",
    "UNKNOWN-PROPERTY": "A card key, `x.prop` or modifier names no property of the ruleset.",
    "UNKNOWN-ZONE": "A name that is no zone of the ruleset.",
    "UNKNOWN-EVENT": "`when X` names no event.",
    "UNKNOWN-VERB": "A call names no verb or primitive.",
    "UNKNOWN-ACTION": "A name that is no action, window or requirement of the ruleset.",
    "UNKNOWN-NAME": "A name that means nothing where it is used.",
    "UNKNOWN-STATE": "A name that is no card state of the ruleset.",
    "UNKNOWN-ARG": "A named argument the callee does not have.",
    "UNKNOWN-FUNCTION": "An expression calls no function or zone.",
    "ZONE-OWNER": "A per-player zone used without its owner.",
    "ARITY": "Too many arguments, or a required one missing.",
    "UNKNOWN-CARD": "A deck, scenario or card text (`name == ...`) names a card the ruleset's "
                    "card sets do not have.",
    "OUT-OF-RANGE": "A card prints a number outside its property's min/max.",
    "E-PHRASE": "A phrase names nothing of its section, or a placeholder it cannot fill.",
    "W-PHRASE": "A question of the ruleset's texts has no phrase in its language.",
    "DECK-SECTION": "A deck section the ruleset does not define.",
    "OPTION": "A ruleset option naming no place in the ruleset, a default that is no choice, "
              "or an option or choice the ruleset does not have.",
    "DECK-SIZE": "A deck section has too few or too many cards.",
    "DECK-COPIES": "Too many copies of one card.",
    "UNKNOWN-PHASE": "A scenario starts in a phase the turn does not have.",
    "UNKNOWN-PLAYER": "A player the game does not have.",
    "DECISION": "A scenario decision that no option of the game can match.",
    "UNKNOWN-WAIVER": "A card waives a forbid entry the ruleset does not have.",
    "UNUSED-WAIVER": "A card waives a forbid entry it does not break.",
}


def render(report: Report, fmt: str, waivers: bool = False) -> str:
    """The report in `fmt`; waived diagnostics appear in text only when `waivers` is asked
    (they are not problems), and always in JSON and SARIF (as suppressed results)."""
    if fmt == "json":
        return json.dumps([_as_dict(d) for d in report.diagnostics], ensure_ascii=False, indent=2)
    if fmt == "sarif":
        return json.dumps(sarif(report.diagnostics), ensure_ascii=False, indent=2)
    shown = [d for d in report.diagnostics if not d.waived]
    if waivers:
        shown = report.waivers
    return "\n".join(_waiver_text(d) if d.waived else d.render() for d in shown)


def _waiver_text(d: Diagnostic) -> str:
    from interpreter.words.ui import tr

    return (f"{d.path}:{d.line}:{d.col}: waived[{d.code}]: {d.message}\n"
            f"  = {tr('ui.waiver_reason')}: {d.waived}")


def _as_dict(d: Diagnostic) -> dict:
    out = {"path": d.path, "line": d.line, "col": d.col, "end_col": d.end_col or None,
           "severity": d.severity, "code": d.code, "message": d.message, "help": d.hint,
           "rule": d.ref}
    if d.related:
        out["related"] = [{"path": r.path, "line": r.line, "col": r.col, "message": r.message}
                          for r in d.related]
    if d.waived:
        out["waived"] = d.waived
    return out


def sarif(diagnostics: list[Diagnostic], cwd: Path | None = None) -> dict:
    """One SARIF run. URIs are relative to the repository root (%SRCROOT%) found from the
    first file, so a log written from any directory annotates the same lines."""
    root = repository_root(Path(diagnostics[0].path) if diagnostics else Path("."), cwd)
    rules: dict[str, dict] = {}
    for d in diagnostics:
        rules.setdefault(d.code, _rule(d))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "tcg check", "version": _version(),
                                "informationUri": _information_uri(),
                                "rules": list(rules.values())}},
            "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri() + "/"}},
            "results": [_result(d, list(rules).index(d.code), root) for d in diagnostics],
        }],
    }


def repository_root(path: Path, cwd: Path | None = None) -> Path:
    """The nearest folder above `path` holding `.git` (a folder, or a file in a worktree);
    else the nearest above the working directory; else the working directory."""
    here = (cwd or Path.cwd()).resolve()
    start = path if path.is_absolute() else here / path
    for base in (start.resolve(), here):
        for folder in (base, *base.parents):
            if (folder / ".git").exists():
                return folder
    return here


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tcg-interpreter")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        return "0+unknown"


def _information_uri() -> str:
    """The project's home page from the package metadata (`[project.urls]`), else the
    language reference that documents every code, beside the package."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        urls = metadata("tcg-interpreter").get_all("Project-URL") or []
    except PackageNotFoundError:  # pragma: no cover - run from a source tree not installed
        urls = []
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() in ("homepage", "documentation", "repository"):
            return url.strip()
    return (Path(__file__).resolve().parents[2] / "docs" / "LANGUAGE.md").as_uri()


def _rule(d: Diagnostic) -> dict:
    rule: dict = {"id": d.code, "shortDescription": {"text": d.code}}
    if d.ref:
        rule["fullDescription"] = {"text": d.ref}
    words = d.explanation or CODE_HELP.get(d.code, "")
    if words:
        rule["help"] = {"text": words}
    return rule


def _result(d: Diagnostic, index: int, root: Path) -> dict:
    text = d.message + (f" — rule: {d.ref}" if d.ref else "")
    out: dict = {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": "error" if d.severity == "error" else "warning",
        "message": {"text": text},
        "locations": [{"physicalLocation": {
            "artifactLocation": _artifact(d.path, root),
            "region": _region(d.line, d.col, d.end_col),
        }}],
    }
    if d.related:
        out["relatedLocations"] = [{
            "id": i, "message": {"text": r.message},
            "physicalLocation": {"artifactLocation": _artifact(r.path, root),
                                 "region": _region(r.line, r.col, 0)},
        } for i, r in enumerate(d.related)]
    if d.waived:
        out["suppressions"] = [{"kind": "inSource", "status": "accepted",
                                "justification": d.waived}]
    return out


def _artifact(path: str, root: Path) -> dict:
    """A URI relative to the repository root; a file outside it keeps its absolute URI."""
    full = Path(path).resolve()
    try:
        return {"uri": full.relative_to(root).as_posix(), "uriBaseId": SRCROOT}
    except ValueError:
        return {"uri": full.as_uri()}


def _region(line: int, col: int, end_col: int) -> dict:
    region = {"startLine": max(line, 1), "startColumn": max(col, 1)}
    if end_col > col:
        region["endColumn"] = end_col  # SARIF: the column after the last character
    return region
