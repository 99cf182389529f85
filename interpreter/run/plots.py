"""PNG plots of a simulation (optional extra: `pip install -e '.[plot]'`).

Figures are drawn on matplotlib's Agg canvas directly (no pyplot, so no display is ever
needed). Deck and card names are often Japanese: the text is set in an installed CJK font
(Noto Sans CJK, or another that covers kana and kanji) where there is one; without one the
plots are still drawn and `font_note()` says why the names may show as boxes. matplotlib
keeps its list of fonts in a cache built on its first import, so a font installed after that
is not in it: when the cache holds no CJK font, the system's font files it does not know are
added to it (for this process; the cache file is left alone).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path

from interpreter.diagnostics import TcgError
from interpreter.run import outputs

WIN_RATES, LENGTHS, MATRIX, CARDS = "win_rates.png", "lengths.png", "matrix.png", "cards.png"
PLOT_EXTRA = "pip install -e '.[plot]' (or pip install matplotlib)"
# CJK fonts worth trying, best first (a font whose name contains "CJK" is tried after these)
CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic",
             "VL Gothic", "Source Han Sans JP")


@cache
def cjk_font() -> str | None:
    """The installed font the plots set names in, or None when no CJK font is installed."""
    from matplotlib import font_manager

    fonts = font_manager.fontManager
    found = _cjk_among({f.name for f in fonts.ttflist})
    if found is None:  # the cache may predate the font: look at the files it does not know
        known = {f.fname for f in fonts.ttflist}
        for path in sorted(set(font_manager.findSystemFonts()) - known):
            try:
                fonts.addfont(path)
            except Exception:  # noqa: BLE001 - a file FreeType cannot read, as matplotlib skips it
                continue
        found = _cjk_among({f.name for f in fonts.ttflist})
    return found


def _cjk_among(names: set[str]) -> str | None:
    return next((f for f in CJK_FONTS if f in names),
                next((f for f in sorted(names) if "CJK" in f and "Mono" not in f), None))


def font_note() -> str | None:
    """Why Japanese names may be unreadable in the plots (None when they are readable)."""
    if cjk_font() is not None:
        return None
    return ("no CJK font is installed (none among the system's fonts), so Japanese names in the "
            "plots may show as boxes; install one (e.g. apt-get install fonts-noto-cjk)")


def _with_fonts(draw: Callable[..., Path]) -> Callable[..., Path]:
    """Draw (and save) in the CJK font, falling back to matplotlib's default per glyph."""
    @wraps(draw)
    def drawn(*args, **kwargs) -> Path:
        try:
            import matplotlib
        except ImportError:
            raise TcgError(f"plots need matplotlib, which is not installed: {PLOT_EXTRA}") from None
        font = cjk_font()
        families = [font, "DejaVu Sans"] if font else ["DejaVu Sans"]
        with matplotlib.rc_context({"font.family": families}):
            return draw(*args, **kwargs)
    return drawn


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise TcgError(f"plots need matplotlib, which is not installed: {PLOT_EXTRA}") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig, path: Path) -> Path:
    """Written whole beside `path`, then renamed onto it (whatever was there: a pipe would
    block savefig), as outputs.replace_whole does."""
    tmp = outputs.temporary_beside(path)
    try:
        with warnings.catch_warnings(), outputs.writing(path):
            warnings.simplefilter("ignore", UserWarning)  # a glyph missing from the font
            fig.savefig(tmp, format="png")
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


