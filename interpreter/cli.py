"""The `tcg` command: play, check, test, replay, simulate. Imports are lazy to keep start-up small."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.run.scenario import Outcome

# every agent name (interpreter.agents.basic.AGENTS, which a test keeps equal: importing the
# agents here would slow every `tcg` start)
AGENT_NAMES = ("default", "default:WORLDS", "random", "first", "human", "human:STOPS", "greedy",
               "greedy:WORLDS", "mcts", "mcts:ITERATIONS", "mcts:SECONDSs", "mcts:ITERATIONS:SECONDSs")


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        from interpreter.words.ui import tr

        print(tr("ui.interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # noqa: BLE001 - the one place that turns errors into exit codes
        return _report_error(e)
    finally:  # (the language chosen is this run's: not an in-process caller's next run's)
        if "interpreter.words.ui" in sys.modules:
            from interpreter.words import ui
            ui.current = None
        if "interpreter.words.speak" in sys.modules:
            from interpreter.words import speak
            speak.current = None


def _report_error(e: Exception) -> int:
    from interpreter.diagnostics import DiagnosticError, TcgError
    from interpreter.words.ui import tr

    if isinstance(e, DiagnosticError):
        for d in e.diagnostics:
            print(d.render())
        return 2 if e.unusable else 1
    if isinstance(e, TcgError):
        print(tr("ui.error", message=e.said()), file=sys.stderr)
        return 2
    if os.environ.get("TCG_DEBUG"):
        raise e
    print(f"internal error: {type(e).__name__}: {e}\n"
          "  this is a bug in tcg-interpreter; run again with TCG_DEBUG=1 for a traceback",
          file=sys.stderr)
    return 3


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tcg", description="A data-driven trading card game engine.")
    sub = p.add_subparsers(required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a match from rule files")
    play.add_argument("ruleset", nargs="?", help="a bundled id (rulesets/<id>.yaml) or a ruleset file")
    play.add_argument("--resume", metavar="LOG",
                      help="continue an interrupted match from its log (rewritten in full)")
    play.add_argument("--deck", action="append", default=None,
                      help="deck file (give one per player)")
    play.add_argument("--seed", type=int, default=None, help="the match's seed (default 0)")
    play.add_argument("--agents", default=None,
                      help="one per player, e.g. default,default (the default) or human,default; "
                           "see tcg simulate --help for every agent")
    play.add_argument("--log", help="write the JSON Lines log here")
    play.add_argument("--turns", type=int, default=None, metavar="N",
                      help="the match's turn limit (instead of the ruleset's limits.turns); "
                           "at the limit the ruleset's judgement decides, or it is a draw")
    play.add_argument("--quiet", action="store_true", help="print only the result line")
    _lang_flag(play)
    _reference_flag(play)
    _option_flag(play)
    play.set_defaults(run=_play)

    check = sub.add_parser("check", help="check rulesets, card files, decks and scenarios")
    check.add_argument("paths", nargs="*", help="files or folders (with --explain: where to look "
                                                "for forbid lists; default: the bundled rulesets)")
    check.add_argument("--format", choices=("text", "json", "sarif"), default="text",
                       help="text (default), json (a list of diagnostics) or sarif (SARIF 2.1.0)")
    check.add_argument("--explain", metavar="ID", help="print the forbid entry ID and exit")
    check.add_argument("--waivers", action="store_true",
                       help="list the cards' waivers of forbid entries (with their reasons)")
    _lang_flag(check)
    check.set_defaults(run=_check)

    test = sub.add_parser("test", help="run scenario files")
    test.add_argument("paths", nargs="+")
    test.add_argument("-v", "--verbose", action="store_true")
    test.add_argument("-k", metavar="PATTERN", dest="pattern",
                      help="run only the scenarios whose path or name contains PATTERN")
    test.add_argument("--junitxml", metavar="FILE", help="also write the results as JUnit XML")
    test.add_argument("--show-pending", action="store_true",
                      help="print the question pending when each scenario's decisions end, "
                           "and the options offered")
    _reference_flag(test)
    _option_flag(test)
    _lang_flag(test)
    test.set_defaults(run=_test)

    cards = sub.add_parser("cards", help="each card's printed text beside its abilities in words")
    cards.add_argument("files", nargs="*",
                       help="card files, after the ruleset file of those that name it by id "
                            "(a ruleset alone: its card sets; default: every bundled game's)")
    _lang_flag(cards)
    cards.set_defaults(run=_cards)

    replay = sub.add_parser("replay", help="re-run a log and verify it reproduces exactly")
    replay.add_argument("log")
    replay.set_defaults(run=_replay)

    sim = sub.add_parser("simulate", help="play many seeded AI matches: win rates and balance metrics",
                         description="Match i uses seed S+i; odd matches swap the seats. Exit 0 when "
                                     "every match ran, 1 when some raised errors (their seeds are "
                                     "reported) or a deck is illegal.")
    sim.add_argument("ruleset", help="a bundled id (rulesets/<id>.yaml) or a ruleset file")
    sim.add_argument("--deck", action="append", default=[],
                     help="deck A then deck B (default: the ruleset's first two bundled decks)")
    sim.add_argument("--decks", metavar="DIR", help="a round robin: every pair of the deck files in DIR "
                                                    "(a win-rate matrix; --games per pair)")
    sim.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--turns", type=int, default=None, metavar="N",
                     help="the matches' turn limit (instead of the ruleset's limits.turns)")
    _option_flag(sim)
    sim.add_argument("--workers", type=int, default=None,
                     help="processes (default: the machine's cores, or the Ray cluster's CPUs; "
                          "1 with the local backend runs in this process)")
    sim.add_argument("--seed", type=int, default=0, help="match i uses seed S+i (default 0)")
    sim.add_argument("--agents", default="default,default",
                     help="deck A's agent,deck B's agent (default default,default). Agents: "
                          + ", ".join(AGENT_NAMES) + ". default: the search agent for any "
                          "ruleset (docs/BALANCE.md); random: any legal option; first: the first "
                          "option; greedy: one-ply search on the ruleset's heuristic; mcts: tree "
                          "search (slow); human: you, in the terminal")
    sim.add_argument("--backend", default="local",
                     help="local (a process pool, the default) or ray (needs the ray extra: "
                          "pip install -e '.[ray]')")
    sim.add_argument("--address", help="with --backend ray: join the Ray cluster at this address "
                                       "(default: start a local Ray instance)")
    sim.add_argument("--chunk", type=int, default=None, help="matches per task (default: automatic)")
    sim.add_argument("--out", help="write results.jsonl (as matches finish), summary.json, summary.csv, "
                                   "the per-card cards.json and cards.csv, and PNG plots (win_rates.png, "
                                   "lengths.png, cards.png; needs matplotlib)")
    sim.add_argument("--resume", action="store_true", help="continue OUT/results.jsonl: play only "
                                                           "the matches not recorded there")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--swap", action="append", default=[], metavar="OLD=NEW",
                     help="paired ablation: play the same seeds again with every OLD card in deck A "
                          "replaced by NEW (repeatable), and report the change in deck A's win rate "
                          "(with --out: OUT/swap/ and OUT/ablation.json)")
    sim.add_argument("--check-skill", nargs="?", const="", default=None, metavar="N|P%",
                     help="play the first N matches (or P%%; default 20%%, at least 20) again with "
                          "4× the agents' budget (random, first: default:8) and say whether the "
                          "conclusions hold (the deck winner, the IWD sign of each deck's strongest "
                          "and weakest card); with --out: OUT/skill/ and OUT/skill.json "
                          "(docs/BALANCE.md)")
    _lang_flag(sim)
    sim.set_defaults(run=_simulate)
    _serve_parser(sub)
    _add_schema(sub)
    _add_train(sub)
    _add_lsp(sub)
    return p


def _serve_parser(sub) -> None:
    from interpreter.load import files

    serve = sub.add_parser("serve", help="the playtest table in the browser (needs the table extra)",
                           description="Starts a local web server and prints the URL of each "
                                       "human seat. Needs: pip install -e '.[table]'")
    serve.add_argument("ruleset", nargs="?", help="a bundled id or a ruleset file (default "
                                                   f"{files.default_ruleset()})")
    serve.add_argument("--deck", action="append", default=[], help="deck file (one per player)")
    serve.add_argument("--seed", type=int, default=0, help="the match's seed (default 0)")
    serve.add_argument("--agents", default="human,default",
                       help="one per seat: human or an AI (default human,default; human,human: "
                            "two seats, each its own URL)")
    serve.add_argument("--turns", type=int, default=None, metavar="N", help="the match's turn limit")
    serve.add_argument("--hotseat", action="store_true",
                       help="the human seats share one URL (take turns at one screen)")
    serve.add_argument("--replay", metavar="LOG", help="open a JSON Lines log in the replay viewer")
    _lang_flag(serve)
    serve.add_argument("--scenario", metavar="FILE", help="a puzzle: play from a scenario's state")
    serve.add_argument("--results", metavar="DIR",
                       help="show a simulation's --out folder at /results (alone: no match)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to bind (default 127.0.0.1; 0.0.0.0 serves the network)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    _use_lang(args)
    from interpreter.diagnostics import TcgError

    try:
        from interpreter.table.serve import serve
    except ImportError as e:
        raise TcgError("err.table_extra", module=e.name) from None
    return serve(args)


def _reference_flag(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--reference", action="store_true",
                      help="run on the reference path: the VM and the kernel's plain functions, "
                           "no generated code (slower; the log is byte-identical)")


def _option_flag(verb: argparse.ArgumentParser) -> None:
    verb.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                      help="one of the ruleset's options (its `options:`, readings of a rule the "
                           "seed leaves open); repeat for several; the others keep their defaults")


def _lang_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=("ja", "en"), default=None,
                   help="the language of what people read (default: the ruleset's `language:`, "
                        "else the locale's)")


def _use_lang(args: argparse.Namespace, declared: str | None = None) -> None:
    """The language of what people read: the game's words (speak) and the tool's (ui)."""
    from interpreter.words import speak, ui

    speak.current = getattr(args, "lang", None)
    ui.use(speak.current, declared)


def _play(args: argparse.Namespace) -> int:
    from interpreter.agents.basic import is_human
    from interpreter.diagnostics import TcgError
    from interpreter.load import options
    from interpreter.run.loading import chosen_options, load_game
    from interpreter.run.match import MatchSetup, play, read_log, resume
    from interpreter.run.narrate import Narrator

    _use_lang(args)  # (its errors before the game is read: the ruleset's language comes below)
    if args.resume:
        given = [f"--{k}" for k in ("deck", "seed", "agents", "turns") if getattr(args, k) is not None]
        given += ["--option"] if args.option else []
        if args.ruleset or given:
            raise TcgError("err.resume_drop", flags=", ".join(given)) if given else \
                TcgError("err.resume_ruleset")
        setup = read_log(args.resume)[1]
    elif args.ruleset is None:
        raise TcgError("err.give_ruleset")
    else:
        if args.turns is not None and args.turns < 1:
            raise TcgError("err.turns", n=args.turns)
        setup = MatchSetup(args.ruleset, args.deck or [], args.seed or 0,
                           (args.agents or "default,default").split(","), args.turns,
                           chosen_options(args.ruleset, options.parse(args.option), "--option: "))
    agents = setup.agents
    # A human sees the account through their own eyes; AI-only matches are shown in full.
    viewer = next((i for i, a in enumerate(agents) if is_human(a)), None)
    game = load_game(setup.ruleset, chosen=setup.options)
    _use_lang(args, game.ruleset.phrases.language if game.ruleset.phrases else None)
    narrator = Narrator(game, viewer)

    def show(record: dict) -> None:
        if not args.quiet:
            text = narrator.line(record)
            if text is not None:
                print(text)

    opened: list = []
    if args.log and not args.resume:
        _check_log(args.log, setup)

    def open_log():
        from interpreter.run.outputs import open_output

        opened.append(open_output(args.log))
        return opened[0]

    try:
        g = resume(args.resume, show, narrator.follow) if args.resume else \
            play(setup, open_log if args.log else None, show, watch=narrator.follow,
                 reference=args.reference)
    finally:
        for f in opened:
            f.close()
    r = g.result
    assert r is not None  # (play and resume return a finished match)
    winner = "draw" if r.winner is None else f"P{r.winner + 1} wins"
    rule = f" [rule {r.ref}]" if r.ref else ""
    reason = "" if r.reason in (winner, "", None) else f" — {r.reason}"  # (not "P2 wins — P2 wins")
    print(f"result: {winner}{reason}{rule} after {r.turns} turns")
    return 0


def _check_log(log: str, setup) -> None:
    """Before the match: the log can be written and is none of the match's own files."""
    from interpreter.load import files
    from interpreter.run.outputs import check_output

    check_output(log, [files.ruleset_path(setup.ruleset), *setup.decks])


