//! Players from Python: `pachisi.Player`, best plays, hints and evaluations of a game, and
//! tournaments (the Rust side; `pachisi/__init__.py` wraps the results).

use crate::convert::{py_to_json, serde_to_py};
use crate::errors::{Kind, Seed, guard, int_arg, new_err, threads_arg};
use crate::game::PyGame;
use crate::moves::PyPlay;
use crate::rules::rules_from;
use pachisi::players::Player;
use pachisi::players::RolloutOptions;
use pachisi::tournament::TournamentOptions;
use pachisi::{Game, Policy};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Mutex;

/// A player argument from Python: a spec text (`"mcts:iterations=200"`), a spec dict
/// (`{"player": "mcts", "iterations": 200}`), a `Player`, or (where allowed) a callable.
#[derive(FromPyObject)]
pub enum PolicyArg<'py> {
    /// A spec text.
    Spec(String),
    /// Anything else: a dict, a `Player` or a callable.
    Object(Bound<'py, PyAny>),
}

impl PolicyArg<'_> {
    /// The default player of the methods that take one.
    pub fn greedy() -> Self {
        PolicyArg::Spec("greedy".to_string())
    }

    /// The spec text (a dict becomes its JSON text).
    pub fn spec_text(&self) -> PyResult<String> {
        match self {
            PolicyArg::Spec(s) => Ok(s.clone()),
            PolicyArg::Object(o) if o.is_instance_of::<PyDict>() => {
                Ok(py_to_json(o, "player spec")?.to_string())
            }
            PolicyArg::Object(o) => match o.cast::<PyPlayer>() {
                Ok(p) => Ok(p.borrow().name.clone()),
                Err(_) => Err(new_err(
                    Kind::InvalidPlayer,
                    "a player spec is a str such as \"greedy\" or a dict such as \
                     {\"player\": \"greedy\"}",
                )),
            },
        }
    }
}

/// A built-in player with its own seeded generator: ``Player("mcts:iterations=500", seed=1)``.
///
/// Specs: ``"random"``, ``"greedy"``, ``"expectimax:depth=2"``, ``"mcts:iterations=2000"``, with
/// evaluator weights such as ``"greedy:risk=-2"``, or the same as a dict
/// (``{"player": "mcts", "iterations": 2000}``). ``choose(game)`` returns the index of its play
/// in ``game.legal_plays()``; the search runs with the GIL released.
#[pyclass(module = "pachisi", name = "Player")]
pub struct PyPlayer {
    inner: Mutex<Player>,
    name: String,
}

impl PyPlayer {
    /// The player, also after a panic interrupted an earlier choice (its generator is still
    /// usable).
    fn lock(&self) -> std::sync::MutexGuard<'_, Player> {
        match self.inner.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn choose_index(&self, py: Python<'_>, game: &Game) -> PyResult<usize> {
        py.detach(|| {
            let mut p = self.lock();
            guard(|| p.choose(game))
        })
    }

