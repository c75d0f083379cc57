"""The Python twin of examples/rust/replay.rs: a seeded game with a fixed policy, every event
printed one per line. `make test-cross` compares its output with the Rust and C programs'.

Usage: python tests/cross/replay.py [variant] [seed]   (no variant: every preset)
Policy: at the k-th decision with n legal plays, play number (7k + 3) mod n.
"""

import sys

import pachisi


def roll_text(roll: object) -> str:
    if isinstance(roll, tuple):
        return f"{roll[0]}-{roll[1]}"
    return f"{roll} up"


def replay(variant: str, seed: int) -> None:
    game = pachisi.Game(variant, seed=seed)
    print(f"game {variant} seed {seed}")
    decisions = 0
    while not game.is_over and decisions < 5000:
        if game.is_chance_node():
            seat = game.to_move
            print(f"roll {seat} {roll_text(game.roll())}")
        else:
            plays = game.legal_plays()
            play = plays[(7 * decisions + 3) % len(plays)]
            print(f"play {game.to_move} {play}")
            game.play(play)
            decisions += 1
    winner = "-" if game.winner is None else str(game.winner)
    print(f"end {winner} {game.position}")


def main() -> None:
    variant = sys.argv[1] if len(sys.argv) > 1 else None
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    for v in [variant] if variant else pachisi.variants():
        replay(v, seed)


if __name__ == "__main__":
    main()
