"""Instructions per game of the Python random-play loop, pachisi against pyspiel, by callgrind.

``python benchmarks/loop_instructions.py [--games N]`` runs the two loops of
``python_bench.py`` section 1 (random backgammon games through ``pachisi`` and through
OpenSpiel's ``pyspiel``) under ``valgrind --tool=callgrind``, each once with no game and once
with N games, and prints the instructions per game (the difference over N) and their ratio.
Instruction counts do not depend on the machine's load, so the ratio is stable where the
games/s of ``python_bench.py`` are not (it stands for a time ratio only roughly: instructions per
cycle differ between the two). ``PYTHONHASHSEED=0`` keeps start-up identical between the runs, and
``OPENBLAS_NUM_THREADS=1`` keeps numpy's BLAS from starting threads whose spinning callgrind
would count (a few million instructions that vary from run to run).

``python benchmarks/loop_instructions.py --run pachisi|pyspiel N`` is one loop (what the
callgrind runs execute).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from typing import Optional, Tuple


def loop(which: str, games: int) -> int:
    """Plays `games` games of `which`'s loop (python_bench.py's section 1); returns decisions."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import python_bench

    run = python_bench.bench_pachisi_loop if which == "pachisi" else python_bench.bench_pyspiel_loop
    result = run(0.0, games_limit=games)
    assert result is not None, f"{which} is not installed"
    return int(result["decisions"])


def callgrind(which: str, games: int) -> Tuple[int, int]:
    """(instructions, decisions) of one run of `which` under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         __file__, "--run", which, str(games)],
        capture_output=True, text=True, env=env, check=True)
    m = re.search(r"Collected : (\d+)", out.stderr)
    if m is None:
        raise RuntimeError(f"no callgrind total in: {out.stderr[-500:]}")
    return int(m.group(1)), int(out.stdout.split()[-1])


def per_game(which: str, games: int) -> Optional[Tuple[float, float]]:
    """(instructions per game, decisions per game), or None when `which` is not installed."""
    try:
        __import__("pachisi" if which == "pachisi" else "pyspiel")
    except ImportError:
        return None
    base, _ = callgrind(which, 0)
    total, decisions = callgrind(which, games)
    return (total - base) / games, decisions / games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--run", nargs=2, metavar=("LOOP", "GAMES"))
    args = ap.parse_args()
    if args.run:
        print(loop(args.run[0], int(args.run[1])))
        return 0
    ours = per_game("pachisi", args.games)
    theirs = per_game("pyspiel", args.games)
    assert ours is not None
    print(f"pachisi: {ours[0] / 1e6:7.3f} M instructions per game, {ours[1]:.1f} decisions per game")
    if theirs is None:
        print("pyspiel: skipped (open_spiel is not installed: pip install open_spiel)")
        return 0
    print(f"pyspiel: {theirs[0] / 1e6:7.3f} M instructions per game, {theirs[1]:.1f} decisions per game")
    print(f"ratio  : pyspiel / pachisi = {theirs[0] / ours[0]:.2f}x per game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