def _check(args: argparse.Namespace) -> int:
    from interpreter.check.files import check_paths, explain
    from interpreter.check.output import render
    from interpreter.diagnostics import TcgError
    from interpreter.words.ui import tr

    _use_lang(args)
    if args.explain:
        text = explain(args.explain, [Path(p) for p in args.paths])
        print(text)
        return 0
    if not args.paths:
        raise TcgError("err.give_paths")
    report = check_paths([Path(p) for p in args.paths])
    rendered = render(report, args.format, waivers=args.waivers)
    if rendered:
        print(rendered)
    n, waived = len(report.errors), len(report.waivers)
    found = tr("ui.problems", n=n) if n > 1 else tr("ui.one_problem") if n else tr("ui.no_problems")
    print(found + (tr("ui.waived", n=waived) if waived else ""), file=sys.stderr)
    if report.unusable:
        return 2
    return 1 if n else 0


def _test(args: argparse.Namespace) -> int:
    from interpreter.diagnostics import DiagnosticError
    from interpreter.load import options
    from interpreter.run.scenario import Outcome, run_scenario

    chosen = options.parse(args.option)
    _use_lang(args)
    outcomes: list[Outcome] = []
    for path in _scenario_files(args.paths):
        if args.pattern and not _selected(path, args.pattern):
            continue
        try:
            outcome = run_scenario(path, args.reference, chosen)
        except DiagnosticError as e:
            outcome = Outcome(str(path), path.stem, e.diagnostics)
        outcomes.append(outcome)
        _print_outcome(outcome, args.verbose)
        if args.show_pending and outcome.pending:
            if outcome.passed and not args.verbose:
                print(f"ok   {outcome.path}: {outcome.name}")
            print("  " + outcome.pending.replace("\n", "\n  "))
    failed = sum(not o.passed for o in outcomes)
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    if args.junitxml:
        from interpreter.run.junit import write_junit

        write_junit(outcomes, Path(args.junitxml))
    return 1 if failed or not outcomes else 0


