"""The words of the tool's plain errors (`error: ...` on stderr, exit 2), in every language.

A TcgError raised with a key here (`TcgError("err.turns", n=0)`) is said in the chosen
language where the CLI prints it; its English is its str(). Keys `err.*`, in the one catalog
(catalog.T), so the check that every entry has every language covers them."""

from __future__ import annotations

from collections.abc import Mapping

from interpreter.words.catalog import T
from interpreter.words.catalog import say as _say


def say(key: str, lang: str, values: Mapping[str, object]) -> str:
    """The error `key` in `lang`; a `hint` value is a diagnostic's hint (`did you mean 'x'?`),
    said through words/diag.py's templates after the message's own words."""
    from interpreter.words import diag

    shown = dict(values)
    if shown.get("hint"):
        shown["hint"] = _say("err.hint", lang, hint=diag.say(str(shown["hint"]), lang))
    return _say(key, lang, **shown)


T.update({
    # tcg play, tcg serve, tcg check, tcg lsp, tcg train (cli.py)
    "err.table_extra": {"en": "tcg serve needs the table extra ({module} is missing): pip install -e "
                              "'.[table]'",
                        "ja": "tcg serveにはtableの追加機能が必要です（{module}がありません）："
                              "pip install -e '.[table]'"},
    "err.resume_drop": {"en": "--resume continues the match its log records; drop {flags}",
                        "ja": "--resumeはログに記録された対戦の続きです。{flags}を外してください"},
    "err.resume_ruleset": {"en": "--resume continues the match its log records; drop the ruleset",
                           "ja": "--resumeはログに記録された対戦の続きです。ルールセットを外してください"},
    "err.give_ruleset": {"en": "give a ruleset (a bundled id or a file) or --resume LOG",
                         "ja": "ルールセット（同梱のIDかファイル）か--resume LOGを指定してください"},
    "err.turns": {"en": "--turns must be at least 1, got {n}",
                  "ja": "--turnsは1以上にしてください（{n}が指定されました）"},
    "err.give_paths": {"en": "give the files or folders to check",
                       "ja": "確認するファイルかフォルダを指定してください"},
    "err.option_decks": {"en": "--option plays one pair with the chosen readings: use it with --deck, "
                               "not --decks",
                         "ja": "--optionは選んだ読み方で1組を対戦させます：--decksではなく--deckと使って"
                               "ください"},
    "err.chunk": {"en": "--chunk must be at least 1", "ja": "--chunkは1以上にしてください"},
    "err.deck_and_decks": {"en": "give either --deck (one pair) or --decks DIR (a round robin), not both",
                           "ja": "--deck（1組）か--decks DIR（総当たり）のどちらか一方を指定してください"},
    "err.swap_decks": {"en": "--swap changes deck A of one pair: use it with --deck, not --decks",
                       "ja": "--swapは1組のデッキAを変えます：--decksではなく--deckと使ってください"},
    "err.skill_decks": {"en": "--check-skill checks one pair: use it with --deck, not --decks",
                        "ja": "--check-skillは1組を確認します：--decksではなく--deckと使ってください"},
    "err.train_budget": {"en": "--minutes must be positive and --games at least 1",
                         "ja": "--minutesは正の数、--gamesは1以上にしてください"},
    "err.pygls": {"en": "the language server needs pygls ({reason}): pip install -e '.[lsp]'",
                  "ja": "言語サーバーにはpygls が必要です（{reason}）：pip install -e '.[lsp]'"},
    # tcg simulate (run/simulate.py)
    "err.games": {"en": "--games must be at least 1", "ja": "--gamesは1以上にしてください"},
    "err.agents_two": {"en": "--agents takes two names (deck A's, deck B's), got {n}",
                       "ja": "--agentsには名前を2つ（デッキA用とデッキB用）指定します（{n}個が指定されま"
                             "した）"},
    "err.agents_human": {"en": "simulate plays AI agents only; use `tcg play` to play by hand",
                         "ja": "simulateはAIエージェントだけで対戦します。手で遊ぶには`tcg play`を使って"
                               "ください"},
    "err.two_players": {"en": "simulate supports two-player games; this one has {n}",
                        "ja": "simulateは2人用のゲームに対応しています。このゲームは{n}人です"},
    "err.out_exists": {"en": "{path} already exists; pass --resume to continue that run or choose "
                             "another --out",
                       "ja": "{path}はすでにあります。その実行を続けるには--resumeを付けるか、別の--outを"
                             "選んでください"},
    "err.out_no_run": {"en": "{out} holds {results} but no {run}: which run its matches belong to is "
                             "unknown, "
                             "and a resume would mix two runs; choose another --out",
                       "ja": "{out}には{results}があるのに{run}がありません。その試合がどの実行のものか分"
                             "からず、"
                             "再開すると二つの実行が混ざります。別の--outを選んでください"},
    "err.out_beyond": {"en": "{out} holds {n} finished matches, up to match {last}; --games {games} "
                             "would drop "
                             "{dropped} of them: give --games {least} or more",
                       "ja": "{out}には試合{last}までの終わった試合が{n}個あります。--games {games}では"
                             "そのうち{dropped}個が捨てられます：--games {least}以上を指定してください"},
    "err.cannot_read": {"en": "cannot read {path}: {reason}", "ja": "{path}を読めません：{reason}"},
    "err.other_run": {"en": "{out} holds a different run ({keys} differ); use another --out, or drop "
                            "--resume "
                            "to start afresh elsewhere",
                      "ja": "{out}には別の実行があります（{keys}が違います）。別の--outを使うか、"
                            "--resumeを外して別の場所で始め直してください"},
    "err.workers": {"en": "--workers must be at least 1", "ja": "--workersは1以上にしてください"},
    "err.resume_out": {"en": "--resume needs --out DIR (it continues DIR/results.jsonl)",
                       "ja": "--resumeには--out DIRが必要です（DIR/results.jsonlの続きを行います）"},
    # tcg simulate --check-skill (run/skill.py)
    "err.skill_sample": {"en": "--check-skill takes a number of games or a share such as 20%, got {asked} "
                               "(give it after the ruleset: tcg simulate RULESET --check-skill)",
                         "ja": "--check-skillには試合数か20%のような割合を指定します（{asked}が指定されま"
                               "した。"
                               "ルールセットの後に書いてください：tcg simulate RULESET --check-skill）"},
    "err.skill_range": {"en": "--check-skill {asked}: replays between 1 and --games ({games}) matches, "
                              "here {n}",
                        "ja": "--check-skill {asked}：再プレイは1から--games（{games}）試合まで（ここでは"
                              "{n}）"},
    "err.skill_exists": {"en": "{path} already exists; pass --resume to continue that check or choose "
                               "another "
                               "--out",
                         "ja": "{path}はすでにあります。その確認を続けるには--resumeを付けるか、"
                               "別の--outを選んでください"},
    # --option, a scenario's options: (load/options.py)
    "err.option_form": {"en": "--option {pair}: write NAME=CHOICE (e.g. --option damage=printed)",
                        "ja": "--option {pair}：NAME=CHOICEの形で書いてください（例：--option damage=prin"
                              "ted）"},
    "err.no_option": {"en": "{where}the ruleset has no option {name} (its options: {known}){hint}",
                      "ja": "{where}ルールセットに選択肢{name}はありません（選択肢：{known}）{hint}"},
    "err.no_choice": {"en": "{where}option {name} has no choice {choice} (choices: {known}){hint}",
                      "ja": "{where}選択肢{name}に{choice}という選び方はありません（選び方：{known}）{hint}"},
    "err.hint": {"en": "; {hint}", "ja": "。{hint}"},
    "err.none": {"en": "none", "ja": "なし"},
})
