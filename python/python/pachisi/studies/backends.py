"""Where the work units run: ``local`` (the engine's Rust threads in this process) or ``ray``
(tasks on a Ray cluster, or a local Ray started for the study).

A work unit is a range of game indices of one cell. Game ``i`` of a cell is seeded from the
cell's seed and ``i`` alone, so the units' sizes, their order and the backend do not change any
game; the driver stores each unit as it arrives.
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from .._native import Rules, study_unit_raw
from .spec import Cell, Spec
from .store import Store, missing_ranges

#: Local backend without a fixed chunk: the first unit of a cell, then units of about
#: ``TARGET_SECONDS`` each (short enough for Ctrl-C and the progress bar, long enough that the
#: threads stay busy).
PILOT_RANDOM = 2_000
PILOT_PLAYERS = 16
TARGET_SECONDS = 2.0
MAX_UNIT = 200_000

#: Called after each stored unit: ``(cell, start, stop, unit_result)``.
UnitHook = Callable[[Cell, int, int, Dict[str, Any]], None]


@dataclass
class Unit:
    cell: Cell
    start: int
    stop: int


def fixed_units(spec: Spec, store: Store, chunk: int) -> List[Unit]:
    """Every missing range of every cell cut into units of ``chunk`` games."""
    done = store.done_ranges()
    units = []
    for cell in spec.cells:
        for a, b in missing_ranges(cell.games, done.get(cell.id, [])):
            for start in range(a, b, chunk):
                units.append(Unit(cell, start, min(start + chunk, b)))
    return units


def default_ray_chunk(cell: Cell) -> int:
    """Ray without a fixed chunk: about 16 units per cell (at most 50,000 random games or
    2,000 games of other players each)."""
    cap = 50_000 if cell.random_play else 2_000
    return max(1, min(cap, math.ceil(cell.games / 16)))


class Progress:
    """A progress bar over the units (tqdm when installed, else one line on stderr)."""

    def __init__(self, total_games: int, units: Optional[int], label: str, enabled: bool,
                 use_tqdm: bool = True) -> None:
        self.total = total_games
        self.units_total = units
        self.done_games = 0
        self.done_units = 0
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.bar: Any = None
        self.label = label
        if enabled and use_tqdm:
            try:
                from tqdm import tqdm  # type: ignore[import-untyped, import-not-found, unused-ignore]
            except ImportError:
                pass
            else:
                self.bar = tqdm(total=total_games, unit=" games", unit_scale=True, desc=label,
                                file=sys.stderr, dynamic_ncols=True, smoothing=0.1)

    def update(self, games: int, where: str = "") -> None:
        self.done_games += games
        self.done_units += 1
        if not self.enabled:
            return
        units = f"{self.done_units}" + (f"/{self.units_total}" if self.units_total else "")
        if self.bar is not None:
            self.bar.set_postfix_str(f"units {units}" + (f", {where}" if where else ""),
                                     refresh=False)
            self.bar.update(games)
            return
        now = time.perf_counter()
        if now - self.last < 0.5 and self.done_games < self.total:
            return
        self.last = now
        elapsed = now - self.start
        pct = 100.0 * self.done_games / self.total if self.total else 100.0
        rate = self.done_games / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done_games) / rate if rate > 0 else float("nan")
        sys.stderr.write(
            f"\r{self.label}: {pct:5.1f}% ({self.done_games:,}/{self.total:,} games, units "
            f"{units}, {elapsed:.0f} s, ~{eta:.0f} s left)   "
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.enabled and self.done_units:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _lineup_arg(cell: Cell) -> Optional[List[str]]:
    return None if cell.random_play else list(cell.players)


def run_local(spec: Spec, store: Store, progress: Progress, threads: Optional[int],
              chunk: Optional[int], on_unit: Optional[UnitHook]) -> int:
    """Runs every missing unit in this process, cell after cell; returns the games played."""
    done = store.done_ranges()
    played = 0
    for cell in spec.cells:
        lineup = _lineup_arg(cell)
        rate: Optional[float] = None
        for a, b in missing_ranges(cell.games, done.get(cell.id, [])):
            pos = a
            while pos < b:
                if chunk is not None:
                    n = chunk
                elif rate is None:
                    n = PILOT_RANDOM if cell.random_play else PILOT_PLAYERS * (threads or os.cpu_count() or 1)
                else:
                    n = max(1, min(MAX_UNIT, int(rate * TARGET_SECONDS)))
                stop = min(b, pos + n)
                unit = study_unit_raw(cell.rules, cell.seed, pos, stop, lineup, threads)
                store.add(cell.id, pos, stop, unit, "local")
                if unit["seconds"] > 0:
                    rate = unit["games"] / unit["seconds"]
                played += stop - pos
                progress.update(stop - pos)
                if on_unit is not None:
                    on_unit(cell, pos, stop, unit)
                pos = stop
    return played


def _ray_unit(rules_json: str, seed: int, start: int, stop: int,
              lineup: Optional[List[str]]) -> Dict[str, Any]:
    """A Ray task: one unit on one core of whichever node runs it."""
    import socket

    unit = study_unit_raw(Rules.from_json(rules_json), seed, start, stop, lineup, 1)
    unit["host"] = socket.gethostname()
    unit["pid"] = os.getpid()
    return unit


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError(
            'the "ray" study backend needs Ray: pip install "pachisi[ray]" (or pip install ray)'
        ) from None
    return ray


def run_ray(spec: Spec, store: Store, progress: Progress, chunk: Optional[int],
            on_unit: Optional[UnitHook]) -> int:
    """Runs every missing unit as a Ray task (one core each; Ray retries a task whose worker
    or node was lost, ``backend.max_retries`` times) and stores each result as it arrives."""
    ray = import_ray()
    backend = spec.backend
    started_here = False
    if not ray.is_initialized():
        kwargs: Dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if backend.get("address"):
            kwargs["address"] = backend["address"]
        elif backend.get("num_cpus"):
            kwargs["num_cpus"] = backend["num_cpus"]
        ray.init(**kwargs)
        started_here = True
    try:
        if chunk is not None:
            units = fixed_units(spec, store, chunk)
        else:
            done = store.done_ranges()
            units = []
            for cell in spec.cells:
                size = default_ray_chunk(cell)
                for a, b in missing_ranges(cell.games, done.get(cell.id, [])):
                    units += [Unit(cell, s, min(s + size, b)) for s in range(a, b, size)]
        progress.units_total = len(units)
        task = ray.remote(num_cpus=1, max_retries=int(backend["max_retries"]))(_ray_unit)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        window = 4 * cpus
        rules_ref = {c.id: c.rules.to_json() for c in spec.cells}
        queue: Iterator[Unit] = iter(units)
        pending: Dict[Any, Unit] = {}
        played = 0

        def submit() -> None:
            while len(pending) < window:
                u = next(queue, None)
                if u is None:
                    return
                ref = task.remote(rules_ref[u.cell.id], u.cell.seed, u.start, u.stop,
                                  _lineup_arg(u.cell))
                pending[ref] = u

        submit()
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    u = pending.pop(ref)
                    result = ray.get(ref)
                    store.add(u.cell.id, u.start, u.stop, result, "ray")
                    played += u.stop - u.start
                    progress.update(u.stop - u.start, str(result.get("host", "")))
                    if on_unit is not None:
                        on_unit(u.cell, u.start, u.stop, result)
                submit()
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return played
    finally:
        if started_here:
            ray.shutdown()


def plan_summary(spec: Spec, store: Store) -> Tuple[int, int]:
    """Games stored and games still to play."""
    done = store.games_done()
    return done, spec.total_games - done