def _selected(path: Path, pattern: str) -> bool:
    """`tcg test -k`: the pattern is part of the scenario's path or of its name."""
    from interpreter.diagnostics import DiagnosticError
    from interpreter.load.yamlpos import load_yaml

    if pattern in str(path):
        return True
    try:
        data = load_yaml(path).data
    except DiagnosticError:
        return False
    return isinstance(data, dict) and pattern in str(data.get("name", ""))


def _print_outcome(outcome: Outcome, verbose: bool) -> None:
    if outcome.passed:
        if verbose:
            print(f"ok   {outcome.path}: {outcome.name}")
        return
    print(f"FAIL {outcome.path}: {outcome.name}")
    for d in outcome.diagnostics:
        print("  " + d.render().replace("\n", "\n  "))


def _scenario_files(paths: list[str]) -> list[Path]:
    """Scenario files named or found in folders (card sets beside them are skipped)."""
    from interpreter.check.files import kind_of
    from interpreter.diagnostics import DiagnosticError
    from interpreter.load.yamlpos import load_yaml

    out: list[Path] = []
    for p in map(Path, paths):
        if not p.is_dir():
            out.append(p)
            continue
        for f in sorted(p.rglob("*.yaml")):
            try:
                if kind_of(load_yaml(f)) == "scenario":
                    out.append(f)
            except DiagnosticError:
                out.append(f)  # run it, so its problem is reported
    return out


