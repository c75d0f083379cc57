//! Random-policy simulation: many seeded games, in parallel, reproducible whatever the thread count.

use crate::dice::{GameRng, rng_from_seed};
use crate::play::{Play, PlayList, Step};
use crate::registry::{Registered, SystemVisitor};
use crate::rules::Rules;
use crate::system::{Node, Orders, RuleSystem};
use crate::{Error, Result};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// The largest value of the `max_rolls` option of every preset (and the bound of a players'
/// search rollout): a game is cut at most this many rolls after its start.
pub const MAX_ROLLS: u32 = 100_000;

/// Checks a `max_rolls` option value: 1..=[`MAX_ROLLS`]. The message names the option, not
/// the preset (one rules struct serves several presets, as the other option checks do).
///
/// ```
/// assert!(pachisi::sim::check_max_rolls(2000).is_ok());
/// assert!(pachisi::sim::check_max_rolls(0).is_err());
/// ```
pub fn check_max_rolls(max_rolls: u32) -> Result<()> {
    if (1..=MAX_ROLLS).contains(&max_rolls) {
        Ok(())
    } else {
        Err(Error::InvalidRules(format!(
            "option `max_rolls` must be 1..={MAX_ROLLS} (rolls after which a game ends \
             truncated), got {max_rolls}"
        )))
    }
}

/// What one simulated game produced.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Bit `i` set when seat `i` won (0 when the game was truncated).
    pub winners: u16,
    /// The lowest winning seat, or 255 when none.
    pub winner: u8,
    /// Points won (backgammon: 1, 2 or 3 times the cube).
    pub points: u32,
    /// Chance events (rolls or throws) in the game.
    pub rolls: u32,
    /// Pieces captured (sent back) in the game.
    pub captures: u32,
    /// The game was still going after the rules' `max_rolls` rolls and was ended there, with
    /// no winner (decision G-A of `docs/RULES.md`).
    #[serde(default)]
    pub truncated: bool,
}

