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
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from .._native import Rules, study_unit_raw
from .spec import Cell, Spec
from .store import Store, missing_ranges

#: Local backend without a fixed chunk: the first units of a cell, then units of about
#: ``TARGET_SECONDS`` of one thread each (short enough for Ctrl-C and the progress bar).
PILOT_RANDOM = 500
PILOT_PLAYERS = 8
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
    """Runs every missing unit in this process and returns the games played.

    ``threads`` workers (default: all cores) each play one unit at a time on one Rust thread,
    with the GIL released; the cells are taken in order, each cut into units as it goes (sized
    from the cell's measured speed unless ``chunk`` is given). Only this thread writes to the
    store, as each unit finishes. Whole units per worker, rather than one unit spread over all
    threads, leave no thread idle at the end of a unit.
    """
    from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

    workers = threads or os.cpu_count() or 1
    done = store.done_ranges()
    ranges = deque(
        (cell, a, b) for cell in spec.cells
        for a, b in missing_ranges(cell.games, done.get(cell.id, []))
    )
    rates: Dict[str, float] = {}  # games per second on one thread, per cell

    def next_unit() -> Optional[Unit]:
        if not ranges:
            return None
        cell, a, b = ranges[0]
        if chunk is not None:
            n = chunk
        else:
            if cell.id in rates:
                n = max(1, min(MAX_UNIT, int(rates[cell.id] * TARGET_SECONDS)))
            else:
                n = PILOT_RANDOM if cell.random_play else PILOT_PLAYERS
            # Near the end, share what is left between the workers so that they finish
            # together.
            left = sum(stop - start for _, start, stop in ranges)
            n = min(n, max(1, math.ceil(left / workers)))
        stop = min(b, a + n)
        if stop >= b:
            ranges.popleft()
        else:
            ranges[0] = (cell, stop, b)
        return Unit(cell, a, stop)

    played = 0
    pending: Dict["Future[Dict[str, Any]]", Unit] = {}
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="pachisi-study") as pool:

        def fill() -> None:
            while len(pending) < workers:
                u = next_unit()
                if u is None:
                    return
                future = pool.submit(study_unit_raw, u.cell.rules, u.cell.seed, u.start,
                                     u.stop, _lineup_arg(u.cell), 1)
                pending[future] = u

        fill()
        try:
            while pending:
                finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
                for future in finished:
                    u = pending.pop(future)
                    unit = future.result()
                    store.add(u.cell.id, u.start, u.stop, unit, "local")
                    if unit["seconds"] > 0:
                        rates[u.cell.id] = unit["games"] / unit["seconds"]
                    played += u.stop - u.start
                    progress.update(u.stop - u.start)
                    if on_unit is not None:
                        on_unit(u.cell, u.start, u.stop, unit)
                fill()
        except BaseException:
            # Units already running finish (Rust cannot be interrupted) but are not stored.
            for future in pending:
                future.cancel()
            raise
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
