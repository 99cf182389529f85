"""The table in a real browser (Chromium through Playwright): matches played by clicks alone,
two seats in two pages, the replay viewer, fork and export (issue 23)."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup, play  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.replay import Replay  # noqa: E402
from interpreter.table.session import Table  # noqa: E402
from interpreter.words import catalog, speak  # noqa: E402
from tests.conftest import bundled_rulesets  # noqa: E402
from tests.test_words import effect_code  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        # a DNS-rebinding name: evil.test answers 127.0.0.1 (the Host check must refuse it)
        "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP other.test 127.0.0.1"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium on this machine")


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@contextmanager
def served(server: Server) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    u = uvicorn.Server(uvicorn.Config(server.app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=u.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not u.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        u.should_exit = True
        thread.join(10)


@contextmanager
def page_of(browser, url: str):
    """A page whose console errors and uncaught exceptions fail the test."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    try:
        yield page
    finally:
        page.close()
    assert not errors, errors


@contextmanager
def seat_page(browser, table: Table):
    """The table served, and its first seat's page open."""
    with served(Server([table])) as base, \
            page_of(browser, f"{base}/?seat={next(iter(table.tokens))}") as page:
        yield page


def click_to_the_end(page, limit: int, pick=lambda n, i: 0) -> int:
    """Click options until the result shows; returns the clicks made."""
    for clicks in range(limit):
        page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
        if page.query_selector("[data-result]"):
            return clicks
        options = page.query_selector_all("[data-option]")
        options[pick(len(options), clicks)].click()
    raise AssertionError(f"no result after {limit} clicks")


@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_a_match_is_played_by_clicks_alone(browser, ruleset):
    table = Table.new(load_game(ruleset), MatchSetup(ruleset, [], 3, ["human", "first"], 4))
    with seat_page(browser, table) as page:
        clicks = click_to_the_end(page, 400, lambda n, i: (i * 7) % n)
        assert clicks > 0
        result = page.get_attribute("[data-result]", "data-result")
        assert result in ("P1", "P2", "draw") and table.g.result is not None
        assert page.locator("#log li").count() > 10


def test_clicking_a_card_picks_the_option_that_names_it(browser):
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 1, ["human", "first"], 4))
    with seat_page(browser, table) as page:
        page.wait_for_selector(".card.pickable")
        card = page.locator(".card.pickable").first
        name = card.locator(".name").inner_text()
        card.click()
        if page.locator("#menu button").count():  # several options name it: a menu
            page.locator("#menu button").first.click()
        deadline = time.monotonic() + 10  # (the log may name the card already: ask the server)
        while not any(name in r.get("o", "") for r in table.records if "d" in r):
            assert time.monotonic() < deadline, f"no decision names {name}"
            time.sleep(0.01)


def test_two_seats_play_in_two_pages(browser, monkeypatch):
    monkeypatch.setattr(speak, "current", "en")  # (the status line read in English)
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 2, ["human", "human"], 3))
    tokens = {p: t for t, p in table.tokens.items()}
    with served(Server([table])) as base, page_of(browser, f"{base}/?seat={tokens[0]}") as one, \
            page_of(browser, f"{base}/?seat={tokens[1]}") as two:
        pages = [one, two]
        for _ in range(300):
            if table.g.result is not None:
                break
            mover = pages[table.g.decision.player]
            other = pages[1 - table.g.decision.player]
            mover.wait_for_selector("[data-option]:not([disabled])")
            sync_api.expect(other.locator("[data-option]")).to_have_count(0)  # not its turn to decide
            before = table.version
            mover.locator("[data-option]").last.click()
            deadline = time.monotonic() + 10
            while table.version == before:
                assert time.monotonic() < deadline
                time.sleep(0.01)
        for page in pages:
            page.wait_for_selector("[data-result]")
        assert one.locator("#status").inner_text().endswith("you are P1")
        assert "you are P2" in two.locator("#status").inner_text()


