"""The playtest table's server (`tcg serve`): routes, seats, hidden information, replay, fork,
export and puzzles, through Starlette's TestClient."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.engine.state import visible  # noqa: E402
from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup, play  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.replay import Replay  # noqa: E402
from interpreter.table.scenarios import puzzle  # noqa: E402
from interpreter.table.session import Table  # noqa: E402
from interpreter.words import speak  # noqa: E402
from tests.conftest import bundled_rulesets  # noqa: E402
from tests.table_client import client_of  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def table(ruleset: str, agents: list[str], seed: int = 1, turns: int | None = 8,
          hotseat: bool = False) -> tuple[Table, TestClient, dict[int | None, str]]:
    t = Table.new(load_game(ruleset), MatchSetup(ruleset, [], seed, agents, turns), hotseat)
    return t, client_of(Server([t])), {p: tok for tok, p in t.tokens.items()}


class Oracle:
    """What each seat may know: the cards it can see now, and every card it has seen."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.ever: list[set[int]] = [set() for _ in t.g.players]
        self.read = 0  # records looked at

    def visible_now(self, seat: int) -> set[int]:
        g = self.t.g
        now = {c for c in range(len(g.defs)) if visible(g, c, seat)}
        self.ever[seat] |= now
        for r in self.t.records[self.read:]:  # shown between two frames: seen all the same
            if r.get("e") == "revealed" or (r.get("e") == "looked" and r["player"] == f"P{seat + 1}"):
                self.ever[seat] |= {int(str(c).rpartition("#")[2]) for c in r["cards"]}
        return now

    def check(self, seat: int, body: str) -> None:
        """No card the seat cannot see is on its board; no card it never saw is named."""
        now = self.visible_now(seat)
        view = json.loads(body)
        board = {c["id"] for area in view["areas"].values() for z in area for c in z["cards"]
                 if not c.get("hidden")}
        assert board <= now, f"P{seat + 1} is shown hidden cards {board - now}"
        for z in (z for area in view["areas"].values() for z in area):
            for c in z["cards"]:
                assert set(c) <= {"hidden", "states"} or c["id"] in now
        named = {int(m) for m in re.findall(r"#(\d+)", body)}
        named |= {o["card"] for o in (view["question"] or {}).get("options", ()) if o["card"] is not None}
        leaked = named - self.ever[seat]
        assert not leaked, f"P{seat + 1} is told of cards it never saw: " + \
            ", ".join(f"{self.t.g.defs[c].name}#{c}" for c in leaked)


@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_no_page_or_frame_shows_a_seat_a_card_it_cannot_see(ruleset):
    """A whole match between two human seats, each click random: every HTTP body and every
    websocket frame sent to a seat holds only what that seat may see (issue 23)."""
    t, client, seats = table(ruleset, ["human", "human"], turns=6)
    oracle = Oracle(t)
    rng = random.Random(7)
    with client.websocket_connect(f"/ws?seat={seats[0]}") as ws0, \
            client.websocket_connect(f"/ws?seat={seats[1]}") as ws1:
        sockets = [ws0, ws1]
        for p, ws in enumerate(sockets):
            oracle.check(p, json.dumps(ws.receive_json(), ensure_ascii=False))
        moves = 0
        while t.g.result is None:
            player = t.g.decision.player
            other = 1 - player
            oracle.check(other, client.get(f"/api/view?seat={seats[other]}").text)
            body = client.post(f"/api/act?seat={seats[player]}",
                               json={"option": rng.randrange(len(t.g.decision.options))}).text
            oracle.check(player, body)
            for p, ws in enumerate(sockets):  # each socket is sent its seat's view of the change
                oracle.check(p, json.dumps(ws.receive_json(), ensure_ascii=False))
            moves += 1
        assert moves > 5
    view = client.get(f"/api/view?seat={seats[0]}").json()
    assert view["result"]["text"] and view["question"] is None


def test_the_oracle_catches_a_leak():
    """The leak test can fail: a view naming the opponent's hand is caught."""
    t, client, seats = table("ucb", ["human", "random"])
    hand = next(c for c in t.g.zones[next(r for r in t.g.zones if r.name == "hand" and r.owner == 1)])
    view = client.get(f"/api/view?seat={seats[0]}").json()
    Oracle(t).check(0, json.dumps(view, ensure_ascii=False))
    view["log"].append(f"{t.g.defs[hand].name}#{hand}: deck → hand (P2)")
    with pytest.raises(AssertionError, match="never saw"):
        Oracle(t).check(0, json.dumps(view, ensure_ascii=False))


