"""How `tcg simulate` shows itself: a progress bar on stderr, tables and a result line on stdout."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich import box
from rich.console import Console
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

from interpreter.agents.budget import in_words
from interpreter.run.cards import NEVER_PLAYED_DRAWN, NEVER_PLAYED_RATE, never_played
from interpreter.run.stats import text_histogram
from interpreter.words.ui import reason as ui_reason
from interpreter.words.ui import tr


class _Rate(ProgressColumn):
    """Matches per second since the bar started (matches loaded by --resume do not count)."""

    def __init__(self) -> None:
        super().__init__()
        self.start = time.perf_counter()
        self.base = 0

    def render(self, task) -> Text:
        elapsed = time.perf_counter() - self.start
        done = task.completed - self.base
        unit = tr("ui.per_second")
        return Text(f"{done / elapsed:6.1f} {unit}" if elapsed > 0 and done else f"  — {unit}",
                    style="progress.data.speed")


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Callable[[int, int], Callable[[int], None]] | None]:
    """Yields simulate()'s `progress` hook, or None when there is no terminal to draw on."""
    if not enabled:
        yield None
        return
    rate = _Rate()
    bar = Progress(TextColumn(tr("ui.simulating")), BarColumn(), MofNCompleteColumn(), rate,
                   TimeElapsedColumn(), TextColumn(tr("ui.eta")), TimeRemainingColumn(),
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


def _signed(x: float) -> str:
    return f"{100 * x:+.1f}"


def _pts(x: float) -> str:
    """Points of a readable line (the contract lines write theirs as `_signed(x) pts`)."""
    return tr("ui.pts", n=_signed(x))


def render(run, seconds: float, plots: Sequence[Path] = (), out=None, skill: dict | None = None
           ) -> None:
    """The report: tables on stdout, closing with one plain `result:` line; `skill`: what
    --check-skill found (run/skill.py), shown just before it."""
    s, plan = run.summary, run.plan
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    n = s["completed"]
    head = tr("ui.sim_head", ruleset=plan.ruleset, games=s["games"], n=n, errors=s["errors"]["count"],
              first=plan.seed, last=plan.seed + plan.games - 1, a=plan.agents[0], b=plan.agents[1],
              ran=run.ran, seconds=f"{seconds:.1f}")
    if run.ran < s["games"]:
        head += tr("ui.sim_resumed", n=s["games"] - run.ran)
    console.print(head, highlight=False)
    console.print(agents_line(s), highlight=False, markup=False)

    t = Table(title=tr("ui.outcomes"), title_justify="left")
    t.add_column("", justify="left")
    for col in ("games", "rate", "ci", "first", "second"):
        t.add_column(tr(f"ui.col.{col}"), justify="right")
    for key, d in s["decks"].items():
        t.add_row(tr("ui.deck_wins", key=key, name=d["name"]), str(d["win"]["count"]), _pct(d["win"]),
                  _ci(d["win"]),
                  tr("ui.of_n", pct=_pct(d["win_when_first"]), n=d["win_when_first"]["n"]),
                  tr("ui.of_n", pct=_pct(d["win_when_second"]), n=d["win_when_second"]["n"]))
    for label, key in (("ui.draws", "draw"), ("ui.turn_limit", "turn_limit"),
                       ("ui.loop_limit", "loop_limit")):
        t.add_row(tr(label), str(s[key]["count"]), _pct(s[key]), _ci(s[key]), "", "")
    console.print(t)

    fp = s["first_player"]
    lo, hi = fp["advantage_ci95"]
    console.print(tr("ui.first_player", pct=_pct(fp), n=fp["n"], ci=_ci(fp), adv=_pts(fp["advantage"]),
                     lo=_pts(lo), hi=_pts(hi)), highlight=False)
    console.print(tr("ui.drawishness", draw=_pct(s["draw"]), timeouts=_pct(s["timeouts"]),
                     undecided=_pct(s["undecided"])), highlight=False)

    for what in ("turns", "decisions"):
        sp = s[what]
        if not sp["n"]:
            continue
        console.print(tr("ui.length", unit=tr(f"ui.unit.{what}"), mean=f"{sp['mean']:.1f}",
                         sd=f"{sp['sd']:.1f}", min=sp["min"], median=f"{sp['median']:g}", max=sp["max"]),
                      highlight=False)
        for line in text_histogram(sp["histogram"]):
            console.print("  " + line, highlight=False)
    asked, unasked = s["decisions"], s.get("unasked", {})
    if asked["n"] and unasked.get("n"):
        console.print(tr("ui.asked", asked=f"{asked['mean']:.1f}", mean=f"{unasked['mean']:.1f}",
                         median=f"{unasked['median']:g}", max=unasked["max"]), highlight=False)
    lc = s["lead_changes"]
    if lc.get("n"):
        g = lc["games_with_a_change"]
        console.print(tr("ui.lead_changes", mean=f"{lc['mean']:.2f}", sd=f"{lc['sd']:.2f}", max=lc["max"],
                         pct=_pct(g), ci=_ci(g)), highlight=False)

    if s["reasons"]:
        r = Table(title=tr("ui.how_ended"), title_justify="left")
        r.add_column(tr("ui.col.reason"))
        r.add_column(tr("ui.col.games"), justify="right")
        r.add_column(tr("ui.col.share"), justify="right")
        for reason, count in s["reasons"].items():
            r.add_row(ui_reason(reason), str(count), f"{100 * count / n:.1f}%")
        console.print(r)

    render_cards(console, run.cards)
    errs = s["errors"]
    if errs["count"]:
        seeds = ", ".join(map(str, errs["seeds"][:20])) + (", ..." if errs["count"] > 20 else "")
        console.print(Text(tr("ui.errors", n=errs["count"]), style="bold red")
                      + Text(tr("ui.error_seeds", seeds=seeds)))
        for message, count in list(errs["messages"].items())[:5]:
            console.print(f"  {count} × {message}", highlight=False, markup=False)
        first = next(iter(s["reproduce"].values()))
        console.print(tr("ui.reproduce", command=first), highlight=False, markup=False)
    if plots:
        console.print(tr("ui.plots", paths=", ".join(map(str, plots))), highlight=False, markup=False)
    if skill is not None:
        render_skill(console, skill)
    print(result_line(s), file=out or sys.stdout, flush=True)


def render_skill(console: Console, doc: dict) -> None:
    """--check-skill: each conclusion beside the stronger play's figure, then the verdict."""
    from interpreter.run.skill import verdict

    who = tr("comma").join(tr("ui.skill_by", key=key, who=in_words(a)) for key, a in doc["agents"].items())
    t = Table(title=Text(tr("ui.skill_title", first=doc["seeds"][0], last=doc["seeds"][1],
                            factor=doc["factor"], who=who, seconds=f"{doc['seconds']:.1f}")),
              title_justify="left")
    for col in ("conclusion", "run", "stronger", "holds"):
        t.add_column(tr(f"ui.skill_col.{col}"))
    for row in doc["conclusions"]:
        holds = tr({True: "ui.skill_yes", False: "ui.skill_no", None: "ui.not_measured"}[row["holds"]])
        t.add_row(*(Text(x) for x in (row["conclusion"], row["run"], row["stronger"], holds)))
    console.print(t)
    if doc["errors"]:
        console.print(tr("ui.skill_errors", n=doc["errors"]), highlight=False, markup=False)
    console.print(verdict(doc), highlight=False, markup=False)


def agents_line(s: dict) -> str:
    """Who played each deck, with their budgets: every figure below is these players'."""
    return tr("ui.agents", who=tr("comma").join(
        tr("ui.played_by", key=key, name=s["decks"][key]["name"], who=in_words(a))
        for key, a in s["agents"].items()))


def result_line(s: dict) -> str:
    a, b = s["decks"]["A"], s["decks"]["B"]
    fp = s["first_player"]
    return (f"result: A {a['name']} {_pct(a['win'])} [{_ci(a['win'])}], B {b['name']} {_pct(b['win'])} "
            f"[{_ci(b['win'])}], draws {_pct(s['draw'])}, timeouts {_pct(s['timeouts'])}, "
            f"first player {_signed(fp['advantage'])} pts, errors {s['errors']['count']} "
            f"— {s['games']} games")


def render_round_robin(rr, ruleset: str, seconds: float, plots: Sequence[Path] = (), out=None) -> None:
    """The win-rate matrix as a table (row deck against column deck), then a `result:` line."""
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    games = sum(run.summary["games"] for run in rr.runs.values())
    played = sum(run.ran for run in rr.runs.values())
    console.print(tr("ui.rr_head", ruleset=ruleset, decks=len(rr.names), pairs=len(rr.runs), games=games,
                     played=played, seconds=f"{seconds:.1f}", errors=rr.errors()), highlight=False)
    console.print(round_robin_agents(rr), highlight=False, markup=False)
    t = Table(title=tr("ui.rr_title"), title_justify="left")
    t.add_column(tr("ui.col.deck"))
    for name in rr.names:
        t.add_column(name, justify="right")
    t.add_column(tr("ui.col.overall"), justify="right")
    for i, row in enumerate(rr.matrix()):
        cells = ["—" if r is None else f"{_pct(r)} [{_ci(r)}]" for r in row]
        overall = rr.overall(i)
        t.add_row(rr.names[i], *cells, f"{_pct(overall)} [{_ci(overall)}]")
    console.print(t)
    render_cards(console, rr.cards, tr("ui.over_pairs"))
    if plots:
        console.print(tr("ui.plots", paths=", ".join(map(str, plots))), highlight=False, markup=False)
    best = max(range(len(rr.names)), key=lambda i: rr.overall(i)["rate"])
    print(f"result: {len(rr.names)} decks, best {rr.names[best]} {_pct(rr.overall(best))} overall, "
          f"errors {rr.errors()} — {games} games", file=out or sys.stdout, flush=True)


def round_robin_agents(rr) -> str:
    """Who played: one agent for every deck, or the pair's first deck's and the other's."""
    a, b = next(iter(rr.runs.values())).summary["agents"].values()
    if a["described"] == b["described"]:
        return tr("ui.rr_agents_same", who=in_words(a))
    return tr("ui.rr_agents", a=in_words(a), b=in_words(b))


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
        console.print(tr("ui.no_card_stats"), highlight=False, markup=False)
        return
    decks: dict[str, list[dict]] = {}
    for r in rows:
        decks.setdefault(r["deck"], []).append(r)
    for deck, mine in decks.items():
        t = Table(title=tr("ui.cards_title", deck=deck, scope=" " + scope if scope else ""),
                  title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
        t.add_column(tr("ui.col.card"), no_wrap=True)
        for col in (tr("ui.col.drawn"), "GIH WR", "OH", "GNS", "IWD pts", tr("ui.col.played"), "WR",
                    "play%", tr("ui.col.turn")):  # (the abbreviations are the statistics' names)
            t.add_column(col, justify="right", no_wrap=True)
        for r in (r for r in mine if r["drawn"]):
            t.add_row(r["card"], f"{r['drawn']}/{r['games']}", _span(r["gih"], r["gih_low"], r["gih_high"]),
                      _opt(r["oh"]), _opt(r["gns"]), _span(r["iwd"], r["iwd_low"], r["iwd_high"], "+"),
                      str(r["played"]), _opt(r["played_wr"]), _opt(r["play_rate"]),
                      "—" if r["first_turn_mean"] is None else f"{r['first_turn_mean']:.1f}")
        console.print(t)
        unseen = [r["card"] for r in mine if not r["drawn"]]
        if unseen:
            console.print(tr("ui.never_drawn", cards=", ".join(unseen)), highlight=False, markup=False)
    console.print(tr("ui.played_note"), highlight=False)
    idle = never_played(rows)
    if idle:
        cards = "; ".join(tr("ui.idle_card", deck=r["deck"], card=r["card"], played=r["played"],
                             drawn=r["drawn"]) for r in idle)
        console.print(tr("ui.idle", drawn=NEVER_PLAYED_DRAWN, rate=f"{100 * NEVER_PLAYED_RATE:.0f}",
                         cards=cards), highlight=False, markup=False)


def render_ablation(changed, ablation: dict, out=None) -> None:
    """The changed run's cards and the paired difference, closing with a `swap:` line."""
    console = Console(file=out or sys.stdout, soft_wrap=True, width=max(100, Console().width))
    swaps = ", ".join(f"{new} for {old}" for old, new in changed.plan.swaps)  # (swap: a contract line)
    console.print(tr("ui.with_swaps", swaps=", ".join(tr("ui.swap_for", new=new, old=old)
                                                      for old, new in changed.plan.swaps),
                     games=ablation["games"]), highlight=False)
    render_cards(console, [r for r in changed.cards if r["deck"] == changed.plan.names[0]])
    print(swap_line(changed.plan.names[0], swaps, ablation), file=out or sys.stdout, flush=True)


def swap_line(deck: str, swaps: str, a: dict) -> str:
    return (f"swap: {deck} with {swaps}: win rate {_signed(a['difference'])} pts (95% CI "
            f"{_signed(a['low'])} pts to {_signed(a['high'])} pts), "
            f"{100 * a['before']:.1f}% -> {100 * a['after']:.1f}%, "
            f"better in {a['better']} and worse in {a['worse']} of {a['games']} paired games, "
            f"exact McNemar p = {a['p_value']:.3g}")