@_with_fonts
def win_rates(summary: dict, path: Path) -> Path:
    """Each rate as a bar with its 95% Wilson interval as an error bar."""
    rows = [(f"{key} {d['name']} wins", d["win"]) for key, d in summary["decks"].items()]
    rows += [("draws", summary["draw"]), ("timeouts", summary["timeouts"]),
             ("first player wins (decisive games)", summary["first_player"])]
    fig = _figure(7, 0.5 * len(rows) + 1.2)
    ax = fig.add_subplot()
    ys = range(len(rows))
    rates = [100 * r["rate"] for _, r in rows]
    err = [[max(0.0, 100 * (r["rate"] - r["ci95"][0])) for _, r in rows],
           [max(0.0, 100 * (r["ci95"][1] - r["rate"])) for _, r in rows]]
    ax.barh(ys, rates, xerr=err, capsize=4, color="#4c72b0")
    ax.axvline(50, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yticks(list(ys), [name for name, _ in rows])
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games (bars: 95% Wilson interval)")
    ax.set_title(f"{summary['games']} games, {summary['errors']['count']} errors")
    return _save(fig, path)


@_with_fonts
def lengths(summary: dict, path: Path) -> Path:
    """Histograms of game length in turns and in decisions (the report's bins)."""
    panels = [(what, summary[what]) for what in ("turns", "decisions", "lead_changes")
              if summary[what].get("n")]
    fig = _figure(4 * max(1, len(panels)), 3.2)
    for i, (what, sp) in enumerate(panels, start=1):
        ax = fig.add_subplot(1, len(panels), i)
        hist = sp["histogram"]
        ax.bar([h["from"] for h in hist], [h["count"] for h in hist],
               width=[h["to"] - h["from"] + 1 for h in hist], align="edge", color="#55a868",
               edgecolor="white")
        ax.set_xlabel(what.replace("_", " ") + " per game")
        ax.set_ylabel("games")
        ax.set_title(f"mean {sp['mean']:.1f}, sd {sp['sd']:.1f}")
    return _save(fig, path)


@_with_fonts
def matrix(names: list[str], rates: list[list[float | None]], path: Path) -> Path:
    """A heatmap of row deck's win rate against column deck (blank where not played)."""
    n = len(names)
    fig = _figure(1.1 * n + 3, 0.9 * n + 2)
    ax = fig.add_subplot()
    grid = [[float("nan") if r is None else 100 * r for r in row] for row in rates]
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for i in range(n):
        for j in range(n):
            rate = rates[i][j]
            if rate is not None:
                ax.text(j, i, f"{100 * rate:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck")
    fig.colorbar(im, ax=ax, label="row deck's win %")
    return _save(fig, path)


@_with_fonts
def cards(rows: list[dict], deck_rates: dict[str, float], path: Path) -> Path:
    """Per deck, each drawn card's win rate when drawn (GIH WR, its 95% Wilson interval as an
    error bar) against its win rate when not drawn, and the deck's win rate as a line."""
    decks: dict[str, list[dict]] = {r["deck"]: [] for r in rows}
    for r in rows:
        if r["gih"] is not None:
            decks[r["deck"]].append(r)
    panels = [(deck, sorted(mine, key=lambda r: -r["gih"])) for deck, mine in decks.items()]
    heights = [max(2, len(mine)) for _, mine in panels]
    fig = _figure(8, 0.28 * sum(heights) + 1.3 * len(panels) + 0.5)
    grid = fig.add_gridspec(len(panels), 1, height_ratios=heights)
    for i, (deck, mine) in enumerate(panels):
        ax = fig.add_subplot(grid[i])
        ys = range(len(mine))
        gih = [100 * r["gih"] for r in mine]
        err = [[max(0.0, 100 * (r["gih"] - r["gih_low"])) for r in mine],
               [max(0.0, 100 * (r["gih_high"] - r["gih"])) for r in mine]]
        ax.errorbar(gih, ys, xerr=err, fmt="o", color="#4c72b0", capsize=3, label="won when drawn")
        gns = [(100 * r["gns"], y) for r, y in zip(mine, ys, strict=True) if r["gns"] is not None]
        if gns:
            ax.plot([x for x, _ in gns], [y for _, y in gns], "x", color="#c44e52",
                    label="won when not drawn")
        if deck in deck_rates:
            ax.axvline(100 * deck_rates[deck], color="grey", linewidth=0.8, linestyle=":",
                       label="the deck's win rate")
        ax.set_yticks(list(ys), [f"{r['card']} ({r['drawn']})" for r in mine])
        ax.invert_yaxis()
        ax.set_xlim(*_span(mine, deck_rates.get(deck)))
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_title(f"{deck}: win % when the card was drawn (games drawn)", loc="left")
    if fig.axes:
        fig.axes[-1].set_xlabel("% of games won (bars: 95% Wilson interval)")
        fig.legend(*fig.axes[0].get_legend_handles_labels(), loc="outside upper center", ncols=3,
                   fontsize="small", frameon=False)
    return _save(fig, path)


def _span(rows: list[dict], deck_rate: float | None) -> tuple[float, float]:
    """The x range (in %) that holds every interval and marker, with a margin, within 0..100."""
    xs = [x for r in rows for x in (r["gih_low"], r["gih_high"], r["gns"]) if x is not None]
    xs += [] if deck_rate is None else [deck_rate]
    lo, hi = 100 * min(xs, default=0.0), 100 * max(xs, default=1.0)
    margin = max(2.0, (hi - lo) * 0.08)
    return max(0.0, lo - margin), min(100.0, hi + margin)


def simulation(out: Path, summary: dict, rows: list[dict]) -> list[Path]:
    """The plots of one `tcg simulate` run, written into `out`."""
    rates = {d["name"]: d["win"]["rate"] for d in summary["decks"].values()}
    return [win_rates(summary, out / WIN_RATES), lengths(summary, out / LENGTHS),
            cards(rows, rates, out / CARDS)]


def round_robin(out: Path, rr) -> list[Path]:
    """The heatmap of a round robin and its overall per-card plot, written into `out`."""
    rates = [[None if r is None else r["rate"] for r in row] for row in rr.matrix()]
    overall = {name: rr.overall(i)["rate"] for i, name in enumerate(rr.labels())}
    return [matrix(rr.labels(), rates, out / MATRIX), cards(rr.cards, overall, out / CARDS)]
