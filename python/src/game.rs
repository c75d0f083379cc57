//! `pachisi.Game`: one game of any variant.

use crate::convert::{json_to_py, roll_from_py, roll_to_py, serde_to_py};
use crate::errors::{Kind, Seed, guard, guard_ok, int_arg, new_err, threads_arg};
use crate::moves::{PyPlay, PyStep, steps_from_py, steps_to_list};
use crate::players::PolicyArg;
use crate::rules::{PyRules, rules_from, rules_repr};
use pachisi::{Event, Game, Node, Play, PlayFormatter, SharedPlays};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyDict, PyIterator, PyList, PySlice, PyString, PyTuple};

/// The largest `size` of `Game.svg` (pixels).
const MAX_SVG_SIZE: f64 = 20_000.0;

/// A seed from the operating system's hasher keys, when the caller gives none.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(0x5eed);
    h.finish()
}

fn node_name(node: Node) -> &'static str {
    match node {
        Node::Chance => "chance",
        Node::Decision => "decision",
        Node::Over => "over",
    }
}

/// One game of any variant: position, turn, the pending roll, its seeded generator and history.
///
/// ``Game("parcheesi", seed=7, seats=2)`` or ``Game(rules, seed=...)``; keyword arguments other
/// than ``seed`` are rule options. Without a seed the game gets a random one.
///
/// The turn alternates between a chance node (call ``roll()``) and a decision node (choose one of
/// ``legal_plays()`` and ``play()`` it). A roll that cannot be played at all is forfeited at once
/// by ``roll()``: the game is then at a chance node again and ``legal_plays()`` is ``[]``.
#[pyclass(module = "pachisi", name = "Game")]
#[derive(Clone)]
pub struct PyGame {
    pub inner: Game,
}

/// The events with the index in the log of each logged one (`first`: the log index of the first).
fn logged_indices(events: &[Event], first: usize) -> Vec<(usize, &Event)> {
    let mut i = first;
    events
        .iter()
        .map(|e| {
            let at = i;
            if e.is_logged() {
                i += 1;
            }
            (at, e)
        })
        .collect()
}

/// One event as a dict: the play of a ``play`` event is a ``Play`` (its notation taken from
/// `names`, the notations of the log's plays by log index), a roll a tuple or an int.
fn event_to_py<'py>(
    py: Python<'py>,
    e: &Event,
    names: &mut std::iter::Peekable<std::vec::IntoIter<(usize, String)>>,
    index: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match e {
        Event::Roll { seat, roll } => {
            d.set_item("event", "roll")?;
            d.set_item("seat", seat)?;
            d.set_item("roll", roll_to_py(py, *roll)?)?;
        }
        Event::Play { seat, play } => {
            let mut notation = String::new();
            while let Some((j, _)) = names.peek()
                && *j < index
            {
                names.next();
            }
            if let Some((j, _)) = names.peek()
                && *j == index
                && let Some((_, n)) = names.next()
            {
                notation = n;
            }
            d.set_item("event", "play")?;
            d.set_item("seat", seat)?;
            d.set_item("play", PyPlay::with_notation(*play, notation))?;
        }
        Event::Step { seat, step } => {
            d.set_item("event", "step")?;
            d.set_item("seat", seat)?;
            d.set_item("step", PyStep { inner: *step })?;
        }
        other => {
            let v = serde_to_py(py, other)?;
            return Ok(v.cast::<PyDict>()?.clone());
        }
    }
    Ok(d)
}

/// The legal plays of a decision node (what ``Game.legal_plays()`` returns): a read-only sequence
/// over the list the game keeps, which makes each ``Play`` when it is read.
///
/// It supports what reading a list does (``len``, indexing with negative indices, slices, which
/// give a ``list``, iteration, ``in``, ``index``, ``count``, ``+`` with a list) and equals the
/// ``list`` of the same plays; ``list(plays)`` gives a list to sort or shuffle. It stays valid
/// after the game moves on (it keeps its plays).
#[pyclass(module = "pachisi", name = "LegalPlays", frozen, sequence)]
pub struct PyLegalPlays {
    plays: SharedPlays,
    formatter: PlayFormatter,
}

