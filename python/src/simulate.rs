//! Batch simulation with the GIL released; results as numpy arrays.

use crate::convert::serde_to_py;
use crate::errors::{Kind, guard, guard_ok, new_err};
use crate::players::PolicyArg;
use crate::rules::rules_from;
use numpy::IntoPyArray;
use pachisi::sim::{GameRecord, summarize};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::time::Instant;

/// Simulates `games` games in Rust, on all cores unless `threads` is given, with the GIL
/// released: `policy` is `"random"` (the uniform random simulator), another player spec for
/// every seat, or a list of specs, one per seat. Returns a dict of numpy arrays and the summary;
/// `pachisi.simulate` wraps it.
#[pyfunction]
#[pyo3(signature = (rules, games, seed=0, threads=None, policy=PolicyArg::Spec("random".to_string()), progress=None, **options),
       text_signature = "(rules, games, seed=0, threads=None, policy='random', progress=None, **options)")]
#[allow(clippy::too_many_arguments)]
pub fn simulate_raw<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    games: usize,
    seed: u64,
    threads: Option<usize>,
    policy: PolicyArg<'py>,
    progress: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    if threads == Some(0) {
        return Err(new_err(Kind::InvalidRules, "threads must be at least 1"));
    }
    let rules = rules_from(rules, options)?;
    let seats = guard_ok(|| pachisi::Game::new(&rules, 0).seats())?;
    // `None`: the uniform random simulator; else one player spec per seat.
    let lineup: Option<Vec<String>> = match &policy {
        PolicyArg::Spec(s) if s == "random" => None,
        PolicyArg::Object(o) if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() => {
            let mut specs = Vec::new();
            for p in o.try_iter()? {
                specs.push(p?.extract::<PolicyArg<'_>>()?.spec_text()?);
            }
            Some(specs)
        }
        other => Some(vec![other.spec_text()?; seats as usize]),
    };
    if let Some(specs) = &lineup {
        // Check the specs before any game runs.
        let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
        guard(|| pachisi::tournament::simulate_lineup(&rules, &refs, 0..0, seed, Some(1)))?;
    }
    let lineup_refs: Option<Vec<&str>> = lineup
        .as_ref()
        .map(|specs| specs.iter().map(String::as_str).collect());
    let run = |range: std::ops::Range<u64>, threads: Option<usize>| match &lineup_refs {
        None => pachisi::sim::simulate_range(&rules, seed, range, threads),
        Some(specs) => pachisi::tournament::simulate_lineup(&rules, specs, range, seed, threads),
    };
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
                (_, true) => run(range, Some(1)),
                (Some(p), _) => p.install(|| run(range, None)),
                (None, false) => run(range, None),
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
