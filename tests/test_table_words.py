"""The table in the game's language (issue 33): card panels show their abilities in words,
every fixed string of the page comes from the catalog in ja and en, and the rough edges
(internal resources, puzzles, saved logs) are gone."""

from __future__ import annotations

import json
import random
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from interpreter.run.loading import load_game  # noqa: E402
from interpreter.run.match import MatchSetup  # noqa: E402
from interpreter.table.app import Server  # noqa: E402
from interpreter.table.replay import Replay  # noqa: E402
from interpreter.table.session import Table, puzzle_view  # noqa: E402
from interpreter.table.views import resources, table_words  # noqa: E402
from interpreter.words import speak  # noqa: E402
from tests.conftest import bundled_rulesets  # noqa: E402
from tests.table_client import client_of  # noqa: E402
from tests.test_words import effect_code  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "interpreter/table/static"


def views_of_a_match(ruleset: str, lang: str, decisions: int = 40, seed: int = 4):
    """The seat's views through a match played by random clicks, in `lang`."""
    speak.current = lang
    try:
        t = Table.new(load_game(ruleset), MatchSetup(ruleset, [], seed, ["human", "random"], 6))
        client = client_of(Server([t]))
        seat = next(iter(t.tokens))
        rng = random.Random(seed)
        for _ in range(decisions):
            view = client.get(f"/api/view?seat={seat}").json()
            yield t, view
            if view["result"] or not view["question"]:
                break
            n = len(view["question"]["options"])
            client.post(f"/api/act?seat={seat}", json={"option": rng.randrange(n)})
    finally:
        speak.current = None


def panels(view: dict) -> list[dict]:
    return [c for area in view["areas"].values() for z in area for c in z["cards"]
            if not c.get("hidden")]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("ruleset", bundled_rulesets())
def test_card_panels_show_printed_text_and_abilities_in_words(ruleset: str, lang: str):
    code = None
    rendered = 0
    for t, view in views_of_a_match(ruleset, lang):
        code = code or {a.text for d in t.g.defs for a in d.abilities if a.text}
        words = speak.words_for(t.game, lang)
        for c in panels(view):
            printed = t.game.cards.get(c["name"]) or t.game.tokens.get(c["name"])
            assert c["text"] == (printed.text if printed else "")
            for ability in c["abilities"]:
                assert ability not in code and effect_code(ability) is None, (c["name"], ability)
                rendered += 1
            for p in c["props"]:  # a property by the ruleset's word for it, when it gives one
                assert p["name"] in {words.word(k) for k in t.game.ruleset.properties}
        lines = [*view["log"], *(view["question"] or {}).get("options", ())]
        for line in (x["label"] if isinstance(x, dict) else x for x in lines):
            said = re.sub(r"  \[.+\]$", "", line)  # (a rule's ref quotes the rulebook)
            assert effect_code(said) is None, line
    assert rendered > 0  # (the match showed cards with abilities)


def test_an_enum_value_is_shown_by_the_rulesets_word():
    _, view = next(views_of_a_match("ucb", "ja"))
    kinds = {p["value"] for c in panels(view) for p in c["props"] if p["name"] == "種類"}
    assert kinds and kinds <= {"キャラクター", "呪文", "トークン"}
    _, view = next(views_of_a_match("ucb", "en"))
    names = {p["name"] for c in panels(view) for p in c["props"]}
    assert "cost" in names or "Cost" in names or names  # (en: the ruleset's English words)
    assert not names & {"コスト", "種類"}


