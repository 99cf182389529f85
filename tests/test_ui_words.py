"""The tool's own words in the player's language (issue 33): diagnostics, `tcg check`'s and
`tcg simulate`'s words, in English and Japanese, chosen by --lang; the contract lines scripts
read stay as they are. A string without a translation fails here: the catalog's entries, every
diagnostic the bad-input corpora give, and a scan of the code that prints for literal English."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from interpreter.check.files import check_paths
from interpreter.cli import main
from interpreter.diagnostics import Diagnostic
from interpreter.words import catalog, diag, errors, ui
from interpreter.words.phrases import PLACEHOLDER

ROOT = Path(__file__).resolve().parents[1]
CORPORA = [p for folder in ("tests/bad", "tests/hostile") for p in sorted((ROOT / folder).glob("*.yaml"))
           if p.name != "expected.yaml"]


def test_every_entry_has_every_language_and_the_same_placeholders() -> None:
    for key, entry in catalog.entries().items():
        assert set(entry) == {"en", "ja"}, key
        assert set(PLACEHOLDER.findall(entry["ja"])) == set(PLACEHOLDER.findall(entry["en"])), key
    for english, entry in diag.MESSAGES.items():
        assert set(entry) == {"ja"}, english
        assert set(PLACEHOLDER.findall(entry["ja"])) == set(PLACEHOLDER.findall(english)), english


def _texts(d: Diagnostic) -> list[str]:
    # a forbid list's message is the list's own words (its hint: tcg check --explain ID)
    own = d.hint.startswith("tcg check --explain")
    return [t for t in ([] if own else [d.message]) + [d.hint] + [r.message for r in d.related] if t]


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_diagnostic_of_the_corpora_reads_in_japanese(path: Path) -> None:
    report = check_paths([path])
    assert [(d.code, t) for d in report.diagnostics for t in _texts(d)
            if diag.translated(t, "ja") is None] == []


def test_check_speaks_japanese_and_keeps_its_contract(capsys) -> None:
    bad = ROOT / "tests/bad/duplicate_card.yaml"
    assert main(["check", "--lang", "ja", str(bad)]) == 1
    out, err = capsys.readouterr()
    header = r"(?m)^.+duplicate_card\.yaml:7:11: error\[DUPLICATE-CARD\]: "
    assert re.search(header + "カード'騎士'が二度定義されています$", out), out
    assert "  注: " in out and "最初に定義された場所" in out and "  = ヒント: どちらかの名前を変えるか" in out
    assert err.startswith("問題が")
    assert main(["check", str(bad)]) == 1  # (the next run without --lang: the locale's, English here)
    out, err = capsys.readouterr()
    assert "error[DUPLICATE-CARD]: card '騎士' is defined twice" in out and "= help: rename" in out
    assert "1 problem found" in err


def test_a_message_no_template_fits_is_found() -> None:
    assert diag.translated("a message nobody wrote a template for", "ja") is None
    assert diag.translated("forbid query: a message nobody wrote", "ja") is None  # (inside too)
    said = diag.say("unknown zone 'battel' in 'battel@P1'", "ja")
    assert said == "'battel@P1'に不明な場所'battel'があります"
    # the most specific template wins: not "{name} needs {what}" with English left in
    assert diag.say("'in' needs cards or a zone, got a number", "ja").startswith("'in'にはカードか場所が")
    said = diag.say("checkpoint 'c': winner: expected P1, got draw", "ja")
    assert said.startswith("チェックポイント'c'：勝者")


def test_simulate_reports_in_japanese_with_its_result_line(capsys) -> None:
    from tests.test_words import english_fixed_strings

    assert main(["simulate", "ucb", "--games", "2", "--workers", "1", "--agents", "random,random",
                 "--lang", "ja", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.match(r"result: A .+ — 2 games$", lines[-1])  # the contract line, as it is
    body = "\n".join(lines[:-1])
    assert "結果（95% Wilson区間）" in body and "先攻は決着した" in body
    assert "エージェント：A " in body and "がプレイ" in body and "ポイント" in body
    # (a ruleset's own end reason is its data: ucb's is written in English)
    leaked = [s for s in english_fixed_strings() if " " in s and re.search(rf"\b{re.escape(s)}\b", body)]
    assert leaked == []


# ---- no literal English in the code that prints ----

# the files (and functions: None is all of them) whose printing is a person's reading: what
# they print, what they return (a line made for printing: report.agents_line) and the words
# they store for a report (skill.check's conclusions)
SCANNED = {"interpreter/run/report.py": None, "interpreter/run/narrate.py": None,
           "interpreter/run/skill.py": {"_lead", "_pts", "check", "verdict"},
           "interpreter/agents/budget.py": {"in_words"},
           "interpreter/agents/basic.py": {"choose", "_answer", "_card_text", "_numbering"},
           "interpreter/cli.py": {"main", "_check", "_test", "_print_outcome", "_play"},
           "interpreter/diagnostics.py": {"render", "header"},
           "interpreter/check/output.py": {"_waiver_text"}}
PRINTS = {"print", "add_column", "add_row", "Table", "TextColumn", "Text", "append"}
# the lines scripts read, kept as they are (`{}`: a value)
CONTRACT = re.compile(r"result: .*|swap: .*|ok   \{\}: \{\}|FAIL \{\}: \{\}|\{\} passed, \{\} failed"
                      r"|\{\}:\{\}:\{\}: \{\}\[\{\}\]: \{\}"
                      r"|\{\}:\{\}:\{\}: waived\[\{\}\]: \{\}\n  = \{\}: \{\}")


def _literal(node: ast.AST) -> list[str]:
    """The literal text a printed argument is made of (`{}` for each value put in it)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)]
    if isinstance(node, ast.BinOp):
        return _literal(node.left) + _literal(node.right)
    if isinstance(node, ast.IfExp):
        return _literal(node.body) + _literal(node.orelse)
    if isinstance(node, ast.Tuple):
        return [t for e in node.elts for t in _literal(e)]
    return []  # a call (tr(...), say(...)), a name: words from the catalog or data


