"""How `tcg simulate` shows itself: a progress bar on stderr, tables and a result line on stdout."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich import box
from rich.console import Console, JustifyMethod
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from interpreter.run.cards import NEVER_PLAYED_DRAWN, NEVER_PLAYED_RATE, never_played
from interpreter.run.stats import text_histogram


class _Rate(ProgressColumn):
    """Matches per second since the bar started (matches loaded by --resume do not count)."""

    def __init__(self) -> None:
        super().__init__()
        self.start = time.perf_counter()
        self.base = 0

    def render(self, task) -> Text:
        elapsed = time.perf_counter() - self.start
        done = task.completed - self.base
        return Text(f"{done / elapsed:6.1f} matches/s" if elapsed > 0 and done else "  — matches/s",
                    style="progress.data.speed")


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[int, int], Callable[[int], None]] | None]:
    """Yields simulate()'s `progress` hook, or None when there is no terminal to draw on."""
    if not enabled:
        yield None
        return
    rate = _Rate()
    bar = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), rate,
                   TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                   console=Console(stderr=True), auto_refresh=False, transient=True)
    # auto_refresh=False: no drawing thread, so the pool can fork safely; we refresh per task.

    def start(total: int, done: int) -> Callable[[int], None]:
        task = bar.add_task("simulate", total=total, completed=done)
        rate.base, rate.start = done, time.perf_counter()
        bar.refresh()

        def advance(n: int) -> None:
            bar.advance(task, n)
            bar.refresh()

        return advance

    with bar:
        yield start


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}%"


def _ci(r: dict) -> str:
    lo, hi = r["ci95"]
    return f"{100 * lo:.1f}–{100 * hi:.1f}%" if r["n"] else "—"


def _pts(x: float) -> str:
    return f"{100 * x:+.1f} pts"


