//! Reinforcement-learning fronts: `VecEnv` (many games stepped in Rust with the GIL released,
//! results in preallocated numpy arrays) and `RlGame` (one game through action ids, what the
//! Gymnasium, PettingZoo and OpenSpiel adapters are written on).

use crate::convert::{roll_from_py, roll_to_py};
use crate::errors::{
    Action, Index, Kind, MaxDecisions, Named, NumEnvs, SeatArg, Seed, guard, guard_ok, new_err,
};
use crate::players::PolicyArg;
use crate::rules::rules_from;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pachisi::rl::env::{AnyGame, Outputs, VecEnv, new_game_with_observation};
use pachisi::rl::{Encoding, Observation};
use pachisi::{Node, Policy};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

fn encoding_from(text: &str) -> PyResult<Encoding> {
    guard(|| text.parse::<Encoding>())
}

fn observation_from(text: &str) -> PyResult<Observation> {
    guard(|| text.parse::<Observation>())
}

fn encoding_name(e: Encoding) -> &'static str {
    match e {
        Encoding::Step => "step",
        Encoding::Play => "play",
        Encoding::OpenSpiel => "openspiel",
    }
}

fn node_name(n: Node) -> &'static str {
    match n {
        Node::Chance => "chance",
        Node::Decision => "decision",
        Node::Over => "over",
    }
}

fn views_list<'py>(py: Python<'py>, views: &[pachisi::rl::View]) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for v in views {
        let shape = PyTuple::new(py, &v.shape)?;
        out.append((v.name, v.offset, shape))?;
    }
    Ok(out)
}

/// ``VecEnv(preset, num_envs, seed=0, encoding="step", max_decisions=None, *,
/// observation="plain", **options)``: many games stepped together in Rust across cores, the GIL
/// released for the whole call.
///
/// ``observation="features"`` writes the ``td`` networks' input encoding instead of the plain
/// observation (``docs/RL.md``); its feature scales are measured once, here.
///
/// ``reset(seed=None) -> (obs, info)`` and ``step(actions) -> (obs, rewards, terminated,
/// truncated, info)`` follow Gymnasium's vector API: ``obs`` is ``float32[N, D]`` from the seat to
/// act, ``rewards`` ``float32[N, seats]`` (each seat's return in the step its game ended),
/// ``info["action_mask"]`` ``bool[N, A]`` and ``info["current_player"]`` ``int32[N]``. Chance is
/// resolved inside ``step``; a game that ends is reset in the same step (its last observation in
/// ``info["final_obs"]``, rows flagged by ``info["_final_obs"]``). Game ``i`` is seeded
/// ``seed + i``. The returned arrays are the environment's own buffers, overwritten by the next
/// call: copy what you keep.
#[pyclass(module = "pachisi", name = "VecEnv")]
pub struct PyVecEnv {
    env: VecEnv,
    encoding: Encoding,
    obs: Py<PyArray2<f32>>,
    final_obs: Py<PyArray2<f32>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i32>>,
    mask: Py<PyArray2<bool>>,
}

impl PyVecEnv {
    /// Runs `f` on the environment and every output buffer with the GIL released.
    fn with_outputs<T: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VecEnv, &mut Outputs<'_>) -> pachisi::Result<T> + Send,
    ) -> PyResult<T> {
        let mut obs = self.obs.bind(py).readwrite();
        let mut fin = self.final_obs.bind(py).readwrite();
        let mut rew = self.rewards.bind(py).readwrite();
        let mut term = self.terminated.bind(py).readwrite();
        let mut trunc = self.truncated.bind(py).readwrite();
        let mut cur = self.current_player.bind(py).readwrite();
        let mut mask = self.mask.bind(py).readwrite();
        let mut out = Outputs {
            obs: obs.as_slice_mut()?,
            final_obs: fin.as_slice_mut()?,
            rewards: rew.as_slice_mut()?,
            terminated: term.as_slice_mut()?,
            truncated: trunc.as_slice_mut()?,
            current_player: cur.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
        };
        let env = &mut self.env;
        py.detach(|| guard(|| f(env, &mut out)))
    }

    fn info<'py>(&self, py: Python<'py>, with_final: bool) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("action_mask", self.mask.bind(py))?;
        info.set_item("current_player", self.current_player.bind(py))?;
        if with_final {
            let ended: Vec<bool> = {
                let t = self.terminated.bind(py).readonly();
                let u = self.truncated.bind(py).readonly();
                t.as_slice()?
                    .iter()
                    .zip(u.as_slice()?)
                    .map(|(a, b)| *a || *b)
                    .collect()
            };
            info.set_item("final_obs", self.final_obs.bind(py))?;
            info.set_item("_final_obs", PyArray1::from_vec(py, ended))?;
        }
        Ok(info)
    }
}

