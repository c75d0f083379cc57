//! How fast the players decide, on one core: greedy decisions per second, the time of one
//! expectimax decision, and MCTS simulated plays per second, at mid-game positions.
//!
//! `cargo run --release -p pachisi --example player_speed -- [variant] [positions] [seed]`
//! (default `parcheesi 200 1`). The positions are the decisions (two or more legal plays) from
//! the 20th to the 200th roll of games played by four greedy players, `positions` of them
//! spread over as many games as needed. Everything runs on the calling thread.
//!
//! Rates are per second of the thread's CPU time (Linux: `/proc/thread-self/schedstat`), so a
//! machine shared with other work still measures one core's speed; where that file is missing
//! the wall clock is used (the output says which).

#[path = "args.rs"]
mod args;
use pachisi::players::{self, mcts_report};
use pachisi::{Game, Node, Rules};
use std::time::Instant;

/// Decisions with two or more legal plays from mid-game positions of greedy games.
fn mid_game_positions(rules: &Rules, count: usize, seed: u64) -> Result<Vec<Game>, pachisi::Error> {
    let mut out = Vec::new();
    let mut game_seed = seed;
    while out.len() < count {
        let mut game = Game::new(rules, game_seed);
        let mut player = players::from_spec_seeded("greedy", game_seed)?;
        game_seed += 1;
        let mut taken = 0;
        while game.node() != Node::Over && taken < 10 && out.len() < count {
            if game.node() == Node::Chance {
                game.roll()?;
                continue;
            }
            let plays = game.legal_plays();
            if (20..=200).contains(&game.rolls()) && plays.len() >= 2 && game.rolls() % 7 == 0 {
                out.push(game.clone());
                taken += 1;
            }
            let i = player.choose(&game)?;
            game.play(&plays[i])?;
        }
    }
    Ok(out)
}

/// Seconds this thread has run on a CPU (Linux), or `None` where that is not known.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// A clock: the thread's CPU time where known, else the wall clock.
struct Clock {
    wall: Instant,
    cpu: Option<f64>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_seconds(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.cpu, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Runs `f` over the positions in turn until `seconds` have passed (at least one round);
/// returns the calls made and the seconds taken.
fn timed(positions: &[Game], seconds: f64, mut f: impl FnMut(&Game)) -> (u64, f64) {
    let t = Clock::start();
    let mut calls = 0u64;
    loop {
        for g in positions {
            f(g);
            calls += 1;
        }
        if t.seconds() >= seconds {
            return (calls, t.seconds());
        }
    }
}

fn main() -> Result<(), pachisi::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map(String::as_str).unwrap_or("parcheesi");
    let count = args::count(&args, 1, "count", 200)?;
    let seed = args::number(&args, 2, "seed", 1)?;
    let rules: Rules = variant.parse()?; // a preset name or a rules JSON object
    let positions = mid_game_positions(&rules, count, seed)?;
    let mean_plays = positions
        .iter()
        .map(|g| g.legal_plays().len())
        .sum::<usize>() as f64
        / positions.len() as f64;
    println!(
        "{variant}: {} mid-game decisions, {mean_plays:.1} legal plays on average, one thread, \
         rates per second of {}",
        positions.len(),
        if thread_cpu_seconds().is_some() {
            "CPU time"
        } else {
            "wall clock"
        }
    );

    // Greedy: whole decisions through the public API (legal plays listed, each applied and
    // evaluated).
    let mut greedy = players::from_spec_seeded("greedy", 1)?;
    let (n, secs) = timed(&positions, 2.0, |g| {
        greedy.choose(g).unwrap();
    });
    println!(
        "greedy                 {:>12.0} decisions/s",
        n as f64 / secs
    );

    // Expectimax: the mean time of a decision (CPU time over all positions) and the spread of
    // single decisions (wall clock: the CPU clock's ticks are too coarse for one decision).
    for spec in ["expectimax:depth=2", "expectimax:depth=2,mode=paranoid"] {
        let mut p = players::from_spec_seeded(spec, 1)?;
        let total = Clock::start();
        let mut ms: Vec<f64> = positions
            .iter()
            .map(|g| {
                let t = Instant::now();
                p.choose(g).unwrap();
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let mean = total.seconds() * 1e3 / positions.len() as f64;
        ms.sort_by(f64::total_cmp);
        println!(
            "{spec:<34} mean {mean:.2} ms per decision; wall clock: median {:.2} ms, \
             95th percentile {:.2} ms, max {:.2} ms",
            ms[ms.len() / 2],
            ms[(ms.len() * 95 / 100).min(ms.len() - 1)],
            ms[ms.len() - 1]
        );
    }

    // MCTS: simulated plays (tree edges walked plus playout plays) per second.
    // Playouts to the end of a game are long (hundreds of plays with random players), so those
    // specs run fewer iterations at fewer positions.
    for (spec, at) in [
        ("mcts:iterations=2000", 50),
        ("mcts:iterations=100,leaf=random", 10),
        ("mcts:iterations=100,leaf=random,prior=0", 10),
        ("mcts:iterations=100,leaf=greedy,playout_depth=8", 10),
    ] {
        let mut simulated = 0u64;
        let mut iterations = 0u64;
        let (_, secs) = timed(&positions[..positions.len().min(at)], 1.0, |g| {
            let r = mcts_report(g, spec, 1).unwrap();
            simulated += r.simulated_plays;
            iterations += r.iterations;
        });
        println!(
            "{spec:<40} {:>10.0} simulated plays/s, {:>9.0} iterations/s",
            simulated as f64 / secs,
            iterations as f64 / secs
        );
    }
    Ok(())
}
