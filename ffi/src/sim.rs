//! Batch random-policy simulation.

use crate::error::{Failure, boundary};
use crate::pachisi_result;
use crate::rules::pachisi_rules;
use crate::util::handle;

/// What one simulated game produced.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct pachisi_game_record {
    /// Bit i set when seat i won (0 when the game did not finish within the engine's roll limit).
    pub winners: u16,
    /// The lowest winning seat, or `PACHISI_NO_SEAT`.
    pub winner: u8,
    /// Points won (backgammon: 1, 2 or 3 times the cube).
    pub points: u32,
    /// Chance events (rolls or throws) in the game.
    pub rolls: u32,
    /// Pieces captured (sent back) in the game.
    pub captures: u32,
}

/// Plays `games` games of `rules` with the uniform random policy (each play chosen uniformly
/// among the distinct legal plays) and writes one record per game to `records[0..games]`.
///
/// Game i is seeded from `seed` and i alone, so the records do not depend on `threads`.
///
/// - `rules`: borrowed for the call.
/// - `threads`: worker threads; 0 uses every core (a process-wide pool that lives until exit).
/// - `records`: caller-owned array of at least `games` records; written only on success (may be
///   NULL when `games` is 0).
///
/// Errors: `NULL_POINTER`, `INVALID_RULES`.
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
    boundary(|| {
        let rules = unsafe { handle(rules, "rules") }?;
        if records.is_null() && games > 0 {
            return Err(Failure::null("records"));
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
        let results = engine::sim::simulate_range(&rules.rules, seed, range, threads)?;
        for (i, r) in results.iter().enumerate().take(games) {
            let record = pachisi_game_record {
                winners: r.winners,
                winner: r.winner,
                points: r.points,
                rolls: r.rolls,
                captures: r.captures,
            };
            unsafe { records.add(i).write(record) };
        }
        Ok(())
    })
}
