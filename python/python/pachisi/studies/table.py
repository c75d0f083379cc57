"""The tidy result table of a study: one row per cell x seat, from the stored units.

Every figure is computed from integer totals summed over the units (wins, games, rolls, a
histogram of game lengths for the median), so the table does not depend on how the cells were
split, in which order the units ran or on which backend.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union

from .._native import wilson_interval
from .spec import Cell, Spec
from .store import Store

#: The columns of the tidy table, in order (grid axes are inserted after ``preset``).
BASE_COLUMNS = [
    "cell", "label", "variant", "preset",
    # grid axes here
    "seats", "lineup", "seat", "player", "partners",
    "games", "wins", "win_rate", "ci_low", "ci_high", "fair_share", "edge", "edge_low",
    "edge_high", "mean_rolls", "median_rolls", "mean_captures", "mean_points", "unfinished",
    "rules",
]


def _median(hist: Dict[int, int], n: int) -> float:
    """The median of ``n`` values given as a histogram (the mean of the two middle values when
    ``n`` is even, as ``pachisi::sim::summarize`` does)."""
    if n == 0:
        return 0.0
    lo_rank, hi_rank = (n - 1) // 2, n // 2
    seen = 0
    lo = hi = None
    for value in sorted(hist):
        seen += hist[value]
        if lo is None and seen > lo_rank:
            lo = value
        if seen > hi_rank:
            hi = value
            break
    assert lo is not None and hi is not None
    return (lo + hi) / 2.0


def _partners(teams: Sequence[int], seat: int) -> str:
    mask = teams[seat]
    seats = [s for s in range(len(teams)) if mask & (1 << s)]
    return "+".join(str(s) for s in seats) if len(seats) > 1 else ""


def cell_totals(store: Store, cell: Cell) -> Dict[str, Any]:
    """The summed units of one cell; checks that they cover its games exactly once."""
    wins = [0] * cell.seats
    hist: Dict[int, int] = {}
    games = unfinished = rolls = captures = points = 0
    seconds = 0.0
    covered = 0
    for u in store.units(cell.id):
        if u["start"] != covered:
            raise RuntimeError(
                f"the store {store.path} has a gap or overlap in cell {cell.label!r} at game "
                f"{covered} (unit {u['start']}..{u['stop']})"
            )
        covered = u["stop"]
        games += u["games"]
        wins = [a + b for a, b in zip(wins, u["wins"])]
        unfinished += u["unfinished"]
        rolls += u["rolls_sum"]
        captures += u["captures_sum"]
        points += u["points_sum"]
        seconds += u["seconds"]
        for r, k in u["rolls_hist"]:
            hist[r] = hist.get(r, 0) + k
    return {
        "games": games,
        "wins": wins,
        "unfinished": unfinished,
        "rolls_sum": rolls,
        "captures_sum": captures,
        "points_sum": points,
        "hist": hist,
        "seconds": seconds,
        "complete": covered == cell.games,
    }


def build_rows(spec: Spec, store: Store) -> List[Dict[str, Any]]:
    rows: List[Dict[str, Any]] = []
    for cell in spec.cells:
        t = cell_totals(store, cell)
        n = t["games"]
        rates = [w / n if n else 0.0 for w in t["wins"]]
        fair = sum(rates) / len(rates) if rates else 0.0
        for seat in range(cell.seats):
            lo, hi = wilson_interval(t["wins"][seat], n)
            row: Dict[str, Any] = {
                "cell": cell.index,
                "label": cell.label,
                "variant": cell.variant,
                "preset": cell.preset,
            }
            for axis in spec.axes:
                row[axis] = cell.grid.get(axis, "")
            row.update(
                {
                    "seats": cell.seats,
                    "lineup": cell.lineup,
                    "seat": seat,
                    "player": cell.players[seat],
                    "partners": _partners(cell.teams, seat),
                    "games": n,
                    "wins": t["wins"][seat],
                    "win_rate": rates[seat],
                    "ci_low": lo,
                    "ci_high": hi,
                    "fair_share": fair,
                    "edge": rates[seat] - fair,
                    "edge_low": lo - fair,
                    "edge_high": hi - fair,
                    "mean_rolls": t["rolls_sum"] / n if n else 0.0,
                    "median_rolls": _median(t["hist"], n),
                    "mean_captures": t["captures_sum"] / n if n else 0.0,
                    "mean_points": t["points_sum"] / n if n else 0.0,
                    "unfinished": t["unfinished"],
                    "rules": cell.rules.to_json(),
                }
            )
            rows.append(row)
    return rows


def _pct(x: float, digits: int = 1) -> str:
    """A percentage without a negative zero ("-0.0")."""
    text = f"{100 * x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _signed_pp(x: float, digits: int = 1) -> str:
    text = f"{100 * x:+.{digits}f}"
    return text.replace("-", "+") if float(text) == 0 else text


class Table:
    """A tidy table: ``columns`` and ``rows`` (one dict per cell x seat). ``to_pandas()`` needs
    pandas (``pip install "pachisi[study]"``); ``to_csv()``, ``to_dicts()`` and ``str()`` do
    not."""

    def __init__(self, columns: Sequence[str], rows: Sequence[Dict[str, Any]],
                 title: str = "", max_rows: int = 200) -> None:
        self.columns: List[str] = list(columns)
        self.rows: List[Dict[str, Any]] = [dict(r) for r in rows]
        self.title = title
        self.max_rows = max_rows

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self.rows)

    def __getitem__(self, i: int) -> Dict[str, Any]:
        return self.rows[i]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Table) and self.columns == other.columns
                and self.rows == other.rows)

    def column(self, name: str) -> List[Any]:
        return [r[name] for r in self.rows]

    def to_dicts(self) -> List[Dict[str, Any]]:
        return [dict(r) for r in self.rows]

    def to_csv(self, path: Optional[Union[str, Path]] = None) -> str:
        """The table as CSV text (full precision), also written to ``path`` if given."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=self.columns, lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in r.items()})
        text = buf.getvalue()
        if path is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (the ``study`` extra)."""
        try:
            import pandas as pd  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError:
            raise ImportError(
                'Table.to_pandas() needs pandas: pip install "pachisi[study]" (or pandas)'
            ) from None
        return pd.DataFrame(self.rows, columns=self.columns)

    def __repr__(self) -> str:
        return f"<Table {len(self.rows)} rows x {len(self.columns)} columns>"

    def __str__(self) -> str:
        return format_table(self.rows, self.max_rows)


def format_table(rows: Sequence[Dict[str, Any]], max_rows: int = 200) -> str:
    """The table for a terminal, one block per line-up, one line per cell: each seat's win rate
    with the half-width of its 95% interval (labelled columns; partners named once), the first
    seat's edge over a fair share, game length and captures. At most ``max_rows`` cells."""
    by_cell: Dict[int, List[Dict[str, Any]]] = {}
    for r in rows:
        by_cell.setdefault(r["cell"], []).append(r)
    lineups: List[str] = []
    for r in rows:
        if r["lineup"] not in lineups:
            lineups.append(r["lineup"])
    width = 30
    seat_w = 10
    out: List[str] = []
    shown = 0
    for lineup in lineups:
        cells = [c for c in by_cell.values() if c[0]["lineup"] == lineup]
        players = sorted({r["player"] for c in cells for r in c})
        max_seats = max((r["seats"] for c in cells for r in c), default=0)
        out.append(f"Line-up {lineup!r} (players: {', '.join(players)})")
        head1 = (f"{'':{width}} {'':>8} {'win % by seat, ± 95% interval':^{seat_w * max_seats}}"
                 f" {'seat 0':^7} {'rolls per game':^13} {'capt.':>6}")
        head2 = (f"{'configuration':{width}} {'games':>8} "
                 + "".join(f"{'seat ' + str(s):^{seat_w}}" for s in range(max_seats))
                 + f" {'edge pp':>7} {'mean':>6} {'median':>6} {'/game':>6}")
        out += [head1, head2, "-" * len(head2)]
        for c in cells:
            if shown >= max_rows:
                break
            shown += 1
            first = c[0]
            seats = []
            for r in c:
                partners = r["partners"].split("+") if r["partners"] else []
                if partners and partners[0] != str(r["seat"]):
                    seats.append(f"{'=seat ' + partners[0]:^{seat_w}}")
                else:
                    half = (r["ci_high"] - r["ci_low"]) / 2
                    seats.append(f"{_pct(r['win_rate']):>5} ±{_pct(half):<3}")
            seats += [f"{'':{seat_w}}"] * (max_seats - len(c))
            label_lines = textwrap.wrap(first["label"], width) or [""]
            out.append(
                f"{label_lines[0]:{width}} {first['games']:>8,} " + "".join(seats)
                + f" {_signed_pp(first['edge']):>7} {first['mean_rolls']:>6.1f} "
                f"{first['median_rolls']:>6.0f} {first['mean_captures']:>6.2f}"
            )
            for extra in label_lines[1:]:
                out.append(f"  {extra}")
            notes = []
            if first["unfinished"]:
                notes.append(f"{first['unfinished']} games unfinished (roll limit): no winner")
            for n in notes:
                out.append(f"{'':{width}} {'':>8} ({n})")
        out.append("")
    total_cells = len(by_cell)
    if shown < total_cells:
        out.append(f"... {total_cells - shown} more cells in the CSV")
    out.append(
        "win %: games won by each seat, ± half its 95% Wilson interval; =seat 0: the partner of "
        "seat 0\n(partners are one team and win together); edge pp: seat 0's win rate minus a fair "
        "share, in percentage points"
    )
    return "\n".join(out)


def table_json(spec: Spec, table: Table, seconds: float) -> Dict[str, Any]:
    """The JSON report: the spec identity and the tidy rows."""
    import pachisi

    return {
        "pachisi_version": pachisi.__version__,
        "study": spec.name,
        "seed": spec.seed,
        "spec_hash": spec.hash(),
        "spec": json.loads(json.dumps(spec.raw, default=str)),
        "seconds": seconds,
        "columns": table.columns,
        "rows": table.rows,
    }