def test_a_click_is_an_option_index_the_server_checks():
    t, client, seats = table("ucb", ["human", "random"])
    view = client.get(f"/api/view?seat={seats[0]}").json()
    options = view["question"]["options"]
    assert [o["index"] for o in options] == list(range(len(options)))
    # in words, in the game's language (UCB declares ja), never the engine's "main phase: act"
    assert view["question"]["prompt"] == "メインフェイズ：何をしますか？"
    played = next(o for o in options if o["label"].endswith("を場に出す"))
    assert played["card"] is not None  # clicking that card picks this option
    r = client.post(f"/api/act?seat={seats[0]}", json={"option": len(options)})
    assert r.status_code == 400 and f"no option {len(options)}" in r.json()["error"]
    for bad in ({"option": "0"}, {"option": -1}, {"option": True}, {}, [1]):
        assert client.post(f"/api/act?seat={seats[0]}", json=bad).status_code == 400
    assert client.post(f"/api/act?seat={seats[0]}", content=b"\xff{").status_code == 400
    assert client.post("/api/act?seat=guess", json={"option": 0}).status_code == 403
    assert client.get("/api/view").status_code == 403
    after = client.post(f"/api/act?seat={seats[0]}", json={"option": played["index"]}).json()
    assert any(played["label"].removeprefix("play ") in line for line in after["log"])


def test_two_humans_get_their_own_unguessable_seats():
    t, client, seats = table("ucb", ["human", "human"])
    assert len(set(seats.values())) == 2 and all(len(tok) >= 20 for tok in seats.values())
    views = [client.get(f"/api/view?seat={seats[p]}").json() for p in (0, 1)]
    assert [v["you"] for v in views] == ["P1", "P2"]
    now = t.g.decision.player  # (P2 is asked first in UCB: a mulligan)
    assert views[now]["question"] and views[1 - now]["question"] is None
    assert views[1 - now]["deciding"] == f"P{now + 1}"
    r = client.post(f"/api/act?seat={seats[1 - now]}", json={"option": 0})
    assert r.status_code == 400 and f"P{now + 1}'s decision" in r.json()["error"]


def test_hotseat_shows_whoever_decides():
    t, client, seats = table("ucb", ["human", "human"], hotseat=True)
    token = seats[None]
    seen = set()
    for _ in range(40):
        view = client.get(f"/api/view?seat={token}").json()
        if view["result"]:
            break
        seen.add(view["you"])
        assert view["question"] and view["deciding"] == view["you"]
        client.post(f"/api/act?seat={token}", json={"option": len(view["question"]["options"]) - 1})
    assert seen == {"P1", "P2"}


def test_concede_and_new_game():
    t, client, seats = table("ucb", ["human", "random"])
    view = client.post(f"/api/act?seat={seats[0]}", json={"concede": True}).json()
    assert view["result"]["winner"] == "P2" and view["result"]["text"] == "P2の勝利、P1は投了"
    view = client.post(f"/api/act?seat={seats[0]}", json={"new": True}).json()
    assert view["result"] is None and view["question"]
    assert client.get(f"/api/view?seat={seats[0]}").json()["turn"] == view["turn"]


def test_the_ai_moves_appear_in_the_log_with_rule_refs():
    t, client, seats = table("ucb", ["human", "random"])
    view = client.get(f"/api/view?seat={seats[0]}").json()
    while view["turn"] < 2 and not view["result"]:
        view = client.post(f"/api/act?seat={seats[0]}",
                           json={"option": len(view["question"]["options"]) - 1}).json()
    assert "== ターン2：P2 ==" in view["log"]  # (in the game's language: ucb declares ja)
    assert any(re.search(r"\[.+\]$", line) for line in view["log"])  # a rule's ref


def test_board_layout_comes_from_the_ruleset():
    t, client, seats = table("ucb", ["human", "random"])
    view = client.get(f"/api/view?seat={seats[0]}").json()
    zones = {z["key"]: z for area in view["areas"].values() for z in area}
    assert {z["key"] for z in view["areas"]["mine"]} == {k for k in zones if k.endswith("@P1")}
    assert zones["battle@P1"]["layout"] == "slots" and zones["battle@P1"]["capacity"] == 5
    assert zones["deck@P2"]["layout"] == "backs" and zones["deck@P2"]["count"] > 20
    assert zones["hand@P2"]["layout"] == "backs"
    card = zones["hand@P1"]["cards"][0]
    # (a property by the ruleset's word for it)
    assert card["name"] and card["text"] and {p["name"] for p in card["props"]} >= {"コスト"}