impl PyLegalPlays {
    fn item(&self, i: usize) -> PyPlay {
        PyPlay::from_list(&self.plays, i, self.formatter.clone())
    }

    fn list_of<'py>(
        &self,
        py: Python<'py>,
        indices: impl ExactSizeIterator<Item = usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, indices.map(|i| self.item(i)))
    }

    /// Whether `other` (a list or a `LegalPlays`) holds the same plays; `None` for other types.
    fn same_plays(&self, other: &Bound<'_, PyAny>) -> PyResult<Option<bool>> {
        if let Ok(o) = other.cast::<PyLegalPlays>() {
            return Ok(Some(self.plays[..] == o.get().plays[..]));
        }
        let Ok(list) = other.cast::<PyList>() else {
            return Ok(None);
        };
        if list.len() != self.plays.len() {
            return Ok(Some(false));
        }
        for (item, p) in list.iter().zip(self.plays.iter()) {
            match item.cast::<PyPlay>() {
                Ok(q) if q.get().inner == *p => {}
                _ => return Ok(Some(false)),
            }
        }
        Ok(Some(true))
    }

    /// `start..stop` of `list.index`, clamped as a list clamps them.
    fn bounds(&self, start: isize, stop: Option<isize>) -> (usize, usize) {
        let n = self.plays.len() as isize;
        let clamp = |i: isize| (if i < 0 { i + n } else { i }).clamp(0, n) as usize;
        (clamp(start), clamp(stop.unwrap_or(n)))
    }
}

#[pymethods]
impl PyLegalPlays {
    fn __len__(&self) -> usize {
        self.plays.len()
    }

    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.plays.len();
        if let Ok(slice) = index.cast::<PySlice>() {
            let ind = slice.indices(n as isize)?;
            let picked = (0..ind.slicelength).map(|k| (ind.start + k as isize * ind.step) as usize);
            return Ok(self.list_of(py, picked)?.into_any());
        }
        // An int too large for `isize` is out of range like any other (as in a list).
        if index.is_instance_of::<pyo3::types::PyInt>()
            && !index.is_instance_of::<pyo3::types::PyBool>()
            && index.extract::<isize>().is_err()
        {
            return Err(PyIndexError::new_err(format!(
                "legal play index {index} is out of range ({n} legal plays)"
            )));
        }
        let i: isize = index.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "LegalPlays indices must be integers or slices, not {}",
                index
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |t| t.to_string())
            ))
        })?;
        let at = if i < 0 { i + n as isize } else { i };
        if at < 0 || at >= n as isize {
            return Err(PyIndexError::new_err(format!(
                "legal play index {i} is out of range ({n} legal plays)"
            )));
        }
        Ok(Bound::new(py, self.item(at as usize))?.into_any())
    }

    fn __iter__(&self) -> PyLegalPlaysIter {
        PyLegalPlaysIter {
            plays: self.plays.clone(),
            formatter: self.formatter.clone(),
            next: 0,
        }
    }

    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.list_of(py, (0..self.plays.len()).rev())?.try_iter()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> bool {
        item.cast::<PyPlay>()
            .is_ok_and(|p| self.plays.contains(&p.get().inner))
    }

    /// The index of the first play equal to ``value`` (in ``start:stop``); ``ValueError`` if none.
    #[pyo3(signature = (value, start=0, stop=None))]
    fn index(
        &self,
        value: &Bound<'_, PyAny>,
        start: isize,
        stop: Option<isize>,
    ) -> PyResult<usize> {
        let (a, b) = self.bounds(start, stop);
        if let Ok(p) = value.cast::<PyPlay>() {
            let p = p.get().inner;
            if let Some(k) = self
                .plays
                .get(a..b.max(a))
                .and_then(|s| s.iter().position(|q| *q == p))
            {
                return Ok(a + k);
            }
        }
        Err(PyValueError::new_err("the play is not in the legal plays"))
    }

    /// How many plays equal ``value`` (0 or 1: the plays are distinct).
    fn count(&self, value: &Bound<'_, PyAny>) -> usize {
        match value.cast::<PyPlay>() {
            Ok(p) => self.plays.iter().filter(|q| **q == p.get().inner).count(),
            Err(_) => 0,
        }
    }

    fn __richcmp__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Py<PyAny>> {
        let same = match op {
            CompareOp::Eq | CompareOp::Ne => self.same_plays(other)?,
            _ => None,
        };
        Ok(match same {
            Some(eq) => (eq == matches!(op, CompareOp::Eq)).into_py_any(py)?,
            None => py.NotImplemented(),
        })
    }

    fn __add__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        if !other.is_instance_of::<PyList>() && !other.is_instance_of::<PyLegalPlays>() {
            return Ok(py.NotImplemented());
        }
        let mine = self.list_of(py, 0..self.plays.len())?;
        let theirs = PyList::new(py, other.try_iter()?.collect::<PyResult<Vec<_>>>()?)?;
        Ok(mine.add(theirs)?.unbind())
    }

    fn __radd__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        if !other.is_instance_of::<PyList>() {
            return Ok(py.NotImplemented());
        }
        let mine = self.list_of(py, 0..self.plays.len())?;
        Ok(other.add(mine)?.unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(self
            .list_of(py, 0..self.plays.len())?
            .repr()?
            .to_cow()?
            .into_owned())
    }

    /// Pickles (and copies) as the ``list`` of the plays.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let list = self.list_of(py, 0..self.plays.len())?;
        PyTuple::new(
            py,
            [
                py.get_type::<PyList>().into_any(),
                PyTuple::new(py, [list])?.into_any(),
            ],
        )
    }
}

