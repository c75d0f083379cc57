//! Quick start: create a game, roll, list the legal plays, play one, undo, and play to the end.
//!
//! `cargo run -p pachisi --example quickstart [variant] [seed]`

#[path = "args.rs"]
mod args;
use pachisi::{Game, Node, Rules};

fn main() -> Result<(), pachisi::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().cloned().unwrap_or_else(|| "parcheesi".into());
    let seed = args::number(&args, 1, "seed", 7)?;

    let rules = Rules::preset(&variant)?;
    println!("{} options: {}", rules.variant(), rules.to_json());
    let mut game = Game::new(&rules, seed);
    println!("start: {}", game.position());

    let mut moves = 0;
    while !game.is_over() {
        match game.node() {
            Node::Chance => {
                let seat = game.to_move();
                let roll = game.roll()?;
                println!("seat {seat} rolls {roll}");
            }
            Node::Decision => {
                let plays = game.legal_plays();
                // A simple policy: the play that captures most, the last listed of equals
                // (`max_by_key` keeps the last maximum; the first play, in Classic Pachisi often a
                // pass, could leave a game going until `max_rolls`).
                let best = plays
                    .iter()
                    .max_by_key(|p| p.captures())
                    .copied()
                    .unwrap_or(plays[0]);
                println!(
                    "  {} of {} plays: {}",
                    game.to_move(),
                    plays.len(),
                    game.format_play(&best)
                );
                game.play(&best)?;
                moves += 1;
            }
            Node::Over => break,
        }
    }
    println!(
        "after {moves} plays: winner seat {:?}, returns {:?}",
        game.winner(),
        game.returns()
    );
    println!("final: {}", game.position());
    game.undo()?;
    println!("undo -> {}", game.position());
    Ok(())
}
