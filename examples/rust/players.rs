//! A tournament between players: win rates with 95% intervals, ratings and decisions per second.
//!
//! `cargo run --release -p pachisi --example players -- <variant> <deals> <seed> <spec>...`
//! with one player spec per seat (seats are rotated, dice duplicated), e.g.
//! `... players -- parcheesi 500 1 greedy random random random` or
//! `... players -- backgammon 1000 1 'expectimax:depth=2' greedy`. A variant may carry options
//! as JSON: `'{"variant": "parcheesi", "seats": 2}'`.

#[path = "args.rs"]
mod args;
use pachisi::Rules;
use pachisi::tournament::{TournamentOptions, tournament};
use std::time::Instant;

fn main() -> Result<(), pachisi::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map(String::as_str).unwrap_or("backgammon");
    let deals = args::count(&args, 1, "deals", 100)?;
    let seed = args::number(&args, 2, "seed", 1)?;
    let rules: Rules = variant.parse()?; // a preset name or a rules JSON object
    let lineup: Vec<&str> = match args.get(3..) {
        Some(specs) if !specs.is_empty() => specs.iter().map(String::as_str).collect(),
        _ => vec!["greedy", "random"],
    };
    let t = Instant::now();
    let result = tournament(&rules, &TournamentOptions::new(&lineup, deals, seed))?;
    print!("{}", result.summary());
    println!(
        "{} rules, seed {seed}, {:.1} s on all cores",
        rules.to_json(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
