"""Report plots of a study (matplotlib, the ``analysis`` extra).

- :func:`seat_chart`: per cell, each seat's win rate minus a fair share with its 95% interval
  (points with whiskers, so an edge of about zero still shows), one panel per line-up; partners
  in team games are drawn once, as their team; game length and captures beside; the games of
  each row in its label.
- :func:`heatmap`: one value per cell over two grid axes, one panel per combination of the
  other axes and line-ups.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

SEAT_COLOURS = ["#d4a000", "#1f6fd1", "#d62828", "#2a9d3a"]
#: Teams (partners drawn once): their own colours and a square marker.
TEAM_COLOURS = ["#8e44ad", "#16a085", "#e67e22", "#34495e"]
LINEUP_COLOURS = ["#777777", "#2a9d3a", "#8e44ad", "#e67e22", "#16a085", "#c0392b"]
LINEUP_MARKERS = ["o", "D", "s", "^", "v", "P"]
#: Cells per chart at most (a sweep's other cells are in the CSV and the heat map).
MAX_CHART_CELLS = 60


class _Figures:
    """The two pyplot calls the charts use (``subplots``, ``close``) on a bare
    ``matplotlib.figure.Figure``: no pyplot, so drawing a chart leaves the process's matplotlib
    backend alone (selecting ``Agg`` would stop a notebook's inline plots) and works headless."""

    def __init__(self, figure: Any) -> None:
        self._figure = figure

    def subplots(self, nrows: int = 1, ncols: int = 1, *, figsize: Any = None,
                 constrained_layout: bool = False, **kwargs: Any) -> Tuple[Any, Any]:
        fig = self._figure(figsize=figsize, constrained_layout=constrained_layout)
        return fig, fig.subplots(nrows, ncols, **kwargs)

    @staticmethod
    def close(fig: Any) -> None:
        """Nothing to do: no pyplot keeps the figure."""


def _pyplot() -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError(
            'study plots need matplotlib: pip install "pachisi[analysis]" (or set '
            "outputs.plot = false)"
        ) from None
    return _Figures(Figure)


def _cells(rows: Sequence[Dict[str, Any]]) -> Dict[int, List[Dict[str, Any]]]:
    out: Dict[int, List[Dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(r["cell"], []).append(r)
    return out


def _sides(cell: List[Dict[str, Any]]) -> List[Tuple[str, Dict[str, Any], str, str]]:
    """(name, row, colour, marker) per side: a team's partners once, as their team."""
    sides = []
    teams = 0
    for r in cell:
        partners = r["partners"].split("+") if r["partners"] else []
        if partners and partners[0] != str(r["seat"]):
            continue
        if partners:
            sides.append((f"seats {' + '.join(partners)} (partners)", r,
                          TEAM_COLOURS[teams % len(TEAM_COLOURS)], "s"))
            teams += 1
        else:
            sides.append((f"seat {r['seat']}", r, SEAT_COLOURS[r["seat"] % 4], "o"))
    return sides


def seat_chart(rows: Sequence[Dict[str, Any]], path: Path, title: str) -> Path:
    """The seat-advantage chart (see the module docs) as a PNG at ``path``."""
    plt = _pyplot()
    cells = _cells(rows)
    lineups: List[str] = []
    for r in rows:
        if r["lineup"] not in lineups:
            lineups.append(r["lineup"])
    # One row per rule set (label), one panel per line-up.
    labels: List[str] = []
    for rows_of in cells.values():
        if rows_of[0]["label"] not in labels:
            labels.append(rows_of[0]["label"])
    truncated = len(labels) > MAX_CHART_CELLS
    labels = labels[:MAX_CHART_CELLS]
    at = {(v[0]["label"], v[0]["lineup"]): v for v in cells.values()}
    n_panels = len(lineups) + 2
    ratios = [3.0] * len(lineups) + [1.6, 1.3]
    fig_h = 0.62 * len(labels) + 2.4
    fig, axes = plt.subplots(1, n_panels, figsize=(5.2 * len(lineups) + 7.5, fig_h), sharey=True,
                             gridspec_kw={"width_ratios": ratios}, squeeze=False)
    axes = axes[0]
    y = list(range(len(labels)))
    handles: Dict[str, Any] = {}
    max_sides = max((len(_sides(v)) for v in cells.values()), default=1)
    for k, lineup in enumerate(lineups):
        ax = axes[k]
        ax.axvline(0, color="black", linewidth=0.8)
        for i, label in enumerate(labels):
            if i % 2 == 0:
                ax.axhspan(i - 0.5, i + 0.5, color="#f2f2f2", zorder=0)
            c: Optional[List[Dict[str, Any]]] = at.get((label, lineup))
            if c is None:
                continue
            sides = _sides(c)
            step = 0.7 / max(max_sides, 1)
            for j, (name, r, colour, marker) in enumerate(sides):
                yy = i - 0.35 + step * (j + 0.5)
                x = 100 * r["edge"]
                lo, hi = 100 * r["edge_low"], 100 * r["edge_high"]
                h = ax.errorbar([x], [yy], xerr=[[x - lo], [hi - x]], fmt=marker,
                                color=colour, markersize=5, elinewidth=1.4,
                                capsize=2.5, markeredgecolor="black", markeredgewidth=0.4)
                handles.setdefault(name, h)
        ax.set_title(f"{lineup}: win rate minus fair share", fontsize=11)
        ax.set_xlabel("percentage points (95% Wilson interval)")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
    ax0 = axes[0]
    ax0.set_yticks(y)
    ticks = []
    for label in labels:
        first = next(c for (lab, _), c in at.items() if lab == label)
        games = ", ".join(
            f"{at[(label, l)][0]['games']:,} {l}" for l in lineups if (label, l) in at
        )
        ticks.append(f"{label}\n{first[0]['seats']} seats, fair share "
                     f"{100 * first[0]['fair_share']:.0f}%; games: {games}")
    ax0.set_yticklabels(ticks, fontsize=8.5)
    ax0.set_ylim(len(labels) - 0.5, -0.5)

    ax = axes[len(lineups)]
    bar_h = 0.8 / len(lineups)
    for k, lineup in enumerate(lineups):
        ys, means, medians = [], [], []
        for i, label in enumerate(labels):
            c = at.get((label, lineup))
            if c is None:
                continue
            ys.append(i - 0.4 + bar_h * (k + 0.5))
            means.append(c[0]["mean_rolls"])
            medians.append(c[0]["median_rolls"])
        bars = ax.barh(ys, means, height=bar_h * 0.9,
                       color=LINEUP_COLOURS[k % len(LINEUP_COLOURS)])
        handles.setdefault(f"{lineup} (length, captures)", bars)
        dots = ax.scatter(medians, ys, color="black", marker="|", s=90, zorder=3)
        handles.setdefault("median length", dots)
    ax.set_title("Game length (bar: mean)", fontsize=11)
    ax.set_xlabel("rolls per game")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)

    ax = axes[len(lineups) + 1]
    for k, lineup in enumerate(lineups):
        ys, caps = [], []
        for i, label in enumerate(labels):
            c = at.get((label, lineup))
            if c is None:
                continue
            ys.append(i - 0.4 + bar_h * (k + 0.5))
            caps.append(c[0]["mean_captures"])
        ax.barh(ys, caps, height=bar_h * 0.9, color=LINEUP_COLOURS[k % len(LINEUP_COLOURS)])
    ax.set_title("Captures", fontsize=11)
    ax.set_xlabel("captures per game (mean)")
    ax.grid(axis="x", color="#dddddd", linewidth=0.6)
    ax.set_axisbelow(True)

    seats_first = [n for n in handles if n.startswith("seat")]
    order = sorted(seats_first, key=lambda n: (n.startswith("seats"), n)) + [
        n for n in handles if not n.startswith("seat")]
    ncol = len(order) if len(order) <= 10 else math.ceil(len(order) / 2)
    fig.legend([handles[n] for n in order], order, loc="upper center", ncol=ncol,
               fontsize=10, frameon=False, bbox_to_anchor=(0.5, 1 - 0.55 / fig_h))
    games = sum(v[0]["games"] for v in cells.values())
    fig.suptitle(f"{title}: {games:,} games" + (f" (first {MAX_CHART_CELLS} rule sets shown)"
                                                  if truncated else ""),
                 fontsize=13, y=1 - 0.12 / fig_h)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.9 / fig_h))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def heatmap(rows: Sequence[Dict[str, Any]], path: Path, x: str, y: str, value: str = "edge",
            seat: int = 0, lineup: Optional[str] = None, title: str = "") -> Path:
    """``value`` (of ``seat`` for per-seat values) over grid axes ``x`` and ``y``: one panel per
    line-up and combination of the other grid axes and variants."""
    plt = _pyplot()
    picked = [r for r in rows if r["seat"] == min(seat, r["seats"] - 1)
              and (lineup is None or r["lineup"] == lineup)]
    if not picked:
        raise ValueError(f"no rows for seat {seat}" + (f" and line-up {lineup}" if lineup else ""))
    skip = {"cell", "label", "seat", "player", "partners", "games", "wins", "win_rate", "ci_low",
            "ci_high", "fair_share", "edge", "edge_low", "edge_high", "mean_rolls",
            "median_rolls", "mean_captures", "mean_points", "unfinished", "rules", "preset", x, y}
    facet_keys = [k for k in picked[0] if k not in skip]
    facets: Dict[Tuple[Any, ...], List[Dict[str, Any]]] = {}
    for r in picked:
        facets.setdefault(tuple(r[k] for k in facet_keys), []).append(r)
    facets = {k: v for k, v in facets.items() if any(r[x] != "" and r[y] != "" for r in v)}
    n = len(facets)
    cols = min(n, 3)
    nrows = math.ceil(n / cols)
    xs = sorted({r[x] for rs in facets.values() for r in rs if r[x] != ""}, key=_sort_key)
    ys = sorted({r[y] for rs in facets.values() for r in rs if r[y] != ""}, key=_sort_key)
    fig, axes = plt.subplots(nrows, cols, figsize=(1.1 * len(xs) * cols + 3.2 * cols,
                                                   0.75 * len(ys) * nrows + 1.8 * nrows + 0.8),
                             squeeze=False, constrained_layout=True)
    scale = 100.0 if value in ("edge", "win_rate") else 1.0
    what = {
        "edge": f"seat {seat}'s win rate minus a fair share (pp)",
        "win_rate": f"seat {seat}'s win rate (%)",
        "mean_rolls": "mean rolls per game",
        "median_rolls": "median rolls per game",
        "mean_captures": "captures per game",
        "unfinished": "unfinished games",
    }[value]
    panels = list(facets.items())
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.axis("off")
            continue
        key, rs = panels[k]
        # Each panel its own colour scale: line-ups differ by far more than rules do.
        values = [scale * r[value] for r in rs if r[x] != "" and r[y] != ""]
        if value == "edge":
            lim = max(abs(v) for v in values) or 1.0
            vmin, vmax, cmap = -lim, lim, "RdBu_r"
        else:
            vmin, vmax, cmap = min(values), max(values), "viridis"
            if vmin == vmax:
                vmax = vmin + 1.0
        grid = [[math.nan] * len(xs) for _ in ys]
        for r in rs:
            if r[x] == "" or r[y] == "":
                continue
            grid[ys.index(r[y])][xs.index(r[x])] = scale * r[value]
        image = ax.imshow(grid, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto", origin="lower")
        for i in range(len(ys)):
            for j in range(len(xs)):
                v = grid[i][j]
                if not math.isnan(v):
                    text = f"{v:+.1f}" if value == "edge" else f"{v:.1f}"
                    if value == "edge" and abs(v) < 0.05:
                        text = "0.0"
                    ax.text(j, i, text, ha="center", va="center", fontsize=8,
                            color="black" if abs(v - (vmin + vmax) / 2) < 0.6 * (vmax - vmin) / 2
                            else "white")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([str(v) for v in xs])
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels([str(v) for v in ys])
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.set_title(", ".join(f"{k} {v}" for k, v in zip(facet_keys, key) if v != "")
                     + f"\n{rs[0]['games']:,} games per cell", fontsize=9)
        fig.colorbar(image, ax=ax, shrink=0.9)
    fig.suptitle(f"{title}: {what}" if title else what, fontsize=12)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _sort_key(v: Any) -> Tuple[int, Any]:
    if isinstance(v, bool):
        return (0, int(v))
    if isinstance(v, (int, float)):
        return (0, v)
    return (1, str(v))


def try_plot(fn: Any, *args: Any, **kwargs: Any) -> Optional[Path]:
    """A plot, or ``None`` with a note on stderr when matplotlib is missing."""
    try:
        return fn(*args, **kwargs)  # type: ignore[no-any-return]
    except ImportError as e:
        print(f"no plot: {e}", file=sys.stderr)
        return None
