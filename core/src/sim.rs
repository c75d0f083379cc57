//! Random-policy simulation: many seeded games, in parallel, reproducible whatever the thread count.

use crate::Result;
use crate::dice::{GameRng, rng_from_seed};
use crate::play::{Play, PlayList, Step};
use crate::registry::{Registered, SystemVisitor};
use crate::rules::Rules;
use crate::system::{Node, Orders, RuleSystem, SystemRules};
use rand::Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// A game that has not ended after this many rolls is recorded as unfinished.
pub const MAX_ROLLS: u32 = 100_000;

/// What one simulated game produced.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Bit `i` set when seat `i` won (0 when the game hit [`MAX_ROLLS`]).
    pub winners: u16,
    /// The lowest winning seat, or 255 when none.
    pub winner: u8,
    /// Points won (backgammon: 1, 2 or 3 times the cube).
    pub points: u32,
    /// Chance events (rolls or throws) in the game.
    pub rolls: u32,
    /// Pieces captured (sent back) in the game.
    pub captures: u32,
}

/// Draws an index in `0..n` without bias.
///
/// ```
/// let mut rng = pachisi::dice::rng_from_seed(1);
/// assert!(pachisi::sim::uniform_index(&mut rng, 5) < 5);
/// ```
pub fn uniform_index(rng: &mut GameRng, n: usize) -> usize {
    debug_assert!(n > 0);
    let n = n as u64;
    let zone = u64::MAX - (u64::MAX % n);
    loop {
        let x = rng.next_u64();
        if x < zone {
            return (x % n) as usize;
        }
    }
}

/// The seed of game `index` of a simulation seeded with `seed` (SplitMix64 of both), so each
/// game's result depends only on its own seed.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The buffers [`random_game`] reuses from one game to the next, so the loop does not allocate.
///
/// ```
/// use pachisi::{SystemRules, parcheesi::ParcheesiRules, sim::{SimBuffers, random_game}};
/// let system = ParcheesiRules::online().build().unwrap();
/// let mut buf = SimBuffers::new();
/// let games: Vec<_> = (0..3).map(|seed| random_game(&system, seed, &mut buf)).collect();
/// assert!(games.iter().all(|g| g.rolls > 0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct SimBuffers {
    /// The plays of a roll, for systems that list whole plays.
    plays: Vec<Play>,
    /// The plays of a roll back to back, for systems with [`RuleSystem::LISTS_STEPS`].
    list: PlayList,
}

impl SimBuffers {
    /// Empty buffers.
    pub fn new() -> SimBuffers {
        SimBuffers::default()
    }

    /// Lists the distinct legal plays at `s` and picks one uniformly with `rng`: its steps (none,
    /// forfeiting the roll, when no play is legal). Systems with [`RuleSystem::LISTS_STEPS`]
    /// list their plays back to back; the others as whole plays. Either way the chosen play is
    /// borrowed, not copied (this runs once per roll).
    fn pick<R: RuleSystem>(&mut self, system: &R, s: &R::State, rng: &mut GameRng) -> &[Step] {
        if R::LISTS_STEPS {
            system.generate_list(s, Orders::Distinct, &mut self.list);
            match self.list.len() {
                0 => &[],
                n => self.list.get(uniform_index(rng, n)),
            }
        } else {
            self.plays.clear();
            system.generate(s, Orders::Distinct, &mut self.plays);
            match self.plays.len() {
                0 => &[],
                n => self.plays[uniform_index(rng, n)].steps(),
            }
        }
    }
}

/// Plays one game to the end with the uniform random policy over distinct plays.
///
/// Dice and policy draw from one generator seeded with `seed`; `buf` is reused between calls so
/// the loop does not allocate.
///
/// ```
/// use pachisi::{SystemRules, parcheesi::ParcheesiRules, sim::{SimBuffers, random_game}};
/// let system = ParcheesiRules::parcheesi().build().unwrap();
/// let mut buf = SimBuffers::new();
/// let record = random_game(&system, 7, &mut buf);
/// assert_eq!(record, random_game(&system, 7, &mut buf));
/// assert!(record.winner < 4 && record.rolls > 0);
/// ```
pub fn random_game<R: RuleSystem>(system: &R, seed: u64, buf: &mut SimBuffers) -> GameRecord {
    let mut rng = rng_from_seed(seed);
    let mut s = system.initial_state();
    let mut rolls = 0u32;
    let mut captures = 0u32;
    loop {
        match system.node(&s) {
            Node::Over => break,
            Node::Chance => {
                if rolls >= MAX_ROLLS {
                    return GameRecord {
                        winners: 0,
                        winner: 255,
                        points: 0,
                        rolls,
                        captures,
                    };
                }
                let roll = system.sample_roll(&s, &mut rng);
                system.begin_roll(&mut s, roll);
                rolls += 1;
            }
            Node::Decision => {
                let steps = buf.pick(system, &s, &mut rng);
                for step in steps {
                    captures += step.captured as u32;
                    system.apply_step(&mut s, step);
                }
                system.end_play(&mut s, steps);
            }
        }
    }
    match system.outcome(&s) {
        Some(o) => GameRecord {
            winners: o.winners,
            winner: o.first_winner().unwrap_or(255),
            points: o.points,
            rolls,
            captures,
        },
        None => GameRecord {
            winners: 0,
            winner: 255,
            points: 0,
            rolls,
            captures,
        },
    }
}

