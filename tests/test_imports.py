"""The compiler's and the runners' modules import one another one way (no cycle, counting
imports for type hints too), so each can be read bottom-up."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

import interpreter

PACKAGE = Path(interpreter.__file__).parent


def _imports(package: str) -> dict[str, set[str]]:
    mods = {p.stem: p for p in (PACKAGE / package).glob("*.py") if p.stem != "__init__"}
    deps = {}
    for name, path in mods.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == f"interpreter.{package}":
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    f"interpreter.{package}."):
                found.add(node.module.split(".")[2])
        deps[name] = found & mods.keys()
    return deps


@pytest.mark.parametrize("package", ["compile", "run"])
def test_a_package_s_modules_import_one_another_one_way(package: str):
    list(graphlib.TopologicalSorter(_imports(package)).static_order())  # (raises on a cycle)