class _Texts(HTMLParser):
    """The text of index.html outside an element that takes its words from the catalog."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.keys: set[str] = set()
        self.untranslated: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.keys |= {v for k, v in a.items() if k in ("data-t", "data-t-title") and v}
        if "title" in a:
            self.untranslated.append(f"title={a['title']}")
        if tag not in ("meta", "link", "input", "br"):
            # (translate="no": names a user types, such as the agents' --agents names)
            self.stack.append("data-t" in a or a.get("translate") == "no")

    def handle_endtag(self, tag):
        if tag not in ("meta", "link", "input", "br") and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if re.search(r"[A-Za-z]{2,}", data) and not any(self.stack) and \
                not data.strip().startswith(("tcg table", '"use strict"')):
            self.untranslated.append(data.strip())


def test_every_string_of_the_page_is_in_the_catalog_in_ja_and_en():
    """A fixed string of the page (index.html's text, table.js's t("key")) without a catalog
    entry in both languages fails here."""
    ja, en = table_words("ja"), table_words("en")
    html = _Texts()
    html.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert html.untranslated == [], "text of index.html not from the catalog (data-t)"
    js = (STATIC / "table.js").read_text(encoding="utf-8")
    keys = html.keys | {k for k in re.findall(r"\bt\(\"([\w.-]+)\"", js) if not k.endswith(".")}
    keys |= {f"vis.{v}" for v in ("hidden", "owner")} | {"solved", "failed"}  # (keys the page builds)
    missing = sorted(k for k in keys if k not in ja or k not in en or ja[k] == en[k])
    assert missing == []
    # table.js writes no English of its own into the page: each literal it shows is a key
    shown = re.findall(r"(?:textContent|el\([^)]*?\}),?\s*[`\"]([A-Za-z][^`\"]*[a-z ]{3,})[`\"]", js)
    assert shown == [], shown


def test_internal_resources_are_not_shown_and_a_capped_one_shows_what_is_left():
    _, view = next(views_of_a_match("manacard", "ja"))
    assert view["resources"] == {"P1": [], "P2": []}  # (all thirteen are its bookkeeping)
    _, view = next(views_of_a_match("dannokomachi", "ja"))
    assert {r["key"] for r in view["resources"]["P1"]} == {"dango", "pool"}  # (not `mulligan`)
    _, view = next(views_of_a_match("kannagi", "ja"))
    assert [r["key"] for r in view["resources"]["P1"]] == ["life"]  # (not its count of turns)


def test_a_puzzle_says_whether_its_goal_was_met():
    p = {"name": "n", "goal": "P1の勝利", "winner": "P1"}
    assert puzzle_view(p, None)["solved"] is None
    assert puzzle_view(p, {"winner": "P1"})["solved"] is True
    assert puzzle_view(p, {"winner": "P2"})["solved"] is False
    assert puzzle_view(p, {"winner": None})["solved"] is False


def test_a_saved_log_names_decks_as_tcg_play_does(tmp_path, monkeypatch):
    """The table's log names the decks relative to the game's folder (where `tcg serve` runs),
    never by the server's absolute paths, and replays as any log."""
    monkeypatch.chdir(ROOT)
    t = Table.new(load_game("ucb"), MatchSetup("ucb", [], 1, ["human", "random"], 4))
    client = client_of(Server([t]))
    seat = next(iter(t.tokens))
    client.post(f"/api/act?seat={seat}", json={"concede": True})
    text = client.get(f"/api/log?seat={seat}").text
    header = json.loads(text.splitlines()[0])
    assert header["decks"] == ["cards/ucb/decks/aka_sokkou.yaml", "cards/ucb/decks/ao_seigyo.yaml"]
    log = tmp_path / "t.jsonl"
    log.write_text(text, encoding="utf-8")
    assert Replay(log).steps > 0  # (the viewer replays it)


def test_a_capped_resource_shows_what_is_left(tmp_path):
    """A resource with a `max` is shown as what is left of it; the rest as their value."""
    text = (ROOT / "rulesets/ucb.yaml").read_text(encoding="utf-8")
    assert "\nresources:" not in text  # (UCB has none: give it a capped one)
    text = text.replace("\nstates:", "\nresources:\n  light: {initial: 2, min: 0, max: 7}\n\nstates:", 1)
    (tmp_path / "rulesets").mkdir()
    path = tmp_path / "rulesets/ucb.yaml"
    path.write_text(text, encoding="utf-8")
    shutil.copytree(ROOT / "cards/ucb", tmp_path / "cards/ucb")
    game = load_game(str(path))
    shown = resources(game, speak.words_for(game, "en"), {"P1": {"light": 2}})
    assert shown["P1"][0]["value"] == 2 and shown["P1"][0]["max"] == 7
