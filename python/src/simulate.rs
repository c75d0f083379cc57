//! Batch simulation with the GIL released; results as numpy arrays.

use crate::convert::serde_to_py;
use crate::errors::{Seed, guard, guard_ok, int_arg, threads_arg};
use crate::players::PolicyArg;
use crate::rules::rules_from;
use numpy::IntoPyArray;
use pachisi::sim::{GameRecord, SimControl, summarize};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::time::{Duration, Instant};

/// How often the Python thread wakes while a simulation runs: to check for Ctrl-C and to call
/// the progress callback.
const POLL: Duration = Duration::from_millis(50);

/// The progress callback is called at most this often (and once at the end).
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// Simulates `games` games in Rust, on all cores unless `threads` is given, with the GIL
/// released: `policy` is `"random"` (the uniform random simulator), another player spec for
/// every seat, or a list of specs, one per seat. Returns a dict of numpy arrays and the summary;
/// `pachisi.simulate` wraps it.
///
/// The calling thread wakes every 50 ms: it checks for signals (Ctrl-C raises
/// `KeyboardInterrupt` within a fraction of a second, the workers stopping after their current
/// game) and calls `progress(done, games)` at most every 0.2 s and once at the end.
#[pyfunction]
#[pyo3(signature = (rules, games, seed=Seed(0), threads=None, policy=PolicyArg::Spec("random".to_string()), progress=None, **options),
       text_signature = "(rules, games, seed=0, threads=None, policy='random', progress=None, **options)")]
#[allow(clippy::too_many_arguments)]
pub fn simulate_raw<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: Seed,
    threads: Option<&Bound<'py, PyAny>>,
    policy: PolicyArg<'py>,
    progress: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let games: u64 = int_arg(games, "games", "an int >= 0")?;
    let seed = seed.0;
    let threads = threads_arg(threads)?;
    let progress = match progress {
        Some(p) if p.is_none() => None,
        Some(p) if !p.is_callable() => {
            return Err(PyTypeError::new_err(format!(
                "`progress` must be a callable progress(done, total) or None, got {}",
                p.get_type().name()?
            )));
        }
        p => p,
    };
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
    let owned = rules.clone();
    let job = move |control: &SimControl| match &lineup {
        None => pachisi::sim::simulate_controlled(&owned, seed, 0..games, threads, control),
        Some(specs) => {
            let refs: Vec<&str> = specs.iter().map(String::as_str).collect();
            pachisi::tournament::simulate_lineup_controlled(
                &owned,
                &refs,
                0..games,
                seed,
                threads,
                control,
            )
        }
    };
    // Unbound, so the closure below may cross `detach` (it binds it again with the GIL held).
    let callback: Option<Py<PyAny>> = progress.map(|p| p.clone().unbind());
    let start = Instant::now();
    // The first Python error met while polling (Ctrl-C, or the callback's own exception):
    // it cancels the run and is raised in place of the result.
    let mut raised: Option<PyErr> = None;
    let mut last_report: Option<Instant> = None;
    let mut last_done = u64::MAX;
    let ran = py.detach(|| {
        guard(|| {
            pachisi::sim::watch(
                POLL,
                |done| {
                    Python::attach(|py| {
                        if let Err(e) = py.check_signals() {
                            raised = Some(e);
                            return false;
                        }
                        let Some(cb) = &callback else {
                            return true;
                        };
                        let finished = done == games;
                        let due = last_report.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY);
                        if done != last_done && (finished || due) {
                            last_report = Some(Instant::now());
                            last_done = done;
                            if let Err(e) = cb.bind(py).call1((done, games)) {
                                raised = Some(e);
                                return false;
                            }
                        }
                        true
                    })
                },
                job,
            )
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let records: Vec<GameRecord> = ran?;
    if let Some(cb) = progress {
        if last_done != games {
            cb.call1((games, games))?;
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
    out.set_item(
        "truncated",
        records
            .iter()
            .map(|r| r.truncated)
            .collect::<Vec<bool>>()
            .into_pyarray(py),
    )?;
    out.set_item("summary", serde_to_py(py, &summary)?)?;
    out.set_item("seats", seats)?;
    out.set_item("seconds", seconds)?;
    out.set_item("rules_json", rules.to_json())?;
    Ok(out)
}
