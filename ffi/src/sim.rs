//! Batch random-policy simulation, with an optional progress callback that can cancel.

use crate::error::{Failure, boundary};
use crate::pachisi_result;
use crate::rules::pachisi_rules;
use crate::util::handle;
use std::ffi::c_void;
use std::time::Duration;

/// What one simulated game produced.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_game_record {
    /// Bit i set when seat i won (0 when the game was truncated).
    pub winners: u16,
    /// The lowest winning seat, or `PACHISI_NO_SEAT`.
    pub winner: u8,
    /// 1 when the game was still going after the rules' `max_rolls` rolls and was ended there
    /// with no winner (decision G-A of docs/RULES.md), else 0.
    pub truncated: u8,
    /// Points won (backgammon: 1, 2 or 3 times the cube).
    pub points: u32,
    /// Chance events (rolls or throws) in the game.
    pub rolls: u32,
    /// Pieces captured (sent back) in the game.
    pub captures: u32,
}

/// Called by `pachisi_simulate_with_progress` on the calling thread, about every 100 ms while
/// the games run and once at the end: `done` games of `total` are finished. Return 0 to go on,
/// nonzero to cancel the simulation.
pub type pachisi_progress_fn =
    Option<unsafe extern "C" fn(userdata: *mut c_void, done: u64, total: u64) -> i32>;

/// Plays `games` games of `rules` with the uniform random policy (each play chosen uniformly
/// among the distinct legal plays) and writes one record per game to `records[0..games]`.
///
/// Game i is seeded from `seed` and i alone, so the records do not depend on `threads`.
///
/// - `rules`: borrowed for the call.
/// - `threads`: worker threads, 1..=`PACHISI_MAX_THREADS`; 0 uses every core (at most
///   `PACHISI_MAX_THREADS`). The workers are started for the call and have all ended when it
///   returns.
/// - `records`: caller-owned array of at least `games` records; written only on success (may be
///   NULL when `games` is 0).
///
/// A game still going after the rules' `max_rolls` rolls ends there, recorded with
/// `truncated` = 1. Errors: `NULL_POINTER`, `INVALID_ARGUMENT` (`threads` too large),
/// `RESOURCE_ERROR` (threads could not start, or no memory for the records).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_simulate(
    rules: *const pachisi_rules,
    seed: u64,
    threads: u32,
    records: *mut pachisi_game_record,
    games: usize,
) -> pachisi_result {
    unsafe { pachisi_simulate_range(rules, seed, 0, threads, records, games) }
}

/// Games `first_game .. first_game + games` of the run `pachisi_simulate` makes from `seed`:
/// a run split into ranges (in any order, on any number of threads or processes) gives the same
/// records as one call. Arguments and errors as for `pachisi_simulate`, and
/// `INDEX_OUT_OF_RANGE` when `first_game + games` exceeds 2^64 - 1.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pachisi_simulate_range(
    rules: *const pachisi_rules,
    seed: u64,
    first_game: u64,
    threads: u32,
    records: *mut pachisi_game_record,
    games: usize,
) -> pachisi_result {
    unsafe {
        pachisi_simulate_with_progress(
            rules,
            seed,
            first_game,
            threads,
            None,
            std::ptr::null_mut(),
            records,
            games,
        )
    }
}

/// `pachisi_simulate_range` with a progress callback that can cancel the run.
///
/// - `progress`: may be NULL (no calls). Otherwise it is called on the calling thread (never on
///   a worker) as `progress(userdata, done, games)` about every 100 ms while the games run, and
///   once more with `done == games` when they are all finished. Returning nonzero cancels: the
///   workers stop after the game each is playing, the call returns `PACHISI_RESULT_CANCELLED`
///   and writes nothing to `records`.
/// - `userdata`: passed to `progress` as is; not used otherwise.
///
/// Other arguments and errors as for `pachisi_simulate_range`; no worker thread is left running
/// when the call returns, whatever its result.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn pachisi_simulate_with_progress(
    rules: *const pachisi_rules,
    seed: u64,
    first_game: u64,
    threads: u32,
    progress: pachisi_progress_fn,
    userdata: *mut c_void,
    records: *mut pachisi_game_record,
    games: usize,
) -> pachisi_result {
    boundary(|| {
        let rules = unsafe { handle(rules, "rules") }?;
        if records.is_null() && games > 0 {
            return Err(Failure::null("records"));
        }
        // No caller's array holds more records than this: a larger count is a mistake, caught
        // before hours of games are played for it.
        let most = isize::MAX as usize / std::mem::size_of::<pachisi_game_record>();
        if games > most {
            return Err(Failure::new(
                pachisi_result::InvalidArgument,
                format!("games ({games}) is more than an array of records can hold ({most})"),
            ));
        }
        let threads = if threads == 0 {
            None
        } else {
            Some(threads as usize)
        };
        let Some(end) = first_game.checked_add(games as u64) else {
            return Err(Failure::new(
                pachisi_result::IndexOutOfRange,
                "first_game + games is past the last game index (2^64 - 1)",
            ));
        };
        let range = first_game..end;
        let total = games as u64;
        let owned = rules.rules.clone();
        let job = move |control: &engine::sim::SimControl| {
            engine::sim::simulate_controlled(&owned, seed, range, threads, control)
        };
        // Always through `watch`: the workers are then started from a thread of the library's
        // own, and the caller's thread (perhaps a C main thread) only sleeps and joins.
        let results = engine::sim::watch(
            Duration::from_millis(100),
            |done| match progress {
                Some(f) => (unsafe { f(userdata, done, total) }) == 0,
                None => true,
            },
            job,
        )?;
        for (i, r) in results.iter().enumerate().take(games) {
            let record = pachisi_game_record {
                winners: r.winners,
                winner: r.winner,
                truncated: r.truncated as u8,
                points: r.points,
                rolls: r.rolls,
                captures: r.captures,
            };
            unsafe { records.add(i).write(record) };
        }
        Ok(())
    })
}
