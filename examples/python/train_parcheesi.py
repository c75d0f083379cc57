"""A masked policy-gradient (REINFORCE) agent on 2-seat Parcheesi against `random`, in numpy.

The agent sees pachisi's observation vector and chooses among the legal `step` ids (a linear
softmax policy restricted to the legal ids, i.e. masked); the opponent is pachisi's `random`
player. After each batch of games it prints the win rate, the learning curve; with --plot it
also draws it.

    python examples/python/train_parcheesi.py                  # short run
    python examples/python/train_parcheesi.py --batches 200 --plot out/curve.png
"""

from __future__ import annotations

import argparse
from typing import List, Tuple

import numpy as np

import pachisi


def play_game(
    w: np.ndarray, rng: np.random.Generator, seed: int
) -> Tuple[float, List[Tuple[np.ndarray, np.ndarray, int]]]:
    """One game as seat 0: (return, [(observation, legal ids, index chosen), ...])."""
    g = pachisi.RlGame("parcheesi", "step", seed, True, seats=2)
    g.set_opponents([None, "random"], seed)
    trace = []
    while not g.is_over() and g.decisions < 5000:
        if g.current_player() != 0:
            g.play_opponent()
            continue
        obs, legal = g.observation(0), np.asarray(g.legal_actions())
        # Only the legal ids' rows matter: the others have probability 0.
        logits = w[legal] @ obs
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = int(rng.choice(len(p), p=p))
        trace.append((obs, legal, i))
        g.apply_action(int(legal[i]))
    return (g.returns()[0] if g.is_over() else 0.0), trace


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batches", type=int, default=12)
    ap.add_argument("--games", type=int, default=16, help="games per batch")
    ap.add_argument("--lr", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", help="write the learning curve to this PNG (needs matplotlib)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    probe = pachisi.RlGame("parcheesi", "step", 0, True, seats=2)
    w = np.zeros((probe.num_actions, probe.observation_size))
    baseline, curve, game = 0.0, [], 0
    for b in range(args.batches):
        grad = np.zeros_like(w)
        wins = 0
        for _ in range(args.games):
            ret, trace = play_game(w, rng, args.seed * 1_000_003 + game)
            game += 1
            wins += ret > 0
            adv = ret - baseline
            baseline += 0.05 * (ret - baseline)
            for obs, legal, i in trace:
                logits = w[legal] @ obs
                p = np.exp(logits - logits.max())
                p /= p.sum()
                g = -p
                g[i] += 1.0
                grad[legal] += adv * np.outer(g, obs) / max(len(trace), 1)
        w += args.lr * grad / args.games
        curve.append(wins / args.games)
        print(f"batch {b + 1:3d}: win rate vs random {wins / args.games:.2f}", flush=True)
    print(f"first half {np.mean(curve[: len(curve) // 2]):.3f}, "
          f"second half {np.mean(curve[len(curve) // 2 :]):.3f}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        plt.plot(np.arange(1, len(curve) + 1), curve)
        plt.xlabel("batch")
        plt.ylabel("win rate vs random")
        plt.title("REINFORCE on 2-seat Parcheesi (pachisi step encoding)")
        plt.savefig(args.plot)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
