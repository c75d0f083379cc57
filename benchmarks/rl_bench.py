"""VecEnv throughput with random legal actions, beside OpenSpiel's backgammon loop (and pgx's
backgammon when installed: ``pip install pgx``, not a dependency of the project): complete games
per second and environment steps per second.

    python benchmarks/rl_bench.py [--seconds 5] [--num-envs 256] [--pgx-batches 64,256,1024]
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
    # All games start together: step them for a while first so that games end at a steady
    # rate inside the timed window (else its first game length counts no game at all).
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.step(env.random_actions())
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


def bench_pgx(seconds: float, batch: int, warmup_calls: int = 300) -> Optional[float]:
    """Complete games/s of pgx's backgammon on CPU (JAX), batch ``batch``, uniformly random legal
    actions drawn inside the jitted step, finished games reset in the same step (like VecEnv)."""
    try:
        import jax  # type: ignore[import-not-found,unused-ignore]
        import jax.numpy as jnp  # type: ignore[import-not-found,unused-ignore]
        import pgx  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    env = pgx.make("backgammon")

    def one(state: Any, key: Any) -> Tuple[Any, Any]:
        k_act, k_step, k_init = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(k_act, logits)
        nxt = env.step(state, action, k_step)
        fresh = env.init(k_init)
        done = nxt.terminated | nxt.truncated
        nxt = jax.tree_util.tree_map(lambda a, b: jnp.where(done, b, a), nxt, fresh)
        return nxt, done

    step = jax.jit(jax.vmap(one))
    init = jax.jit(jax.vmap(env.init))
    key = jax.random.PRNGKey(0)
    state = init(jax.random.split(key, batch))
    # Compile, then step about one game length (~300 calls with random actions) outside the
    # clock, so games end at a steady rate inside the timed window (like VecEnv's warm-up).
    i = 1
    for _ in range(warmup_calls):
        state, done = step(state, jax.random.split(jax.random.PRNGKey(i), batch))
        i += 1
    done.block_until_ready()
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state, done = step(state, jax.random.split(jax.random.PRNGKey(i), batch))
        games += int(done.sum())
        i += 1
    return games / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument(
        "--pgx-batches",
        default="64,256,1024",
        help="batch sizes tried for pgx (when installed); its best one is compared",
    )
    args = ap.parse_args()
    rows: List[Tuple[str, float, float]] = []
    configs: List[Tuple[str, Dict[str, Any]]] = [
        ("backgammon", {"cube": False}),
        ("backgammon", {"cube": False, "encoding": "play"}),
        ("backgammon", {"cube": False, "encoding": "openspiel"}),
        ("parcheesi", {}),
        ("parcheesi", {"seats": 2}),
        ("pachisi-family", {}),
        ("pachisi", {}),
    ]
    for preset, opts in configs:
        g, s = bench_vecenv(preset, args.num_envs, args.seconds, **opts)
        enc = opts.get("encoding", "step")
        rules = {k: v for k, v in opts.items() if k != "encoding"}
        rows.append((f"VecEnv {preset} {rules or ''} {enc} encoding, N={args.num_envs}", g, s))
    os_ = bench_openspiel(args.seconds)
    if os_ is not None:
        rows.append(("OpenSpiel backgammon, Python loop over the C++ game", *os_))
    for name, g, s in rows:
        print(f"{name:70s} {g:10.1f} games/s {s:12.0f} steps/s")
    # The backgammon rows, one per encoding (each draws uniformly among its own legal ids).
    bg_rows = [(name.split(" encoding")[0].split()[-1], g) for name, g, _ in rows[:3]]
    cpp = bench_openspiel_cpp(args.seconds)
    if cpp is not None:
        print(f"{'OpenSpiel backgammon, C++ loop (evaluate_bots)':70s} {cpp:10.1f} games/s")
        for enc, bg in bg_rows:
            print(f"VecEnv backgammon ({enc}) / OpenSpiel C++ loop: {bg / cpp:.1f}x games/s")
        if os_ is not None:
            bg = bg_rows[0][1]
            print(f"VecEnv backgammon (step) / OpenSpiel Python loop: {bg / os_[0]:.1f}x games/s")
    best: Optional[Tuple[int, float]] = None
    for batch in [int(b) for b in args.pgx_batches.split(",") if b]:
        r = bench_pgx(args.seconds, batch)
        if r is None:
            print("pgx not installed (pip install pgx): no pgx ratio")
            break
        print(f"{'pgx backgammon (JAX, CPU), batch ' + str(batch):70s} {r:10.1f} games/s")
        if best is None or r > best[1]:
            best = (batch, r)
    if best is not None:
        for enc, bg in bg_rows:
            print(f"VecEnv backgammon ({enc}) / pgx (batch {best[0]}): {bg / best[1]:.1f}x games/s")


if __name__ == "__main__":
    main()
