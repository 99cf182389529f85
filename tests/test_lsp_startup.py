"""Start-up cost (issue 38 item 5): `tcg --help` and the `tcg` module itself load neither the
engine nor the effect parser (lark); the package's public names still load on first use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("interpreter.engine", "interpreter.compile", "interpreter.lang", "interpreter.check", "lark")


def _modules_after(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=True).stdout
    return out.split()


def test_importing_the_cli_loads_no_engine():
    loaded = _modules_after("import interpreter.cli")
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_tcg_help_loads_no_engine():
    quiet = "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
    loaded = _modules_after("import contextlib, io\nfrom interpreter.cli import main\n"
                            f"{quiet}    main(['--help'])\n{quiet}    main(['check', '--help'])")
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_the_public_names_load_on_first_use():
    import interpreter

    game = interpreter.load_game("ucb")
    assert isinstance(game, interpreter.Game)
    state = game.new_state(interpreter.default_decks(game), seed=1)
    assert isinstance(state, interpreter.GameState)