#[pymethods]
impl PyVecEnv {
    #[new]
    #[pyo3(signature = (preset, num_envs, seed=Seed(0), encoding="step", max_decisions=None, *, observation="plain", **options),
           text_signature = "(preset, num_envs, seed=0, encoding='step', max_decisions=None, *, observation='plain', **options)")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        preset: &Bound<'_, PyAny>,
        num_envs: Named<usize, NumEnvs>,
        seed: Seed,
        encoding: &str,
        max_decisions: Option<Named<u32, MaxDecisions>>,
        observation: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = rules_from(preset, options)?;
        let enc = encoding_from(encoding)?;
        let kind = observation_from(observation)?;
        let env = py.detach(|| {
            guard(|| {
                VecEnv::new_with_observation(
                    &rules,
                    num_envs.0,
                    seed.0,
                    enc,
                    kind,
                    max_decisions.map(|m| m.0),
                )
            })
        })?;
        let (n, d, a, p) = (
            env.num_envs(),
            env.observation_size(),
            env.num_actions(),
            env.seats() as usize,
        );
        let mut this = PyVecEnv {
            encoding: enc,
            obs: PyArray2::zeros(py, [n, d], false).unbind(),
            final_obs: PyArray2::zeros(py, [n, d], false).unbind(),
            rewards: PyArray2::zeros(py, [n, p], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            truncated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            current_player: PyArray1::zeros(py, [n], false).unbind(),
            mask: PyArray2::from_vec2(py, &vec![vec![false; a]; n])?.unbind(),
            env,
        };
        this.with_outputs(py, |env, out| env.reset(None, out))?;
        Ok(this)
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }
    /// Length of one observation.
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.observation_size()
    }
    /// Number of action ids.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.env.seats() as usize
    }
    /// The action encoding's name.
    #[getter]
    fn encoding(&self) -> &'static str {
        encoding_name(self.encoding)
    }
    /// The observation's name: ``"plain"`` or ``"features"``.
    #[getter]
    fn observation_kind(&self) -> &'static str {
        self.env.observation().name()
    }
    /// The observation's views: ``[(name, offset, shape), ...]``.
    fn views<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        views_list(py, &self.env.views())
    }

    /// Restarts every game (seeds ``seed + i``; when ``None``, the last seed given, at first the
    /// constructor's) and the generators of ``random_actions`` with them: after ``reset(s)``
    /// the environment plays as a new one made with seed ``s``.
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<Seed>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyDict>)> {
        self.with_outputs(py, |env, out| env.reset(seed.map(|s| s.0), out))?;
        Ok((self.obs.bind(py).clone(), self.info(py, false)?))
    }

    /// Applies one action id per game (an integer array of length ``num_envs``); an illegal one
    /// raises ``IllegalMoveError`` naming the game, and no game changes.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let acts: Vec<i64> = match actions.cast::<PyArray1<i64>>() {
            Ok(a) if a.is_contiguous() => a.readonly().as_slice()?.to_vec(),
            _ => {
                let np = py.import("numpy")?;
                // Integers only: numpy would truncate floats and raise a bare ValueError for
                // strings.
                let raw = np.call_method1("asarray", (actions,)).map_err(|_| {
                    PyTypeError::new_err("actions must be a one-dimensional sequence of integers")
                })?;
                let kind: String = raw.getattr("dtype")?.getattr("kind")?.extract()?;
                if kind != "i" && kind != "u" {
                    return Err(PyTypeError::new_err(format!(
                        "actions must be integers, got an array of dtype {}",
                        raw.getattr("dtype")?.str()?
                    )));
                }
                let arr = np.call_method1("ascontiguousarray", (raw, "int64"))?;
                let arr = arr.cast::<PyArray1<i64>>().map_err(|_| {
                    new_err(
                        Kind::IllegalMove,
                        "actions must be a one-dimensional sequence of integers",
                    )
                })?;
                arr.readonly().as_slice()?.to_vec()
            }
        };
        self.with_outputs(py, |env, out| env.step(&acts, out))?;
        Ok((
            self.obs.bind(py).clone(),
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.truncated.bind(py).clone(),
            self.info(py, true)?,
        ))
    }

    /// A uniformly random legal action id per game, ``int64[num_envs]`` (each game draws from
    /// its own generator, seeded from the environment's seed).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut out = vec![0i64; self.env.num_envs()];
        let env = &mut self.env;
        py.detach(|| env.random_actions(&mut out));
        PyArray1::from_vec(py, out)
    }

    /// The seat to act in each game (the array ``info["current_player"]`` holds).
    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.current_player.bind(py).clone()
    }

    /// The legal-action masks (the array ``info["action_mask"]`` holds).
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        self.mask.bind(py).clone()
    }

    /// Game ``i`` as an ``RlGame`` (a copy).
    fn game(&self, i: Index) -> PyResult<PyRlGame> {
        match i.0.and_then(|i| self.env.game(i)) {
            Some(g) => Ok(PyRlGame {
                inner: g.clone_box(),
                auto_chance: true,
                opponents: Default::default(),
            }),
            None => Err(pyo3::exceptions::PyIndexError::new_err(
                "environment index out of range",
            )),
        }
    }

    fn __repr__(&self) -> String {
        let kind = match self.env.observation() {
            Observation::Plain => String::new(),
            other => format!(", observation={:?}", other.name()),
        };
        format!(
            "VecEnv(num_envs={}, encoding={:?}{kind}, observation_size={}, num_actions={})",
            self.env.num_envs(),
            encoding_name(self.encoding),
            self.env.observation_size(),
            self.env.num_actions()
        )
    }
}

