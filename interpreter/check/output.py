"""`tcg check --format`: diagnostics as text (like a compiler), JSON, or SARIF 2.1.0 (so that
code-hosting tools can annotate a pull request of a card repository)."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.diagnostics import Diagnostic, Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def render(report: Report, fmt: str) -> str:
    if fmt == "json":
        return json.dumps([_as_dict(d) for d in report.diagnostics], ensure_ascii=False, indent=2)
    if fmt == "sarif":
        return json.dumps(sarif(report.diagnostics), ensure_ascii=False, indent=2)
    return "\n".join(d.render() for d in report.diagnostics)


def _as_dict(d: Diagnostic) -> dict:
    return {"path": d.path, "line": d.line, "col": d.col, "end_col": d.end_col or None,
            "severity": d.severity, "code": d.code, "message": d.message, "help": d.hint,
            "rule": d.ref}


def sarif(diagnostics: list[Diagnostic]) -> dict:
    rules: dict[str, dict] = {}
    for d in diagnostics:
        rules.setdefault(d.code, _rule(d))
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "tcg check", "rules": list(rules.values())}},
            "results": [_result(d, list(rules).index(d.code)) for d in diagnostics],
        }],
    }


def _rule(d: Diagnostic) -> dict:
    rule: dict = {"id": d.code, "shortDescription": {"text": d.code}}
    if d.ref:
        rule["fullDescription"] = {"text": d.ref}
    if d.hint:
        rule["help"] = {"text": d.hint}
    return rule


def _result(d: Diagnostic, index: int) -> dict:
    text = d.message + (f" — rule: {d.ref}" if d.ref else "")
    return {
        "ruleId": d.code,
        "ruleIndex": index,
        "level": "error" if d.severity == "error" else "warning",
        "message": {"text": text},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": Path(d.path).as_posix()},
            "region": _region(d),
        }}],
    }


def _region(d: Diagnostic) -> dict:
    region = {"startLine": max(d.line, 1), "startColumn": max(d.col, 1)}
    if d.end_col > d.col:
        region["endColumn"] = d.end_col  # SARIF: the column after the last character
    return region
