"""`tcg test --junitxml`: scenario outcomes as JUnit XML, the format CI services show."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from interpreter.run.scenario import Outcome


def write_junit(outcomes: list[Outcome], path: Path) -> None:
    """One testsuite, a testcase per scenario (class: its folder, name: its file and name),
    a failure per failed one listing its positioned diagnostics. Written whole or not at
    all: a temporary file beside the target is renamed onto it."""
    failed = sum(not o.passed for o in outcomes)
    suite = ET.Element("testsuite", name="tcg test", tests=str(len(outcomes)),
                       failures=str(failed), errors="0", skipped="0")
    for o in outcomes:
        case = ET.SubElement(suite, "testcase", classname=Path(o.path).parent.as_posix(),
                             name=f"{Path(o.path).name}: {o.name}", file=Path(o.path).as_posix())
        if not o.passed:
            first = o.diagnostics[0]
            failure = ET.SubElement(case, "failure", message=first.header())
            failure.text = "\n".join(d.render() for d in o.diagnostics)
    tree = ET.ElementTree(ET.Element("testsuites"))
    root = tree.getroot()
    assert root is not None  # (made with one)
    root.append(suite)
    ET.indent(tree)
    tmp = path.with_name(path.name + ".tmp")
    tree.write(tmp, encoding="utf-8", xml_declaration=True)
    os.replace(tmp, path)
