#!/usr/bin/env python3
"""Cross-check pachisi's backgammon move generator against GNU Backgammon.

For each position and roll, the SET of resulting positions of our legal plays (printed by the
Rust example `bg_moves`) must equal the set GNU Backgammon generates (the `gnubg` Python
bindings from PyPI: `find_best_moves` lists every legal move, one per resulting position).
The bindings cut a move tuple short at its first bearing-off step, so for plays that bear off
only the number of distinct plays is compared; every other play is compared by its result, and
its notation with gnubg's own `move_tuple_to_string` (reported, not counted as a disagreement).

Positions come from random games played with GNU Backgammon's own move lists (so our engine
plays no part in choosing them) and from synthetic positions weighted to bear-offs, primes and
blocks, and checkers on the bar. Every position is checked with all 21 rolls.

With --openspiel-games N, every turn of N random OpenSpiel games is compared too: OpenSpiel's
set of resulting positions (its two half-turns of a doubles roll composed; its "pass" when
nothing can be played read as no play) against ours. OpenSpiel covers bearing off completely.

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


def openspiel_board(state, mover):
    """(opponent, mover) in gnubg's layout from an OpenSpiel backgammon state."""
    text = str(state)
    bar_line = next(l for l in text.splitlines() if l.startswith("Bar:"))
    bars = {"x": bar_line.count("x"), "o": bar_line.count("o")}
    sides = []
    for player in (1 - mover, mover):
        counts = [0] * 25
        for pos in range(24):
            n = state.board(player, pos)
            # Player 0 (x) runs from position 0 to 23, player 1 (o) from 23 down to 0.
            index = 23 - pos if player == 0 else pos
            counts[index] = n
        counts[24] = bars["x" if player == 0 else "o"]
        sides.append(tuple(counts))
    return (sides[0], sides[1])


def openspiel_compare(moves_binary, n_games, rng):
    """Random OpenSpiel games: at every turn, OpenSpiel's set of resulting positions (both halves
    of a doubles turn composed) against ours. Returns (turns compared, disagreements)."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    queries = []  # (position id, dice, OpenSpiel results)
    for _ in range(n_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            mover = state.current_player()
            text = str(state)
            dice_text = next(l for l in text.splitlines() if l.startswith("Dice:"))[5:].strip()
            dice = (int(dice_text[0]), int(dice_text[1]))
            extra = "Extra turn: 1" in text
            if not extra:
                before = openspiel_board(state, mover)
                results = set()
                for a in state.legal_actions():
                    child = state.child(a)
                    if dice[0] == dice[1] and not child.is_terminal() \
                            and child.current_player() == mover and not child.is_chance_node():
                        for b in child.legal_actions():
                            results.add(gnubg.position_id(openspiel_board(child.child(b), mover)))
                    else:
                        results.add(gnubg.position_id(openspiel_board(child, mover)))
                queries.append((gnubg.position_id(before), dice, sorted(results)))
            state.apply_action(rng.choice(state.legal_actions()))
    text = "".join(f"{pid} {d[0]} {d[1]}\n" for pid, d, _ in queries)
    ours = subprocess.run(
        [moves_binary], input=text, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    disagreements = []
    for (pid, dice, theirs), line in zip(queries, ours):
        mine = [] if line == "-" else line.split()
        before = gnubg.position_from_id(pid)
        # OpenSpiel lists a "pass" (the position unchanged) when nothing can be played.
        if theirs == [pid] and pid not in mine:
            theirs = []
        if mine != theirs:
            disagreements.append((pid, dice, mine, theirs))
    return len(queries), disagreements


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", required=True, help="path of the bg_moves example binary")
    ap.add_argument("--positions", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--openspiel-games", type=int, default=0,
                    help="also compare every turn of this many random OpenSpiel games")
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
        [args.moves, "--notation"], input=text, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(ours) == len(queries), "bg_moves answered a different number of lines"

    disagreements = []
    notation_diffs = []
    plays = 0
    written = 0
    for (pid, board, dice), line in zip(queries, ours):
        if line.startswith("error"):
            disagreements.append((pid, dice, "engine error: " + line, []))
            continue
        pairs = [] if line == "-" else [x.split("=", 1) for x in line.split()]
        mine = [p for p, _ in pairs]
        notation = {p: n.replace("_", " ") for p, n in pairs}
        count, theirs = gnubg_results(board, dice)
        for m in moves_of(board, dice):
            if len(m) % 2 == 0:
                pid_after = gnubg.position_id(apply_move(board, m))
                want = gnubg.move_tuple_to_string(m, board)
                written += 1
                if notation.get(pid_after) != want:
                    notation_diffs.append((pid, dice, notation.get(pid_after), want))
        plays += count
        on_board = sum(board[1])
        mine_no_off = [r for r in mine if sum(gnubg.position_from_id(r)[1]) == on_board]
        if len(mine) != count or mine_no_off != theirs:
            disagreements.append((pid, dice, mine, theirs))

    elapsed = time.time() - t0
    print(
        f"positions: {len(boards)} ({n_game} from random games, "
        f"{len(boards) - n_game} synthetic), rolls each: 21, comparisons: {len(queries)}, "
        f"gnubg plays: {plays}, disagreements: {len(disagreements)}, "
        f"notations compared: {written}, notation differences: {len(notation_diffs)}, "
        f"seconds: {elapsed:.1f}"
    )
    for pid, dice, mine_text, want in notation_diffs[:10]:
        print(f"  notation {pid} {dice}: ours {mine_text!r} gnubg {want!r}")
    os_diff = []
    if args.openspiel_games:
        t1 = time.time()
        turns, os_diff = openspiel_compare(args.moves, args.openspiel_games, rng)
        print(
            f"openspiel: games: {args.openspiel_games}, turns compared: {turns}, "
            f"disagreements: {len(os_diff)}, seconds: {time.time() - t1:.1f}"
        )
        for pid, dice, mine, theirs in os_diff[:10]:
            print(f"  openspiel {pid} {dice}: ours {mine} openspiel {theirs}")
    for pid, dice, mine, theirs in disagreements[:20]:
        print(f"  {pid} {dice}: ours {mine} gnubg {theirs}")
    return 0 if not disagreements and not os_diff else 1


if __name__ == "__main__":
    sys.exit(main())