def _simulate(args: argparse.Namespace) -> int:
    import time

    from interpreter.diagnostics import TcgError
    from interpreter.load import options
    from interpreter.run import plots
    from interpreter.run.ablation import SWAP_DIR, swapped
    from interpreter.run.backends import check_backend
    from interpreter.run.loading import chosen_options
    from interpreter.run.report import progress_bar, render, render_round_robin
    from interpreter.run.roundrobin import round_robin
    from interpreter.run.simulate import make_plan, simulate

    _use_lang(args)
    check_backend(args.backend, args.address)
    if args.decks and args.option:
        raise TcgError("err.option_decks")
    chosen = chosen_options(args.ruleset, options.parse(args.option), "--option: ")
    if args.chunk is not None and args.chunk < 1:
        raise TcgError("err.chunk")
    if args.decks and args.deck:
        raise TcgError("err.deck_and_decks")
    if args.decks and args.swap:
        raise TcgError("err.swap_decks")
    if args.decks and args.check_skill is not None:
        raise TcgError("err.skill_decks")
    agents = [a.strip() for a in args.agents.split(",")]
    out = Path(args.out) if args.out else None
    start = time.perf_counter()
    try:
        with progress_bar(not args.quiet and sys.stderr.isatty()) as progress:
            if args.decks:
                rr = round_robin(args.ruleset, args.decks, agents, args.seed, args.games, args.workers,
                                 args.backend, out, args.resume, args.chunk, args.address, progress,
                                 args.turns)
            else:
                plan = make_plan(args.ruleset, args.deck, agents, args.seed, args.games, args.turns,
                                 chosen)
                changed = swapped(plan, args.swap, out, args.resume) if args.swap else None
                skill = _skill_plan(plan, args.check_skill, out, args.resume)
                run = simulate(plan, args.workers, args.backend, out, args.resume, args.chunk, progress,
                               args.address)
                if changed is not None:
                    other = simulate(changed, args.workers, args.backend, out / SWAP_DIR if out else None,
                                     args.resume, args.chunk, progress, args.address)
                checked = None
                if skill is not None:
                    began = time.perf_counter()
                    strong = simulate(skill[0], args.workers, args.backend, skill[1], args.resume,
                                      args.chunk, progress, args.address)
                    checked = _skill_check(run, strong, time.perf_counter() - began, out)
    except KeyboardInterrupt:
        if out is not None:
            print(f"the matches played so far are in {out}; run the same command with --resume "
                  "to continue", file=sys.stderr)
        raise
    seconds = time.perf_counter() - start
    if args.decks:
        written = _plot(lambda: plots.round_robin(out, rr)) if out is not None else []
        render_round_robin(rr, args.ruleset, seconds, written)
        return 1 if rr.errors() else 0
    written = _plot(lambda: plots.simulation(out, run.summary, run.cards)) if out is not None else []
    render(run, seconds, written, skill=checked)
    if changed is not None:
        _ablation(run, other, out)
    return 1 if run.summary["errors"]["count"] or checked and checked["errors"] else 0