def render(run, seconds: float, plots: Sequence[Path] = (), out=None) -> None:
    """The report: tables on stdout, closing with one plain `result:` line."""
    s, plan = run.summary, run.plan
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    n = s["completed"]
    head = (f"{plan.ruleset}: {s['games']} games ({n} completed, {s['errors']['count']} errors), "
            f"seed {plan.seed}..{plan.seed + plan.games - 1}, agents {plan.agents[0]} (A) vs "
            f"{plan.agents[1]} (B); {run.ran} played in {seconds:.1f} s")
    if run.ran < s["games"]:
        head += f", {s['games'] - run.ran} from --resume"
    console.print(head, highlight=False)

    t = Table(title="outcomes (95% Wilson intervals)", title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("", "left"), ("games", "right"), ("rate", "right"), ("95% CI", "right"),
        ("as first", "right"), ("as second", "right"))
    for col, just in columns:
        t.add_column(col, justify=just)
    for key, d in s["decks"].items():
        t.add_row(f"{key} {d['name']} wins", str(d["win"]["count"]), _pct(d["win"]), _ci(d["win"]),
                  f"{_pct(d['win_when_first'])} of {d['win_when_first']['n']}",
                  f"{_pct(d['win_when_second'])} of {d['win_when_second']['n']}")
    for label, key in (("draws", "draw"), ("timeouts: turn limit", "turn_limit"),
                       ("timeouts: loop limit", "loop_limit")):
        t.add_row(label, str(s[key]["count"]), _pct(s[key]), _ci(s[key]), "", "")
    console.print(t)

    fp = s["first_player"]
    lo, hi = fp["advantage_ci95"]
    console.print(f"first player wins {_pct(fp)} of {fp['n']} decisive games (95% CI {_ci(fp)}): "
                  f"advantage {_pts(fp['advantage'])} (95% CI {_pts(lo)} to {_pts(hi)})", highlight=False)
    console.print(f"drawishness {_pct(s['draw'])} real draws; {_pct(s['timeouts'])} timeouts; "
                  f"{_pct(s['undecided'])} undecided in all", highlight=False)

    for what, unit in (("turns", "turns"), ("decisions", "decisions")):
        sp = s[what]
        if not sp["n"]:
            continue
        console.print(f"game length in {unit}: mean {sp['mean']:.1f}, sd {sp['sd']:.1f}, "
                      f"min {sp['min']}, median {sp['median']:g}, max {sp['max']}", highlight=False)
        for line in text_histogram(sp["histogram"]):
            console.print("  " + line, highlight=False)
    asked, unasked = s["decisions"], s.get("unasked", {})
    if asked["n"] and unasked.get("n"):
        console.print(f"decisions asked per game: mean {asked['mean']:.1f}; windows closed without "
                      f"asking (a player with nothing but pass) per game: mean {unasked['mean']:.1f}, "
                      f"median {unasked['median']:g}, max {unasked['max']}", highlight=False)
    lc = s["lead_changes"]
    if lc.get("n"):
        g = lc["games_with_a_change"]
        console.print(f"lead changes (the leader by the ruleset's heuristic, before each decision): mean "
                      f"{lc['mean']:.2f}, sd {lc['sd']:.2f}, max {lc['max']}; "
                      f"{_pct(g)} of games had one (95% CI {_ci(g)})", highlight=False)

    if s["reasons"]:
        r = Table(title="how games ended", title_justify="left")
        r.add_column("reason")
        r.add_column("games", justify="right")
        r.add_column("share", justify="right")
        for reason, count in s["reasons"].items():
            r.add_row(reason, str(count), f"{100 * count / n:.1f}%")
        console.print(r)

    render_cards(console, run.cards)
    errs = s["errors"]
    if errs["count"]:
        console.print(f"[bold red]{errs['count']} matches raised errors[/] (seeds "
                      f"{', '.join(map(str, errs['seeds'][:20]))}"
                      f"{', ...' if errs['count'] > 20 else ''}):")
        for message, count in list(errs["messages"].items())[:5]:
            console.print(f"  {count} × {message}", highlight=False, markup=False)
        first = next(iter(s["reproduce"].values()))
        console.print(f"  reproduce one: {first}", highlight=False, markup=False)
    if plots:
        console.print("plots: " + ", ".join(map(str, plots)), highlight=False, markup=False)
    print(result_line(s), file=out or sys.stdout, flush=True)


def result_line(s: dict) -> str:
    a, b = s["decks"]["A"], s["decks"]["B"]
    fp = s["first_player"]
    return (f"result: A {a['name']} {_pct(a['win'])} [{_ci(a['win'])}], B {b['name']} {_pct(b['win'])} "
            f"[{_ci(b['win'])}], draws {_pct(s['draw'])}, timeouts {_pct(s['timeouts'])}, "
            f"first player {_pts(fp['advantage'])}, errors {s['errors']['count']} "
            f"— {s['games']} games")


def render_round_robin(rr, ruleset: str, seconds: float, plots: Sequence[Path] = (), out=None) -> None:
    """The win-rate matrix as a table (row deck against column deck), then a `result:` line."""
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    games = sum(run.summary["games"] for run in rr.runs.values())
    played = sum(run.ran for run in rr.runs.values())
    console.print(f"{ruleset}: round robin of {len(rr.names)} decks, {len(rr.runs)} pairs, {games} games "
                  f"({played} played in {seconds:.1f} s), {rr.errors()} errors", highlight=False)
    t = Table(title="row deck's win rate against column deck (95% Wilson interval)",
              title_justify="left")
    t.add_column("deck")
    for name in rr.names:
        t.add_column(name, justify="right")
    t.add_column("overall", justify="right")
    for i, row in enumerate(rr.matrix()):
        cells = ["—" if r is None else f"{_pct(r)} [{_ci(r)}]" for r in row]
        overall = rr.overall(i)
        t.add_row(rr.names[i], *cells, f"{_pct(overall)} [{_ci(overall)}]")
    console.print(t)
    render_cards(console, rr.cards, "over all its pairs")
    if plots:
        console.print("plots: " + ", ".join(map(str, plots)), highlight=False, markup=False)
    best = max(range(len(rr.names)), key=lambda i: rr.overall(i)["rate"])
    print(f"result: {len(rr.names)} decks, best {rr.names[best]} {_pct(rr.overall(best))} overall, "
          f"errors {rr.errors()} — {games} games", file=out or sys.stdout, flush=True)


