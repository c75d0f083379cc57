//! Writes perft-like data for one preset from its rule system's reference generator: chance-node
//! positions of seeded random games, every roll of each, and the number of distinct legal plays
//! (one per resulting position) the reference finds. The files in `tests/perft/` were written by
//! this program (the commands are in `tests/perft/README.md`), and `core/tests/perft.rs`
//! checks the fast generators against them; another implementation can read them too.
//!
//! ```text
//! cargo run --release -p pachisi --example write_perft -- <variant> <positions> <seed> [options-json]
//! ```
//!
//! One JSON object per line: first `{"rules": {...}, "command": "..."}` (the rules of every record
//! and the command that wrote the file), then `{"position": "...", "rolls": [...], "plays": [...]}` per
//! position: every roll of the chance node and, for each, the number of distinct plays; 0 when the roll is resolved without a choice (a forfeit, a
//! penalty).

use pachisi::{Game, Node, Rules};
use rand::RngExt;
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: write_perft <variant> <positions> <seed> [options-json]");
        std::process::exit(2);
    }
    let options: serde_json::Value = match args.get(3) {
        Some(text) => serde_json::from_str(text).expect("options JSON"),
        None => json!({}),
    };
    let rules = Rules::with_options(&args[0], &options).expect("rules");
    let positions: usize = args[1].parse().expect("positions");
    let seed: u64 = args[2].parse().expect("seed");
    let command = format!(
        "cargo run --release -p pachisi --example write_perft -- {}",
        args.iter()
            .map(|a| if a.contains(' ') || a.contains('"') {
                format!("'{a}'")
            } else {
                a.clone()
            })
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!("{}", json!({"rules": rules.to_value(), "command": command}));
    let mut rng = pachisi::dice::rng_from_seed(seed);
    let mut written = 0;
    let mut game_seed = seed;
    // About one chance node in 25, at most four per game, so the positions spread over many games
    // and every stage of a game.
    while written < positions {
        let mut game = Game::new(&rules, game_seed);
        game_seed += 1;
        let mut moves = 0;
        let mut taken = 0;
        while !game.is_over() && written < positions && moves < 5_000 {
            moves += 1;
            if game.is_chance_node() {
                if taken < 4 && rng.random_range(0..25) == 0 {
                    taken += 1;
                    let mut rolls = Vec::new();
                    let mut counts = Vec::new();
                    for outcome in game.chance_outcomes() {
                        let mut at = game.clone();
                        at.set_roll(outcome.roll).expect("a listed roll");
                        // 0: the roll is resolved without a choice (a forfeit, a penalty).
                        counts.push(if at.node() == Node::Decision {
                            at.reference_plays().len()
                        } else {
                            0
                        });
                        rolls.push(outcome.roll);
                    }
                    println!(
                        "{}",
                        json!({"position": game.position(), "rolls": rolls, "plays": counts})
                    );
                    written += 1;
                }
                game.roll().expect("roll");
            } else {
                let plays = game.legal_plays();
                let pick = rng.random_range(0..plays.len());
                game.play(&plays[pick]).expect("a listed play");
            }
        }
    }
}
