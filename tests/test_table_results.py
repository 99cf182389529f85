"""The table's results page (`tcg serve --results DIR`, issue 24 item 6) and the live match's
"save log" download, through Starlette's TestClient; one check in a real browser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")


from interpreter.diagnostics import TcgError  # noqa: E402
from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup, replay  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.replay import Replay  # noqa: E402
from interpreter.table.results import Results  # noqa: E402
from interpreter.table.scenarios import puzzle  # noqa: E402
from interpreter.table.session import Table  # noqa: E402
from tests.table_client import client_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def tcg(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """A real `tcg simulate --out` folder with a swap (so an ablation.json too)."""
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("sim") / "ucb"
    run = tcg("simulate", "ucb", "--games", "8", "--out", str(folder), "--swap", "勇気の歌=知恵の泉")
    assert run.returncode == 0, run.stderr
    return folder


def test_the_results_page_shows_the_summary_cards_ablation_and_plots(out):
    client = client_of(Server(results=Results(out)))
    assert "results.js" in client.get("/results").text
    page = client.get("/api/results").json()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    cards = json.loads((out / "cards.json").read_text(encoding="utf-8"))
    assert [d["name"] for d in page["summary"]["decks"].values()] == ["赤の速攻", "青の制御"]
    assert page["summary"]["decks"]["A"]["win"] == summary["decks"]["A"]["win"]
    assert page["cards"]["cards"] == cards["cards"] and "never_played" in page["cards"]
    assert page["ablation"]["swaps"] == [["勇気の歌", "知恵の泉"]]
    assert page["plots"] == ["win_rates.png", "lengths.png", "cards.png"]
    assert page["downloads"] == ["summary.csv", "cards.csv"]
    png = client.get("/results/cards.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content == (out / "cards.png").read_bytes()


def test_only_the_known_files_of_the_folder_are_served(out, tmp_path):
    """No path reaches outside the folder, nor a file of it the page does not show."""
    (out.parent / "secret.json").write_text("{}", encoding="utf-8")
    client = client_of(Server(results=Results(out)))
    for url in ["/results/..%2Fsecret.json", "/results/%2Fetc%2Fpasswd", "/results/..%2F..%2Fetc%2Fpasswd",
                "/results/results.jsonl", "/results/run.json", "/results/swap", "/results/%2E%2E"]:
        r = client.get(url)
        assert r.status_code == 404 and "secret" not in r.text, url
    results = Results(out)
    for name in ["../secret.json", "/etc/passwd", str(out / "cards.json"), "swap/summary.json"]:
        assert results.file(name) is None, name
    (out / "matrix.png").mkdir()  # a known name that is not a file is not served either
    try:
        assert client.get("/results/matrix.png").status_code == 404
    finally:
        (out / "matrix.png").rmdir()


def test_a_folder_that_is_not_a_simulation_is_refused(tmp_path):
    with pytest.raises(TcgError, match="no such folder"):
        Results(tmp_path / "missing")
    with pytest.raises(TcgError, match="summary.json"):
        Results(tmp_path)
    run = tcg("serve", "--results", str(tmp_path / "missing"))
    assert run.returncode == 2 and "no such folder" in run.stderr and "Traceback" not in run.stderr
    r = client_of(Server()).get("/api/results")
    assert r.status_code == 400 and "--results" in r.json()["error"]


def test_a_match_log_is_saved_once_the_match_is_over_and_replays(tmp_path):
    t = Table.new(load_game("ucb"), MatchSetup("ucb", [], 3, ["human", "random"], 8))
    client = client_of(Server([t]))
    token = next(iter(t.tokens))
    refused = client.get(f"/api/log?seat={token}")
    assert refused.status_code == 400 and "hidden cards" in refused.json()["error"]
    for _ in range(5):
        client.post(f"/api/act?seat={token}", json={"option": 0})
    assert client.get("/api/log?seat=nobody").status_code == 403
    client.post(f"/api/act?seat={token}", json={"concede": True})
    saved = client.get(f"/api/log?seat={token}")
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    path = tmp_path / "table.jsonl"
    path.write_bytes(saved.content)
    ok, message = replay(path)  # what `tcg replay` runs
    assert ok, message
    assert Replay(str(path)).steps == sum(1 for r in t.records if "d" in r)  # and the viewer opens it


def test_a_puzzle_has_no_log_to_save():
    t = puzzle(str(ROOT / "tests/scenarios/ucb/battle_bigger_attacker_destroys_blocker.yaml"),
               ["human", "random"], False)
    token = next(iter(t.tokens))
    client = client_of(Server([t]))
    client.post(f"/api/act?seat={token}", json={"concede": True})
    r = client.get(f"/api/log?seat={token}")
    assert r.status_code == 400 and "scenario" in r.json()["error"]


def test_the_results_page_renders_in_a_browser(out):
    """Chromium draws the per-card table; a click on a heading sorts it (docs/table/results.png)."""
    from tests.test_table_browser import ARGS, CHROMIUM, served

    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium on this machine")
    cards = json.loads((out / "cards.json").read_text(encoding="utf-8"))["cards"]
    server = Server(results=Results(out))
    with sync_api.sync_playwright() as p, served(server) as url:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(f"{url}/results?key={server.key}")
        page.wait_for_selector("#cardtable tbody tr")
        assert page.locator("#cardtable tbody tr").count() == len(cards)
        assert "赤の速攻" in page.locator("#summary").inner_text()
        page.click("th[data-sort=drawn]")  # most drawn first
        first = page.locator("#cardtable tbody tr").first.get_attribute("data-card")
        assert first == max(cards, key=lambda r: r["drawn"])["card"]
        page.wait_for_function("[...document.images].every((i) => i.complete && i.naturalWidth > 0)")
        assert page.locator("#plots img").count() == 3  # win_rates, lengths, cards
        browser.close()


def test_the_save_log_link_appears_with_the_result_in_a_browser(tmp_path):
    from tests.test_table_browser import ARGS, CHROMIUM, served

    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("no chromium on this machine")
    t = Table.new(load_game("ucb"), MatchSetup("ucb", [], 4, ["human", "random"], 8))
    token = next(iter(t.tokens))
    with sync_api.sync_playwright() as p, served(Server([t])) as url:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page()
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{url}/?seat={token}")
        page.wait_for_selector("[data-option]")
        assert page.query_selector("#saveLog") is None  # no link while the match goes on
        page.click("#concede")
        page.wait_for_selector("[data-result] #saveLog")
        with page.expect_download() as download:
            page.click("#saveLog")
        path = tmp_path / "saved.jsonl"
        download.value.save_as(path)
        browser.close()
    ok, message = replay(path)
    assert ok, message
