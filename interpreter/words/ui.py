"""The tool's own words (the terminal, `tcg check`, `tcg test`, `tcg simulate`'s report), in
the language the front end chose: `use()` once, then `tr(key, ...)`.

The entries live in the one catalog (catalog.T, keys `ui.*`), so tests/test_words.py's check
that every entry has every language covers them too. Contract lines that scripts read
(`result:`, `N passed, N failed`, a diagnostic's `path:line:col: error[CODE]`) are not here."""

from __future__ import annotations

import re

from interpreter.words import choose
from interpreter.words.catalog import T, say

current: str | None = None  # the language chosen by use(); None: not chosen yet (the locale's)


def use(requested: str | None, declared: str | None = None) -> str:
    """Choose the tool's language: `--lang`, else the ruleset's `language:`, else the locale."""
    global current
    current = choose(requested, declared)
    return current


def lang() -> str:
    return current or choose(None, None)


def tr(key: str, /, **values: object) -> str:
    return say(key, lang(), **values)


def reason(text: str) -> str:
    """A match's end reason in words: the engine's part from the catalog ("P2 loses", the
    limits), the ruleset's own (after ": ") as it wrote it."""
    lang_ = lang()
    if m := re.fullmatch(r"(P\S+) (wins|loses|concedes)(?:: (.*))?", text, re.S):
        head = say({"wins": "win", "loses": "lose", "concedes": "concedes"}[m[2]], lang_, player=m[1])
        return say("call", lang_, name=head, args=m[3]) if m[3] else head
    if m := re.search(r"turn limit: (\d+) turns reached", text):
        return say("table.turn_limit", lang_, n=m[1])
    if text.startswith("loop limit"):
        return say("table.loop_limit", lang_)
    return text


