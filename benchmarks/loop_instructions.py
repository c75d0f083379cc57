"""Instructions per game of the Python random-play loop, pachisi against pyspiel, by callgrind.

``python benchmarks/loop_instructions.py [--games N]`` runs this file's two loops (random
backgammon games through ``pachisi`` and through OpenSpiel's ``pyspiel``, the same loops as
``python_bench.py`` section 1) under ``valgrind --tool=callgrind``, each once with no game and
once with N games, and prints the instructions per game (the difference over N) and their ratio.
Instruction counts do not depend on the machine's load, so the ratio is stable where the
games/s of ``python_bench.py`` are not (it stands for a time ratio only roughly: instructions per
cycle differ between the two). ``PYTHONHASHSEED=0`` keeps start-up identical between the runs.

``python benchmarks/loop_instructions.py --run pachisi|pyspiel N`` is one loop (what the
callgrind runs execute).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from typing import Optional, Tuple


def loop_pachisi(games: int) -> int:
    import pachisi

    rng = random.Random(1)
    actions = 0
    for seed in range(games):
        game = pachisi.Game("backgammon", seed=seed)
        while not game.is_over:
            if game.is_chance_node():
                game.roll()
            else:
                plays = game.legal_plays()
                game.play(rng.choice(plays))
            actions += 1
    return actions


def loop_pyspiel(games: int) -> int:
    import pyspiel  # type: ignore[import-not-found]

    rng = random.Random(1)
    game = pyspiel.load_game("backgammon")
    actions = 0
    for _ in range(games):
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
    return actions


def callgrind(which: str, games: int) -> Tuple[int, int]:
    """(instructions, actions) of one run of `which` under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--run", which, str(games)],
        capture_output=True, text=True, env=env, check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise RuntimeError(f"no callgrind total in: {out.stderr[-500:]}")
    return int(m.group(1)), int(out.stdout.split()[-1])


def per_game(which: str, games: int) -> Optional[Tuple[float, float]]:
    """(instructions per game, actions per game), or None when `which` is not installed."""
    try:
        __import__("pachisi" if which == "pachisi" else "pyspiel")
    except ImportError:
        return None
    base, _ = callgrind(which, 0)
    total, actions = callgrind(which, games)
    return (total - base) / games, actions / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--run", nargs=2, metavar=("LOOP", "GAMES"))
    args = ap.parse_args()
    if args.run:
        loop = {"pachisi": loop_pachisi, "pyspiel": loop_pyspiel}[args.run[0]]
        print(loop(int(args.run[1])))
        return 0
    ours = per_game("pachisi", args.games)
    theirs = per_game("pyspiel", args.games)
    assert ours is not None
    print(f"pachisi: {ours[0] / 1e6:7.3f} M instructions per game, {ours[1]:.1f} actions per game"
          f" ({ours[0] / ours[1]:,.0f} per action)")
    if theirs is None:
        print("pyspiel: skipped (open_spiel is not installed: pip install open_spiel)")
        return 0
    print(f"pyspiel: {theirs[0] / 1e6:7.3f} M instructions per game, {theirs[1]:.1f} actions per game"
          f" ({theirs[0] / theirs[1]:,.0f} per action)")
    print(f"ratio  : pyspiel / pachisi = {theirs[0] / ours[0]:.2f}x per game,"
          f" {(theirs[0] / theirs[1]) / (ours[0] / ours[1]):.2f}x per action")
    return 0


if __name__ == "__main__":
    sys.exit(main())