def test_replay_steps_forks_and_exports(browser, tmp_path, monkeypatch):
    monkeypatch.setattr(speak, "current", "en")  # (the viewer's bar read in English)
    log = tmp_path / "m.jsonl"
    with open(log, "w", encoding="utf-8") as out:
        play(MatchSetup("ucb", [], 5, ["random", "random"], 8), out)
    server = Server(replay=Replay(log))
    with served(server) as base, page_of(browser, f"{base}/?replay&key={server.key}") as page:
        page.wait_for_selector("#stepinfo:has-text('decision 0 of')")
        for _ in range(5):
            page.click("#forward")
        page.wait_for_selector("#stepinfo:has-text('decision 5 of')")
        page.click("#back")
        page.wait_for_selector("#stepinfo:has-text('decision 4 of')")
        page.fill("#turn", "3")
        page.click("#jump")
        page.wait_for_selector("#status:has-text('turn 3')")
        page.select_option("#viewer", "P2")
        page.wait_for_selector("#status:has-text('you are P2')")
        assert page.locator("[data-option]").count() == 0  # a replay is read, not played
        with page.expect_download() as download:
            page.click("#export")
        scenario = tmp_path / "exported.yaml"
        download.value.save_as(scenario)
        r = subprocess.run([sys.executable, "-m", "interpreter.cli", "test", str(scenario)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout + r.stderr
        page.select_option("#agent", "random")
        with page.context.expect_page() as forked:
            page.click("#fork")
        fork = forked.value
        fork.wait_for_selector("[data-option]")
        assert "you are P2" in fork.locator("#status").inner_text()
        click_to_the_end(fork, 400)
        fork.close()


def test_a_rebinding_name_gets_no_page_and_no_seat(browser):
    """The browser reaches the server through evil.test (resolving to 127.0.0.1): the page, the
    API and the websocket are refused, so a rebinding site cannot read or play the seat."""
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 1, ["human", "first"], 4))
    token = next(iter(table.tokens))
    with served(Server([table])) as base:
        port = base.rpartition(":")[2]
        page = browser.new_page()
        r = page.goto(f"http://evil.test:{port}/?seat={token}")
        assert r.status == 400 and "Invalid host header" in page.content()
        r = page.goto(f"http://evil.test:{port}/api/view?seat={token}")
        assert r.status == 400 and "areas" not in page.content()
        page.close()


def test_a_page_of_another_origin_cannot_use_a_seat_it_knows(browser):
    """A page served elsewhere (another port: another origin) that holds a seat's URL tries a
    fetch, a 'simple' text/plain POST that skips CORS preflight, and a websocket: none acts."""
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 1, ["human", "first"], 4))
    token = next(iter(table.tokens))
    other = Server([Table.new(load_game("ucb"), MatchSetup("ucb", [], 2, ["human", "first"], 4))])
    with served(Server([table])) as base, served(other) as elsewhere:
        page = browser.new_page()
        page.goto(f"{elsewhere}/")
        outcome = page.evaluate("""async ([base, token]) => {
          const out = {};
          try { const r = await fetch(`${base}/api/act?seat=${token}`, {method: "POST",
                  headers: {"Content-Type": "application/json"}, body: '{"concede": true}'});
                out.fetch = r.status; } catch (e) { out.fetch = "blocked"; }
          try { await fetch(`${base}/api/act?seat=${token}`, {method: "POST", mode: "no-cors",
                  headers: {"Content-Type": "text/plain"}, body: '{"concede": true}'});
                out.simple = "sent"; } catch (e) { out.simple = "blocked"; }
          out.socket = await new Promise((done) => {
            const ws = new WebSocket(`${base.replace("http", "ws")}/ws?seat=${token}`);
            ws.onopen = () => { ws.send('{"concede": true}'); done("open"); };
            ws.onerror = () => done("refused");
          });
          return out;
        }""", [base, token])
        page.close()
    assert outcome["fetch"] == "blocked" and outcome["socket"] == "refused", outcome
    assert table.g.result is None  # nothing conceded the match


def test_a_wrong_token_gets_no_seat_in_the_page(browser):
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 1, ["human", "first"], 4))
    with served(Server([table])) as base:
        page = browser.new_page()
        page.goto(f"{base}/?seat=guessed-token")
        page.wait_for_selector("#toast:not([hidden])")
        assert "unknown seat" in page.locator("#toast").inner_text()
        assert page.locator("[data-option]").count() == 0
        page.goto(f"{base}/?replay&key=guessed")
        page.wait_for_selector("#toast:not([hidden])")
        assert "viewer" in page.locator("#toast").inner_text()
        page.close()


def test_the_play_flow_through_the_checks_looks_right(browser, tmp_path):
    """A match clicked through the Host, Origin and token checks: the board draws, and the
    screenshot is kept for a person to look at (in pytest's --basetemp)."""
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 3, ["human", "first"], 6))
    with seat_page(browser, table) as page:
        for _ in range(6):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            if page.query_selector("[data-result]"):
                break
            page.locator("[data-option]").first.click()
        page.wait_for_selector("#log li")
        assert page.locator(".zone").count() > 4 and page.locator(".card").count() > 3
        page.screenshot(path=str(tmp_path / "table-play.png"))
    assert (tmp_path / "table-play.png").stat().st_size > 10_000


