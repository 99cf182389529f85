"""A diagnostic's words in the reader's language.

The stages write their messages and hints in English (`Diagnostic.message`: what the LSP,
SARIF and JSON carry); the text a person reads is translated as it is rendered. Each entry
here is an English template with `{placeholders}` (the parts a message fills in: names,
numbers, quoted values) and its translations: a message that fits the template is said with
the translation, the placeholders' values kept. A message that fits none is shown as written
(tests/test_words.py renders the bad-input corpus in Japanese and fails on any such message).
"""

from __future__ import annotations

import re
from functools import cache

from interpreter.words.phrases import PLACEHOLDER, fill

# English template -> {language: translation}. The template with the most text of its own
# that fits wins.
MESSAGES: dict[str, dict[str, str]] = {
    # files and YAML
    "file is empty": {"ja": "ファイルが空です"},
    "file is larger than {n} bytes": {"ja": "ファイルが{n}バイトを超えています"},
    "file is not valid UTF-8": {"ja": "ファイルが正しいUTF-8ではありません"},
    "save the file as UTF-8": {"ja": "ファイルをUTF-8で保存してください"},
    "document expands to more than {n} nodes": {"ja": "文書を展開すると{n}個を超える要素になります"},
    "anchors and aliases (&a / *a) multiply: this looks like an alias bomb":
        {"ja": "アンカーとエイリアス（&a / *a）が掛け算で増えています：エイリアス爆弾のようです"},
    "tag {tag} is not allowed": {"ja": "タグ{tag}は使えません"},
    "remove the tag; only plain YAML data is read":
        {"ja": "タグを外してください（普通のYAMLのデータだけを読みます）"},
    "duplicate key {key}": {"ja": "キー{key}が重複しています"},
    "each key may appear once; the earlier one would be lost":
        {"ja": "キーは一度だけ書けます（前のものは失われます）"},
    "first written here": {"ja": "最初に書かれた場所"},
    "first defined here": {"ja": "最初に定義された場所"},
    "first used here": {"ja": "最初に使われた場所"},
    "{key} is indented {n} spaces, deeper than the key above it ({m})":
        {"ja": "{key}の字下げ（{n}文字）が上のキー（{m}文字）より深い"},
    "indent {key} by {n} spaces, like {other}": {"ja": "{key}を{other}と同じ{n}文字字下げしてください"},
    "a ': ' inside a value that is not in quotes": {"ja": "引用符のない値の中に': 'があります"},
    "put the whole value in quotes (\"...\" or '...'), or remove the ':'":
        {"ja": "値全体を引用符（\"...\"か'...'）で囲むか、':'を消してください"},
    "a tab is used to indent; YAML indents with spaces only":
        {"ja": "字下げにタブが使われています（YAMLの字下げは空白だけ）"},
    "replace the tab with spaces (as many as the lines around it use)":
        {"ja": "タブを空白に置き換えてください（前後の行と同じ数）"},
    "a value cannot start with {c} unless it is in quotes": {"ja": "引用符なしの値は{c}で始められません"},
    "put the text in quotes: {text}": {"ja": "テキストを引用符で囲んでください：{text}"},
    "missing ':' after the key {key}": {"ja": "キー{key}の後に':'がありません"},
    "write {text}": {"ja": "{text}と書いてください"},
    "the first line is indented {n} space; the keys of the file start at the first column":
        {"ja": "最初の行が{n}文字字下げされています（ファイルのキーは1桁目から始まります）"},
    "the first line is indented {n} spaces; the keys of the file start at the first column":
        {"ja": "最初の行が{n}文字字下げされています（ファイルのキーは1桁目から始まります）"},
    "remove the spaces before it": {"ja": "前の空白を消してください"},
    "this \" ends the text that starts at column {n}; the rest of the line is left over":
        {"ja": "この\"で{n}桁目からのテキストが終わり、行の残りがはみ出しています"},
    "inside effect text write text as 「...」, or quote the whole value with ' instead of \"":
        {"ja": "効果のテキストの中では文字列を「...」と書くか、値全体を\"ではなく'で囲んでください"},
    "this \" opens a text that is never closed": {"ja": "この\"で始まるテキストが閉じられていません"},
    "end the text with \" on the same line": {"ja": "同じ行で\"を書いてテキストを閉じてください"},
    "this [ opens a list that is not closed": {"ja": "この[で始まるリストが閉じられていません"},
    "end the list with ] (items are separated by commas)":
        {"ja": "リストを]で閉じてください（項目はカンマで区切ります）"},
    "this line is indented {n} spaces, but the keys of the mapping it belongs to (from line {line}) "
    "are indented {m}":
        {"ja": "この行は{n}文字字下げされていますが、属するマッピング（{line}行目から）のキーは{m}文字です"},
    "indent it by {n} spaces like them, or more to put it inside the key above":
        {"ja": "同じ{n}文字で字下げするか、上のキーの中に入れるならもっと深くしてください"},
    "document expands to more than {n} characters of text": {"ja": "文書を展開すると{n}文字を超えます"},
    "YAML nested deeper than {n} levels": {"ja": "YAMLの入れ子が{n}段より深くなっています"},
    "an anchor that contains an alias to itself nests forever":
        {"ja": "自分自身へのエイリアスを含むアンカーは無限に入れ子になります"},
    "integer has more than {n} digits": {"ja": "整数が{n}桁を超えています"},
    "quote it if it is text": {"ja": "テキストなら引用符で囲んでください"},
    "{path} is outside the game's folder {folder}": {"ja": "{path}はゲームのフォルダ{folder}の外です"},
    "name files inside the game's folder, or give their folder on the command line":
        {"ja": "ゲームのフォルダ内のファイルを指定するか、そのフォルダをコマンドラインで渡してください"},
    # limits
    "forbid query: {message}": {"ja": "禁止リストの条件：{message}"},
    "nested deeper than {n} levels": {"ja": "入れ子が{n}段より深くなっています"},
    "number has {n} digits; the limit is {m}": {"ja": "数が{n}桁です（上限は{m}桁）"},
    "no game needs numbers this large": {"ja": "これほど大きな数を使うゲームはありません"},
    "split the effect into smaller steps, `let` variables or a ruleset verb":
        {"ja": "効果を小さな手順、`let`の変数、ルールセットの動詞に分けてください"},
    "no game is played with decks this large": {"ja": "これほど大きなデッキで遊ぶゲームはありません"},
    "the deck holds more than {n} cards": {"ja": "デッキが{n}枚を超えています"},
    "name a bundled ruleset id or give the ruleset file too":
        {"ja": "同梱のルールセットのidを書くか、ルールセットのファイルも渡してください"},
    # (every other place a stage writes a diagnostic: tests/test_ui_words.py finds them)
    "malformed YAML: {detail}": {"ja": "YAMLの形式が正しくありません：{detail}"},
    "document expands to {what}": {"ja": "文書を展開すると{what}"},
    "merge keys (<<) are not supported": {"ja": "マージキー（<<）は使えません"},
    "mapping keys must be plain scalars": {"ja": "マッピングのキーは単純な値でなければなりません"},
    "key {key} is not valid": {"ja": "キー{key}は使えません"},
    "no ruleset file or bundled id {name}": {"ja": "ルールセットのファイルも同梱のid {name}もありません"},
    "a 'where' condition must be true or false, got {value}":
        {"ja": "'where'の条件は真か偽でなければなりません（{value}です）"},
    "'for each' goes over cards or players, not {value}":
        {"ja": "'for each'はカードかプレイヤーについて繰り返します（{value}ではなく）"},
    "unknown property {name}": {"ja": "不明なプロパティ{name}"},
    "unknown duration {name}": {"ja": "不明な期間{name}"},
    "use 'until end of turn' or 'until end of phase'":
        {"ja": "'until end of turn'か'until end of phase'を使ってください"},
    "{name} takes at most {n} arguments, got {m}": {"ja": "{name}の引数は{n}個までです（{m}個あります）"},
    "{name} takes {low}–{high} arguments, got {m}":
        {"ja": "{name}の引数は{low}〜{high}個です（{m}個あります）"},
    "{name} needs {what}": {"ja": "{name}には{what}が必要です"},
    "a condition must be true or false, got {value}":
        {"ja": "条件は真か偽でなければなりません（{value}です）"},
    "'where' filters cards or a zone, not {value}":
        {"ja": "'where'で絞り込めるのはカードか場所です（{value}ではなく）"},
    "no card of the card sets is named {name}: the comparison is never true":
        {"ja": "カードセットに{name}という名前のカードはありません：この比較は常に偽です"},
    "{op} needs numbers, got {value}": {"ja": "{op}には数が必要です（{value}です）"},
    "zone {name} belongs to a player": {"ja": "場所{name}はプレイヤーごとの場所です"},
    "{name} is both a variable here and {what} of the game: the text would read the word, never the variable":
        {"ja": "{name}はここでの変数であり、ゲームの{what}でもあります：テキストは変数ではなくその"
               "名前として読まれます"},
    "rename the variable (say {name})": {"ja": "変数の名前を変えてください（例：{name}）"},
    "{member} reads a card; got {value}": {"ja": "{member}はカードを読みます（{value}です）"},
    "the second argument of 'total' names a number property or a counter":
        {"ja": "'total'の2番目の引数は数のプロパティかカウンターです"},
    "the second argument of 'printed' names a property": {"ja": "'printed'の2番目の引数はプロパティです"},
    "{name} is computed by its formula, never printed": {"ja": "{name}は式で計算され、印刷されません"},
    "{what}: unknown {kind}": {"ja": "{what}：不明な{kind}"},
    "a static ability lasts while its card is in play": {"ja": "常在能力はそのカードが場にある間続きます"},
    "remove 'until end of ...', or make it an effect of a trigger":
        {"ja": "'until end of ...'を消すか、誘発能力の効果にしてください"},
    "two modes read {label}: an answer could not tell them apart":
        {"ja": "二つのモードが{label}と読めます：答えで区別できません"},
    "label one: choose one \"label\": { ... } or { ... }":
        {"ja": "片方に名前を付けてください：choose one \"label\": { ... } or { ... }"},
    "{name} is {what}: it can only be set with '=', not changed with {op}":
        {"ja": "{name}は{what}です：'='で設定するだけで、{op}では変えられません"},
    "{call} is a value, not an action": {"ja": "{call}は値で、行動ではありません"},
    "{name} has no parameter {param}": {"ja": "{name}に引数{param}はありません"},
    "unknown action or window {name}": {"ja": "不明な行動または場面{name}"},
    "'in' needs cards or a zone, got {value}": {"ja": "'in'にはカードか場所が必要です（{value}です）"},
    "'it' means the card a 'where' condition, a formula or a deck rule is about, and there is none here":
        {"ja": "'it'は'where'の条件・式・デッキのルールが扱うカードを指しますが、ここにはありません"},
    "{name} is a card property; say whose":
        {"ja": "{name}はカードのプロパティです：どのカードのものか書いてください"},
    "{name} is a player resource; got {value}": {"ja": "{name}はプレイヤーのリソースです（{value}です）"},
    "zone {name} needs its owner: {example}": {"ja": "場所{name}には持ち主が必要です：{example}"},
    "{name} is an action, not a value": {"ja": "{name}は行動で、値ではありません"},
    "argument {n} of {name} must be {what}, got {value}":
        {"ja": "{name}の{n}番目の引数は{what}でなければなりません（{value}です）"},
    "{name} is neither a resource nor a counter": {"ja": "{name}はリソースでもカウンターでもありません"},
    "no such file or directory": {"ja": "そのファイルまたはフォルダはありません"},
    "cannot load the forbid list {name}": {"ja": "禁止リスト{name}を読み込めません"},
    "give a path relative to the ruleset file":
        {"ja": "ルールセットのファイルからの相対パスを書いてください"},
    "no forbid entry {name} to waive": {"ja": "免除する禁止項目{name}がありません"},
    "the card does not break {name}: nothing to waive":
        {"ja": "このカードは{name}に違反していません：免除するものはありません"},
    "remove the waiver": {"ja": "免除を消してください"},
    "{zone} has {n} cards; it must have {rule}": {"ja": "{zone}は{n}枚です（{rule}枚必要）"},
    "{rule} ({n} copies of {card})": {"ja": "{rule}（{card}が{n}枚）"},
    "{rule} (this deck has {n})": {"ja": "{rule}（このデッキには{n}）"},
    "a {kind} ability does not go on the stack: it has no targets":
        {"ja": "{kind}能力はスタックに乗らないので対象を持ちません"},
    "declare targets on triggered (`when ...`) and activated abilities only":
        {"ja": "対象は誘発能力（`when ...`）と起動能力にだけ宣言してください"},
    "{name} is {value}, outside the ruleset's bounds for it ({bounds}): it reads as {read}":
        {"ja": "{name}は{value}で、ルールセットの範囲（{bounds}）の外です：{read}として読まれます"},
    "print a {name} within {bounds}": {"ja": "{bounds}の範囲の{name}を印刷してください"},
    "{name} must be one of {values}": {"ja": "{name}は次のどれかでなければなりません：{values}"},
    "target {name} is an ability on the stack: it cannot be a card or a player too":
        {"ja": "対象{name}はスタック上の能力です：カードやプレイヤーを兼ねられません"},
    "declare a second target for those": {"ja": "それらには2つ目の対象を宣言してください"},
    "target {name} can be nothing": {"ja": "対象{name}には何も当てはまりません"},
    "give it `cards` (an expression), `players` (a condition on `player`), both, or `abilities` (a "
    "condition on `card`)":
        {"ja": "`cards`（式）、`players`（`player`の条件）、その両方、または`abilities`（`card`の条"
               "件）を与えてください"},
    "unknown speed {name}": {"ja": "不明なスピード{name}"},
    "`stack: true` needs the ruleset's `timing: priority`":
        {"ja": "`stack: true`にはルールセットの`timing: priority`が必要です"},
    "add `timing: priority`, or remove `stack`":
        {"ja": "`timing: priority`を加えるか、`stack`を消してください"},
    "an object on the stack is a card's spell or ability": {"ja": "スタック上のものはカードの呪文か能力です"},
    "give the action a `card`": {"ja": "行動に`card`を与えてください"},
    "{name} is not a number property": {"ja": "{name}は数のプロパティではありません"},
    "{name} is not a property": {"ja": "{name}はプロパティではありません"},
    "pool {name} deals into {zone}, a zone of each player; a pool belongs to no player":
        {"ja": "プール{name}は各プレイヤーの場所{zone}に配りますが、プールはどのプレイヤーのもので"
               "もありません"},
    "declare {zone} with `shared: true`, or put these cards in the players' decks":
        {"ja": "{zone}を`shared: true`で宣言するか、これらのカードをプレイヤーのデッキに入れてください"},
    "pool {name} holds more than {n} cards": {"ja": "プール{name}のカードが{n}枚を超えています"},
    "no game is played with pools this large": {"ja": "これほど大きなプールで遊ぶゲームはありません"},
    "{zone} is shared and this ruleset has pools: a pool's card there would have working abilities "
    "and no controller":
        {"ja": "{zone}は共有で、このルールセットにはプールがあります：そこのプールのカードは能力が"
               "働くのにコントローラーがいません"},
    "take it out of ability_zones: a pool's card works once a player's zone takes it":
        {"ja": "ability_zonesから外してください：プールのカードはプレイヤーの場所に入ってから働きます"},
    "unknown action {name}": {"ja": "不明な行動{name}"},
    "{name} is not a parameter of {verb}": {"ja": "{name}は{verb}の引数ではありません"},
    "unknown deck section {name}": {"ja": "不明なデッキの区分{name}"},
    "enum value {name} is also the name of a card property, state or attribute":
        {"ja": "列挙値{name}はカードのプロパティ・状態・属性の名前でもあります"},
    "rename one of them": {"ja": "どちらかの名前を変えてください"},
    "card {name} is defined in more than one file": {"ja": "カード{name}が複数のファイルで定義されています"},
    "rename one of them, or give only one of the files":
        {"ja": "どちらかの名前を変えるか、ファイルを一つだけ渡してください"},
    "{what}; got {value}": {"ja": "{what}（{value}です）"},
    # the schema
    "the file must be a mapping (key: value), got a list":
        {"ja": "ファイルはマッピング（キー: 値）でなければなりません（リストです）"},
    "missing required key {key}": {"ja": "必須のキー{key}がありません"},
    "{what} must be text, got {value}": {"ja": "{what}はテキストでなければなりません（{value}です）"},
    "unknown key {key} in {where}": {"ja": "{where}に不明なキー{key}があります"},
    "unknown key {key}": {"ja": "不明なキー{key}"},
    "{what} must be a list, got {value}": {"ja": "{what}はリストでなければなりません（{value}です）"},
    "{what} must be an integer, got {value}": {"ja": "{what}は整数でなければなりません（{value}です）"},
    "{what} must be a whole number, got {value}": {"ja": "{what}は整数でなければなりません（{value}です）"},
    "{what} must be true or false": {"ja": "{what}はtrueかfalseでなければなりません"},
    "{what} of {verb} must be a number, got a text":
        {"ja": "{verb}の{what}は数でなければなりません（テキストです）"},
    "{what} of {verb} must be {kind}, got {value}":
        {"ja": "{verb}の{what}は{kind}でなければなりません（{value}です）"},
    "a condition must be true or false; got a text":
        {"ja": "条件は真か偽でなければなりません（テキストです）"},
    "{value} is text because of the quotes: write {n}":
        {"ja": "{value}は引用符のためテキストです：{n}と書いてください"},
    "{value} is a full-width digit: write {n}": {"ja": "{value}は全角数字です：{n}と書いてください"},
    "{value} is in full-width digits: write {n}": {"ja": "{value}は全角数字です：{n}と書いてください"},
    # names
    "did you mean {name}?": {"ja": "もしかして：{name}"},
    "unknown card {name}": {"ja": "不明なカード{name}"},
    "unknown name {name}": {"ja": "不明な名前{name}"},
    "unknown event {name}": {"ja": "不明なイベント{name}"},
    "unknown phase {name}": {"ja": "不明なフェイズ{name}"},
    "unknown state {name}": {"ja": "不明な状態{name}"},
    "unknown verb {name}": {"ja": "不明な動詞{name}"},
    "unknown zone {name} in {where}": {"ja": "{where}に不明な場所{name}があります"},
    "unknown zone {name}": {"ja": "不明な場所{name}"},
    "unknown card property {name}": {"ja": "不明なカードのプロパティ{name}"},
    "unknown property, state or counter {name}": {"ja": "不明なプロパティ・状態・カウンター{name}"},
    "if {name} is text (a name, a group), write it in quotes: {quoted}":
        {"ja": "{name}がテキスト（名前やグループ）なら、引用符で囲んでください：{quoted}"},
    "variables here: {names}": {"ja": "ここで使える変数：{names}"},
    "no player {name}: this game has {n} players":
        {"ja": "プレイヤー{name}はいません（このゲームは{n}人用です）"},
    "write P1 or P2": {"ja": "P1かP2と書いてください"},
    "{name} is neither a token of this ruleset (its tokens: {tokens}) nor a card of its card sets":
        {"ja": "{name}はこのルールセットのトークン（{tokens}）でもカードセットのカードでもありません"},
    "declare it under the ruleset's `tokens`, or name a card":
        {"ja": "ルールセットの`tokens`に宣言するか、カードの名前を書いてください"},
    "card {name} is defined twice": {"ja": "カード{name}が二度定義されています"},
    "rename one of them, or remove the copy": {"ja": "どちらかの名前を変えるか、コピーを消してください"},
    "two abilities of this card are named {name}: their options would read the same":
        {"ja": "このカードの二つの能力が{name}という名前です：選択肢が同じ表示になります"},
    "give each ability its own name": {"ja": "それぞれの能力に別の名前を付けてください"},
    "no ruleset {name}: not a file beside {file}, nor a ruleset given (given: {given}), nor a bundled id":
        {"ja": "ルールセット{name}がありません：{file}の隣のファイルでも、"
               "渡されたルールセット（{given}）でも、同梱のidでもありません"},
    "give the ruleset file first: tcg cards RULESET.yaml {file}":
        {"ja": "ルールセットのファイルを先に渡してください：tcg cards RULESET.yaml {file}"},
    "forbid entry id {name} is used twice": {"ja": "禁止リストのid {name}が二度使われています"},
    "give each entry its own id": {"ja": "各項目に別のidを付けてください"},
    "no ruleset {name} to check against": {"ja": "照合するルールセット{name}がありません"},
    # phrases
    "the question {key} has no phrase in {lang}: people read a default made from its code":
        {"ja": "質問{key}に{lang}のフレーズがありません：コードから作った既定の文が表示されます"},
    "add phrases: {entry}": {"ja": "phrasesに追加してください：{entry}"},
    "phrases.{section} names {name}, which is no {kind} of the ruleset":
        {"ja": "phrases.{section}の{name}はこのルールセットの{kind}ではありません"},
    "{placeholder} is not something {name} has to show":
        {"ja": "{placeholder}は{name}が示すものではありません"},
    "use one of {names}": {"ja": "次のどれかを使ってください：{names}"},
    # effect text
    "unexpected end of text": {"ja": "テキストが途中で終わっています"},
    "unexpected {token}": {"ja": "予期しない{token}"},
    "expected {what}": {"ja": "{what}が必要です"},
    "nesting deeper than {n} levels": {"ja": "入れ子が{n}段より深くなっています"},
    "split the effect into smaller steps or a ruleset verb":
        {"ja": "効果を小さな手順かルールセットの動詞に分けてください"},
    "{name} is computed by the ruleset (formula: {formula}); a card cannot set it":
        {"ja": "{name}はルールセットが計算します（式：{formula}）。カードでは設定できません"},
    "set the properties it is computed from": {"ja": "計算元のプロパティを設定してください"},
    # resources, decks
    "resource {name} starts at {n}, outside its bounds {bounds}":
        {"ja": "リソース{name}の初期値{n}が範囲{bounds}の外です"},
    "resource {name} has max {max} below its min {min}":
        {"ja": "リソース{name}の最大{max}が最小{min}より小さい"},
    "start it within min and max": {"ja": "最小と最大の間から始めてください"},
    "swap them": {"ja": "入れ替えてください"},
    "{n} copies of {card} in {zone}; at most {max} allowed": {"ja": "{zone}に{card}が{n}枚（最大{max}枚）"},
    "{n} copies of {card}; at most {max} allowed": {"ja": "{card}が{n}枚（最大{max}枚）"},
    "{zone} has {n} cards; it must have exactly {m}": {"ja": "{zone}は{n}枚です（ちょうど{m}枚必要）"},
    "the {deck} holds {kinds} cards only (this deck has {n})":
        {"ja": "{deck}に入れられるのは{kinds}のカードだけです（このデッキには{n}枚）"},
    # scenarios
    "no option matches {step}; options were: {options}":
        {"ja": "{step}に合う選択肢がありません（選択肢：{options}）"},
    "option {step} does not exist; options were: {options}":
        {"ja": "選択肢{step}はありません（選択肢：{options}）"},
    "script ran out; options were: {options}": {"ja": "決定の台本が尽きました（選択肢：{options}）"},
    "checkpoint {name}: {message}": {"ja": "チェックポイント{name}：{message}"},
    "winner: expected {want}, got {got}": {"ja": "勝者：{want}のはずが{got}"},
    "reason: expected it to contain {want}, got {got}": {"ja": "理由：{want}を含むはずが{got}"},
    "options: expected one containing {want}, got {got}": {"ja": "選択肢：{want}を含むものがあるはずが{got}"},
    "options: expected none containing {want}, got {got}":
        {"ja": "選択肢：{want}を含むものはないはずが{got}"},
    "log: expected exactly {n} of {event}, got {got}": {"ja": "ログ：{event}がちょうど{n}件のはずが{got}件"},
    "log: expected no {event}": {"ja": "ログ：{event}はないはず"},
    "log: expected {want} (in order); the log has no {event} event":
        {"ja": "ログ：{want}（順に）があるはずが、ログに{event}のイベントがない"},
    "log: expected {want} (in order); the log's {event} events: {seen}":
        {"ja": "ログ：{want}（順に）があるはず。ログの{event}のイベント：{seen}"},
    "log: expected {want} (in order)": {"ja": "ログ：{want}（順に）があるはず"},
    "{key}: expected {n} cards, got {m} {names}": {"ja": "{key}：{n}枚のはずが{m}枚 {names}"},
    "{key}: expected it to contain {name}, got {names}": {"ja": "{key}：{name}を含むはずが{names}"},
    "{key}: expected {want}, got {got}": {"ja": "{key}：{want}のはずが{got}"},
    "expected a decision by {want}, but {who} is asked: {prompt}":
        {"ja": "{want}の選択のはずが、{who}が尋ねられている：{prompt}"},
    "the game ended with {n} decisions left ({reason})":
        {"ja": "選択が{n}個残ったままゲームが終わった（{reason}）"},
    "{n} fixed random outcomes left over: the match took {m} random steps":
        {"ja": "固定した乱数の結果が{n}個余った（対戦の乱数は{m}回）"},
    "unknown counter {name}": {"ja": "不明なカウンター{name}"},
    "unknown resource {name}": {"ja": "不明なリソース{name}"},
    "{where} is not a card's place": {"ja": "{where}はカードの置き場所ではありません"},
    "no card at {where} ({n} in {zone})": {"ja": "{where}にカードがありません（{zone}に{n}枚）"},
    "no phase {name} in the turn structure": {"ja": "ターンの構造にフェイズ{name}がありません"},
    "no player {name}: the players are P1 to {last}": {"ja": "プレイヤー{name}はいません（P1〜{last}）"},
    "no option of this game can contain {text}": {"ja": "このゲームの選択肢で{text}を含むものはありません"},
    "tcg check --explain {code}": {"ja": "tcg check --explain {code}"},
    # delayed triggers, flexible targets, typed costs, options
    "a delayed trigger (`at next ...`) is set up by a card's text":
        {"ja": "遅延誘発（`at next ...`）はカードのテキストが設定するものです"},
    "write it in the card's effect or ability": {"ja": "カードの効果か能力に書いてください"},
    "a triggered ability's targets are one card or player each: "
    "`up_to` is for spells and activated abilities":
        {"ja": "誘発能力の対象はそれぞれカード1枚かプレイヤー1人です（`up_to`は呪文と起動型能力のものです）"},
    "declare separate targets": {"ja": "対象を別々に宣言してください"},
    "typed_costs.type must name an enum property; {prop} is none":
        {"ja": "typed_costs.typeは列挙型のプロパティを名指す必要があります（{prop}はそうではありません）"},
    "add `timing: priority`, or remove `state_checks`":
        {"ja": "`timing: priority`を加えるか、`state_checks`を消してください"},
    "target {name}: `divide` shares an amount among `up_to` cards":
        {"ja": "対象{name}：`divide`は量を`up_to`のカードに割り振るものです"},
    "give it `up_to: N` too": {"ja": "`up_to: N`も与えてください"},
    "target {name}: `up_to` chooses several cards, not players":
        {"ja": "対象{name}：`up_to`が選ぶのは複数のカードで、プレイヤーではありません"},
    "give it `cards` only, or declare the player as a target of its own":
        {"ja": "`cards`だけを与えるか、プレイヤーを別の対象として宣言してください"},
    "option {name}: the default {value} is not one of its choices":
        {"ja": "オプション{name}：既定値{value}は選択肢のどれでもありません"},
    "choices: {names}": {"ja": "選択肢：{names}"},
    "`state_checks: priority` needs `timing: priority`":
        {"ja": "`state_checks: priority`には`timing: priority`が必要です"},
}


