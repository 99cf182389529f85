"""`tcg lsp` driven over stdio as an editor drives it (pytest-lsp starts the server as a
subprocess; one server for the module, each test opening its own unsaved files)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CARDS = (ROOT / "cards" / "ucb" / "characters.yaml").read_text(encoding="utf-8")
pytestmark = pytest.mark.asyncio(loop_scope="module")
_OPENED: list[str] = []


def _recording_client() -> LanguageClient:
    """pytest-lsp's client, also keeping every published diagnostics list by (uri, version):
    waiting for the next notification could miss one that came in before the wait began."""
    client = LanguageClient()
    client.published, client.publications = {}, {}

    def publish(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        client.published[params.uri, params.version] = list(params.diagnostics)
        client.publications[params.uri] = client.publications.get(params.uri, 0) + 1

    def register(client: LanguageClient, params: types.RegistrationParams) -> None:
        client.registrations = [r.method for r in params.registrations]

    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES,
                                   types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: publish,
                                   types.CLIENT_REGISTER_CAPABILITY: register})
    return client


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "interpreter.cli", "lsp"], client_factory=_recording_client))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="repo")]))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(autouse=True)
def _close_after(client):
    """Each test's files are closed after it: an open card set joins its game's cards."""
    yield
    for uri in _OPENED:
        client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    _OPENED.clear()


async def _published(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    """The diagnostics the server publishes for this version of the file."""
    async def arrived() -> None:
        while (uri, version) not in client.published:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(arrived(), 30)
    return client.published[uri, version]


def _open(client: LanguageClient, tmp_path: Path, name: str, text: str) -> str:
    uri = (tmp_path / name).as_uri()  # never written: the server reads the editor's buffer
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
    _OPENED.append(uri)
    return uri


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def _where(text: str, needle: str, offset: int = 0) -> types.Position:
    line = next(i for i, row in enumerate(text.splitlines()) if needle in row)
    return types.Position(line, text.splitlines()[line].index(needle) + offset)


async def test_a_mistake_in_a_card_is_reported_at_its_range_and_quick_fixed(client, tmp_path):
    text = CARDS.replace("when destroy where self in target: draw(you, 1)",
                         "when destroy where self in target: drow(you, 1)")
    uri = _open(client, tmp_path, "cards.yaml", text)
    found = await _published(client, uri, 1)
    assert [(d.code, d.range) for d in found] == [
        ("UNKNOWN-VERB", types.Range(_where(text, "drow"), _where(text, "drow", 4)))]
    assert "unknown verb 'drow'" in found[0].message and "did you mean 'draw'?" in found[0].message
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), found[0].range, types.CodeActionContext(diagnostics=found)))
    assert [(a.title, a.edit.changes[uri][0].new_text) for a in actions] == [("Change to 'draw'", "draw")]


async def test_diagnostics_follow_the_edits(client, tmp_path):
    uri = _open(client, tmp_path, "edited.yaml", CARDS)
    assert await _published(client, uri, 1) == []
    broken = CARDS.replace("cost: 2", "cost: many", 1)
    for version in (2, 3, 4):  # typed quickly: checked once the typing pauses
        _change(client, uri, version, broken)
    found = await _published(client, uri, 4)
    assert [d.range.start.line for d in found] == [_where(broken, "cost: many").line]
    _change(client, uri, 5, CARDS)
    assert await _published(client, uri, 5) == []


async def test_completion_inside_an_effect_offers_verbs_and_card_names(client, tmp_path):
    text = CARDS.replace("when destroy where self in target: draw(you, 1)",
                         "when destroy where self in target: dr")
    uri = _open(client, tmp_path, "complete.yaml", text)
    await _published(client, uri, 1)
    at = _where(text, "target: dr", len("target: dr"))
    result = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), at))
    by_label = {item.label: item for item in result.items}
    assert "draw(player: player, n: number = 1)" in by_label["draw"].detail
    assert by_label["炎の剣士"].insert_text == "「炎の剣士」"
    assert "target" in by_label  # a field of the destroy event, in scope
    assert "moved" not in by_label  # events only after `when`


async def test_hover_on_a_verb_shows_its_definition_and_ref(client, tmp_path):
    uri = _open(client, tmp_path, "hover.yaml", CARDS)
    await _published(client, uri, 1)
    result = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), _where(CARDS, "destroy where self", 2)))
    assert "**verb** `destroy`" in result.contents.value
    assert "for each c in target { move(c, discard(c.owner)) }" in result.contents.value
    assert "rule: 撃破" in result.contents.value


async def test_hover_on_a_primitive_quotes_the_language_reference(client, tmp_path):
    uri = _open(client, tmp_path, "primitive.yaml", CARDS)
    await _published(client, uri, 1)
    result = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(uri), _where(CARDS, "move(", 1)))
    assert "docs/LANGUAGE.md 2.6 Primitives" in result.contents.value
    assert "a full zone refuses it" in result.contents.value


async def test_definition_jumps_from_a_verb_to_its_ruleset_line(client, tmp_path):
    uri = _open(client, tmp_path, "define.yaml", CARDS)
    await _published(client, uri, 1)
    verb = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), _where(CARDS, "destroy where self", 1)))
    ruleset = (ROOT / "rulesets" / "ucb.yaml").read_text(encoding="utf-8")
    assert verb.uri == (ROOT / "rulesets" / "ucb.yaml").as_uri()
    assert verb.range.start == _where(ruleset, "  destroy:", 2)


async def test_definition_jumps_from_a_card_name_to_its_card(client, tmp_path):
    deck_text = (ROOT / "cards" / "ucb" / "decks" / "aka_sokkou.yaml").read_text(encoding="utf-8")
    deck = _open(client, tmp_path, "deck.yaml", deck_text)
    assert await _published(client, deck, 1) == []
    card = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(deck), _where(deck_text, "炎の剣士", 1)))
    core = (ROOT / "cards" / "ucb" / "core.yaml").read_text(encoding="utf-8")
    assert card.uri == (ROOT / "cards" / "ucb" / "core.yaml").as_uri()
    assert card.range.start == _where(core, "炎の剣士")


async def test_a_deck_is_checked_against_the_game_and_completes_card_names(client, tmp_path):
    text = "ruleset: ucb\nmain:\n  炎の剣: 3\n"
    uri = _open(client, tmp_path, "mydeck.yaml", text)
    found = await _published(client, uri, 1)
    unknown = [d for d in found if d.code == "UNKNOWN-CARD"]
    assert unknown and unknown[0].range.start == types.Position(2, 2)
    result = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(2, 4)))
    assert "炎の剣士" in {item.label for item in result.items}


async def test_broken_yaml_is_a_diagnostic_not_a_crash(client, tmp_path):
    uri = _open(client, tmp_path, "broken.yaml", "ruleset: ucb\ncards:\n  - name: [x\n")
    found = await _published(client, uri, 1)
    assert [d.code for d in found] == ["YAML"]
    result = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(uri), types.Position(2, 10)))
    assert result is not None


async def test_other_yaml_files_are_left_alone(client, tmp_path):
    uri = _open(client, tmp_path, "workflow.yaml", "name: ci\non: [push]\njobs: {}\n")
    assert await _published(client, uri, 1) == []


async def test_a_scenario_completes_zones_cards_and_phases(client, tmp_path):
    text = "ruleset: ucb\nstate:\n  phase: ma\n  zones:\n    batt\n    hand@P1: [炎の\n"
    uri = _open(client, tmp_path, "scenario.yaml", text)
    await _published(client, uri, 1)

    async def labels(line: int, col: int) -> set[str]:
        result = await client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(uri), types.Position(line, col)))
        return {item.label for item in result.items}

    assert {"main", "battle"} <= await labels(2, 11)
    assert {"battle@P1", "battle@P2", "hand@P1"} <= await labels(4, 8)
    assert "炎の剣士" in await labels(5, 17)


async def test_editing_the_ruleset_rechecks_its_open_card_sets(client, tmp_path):
    ruleset = (ROOT / "tests" / "rulesets" / "mini.yaml").read_text(encoding="utf-8")
    ruleset = ruleset.replace("id: mini", "id: lsp_mini")
    rules = _open(client, tmp_path / "rulesets", "lsp_mini.yaml", ruleset)
    assert await _published(client, rules, 1) == []
    cards = _open(client, tmp_path, "cards.yaml", "ruleset: lsp_mini\ncards:\n"
                  "  - {name: a, abilities: ['when ping where card == self: pong()']}\n")
    assert await _published(client, cards, 1) == []
    before = client.publications[cards]
    _change(client, rules, 2, ruleset.replace("  pong:", "  pang:"))

    async def rechecked() -> None:
        while client.publications[cards] == before:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(rechecked(), 30)
    found = client.diagnostics[cards]
    assert [d.code for d in found] == ["UNKNOWN-VERB"] and "unknown verb 'pong'" in found[0].message


async def test_a_ruleset_changed_on_disk_rechecks_the_open_files(client, tmp_path):
    """The server asks to hear of YAML files changing on disk; when told, it reads them again."""
    assert client.registrations == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    folder = tmp_path / "rulesets"
    folder.mkdir()
    ruleset_file = folder / "lsp_disk.yaml"
    mini = (ROOT / "tests" / "rulesets" / "mini.yaml").read_text(encoding="utf-8")
    ruleset_file.write_text(mini.replace("id: mini", "id: lsp_disk"), encoding="utf-8")
    cards = _open(client, tmp_path, "cards.yaml", f"ruleset: {ruleset_file}\ncards:\n"
                  "  - {name: a, abilities: ['when ping where card == self: pong()']}\n")
    assert await _published(client, cards, 1) == []
    before = client.publications[cards]
    ruleset_file.write_text(mini.replace("id: mini", "id: lsp_disk").replace("  pong:", "  pang:"),
                            encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(uri=ruleset_file.as_uri(), type=types.FileChangeType.Changed)]))

    async def rechecked() -> None:
        while client.publications[cards] == before:
            await asyncio.sleep(0.01)

    await asyncio.wait_for(rechecked(), 30)
    assert [d.code for d in client.diagnostics[cards]] == ["UNKNOWN-VERB"]


async def test_a_scenario_with_its_own_cards_gets_its_diagnostics_as_it_is_typed(client, tmp_path):
    (tmp_path / "extra.yaml").write_text(  # on disk, not open: read as `tcg test` reads it
        "ruleset: ucb\ncards:\n  - {name: 新しい剣士, kind: character, cost: 1, power: 1}\n",
        encoding="utf-8")
    text = "ruleset: ucb\ncards: [extra.yaml]\nstate:\n  zones:\n    battle@P1: [新しい剣士, 炎の剣士]\n"
    uri = _open(client, tmp_path, "scenario.yaml", text)
    assert await _published(client, uri, 1) == []
    typo = text.replace("battle@P1", "battel@P1")
    _change(client, uri, 2, typo)
    found = await _published(client, uri, 2)
    assert [(d.code, d.range) for d in found] == [
        ("UNKNOWN-ZONE", types.Range(_where(typo, "battel"), _where(typo, "battel", 6)))]
    assert "did you mean 'battle'?" in found[0].message
