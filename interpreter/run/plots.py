"""PNG plots of a simulation (optional extra: `pip install -e '.[plot]'`).

Figures are drawn on matplotlib's Agg canvas directly (no pyplot, so no display is ever
needed). Decks are labelled by their file names: card names may need glyphs that the
installed fonts lack.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from interpreter.diagnostics import TcgError

WIN_RATES, LENGTHS, MATRIX = "win_rates.png", "lengths.png", "matrix.png"
PLOT_EXTRA = "pip install -e '.[plot]' (or pip install matplotlib)"


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise TcgError(f"plots need matplotlib, which is not installed: {PLOT_EXTRA}") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig, path: Path) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a glyph missing from the font
        fig.savefig(path, format="png")
    return path


def win_rates(summary: dict, labels: dict[str, str], path: Path) -> Path:
    """Each rate as a bar with its 95% Wilson interval as an error bar."""
    rows = [(f"{key} {labels[key]} wins", d["win"]) for key, d in summary["decks"].items()]
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


def matrix(names: list[str], rates: list[list[float | None]], path: Path) -> Path:
    """A heatmap of row deck's win rate against column deck (blank where not played)."""
    n = len(names)
    fig = _figure(1.1 * n + 3, 0.9 * n + 2)
    ax = fig.add_subplot()
    grid = [[float("nan") if r is None else 100 * r for r in row] for row in rates]
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for i in range(n):
        for j in range(n):
            if rates[i][j] is not None:
                ax.text(j, i, f"{100 * rates[i][j]:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck")
    fig.colorbar(im, ax=ax, label="row deck's win %")
    return _save(fig, path)


def simulation(out: Path, summary: dict, decks: tuple[str, str]) -> list[Path]:
    """The plots of one `tcg simulate` run, written into `out`."""
    labels = dict(zip(("A", "B"), (Path(d).stem for d in decks), strict=True))
    return [win_rates(summary, labels, out / WIN_RATES), lengths(summary, out / LENGTHS)]


def round_robin(out: Path, rr) -> list[Path]:
    """The heatmap of a round robin, written into `out`."""
    rates = [[None if r is None else r["rate"] for r in row] for row in rr.matrix()]
    return [matrix([Path(p).stem for p in rr.paths], rates, out / MATRIX)]