# The English pieces the stages put into a message's placeholders (the parser's and the
# checkers' names of kinds of value, the schema's types) -> {language: translation}; a
# placeholder's value that is one of them, or a list of them (`a name, a number or 'x'`), is
# said in the reader's language too: a Japanese sentence with no English made by the code.
FRAGMENTS: dict[str, dict[str, str]] = {
    "a name": {"ja": "名前"}, "a number": {"ja": "数"}, "a string": {"ja": "文字列"},
    "end of text": {"ja": "テキストの終わり"}, "text": {"ja": "テキスト"}, "a text": {"ja": "テキスト"},
    "an integer": {"ja": "整数"}, "a mapping (key: value)": {"ja": "マッピング（キー: 値）"},
    "a mapping": {"ja": "マッピング"}, "a list": {"ja": "リスト"}, "empty": {"ja": "空"},
    "anything": {"ja": "任意の値"}, "cards": {"ja": "カード"}, "the players": {"ja": "プレイヤー"},
    "zones": {"ja": "場所"}, "an ability": {"ja": "能力"}, "a card": {"ja": "カード"},
    "a player": {"ja": "プレイヤー"}, "a zone": {"ja": "場所"}, "a bool": {"ja": "真偽値"},
    "a boolean": {"ja": "真偽値"}, "nothing": {"ja": "なし"},
}
JOINERS = {"ja": {", ": "、", " and ": "と", " or ": "か"}}
_ITEM = r"(?:'[^']*'|[^,']+?)"
_LIST = re.compile(rf"({_ITEM})((?:, {_ITEM})*)(?: (and|or) ({_ITEM}))?")


