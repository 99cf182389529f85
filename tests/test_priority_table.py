"""The table draws the stack of a `timing: priority` game in a real browser (Chromium through
Playwright; skipped where it is missing, as tests/test_table_browser.py is)."""

from __future__ import annotations

import time
from pathlib import Path

from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup
from interpreter.table.session import Table
from tests.test_table_browser import browser, seat_page, sync_api  # noqa: F401 (a fixture)

RULESET = str(Path(__file__).parent / "rulesets" / "priority.yaml")


def test_the_page_lists_the_objects_on_the_stack_top_first(browser):  # noqa: F811
    # (seed 3, the first two decks: P1, clicking its first option each time, holds priority
    # over an object by turn 5)
    table = Table.new(load_game(RULESET), MatchSetup(RULESET, [], 3, ["human", "first"], 10))
    with seat_page(browser, table) as page:
        for _ in range(300):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            assert not page.query_selector("[data-result]"), "the match ended with nothing cast"
            if table.g.stack:
                break
            before = table.version
            page.locator("[data-option]").first.click()  # the first option: act, not pass
            deadline = time.monotonic() + 10
            while table.version == before:
                assert time.monotonic() < deadline
                time.sleep(0.01)
        stack = table.g.stack
        assert stack, "nothing went on the stack"
        items = page.locator("[data-stack] li")
        sync_api.expect(items).to_have_count(len(stack))
        top = stack[-1]
        assert f"{table.g.defs[top[1]].name}#{top[1]}" in items.first.inner_text()