def log_of_a_match(tmp_path: Path, ruleset: str = "ucb", seed: int = 2) -> Path:
    log = tmp_path / f"{ruleset}.jsonl"
    with open(log, "w", encoding="utf-8") as out:
        play(MatchSetup(ruleset, [], seed, ["random", "random"], 10), out)
    return log


def test_replay_steps_back_and_forth_and_jumps_to_a_turn(tmp_path):
    replay = Replay(log_of_a_match(tmp_path))
    client = client_of(Server(replay=replay))
    first = client.get("/api/replay?step=0&view=all").json()
    later = client.get("/api/replay?step=30&view=all").json()
    back = client.get("/api/replay?step=0&view=all").json()
    assert first == back and later["step"] == 30 and later["log"] != first["log"]
    end = client.get(f"/api/replay?step={replay.steps}&view=all").json()
    assert end["result"] is not None
    turn = client.get("/api/replay?turn=4&view=all").json()
    assert turn["turn"] == 4 and turn["step"] == replay.step_of_turn(4)
    seen = client.get("/api/replay?step=30&view=P2").json()
    hidden = [c for z in seen["areas"]["theirs"] for c in z["cards"] if c.get("hidden")]
    assert seen["you"] == "P2" and hidden  # P1's hand, as P2 saw it
    assert client.get("/api/replay?step=30&view=P9").status_code == 400
    assert client.get("/api/replay?step=x").status_code == 400


def test_fork_continues_against_an_agent(tmp_path):
    replay = Replay(log_of_a_match(tmp_path))
    server = Server(replay=replay)
    client = client_of(server)
    step = 20
    seat = f"P{replay.state_at(step).decision.player + 1}"
    url = client.post("/api/fork", json={"step": step, "seat": seat, "agent": "random"}).json()["url"]
    view = client.get(url.replace("/?", "/api/view?")).json()
    assert view["you"] == seat and view["question"] and view["mode"] == "play"
    r = client.post("/api/fork", json={"step": 3, "seat": "P1", "agent": "nobody"})
    assert r.status_code == 400 and "unknown agent" in r.json()["error"]


