//! Simulates random-policy games and prints per-seat win rates with 95% intervals.
//!
//! `cargo run --release -p pachisi --example simulate -- [variant] [games] [seed] [threads] [options-json]`
//! e.g. `... simulate -- parcheesi 100000 1 1 '{"seats": 2}'` (threads 0: every core)

#[path = "args.rs"]
mod args;
use pachisi::{Game, Registered, RuleSystem, Rules, SystemVisitor, sim};
use std::time::Instant;

fn main() -> Result<(), pachisi::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map(String::as_str).unwrap_or("parcheesi");
    let games = args::count(&args, 1, "games", 20_000)?;
    let seed = args::number(&args, 2, "seed", 1)?;
    // 0 threads: every core, as no count.
    let threads = args::optional(&args, 3, "threads")?
        .filter(|&n| n > 0)
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let options: serde_json::Value = match args.get(4) {
        Some(text) => {
            serde_json::from_str(text).map_err(|e| pachisi::Error::InvalidJson(e.to_string()))?
        }
        None => serde_json::json!({}),
    };
    let rules = Rules::with_options(variant, &options)?;
    let seats = Game::new(&rules, 0).seats();

    let t = Instant::now();
    let records = sim::simulate(&rules, games, seed, threads)?;
    let secs = t.elapsed().as_secs_f64();
    let s = sim::summarize(&records, seats);
    let total_rolls: u64 = records.iter().map(|r| r.rolls as u64).sum();

    println!(
        "{} {} — {} games, seed {seed}",
        rules.variant(),
        rules.to_json(),
        s.games
    );
    println!("seat  win rate   95% CI");
    for seat in 0..seats as usize {
        let (lo, hi) = s.win_rate_ci[seat];
        println!("{seat:>4}  {:>7.4}   [{lo:.4}, {hi:.4}]", s.win_rate[seat]);
    }
    println!(
        "rolls: mean {:.1}, median {:.1}; captures: mean {:.2}; unfinished: {}",
        s.mean_rolls, s.median_rolls, s.mean_captures, s.unfinished
    );
    // A digest of every game's record: equal digests for one preset, seed and game count mean
    // the same games (the check that a faster generator lists the same plays in the same order).
    let digest = records.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, r| {
        [
            r.winners as u64,
            r.winner as u64,
            r.points as u64,
            r.rolls as u64,
            r.captures as u64,
        ]
        .iter()
        .fold(h, |h, &v| (h ^ v).wrapping_mul(0x0100_0000_01b3))
    });
    println!("total rolls: {total_rolls}; records digest: {digest:016x}");
    println!(
        "state: {} bytes, play: {} bytes",
        state_size(&rules),
        std::mem::size_of::<pachisi::Play>()
    );
    println!(
        "time {secs:.3} s on {} thread(s): {:.0} games/s, {:.0} rolls/s",
        threads.map_or_else(|| rayon_threads().to_string(), |n| n.to_string()),
        games as f64 / secs,
        total_rolls as f64 / secs
    );
    Ok(())
}

/// Size of the rule system's position type.
fn state_size(rules: &Rules) -> usize {
    struct Size;
    impl SystemVisitor for Size {
        type Output = usize;
        fn visit<T: Registered>(self, _: &T) -> usize {
            std::mem::size_of::<<T::System as RuleSystem>::State>()
        }
    }
    rules.config().visit(Size)
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
