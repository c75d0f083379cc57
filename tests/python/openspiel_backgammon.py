"""pachisi's `openspiel` backgammon encoding against OpenSpiel's own backgammon, action by action.

Random games are played in `pyspiel.load_game("backgammon")`; every chance outcome is given to
a pachisi `RlGame("backgammon", "openspiel", cube=False)` too, and at every decision the sorted
legal action ids of both must be equal; the action OpenSpiel's random player picks is then
applied to both. At the end both must agree on the winner.

    python tests/python/openspiel_backgammon.py --games 1000 --seed 0
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import List, Tuple

import pyspiel  # type: ignore[import-not-found]

import pachisi

# OpenSpiel's chance outcomes (games/backgammon/backgammon.cc, kChanceOutcomeValues).
_OUTCOMES = [(a, b) for lo in range(1, 7) for hi in range(lo + 1, 7) for a, b in ((lo, hi), (hi, lo))]
_OUTCOMES += [(d, d) for d in range(1, 7)]


def compare_games(n_games: int, seed: int = 0) -> Tuple[int, int, List[str]]:
    """(games, decisions compared, mismatch descriptions)."""
    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    decisions = 0
    mismatches: List[str] = []
    for gi in range(n_games):
        st = game.new_initial_state()
        ours = pachisi.RlGame("backgammon", "openspiel", 0, False, cube=False)
        opening = True
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                a = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                d0, d1 = _OUTCOMES[a]
                if opening:
                    # Even ids: X (seat 0) starts; pachisi's opening roll is (seat 0's die, seat 1's).
                    hi, lo = max(d0, d1), min(d0, d1)
                    ours.apply_roll((hi, lo) if a % 2 == 0 else (lo, hi))
                    opening = False
                else:
                    ours.apply_roll((d0, d1))
                st.apply_action(a)
                continue
            decisions += 1
            theirs = sorted(st.legal_actions())
            mine = ours.legal_actions()
            if ours.current_player() != st.current_player() or theirs != mine:
                only_theirs = sorted(set(theirs) - set(mine))
                only_mine = sorted(set(mine) - set(theirs))
                mismatches.append(
                    f"game {gi} decision {decisions}: player {st.current_player()} vs "
                    f"{ours.current_player()}; only OpenSpiel "
                    f"{[st.action_to_string(a) for a in only_theirs][:4]}, only pachisi "
                    f"{[ours.action_to_string(a) for a in only_mine][:4]}; position {ours.position()}"
                )
                break
            a = rng.choice(theirs)
            st.apply_action(a)
            ours.apply_action(a)
        else:
            if not ours.is_over():
                mismatches.append(f"game {gi}: OpenSpiel's game ended, pachisi's did not")
            elif [r > 0 for r in st.returns()] != [r > 0 for r in ours.returns()]:
                mismatches.append(f"game {gi}: winners differ {st.returns()} {ours.returns()}")
    return n_games, decisions, mismatches


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t = time.time()
    games, decisions, bad = compare_games(args.games, args.seed)
    print(
        f"backgammon openspiel encoding: {games} games, {decisions} decisions compared, "
        f"{len(bad)} games disagreeing, {time.time() - t:.1f} s"
    )
    for line in bad[:20]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