/// Draws an index in `0..n` without bias.
///
/// # Panics
/// When `n` is 0 (there is no index to draw).
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
    let max_rolls = system.max_rolls();
    let mut rolls = 0u32;
    let mut captures = 0u32;
    loop {
        match system.node(&s) {
            Node::Over => break,
            Node::Chance => {
                if rolls >= max_rolls {
                    return GameRecord {
                        winners: 0,
                        winner: 255,
                        points: 0,
                        rolls,
                        captures,
                        truncated: true,
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
    let (winners, winner, points) = match system.outcome(&s) {
        Some(o) => (o.winners, o.first_winner().unwrap_or(255), o.points),
        None => (0, 255, 0),
    };
    GameRecord {
        winners,
        winner,
        points,
        rolls,
        captures,
        truncated: false,
    }
}

/// The most worker threads a simulation (or a tournament) may use. More threads than cores
/// only add overhead, and an unbounded count let a typo start a million threads; a larger
/// count is an [`Error::InvalidArgument`], not clamped, so the
/// caller learns of it.
pub const MAX_THREADS: usize = 256;

/// The number of worker threads for `threads`: the count asked for, or every core when `None`
/// (at most [`MAX_THREADS`]). 0 and counts above [`MAX_THREADS`] are
/// [`Error::InvalidArgument`].
///
/// ```
/// use pachisi::sim::{MAX_THREADS, worker_threads};
/// assert_eq!(worker_threads(Some(3)).unwrap(), 3);
/// assert!((1..=MAX_THREADS).contains(&worker_threads(None).unwrap()));
/// assert!(worker_threads(Some(0)).is_err());
/// assert!(worker_threads(Some(MAX_THREADS + 1)).is_err());
/// ```
pub fn worker_threads(threads: Option<usize>) -> Result<usize> {
    match threads {
        Some(0) => Err(Error::InvalidArgument(
            "`threads` must be at least 1 (or None for every core)".into(),
        )),
        Some(n) if n > MAX_THREADS => Err(Error::InvalidArgument(format!(
            "`threads` must be at most {MAX_THREADS}, got {n}"
        ))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS)),
    }
}

/// Follows and stops a running simulation from another thread: the workers count each game
/// they finish and look at the cancel flag before each game, so a cancel takes effect within
/// one game per worker.
///
/// ```
/// use pachisi::sim::{SimControl, simulate_controlled};
/// let rules = pachisi::Rules::preset("backgammon").unwrap();
/// let control = SimControl::new();
/// let records = simulate_controlled(&rules, 1, 0..10, Some(1), &control).unwrap();
/// assert_eq!((records.len(), control.done()), (10, 10));
/// control.cancel();
/// let err = simulate_controlled(&rules, 1, 0..10, Some(1), &control).unwrap_err();
/// assert!(matches!(err, pachisi::Error::Cancelled(_)));
/// ```
#[derive(Debug, Default)]
pub struct SimControl {
    cancelled: AtomicBool,
    done: AtomicU64,
}

impl SimControl {
    /// A control that is not cancelled, with no game done.
    pub fn new() -> SimControl {
        SimControl::default()
    }

    /// Asks the simulation to stop: it returns [`Error::Cancelled`]
    /// as soon as each worker has finished the game it is playing.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether [`SimControl::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Games finished so far (by every worker together).
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}

fn cancelled() -> Error {
    Error::Cancelled("the simulation was cancelled".into())
}

fn out_of_memory(games: usize) -> Error {
    Error::Resource(format!(
        "out of memory storing the records of {games} games"
    ))
}

/// Appends `x` to `v`, growing it with `try_reserve` so that running out of memory is an error,
/// not an abort of the process.
fn try_push<T>(v: &mut Vec<T>, x: T) -> Result<()> {
    if v.len() == v.capacity() {
        v.try_reserve(v.len().max(16))
            .map_err(|_| out_of_memory(v.len()))?;
    }
    v.push(x);
    Ok(())
}

/// Games per chunk that a worker claims at a time (results are reassembled in game order).
const CHUNK: u64 = 256;

/// Runs `play(state, i)` for every game index `i` of `games` on `threads` worker threads (each
/// with its own `init()` state) and returns the records in game order. Threads are scoped: all
/// have ended when this returns. Nothing is allocated from the count of games: results grow as
/// they come, with `try_reserve`.
pub(crate) fn run_games<S, F>(
    games: Range<u64>,
    threads: Option<usize>,
    control: &SimControl,
    init: impl Fn() -> S + Sync,
    play: F,
) -> Result<Vec<GameRecord>>
where
    F: Fn(&mut S, u64) -> GameRecord + Sync,
{
    let threads = worker_threads(threads)?;
    let games = games.start..games.end.max(games.start);
    let total = games.end - games.start;
    if threads == 1 || total < 64 {
        let mut state = init();
        let mut out = Vec::new();
        for i in games {
            if control.is_cancelled() {
                return Err(cancelled());
            }
            try_push(&mut out, play(&mut state, i))?;
            control.done.fetch_add(1, Ordering::Relaxed);
        }
        return if control.is_cancelled() {
            Err(cancelled())
        } else {
            Ok(out)
        };
    }
    // Chunks small enough that every worker gets several (a few long games still spread over
    // the threads), at most CHUNK; the records do not depend on it.
    let chunk = (total / (threads as u64 * 4)).clamp(1, CHUNK);
    let n_chunks = total.div_ceil(chunk);
    let next = AtomicU64::new(0);
    // Set when a worker fails (memory) or a thread cannot start: the others stop too.
    let stop = AtomicBool::new(false);
    let halted = || stop.load(Ordering::Relaxed) || control.is_cancelled();
    let worker = || -> Result<Vec<(u64, Vec<GameRecord>)>> {
        let mut state = init();
        let mut mine = Vec::new();
        loop {
            let c = next.fetch_add(1, Ordering::Relaxed);
            if c >= n_chunks || halted() {
                return Ok(mine);
            }
            let first = games.start + c * chunk;
            let last = (first + chunk).min(games.end);
            // At most CHUNK records: bounded by the constant, not by the caller's count.
            let mut part = Vec::with_capacity((last - first) as usize);
            for i in first..last {
                if halted() {
                    return Ok(mine);
                }
                part.push(play(&mut state, i));
                control.done.fetch_add(1, Ordering::Relaxed);
            }
            if let Err(e) = try_push(&mut mine, (c, part)) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
    };
    let workers = threads.min(n_chunks as usize);
    let mut parts: Vec<(u64, Vec<GameRecord>)> = Vec::new();
    let mut failure: Option<Error> = None;
    std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(workers);
        for k in 0..workers {
            match std::thread::Builder::new()
                .name(format!("pachisi-sim-{k}"))
                .spawn_scoped(scope, worker)
            {
                Ok(h) => handles.push(h),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(Error::Resource(format!(
                        "could not start simulation worker thread {} of {workers}: {e}",
                        k + 1
                    )));
                    break;
                }
            }
        }
        for h in handles {
            match h.join() {
                Ok(Ok(mine)) => {
                    if failure.is_none() && parts.try_reserve(mine.len()).is_err() {
                        failure = Some(out_of_memory(parts.len() * chunk as usize));
                    }
                    if failure.is_none() {
                        parts.extend(mine);
                    }
                }
                Ok(Err(e)) => {
                    failure.get_or_insert(e);
                }
                // A panic in a game (a bug) goes on to the caller's boundary.
                Err(payload) => std::panic::resume_unwind(payload),
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if control.is_cancelled() {
        return Err(cancelled());
    }
    parts.sort_unstable_by_key(|(c, _)| *c);
    let n: usize = parts.iter().map(|(_, p)| p.len()).sum();
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| out_of_memory(n))?;
    for (_, p) in parts {
        out.extend(p);
    }
    Ok(out)
}

/// Runs `job` on a thread of its own while the calling thread calls `progress(done)` about
/// every `every` (with the games done so far) until the job ends; when `progress` returns
/// `false` the job is cancelled through its [`SimControl`] and this returns
/// [`Error::Cancelled`]. `progress` always runs on the calling thread,
/// so a caller can check for Ctrl-C or call back into its own language from it. Every thread
/// started has ended when this returns.
///
/// The calling thread only spawns, sleeps and joins: it never parks, so a thread the Rust
/// runtime did not start (a C program's main thread) gets no thread handle of std's that would
/// never be freed (valgrind counts it as lost).
///
/// ```
/// use pachisi::sim::{simulate_controlled, watch};
/// use std::time::Duration;
/// let rules = pachisi::Rules::preset("parcheesi").unwrap();
/// let mut seen = Vec::new();
/// let r = rules.clone();
/// let run = watch(Duration::from_millis(20), |done| { seen.push(done); true }, move |control| {
///     simulate_controlled(&r, 1, 0..200, Some(2), control)
/// });
/// assert_eq!(run.unwrap().len(), 200);
/// assert_eq!(seen.last(), Some(&200));
/// // A progress function that says stop cancels the run.
/// let stopped = watch(Duration::from_millis(1), |_| false, move |control| {
///     simulate_controlled(&rules, 1, 0..1_000_000, Some(2), control)
/// });
/// assert!(matches!(stopped, Err(pachisi::Error::Cancelled(_))));
/// ```
pub fn watch<T: Send + 'static>(
    every: Duration,
    mut progress: impl FnMut(u64) -> bool,
    job: impl FnOnce(&SimControl) -> Result<T> + Send + 'static,
) -> Result<T> {
    let control = std::sync::Arc::new(SimControl::new());
    let theirs = control.clone();
    let handle = std::thread::Builder::new()
        .name("pachisi-sim".into())
        .spawn(move || job(&theirs))
        .map_err(|e| Error::Resource(format!("could not start the simulation thread: {e}")))?;
    // Short naps, so the end of a short job is seen at once; `progress` every `every`.
    let nap = every.min(Duration::from_millis(5));
    let mut last = std::time::Instant::now();
    let mut stopped = false;
    while !handle.is_finished() {
        std::thread::sleep(nap);
        if !stopped && last.elapsed() >= every {
            last = std::time::Instant::now();
            if !progress(control.done()) {
                stopped = true;
                control.cancel();
            }
        }
    }
    let result = match handle.join() {
        Ok(r) => r,
        Err(payload) => std::panic::resume_unwind(payload),
    };
    if stopped {
        return Err(cancelled());
    }
    let result = result?;
    // The last report: everything done (the caller may still say stop).
    if !progress(control.done()) {
        return Err(cancelled());
    }
    Ok(result)
}

/// [`simulate_range`] followed and stoppable through `control` (see [`SimControl`]).
///
/// ```
/// use pachisi::sim::{SimControl, simulate_controlled, simulate_range};
/// let rules = pachisi::Rules::preset("pachisi").unwrap();
/// let a = simulate_controlled(&rules, 3, 0..100, Some(2), &SimControl::new()).unwrap();
/// assert_eq!(a, simulate_range(&rules, 3, 0..100, Some(1)).unwrap());
/// ```
pub fn simulate_controlled(
    rules: &Rules,
    seed: u64,
    games: Range<u64>,
    threads: Option<usize>,
    control: &SimControl,
) -> Result<Vec<GameRecord>> {
    worker_threads(threads)?;
    struct Run<'c>(Range<u64>, u64, Option<usize>, &'c SimControl);
    impl SystemVisitor for Run<'_> {
        type Output = Result<Vec<GameRecord>>;
        fn visit<T: Registered>(self, rules: &T) -> Self::Output {
            let system = rules.build()?;
            let seed = self.1;
            run_games(self.0, self.2, self.3, SimBuffers::new, |buf, i| {
                random_game(&system, game_seed(seed, i), buf)
            })
        }
    }
    rules.config().visit(Run(games, seed, threads, control))
}

/// Simulates `games` random-policy games of `rules` from `seed`, on `threads` threads (all cores
/// when `None`; at most [`MAX_THREADS`]). Game `i` is seeded with [`game_seed`]`(seed, i)`, so
/// the result does not depend on the thread count. A game still going after the rules'
/// `max_rolls` rolls ends there, recorded as truncated.
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
    simulate_controlled(rules, seed, games, threads, &SimControl::new())
}