fn run<T: SystemRules>(
    rules: &T,
    games: Range<u64>,
    seed: u64,
    threads: Option<usize>,
) -> Result<Vec<GameRecord>> {
    let system = rules.build()?;
    let work = |range: Range<u64>| -> Vec<GameRecord> {
        let mut buf = SimBuffers::new();
        range
            .map(|i| random_game(&system, game_seed(seed, i), &mut buf))
            .collect()
    };
    if threads == Some(1) || games.end - games.start < 64 {
        return Ok(work(games));
    }
    // Chunks keep the per-thread buffer warm; results are ordered by game index.
    let chunk = 256;
    let n_chunks = (games.end - games.start).div_ceil(chunk);
    let job = || -> Vec<GameRecord> {
        (0..n_chunks)
            .into_par_iter()
            .flat_map_iter(|c| {
                let first = games.start + c * chunk;
                work(first..(first + chunk).min(games.end))
            })
            .collect()
    };
    match threads {
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| crate::Error::InvalidRules(format!("thread pool: {e}")))?;
            Ok(pool.install(job))
        }
        None => Ok(job()),
    }
}

/// Simulates `games` random-policy games of `rules` from `seed`, on `threads` threads (all cores
/// when `None`). Game `i` is seeded with [`game_seed`]`(seed, i)`, so the result does not depend
/// on the thread count.
///
/// ```
/// let rules = pachisi::Rules::preset("backgammon").unwrap();
/// let a = pachisi::sim::simulate(&rules, 20, 7, Some(1)).unwrap();
/// let b = pachisi::sim::simulate(&rules, 20, 7, Some(2)).unwrap();
/// assert_eq!(a, b);
/// assert!(a.iter().all(|r| r.winner < 2));
/// ```
pub fn simulate(
    rules: &Rules,
    games: usize,
    seed: u64,
    threads: Option<usize>,
) -> Result<Vec<GameRecord>> {
    simulate_range(rules, seed, 0..games as u64, threads)
}

/// Games `games` (indices) of the run [`simulate`] makes from `seed`: a run split into ranges,
/// in any order and on any number of threads or machines, gives the same records as one run.
///
/// ```
/// use pachisi::sim::{simulate, simulate_range};
/// let rules = pachisi::Rules::preset("pachisi").unwrap();
/// let whole = simulate(&rules, 30, 5, Some(1)).unwrap();
/// let mut parts = simulate_range(&rules, 5, 0..10, Some(1)).unwrap();
/// parts.extend(simulate_range(&rules, 5, 10..30, None).unwrap());
/// assert_eq!(parts, whole);
/// ```
pub fn simulate_range(
    rules: &Rules,
    seed: u64,
    games: Range<u64>,
    threads: Option<usize>,
) -> Result<Vec<GameRecord>> {
    if threads == Some(0) {
        return Err(crate::Error::InvalidRules(
            "threads must be at least 1".into(),
        ));
    }
    struct Run(Range<u64>, u64, Option<usize>);
    impl SystemVisitor for Run {
        type Output = Result<Vec<GameRecord>>;
        fn visit<T: Registered>(self, rules: &T) -> Self::Output {
            run(rules, self.0, self.1, self.2)
        }
    }
    let games = games.start..games.end.max(games.start);
    rules.config().visit(Run(games, seed, threads))
}

/// Per-seat summary of a simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games simulated.
    pub games: usize,
    /// Games that did not finish within [`MAX_ROLLS`].
    pub unfinished: usize,
    /// Per seat: share of games won.
    pub win_rate: Vec<f64>,
    /// Per seat: the 95% confidence interval (low, high) of the win rate (Wilson score).
    pub win_rate_ci: Vec<(f64, f64)>,
    /// Mean rolls per game.
    pub mean_rolls: f64,
    /// Median rolls per game.
    pub median_rolls: f64,
    /// Mean captures per game.
    pub mean_captures: f64,
}

/// The Wilson score interval (95%) of `wins` in `n` trials.
///
/// ```
/// let (lo, hi) = pachisi::sim::wilson_interval(50, 100);
/// assert!(lo < 0.5 && hi > 0.5);
/// ```
pub fn wilson_interval(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n_f = n as f64;
    let p = wins as f64 / n_f;
    let denom = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) / n_f) + z * z / (4.0 * n_f * n_f)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Summarises simulation records for `seats` seats.
pub fn summarize(records: &[GameRecord], seats: u8) -> Summary {
    let n = records.len();
    let mut win_rate = Vec::new();
    let mut win_rate_ci = Vec::new();
    for seat in 0..seats {
        let wins = records
            .iter()
            .filter(|r| r.winners & (1 << seat) != 0)
            .count();
        win_rate.push(if n == 0 { 0.0 } else { wins as f64 / n as f64 });
        win_rate_ci.push(wilson_interval(wins, n));
    }
    let mut rolls: Vec<u32> = records.iter().map(|r| r.rolls).collect();
    rolls.sort_unstable();
    let median_rolls = match rolls.len() {
        0 => 0.0,
        m if m % 2 == 1 => rolls[m / 2] as f64,
        m => (rolls[m / 2 - 1] as f64 + rolls[m / 2] as f64) / 2.0,
    };
    let nf = n.max(1) as f64;
    Summary {
        games: n,
        unfinished: records.iter().filter(|r| r.winners == 0).count(),
        win_rate,
        win_rate_ci,
        mean_rolls: rolls.iter().map(|&r| r as f64).sum::<f64>() / nf,
        median_rolls,
        mean_captures: records.iter().map(|r| r.captures as f64).sum::<f64>() / nf,
    }
}