/// ``RlGame(preset, encoding="step", seed=0, auto_chance=True, *, observation="plain",
/// **options)``: one game seen through action ids, observation vectors and (with
/// ``auto_chance=False``) explicit chance.
///
/// ``observation="features"`` writes the ``td`` networks' input encoding instead of the plain
/// observation (``docs/RL.md``); its feature scales are measured once, here, and shared by copies.
///
/// What the Gymnasium, PettingZoo and OpenSpiel adapters are written on. Copies with
/// ``copy.deepcopy`` and pickles (position, steps taken and generator).
#[pyclass(module = "pachisi", name = "RlGame")]
pub struct PyRlGame {
    inner: Box<dyn AnyGame>,
    auto_chance: bool,
    opponents: std::sync::Mutex<Vec<Box<dyn Policy>>>,
}

#[pymethods]
impl PyRlGame {
    #[new]
    #[pyo3(signature = (preset, encoding="step", seed=Seed(0), auto_chance=true, *, observation="plain", **options),
           text_signature = "(preset, encoding='step', seed=0, auto_chance=True, *, observation='plain', **options)")]
    fn new(
        py: Python<'_>,
        preset: &Bound<'_, PyAny>,
        encoding: &str,
        seed: Seed,
        auto_chance: bool,
        observation: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = rules_from(preset, options)?;
        let enc = encoding_from(encoding)?;
        let kind = observation_from(observation)?;
        let inner = py.detach(|| {
            guard(|| new_game_with_observation(&rules, enc, kind, seed.0, auto_chance))
        })?;
        Ok(PyRlGame {
            inner,
            auto_chance,
            opponents: Default::default(),
        })
    }

    /// The preset name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.rules().variant()
    }
    /// The rules as JSON text.
    #[getter]
    fn rules_json(&self) -> String {
        self.inner.rules().to_json()
    }
    /// The action encoding's name.
    #[getter]
    fn encoding(&self) -> &'static str {
        encoding_name(self.inner.encoding())
    }
    /// The observation's name: ``"plain"`` or ``"features"``.
    #[getter]
    fn observation_kind(&self) -> &'static str {
        self.inner.observation().name()
    }
    /// Whether the game rolls for the players.
    #[getter]
    fn auto_chance(&self) -> bool {
        self.auto_chance
    }
    /// Number of action ids.
    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.num_actions()
    }
    /// Length of the observation vector.
    #[getter]
    fn observation_size(&self) -> usize {
        self.inner.observation_size()
    }
    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.seats() as usize
    }
    /// Decisions taken since the start.
    #[getter]
    fn decisions(&self) -> u32 {
        self.inner.decisions()
    }
    /// Rolls made since the start (forfeited ones included); the rules' ``max_rolls`` caps them.
    #[getter]
    fn rolls(&self) -> u32 {
        self.inner.rolls()
    }
    /// The observation's views: ``[(name, offset, shape), ...]``.
    fn views<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        views_list(py, &self.inner.views())
    }
    /// Starts a new game with ``seed``.
    fn reset(&mut self, seed: Seed) -> PyResult<()> {
        guard_ok(|| self.inner.reset(seed.0))
    }
    /// ``"chance"``, ``"decision"`` or ``"over"``.
    fn node(&self) -> &'static str {
        node_name(self.inner.node())
    }
    /// Whether the game is over: won, or cut short by the rules' ``max_rolls``
    /// (``is_truncated()``).
    fn is_over(&self) -> bool {
        self.inner.node() == Node::Over
    }
    /// Whether the game ended because a roll was due after the rules' ``max_rolls`` rolls (no
    /// winner, zero returns: truncated rather than terminated).
    fn is_truncated(&self) -> bool {
        self.inner.truncated()
    }
    /// The seat to act or roll.
    fn current_player(&self) -> u8 {
        self.inner.current_player()
    }
    /// ``[(roll, probability), ...]`` at a chance node (exact probabilities), else ``[]``.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for c in self.inner.chance_outcomes() {
            out.append((roll_to_py(py, c.roll)?, c.probability))?;
        }
        Ok(out)
    }
    /// Rolls ``roll`` (``[5, 3]`` or a cowrie count) at a chance node.
    fn apply_roll(&mut self, roll: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = roll_from_py(roll)?;
        guard(|| self.inner.apply_roll(r))
    }
    /// Rolls with the game's generator at a chance node; returns the roll.
    fn roll<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = guard(|| self.inner.roll())?;
        roll_to_py(py, r)
    }
    /// The legal action ids, ascending.
    fn legal_actions(&self) -> Vec<usize> {
        self.inner.legal_actions()
    }
    /// The legal-action mask, ``bool[num_actions]``.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut m = vec![false; self.inner.num_actions()];
        self.inner.write_mask(&mut m);
        PyArray1::from_vec(py, m)
    }
    /// Applies a legal action id (``IllegalMoveError`` otherwise, the game unchanged).
    fn apply_action(&mut self, action: Named<i64, Action>) -> PyResult<()> {
        let action = action.0;
        if action < 0 {
            return Err(new_err(
                Kind::IllegalMove,
                format!("action {action} is negative"),
            ));
        }
        guard(|| self.inner.apply_action(action as usize))
    }
    /// The observation from ``seat``'s point of view, ``float32[observation_size]``.
    #[pyo3(signature = (seat=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: Option<Named<i64, SeatArg>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = match seat {
            None => self.inner.current_player(),
            Some(Named(s, _)) if (0..i64::from(self.inner.seats())).contains(&s) => s as u8,
            Some(Named(s, _)) => {
                return Err(new_err(
                    Kind::InvalidPlayer,
                    format!("no seat {s} (seats 0..{})", self.inner.seats()),
                ));
            }
        };
        let mut v = vec![0.0f32; self.inner.observation_size()];
        guard_ok(|| self.inner.observe(seat, &mut v))?;
        Ok(PyArray1::from_vec(py, v))
    }
    /// Zero-sum returns per seat (zeros until the game is over).
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// A description of an action id in the current position.
    fn action_to_string(&self, action: Named<i64, Action>) -> PyResult<String> {
        let n = self.inner.num_actions();
        match usize::try_from(action.0) {
            Ok(a) if a < n => Ok(self.inner.action_to_string(a)),
            _ => Err(new_err(
                Kind::InvalidArgument,
                format!("no action id {} (ids 0..{n})", action.0),
            )),
        }
    }
    /// The position in the variant's notation (with the steps taken).
    fn position(&self) -> String {
        self.inner.position()
    }
    /// Position, steps taken, generator and counter as JSON text.
    fn state_json(&self) -> String {
        self.inner.to_json()
    }
    /// Restores ``state_json()`` output (validated; ``InvalidJsonError`` leaves the game as it was).
    fn load_state_json(&mut self, text: &str) -> PyResult<()> {
        guard(|| self.inner.load_json(text))
    }
    /// Opponents for ``play_opponent``: one player spec (or ``Player``-like spec) per seat,
    /// ``None`` for seats the caller plays; each is seeded ``seed + seat``.
    #[pyo3(signature = (specs, seed=Seed(0)), text_signature = "($self, specs, seed=0)")]
    fn set_opponents(&mut self, specs: &Bound<'_, PyList>, seed: Seed) -> PyResult<()> {
        let seed = seed.0;
        let mut out: Vec<Box<dyn Policy>> = Vec::new();
        for (i, s) in specs.iter().enumerate() {
            let text = if s.is_none() {
                "random".to_string()
            } else {
                s.extract::<PolicyArg<'_>>()?.spec_text()?
            };
            out.push(guard(|| {
                pachisi::players::from_spec_seeded(&text, seed.wrapping_add(i as u64))
            })?);
        }
        self.opponents = std::sync::Mutex::new(out);
        Ok(())
    }
    /// Lets the opponent of the seat to act make its whole play (no step may have been taken).
    fn play_opponent(&mut self, py: Python<'_>) -> PyResult<()> {
        let seat = self.inner.current_player() as usize;
        let inner = &mut self.inner;
        let opponents = match self.opponents.get_mut() {
            Ok(o) => o,
            Err(poisoned) => poisoned.into_inner(),
        };
        let Some(p) = opponents.get_mut(seat) else {
            return Err(new_err(
                Kind::InvalidPlayer,
                format!("no opponent set for seat {seat} (call set_opponents first)"),
            ));
        };
        py.detach(|| guard(|| inner.play_policy(p.as_mut())))
    }
    /// A copy (opponents not included).
    fn clone(&self) -> PyRlGame {
        PyRlGame {
            inner: self.inner.clone_box(),
            auto_chance: self.auto_chance,
            opponents: Default::default(),
        }
    }
    fn __copy__(&self) -> PyRlGame {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyRlGame {
        self.clone()
    }
    /// Pickling: the rules, the encoding, ``auto_chance``, ``state_json()`` and, when not the
    /// plain one, the observation's name.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.borrow();
        let cls = py.get_type::<PyRlGame>();
        let f = cls.getattr("_restore")?;
        let mut args = vec![
            this.inner.rules().to_json(),
            encoding_name(this.inner.encoding()).to_string(),
            this.auto_chance.to_string(),
            this.inner.to_json(),
        ];
        if this.inner.observation() != Observation::Plain {
            args.push(this.inner.observation().name().to_string());
        }
        Ok((f, PyTuple::new(py, args)?))
    }
    /// Rebuilds a pickled game.
    #[staticmethod]
    #[pyo3(signature = (rules, encoding, auto_chance, state, observation="plain"))]
    fn _restore(
        rules: &str,
        encoding: &str,
        auto_chance: &str,
        state: &str,
        observation: &str,
    ) -> PyResult<Self> {
        let rules = guard(|| pachisi::Rules::from_json(rules))?;
        let enc = encoding_from(encoding)?;
        let kind = observation_from(observation)?;
        let auto = auto_chance == "true";
        let mut inner = guard(|| new_game_with_observation(&rules, enc, kind, 0, auto))?;
        guard(|| inner.load_json(state))?;
        Ok(PyRlGame {
            inner,
            auto_chance: auto,
            opponents: Default::default(),
        })
    }
    fn __repr__(&self) -> String {
        let kind = match self.inner.observation() {
            Observation::Plain => String::new(),
            other => format!(", observation={:?}", other.name()),
        };
        format!(
            "RlGame({:?}, encoding={:?}{kind}, {})",
            self.inner.rules().variant(),
            encoding_name(self.inner.encoding()),
            node_name(self.inner.node())
        )
    }
}