/// Per-seat summary of a simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games simulated.
    pub games: usize,
    /// Games without a winner (truncated games, and any game a rule system ended without one).
    pub unfinished: usize,
    /// Games ended by the rules' `max_rolls` (a subset of `unfinished`).
    #[serde(default)]
    pub truncated: usize,
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
/// // No wins: the interval starts at exactly 0 (rounding left 5.6e-17 there); all: ends at 1.
/// assert_eq!(pachisi::sim::wilson_interval(0, 3).0, 0.0);
/// assert_eq!(pachisi::sim::wilson_interval(3, 3).1, 1.0);
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
    // At 0 (or n) wins `centre - half` (or `centre + half`) is 0 (1) exactly, but not in floating
    // point: pin the ends.
    let lo = if wins == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if wins >= n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// Summarises simulation records for `seats` seats. [`GameRecord::winners`] has a bit for each of
/// seats 0 to 15: a seat from 16 on has no win in any record (a win rate of 0).
///
/// ```
/// use pachisi::{Rules, sim::{simulate, summarize}};
/// let capped = Rules::with_options("backgammon", &serde_json::json!({"max_rolls": 4})).unwrap();
/// let s = summarize(&simulate(&capped, 10, 1, Some(1)).unwrap(), 2);
/// assert_eq!((s.games, s.unfinished, s.truncated), (10, 10, 10));
/// ```
pub fn summarize(records: &[GameRecord], seats: u8) -> Summary {
    let n = records.len();
    let mut win_rate = Vec::new();
    let mut win_rate_ci = Vec::new();
    for seat in 0..seats {
        let wins = records
            .iter()
            .filter(|r| {
                1u16.checked_shl(seat.into())
                    .is_some_and(|bit| r.winners & bit != 0)
            })
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
        truncated: records.iter().filter(|r| r.truncated).count(),
        win_rate,
        win_rate_ci,
        // Summed from 0.0: an empty `f64` sum is -0.0, which would print as "-0.0".
        mean_rolls: rolls.iter().fold(0.0, |a, &r| a + r as f64) / nf,
        median_rolls,
        mean_captures: records.iter().fold(0.0, |a, r| a + r.captures as f64) / nf,
    }
}
