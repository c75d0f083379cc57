"""Study backends against the plain simulator (`make bench-study`; docs/STUDIES.md).

1. Local backend vs ``pachisi.simulate`` for the same games (random play and greedy play): the
   study's overhead is the units, the SQLite store and the aggregation (target: within 10%).
2. Ray (a local Ray with all cores) vs the local backend for a large random-play study
   (target: at least 85% of the local throughput). Ray's start-up time is reported apart and
   not counted (it is paid once per cluster, not per study).

    python benchmarks/study_bench.py [--games N] [--greedy-games N] [--ray-games N] [--no-ray]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pachisi
from pachisi.studies import load_spec


def one_cell(preset: str, games: int, players: str, out: Path, cells: int = 1) -> Dict[str, Any]:
    seeds = list(range(cells))
    return {
        "study": {"name": "bench", "seed": 1, "games": games},
        "variants": [{"preset": preset} if cells == 1 else
                     {"preset": preset, "grid": {"capture_bonus": [10 + 2 * s for s in seeds]}}],
        "lineups": [{"name": players, "players": players}],
        "outputs": {"dir": str(out), "plot": False, "json": False, "csv": False},
    }


def best_of(runs: int, *fns: Any) -> List[float]:
    """The best time of each function over ``runs`` rounds, the functions taking turns in each
    round (so that a change in the machine's load hits them alike)."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def local_vs_simulate(preset: str, games: int, players: str, runs: int) -> Dict[str, Any]:
    rules = pachisi.Rules(preset)
    spec = load_spec(one_cell(preset, games, players, Path(tempfile.mkdtemp())))
    cell = spec.cells[0]
    policy = players
    def run_study() -> None:
        out = Path(tempfile.mkdtemp())
        pachisi.study(one_cell(preset, games, players, out), plots=False)

    t_sim, t_study = best_of(
        runs, lambda: pachisi.simulate(rules, games=games, seed=cell.seed, policy=policy),
        run_study)
    return {"what": f"{preset}, {players} play, {games:,} games", "simulate": games / t_sim,
            "study": games / t_study, "ratio": t_sim / t_study}


def ray_vs_local(preset: str, games: int, cells: int, chunk: Optional[int],
                 rounds: int) -> Dict[str, Any]:
    """Best of ``rounds`` rounds, each a local run then a Ray run (Ray started before and shut
    down after its run, untimed, so the local run does not share the machine with Ray)."""
    import ray

    per_cell = games // cells
    t_local = t_ray = t_init = float("inf")
    tables = []
    for _ in range(rounds):
        out_local = Path(tempfile.mkdtemp())
        start = time.perf_counter()
        local = pachisi.study(one_cell(preset, per_cell, "random", out_local, cells), plots=False)
        t_local = min(t_local, time.perf_counter() - start)
        start = time.perf_counter()
        ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
        # Warm the workers (imports) so that the start-up is not in the timed run.
        ray.get([ray.remote(lambda: __import__("pachisi").__version__).remote()
                 for _ in range(os.cpu_count() or 1)])
        t_init = min(t_init, time.perf_counter() - start)
        out_ray = Path(tempfile.mkdtemp())
        start = time.perf_counter()
        r = pachisi.study(one_cell(preset, per_cell, "random", out_ray, cells), backend="ray",
                          chunk=chunk, plots=False)
        t_ray = min(t_ray, time.perf_counter() - start)
        ray.shutdown()
        tables += [local.table.to_dicts(), r.table.to_dicts()]
    assert all(t == tables[0] for t in tables), "Ray and local tables differ"
    return {"what": f"{preset} random play, {cells} cells x {per_cell:,} games",
            "local": games / t_local, "ray": games / t_ray, "ratio": t_local / t_ray,
            "ray_init": t_init}


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--games", type=int, default=100_000, help="random games (part 1)")
    p.add_argument("--greedy-games", type=int, default=1_000, help="greedy games (part 1)")
    p.add_argument("--ray-games", type=int, default=1_000_000, help="games of the Ray study")
    p.add_argument("--ray-chunk", type=int, default=None, help="games per Ray task")
    p.add_argument("--ray-preset", default="parcheesi", choices=["parcheesi", "pachisi-online"],
                   help="the Ray study's preset (its cells vary capture_bonus)")
    p.add_argument("--runs", type=int, default=3, help="best of this many runs (part 1)")
    p.add_argument("--ray-rounds", type=int, default=2, help="best of this many rounds (part 2)")
    p.add_argument("--no-ray", action="store_true")
    a = p.parse_args(argv)
    print(f"pachisi {pachisi.__version__}, {os.cpu_count()} cores")
    print("| games | simulate, games/s | local study, games/s | study / simulate |")
    print("|---|---:|---:|---:|")
    for preset, games, players in (("parcheesi", a.games, "random"),
                                   ("backgammon", a.games, "random"),
                                   ("parcheesi", a.greedy_games, "greedy")):
        r = local_vs_simulate(preset, games, players, a.runs)
        print(f"| {r['what']} | {r['simulate']:,.0f} | {r['study']:,.0f} | "
              f"{100 * r['ratio']:.1f}% |", flush=True)
    if not a.no_ray:
        r = ray_vs_local(a.ray_preset, a.ray_games, 4, a.ray_chunk, a.ray_rounds)
        print()
        print("| study | local, games/s | Ray, games/s | Ray / local | Ray start-up |")
        print("|---|---:|---:|---:|---:|")
        print(f"| {r['what']} | {r['local']:,.0f} | {r['ray']:,.0f} | {100 * r['ratio']:.1f}% | "
              f"{r['ray_init']:.1f} s |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