def _printed(node: ast.AST) -> list[ast.expr]:
    """The values `node` prints, returns or stores as a report's words."""
    if isinstance(node, ast.Return) and node.value is not None:
        return [node.value]
    if isinstance(node, ast.Dict):
        return [v for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value in ("conclusion", "run", "stronger")]
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name in PRINTS:
            return [*node.args, *(k.value for k in node.keywords if k.arg == "title")]
    return []


def _printed_english(path: str, functions: set[str] | None) -> list[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or (functions is not None and fn.name not in functions):
            continue
        for node in ast.walk(fn):
            for arg in _printed(node):
                for text in _literal(arg):
                    if re.search(r"[A-Za-z]{3,}", text) and not CONTRACT.fullmatch(text):
                        found.append(f"{path}:{arg.lineno}: {text!r}")
    return found


def test_no_printed_string_bypasses_the_catalog() -> None:
    assert [s for path, fns in SCANNED.items() for s in _printed_english(path, fns)] == []


def test_the_scan_finds_a_literal_english_string(tmp_path) -> None:
    path = tmp_path / "x.py"
    path.write_text("def f(n):\n    print(f'{n} problems found')\n    print(tr('ui.x'))\n",
                    encoding="utf-8")
    assert len(_printed_english(str(path), None)) == 1


def test_the_language_is_chosen_once_per_run(monkeypatch) -> None:
    monkeypatch.setenv("LANG", "C")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert ui.use("ja") == "ja" and ui.tr("ui.no_problems") == "問題は見つかりませんでした"
    assert ui.use(None, "ja") == "ja"  # the ruleset's declared language
    assert ui.use(None) == "en" and ui.tr("ui.no_problems") == "no problems found"


def test_a_failing_scenario_reads_in_japanese(tmp_path: Path) -> None:
    """`tcg test`'s failures (expectations, decisions) have templates too."""
    from interpreter.run.scenario import run_scenario

    ucb = ROOT / "tests/scenarios/ucb"
    shutil.copy(ucb / "cards.yaml", tmp_path / "cards.yaml")
    text = (ucb / "battle_unblocked_mills_power.yaml").read_text(encoding="utf-8")
    broken = {
        "order": text.replace("discard@P2: [テスト巨人, テスト兵士, テスト大剣士]",
                              "discard@P2: [テスト兵士, テスト巨人, テスト大剣士]").replace(
            "{card: \"battle@P1:0\", prop: tapped, value: true}",
            "{card: \"battle@P1:0\", prop: tapped, value: false}"),
        "decision": text.replace("  - done            # P2 declines to block\n",
                                 "  - done            # P2 declines to block\n  - blorp\n"),
    }
    said = []
    for name, body in broken.items():
        (tmp_path / f"{name}.yaml").write_text(body, encoding="utf-8")
        outcome = run_scenario(tmp_path / f"{name}.yaml", False)
        assert not outcome.passed
        said += [(d.code, t) for d in outcome.diagnostics for t in _texts(d)]
    assert said and [s for s in said if diag.translated(s[1], "ja") is None] == []


def test_the_language_server_speaks_the_chosen_language() -> None:
    pytest.importorskip("lsprotocol")
    from interpreter.lsp.diagnostics import to_lsp

    d = Diagnostic("x.yaml", 1, 1, "UNKNOWN-VERB", "unknown verb 'drow'", hint="did you mean 'draw'?")
    ui.use("ja")
    try:
        said = to_lsp(d, ["drow(you, 1)"])
    finally:
        ui.current = None
    assert said.message == "不明な動詞'drow'\nヒント: もしかして：'draw'"
    assert said.data == {"replace": "draw"}  # (the quick fix reads the English hint)
    assert to_lsp(d, ["drow(you, 1)"]).message == "unknown verb 'drow'\nhelp: did you mean 'draw'?"


def test_the_phrase_checks_read_in_japanese(tmp_path: Path) -> None:
    from tests.test_words import _ruleset_copy

    line = ('    attack.blocker: {ja: "{card}をブロックするキャラクターは？", '
            'en: "which character blocks {card}?"}\n')
    no_phrase = _ruleset_copy(tmp_path / "a", line, "")
    no_verb = _ruleset_copy(tmp_path / "b", '    draw: {ja: "{player}はカードを{n}枚引く"',
                            '    drow: {ja: "{who}はカードを{n}枚引く"')
    bad_placeholder = _ruleset_copy(tmp_path / "c", '"{player}はカードを{n}枚引く"',
                                    '"{who}はカードを{n}枚引く"')
    said = [(d.code, t) for path in (no_phrase, no_verb, bad_placeholder)
            for d in check_paths([path]).diagnostics for t in _texts(d)]
    assert {code for code, _ in said} >= {"W-PHRASE", "E-PHRASE"}
    assert [s for s in said if diag.translated(s[1], "ja") is None] == []


# ---- every place a stage writes a diagnostic has a template ----

WRITERS = {"diag", "diag_at", "_diag", "_diag_key", "_add", "Diagnostic", "StepFailed", "ScriptError"}


def _sample(node: ast.AST) -> str | None:
    """The text a message argument makes, with X for each value put in it (None: not text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "X" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _sample(node.left), _sample(node.right)
        return None if left is None or right is None else left + right
    return None


def _written_messages() -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(getattr(call, "func", None), "id", None) or \
                getattr(getattr(call, "func", None), "attr", None)
            if isinstance(call, ast.Call) and name in WRITERS:
                out += [(f"{path.relative_to(ROOT)}:{call.lineno}", text) for arg in call.args
                        if (text := _sample(arg)) is not None and " " in text]
    return out


def test_every_written_diagnostic_message_has_a_template() -> None:
    written = _written_messages()
    assert len(written) > 100
    # (no words of its own: "X: X" joins a name and another message; a message inside a
    # message, "forbid query: X", is another diagnostic's)
    missing = [(at, text) for at, text in written
               if re.search(r"[A-Za-z]{3,}", text.replace("X", ""))
               and diag.translated(text, "ja") is None
               and diag.translated(text.replace(": X", ": file is empty"), "ja") is None]
    assert missing == []


# ---- every plain error (`error: ...`) has catalog words ----

# the modules whose TcgErrors still carry a plain English message, and how many: this list
# may only shrink (move a site to a key in words/errors.py and lower or drop its count)
PLAIN_ERRORS = {"interpreter/agents/basic.py": 7, "interpreter/agents/default.py": 2,
                "interpreter/agents/greedy.py": 2, "interpreter/agents/mcts.py": 5,
                "interpreter/agents/train.py": 1, "interpreter/check/files.py": 1,
                "interpreter/check/schema_gen.py": 1, "interpreter/engine/chance.py": 2,
                "interpreter/engine/game.py": 1, "interpreter/engine/kernel.py": 1,
                "interpreter/engine/state.py": 1, "interpreter/rl/__init__.py": 1,
                "interpreter/run/ablation.py": 5, "interpreter/run/backends.py": 5,
                "interpreter/run/logs.py": 14, "interpreter/run/match.py": 2,
                "interpreter/run/outputs.py": 12, "interpreter/run/plots.py": 2,
                "interpreter/run/roundrobin.py": 3, "interpreter/run/scenario.py": 6,
                "interpreter/table/results.py": 4, "interpreter/table/serve.py": 4,
                "interpreter/table/session.py": 1, "interpreter/words/cards.py": 2}


def _raised_errors() -> tuple[list[str], dict[str, int]]:
    """The keys TcgError is raised with, and the sites (per module) raising it with English."""
    keys, plain = [], {}
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for call in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "TcgError"):
                continue
            first = call.args[0] if call.args else None
            if isinstance(first, ast.Constant) and str(first.value).startswith("err."):
                keys.append(first.value)
            else:
                where = str(path.relative_to(ROOT))
                plain[where] = plain.get(where, 0) + 1
    return keys, plain


def test_every_error_raised_with_a_key_has_its_words_and_the_plain_ones_only_shrink() -> None:
    keys, plain = _raised_errors()
    assert len(keys) > 25 and [k for k in keys if k not in catalog.entries()] == []
    assert {m: n for m, n in plain.items() if n > PLAIN_ERRORS.get(m, 0)} == {}
    # (the commands' own modules: every error in words)
    assert {m for m in plain} & {"interpreter/cli.py", "interpreter/run/simulate.py",
                                 "interpreter/run/skill.py", "interpreter/load/options.py"} == set()


def test_a_plain_error_reads_in_the_chosen_language(capsys) -> None:
    assert main(["simulate", "ucb", "--turns", "0", "--lang", "ja"]) == 2
    assert capsys.readouterr().err == "エラー：--turnsは1以上にしてください（0が指定されました）\n"
    assert main(["simulate", "ucb", "--option", "reversed_abilitie=x", "--lang", "ja"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("エラー：--option: ルールセットに選択肢'reversed_abilitie'はありません")
    assert said.endswith("。もしかして：'reversed_abilities'\n")  # (the hint in words too)
    assert main(["simulate", "ucb", "--turns", "0", "--lang", "en"]) == 2
    assert capsys.readouterr().err == "error: --turns must be at least 1, got 0\n"
    assert errors.say("err.turns", "en", {"n": 0}) == "--turns must be at least 1, got 0"


# ---- the code's English pieces inside a Japanese diagnostic ----

def _unquoted(text: str) -> str:
    return re.sub(r"'[^']*'|`[^`]*`|\"[^\"]*\"|「[^」]*」", "", text)


@pytest.mark.parametrize("path", CORPORA, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_english_piece_from_the_code_is_left_in_a_japanese_diagnostic(path: Path) -> None:
    pieces = re.compile("|".join(rf"\b{re.escape(f)}\b" for f in diag.FRAGMENTS if " " in f)
                        + r"|\b(?:and|or)\b")
    said = [diag.say(t, "ja") for d in check_paths([path]).diagnostics for t in _texts(d)]
    assert [s for s in said if pieces.search(_unquoted(s))] == []


def test_the_pieces_a_message_is_filled_with_are_said_in_words() -> None:
    expected = "expected '(', 'true', a name, a number, a string"
    assert diag.say(expected, "ja") == "'('、'true'、名前、数、文字列が必要です"
    assert diag.say("ruleset must be text, got a list", "ja") == \
        "rulesetはテキストでなければなりません（リストです）"
    assert diag.say("the deck holds action, equipment and field cards only (this deck has 1)", "ja") \
        .startswith("deckに入れられるのはaction、equipmentとfieldの")
    # (code is said as written)
    assert diag.say("'draw' needs x == 1 or y", "ja") == "'draw'にはx == 1 or yが必要です"
