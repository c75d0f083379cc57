//! Batch simulation with the GIL released; results as numpy arrays.

use crate::convert::serde_to_py;
use crate::errors::{Kind, guard, guard_ok, new_err};
use crate::rules::rules_from;
use numpy::IntoPyArray;
use pachisi::sim::{GameRecord, summarize};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Instant;

/// Simulates `games` random-policy games in Rust, on all cores unless `threads` is given, with
/// the GIL released. Returns a dict of numpy arrays and the summary; `pachisi.simulate` wraps it.
#[pyfunction]
#[pyo3(signature = (rules, games, seed=0, threads=None, policy="random", progress=None, **options))]
#[allow(clippy::too_many_arguments)]
pub fn simulate_raw<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    games: usize,
    seed: u64,
    threads: Option<usize>,
    policy: &str,
    progress: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    if policy != "random" {
        return Err(new_err(
            Kind::InvalidRules,
            format!("unknown policy `{policy}` (policies: random)"),
        ));
    }
    if threads == Some(0) {
        return Err(new_err(Kind::InvalidRules, "threads must be at least 1"));
    }
    let rules = rules_from(rules, options)?;
    let seats = guard_ok(|| pachisi::Game::new(&rules, 0).seats())?;
    let pool = match threads {
        Some(n) if n > 1 => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| new_err(Kind::InvalidRules, format!("thread pool: {e}")))?,
        ),
        _ => None,
    };
    let sequential = threads == Some(1);
    // Chunks let Ctrl-C and the progress callback in between; seeds do not depend on them.
    let chunk = if progress.is_some() {
        games.div_ceil(50).max(1000)
    } else {
        games.div_ceil(8).max(20_000)
    };
    let mut records: Vec<GameRecord> = Vec::with_capacity(games);
    let start = Instant::now();
    let mut done = 0usize;
    while done < games {
        let n = chunk.min(games - done);
        let range = done as u64..(done + n) as u64;
        let part = py.detach(|| {
            guard(|| match (&pool, sequential) {
                (_, true) => pachisi::sim::simulate_range(&rules, seed, range, Some(1)),
                (Some(p), _) => {
                    p.install(|| pachisi::sim::simulate_range(&rules, seed, range, None))
                }
                (None, false) => pachisi::sim::simulate_range(&rules, seed, range, None),
            })
        })?;
        records.extend(part);
        done += n;
        py.check_signals()?;
        if let Some(cb) = progress {
            cb.call1((done, games))?;
        }
    }
    let seconds = start.elapsed().as_secs_f64();

    let summary = guard_ok(|| summarize(&records, seats))?;
    let out = PyDict::new(py);
    let winner: Vec<i8> = records
        .iter()
        .map(|r| if r.winner == 255 { -1 } else { r.winner as i8 })
        .collect();
    out.set_item("winner", winner.into_pyarray(py))?;
    out.set_item(
        "winners",
        records
            .iter()
            .map(|r| r.winners)
            .collect::<Vec<u16>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "rolls",
        records
            .iter()
            .map(|r| r.rolls)
            .collect::<Vec<u32>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "captures",
        records
            .iter()
            .map(|r| r.captures)
            .collect::<Vec<u32>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "points",
        records
            .iter()
            .map(|r| r.points)
            .collect::<Vec<u32>>()
            .into_pyarray(py),
    )?;
    out.set_item("summary", serde_to_py(py, &summary)?)?;
    out.set_item("seats", seats)?;
    out.set_item("seconds", seconds)?;
    out.set_item("rules_json", rules.to_json())?;
    Ok(out)
}
