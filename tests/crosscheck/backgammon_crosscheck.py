#!/usr/bin/env python3
"""Cross-check pachisi's backgammon move generator against GNU Backgammon.

For each position and roll, the SET of resulting positions of our legal plays (printed by the
Rust example `bg_moves`) must equal the set GNU Backgammon generates (the `gnubg` Python
bindings from PyPI: `find_best_moves` lists every legal move, one per resulting position).
The bindings cut a move tuple short at its first bearing-off step, so for plays that bear off
only the number of distinct plays is compared; every other play is compared by its result.

Positions come from random games played with GNU Backgammon's own move lists (so our engine
plays no part in choosing them) and from synthetic positions weighted to bear-offs, primes and
blocks, and checkers on the bar. Every position is checked with all 21 rolls.

Usage: backgammon_crosscheck.py --moves target/release/examples/bg_moves [--positions N] [--seed S]
Exit status 0 when every comparison agrees, 1 otherwise.

Board convention (gnubg's): a board is (opponent, player on roll), each a list of 25 counts,
index 0..23 = that side's points 1..24, index 24 = its bar.
"""

import argparse
import random
import subprocess
import sys
import time

import gnubg

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def moves_of(board, dice):
    """gnubg's legal moves (tuples of 1-based from/to pairs, 25 bar, 0 off)."""
    found = gnubg.find_best_moves(board, gnubg.cube_info(), gnubg.eval_context(), dice)
    return [m["move"] for m in found if m["move"]]


def apply_move(board, move):
    """The board after `move` by the player on roll (not turned round)."""
    opp, me = list(board[0]), list(board[1])
    for i in range(0, len(move), 2):
        if i + 1 >= len(move):
            raise ValueError(f"odd move tuple {move}")
        src, dst = move[i], move[i + 1]
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            o = 24 - dst  # the opponent's index of our point dst
            if opp[o] == 1:
                opp[o] = 0
                opp[24] += 1
            assert opp[o] == 0, "gnubg landed on a closed point?"
    return (tuple(opp), tuple(me))


def gnubg_results(board, dice):
    """(number of distinct moves, sorted results of the moves that bear nothing off).

    The bindings end a move tuple at its first bearing-off step (GNU Backgammon's internal "off"
    is also its end marker), so moves that bear off are counted but cannot be rebuilt.
    """
    moves = moves_of(board, dice)
    full = {gnubg.position_id(apply_move(board, m)) for m in moves if len(m) % 2 == 0}
    return len(moves), sorted(full)


def flip(board):
    return (board[1], board[0])


def random_game_positions(rng, n_games, per_game_cap):
    """Positions met in games where each side picks uniformly among gnubg's legal moves."""
    start = gnubg.position_from_id("4HPwATDgc/ABMA")
    out = []
    for _ in range(n_games):
        board = start
        taken = 0
        for _turn in range(400):
            dice = rng.choice([(a, b) for a in range(1, 7) for b in range(1, 7)])
            if taken < per_game_cap and rng.random() < 0.5:
                out.append(board)
                taken += 1
            all_moves = moves_of(board, dice)
            moves = [m for m in all_moves if len(m) % 2 == 0]
            if all_moves and not moves:
                break  # only bearing-off moves, which the bindings cut short
            if moves:
                board = apply_move(board, rng.choice(moves))
            if sum(board[1]) == 0:
                break
            board = flip(board)
    return out


def scatter(rng, counts, points, n):
    for _ in range(n):
        counts[rng.choice(points)] += 1


def synthetic_position(rng):
    """A random legal position weighted to bear-offs, primes and blocks, and the bar."""
    kind = rng.choice(["bearoff", "bearoff", "prime", "bar", "bar", "mixed"])
    me = [0] * 25
    opp = [0] * 25
    if kind == "bearoff":
        n_me = rng.randint(1, 15)
        scatter(rng, me, list(range(0, 6)), n_me)
        # The opponent may hold points in our home board (its 19..24) and stray checkers.
        n_opp = 15
        closed = rng.sample(range(0, 6), rng.randint(0, 3))
        for p in closed:
            if me[p] == 0:
                opp[23 - p] += 2
                n_opp -= 2
        if rng.random() < 0.3:
            opp[24] += 1
            n_opp -= 1
        scatter(rng, opp, list(range(0, 12)), rng.randint(0, n_opp))
    elif kind == "prime":
        start = rng.randint(1, 16)
        length = rng.randint(3, 6)
        for p in range(start, min(start + length, 23)):
            opp[23 - p] = 2
        n_opp = 15 - sum(opp)
        scatter(rng, opp, list(range(0, 6)), n_opp)
        n_me = rng.randint(5, 15)
        free = [p for p in range(0, 24) if opp[23 - p] == 0]
        scatter(rng, me, free, n_me)
    elif kind == "bar":
        me[24] = rng.randint(1, 4)
        home = rng.sample(range(18, 24), rng.randint(2, 6))
        for p in home:
            opp[23 - p] = 2
        n_opp = 15 - sum(opp)
        scatter(rng, opp, list(range(0, 12)), rng.randint(0, n_opp))
        free = [p for p in range(0, 24) if opp[23 - p] == 0]
        scatter(rng, me, free, rng.randint(0, 15 - me[24]))
    else:
        free_me = list(range(0, 25))
        scatter(rng, me, free_me, rng.randint(1, 15))
        free = [p for p in range(0, 25) if p == 24 or me[23 - p] == 0]
        scatter(rng, opp, free, rng.randint(1, 15))
    # Both sides on one point is impossible: drop our checkers where the opponent stands.
    for p in range(24):
        if me[p] and opp[23 - p]:
            me[p] = 0
    if sum(me) == 0 or sum(opp) == 0:
        return None  # a side with every checker off has already won
    return (tuple(opp), tuple(me))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", required=True, help="path of the bg_moves example binary")
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()

    n_game = args.positions // 2
    boards = random_game_positions(rng, n_games=max(1, n_game // 20), per_game_cap=20)[:n_game]
    while len(boards) < args.positions:
        b = synthetic_position(rng)
        if b is not None:
            boards.append(b)
    ids = [gnubg.position_id(b) for b in boards]

    queries = [(pid, b, d) for pid, b in zip(ids, boards) for d in ROLLS]
    text = "".join(f"{pid} {d[0]} {d[1]}\n" for pid, _, d in queries)
    ours = subprocess.run(
        [args.moves], input=text, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(ours) == len(queries), "bg_moves answered a different number of lines"

    disagreements = []
    plays = 0
    for (pid, board, dice), line in zip(queries, ours):
        if line.startswith("error"):
            disagreements.append((pid, dice, "engine error: " + line, []))
            continue
        mine = [] if line == "-" else line.split()
        count, theirs = gnubg_results(board, dice)
        plays += count
        on_board = sum(board[1])
        mine_no_off = [r for r in mine if sum(gnubg.position_from_id(r)[1]) == on_board]
        if len(mine) != count or mine_no_off != theirs:
            disagreements.append((pid, dice, mine, theirs))

    elapsed = time.time() - t0
    print(
        f"positions: {len(boards)} ({n_game} from random games, "
        f"{len(boards) - n_game} synthetic), rolls each: 21, comparisons: {len(queries)}, "
        f"gnubg plays: {plays}, disagreements: {len(disagreements)}, seconds: {elapsed:.1f}"
    )
    for pid, dice, mine, theirs in disagreements[:20]:
        print(f"  {pid} {dice}: ours {mine} gnubg {theirs}")
    return 0 if not disagreements else 1


if __name__ == "__main__":
    sys.exit(main())
