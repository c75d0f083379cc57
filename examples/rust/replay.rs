//! Plays a seeded game with a fixed deterministic policy and prints every event, one per line.
//!
//! The same program exists for C (`tests/c/replay.c`) and Python (`tests/python/replay.py`);
//! `make test-cross` checks that the three print the same text for every preset, so a seed gives
//! the same game in Rust, C and Python.
//!
//! `cargo run -p pachisi --example replay -- [variant] [seed]` (no variant: every preset).
//! Policy: at the k-th decision (k = 0, 1, ...) with n legal plays, play number (7k + 3) mod n.

use pachisi::{Game, Node};

fn replay(variant: &str, seed: u64) -> Result<(), pachisi::Error> {
    let mut game = Game::from_preset(variant, seed)?;
    println!("game {variant} seed {seed}");
    let mut decisions = 0usize;
    while !game.is_over() && decisions < 5000 {
        match game.node() {
            Node::Chance => {
                let seat = game.to_move();
                let roll = game.roll()?;
                println!("roll {seat} {roll}");
            }
            Node::Decision => {
                let plays = game.legal_plays();
                let play = plays[(7 * decisions + 3) % plays.len()];
                println!("play {} {}", game.to_move(), game.format_play(&play));
                game.play(&play)?;
                decisions += 1;
            }
            Node::Over => {}
        }
    }
    let winner = game.winner().map_or("-".to_string(), |w| w.to_string());
    println!("end {winner} {}", game.position());
    Ok(())
}

fn main() -> Result<(), pachisi::Error> {
    let mut args = std::env::args().skip(1);
    let variant = args.next();
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(2026);
    match variant {
        Some(v) => replay(&v, seed)?,
        None => {
            for v in pachisi::variants() {
                replay(v, seed)?;
            }
        }
    }
    Ok(())
}