T.update({
    # tcg check, tcg test
    "ui.problems": {"en": "{n} problems found", "ja": "問題が{n}件見つかりました"},
    "ui.one_problem": {"en": "1 problem found", "ja": "問題が1件見つかりました"},
    "ui.no_problems": {"en": "no problems found", "ja": "問題は見つかりませんでした"},
    "ui.waived": {"en": " ({n} waived)", "ja": "（{n}件は免除）"},
    # a diagnostic's second lines (its header stays as compilers write it)
    "ui.note": {"en": "note", "ja": "注"},
    "ui.help": {"en": "help", "ja": "ヒント"},
    "ui.rule": {"en": "rule", "ja": "ルール"},
    "ui.waiver_reason": {"en": "reason", "ja": "理由"},
    # the language server
    "ui.elsewhere": {"en": "this file is checked against files with problems: {header}{more}",
                     "ja": "このファイルは問題のあるファイルと照合されています：{header}{more}"},
    "ui.and_more": {"en": " (and {n} more)", "ja": "（他{n}件）"},
    # the terminal
    "ui.error": {"en": "error: {message}", "ja": "エラー：{message}"},  # (words/errors.py: its message)
    "ui.no_plots": {"en": "note: no plots: {message}", "ja": "注：グラフなし：{message}"},
    "ui.input_closed": {"en": "input closed", "ja": "入力が閉じられました"},
    "ui.interrupted": {"en": "interrupted", "ja": "中断しました"},
    # tcg simulate's report
    "ui.sim_head": {"en": "{ruleset}: {games} games ({n} completed, {errors} errors), seed {first}..{last}, "
                          "agents {a} (A) vs {b} (B); {ran} played in {seconds} s",
                    "ja": "{ruleset}：{games}試合（完了{n}、エラー{errors}）、シード{first}..{last}、"
                          "エージェント{a}（A）対{b}（B）。{ran}試合を{seconds}秒で実行"},
    "ui.sim_resumed": {"en": ", {n} from --resume", "ja": "、{n}試合は--resumeから"},
    "ui.outcomes": {"en": "outcomes (95% Wilson intervals)", "ja": "結果（95% Wilson区間）"},
    "ui.col.games": {"en": "games", "ja": "試合"},
    "ui.col.rate": {"en": "rate", "ja": "率"},
    "ui.col.ci": {"en": "95% CI", "ja": "95%信頼区間"},
    "ui.col.first": {"en": "as first", "ja": "先攻時"},
    "ui.col.second": {"en": "as second", "ja": "後攻時"},
    "ui.deck_wins": {"en": "{key} {name} wins", "ja": "{key} {name}の勝利"},
    "ui.of_n": {"en": "{pct} of {n}", "ja": "{n}試合中{pct}"},
    "ui.draws": {"en": "draws", "ja": "引き分け"},
    "ui.turn_limit": {"en": "timeouts: turn limit", "ja": "時間切れ：ターン上限"},
    "ui.loop_limit": {"en": "timeouts: loop limit", "ja": "時間切れ：ループ上限"},
    "ui.first_player": {"en": "first player wins {pct} of {n} decisive games (95% CI {ci}): "
                              "advantage {adv} (95% CI {lo} to {hi})",
                        "ja": "先攻は決着した{n}試合中{pct}で勝利（95%信頼区間{ci}）："
                              "有利さ{adv}（95%信頼区間{lo}〜{hi}）"},
    "ui.drawishness": {"en": "drawishness {draw} real draws; {timeouts} timeouts; {undecided} undecided"
                             " in all",
                       "ja": "引き分けやすさ：本当の引き分け{draw}、時間切れ{timeouts}、未決着は計{unde"
                             "cided}"},
    "ui.unit.turns": {"en": "turns", "ja": "ターン数"},
    "ui.unit.decisions": {"en": "decisions", "ja": "選択数"},
    "ui.length": {"en": "game length in {unit}: mean {mean}, sd {sd}, min {min}, median {median}, max {max}",
                  "ja": "試合の長さ（{unit}）：平均{mean}、標準偏差{sd}、最小{min}、中央値{median}、最"
                        "大{max}"},
    "ui.asked": {"en": "decisions asked per game: mean {asked}; windows closed without asking (a player "
                       "with nothing but pass) per game: mean {mean}, median {median}, max {max}",
                 "ja": "1試合の選択数：平均{asked}。尋ねずに閉じた場面（パスしかできない）の1試合あたり："
                       "平均{mean}、中央値{median}、最大{max}"},
    "ui.lead_changes": {"en": "lead changes (the leader by the ruleset's heuristic, before each decision): "
                              "mean {mean}, sd {sd}, max {max}; {pct} of games had one (95% CI {ci})",
                        "ja": "リードの入れ替わり（各選択前のルールセットのヒューリスティックによる）："
                              "平均{mean}、標準偏差{sd}、最大{max}。{pct}の試合で発生（95%信頼区間{ci}）"},
    "ui.how_ended": {"en": "how games ended", "ja": "試合の終わり方"},
    "ui.col.reason": {"en": "reason", "ja": "理由"},
    "ui.col.share": {"en": "share", "ja": "割合"},
    "ui.errors": {"en": "{n} matches raised errors", "ja": "{n}試合でエラー"},
    "ui.error_seeds": {"en": " (seeds {seeds}):", "ja": "（シード{seeds}）："},
    "ui.reproduce": {"en": "  reproduce one: {command}", "ja": "  再現：{command}"},
    "ui.plots": {"en": "plots: {paths}", "ja": "グラフ：{paths}"},
    "ui.rr_head": {"en": "{ruleset}: round robin of {decks} decks, {pairs} pairs, {games} games "
                         "({played} played in {seconds} s), {errors} errors",
                   "ja": "{ruleset}：{decks}デッキの総当たり、{pairs}組、{games}試合"
                         "（{played}試合を{seconds}秒で実行）、エラー{errors}"},
    "ui.rr_title": {"en": "row deck's win rate against column deck (95% Wilson interval)",
                    "ja": "行のデッキの列のデッキに対する勝率（95% Wilson区間）"},
    "ui.col.deck": {"en": "deck", "ja": "デッキ"},
    "ui.col.overall": {"en": "overall", "ja": "全体"},
    "ui.over_pairs": {"en": "over all its pairs", "ja": "全組合せで"},
    "ui.no_card_stats": {"en": "no per-card statistics: the ruleset has no hand zone (name one with "
                               "card_stats: {hand: ZONE})",
                         "ja": "カード別の統計なし：ルールセットに手札の場所がない（card_stats: {hand: "
                               "ZONE}で指定）"},
    "ui.cards_title": {"en": "{deck}: cards by IWD{scope} — win % when drawn (GIH), in the opening hand "
                             "(OH), not drawn (GNS); IWD = GIH − GNS in points; [95% interval]",
                       "ja": "{deck}：IWD順のカード{scope} — 引いた時の勝率（GIH）、初手にある時（OH）、"
                             "引かなかった時（GNS）。IWD = GIH − GNS（ポイント）。［95%区間］"},
    "ui.col.card": {"en": "card", "ja": "カード"},
    "ui.col.drawn": {"en": "drawn", "ja": "引いた"},
    "ui.col.played": {"en": "played", "ja": "使用"},
    "ui.col.turn": {"en": "turn", "ja": "ターン"},
    "ui.never_drawn": {"en": "never drawn: {cards}", "ja": "一度も引かれなかった：{cards}"},
    "ui.played_note": {"en": "played: games the card was played in (WR: won when played; play%: played ÷ "
                             "drawn; turn: mean turn first played)",
                       "ja": "使用：そのカードを使った試合数（WR：使った時の勝率、play%：使用÷引いた、"
                             "ターン：初めて使った平均ターン）"},
    "ui.idle": {"en": "cards the agents (almost) never play (drawn in ≥ {drawn} games, played in ≤ {rate}% "
                      "of them): {cards}",
                "ja": "エージェントが（ほぼ）使わないカード（{drawn}試合以上で引き、その{rate}%以下で使"
                      "用）：{cards}"},
    "ui.idle_card": {"en": "{deck}: {card} (played {played} of {drawn})",
                     "ja": "{deck}：{card}（{drawn}回中{played}回使用）"},
    "ui.with_swaps": {"en": "with {swaps} in deck A (the same {games} seeds):",
                      "ja": "デッキAで{swaps}（同じ{games}シード）："},
    "ui.swap_for": {"en": "{new} for {old}", "ja": "{old}の代わりに{new}"},
    "ui.simulating": {"en": "simulating", "ja": "シミュレーション中"},
    "ui.eta": {"en": "eta", "ja": "残り"},
    "ui.per_second": {"en": "matches/s", "ja": "試合/秒"},
    # who played (agents/budget.py): an agent's name as typed, its budget in words
    "ui.agents": {"en": "agents: {who}", "ja": "エージェント：{who}"},
    "ui.played_by": {"en": "{key} {name} played by {who}", "ja": "{key} {name}は{who}がプレイ"},
    "ui.budget": {"en": "{kind} ({budget})", "ja": "{kind}（{budget}）"},
    "ui.budget.worlds": {"en": "worlds={n}", "ja": "世界数{n}"},
    "ui.budget.iterations": {"en": "iterations={n}", "ja": "反復{n}回"},
    "ui.budget.seconds": {"en": "seconds={n}", "ja": "{n}秒"},
    "ui.budget.weights": {"en": "weights {name}", "ja": "重み{name}"},
    "ui.rr_agents_same": {"en": "agents: every deck played by {who}",
                          "ja": "エージェント：全デッキを{who}がプレイ"},
    "ui.rr_agents": {"en": "agents: in each pair, the deck whose file sorts first played by {a}, "
                           "the other by {b}",
                     "ja": "エージェント：各組で、ファイル名順で先のデッキを{a}、もう一方を{b}がプレイ"},
    # tcg simulate --check-skill (run/skill.py)
    "ui.skill_by": {"en": "{key} by {who}", "ja": "{key}は{who}"},
    "ui.skill_title": {"en": "skill check: seeds {first}..{last} played again with {factor}× the budget, "
                             "{who}; {seconds} s",
                       "ja": "腕前の確認：シード{first}..{last}を{factor}倍の予算で再プレイ、"
                             "{who}。{seconds}秒"},
    "ui.skill_col.conclusion": {"en": "conclusion", "ja": "結論"},
    "ui.skill_col.run": {"en": "this run", "ja": "今回の実行"},
    "ui.skill_col.stronger": {"en": "stronger play", "ja": "強いプレイ"},
    "ui.skill_col.holds": {"en": "holds", "ja": "成り立つ"},
    "ui.skill_yes": {"en": "yes", "ja": "はい"},
    "ui.skill_no": {"en": "NO", "ja": "いいえ"},
    "ui.not_measured": {"en": "not measured", "ja": "測定不能"},
    "ui.skill_errors": {"en": "{n} of the check's matches raised errors (see its results)",
                        "ja": "確認の{n}試合でエラー（その結果を参照）"},
    "ui.skill_neither": {"en": "neither ({pct}% each)", "ja": "どちらでもない（各{pct}%）"},
    "ui.skill_lead": {"en": "{key} {name} ({pct}% of {n})", "ja": "{key} {name}（{n}試合中{pct}%）"},
    "ui.skill_iwd": {"en": "IWD {pts} pts", "ja": "IWD {pts}ポイント"},
    "ui.skill_winner": {"en": "deck winner", "ja": "勝つデッキ"},
    "ui.skill_strongest": {"en": "IWD sign, strongest card of {deck}: {card}",
                           "ja": "IWDの符号、{deck}の最強カード：{card}"},
    "ui.skill_weakest": {"en": "IWD sign, weakest card of {deck}: {card}",
                         "ja": "IWDの符号、{deck}の最弱カード：{card}"},
    "ui.skill_replayed": {"en": "{games} of {of} matches replayed with {factor}× the budget",
                          "ja": "{of}試合中{games}試合を{factor}倍の予算で再プレイ"},
    "ui.skill_holds": {"en": "skill check: the conclusions hold with stronger play ({replayed})",
                       "ja": "腕前の確認：強いプレイでも結論は成り立つ（{replayed}）"},
    "ui.skill_fails": {"en": "skill check: not all conclusions hold with stronger play ({failed}): "
                             "these figures reflect weak play ({replayed})",
                       "ja": "腕前の確認：強いプレイでは成り立たない結論がある（{failed}）：これらの数値は"
                             "弱いプレイを反映している（{replayed}）"},
    "ui.pts": {"en": "{n} pts", "ja": "{n}ポイント"},
    "ui.semicolon": {"en": "; ", "ja": "；"},
})
