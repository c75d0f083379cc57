//! Tunes an evaluator's weights against a fixed opponent by the cross-entropy method.
//!
//! `cargo run --release -p pachisi --example tune -- <variant> <generations> <population>
//! <deals> <seed> [<opponent spec>] [<start spec>]`
//!
//! A candidate is a set of evaluator weights, played as `greedy:<weights>` in seat 0 of a
//! tournament against the opponent (default `greedy`) in every other seat, seats rotated and dice
//! duplicated (`deals` deals, so `deals x seats` games). Every generation draws `population`
//! candidates from a normal distribution per weight (mean: the defaults, or the weights of the
//! optional start spec; spread: a third of each weight's size plus 0.3), plays them all on the
//! same deals (common random numbers: the seed of generation `g` is `game_seed(seed, g)`, so the
//! candidates of one generation meet the same dice and their differences are not the dice's),
//! and moves the mean and spread towards the best quarter (the elite), smoothed by half. The
//! current mean is played too, as the generation's reference. The run is reproducible from its
//! arguments (the games do not depend on the thread count).
//!
//! Noise: a candidate's score over `n` games has a standard error of about
//! `sqrt(p (1 - p) / n)` (0.9 points at 2000 games and p = 0.25), so the elite of one generation
//! is partly luck; the smoothing and the spread floor keep a lucky generation from collapsing
//! the search, and the last mean (not the last generation's winner) is the result. Check it
//! with a longer tournament on another seed (the `players` example).
//!
//! Example (Parcheesi, 20 generations of 12 candidates, 500 deals = 2000 games each):
//! `nice cargo run --release -p pachisi --example tune -- parcheesi 20 12 500 1`

#[path = "args.rs"]
mod args;
use pachisi::players::{PlayerSpec, features};
use pachisi::sim::game_seed;
use pachisi::tournament::{TournamentOptions, tournament};
use pachisi::{Game, Rules};
use std::time::Instant;

/// A small seeded generator (SplitMix64) for the candidates' normal draws.
struct Draws(u64);

impl Draws {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// Standard normal (Box-Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// The greedy spec of a weight vector.
fn spec_of(names: &[&str], w: &[f64]) -> String {
    let params: Vec<String> = names
        .iter()
        .zip(w)
        .map(|(n, x)| format!("{n}={}", (x * 1000.0).round() / 1000.0))
        .collect();
    format!("greedy:{}", params.join(","))
}

/// The candidate's share of the games per seat it holds, against `opponent` in the other seats.
fn score(
    rules: &Rules,
    candidate: &str,
    opponent: &str,
    seats: usize,
    deals: usize,
    seed: u64,
) -> Result<f64, pachisi::Error> {
    let mut lineup = vec![candidate];
    lineup.extend(std::iter::repeat_n(opponent, seats - 1));
    let result = tournament(rules, &TournamentOptions::new(&lineup, deals, seed))?;
    let canonical = candidate.parse::<PlayerSpec>()?.to_string();
    let s = result
        .standings
        .iter()
        .find(|s| s.player == canonical)
        .expect("the candidate plays");
    // A candidate equal to the opponent holds every seat: its share per seat is then fair.
    Ok(s.win_rate / s.seats as f64)
}

fn main() -> Result<(), pachisi::Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let variant = arg(0, "parcheesi");
    let generations = args::count(&args, 1, "generations", 20)?;
    let population = args::count(&args, 2, "population", 12)?;
    let deals = args::count(&args, 3, "deals", 500)?;
    let seed = args::number(&args, 4, "seed", 1)?;
    let opponent = arg(5, "greedy");
    let start: PlayerSpec = arg(6, "greedy").parse()?;
    if population < 4 {
        return Err(pachisi::Error::InvalidArgument(format!(
            "population must be at least 4, got {population}"
        )));
    }
    let rules: Rules = variant.parse()?; // a preset name or a rules JSON object
    let game = Game::new(&rules, 0);
    let seats = game.seats() as usize;
    let feats = features(&game);
    let names: Vec<&str> = feats.iter().map(|(f, _)| f.name).collect();
    let mut mean: Vec<f64> = feats
        .iter()
        .map(|(f, _)| {
            start
                .weights
                .iter()
                .find(|(k, _)| k == f.name)
                .map_or(f.weight, |(_, w)| *w)
        })
        .collect();
    let mut sd: Vec<f64> = mean.iter().map(|m| m.abs() / 3.0 + 0.3).collect();
    let floor: Vec<f64> = sd.iter().map(|s| s / 6.0).collect();
    let mut draws = Draws(seed ^ 0x7475_6e65);
    let elite = (population / 4).max(2);
    println!(
        "tuning {} weights of {variant} against {opponent}: {generations} generations of \
         {population} candidates, {deals} deals ({} games) each, seed {seed}",
        names.len(),
        deals * seats
    );
    let t = Instant::now();
    for g in 0..generations {
        let gen_seed = game_seed(seed, g as u64);
        // Every candidate of a generation plays the same deals (common random numbers).
        let score_of = |w: &[f64]| {
            score(
                &rules,
                &spec_of(&names, w),
                &opponent,
                seats,
                deals,
                gen_seed,
            )
        };
        let mut scored: Vec<(f64, Vec<f64>)> = Vec::new();
        for _ in 0..population {
            let w: Vec<f64> = mean
                .iter()
                .zip(&sd)
                .map(|(m, s)| m + s * draws.normal())
                .collect();
            scored.push((score_of(&w)?, w));
        }
        let reference = score_of(&mean)?;
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        for i in 0..mean.len() {
            let m: f64 = scored[..elite].iter().map(|(_, w)| w[i]).sum::<f64>() / elite as f64;
            let v: f64 = scored[..elite]
                .iter()
                .map(|(_, w)| (w[i] - m).powi(2))
                .sum::<f64>()
                / elite as f64;
            mean[i] = 0.5 * mean[i] + 0.5 * m;
            sd[i] = (0.5 * sd[i] + 0.5 * v.sqrt()).max(floor[i]);
        }
        println!(
            "gen {g:>3}: mean played {:.2}%, best {:.2}%, elite mean {:.2}% ({:.0} s) -> {}",
            100.0 * reference,
            100.0 * scored[0].0,
            100.0 * scored[..elite].iter().map(|x| x.0).sum::<f64>() / elite as f64,
            t.elapsed().as_secs_f64(),
            spec_of(&names, &mean)
        );
    }
    println!("result: {}", spec_of(&names, &mean));
    Ok(())
}
