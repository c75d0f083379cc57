//! `pachisi.Step` and `pachisi.Play`.

use crate::errors::{Kind, int_arg, new_err};
use pachisi::{MAX_STEPS, NO_PIECE, Play, SharedPlays, Step, StepKind};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

/// The name of a step kind: ``"move"``, ``"enter"``, ``"bonus"``, ``"double"``, ...
pub fn kind_name(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Move => "move",
        StepKind::Enter => "enter",
        StepKind::Bonus => "bonus",
        StepKind::Double => "double",
        StepKind::NoDouble => "no-double",
        StepKind::Take => "take",
        StepKind::Drop => "drop",
    }
}

fn kind_from_name(name: &str) -> PyResult<StepKind> {
    StepKind::ALL
        .iter()
        .copied()
        .find(|k| kind_name(*k) == name)
        .ok_or_else(|| {
            new_err(
                Kind::IllegalMove,
                format!(
                    "unknown step kind `{name}` (kinds: move, enter, bonus, double, no-double, take, drop)"
                ),
            )
        })
}

/// One sub-move of a play: one piece (or a gate, unit or stack moving as one) by one value.
///
/// ``from_`` (also ``frm``) and ``to`` are positions in the moving seat's own coordinates, as the
/// variant documents; ``piece`` is ``None`` where pieces have no identity (backgammon checkers).
#[pyclass(module = "pachisi", name = "Step", frozen)]
#[derive(Clone)]
pub struct PyStep {
    pub inner: Step,
}

#[pymethods]
impl PyStep {
    #[new]
    #[pyo3(signature = (seat, piece, from_, to, value, count=None, captured=None, kind="move"),
           text_signature = "(seat, piece, from_, to, value, count=1, captured=0, kind='move')")]
    #[allow(clippy::too_many_arguments)]
    fn new(
        seat: &Bound<'_, PyAny>,
        piece: Option<&Bound<'_, PyAny>>,
        from_: &Bound<'_, PyAny>,
        to: &Bound<'_, PyAny>,
        value: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        captured: Option<&Bound<'_, PyAny>>,
        kind: &str,
    ) -> PyResult<Self> {
        // Every field is a byte; out of range is InvalidArgumentError naming the field.
        let byte = |o: &Bound<'_, PyAny>, name: &str| int_arg::<u8>(o, name, "an int 0..=255");
        let optional = |o: Option<&Bound<'_, PyAny>>, name: &str, default: u8| match o {
            Some(o) if !o.is_none() => byte(o, name),
            _ => Ok(default),
        };
        Ok(PyStep {
            inner: Step {
                seat: byte(seat, "seat")?,
                piece: optional(piece, "piece", NO_PIECE)?,
                from: byte(from_, "from_")?,
                to: byte(to, "to")?,
                value: byte(value, "value")?,
                count: optional(count, "count", 1)?,
                captured: optional(captured, "captured", 0)?,
                kind: kind_from_name(kind)?,
            },
        })
    }
    /// The seat whose piece moves (a partner's seat when a finished seat plays for it).
    #[getter]
    fn seat(&self) -> u8 {
        self.inner.seat
    }
    /// The piece's index within its seat, or ``None`` for pieces without identity.
    #[getter]
    fn piece(&self) -> Option<u8> {
        (self.inner.piece != NO_PIECE).then_some(self.inner.piece)
    }
    /// Where the piece stood, in the seat's coordinates.
    #[getter]
    fn from_(&self) -> u8 {
        self.inner.from
    }
    /// Same as ``from_``.
    #[getter]
    fn frm(&self) -> u8 {
        self.inner.from
    }
    /// Where it stands after the step, in the seat's coordinates.
    #[getter]
    fn to(&self) -> u8 {
        self.inner.to
    }
    /// The pips this step spends (a die, a sum, a bonus, a throw).
    #[getter]
    fn value(&self) -> u8 {
        self.inner.value
    }
    /// How many pieces move together.
    #[getter]
    fn count(&self) -> u8 {
        self.inner.count
    }
    /// How many opposing pieces this step captures.
    #[getter]
    fn captured(&self) -> u8 {
        self.inner.captured
    }
    /// ``"move"``, ``"enter"``, ``"bonus"``, ``"double"``, ``"no-double"``, ``"take"`` or ``"drop"``.
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.inner.kind)
    }
    /// The step as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("seat", self.seat())?;
        d.set_item("piece", self.piece())?;
        d.set_item("from", self.inner.from)?;
        d.set_item("to", self.inner.to)?;
        d.set_item("value", self.inner.value)?;
        d.set_item("count", self.inner.count)?;
        d.set_item("captured", self.inner.captured)?;
        d.set_item("kind", self.kind())?;
        Ok(d)
    }
    pub(crate) fn __repr__(&self) -> String {
        let s = &self.inner;
        let piece = match self.piece() {
            Some(p) => p.to_string(),
            None => "None".into(),
        };
        format!(
            "Step(seat={}, piece={piece}, from_={}, to={}, value={}, count={}, captured={}, kind='{}')",
            s.seat,
            s.from,
            s.to,
            s.value,
            s.count,
            s.captured,
            self.kind()
        )
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyStep>() {
            Ok(o) => o.get().inner == self.inner,
            Err(_) => false,
        }
    }
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let s = &self.inner;
        let args = (
            s.seat,
            self.piece(),
            s.from,
            s.to,
            s.value,
            s.count,
            s.captured,
            self.kind(),
        )
            .into_bound_py_any(py)?;
        PyTuple::new(py, [py.get_type::<PyStep>().into_any(), args])
    }
}