def _skill_plan(plan, asked: str | None, out: Path | None, resume: bool):
    """--check-skill: the check's plan and folder (None without the flag); errors before any match."""
    if asked is None:
        return None
    from interpreter.run.skill import check_out, sample_size, skilled

    return skilled(plan, sample_size(plan.games, asked or None)), check_out(out, resume)


def _skill_check(run, strong, seconds: float, out: Path | None) -> dict:
    from interpreter.run.skill import check, write_check

    doc = check(run, strong, seconds)
    if out is not None:
        write_check(out, doc)
    return doc


def _ablation(run, changed, out: Path | None) -> None:
    """`--swap`: the changed run's files and cards, and the paired difference."""
    from interpreter.run import plots
    from interpreter.run.ablation import SWAP_DIR, paired, write_ablation
    from interpreter.run.report import render_ablation

    result = paired(run.records, changed.records)
    if out is not None:
        write_ablation(out, changed.plan, result)
        _plot(lambda: plots.simulation(out / SWAP_DIR, changed.summary, changed.cards))
    render_ablation(changed, result)


def _plot(draw) -> list[Path]:
    """Plots are a bonus: without matplotlib the results stand, with a note on stderr."""
    from interpreter.diagnostics import TcgError
    from interpreter.run import plots
    from interpreter.words.ui import tr

    try:
        written = draw()
        note = plots.font_note()
        if note:
            print(f"note: {note}", file=sys.stderr)
        return written
    except TcgError as e:
        print(tr("ui.no_plots", message=e.said()), file=sys.stderr)
        return []