    fn with_player(player: Player) -> PyPlayer {
        PyPlayer {
            name: player.name(),
            inner: Mutex::new(player),
        }
    }
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec=PolicyArg::greedy(), seed=Seed(0)),
           text_signature = "(spec='greedy', seed=0)")]
    fn new(spec: PolicyArg<'_>, seed: Seed) -> PyResult<Self> {
        let seed = seed.0;
        let text = spec.spec_text()?;
        let player = guard(|| {
            crate::train::load_weights(&text)?;
            Player::from_spec(&text, seed)
        })?;
        Ok(PyPlayer::with_player(player))
    }

    /// A copy in the same state: it makes the same choices as this player from here on.
    fn __copy__(&self) -> PyPlayer {
        PyPlayer::with_player(self.lock().clone())
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPlayer {
        self.__copy__()
    }

    /// Pickles as the spec and the generator's state (a ``td:weights=PATH`` player reads its
    /// file again where it is unpickled).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let rng = serde_json::to_string(slf.borrow().lock().rng())
            .map_err(|e| new_err(Kind::InvalidJson, e.to_string()))?;
        let ctor = py.get_type::<PyPlayer>().getattr("_restore")?;
        let args = (slf.borrow().name.clone(), rng).into_bound_py_any(py)?;
        PyTuple::new(py, [ctor, args])
    }

    /// Unpickling: a player of `spec` whose generator is in the state `rng` (JSON).
    #[staticmethod]
    fn _restore(spec: &str, rng: &str) -> PyResult<PyPlayer> {
        let rng: pachisi::dice::GameRng = serde_json::from_str(rng).map_err(|e| {
            new_err(
                Kind::InvalidJson,
                format!("a player's generator state: {e}"),
            )
        })?;
        let mut player = guard(|| {
            crate::train::load_weights(spec)?;
            Player::from_spec(spec, 0)
        })?;
        player.set_rng(rng);
        Ok(PyPlayer::with_player(player))
    }

    /// The canonical spec (parameters at their defaults left out).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The index in ``game.legal_plays()`` of the play this player chooses.
    fn choose(&self, py: Python<'_>, game: PyRef<'_, PyGame>) -> PyResult<usize> {
        self.choose_index(py, &game.inner)
    }

    /// The play this player chooses in ``game`` (the game is not changed).
    fn choose_play(&self, py: Python<'_>, game: PyRef<'_, PyGame>) -> PyResult<PyPlay> {
        let i = self.choose_index(py, &game.inner)?;
        let play = guard(|| Ok(game.inner.legal_plays()[i]))?;
        Ok(PyPlay::with_notation(play, game.inner.format_play(&play)))
    }

    fn __repr__(&self) -> String {
        format!("Player({:?})", self.name)
    }
}

/// `Game.best_play`: the play a player chooses; a Python callable is called as
/// `policy(game, plays)` and returns an index or a play (the slow path).
pub fn best_play(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    policy: PolicyArg<'_>,
    seed: u64,
) -> PyResult<PyPlay> {
    if let PolicyArg::Object(o) = &policy {
        if let Ok(player) = o.cast::<PyPlayer>() {
            return player.borrow().choose_play(py, game.borrow());
        }
        if o.is_callable() {
            return call_policy(py, game, o);
        }
    }
    let player = PyPlayer::new(policy, Seed(seed))?;
    player.choose_play(py, game.borrow())
}

/// The slow path: a Python callable chooses.
fn call_policy(
    py: Python<'_>,
    game: &Bound<'_, PyGame>,
    policy: &Bound<'_, PyAny>,
) -> PyResult<PyPlay> {
    {
        let plays: Vec<PyPlay> = {
            let g = game.borrow();
            let f = g.inner.play_formatter();
            g.inner
                .legal_plays()
                .into_iter()
                .map(|p| PyPlay::with_formatter(p, f.clone()))
                .collect()
        };
        if plays.is_empty() {
            return Err(new_err(
                Kind::WrongPhase,
                "cannot choose a play: no play is due",
            ));
        }
        let list = PyList::new(py, plays.clone())?;
        // A copy: the game is not changed whatever the callable does with the one it gets.
        let copy = Bound::new(
            py,
            PyGame {
                inner: game.borrow().inner.clone(),
            },
        )?;
        let chosen = policy.call1((copy, list))?;
        if let Ok(i) = chosen.extract::<usize>() {
            return plays.get(i).cloned().ok_or_else(|| {
                new_err(
                    Kind::InvalidPlayer,
                    format!("the policy chose play {i} of {}", plays.len()),
                )
            });
        }
        if let Ok(p) = chosen.cast::<PyPlay>() {
            let p = p.get();
            if plays.iter().any(|q| q.inner == p.inner) {
                return Ok(p.clone());
            }
            return Err(new_err(
                Kind::IllegalMove,
                "the policy chose a play that is not legal here",
            ));
        }
        Err(new_err(
            Kind::InvalidPlayer,
            "a policy callable returns an index into the plays, or one of them",
        ))
    }
}