/// Everything one seat does with one roll: its steps, bonuses included.
///
/// ``str(play)`` is the play in the variant's move notation (as written from the position it
/// was listed at); two plays are equal when their steps are. A play with no steps is a pass.
#[pyclass(module = "pachisi", name = "Play", frozen)]
#[derive(Clone)]
pub struct PyPlay {
    pub inner: Play,
    /// The notation, written on first use: listing plays stays cheap for callers that never
    /// print them (a random-play loop).
    notation: OnceLock<String>,
    formatter: Option<Formatter>,
    /// The game's list this play was taken from and its index there: `Game.play` then plays it
    /// by index, without a lookup, while the game stands at that node.
    pub origin: Option<(SharedPlays, u32)>,
}

/// Writes a play in the variant's notation from the position its roll started at.
pub type Formatter = pachisi::PlayFormatter;

impl PyPlay {
    /// A play whose notation is known.
    pub fn with_notation(inner: Play, notation: String) -> PyPlay {
        PyPlay {
            inner,
            notation: OnceLock::from(notation),
            formatter: None,
            origin: None,
        }
    }

    /// A play whose notation `formatter` writes when first asked for.
    pub fn with_formatter(inner: Play, formatter: Formatter) -> PyPlay {
        PyPlay {
            inner,
            notation: OnceLock::new(),
            formatter: Some(formatter),
            origin: None,
        }
    }

    /// Play number `index` of a game's list (see `origin`).
    pub fn from_list(plays: &SharedPlays, index: usize, formatter: Formatter) -> PyPlay {
        PyPlay {
            inner: plays[index],
            notation: OnceLock::new(),
            formatter: Some(formatter),
            origin: Some((plays.clone(), index as u32)),
        }
    }

    /// The play's notation.
    pub fn notation_text(&self) -> &str {
        self.notation.get_or_init(|| match &self.formatter {
            Some(f) => crate::errors::guard_ok(|| f(&self.inner)).unwrap_or_default(),
            None => String::new(),
        })
    }
}

pub fn steps_from_py(steps: &Bound<'_, PyAny>) -> PyResult<Play> {
    let mut play = Play::new();
    for item in steps.try_iter()? {
        let item = item?;
        let step = item
            .cast::<PyStep>()
            .map_err(|_| new_err(Kind::IllegalMove, "a play is a sequence of pachisi.Step"))?;
        if play.len() >= MAX_STEPS {
            return Err(new_err(
                Kind::IllegalMove,
                format!("a play holds at most {MAX_STEPS} steps"),
            ));
        }
        play.push(step.get().inner);
    }
    Ok(play)
}

pub fn steps_to_list<'py>(py: Python<'py>, steps: &[Step]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, steps.iter().map(|s| PyStep { inner: *s }))
}

#[pymethods]
impl PyPlay {
    #[new]
    #[pyo3(signature = (steps=None, notation=""))]
    fn new(steps: Option<&Bound<'_, PyAny>>, notation: &str) -> PyResult<Self> {
        let inner = match steps {
            Some(s) => steps_from_py(s)?,
            None => Play::new(),
        };
        Ok(PyPlay::with_notation(inner, notation.to_string()))
    }
    /// The steps, in order.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        steps_to_list(py, self.inner.steps())
    }
    /// The play in the variant's move notation.
    #[getter]
    fn notation(&self) -> &str {
        self.notation_text()
    }
    /// Opposing pieces captured by the whole play.
    #[getter]
    fn captures(&self) -> u32 {
        self.inner.captures()
    }
    /// Whether this is a pass (no steps).
    #[getter]
    fn is_pass(&self) -> bool {
        self.inner.is_pass()
    }
    fn __len__(&self) -> usize {
        self.inner.len()
    }
    fn __str__(&self) -> String {
        self.notation_text().to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<Play {:?}: {} steps>",
            self.notation_text(),
            self.inner.len()
        )
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyPlay>() {
            Ok(o) => o.get().inner == self.inner,
            Err(_) => false,
        }
    }
    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let args = (self.steps(py)?, self.notation_text().to_string()).into_bound_py_any(py)?;
        PyTuple::new(py, [py.get_type::<PyPlay>().into_any(), args])
    }
}
