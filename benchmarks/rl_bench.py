"""VecEnv throughput with random legal actions, beside OpenSpiel's backgammon loop (and pgx's
backgammon when installed): complete games per second and environment steps per second.

    python benchmarks/rl_bench.py [--seconds 5] [--num-envs 256]
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

import pachisi


def bench_vecenv(preset: str, num_envs: int, seconds: float, **options: Any) -> Tuple[float, float]:
    env = pachisi.VecEnv(preset, num_envs, seed=0, **options)
    obs, info = env.reset()
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        # Random legal ids, drawn in Rust (a numpy draw over the whole mask costs more than
        # the step itself).
        obs, rew, term, trunc, info = env.step(env.random_actions())
        steps += num_envs
        games += int(term.sum())
    dt = time.perf_counter() - t0
    return games / dt, steps / dt


def bench_openspiel(seconds: float) -> Optional[Tuple[float, float]]:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    rng = np.random.default_rng(0)
    games = steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                o = s.chance_outcomes()
                s.apply_action(o[int(rng.integers(len(o)))][0])
            else:
                a = s.legal_actions()
                s.apply_action(a[int(rng.integers(len(a)))])
                steps += 1
        games += 1
    dt = time.perf_counter() - t0
    return games / dt, steps / dt


def bench_openspiel_cpp(seconds: float) -> Optional[float]:
    """Games/s of OpenSpiel's backgammon played by its C++ loop: ``pyspiel.evaluate_bots`` with
    uniform random bots (one Python call per game, dice and actions drawn in C++)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("backgammon")
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(game.num_players())]
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, 1 + games)
        games += 1
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--num-envs", type=int, default=256)
    args = ap.parse_args()
    rows: List[Tuple[str, float, float]] = []
    configs: List[Tuple[str, Dict[str, Any]]] = [
        ("backgammon", {"cube": False}),
        ("parcheesi", {}),
        ("parcheesi", {"seats": 2}),
        ("pachisi-family", {}),
        ("pachisi", {}),
    ]
    for preset, opts in configs:
        g, s = bench_vecenv(preset, args.num_envs, args.seconds, **opts)
        rows.append((f"VecEnv {preset} {opts or ''} step encoding, N={args.num_envs}", g, s))
    os_ = bench_openspiel(args.seconds)
    if os_ is not None:
        rows.append(("OpenSpiel backgammon, Python loop over the C++ game", *os_))
    for name, g, s in rows:
        print(f"{name:70s} {g:10.1f} games/s {s:12.0f} steps/s")
    cpp = bench_openspiel_cpp(args.seconds)
    if cpp is not None:
        print(f"{'OpenSpiel backgammon, C++ loop (evaluate_bots)':70s} {cpp:10.1f} games/s")
        bg = rows[0][1]
        print(f"VecEnv backgammon / OpenSpiel C++ loop: {bg / cpp:.1f}x games/s")
        if os_ is not None:
            print(f"VecEnv backgammon / OpenSpiel Python loop: {bg / os_[0]:.1f}x games/s")


if __name__ == "__main__":
    main()
