"""Variant studies: declarative, resumable sweeps over rule options, seat counts and line-ups.

``pachisi.study("spec.toml")`` (or a dict) runs a study and returns a :class:`StudyResult`;
``python -m pachisi study run spec.toml`` does the same from the shell. See ``docs/STUDIES.md``.

- The spec (:mod:`.spec`) names variants, a grid of rule options, seat counts, line-ups of
  players, games per cell, the seed and the outputs; errors name the bad key.
- Each cell is cut into work units (ranges of game indices); game ``i`` of a cell is seeded
  from the cell's seed and ``i`` only, so the result does not depend on the backend, the unit
  size or the number of workers.
- Every finished unit is committed to a SQLite store (:mod:`.store`) at once; running the same
  spec again resumes; a store of another spec is refused (``fresh=True`` starts again).
- Backends (:mod:`.backends`): ``local`` (the Rust threads, the default) and ``ray``
  (``pip install "pachisi[ray]"``).
- Outputs: a tidy :class:`Table` (one row per cell x seat; ``to_csv``, ``to_pandas``), the
  JSON report, the seat-advantage chart and a heat map over two grid axes.

Nothing here imports pandas, matplotlib, tqdm or Ray until it is used.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

from . import backends
from .backends import Progress, UnitHook
from .spec import Cell, Lineup, Spec, SpecError, SpecLike, describe, load_spec
from .store import Store, StoreBusyError, StoreMismatchError
from .table import BASE_COLUMNS, Table, build_rows, table_json

__all__ = [
    "Cell",
    "Lineup",
    "Spec",
    "SpecError",
    "Store",
    "StoreBusyError",
    "StoreMismatchError",
    "StudyResult",
    "Table",
    "describe",
    "load_spec",
    "result_table",
    "status",
    "study",
]


@dataclass
class StudyResult:
    """A finished study: the tidy table, the spec, the files written, timing."""

    spec: Spec
    table: Table
    paths: Dict[str, Path] = field(default_factory=dict)
    seconds: float = 0.0
    games_played: int = 0
    games_resumed: int = 0

    def to_pandas(self) -> Any:
        return self.table.to_pandas()

    def __str__(self) -> str:
        return str(self.table)

    def __repr__(self) -> str:
        return (f"<StudyResult {self.spec.name!r}: {len(self.spec.cells)} cells, "
                f"{self.spec.total_games:,} games>")


def result_table(spec: Spec, store: Store) -> Table:
    """The tidy table of what ``store`` holds for ``spec`` (complete cells or not)."""
    columns = list(BASE_COLUMNS)
    at = columns.index("preset") + 1
    columns[at:at] = [a for a in spec.axes if a not in columns]
    return Table(columns, build_rows(spec, store), title=spec.name,
                 max_rows=int(spec.outputs.get("table", 200)))


def _progress(progress: Union[bool, str], total: int, label: str) -> Progress:
    if progress == "plain":
        return Progress(total, None, label, True, use_tqdm=False)
    return Progress(total, None, label, bool(progress))


def study(
    spec: SpecLike,
    *,
    backend: Optional[str] = None,
    out: Optional[Union[str, Path]] = None,
    store: Optional[Union[str, Path]] = None,
    fresh: Union[bool, str] = False,
    threads: Optional[int] = None,
    chunk: Optional[int] = None,
    address: Optional[str] = None,
    num_cpus: Optional[int] = None,
    progress: Union[bool, str] = False,
    plots: bool = True,
    on_unit: Optional[UnitHook] = None,
) -> StudyResult:
    """Runs (or resumes) a study and writes its outputs; returns a :class:`StudyResult`.

    ``spec`` is a TOML path, a dict or a :class:`Spec`. The keywords override the spec:
    ``backend`` (``"local"`` or ``"ray"``), ``out`` (outputs.dir), ``store`` (the SQLite file),
    ``threads`` (local), ``chunk`` (games per unit), ``address`` and ``num_cpus`` (Ray).
    ``fresh=True`` deletes the store's results first; ``fresh="if-changed"`` only when they
    belong to another spec (by default such a store is refused). ``progress``: a bar on stderr (tqdm if
    installed; ``"plain"`` for a plain line). ``on_unit(cell, start, stop, result)`` is called
    after each unit is stored.

    >>> import pachisi, tempfile
    >>> r = pachisi.study({"study": {"games": 200, "seed": 1},
    ...                    "variants": [{"preset": "backgammon"}],
    ...                    "outputs": {"dir": tempfile.mkdtemp(), "plot": False}})
    >>> [row["games"] for row in r.table]
    [200, 200]
    """
    overrides: Dict[str, Dict[str, Any]] = {
        "backend": {"name": backend, "threads": threads, "chunk": chunk, "address": address,
                    "num_cpus": num_cpus},
        "outputs": {"dir": str(out) if out is not None else None},
    }
    s = load_spec(spec, overrides)
    store_path = Path(store) if store is not None else s.output_path("store")
    assert store_path is not None
    started = time.perf_counter()
    with Store(store_path, s, fresh=fresh, lock=True) as st:
        resumed = st.games_done()
        todo = s.total_games - resumed
        bar = _progress(progress, todo, f"study {s.name}")
        try:
            if s.backend["name"] == "ray":
                played = backends.run_ray(s, st, bar, s.chunk, on_unit)
            else:
                played = backends.run_local(s, st, bar, s.backend.get("threads"), s.chunk,
                                            on_unit)
        finally:
            bar.close()
        table = result_table(s, st)
    seconds = time.perf_counter() - started
    result = StudyResult(s, table, {"store": store_path}, seconds, played, resumed)
    write_outputs(result, plots)
    return result


def write_outputs(result: StudyResult, plots: bool = True) -> Dict[str, Path]:
    """The CSV, the JSON report and (``plots``) the chart and heat map the spec asks for."""
    from . import report

    s, table = result.spec, result.table
    paths = result.paths
    csv_path = s.output_path("csv")
    if csv_path is not None:
        table.to_csv(csv_path)
        paths["csv"] = csv_path
    json_path = s.output_path("json")
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(table_json(s, table, result.seconds), indent=1),
                             encoding="utf-8")
        paths["json"] = json_path
    plot_path = s.output_path("plot")
    if plots and plot_path is not None:
        drawn = report.try_plot(report.seat_chart, table.rows, plot_path,
                                s.description or f"pachisi study {s.name}")
        if drawn is not None:
            paths["plot"] = drawn
    hm = s.outputs.get("heatmap")
    if plots and hm:
        drawn = report.try_plot(report.heatmap, table.rows, Path(s.outputs["dir"]) / hm["file"],
                                hm["x"], hm["y"], hm["value"], hm["seat"], hm.get("lineup"),
                                f"pachisi study {s.name}")
        if drawn is not None:
            paths["heatmap"] = drawn
    return paths


def status(spec: SpecLike, store: Optional[Union[str, Path]] = None) -> List[Dict[str, Any]]:
    """Per cell: games stored of games planned (nothing runs; a store of another spec is an
    error as in :func:`study`)."""
    s = load_spec(spec)
    path = Path(store) if store is not None else s.output_path("store")
    assert path is not None
    if not path.exists():
        return [{"cell": c.index, "label": c.label, "lineup": c.lineup, "done": 0,
                 "games": c.games} for c in s.cells]
    with Store(path, s) as st:
        done = st.done_ranges()
    return [
        {"cell": c.index, "label": c.label, "lineup": c.lineup,
         "done": sum(b - a for a, b in done.get(c.id, [])), "games": c.games}
        for c in s.cells
    ]