@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_export_writes_a_scenario_tcg_test_runs(tmp_path, ruleset):
    replay = Replay(log_of_a_match(tmp_path, ruleset))
    client = client_of(Server(replay=replay))
    step = replay.steps // 2
    r = client.get(f"/api/export?step={step}")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    path = tmp_path / "exported.yaml"
    path.write_text(r.text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "test", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "1 passed, 0 failed" in done.stdout, done.stdout + done.stderr
    # a puzzle from the export starts from that state (the AI plays until the human decides)
    t = puzzle(path, ["human", "random"])
    assert t.g.turn >= replay.state_at(step).turn
    assert t.g.result is not None or t.g.decision.player == 0


def test_export_keeps_who_owns_the_cards_of_a_shared_zone(tmp_path):
    """A moment of the pools toy game (a market dealt from a pool: cards owned by no player)
    exported as a scenario writes `owner: none` for them, and `tcg test` runs it."""
    pools = str(ROOT / "tests" / "rulesets" / "pools.yaml")
    log = tmp_path / "pools.jsonl"
    with open(log, "w", encoding="utf-8") as out:
        play(MatchSetup(pools, [], 2, ["random", "random"], 10), out)
    replay = Replay(log)
    text = client_of(Server(replay=replay)).get(f"/api/export?step={replay.steps // 2}").text
    assert "owner: none" in text
    path = tmp_path / "exported.yaml"
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "test", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "1 passed, 0 failed" in done.stdout, done.stdout + done.stderr


def test_an_uploaded_log_opens_in_the_viewer(tmp_path):
    client = client_of(Server())
    assert client.get("/api/replay?step=0").status_code == 400
    data = log_of_a_match(tmp_path).read_bytes()
    ndjson = {"Content-Type": "application/x-ndjson"}
    assert client.post("/api/replay?name=m.jsonl", content=data, headers=ndjson).json()["steps"] > 10
    assert client.get("/api/replay?step=1&view=P1").json()["source"] == "m.jsonl"
    assert client.post("/api/replay", content=b"not a log", headers=ndjson).status_code == 400


def test_serve_refuses_bad_options_in_words():
    for args, words in ((["serve", "ucb", "--agents", "random,random"], "needs a human seat"),
                        (["serve", "ucb", "--agents", "human"], "names 1 seats"),
                        (["serve", "nope"], "nope"),
                        (["serve", "--replay", "missing.jsonl"], "missing.jsonl")):
        r = subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
        assert r.returncode in (1, 2) and words in r.stdout + r.stderr, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr


def test_tcg_serve_prints_the_seat_url_and_serves_it():
    import socket

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "ucb", "--agents",
                          "human,random", "--port", str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        assert re.fullmatch(rf"P1: http://127\.0\.0\.1:{port}/\?seat=[\w-]{{20,}}\n", line), line
        url = line.split(": ", 1)[1].strip()
        for _ in range(100):
            try:
                page = httpx.get(url, timeout=5)
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert page.status_code == 200 and 'src="/static/table.js"' in page.text
        view = httpx.get(url.replace("/?", "/api/view?"), timeout=5).json()
        assert view["you"] == "P1" and view["ruleset"]["id"] == "ucb"
        again = subprocess.run([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port)],
                               cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert again.returncode == 2 and "choose another --port" in again.stderr
        assert again.stdout == ""  # no URL printed for a server that is not there
    finally:
        p.terminate()
        p.wait(10)


def test_the_question_says_what_it_is_about(monkeypatch: pytest.MonkeyPatch):
    """"choose the blocker for 錬金術師's attack": the prompt, the card it is about, and how far a
    choice of several cards has got (in English: `--lang en`)."""
    monkeypatch.setattr(speak, "current", "en")
    t, client, seats = table("ucb", ["human", "human"], seed=2, turns=None)
    rng = random.Random(1)
    asked: set[str] = set()
    for _ in range(3000):
        if t.g.result is not None:
            break
        player = t.g.decision.player
        view = client.get(f"/api/view?seat={seats[player]}").json()
        asked.add(view["question"]["prompt"])
        picked = re.search(r" (\d) of \d chosen: ", view["question"]["prompt"])
        if picked:  # the cards picked so far are marked on the board
            assert len(view["question"]["chosen"]) == int(picked[1])
        client.post(f"/api/act?seat={seats[player]}",
                    json={"option": rng.randrange(len(view["question"]["options"]))})
    # the card it is about, said once (not "which character blocks X? — X")
    assert any(re.fullmatch(r"which character blocks [^#?]+\?", q) for q in asked), asked
    assert any(re.fullmatch(r"pay \d: choose the mana to use \(none of \d chosen yet\)", q)
               for q in asked), asked
    assert any(re.search(r" [1-9] of \d chosen: .+#\d+", q) for q in asked)  # a second pick was asked


def test_a_puzzle_starts_from_the_scenario_state(monkeypatch: pytest.MonkeyPatch):
    """`tcg serve --scenario FILE`: the scenario's state (its extra cards too), the human to play
    (in English: `--lang en`)."""
    monkeypatch.setattr(speak, "current", "en")
    import argparse

    from interpreter.table.serve import prepare

    path = ROOT / "tests/scenarios/ucb/battle_bigger_attacker_destroys_blocker.yaml"
    args = argparse.Namespace(agents="human,random", turns=None, replay=None, ruleset=None,
                              scenario=str(path), hotseat=False, deck=[], seed=0)
    server, urls = prepare(args)
    (who, url), viewer = urls
    assert viewer == ("replay viewer", f"/?replay&key={server.key}")
    client = client_of(server)
    view = client.get(url.replace("/?", "/api/view?")).json()
    zones = {z["key"]: z for area in view["areas"].values() for z in area}
    assert who == "P1" and view["turn"] == 3 and view["phase"] == "battle phase"
    # its name and goal shown, then whether it was met (conceding it fails it)
    assert view["puzzle"] == {"name": "an attacker with more power destroys the blocker; "
                              "the attacker taps", "goal": view["puzzle"]["goal"], "solved": None}
    assert view["puzzle"]["goal"].startswith("テスト大剣士 (3) attacks")
    ended = client.post(url.replace("/?", "/api/act?"), json={"concede": True}).json()
    assert ended["puzzle"]["solved"] is False
    assert [c["name"] for c in zones["battle@P1"]["cards"]] == ["テスト大剣士"]
    assert any(o["label"].startswith("attack with テスト大剣士") for o in view["question"]["options"])
    view = client.post(url.replace("/?", "/api/act?"), json={"new": True}).json()
    assert view["turn"] == 3 and view["result"] is None  # the puzzle again