def english_fixed_strings() -> list[str]:
    """The English of the table's fixed strings (catalog `table.*`), as the fragments around
    their placeholders that a page could show."""
    out = set()
    for key, entry in catalog.entries().items():
        if key.startswith("table."):
            for part in re.split(r"\{\w+\}", entry["en"]):
                part = part.strip(" ·():…?")
                if re.search(r"[a-z]{2,}", part):
                    out.add(part)
    return sorted(out)


def said_lines(page) -> list[str]:
    """What the page shows a person, line by line (a rule's ref, which quotes the rulebook,
    left out)."""
    return [re.sub(r" \[[^\]]*\]$", "", line) for line in page.inner_text("body").splitlines()
            if line.strip()]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_the_page_speaks_the_games_language(browser, ruleset, lang, monkeypatch):
    """A match clicked through: no prompt, option, log line or card panel holds effect code
    (the Lark parser finds none), and the ja page holds none of the table's English."""
    monkeypatch.setattr(speak, "current", lang)
    table = Table.new(load_game(ruleset), MatchSetup(ruleset, [], 3, ["human", "first"], 3))
    english = english_fixed_strings()
    with seat_page(browser, table) as page:
        for clicks in range(80):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            lines = said_lines(page)
            code = [(line, effect_code(line)) for line in lines if effect_code(line)]
            assert code == [], code
            if lang == "ja":
                shown = [(e, line) for line in lines for e in english
                         if re.search(rf"(?<![A-Za-z]){re.escape(e)}(?![A-Za-z])", line)]
                assert shown == [], shown
                assert page.evaluate("document.documentElement.lang") == "ja"
            if page.query_selector("[data-result]"):
                break
            options = page.query_selector_all("[data-option]")
            options[(clicks * 7) % len(options)].click()
        assert clicks > 0


def test_hotseat_hands_the_screen_over(browser):
    """Hot-seat: when the decision passes to the other human, a hand-over screen covers the
    board until that player says they hold the device."""
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 2, ["human", "human"], 3), hotseat=True)
    with seat_page(browser, table) as page:
        first = table.g.decision.player
        for _ in range(100):
            page.wait_for_selector("[data-option]:not([disabled]), #handover:not([hidden])")
            if page.is_visible("#handover"):
                break
            page.locator("[data-option]").last.click()
        assert table.g.decision.player != first
        other = f"P{table.g.decision.player + 1}"
        assert other in page.inner_text("#handover")
        assert not page.locator("[data-option]").first.is_visible() or \
            page.evaluate("getComputedStyle(document.getElementById('handover')).position") == "fixed"
        page.click("#handed")
        page.wait_for_selector("#handover", state="hidden")
        assert f"P{table.g.decision.player + 1}" in page.inner_text("#status")


def test_what_changed_is_marked_and_the_story_stays_beside_the_board(browser):
    table = Table.new(load_game("ucb"), MatchSetup("ucb", [], 3, ["human", "first"], 6))
    with seat_page(browser, table) as page:
        marked = 0
        for _ in range(20):
            page.wait_for_selector("[data-option]:not([disabled]), [data-result]")
            marked = page.locator(".card[data-changed]").count()
            if marked or page.query_selector("[data-result]"):
                break
            page.locator("[data-option]").first.click()
        assert marked > 0
        story = page.locator("#story li").all_inner_texts()  # the last sentences of the account
        told = [re.sub(r"  \[.+\]$", "", line, flags=re.S).strip() for line in table.lines[0]
                if not line.startswith("==")]
        assert [line.strip() for line in story] == told[-5:]


@pytest.mark.soak
@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_a_whole_match_without_a_turn_limit(browser, ruleset):
    table = Table.new(load_game(ruleset), MatchSetup(ruleset, [], 11, ["human", "random"]))
    with seat_page(browser, table) as page:
        click_to_the_end(page, 20_000, lambda n, i: (i * 7) % n)
        assert table.g.result is not None


def test_a_puzzle_shows_its_name_goal_and_outcome(browser, tmp_path):
    """`tcg serve --scenario`: the puzzle's name and goal above the question; conceding it
    shows it failed (data-puzzle)."""
    from interpreter.table.scenarios import puzzle

    path = ROOT / "tests/scenarios/ucb/battle_bigger_attacker_destroys_blocker.yaml"
    table = puzzle(path, ["human", "random"])
    with seat_page(browser, table) as page:
        page.wait_for_selector("#puzzle[data-puzzle='goal']")
        text = page.inner_text("#puzzle")
        assert "an attacker with more power destroys the blocker" in text and "テスト大剣士" in text
        page.on("dialog", lambda d: d.accept())
        page.click("#concede")
        page.wait_for_selector("#puzzle[data-puzzle='failed']")
        page.screenshot(path=str(tmp_path / "puzzle.png"))
