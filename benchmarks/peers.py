"""Peer benchmark: random games in pachisi and in the peers that are installed, side by side.

``python benchmarks/peers.py [--seconds S] [--games N] [--json out/peers.json]`` (``make bench-peers``)

Every line plays whole games with a uniformly random player, one core, and reports games/s;
the ratios are computed within the one run (the machine's speed drifts between runs, ratios
much less). Two pairings:

- *backgammon*: pachisi's ``backgammon`` against OpenSpiel's ``backgammon`` and pgx's
  ``backgammon`` (on CPU);
- *Parcheesi*: pachisi's ``parcheesi`` (4 seats) against OpenSpiel's ``maedn`` (Mensch ärgere Dich
  nicht, 4 players), a simpler race game (one die, no blockades, no bonuses).

The lines, where available:

1. pachisi, plain Rust (``examples/rust/simulate.rs``, 1 thread; built with cargo if cargo is
   there);
2. pachisi, ``pachisi.simulate(preset, threads=1)`` (the Rust loop through the Python binding);
3. pachisi, a Python loop (roll, ``legal_plays``, ``play`` a random one);
4. OpenSpiel, a C++ loop: ``pyspiel.evaluate_bots`` with uniform random bots (one Python call per
   game; dice sampled in C++);
5. OpenSpiel, the same Python loop through ``pyspiel`` (``pip install open_spiel``; ``make
   crosscheck-deps`` installs it);
6. pgx on CPU (backgammon only; ``pip install pgx jax``): a batch of games stepped by a jitted,
   vmapped random policy for a fixed number of steps, each finished game restarted at once
   (``pgx.experimental.auto_reset``); games/s counts the games that ended, timed after a
   warm-up run that compiles it.

Units differ slightly: pachisi lists whole plays (all dice of a roll); OpenSpiel's backgammon
action is also a whole move (doubles take two), maedn's is one die; games/s compares the same
work (one random game). A peer that is not installed is skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pachisi

ROOT = Path(__file__).resolve().parents[1]

# (pachisi preset, OpenSpiel game, OpenSpiel parameters, pgx environment id or None)
PAIRS = [
    ("backgammon", "backgammon", {}, "backgammon"),
    ("parcheesi", "maedn", {"players": 4}, None),
]


def timed_games(play_one: Callable[[int], None], seconds: float) -> float:
    """Games/s of ``play_one(i)`` called for i = 0, 1, ... for at least ``seconds``."""
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        play_one(games)
        games += 1
    return games / (time.perf_counter() - start)


def rust_example(preset: str, games: int) -> Optional[float]:
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
    proc = subprocess.run([str(exe), preset, str(games), "1", "1"],
                          capture_output=True, text=True, check=False)
    m = re.search(r"([\d.]+) games/s", proc.stdout)
    if proc.returncode != 0 or m is None:
        print(proc.stdout + proc.stderr, file=sys.stderr)
        return None
    return float(m.group(1))


def pachisi_simulate(preset: str, games: int) -> float:
    pachisi.simulate(preset, games=min(games, 500), seed=99, threads=1)  # warm up
    start = time.perf_counter()
    pachisi.simulate(preset, games=games, seed=1, threads=1)
    return games / (time.perf_counter() - start)


def pachisi_loop(preset: str, seconds: float) -> float:
    rng = random.Random(1)

    def one(i: int) -> None:
        game = pachisi.Game(preset, seed=1 + i)
        while not game.is_over:
            if game.is_chance_node():
                game.roll()
            else:
                plays = game.legal_plays()
                game.play(plays[rng.randrange(len(plays))])

    return timed_games(one, seconds)


def pyspiel_module() -> Any:
    try:
        import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    return pyspiel


def pyspiel_cpp_loop(name: str, params: Dict[str, Any], seconds: float) -> Optional[float]:
    pyspiel = pyspiel_module()
    if pyspiel is None:
        return None
    game = pyspiel.load_game(name, params)
    bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(game.num_players())]
    return timed_games(lambda i: pyspiel.evaluate_bots(game.new_initial_state(), bots, 1 + i),
                       seconds)


def pyspiel_python_loop(name: str, params: Dict[str, Any], seconds: float) -> Optional[float]:
    pyspiel = pyspiel_module()
    if pyspiel is None:
        return None
    game = pyspiel.load_game(name, params)
    rng = random.Random(1)

    def one(_: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])

    return timed_games(one, seconds)


def pgx_cpu(env_id: str, batch: int, steps: int) -> Optional[float]:
    try:
        import jax  # type: ignore[import-not-found,import-untyped,unused-ignore]
        import jax.numpy as jnp  # type: ignore[import-not-found,import-untyped,unused-ignore]
        import pgx  # type: ignore[import-not-found,import-untyped,unused-ignore]
        from pgx.experimental import auto_reset  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    jax.config.update("jax_platforms", "cpu")
    env = pgx.make(env_id)
    init = jax.vmap(env.init)
    # A finished game restarts at once, so every step of the batch plays (no waiting for the
    # longest game); games/s counts the games that ended.
    step = jax.vmap(auto_reset(env.step, env.init))

    def random_action(key: Any, mask: Any) -> Any:
        return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))

    @jax.jit
    def play(key: Any) -> Any:
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))

        def body(_: Any, carry: Any) -> Any:
            state, key, ended = carry
            key, k_act, k_step = jax.random.split(key, 3)
            actions = jax.vmap(random_action)(jax.random.split(k_act, batch),
                                              state.legal_action_mask)
            state = step(state, actions, jax.random.split(k_step, batch))
            return state, key, ended + jnp.sum(state.terminated)

        _, _, ended = jax.lax.fori_loop(0, steps, body, (state, key, 0))
        return ended

    jax.block_until_ready(play(jax.random.PRNGKey(0)))  # compile
    start = time.perf_counter()
    ended = jax.block_until_ready(play(jax.random.PRNGKey(1)))
    return int(ended) / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per looped line")
    parser.add_argument("--games", type=int, default=20_000, help="games per Rust simulate run")
    parser.add_argument("--pgx-batch", type=int, default=256, help="games run at once by pgx")
    parser.add_argument("--pgx-steps", type=int, default=1000, help="steps of the pgx batch")
    parser.add_argument("--json", default="out/peers.json")
    args = parser.parse_args()

    report: Dict[str, Any] = {"pachisi_version": pachisi.__version__,
                              "python": sys.version.split()[0], "cpus": os.cpu_count()}
    print(f"pachisi {pachisi.__version__}, Python {report['python']}, {report['cpus']} CPUs; "
          "random games, one core, games/s")
    for preset, spiel_name, spiel_params, pgx_id in PAIRS:
        rows: List[tuple[str, Optional[float]]] = [
            ("pachisi, Rust example", rust_example(preset, args.games)),
            ("pachisi, pachisi.simulate", pachisi_simulate(preset, args.games)),
            ("pachisi, Python loop", pachisi_loop(preset, args.seconds)),
            (f"OpenSpiel {spiel_name}, C++ loop (evaluate_bots)",
             pyspiel_cpp_loop(spiel_name, spiel_params, args.seconds)),
            (f"OpenSpiel {spiel_name}, Python loop",
             pyspiel_python_loop(spiel_name, spiel_params, args.seconds)),
        ]
        if pgx_id is not None:
            rows.append((f"pgx {pgx_id}, CPU (batch {args.pgx_batch})",
                         pgx_cpu(pgx_id, args.pgx_batch, args.pgx_steps)))
        report[preset] = {name: value for name, value in rows}
        print(f"\n{preset}")
        for name, value in rows:
            shown = "skipped (not installed)" if value is None else f"{value:12,.1f}"
            print(f"  {name:<46} {shown}")
        found = {name: value for name, value in rows if value is not None}
        ours = [(n, v) for n, v in found.items() if n.startswith("pachisi")]
        peers = [(n, v) for n, v in found.items() if not n.startswith("pachisi")]
        if peers:
            print("  ratios (pachisi / peer):")
        for peer, pv in peers:
            for name, value in ours:
                # Like against like: a Python loop against a Python loop, Rust against compiled.
                if ("Python loop" in name) != ("Python loop" in peer):
                    continue
                print(f"    {name[len('pachisi, '):]:<22} / {peer:<46} {value / pv:8.2f}")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
