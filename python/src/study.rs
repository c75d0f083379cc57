//! The work unit of a study (`pachisi.studies`): a range of game indices of one cell, played
//! with the GIL released and summed up in Rust, so a unit's result is a few numbers and one
//! histogram whatever its size.
//!
//! Game `i` of a cell is seeded from `(seed, i)` exactly as `pachisi.simulate` seeds it, so a
//! cell split into any ranges, run in any order on any machine, sums to the same totals.

use crate::errors::{Kind, guard, new_err};
use crate::rules::rules_from;
use pachisi::registry::{Registered, SystemVisitor};
use pachisi::sim::GameRecord;
use pachisi::system::RuleSystem;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::BTreeMap;
use std::time::Instant;

/// Plays games `start..end` of a cell seeded with `seed` and returns their totals: `games`,
/// `wins` (per seat; a team's seats each count the game), `unfinished` (no winner: the roll
/// limit), `rolls_sum`, `captures_sum`, `points_sum`, `rolls_hist` (sorted `[rolls, games]`
/// pairs, for exact medians after merging units) and `seconds`.
///
/// `lineup` is `None` or every seat `"random"`: the uniform random simulator
/// (`pachisi.simulate(policy="random")`); else one player spec per seat
/// (`pachisi.simulate(policy=lineup)`). `threads=None` uses all cores.
#[pyfunction]
#[pyo3(signature = (rules, seed, start, end, lineup=None, threads=None),
       text_signature = "(rules, seed, start, end, lineup=None, threads=None)")]
pub fn study_unit_raw<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    seed: u64,
    start: u64,
    end: u64,
    lineup: Option<Vec<String>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    if threads == Some(0) {
        return Err(new_err(Kind::InvalidRules, "threads must be at least 1"));
    }
    if end < start {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "the game range {start}..{end} ends before it starts"
        )));
    }
    let rules = rules_from(rules, None)?;
    let lineup = lineup.filter(|specs| specs.iter().any(|s| s != "random"));
    let clock = Instant::now();
    let records: Vec<GameRecord> = py.detach(|| {
        guard(|| match &lineup {
            None => pachisi::sim::simulate_range(&rules, seed, start..end, threads),
            Some(specs) => {
                let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
                pachisi::tournament::simulate_lineup(&rules, &refs, start..end, seed, threads)
            }
        })
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let seats = team_masks(&rules)?.len();
    let mut wins = vec![0u64; seats];
    let mut hist: BTreeMap<u32, u64> = BTreeMap::new();
    let (mut unfinished, mut rolls, mut captures, mut points) = (0u64, 0u64, 0u64, 0u64);
    for r in &records {
        for (seat, w) in wins.iter_mut().enumerate() {
            *w += u64::from(r.winners & (1 << seat) != 0);
        }
        unfinished += u64::from(r.winners == 0);
        rolls += u64::from(r.rolls);
        captures += u64::from(r.captures);
        points += u64::from(r.points);
        *hist.entry(r.rolls).or_default() += 1;
    }
    let out = PyDict::new(py);
    out.set_item("games", records.len())?;
    out.set_item("wins", wins)?;
    out.set_item("unfinished", unfinished)?;
    out.set_item("rolls_sum", rolls)?;
    out.set_item("captures_sum", captures)?;
    out.set_item("points_sum", points)?;
    out.set_item("rolls_hist", hist.into_iter().collect::<Vec<(u32, u64)>>())?;
    out.set_item("seconds", seconds)?;
    Ok(out)
}

/// The seats that win together with each seat (itself included), one bit per seat: partners
/// in team games share a mask (`[5, 10, 5, 10]` for Family Pachisi's teams).
#[pyfunction]
#[pyo3(text_signature = "(rules)")]
pub fn team_masks_raw(rules: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
    team_masks(&rules_from(rules, None)?)
}

fn team_masks(rules: &pachisi::Rules) -> PyResult<Vec<u16>> {
    struct Teams;
    impl SystemVisitor for Teams {
        type Output = pachisi::Result<Vec<u16>>;
        fn visit<T: Registered>(self, rules: &T) -> Self::Output {
            let sys = rules.build()?;
            Ok((0..sys.seats()).map(|s| sys.team(s)).collect())
        }
    }
    guard(|| rules.config().visit(Teams))
}