fn rollout_options(
    rollouts: usize,
    policy: PolicyArg<'_>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<RolloutOptions> {
    Ok(RolloutOptions {
        rollouts,
        policy: policy.spec_text()?,
        seed,
        threads,
    })
}

/// `Game.hint`: every legal play with its win probabilities by rollouts, best first.
pub fn hint<'py>(
    py: Python<'py>,
    game: &Game,
    rollouts: usize,
    policy: PolicyArg<'py>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let opts = rollout_options(rollouts, policy, seed, threads)?;
    let rows = py.detach(|| guard(|| pachisi::players::hint(game, &opts)))?;
    let formatter = game.play_formatter();
    let out = PyList::empty(py);
    for row in rows {
        let d = PyDict::new(py);
        d.set_item("index", row.index)?;
        d.set_item("play", PyPlay::with_formatter(row.play, formatter.clone()))?;
        d.set_item("notation", row.notation)?;
        d.set_item("win", row.win)?;
        d.set_item("stderr", row.stderr)?;
        d.set_item("diff", row.diff)?;
        d.set_item("diff_stderr", row.diff_stderr)?;
        out.append(d)?;
    }
    Ok(out)
}

/// `Game.evaluate`: per-seat win probabilities by rollouts (or the static evaluator when
/// `rollouts` is 0).
pub fn evaluate<'py>(
    py: Python<'py>,
    game: &Game,
    rollouts: usize,
    policy: PolicyArg<'py>,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    if rollouts == 0 {
        let win = guard(|| Ok(pachisi::players::static_values(game, &[])))?;
        let d = PyDict::new(py);
        d.set_item("win", win)?;
        d.set_item("stderr", py.None())?;
        d.set_item("rollouts", 0)?;
        d.set_item("unfinished", 0)?;
        return Ok(d.into_any());
    }
    let opts = rollout_options(rollouts, policy, seed, threads)?;
    let e = py.detach(|| guard(|| pachisi::players::evaluate(game, &opts)))?;
    serde_to_py(py, &e)
}

/// Plays a tournament in Rust with the GIL released; `pachisi.tournament` wraps the result.
#[pyfunction]
#[pyo3(signature = (rules, players, deals=None, seed=Seed(0), threads=None, rotate=true, **options),
       text_signature = "(rules, players, deals=100, seed=0, threads=None, rotate=True, **options)")]
#[allow(clippy::too_many_arguments)]
pub fn tournament_raw<'py>(
    py: Python<'py>,
    rules: &Bound<'py, PyAny>,
    players: &Bound<'py, PyAny>,
    deals: Option<&Bound<'py, PyAny>>,
    seed: Seed,
    threads: Option<&Bound<'py, PyAny>>,
    rotate: bool,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let deals: usize = match deals {
        Some(d) => int_arg(d, "deals", "an int >= 1")?,
        None => 100,
    };
    if deals == 0 {
        return Err(new_err(
            Kind::InvalidArgument,
            "`deals` must be an int >= 1, got 0",
        ));
    }
    let seed = seed.0;
    let threads = threads_arg(threads)?;
    let rules = rules_from(rules, options)?;
    let mut lineup = Vec::new();
    for p in players.try_iter()? {
        let text = p?.extract::<PolicyArg<'_>>()?.spec_text()?;
        guard(|| crate::train::load_weights(&text))?;
        lineup.push(text);
    }
    let opts = TournamentOptions {
        lineup,
        deals,
        seed,
        rotate,
        threads,
    };
    let result = py.detach(|| guard(|| pachisi::tournament::tournament(&rules, &opts)))?;
    let out = PyDict::new(py);
    out.set_item("result", serde_to_py(py, &result)?)?;
    out.set_item("summary", result.summary())?;
    out.set_item("rules_json", rules.to_json())?;
    Ok(out)
}
