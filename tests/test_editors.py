"""docs/EDITORS.md's Neovim 0.7 setup works as written: Neovim (where it is installed) starts
`tcg lsp` for a game file and shows `tcg check`'s diagnostics of it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_the_neovim_setup_shows_the_diagnostics(tmp_path: Path) -> None:
    blocks = re.findall(r"```lua\n(.*?)```", (ROOT / "docs/EDITORS.md").read_text(encoding="utf-8"), re.S)
    setup = next(b for b in blocks if "vim.lsp.start_client" in b)  # (the one for 0.7 and later)
    check = next(b for b in blocks if "diagnostics.txt" in b)
    (tmp_path / "init.lua").write_text(setup + check, encoding="utf-8")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["nvim", "--headless", "-u", str(tmp_path / "init.lua"),
                    str(ROOT / "tests/bad/unknown_names.yaml")], cwd=tmp_path, env=env,
                   timeout=60, check=False, capture_output=True)
    said = (tmp_path / "diagnostics.txt").read_text(encoding="utf-8")
    assert "8:15 unknown event 'sumon'" in said and "8:41 unknown verb 'drow'" in said, said
