//! Training learned (`td`) players from Python, and reading their weights files.

use crate::errors::{
    EvalDeals, EvalEvery, Games, Hidden, MaxPoints, Named, Seed, guard, threads_arg,
};
use pachisi::nn::Network;
use pachisi::players::{PlayerKind, PlayerSpec, TrainOptions, Trainer};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Registers the weights file of a `td:weights=PATH` spec under its path (once), so the engine
/// finds it by that key; other specs are left alone (their errors come from the engine).
pub fn load_weights(spec: &str) -> pachisi::Result<()> {
    let Ok(spec) = spec.parse::<PlayerSpec>() else {
        return Ok(());
    };
    if spec.kind != PlayerKind::Td {
        return Ok(());
    }
    if let Some(path) = &spec.network {
        if pachisi::players::registered_network(path).is_none() {
            pachisi::players::register_network(path, read_network(path)?);
        }
    }
    Ok(())
}

fn read_network(path: &str) -> pachisi::Result<Network> {
    let file = std::fs::File::open(path).map_err(|e| {
        pachisi::Error::InvalidPlayer(format!(
            "`{path}` is neither a registered network nor a readable weights file: {e}"
        ))
    })?;
    Network::from_reader(file).map_err(|e| pachisi::Error::InvalidPlayer(format!("`{path}`: {e}")))
}

/// Trains a network by self-play TD(λ) (see `pachisi.train`); returns the learning curve.
#[pyfunction]
#[pyo3(signature = (preset, games=Named::new(1000), seed=Seed(1), threads=None, out=None, resume=None,
                    eval_every=Named::new(1000), eval_deals=Named::new(200), hidden=Named::new(40), alpha=0.1, lambda_=0.7,
                    opponent=None, progress=false, encoding="features", max_points=None,
                    discount=1.0),
       text_signature = "(preset, games=1000, seed=1, threads=None, out=None, resume=None, \
                         eval_every=1000, eval_deals=200, hidden=40, alpha=0.1, lambda_=0.7, \
                         opponent=None, progress=False, encoding=\"features\", max_points=None, \
                         discount=1.0)")]
#[allow(clippy::too_many_arguments)]
pub fn train_raw<'py>(
    py: Python<'py>,
    preset: &str,
    games: Named<u64, Games>,
    seed: Seed,
    threads: Option<&Bound<'py, PyAny>>,
    out: Option<String>,
    resume: Option<String>,
    eval_every: Named<u64, EvalEvery>,
    eval_deals: Named<usize, EvalDeals>,
    hidden: Named<usize, Hidden>,
    alpha: f32,
    lambda_: f32,
    opponent: Option<String>,
    progress: bool,
    encoding: &str,
    max_points: Option<Named<u32, MaxPoints>>,
    discount: f32,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let (games, eval_every, eval_deals, hidden) = (games.0, eval_every.0, eval_deals.0, hidden.0);
    let max_points = max_points.map(|m| m.0);
    let mut o = TrainOptions::new(preset);
    o.seed = seed.0;
    o.threads = threads_arg(threads)?;
    o.eval_deals = eval_deals;
    o.hidden = hidden;
    o.alpha = alpha;
    o.lambda = lambda_;
    o.opponent = opponent;
    o.encoding = encoding.parse().map_err(crate::errors::to_pyerr)?;
    if let Some(m) = max_points {
        o.max_points = m;
    }
    o.discount = discount;
    let every = eval_every.max(1);
    let points = py.detach(|| {
        guard(|| {
            if let Some(op) = &o.opponent {
                load_weights(op)?;
            }
            let mut trainer = match &resume {
                Some(path) => Trainer::resume(o.clone(), read_network(path)?)?,
                None => Trainer::new(o.clone())?,
            };
            let eval_seed = o.seed ^ 0xC0FFEE;
            let mut points = Vec::new();
            if resume.is_none() && eval_deals > 0 {
                points.push(trainer.evaluate(eval_deals, eval_seed)?);
            }
            while trainer.network().info.games < games {
                let done = trainer.network().info.games;
                let chunk = (every - done % every).min(games - done);
                trainer.train(chunk, |p| {
                    if progress {
                        eprint!("\r{}: {}/{games} games   ", o.preset, p.games);
                    }
                    true
                })?;
                if let Some(path) = &out {
                    std::fs::write(path, trainer.network().to_bytes()).map_err(|e| {
                        pachisi::Error::Resource(format!("cannot write `{path}`: {e}"))
                    })?;
                }
                if eval_deals > 0 {
                    points.push(trainer.evaluate(eval_deals, eval_seed)?);
                }
            }
            if progress {
                eprintln!();
            }
            Ok(points)
        })
    })?;
    points
        .iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("games", p.games)?;
            d.set_item("tournament_games", p.tournament_games)?;
            d.set_item("win_rate", p.win_rate)?;
            d.set_item("ci_low", p.ci_low)?;
            d.set_item("ci_high", p.ci_high)?;
            d.set_item("fair", p.fair)?;
            d.set_item("seconds", p.seconds)?;
            Ok(d)
        })
        .collect()
}
