"""The table's auto-pass setting in a real browser (Chromium through Playwright; skipped where
it is missing, as tests/test_table_browser.py is): a human seat of a `timing: priority` game
picks "when I can respond or in my turn" on the page, and from then on the table passes the
quiet windows of the opponent's turn for them."""

from __future__ import annotations

import os
import time
from pathlib import Path

from interpreter.agents.basic import ALWAYS, RESPOND
from interpreter.run.loading import load_game
from interpreter.run.match import MatchSetup
from interpreter.table.session import Table
from tests.test_table_browser import browser, seat_page, sync_api  # noqa: F401 (a fixture)

RULESET = str(Path(__file__).parent / "rulesets" / "priority.yaml")


def _quiet_opponent_window(g) -> bool:
    return g.decision is not None and g.decision.player == 0 and g.turn_player == 1 \
        and not g.stack and g.decision.kind == "action"


def test_a_human_picks_stop_to_respond_on_the_page(browser, tmp_path):  # noqa: F811
    table = Table.new(load_game(RULESET), MatchSetup(RULESET, [], 3, ["human", "first"], 10))
    with seat_page(browser, table) as page:
        select = page.locator("#stop")
        sync_api.expect(select).to_be_visible()
        sync_api.expect(select).to_have_value("always")
        before = table.version
        select.select_option("respond")
        deadline = time.monotonic() + 10
        while table.stops[0] != RESPOND or table.version == before:
            assert time.monotonic() < deadline, "the setting did not reach the table"
            time.sleep(0.01)
        sync_api.expect(select).to_have_value("respond")
        page.screenshot(path=str(Path(os.environ.get("TCG_SHOTS", tmp_path)) / "auto_pass.png"))
        for _ in range(300):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            if page.query_selector("[data-result]"):
                break
            assert not _quiet_opponent_window(table.g), "asked at a quiet window of P2's turn"
            if table.g.turn >= 8:
                break
            buttons = page.locator("[data-option]")
            labels = buttons.all_inner_texts()
            land = next((i for i, x in enumerate(labels) if x.startswith("play land")), len(labels) - 1)
            before = table.version
            buttons.nth(land).click()
            deadline = time.monotonic() + 10
            while table.version == before:
                assert time.monotonic() < deadline
                time.sleep(0.01)
        assert table.g.turn >= 4
        assert table.stops[0] != ALWAYS