def _fragment(value: str, lang: str) -> str:
    """A placeholder's value with the code's English pieces in `lang` (others as written)."""
    if value in FRAGMENTS:
        return FRAGMENTS[value].get(lang, value)
    m = _LIST.fullmatch(value)
    if m is None or lang not in JOINERS:
        return value
    items = [m[1], *re.findall(rf", ({_ITEM})(?=, |$)", m[2]), *([m[4]] if m[4] else [])]
    if len(items) < 2 or not (m[3] or any(i in FRAGMENTS for i in items)) or \
            not all(i.startswith("'") or re.fullmatch(r"[\w -]+", i) for i in items):
        return value  # (not a list of words: effect code, say, is said as written)
    said = [FRAGMENTS[i].get(lang, i) if i in FRAGMENTS else i for i in items]
    joins = JOINERS[lang]
    last = joins[f" {m[3]} "] if m[3] else joins[", "]
    return joins[", "].join(said[:-1]) + last + said[-1]


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    out = []
    # the most specific first: a message around another ("checkpoint {name}: {message}"), then
    # the template with the most text of its own ("'in' needs cards or a zone, got {value}"
    # before "{name} needs {what}")
    for template in sorted(MESSAGES, key=lambda t: ("{message}" not in t, -len(PLACEHOLDER.sub("", t)))):
        parts = PLACEHOLDER.split(template)  # literal, name, literal, name, ...
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((re.compile(regex, re.S), template))
    return out


def translated(text: str, lang: str) -> str | None:
    """The text in `lang`, or None when no template fits it."""
    if lang == "en" or not text:
        return text
    for pattern, template in _patterns():
        m = pattern.fullmatch(text)
        if m:
            values = {k: v if k == "message" else _fragment(v, lang) for k, v in m.groupdict().items()}
            if "message" in values:  # a message inside a message: translated in turn
                inner = translated(values["message"], lang)
                if inner is None:
                    return None
                values["message"] = inner
            return fill(MESSAGES[template][lang], values)
    return None


def say(text: str, lang: str) -> str:
    """A diagnostic's message or hint in `lang` (as written when no template fits)."""
    found = translated(text, lang)
    return text if found is None else found
