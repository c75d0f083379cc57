"""Python benchmark: random backgammon games through the Python API, vs OpenSpiel's pyspiel, and
``pachisi.simulate`` vs the plain Rust simulator and its scaling over 1 and 2 threads.

``python benchmarks/python_bench.py [--seconds S] [--json out/python_bench.json]``

1. *Python loop*: the same loop in both libraries: at a chance node sample the roll, at a decision
   node pick a uniformly random legal move, until the game ends. pachisi's unit of choice is a
   whole play (all dice of the roll); OpenSpiel's backgammon action is also a whole move of both
   dice (doubles are two actions), so games/s is the comparison; actions/s is given too.
   OpenSpiel is optional (``pip install open_spiel``); without it that line is skipped.
   The pachisi loop is what a user writes: ``plays = game.legal_plays();
   game.play(rng.choice(plays))``; a second one plays by index,
   ``game.play_index(rng.randrange(len(game.legal_plays())))``.
2. *Per call*: the median time of one call of ``roll``, ``legal_plays``, ``play`` (a ``Play``
   from ``legal_plays()``), ``play_index`` and ``copy`` in running backgammon games, and of
   ``copy`` in a Parcheesi game 100 actions in; the timer's own median (an empty interval) is
   subtracted. Backgammon generates the plays of a roll on first use, so ``legal_plays`` carries
   the generation and ``roll`` does not (builds before issue 16's lazy plays: the reverse).
   pyspiel's ``apply_action`` (chance and decision), ``legal_actions`` and ``clone``
   are timed the same way when it is installed.
3. *simulate*: games/s of ``pachisi.simulate`` on 1 and 2 threads, and of the Rust example
   ``cargo run --release -p pachisi --example simulate`` on 1 thread (built if cargo is there),
   so the cost of the binding (array conversion, GIL) shows.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import pachisi

ROOT = Path(__file__).resolve().parents[1]


def _more(games: int, start: float, seconds: float, games_limit: Optional[int]) -> bool:
    """Whether a loop goes on: `games_limit` games when given, else `seconds` (at least one game)."""
    if games_limit is not None:
        return games < games_limit
    return time.perf_counter() - start < seconds or games == 0


def bench_pachisi_loop(seconds: float, seed: int = 1, games_limit: Optional[int] = None) -> Dict[str, Any]:
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while _more(games, start, seconds, games_limit):
        game = pachisi.Game("backgammon", seed=seed + games)
        while not game.is_over:
            if game.is_chance_node():
                game.roll()
            else:
                plays = game.legal_plays()
                game.play(rng.choice(plays))
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "decisions": actions, "decisions_per_s": actions / elapsed}


def bench_pachisi_index_loop(seconds: float, seed: int = 1) -> Dict[str, Any]:
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while _more(games, start, seconds, None):
        game = pachisi.Game("backgammon", seed=seed + games)
        while not game.is_over:
            if game.is_chance_node():
                game.roll()
            else:
                game.play_index(rng.randrange(len(game.legal_plays())))
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "decisions": actions, "decisions_per_s": actions / elapsed}


def _median(xs: List[int]) -> float:
    return float(statistics.median(xs)) if xs else float("nan")


def timer_overhead_ns(samples: int = 20000) -> float:
    clock = time.perf_counter_ns
    xs = []
    for _ in range(samples):
        t0 = clock()
        xs.append(clock() - t0)
    return _median(xs)


def bench_pachisi_calls(seconds: float, seed: int = 1) -> Dict[str, float]:
    """Median ns per call in running backgammon games (timer overhead subtracted)."""
    clock = time.perf_counter_ns
    times: Dict[str, List[int]] = {k: [] for k in ("roll", "legal_plays", "play", "play_index", "copy")}
    rng = random.Random(seed)
    start = time.perf_counter()
    games = 0
    while _more(games, start, seconds, None):
        game = pachisi.Game("backgammon", seed=seed + games)
        # Older builds have no play_index: then every decision times play().
        by_index = False
        has_index = hasattr(game, "play_index")
        while not game.is_over:
            t0 = clock()
            c = game.copy()
            times["copy"].append(clock() - t0)
            del c
            if game.is_chance_node():
                t0 = clock()
                game.roll()
                times["roll"].append(clock() - t0)
            else:
                t0 = clock()
                plays = game.legal_plays()
                times["legal_plays"].append(clock() - t0)
                i = rng.randrange(len(plays))
                if by_index:
                    t0 = clock()
                    game.play_index(i)
                    times["play_index"].append(clock() - t0)
                else:
                    p = plays[i]
                    t0 = clock()
                    game.play(p)
                    times["play"].append(clock() - t0)
                by_index = has_index and not by_index
        games += 1
    overhead = timer_overhead_ns()
    out = {k: max(0.0, _median(v) - overhead) for k, v in times.items() if v}
    # A mid-game Parcheesi copy (the size target: a game 100 actions in).
    g = pachisi.Game("parcheesi", seed=9)
    while g.history_len < 100:
        if g.is_chance_node():
            g.roll()
        else:
            g.play(g.legal_plays()[len(g.legal_plays()) // 2])
    xs = []
    for _ in range(20000):
        t0 = clock()
        c = g.copy()
        xs.append(clock() - t0)
        del c
    out["copy_parcheesi_mid_game"] = max(0.0, _median(xs) - overhead)
    out["timer_overhead"] = overhead
    return out


def bench_pyspiel_calls(seconds: float, seed: int = 1) -> Optional[Dict[str, float]]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    clock = time.perf_counter_ns
    times: Dict[str, List[int]] = {k: [] for k in ("chance_apply", "legal_actions", "apply_action", "clone")}
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            t0 = clock()
            c = state.clone()
            times["clone"].append(clock() - t0)
            del c
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
                t0 = clock()
                state.apply_action(action)
                times["chance_apply"].append(clock() - t0)
            else:
                t0 = clock()
                legal = state.legal_actions()
                times["legal_actions"].append(clock() - t0)
                a = legal[rng.randrange(len(legal))]
                t0 = clock()
                state.apply_action(a)
                times["apply_action"].append(clock() - t0)
    overhead = timer_overhead_ns()
    return {k: max(0.0, _median(v) - overhead) for k, v in times.items()}


def bench_pyspiel_loop(seconds: float, seed: int = 1, games_limit: Optional[int] = None) -> Optional[Dict[str, Any]]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    rng = random.Random(seed)
    game = pyspiel.load_game("backgammon")
    games = actions = 0
    start = time.perf_counter()
    while _more(games, start, seconds, games_limit):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                chosen = outcomes[-1][0]
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        chosen = action
                        break
                state.apply_action(chosen)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "decisions": actions, "decisions_per_s": actions / elapsed}


def bench_simulate(games: int, threads: int) -> Dict[str, Any]:
    pachisi.simulate("backgammon", games=min(games, 2000), seed=99, threads=threads)  # warm up
    start = time.perf_counter()
    res = pachisi.simulate("backgammon", games=games, seed=1, threads=threads)
    elapsed = time.perf_counter() - start
    return {"threads": threads, "games": games, "seconds": elapsed, "games_per_s": games / elapsed,
            "rust_seconds": res.seconds}


def bench_rust_example(games: int, threads: int) -> Optional[Dict[str, Any]]:
    exe = ROOT / "target" / "release" / "examples" / "simulate"
    cargo = shutil.which("cargo")
    if cargo is not None:
        build = subprocess.run(
            [cargo, "build", "--release", "-q", "-p", "pachisi", "--example", "simulate"],
            cwd=ROOT, capture_output=True, text=True,
        )
        if build.returncode != 0:
            print(build.stderr, file=sys.stderr)
    if not exe.exists():
        return None
    proc = subprocess.run([str(exe), "backgammon", str(games), "1", str(threads)],
                          capture_output=True, text=True, check=False)
    m = re.search(r"([\d.]+) games/s", proc.stdout)
    if proc.returncode != 0 or m is None:
        print(proc.stdout + proc.stderr, file=sys.stderr)
        return None
    return {"threads": threads, "games": games, "games_per_s": float(m.group(1))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only-loop", action="store_true", help="only the Python loops and per-call times")
    parser.add_argument("--seconds", type=float, default=10.0, help="time per Python loop")
    parser.add_argument("--games", type=int, default=40_000, help="games per simulate run")
    parser.add_argument("--json", default="out/python_bench.json")
    args = parser.parse_args()

    report: Dict[str, Any] = {
        "pachisi_version": pachisi.__version__,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
    }
    print(f"pachisi {pachisi.__version__}, Python {report['python']}, {report['cpus']} CPUs\n")

    print("1. Python loop, random backgammon games (uniform over legal moves)")
    ours = bench_pachisi_loop(args.seconds)
    report["python_loop_pachisi"] = ours
    print(f"   pachisi : {ours['games_per_s']:8.1f} games/s  {ours['decisions_per_s']:9.0f} decisions/s")
    if hasattr(pachisi.Game, "play_index"):
        by_index = bench_pachisi_index_loop(args.seconds)
        report["python_loop_pachisi_play_index"] = by_index
        print(f"   pachisi, play_index: {by_index['games_per_s']:8.1f} games/s  "
              f"{by_index['decisions_per_s']:9.0f} decisions/s")
    theirs = bench_pyspiel_loop(args.seconds)
    report["python_loop_pyspiel"] = theirs
    if theirs is None:
        print("   pyspiel : skipped (open_spiel is not installed: pip install open_spiel)")
    else:
        print(f"   pyspiel : {theirs['games_per_s']:8.1f} games/s  {theirs['decisions_per_s']:9.0f} decisions/s")
        print(f"   ratio   : pachisi is {ours['games_per_s'] / theirs['games_per_s']:.2f}x pyspiel in games/s")

    print("\n2. Per call, median ns (timer overhead subtracted), running backgammon games")
    calls = bench_pachisi_calls(args.seconds)
    report["calls_pachisi_ns"] = calls
    for k, v in calls.items():
        print(f"   pachisi {k:24s} {v:8.0f} ns")
    spiel_calls = bench_pyspiel_calls(args.seconds)
    report["calls_pyspiel_ns"] = spiel_calls
    if spiel_calls is None:
        print("   pyspiel: skipped (open_spiel is not installed)")
    else:
        for k, v in spiel_calls.items():
            print(f"   pyspiel {k:24s} {v:8.0f} ns")

    if args.only_loop:
        return 0
    print("\n3. simulate (Rust, GIL released), backgammon")
    runs = [bench_simulate(args.games, t) for t in (1, 2)]
    report["simulate"] = runs
    for r in runs:
        print(f"   pachisi.simulate, {r['threads']} thread(s): {r['games_per_s']:9.0f} games/s")
    print(f"   scaling 1 -> 2 threads: {runs[1]['games_per_s'] / runs[0]['games_per_s']:.2f}x")
    rust = bench_rust_example(args.games, 1)
    report["rust_example"] = rust
    if rust is None:
        print("   plain Rust example: skipped (cargo or the example binary is not available)")
    else:
        print(f"   plain Rust (examples/rust/simulate.rs), 1 thread: {rust['games_per_s']:9.0f} games/s"
              f"  (pachisi.simulate / plain Rust: {runs[0]['games_per_s'] / rust['games_per_s']:.2f})")
    print(f"   simulate vs the Python loop: {runs[0]['games_per_s'] / ours['games_per_s']:.0f}x (1 thread)")

    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
