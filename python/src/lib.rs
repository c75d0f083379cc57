//! Python bindings of the pachisi rules engine: the `pachisi._native` extension module.
//!
//! The public Python API is the `pachisi` package (`python/python/pachisi/__init__.py`), which
//! re-exports these classes and adds pure-Python conveniences (the simulation and tournament
//! result tables).
//! Every engine call goes through [`errors::guard`], so an engine error becomes its exception
//! class and no panic crosses into Python.

mod alloc;
mod convert;
mod errors;
mod game;
mod moves;
mod players;
mod rules;
mod simulate;
mod study;
mod train;
mod vecenv;

use pyo3::prelude::*;

/// The extension's Rust allocations go to mimalloc ([`alloc`]).
#[global_allocator]
static ALLOCATOR: alloc::MiMalloc = alloc::MiMalloc;

/// The names of all presets.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    pachisi::variants().to_vec()
}

/// The 95% Wilson score interval of `wins` successes in `n` trials (`(0, 1)` when `n` is 0).
#[pyfunction]
fn wilson_interval(wins: &Bound<'_, PyAny>, n: &Bound<'_, PyAny>) -> PyResult<(f64, f64)> {
    let wins: usize = errors::int_arg(wins, "wins", "an int >= 0")?;
    let n: usize = errors::int_arg(n, "n", "an int >= 0")?;
    if wins > n {
        return Err(errors::new_err(
            errors::Kind::InvalidArgument,
            format!("`wins` must not exceed the number of trials `n` ({wins} > {n})"),
        ));
    }
    Ok(pachisi::sim::wilson_interval(wins, n))
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", pachisi::VERSION)?;
    m.add("MAX_THREADS", pachisi::sim::MAX_THREADS)?;
    errors::register(m)?;
    m.add_class::<rules::PyRules>()?;
    m.add_class::<moves::PyStep>()?;
    m.add_class::<moves::PyPlay>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyLegalPlays>()?;
    m.add_class::<players::PyPlayer>()?;
    m.add_class::<vecenv::PyVecEnv>()?;
    m.add_class::<vecenv::PyRlGame>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(wilson_interval, m)?)?;
    m.add_function(wrap_pyfunction!(simulate::simulate_raw, m)?)?;
    m.add_function(wrap_pyfunction!(players::tournament_raw, m)?)?;
    m.add_function(wrap_pyfunction!(study::study_unit_raw, m)?)?;
    m.add_function(wrap_pyfunction!(study::team_masks_raw, m)?)?;
    m.add_function(wrap_pyfunction!(train::train_raw, m)?)?;
    Ok(())
}
