"""Redraw the screenshots in this folder: a mid-game board of each bundled ruleset, seat P1.

Run: python docs/table/screenshots.py [RULESET...]   (needs the table extra, playwright and
the OS's chromium). Each match is human (clicking option i*7 mod n, never the last one: a busy
board) against random, seed 1, stopped after 30 clicks, in the ruleset's declared language;
ucb is shot in English too (ucb-en.png).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

from interpreter.load.files import bundled_ids  # noqa: E402
from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.session import Table  # noqa: E402
from interpreter.words import speak  # noqa: E402
from tests.test_table_browser import ARGS, CHROMIUM, page_of, served  # noqa: E402

CLICKS = 30


def shoot(browser, ruleset: str, lang: str | None = None) -> Path:
    speak.current = lang
    table = Table.new(load_game(ruleset), MatchSetup(ruleset, [], 1, ["human", "random"]))
    with served(Server([table])) as base, \
            page_of(browser, f"{base}/?seat={next(iter(table.tokens))}") as page:
        for i in range(CLICKS):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            if page.query_selector("[data-result]"):
                break
            options = page.query_selector_all("[data-option]")
            options[(i * 7) % max(1, len(options) - 1)].click()
        page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
        out = Path(__file__).parent / f"{ruleset}{'-' + lang if lang else ''}.png"
        page.set_viewport_size({"width": 1500, "height": 1000})
        page.screenshot(path=str(out), full_page=True)
    return out


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for ruleset in sys.argv[1:] or bundled_ids():
            print(shoot(browser, ruleset))
        if not sys.argv[1:] or "ucb" in sys.argv[1:]:
            print(shoot(browser, "ucb", "en"))
        browser.close()


if __name__ == "__main__":
    main()