def _cards(args: argparse.Namespace) -> int:
    from interpreter.words.cards import bundled_card_files, card_texts, given_files

    rulesets, paths = given_files(args.files)
    for path in paths or map(str, bundled_card_files()):
        for line in card_texts(path, args.lang, rulesets):
            print(line)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from interpreter.run.match import replay

    ok, message = replay(args.log)
    print(("replay: identical — " if ok else "replay: DIFFERENT — ") + message)
    return 0 if ok else 1



def _add_schema(sub) -> None:
    schema = sub.add_parser("schema", help="write JSON Schemas narrowed to one ruleset (for editors)",
                            description="Writes ID.cards/deck/scenario.schema.json (draft-07): card "
                                        "properties typed with their enum values, the card names a "
                                        "deck may list, a scenario's zones, players, phases and states. "
                                        "Point yaml-language-server at them with a "
                                        "'# yaml-language-server: $schema=PATH' first line.")
    schema.add_argument("ruleset", help="a bundled id (rulesets/<id>.yaml) or a ruleset file")
    schema.add_argument("--out", default=".", metavar="DIR", help="where to write them (default: .)")
    schema.set_defaults(run=_schema)


def _schema(args: argparse.Namespace) -> int:
    from interpreter.check.schema_gen import load_declarations, write_schemas

    ruleset, names = load_declarations(args.ruleset)
    for path in write_schemas(ruleset, names, Path(args.out)):
        print(path)
    return 0



def _add_train(sub) -> None:
    train = sub.add_parser("train", help="tune the default agent's evaluation for one ruleset by self-play",
                           description="Plays the default agent against itself with one weight of its "
                                       "evaluation changed at a time, keeps the changes that win, and "
                                       "writes RULESET.weights.json beside the ruleset file, which the "
                                       "default agent then reads for that ruleset (docs/BALANCE.md).")
    train.add_argument("ruleset", help="a bundled id (rulesets/<id>.yaml) or a ruleset file")
    train.add_argument("--deck", action="append", default=[], help="deck file (give two)")
    train.add_argument("--minutes", type=float, default=5.0, help="how long to train (default 5)")
    train.add_argument("--games", type=int, default=8, help="games per trial (default 8, in fours)")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--out", type=Path, default=None,
                       help="write the weights here instead (the agent reads only the file beside "
                            "the ruleset)")
    train.set_defaults(run=_train)


def _train(args: argparse.Namespace) -> int:
    from interpreter.agents.train import train
    from interpreter.diagnostics import TcgError

    if not args.minutes > 0 or args.games < 1:
        raise TcgError("err.train_budget")
    weights, path = train(args.ruleset, args.deck, args.minutes, args.games, args.seed,
                          lambda line: print(line, flush=True), args.out)
    print(f"wrote {path}: {weights}")
    return 0


def _add_lsp(sub) -> None:
    lsp = sub.add_parser("lsp", help="run the language server over stdio (for editors)",
                         description="Diagnostics as you type (those of tcg check), completion, hover, "
                                     "go to definition and quick fixes for rulesets, card sets, decks, "
                                     "scenarios and forbid lists. Needs the lsp extra: "
                                     "pip install -e '.[lsp]'. See docs/EDITORS.md.")
    lsp.add_argument("--stdio", action="store_true", help="accepted for editors that pass it "
                                                          "(stdio is the only transport)")
    _lang_flag(lsp)
    lsp.set_defaults(run=_lsp)


def _lsp(args: argparse.Namespace) -> int:
    from interpreter.diagnostics import TcgError

    try:
        from interpreter.lsp.server import main as serve
    except ImportError as e:
        raise TcgError("err.pygls", reason=e) from None
    _use_lang(args)
    serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