/// Iterates over a ``LegalPlays``.
#[pyclass(module = "pachisi", name = "LegalPlaysIterator")]
pub struct PyLegalPlaysIter {
    plays: SharedPlays,
    formatter: PlayFormatter,
    next: usize,
}

#[pymethods]
impl PyLegalPlaysIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<PyPlay> {
        let i = self.next;
        (i < self.plays.len()).then(|| {
            self.next += 1;
            PyPlay::from_list(&self.plays, i, self.formatter.clone())
        })
    }
}

impl PyGame {
    fn make_play(&self, play: Play) -> PyPlay {
        PyPlay::with_notation(play, self.inner.format_play(&play))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules, seed=None, **options))]
    fn new(
        rules: &Bound<'_, PyAny>,
        seed: Option<Seed>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = rules_from(rules, options)?;
        let seed = seed.map_or_else(fresh_seed, |s| s.0);
        Ok(PyGame {
            inner: guard_ok(|| Game::new(&rules, seed))?,
        })
    }

    /// A game from a position in the variant's notation (as ``position`` writes it), and
    /// optionally steps already taken in its play (``taken``, a list of ``Step``s, each legal in
    /// turn: what ``repr`` writes part-way through a play).
    #[staticmethod]
    #[pyo3(signature = (rules, position, seed=None, taken=None, **options))]
    fn from_position(
        rules: &Bound<'_, PyAny>,
        position: &str,
        seed: Option<Seed>,
        taken: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = rules_from(rules, options)?;
        let seed = seed.map_or_else(fresh_seed, |s| s.0);
        let steps = match taken {
            Some(t) if !t.is_none() => steps_from_py(t)?,
            _ => Play::new(),
        };
        let inner = guard(|| {
            let mut g = Game::from_position(&rules, position, seed)?;
            for st in steps.steps() {
                g.step(st)?;
            }
            Ok(g)
        })?;
        Ok(PyGame { inner })
    }

    /// Reads a whole game written by ``to_json()`` (rules, position, generator, history).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Ok(PyGame {
            inner: guard(|| Game::from_json(text))?,
        })
    }

    /// The whole game as JSON text; ``Game.from_json`` restores it exactly (undo included).
    fn to_json(&self) -> PyResult<String> {
        guard_ok(|| self.inner.to_json())
    }

    /// The rules this game plays by.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules {
            inner: self.inner.rules().clone(),
        }
    }

    /// The preset name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant()
    }

    /// Number of seats.
    #[getter]
    fn seats(&self) -> u8 {
        self.inner.seats()
    }

    /// The current position in the variant's notation, with the steps taken so far applied.
    /// Between plays it round-trips through ``from_position``; part-way through a play
    /// ``from_position(rules, game.start_position, taken=game.taken)`` does (``repr`` writes
    /// that).
    #[getter]
    fn position(&self) -> PyResult<String> {
        guard_ok(|| self.inner.position())
    }

    /// The position at the start of the current play (``position`` until a step is taken).
    #[getter]
    fn start_position(&self) -> PyResult<String> {
        guard_ok(|| self.inner.start_position())
    }

    /// The seat to roll or to play.
    #[getter]
    fn to_move(&self) -> PyResult<u8> {
        guard_ok(|| self.inner.to_move())
    }

    /// ``"chance"`` (a roll is due), ``"decision"`` (a play is due) or ``"over"``.
    #[getter]
    fn node(&self) -> PyResult<&'static str> {
        guard_ok(|| node_name(self.inner.node()))
    }

    /// Whether the next event is a roll.
    fn is_chance_node(&self) -> PyResult<bool> {
        guard_ok(|| self.inner.is_chance_node())
    }

    /// Whether the seat to move must choose a play now.
    fn is_decision_node(&self) -> PyResult<bool> {
        guard_ok(|| self.inner.node() == Node::Decision)
    }

    /// Whether the game has ended.
    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        guard_ok(|| self.inner.is_over())
    }

    /// The lowest winning seat, or ``None`` while the game goes on.
    #[getter]
    fn winner(&self) -> PyResult<Option<u8>> {
        guard_ok(|| self.inner.winner())
    }

    /// Whether the game ended because a roll was due after the rules' ``max_rolls`` rolls: it
    /// is over with no winner (decision G-A of ``docs/RULES.md``).
    #[getter]
    fn truncated(&self) -> PyResult<bool> {
        guard_ok(|| self.inner.is_truncated())
    }

    /// Rolls (chance events) made since the game began, or since its starting position.
    #[getter]
    fn rolls(&self) -> PyResult<usize> {
        guard_ok(|| self.inner.rolls())
    }

    /// Every winning seat (a whole team wins together); empty while the game goes on.
    #[getter]
    fn winners(&self) -> PyResult<Vec<u32>> {
        guard_ok(|| match self.inner.outcome() {
            Some(o) => (0..self.inner.seats())
                .filter(|&s| o.is_winner(s))
                .map(u32::from)
                .collect(),
            None => Vec::new(),
        })
    }

    /// Points won (1 in the Pachisi family; 1, 2 or 3 times the cube in backgammon), or ``None``.
    #[getter]
    fn points(&self) -> PyResult<Option<u32>> {
        guard_ok(|| self.inner.outcome().map(|o| o.points))
    }

    /// Per-seat returns (zero-sum); zeros while the game goes on.
    fn returns(&self) -> PyResult<Vec<f64>> {
        guard_ok(|| self.inner.returns())
    }

    /// The outcomes of the roll due now with their probabilities, ``[(dice, p), ...]``; dice are a
    /// tuple ``(a, b)`` or an int (cowries mouth up). Empty unless at a chance node.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let outcomes = guard_ok(|| self.inner.chance_outcomes())?;
        let list = PyList::empty(py);
        for o in outcomes {
            list.append((roll_to_py(py, o.roll)?, o.probability))?;
        }
        Ok(list)
    }

    /// Rolls: with no argument from the game's seeded generator, else the given dice (validated:
    /// ``(a, b)`` for two dice, an int for cowries). Returns the roll.
    ///
    /// If the roll cannot be played at all it is forfeited at once: the game is then at a chance
    /// node again (the next seat's roll, or an extra roll) and ``legal_plays()`` is ``[]``.
    #[pyo3(signature = (dice=None))]
    fn roll<'py>(
        &mut self,
        py: Python<'py>,
        dice: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match dice {
            None => {
                let r = guard(|| self.inner.roll())?;
                roll_to_py(py, r)
            }
            Some(d) => {
                let r = roll_from_py(d)?;
                guard(|| self.inner.set_roll(r))?;
                roll_to_py(py, r)
            }
        }
    }

    /// Every legal complete play of the roll, one per distinct resulting position (beginning with
    /// the steps already taken, if any). An empty list means no play is due: a roll is due, the
    /// game is over, or the last roll could not be played and was forfeited.
    ///
    /// A ``LegalPlays``: a read-only sequence over the list the game keeps for this decision
    /// (nothing is copied; each ``Play`` is made when an element is read), equal to the list of
    /// the same plays; ``list(plays)`` for a list of your own.
    fn legal_plays(&self) -> PyResult<PyLegalPlays> {
        guard_ok(|| PyLegalPlays {
            plays: self.inner.legal_plays_shared(),
            formatter: self.inner.play_formatter(),
        })
    }

    /// The next steps that begin (or continue) at least one legal play.
    fn legal_steps(&self) -> PyResult<Vec<PyStep>> {
        let steps = guard_ok(|| self.inner.legal_steps())?;
        Ok(steps.into_iter().map(|s| PyStep { inner: s }).collect())
    }

    /// The steps of the current play taken so far with ``step()``.
    #[getter]
    fn taken<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        steps_to_list(py, self.inner.taken())
    }

    /// Parses move notation into the legal play it names.
    fn parse_play(&self, text: &str) -> PyResult<PyPlay> {
        let p = guard(|| self.inner.parse_play(text))?;
        guard_ok(|| self.make_play(p))
    }

    /// Makes a complete play: a ``Play`` from ``legal_plays()``, or its notation (a ``str``).
    /// An illegal play raises ``IllegalMoveError`` and leaves the game unchanged.
    fn play(&mut self, play: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(p) = play.cast::<PyPlay>() {
            let p = p.get();
            // A play read from this node's `legal_plays()`: its index there, no lookup.
            if let Some((list, i)) = &p.origin
                && self.inner.plays_are_current(list)
            {
                let i = *i as usize;
                return guard(|| self.inner.play_index(i));
            }
            let p = p.inner;
            return guard(|| self.inner.play(&p));
        }
        if let Ok(s) = play.cast::<PyString>() {
            let text = s.to_cow()?.into_owned();
            return guard(|| self.inner.play_notation(&text));
        }
        if play.is_instance_of::<PyList>() || play.is_instance_of::<PyTuple>() {
            let p = steps_from_py(play)?;
            return guard(|| self.inner.play(&p));
        }
        Err(new_err(
            Kind::IllegalMove,
            "play() takes a pachisi.Play, its notation (str) or a list of Steps",
        ))
    }

    /// Makes legal play number ``index`` of ``legal_plays()``: the list the game keeps for this
    /// decision, so nothing is generated or looked up. ``IndexError`` when out of range.
    fn play_index(&mut self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.inner.legal_plays_ref().len();
        if index.is_instance_of::<pyo3::types::PyBool>()
            || !index.is_instance_of::<pyo3::types::PyInt>()
        {
            return Err(PyTypeError::new_err(format!(
                "play_index() takes an int, got {}",
                index.get_type().name()?
            )));
        }
        // Any int that is no index of the list (negative, or huge) is out of range; where no
        // play is due the engine's own error (wrong phase) explains more than a range would.
        let index = index.extract::<usize>().ok();
        let index = match index {
            Some(i) if i < n => i,
            _ if self.inner.node() != Node::Decision => index.unwrap_or(usize::MAX),
            Some(i) => {
                return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                    "play index {i} is out of range ({n} legal plays)"
                )));
            }
            None => {
                return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                    "play index out of range ({n} legal plays)"
                )));
            }
        };
        guard(|| self.inner.play_index(index))
    }

    /// Takes one step (from ``legal_steps()``); when the steps taken form a complete play that
    /// nothing extends, the play ends by itself.
    fn step(&mut self, step: &Bound<'_, PyStep>) -> PyResult<()> {
        let s = step.get().inner;
        guard(|| self.inner.step(&s))
    }

    /// Ends the current play with the steps taken so far (they must form a complete legal play;
    /// with none taken this is a pass, where the variant allows one).
    fn finish_play(&mut self) -> PyResult<()> {
        guard(|| self.inner.finish_play())
    }

    /// Takes back the last roll, play, step or finish (the generator is restored too).
    fn undo(&mut self) -> PyResult<()> {
        guard(|| self.inner.undo())
    }

    /// How many actions ``undo()`` can take back.
    #[getter]
    fn history_len(&self) -> usize {
        self.inner.history_len()
    }

    /// An independent copy (same generator state: both copies roll the same dice).
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Everything that happened, in order: dicts ``{"event": "roll", "seat", "roll"}``,
    /// ``{"event": "play", "seat", "play"}`` (a ``Play``) and ``{"event": "forfeit", "seat"}``.
    #[getter]
    fn log<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let notations = guard_ok(|| self.inner.log_notations())?;
        let mut names = notations.into_iter().peekable();
        let list = PyList::empty(py);
        for (i, e) in self.inner.log().iter().enumerate() {
            list.append(event_to_py(py, e, &mut names, i)?)?;
        }
        Ok(list)
    }

    /// The events of the last action: the action (``roll``, ``play`` or ``step``), then what it
    /// caused, in order: ``capture`` (``owner``, ``victim``, ``count``, ``place``), ``bonus``
    /// (``owner``, ``value``), ``penalty``, ``extra-roll``, ``forfeit`` (a roll that could not be
    /// played), ``game-over`` (``outcome``). Each is a dict with ``"event"`` naming it.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let events = self.inner.events();
        let first = self.inner.log_len() - events.iter().filter(|e| e.is_logged()).count();
        // Only the play of this action needs a notation: written from the position before it.
        let mut names: Vec<(usize, String)> = Vec::new();
        if let Some(text) = guard_ok(|| self.inner.last_action_notation())? {
            if let Some((i, _)) = logged_indices(events, first)
                .into_iter()
                .find(|(_, e)| matches!(e, Event::Play { .. }))
            {
                names.push((i, text));
            }
        }
        let mut names = names.into_iter().peekable();
        let list = PyList::empty(py);
        for (i, e) in logged_indices(events, first) {
            list.append(event_to_py(py, e, &mut names, i)?)?;
        }
        Ok(list)
    }

    /// Every action so far, oldest first: ``[{"seat": s, "events": [...]}, ...]`` with the events
    /// of each action as ``events()`` lists them.
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let history = guard_ok(|| self.inner.history())?;
        let notations = guard_ok(|| self.inner.log_notations())?;
        let mut names = notations.into_iter().peekable();
        let list = PyList::empty(py);
        let first_logged = self.inner.log_len()
            - history
                .iter()
                .map(|h| h.events.iter().filter(|e| e.is_logged()).count())
                .sum::<usize>();
        let mut logged = first_logged;
        for entry in &history {
            let events = PyList::empty(py);
            for (i, e) in logged_indices(&entry.events, logged) {
                events.append(event_to_py(py, e, &mut names, i)?)?;
            }
            logged += entry.events.iter().filter(|e| e.is_logged()).count();
            let d = PyDict::new(py);
            d.set_item("seat", entry.seat)?;
            d.set_item("events", events)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Makes again the last action ``undo()`` took back (the same roll, play or step). Any new
    /// action clears what there is to redo.
    fn redo(&mut self) -> PyResult<()> {
        guard(|| self.inner.redo())
    }

    /// How many actions ``redo()`` can make again.
    #[getter]
    fn redo_len(&self) -> usize {
        self.inner.redo_len()
    }

    /// A 64-bit hash of the position (the position at the start of the play and the steps taken;
    /// not the history or the generator), for transposition tables: games for which
    /// ``same_position`` is true have equal hashes. Stable within one version of the library on
    /// one platform; not a format to store. (A ``Game`` is mutable, so it defines no
    /// ``__hash__``.)
    fn hash(&self) -> u64 {
        self.inner.position_hash()
    }

    /// Whether both games stand at the same position under the same rules (history, generator
    /// and log aside, and the order of two dice: 3-5 and 5-3 are one roll).
    fn same_position(&self, other: PyRef<'_, PyGame>) -> bool {
        self.inner.same_position(&other.inner)
    }

    /// The legal plays of a hypothetical roll at this chance node, without changing the game
    /// (``(a, b)`` for two dice, an int for cowries): what ``legal_plays()`` would list after
    /// ``roll(dice)``; ``[]`` when that roll could not be played or is resolved at once.
    fn plays_for_roll(&self, dice: &Bound<'_, PyAny>) -> PyResult<Vec<PyPlay>> {
        let r = roll_from_py(dice)?;
        let plays = guard(|| self.inner.plays_for_roll(r))?;
        if plays.is_empty() {
            return Ok(Vec::new());
        }
        let mut after = self.inner.clone();
        guard(|| after.set_roll(r))?;
        let f = after.play_formatter();
        Ok(plays
            .into_iter()
            .map(|p| PyPlay::with_formatter(p, f.clone()))
            .collect())
    }

    /// Everything a renderer draws: ``{"board", "node", "to_move", "roll", "pieces", "safe"}``
    /// with every piece and its place in board coordinates (as ``pieces()``), the safe squares
    /// and castles of the rules, the roll being played (``None`` unless at a decision node after
    /// a roll) and whose turn it is.
    fn board_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let data = guard_ok(|| self.inner.board_data())?;
        let out = serde_to_py(py, &data)?;
        let d = out.cast::<PyDict>()?;
        match data.roll {
            Some(r) => d.set_item("roll", roll_to_py(py, r)?)?,
            None => d.set_item("roll", py.None())?,
        }
        d.set_item("pieces", self.pieces(py)?)?;
        Ok(out)
    }

    /// The last play made (not a forfeit) as ``(seat, Play)``, or ``None``.
    fn last_play(&self) -> PyResult<Option<(u8, PyPlay)>> {
        let Some((seat, play)) = guard_ok(|| self.inner.last_play())? else {
            return Ok(None);
        };
        let notation = guard_ok(|| self.inner.log_notations())?
            .pop()
            .map(|(_, n)| n)
            .unwrap_or_default();
        Ok(Some((seat, PyPlay::with_notation(play, notation))))
    }

    /// The board kind: ``"loop"`` (the Parcheesi board: a loop of 68 squares), ``"cross"`` (classic) or
    /// ``"backgammon"``.
    #[getter]
    fn board(&self) -> &'static str {
        match self.inner.board() {
            pachisi::BoardKind::Loop => "loop",
            pachisi::BoardKind::Cross => "cross",
            pachisi::BoardKind::Backgammon => "backgammon",
        }
    }

    /// Every piece (or group of pieces) and its absolute place:
    /// ``[{"seat", "piece", "place": {"zone", ...}, "count"}, ...]``. In classic Pachisi a place
    /// in the centre is ``{"zone": "charkoni", "stage": "waiting" | "entered" | "home"}``.
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pieces = guard_ok(|| self.inner.pieces())?;
        let out = serde_to_py(py, &pieces)?;
        // `piece` is None for groups without identity, as in Step.
        for item in out.try_iter()? {
            let item = item?;
            let d = item.cast::<PyDict>()?;
            if let Some(p) = d.get_item("piece")?
                && p.extract::<u8>().ok() == Some(pachisi::NO_PIECE)
            {
                d.set_item("piece", py.None())?;
            }
        }
        Ok(out)
    }

    /// The absolute place of a seat-relative position (a step's ``from_`` or ``to``);
    /// ``InvalidArgumentError`` for a seat or a position the game does not have.
    fn place<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
        pos: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seats = self.inner.seats();
        let seat: u8 = int_arg(seat, "seat", &format!("a seat 0..{seats}"))?;
        let pos: u8 = int_arg(pos, "pos", "a position of this game")?;
        let place = guard(|| self.inner.checked_place(seat, pos))?;
        serde_to_py(py, &place)
    }

    /// The engine's state (position, turn, pending roll) as a dict, for debugging.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = guard_ok(|| self.inner.state_value())?;
        json_to_py(py, &v)
    }

    /// The board as an SVG document ``size`` pixels wide (see ``pachisi::Game::svg``).
    /// ``size`` must be a number from 50 to 20000 (``InvalidArgumentError`` outside).
    #[pyo3(signature = (size=560.0))]
    fn svg(&self, size: f64) -> PyResult<String> {
        if !(size.is_finite() && (pachisi::svg::MIN_SIZE..=MAX_SVG_SIZE).contains(&size)) {
            return Err(new_err(
                Kind::InvalidArgument,
                format!(
                    "`size` must be {}..={MAX_SVG_SIZE} pixels, got {size}",
                    pachisi::svg::MIN_SIZE
                ),
            ));
        }
        guard_ok(|| self.inner.svg(size))
    }

    fn _repr_svg_(&self) -> PyResult<String> {
        guard_ok(|| self.inner.svg(pachisi::svg::DEFAULT_SIZE))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let rules = self.inner.rules();
        let first = if rules.changed_options().is_empty() {
            format!("'{}'", rules.variant())
        } else {
            rules_repr(py, rules)?
        };
        // Part-way through a play: the play's start and the steps taken (the position with
        // the steps applied would start a different decision).
        let position = guard_ok(|| self.inner.start_position())?;
        let position = PyString::new(py, &position).repr()?;
        let taken = self.inner.taken();
        if taken.is_empty() {
            return Ok(format!("Game.from_position({first}, {position})"));
        }
        let steps: Vec<String> = taken
            .iter()
            .map(|s| PyStep { inner: *s }.__repr__())
            .collect();
        Ok(format!(
            "Game.from_position({first}, {position}, taken=[{}])",
            steps.join(", ")
        ))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ctor = py.get_type::<PyGame>().getattr("from_json")?;
        let args = (self.to_json()?,).into_bound_py_any(py)?;
        PyTuple::new(py, [ctor, args])
    }

    /// The play a player chooses here (the game is not changed): ``policy`` is a spec
    /// (``"greedy"``, ``"expectimax:depth=2"``, ``"mcts:iterations=2000"``, a dict), a
    /// ``Player``, or a Python callable ``policy(game, plays)`` returning an index into ``plays``
    /// or one of them (the slow path: Python runs for every decision; it gets a copy of the
    /// game, so it cannot change this one). Built-in players are
    /// seeded with ``seed``. ``WrongPhaseError`` unless a play is due.
    #[pyo3(signature = (policy=PolicyArg::greedy(), seed=Seed(0)),
           text_signature = "($self, policy='greedy', seed=0)")]
    fn best_play(slf: &Bound<'_, Self>, policy: PolicyArg<'_>, seed: Seed) -> PyResult<PyPlay> {
        crate::players::best_play(slf.py(), slf, policy, seed.0)
    }

    /// Every legal play with each seat's win probability after it, by ``rollouts`` games played
    /// out with ``policy`` in every seat, the same dice for every play (common random numbers):
    /// a list of dicts (``index`` in ``legal_plays()``, ``play``, ``notation``, ``win`` and
    /// ``stderr`` per seat, ``diff``: the mover's win probability minus the best play's, and its
    /// ``diff_stderr``), best play first. The GIL is released.
    #[pyo3(signature = (rollouts=None, policy=PolicyArg::greedy(), seed=Seed(0), threads=None),
           text_signature = "($self, rollouts=500, policy='greedy', seed=0, threads=None)")]
    fn hint<'py>(
        &self,
        py: Python<'py>,
        rollouts: Option<&Bound<'py, PyAny>>,
        policy: PolicyArg<'py>,
        seed: Seed,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let rollouts: usize = match rollouts {
            Some(r) => int_arg(r, "rollouts", "an int >= 0")?,
            None => 500,
        };
        let threads = threads_arg(threads)?;
        crate::players::hint(py, &self.inner, rollouts, policy, seed.0, threads)
    }

    /// Each seat's win probability from this position: ``win`` and ``stderr`` per seat by
    /// ``rollouts`` games played out with ``policy`` (the GIL released), or with ``rollouts=0``
    /// the static evaluator's estimate (``stderr`` None).
    #[pyo3(signature = (rollouts=None, policy=PolicyArg::greedy(), seed=Seed(0), threads=None),
           text_signature = "($self, rollouts=500, policy='greedy', seed=0, threads=None)")]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        rollouts: Option<&Bound<'py, PyAny>>,
        policy: PolicyArg<'py>,
        seed: Seed,
        threads: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let rollouts: usize = match rollouts {
            Some(r) => int_arg(r, "rollouts", "an int >= 0")?,
            None => 500,
        };
        let threads = threads_arg(threads)?;
        crate::players::evaluate(py, &self.inner, rollouts, policy, seed.0, threads)
    }
}