def _opt(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _span(x: float | None, lo: float | None, hi: float | None, sign: str = "") -> str:
    if x is None or lo is None or hi is None:
        return "—"
    return f"{100 * x:{sign}.0f} [{100 * lo:{sign}.0f},{100 * hi:{sign}.0f}]"


def render_cards(console: Console, rows: list[dict], scope: str = "") -> None:
    """Per deck, its cards by IWD (the win rate when drawn minus when not), then the cards
    drawn often but almost never played. (cards.csv has every interval.)"""
    if not rows:
        console.print("no per-card statistics: the ruleset has no hand zone (name one with "
                      "card_stats: {hand: ZONE})", highlight=False, markup=False)
        return
    decks: dict[str, list[dict]] = {}
    for r in rows:
        decks.setdefault(r["deck"], []).append(r)
    for deck, mine in decks.items():
        t = Table(title=f"{deck}: cards by IWD{' ' + scope if scope else ''} — win % when drawn "
                        "(GIH), in the opening hand (OH), not drawn (GNS); IWD = GIH − GNS in points; "
                        "[95% interval]", title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
        t.add_column("card", no_wrap=True)
        for col in ("drawn", "GIH WR", "OH", "GNS", "IWD pts", "played", "WR", "play%", "turn"):
            t.add_column(col, justify="right", no_wrap=True)
        for r in (r for r in mine if r["drawn"]):
            t.add_row(r["card"], f"{r['drawn']}/{r['games']}", _span(r["gih"], r["gih_low"], r["gih_high"]),
                      _opt(r["oh"]), _opt(r["gns"]), _span(r["iwd"], r["iwd_low"], r["iwd_high"], "+"),
                      str(r["played"]), _opt(r["played_wr"]), _opt(r["play_rate"]),
                      "—" if r["first_turn_mean"] is None else f"{r['first_turn_mean']:.1f}")
        console.print(t)
        unseen = [r["card"] for r in mine if not r["drawn"]]
        if unseen:
            console.print(f"never drawn: {', '.join(unseen)}", highlight=False, markup=False)
    console.print("played: games the card was played in (WR: won when played; play%: played ÷ drawn; "
                  "turn: mean turn first played)", highlight=False)
    idle = never_played(rows)
    if idle:
        console.print(f"cards the agents (almost) never play (drawn in ≥ {NEVER_PLAYED_DRAWN} games, "
                      f"played in ≤ {100 * NEVER_PLAYED_RATE:.0f}% of them): "
                      + "; ".join(f"{r['deck']}: {r['card']} (played {r['played']} of {r['drawn']})"
                                  for r in idle), highlight=False, markup=False)


def render_ablation(changed, ablation: dict, out=None) -> None:
    """The changed run's cards and the paired difference, closing with a `swap:` line."""
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    swaps = ", ".join(f"{new} for {old}" for old, new in changed.plan.swaps)
    console.print(f"with {swaps} in deck A (the same {ablation['games']} seeds):", highlight=False)
    render_cards(console, [r for r in changed.cards if r["deck"] == changed.plan.names[0]])
    print(swap_line(changed.plan.names[0], swaps, ablation), file=out or sys.stdout, flush=True)


def swap_line(deck: str, swaps: str, a: dict) -> str:
    return (f"swap: {deck} with {swaps}: win rate {_pts(a['difference'])} (95% CI {_pts(a['low'])} "
            f"to {_pts(a['high'])}), {100 * a['before']:.1f}% -> {100 * a['after']:.1f}%, "
            f"better in {a['better']} and worse in {a['worse']} of {a['games']} paired games, "
            f"exact McNemar p = {a['p_value']:.3g}")
