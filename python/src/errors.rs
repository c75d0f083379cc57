//! The exception hierarchy: one Python class per `pachisi::Error` variant, and a guard that keeps
//! panics from crossing into Python.

use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyTuple, PyType};
use std::panic::{AssertUnwindSafe, catch_unwind};

pyo3::create_exception!(
    pachisi,
    PachisiError,
    PyException,
    "Base class of every error the pachisi engine raises."
);

/// The error classes below `PachisiError`, in the order of [`Kind`].
const CLASSES: [(&str, bool, &str); 12] = [
    (
        "UnknownVariantError",
        true,
        "A preset name that the engine does not know.",
    ),
    (
        "InvalidRulesError",
        true,
        "An unknown option, a wrong option type or value, or an invalid combination.",
    ),
    (
        "InvalidJsonError",
        true,
        "JSON that cannot be parsed or has the wrong shape.",
    ),
    (
        "InvalidNotationError",
        true,
        "Position or move notation that cannot be parsed.",
    ),
    (
        "InvalidPositionError",
        true,
        "A position that parses but cannot occur.",
    ),
    (
        "InvalidRollError",
        true,
        "Dice or a throw that this variant cannot produce here.",
    ),
    (
        "IllegalMoveError",
        true,
        "A play or step that is not legal now.",
    ),
    (
        "WrongPhaseError",
        false,
        "A call that does not fit the game's phase (a play when a roll is due, anything after the end, undo with no history).",
    ),
    (
        "InvalidPlayerError",
        true,
        "A player spec that names no player, or a parameter a player does not have or cannot take.",
    ),
    (
        "InvalidArgumentError",
        true,
        "An argument out of its range that is not a rules option (games < 0, threads = 0, a seat of 255, an SVG size of 1e308).",
    ),
    (
        "CancelledError",
        false,
        "A simulation stopped early because its progress callback asked it to.",
    ),
    (
        "ResourceError",
        false,
        "The operating system refused a resource: worker threads could not start, or memory for the results ran out.",
    ),
];

/// Which exception class to raise.
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    UnknownVariant = 0,
    InvalidRules = 1,
    InvalidJson = 2,
    InvalidNotation = 3,
    InvalidPosition = 4,
    InvalidRoll = 5,
    IllegalMove = 6,
    WrongPhase = 7,
    InvalidPlayer = 8,
    InvalidArgument = 9,
    Cancelled = 10,
    Resource = 11,
}

static TYPES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

/// The exception classes, created once: `type(name, bases, namespace)`, so the input-validation
/// errors can subclass both `PachisiError` and `ValueError`.
pub fn error_types(py: Python<'_>) -> PyResult<&Vec<Py<PyType>>> {
    TYPES.get_or_try_init(py, || {
        let builtins_type = py.get_type::<PyType>();
        let base = py.get_type::<PachisiError>();
        let value_error = py.get_type::<PyValueError>();
        let mut out = Vec::with_capacity(CLASSES.len());
        for (name, is_value_error, doc) in CLASSES {
            let bases = if is_value_error {
                PyTuple::new(py, [base.clone(), value_error.clone()])?
            } else {
                PyTuple::new(py, [base.clone()])?
            };
            let ns = PyDict::new(py);
            ns.set_item("__module__", "pachisi")?;
            ns.set_item("__doc__", doc)?;
            let cls = builtins_type.call1((name, bases, ns))?;
            out.push(cls.cast_into::<PyType>()?.unbind());
        }
        Ok(out)
    })
}

/// Adds `PachisiError` and its subclasses to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PachisiError", py.get_type::<PachisiError>())?;
    let types = error_types(py)?;
    for ((name, _, _), ty) in CLASSES.iter().zip(types) {
        m.add(*name, ty.bind(py))?;
    }
    Ok(())
}

/// An exception of class `kind` with `message`.
pub fn new_err(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| match error_types(py) {
        Ok(types) => PyErr::from_type(types[kind as usize].bind(py).clone(), message),
        Err(e) => e,
    })
}

/// The Python exception for an engine error.
pub fn to_pyerr(e: pachisi::Error) -> PyErr {
    use pachisi::Error as E;
    let message = e.to_string();
    let kind = match e {
        E::UnknownVariant { .. } => Kind::UnknownVariant,
        E::InvalidRules(_) => Kind::InvalidRules,
        E::InvalidJson(_) => Kind::InvalidJson,
        E::InvalidNotation(_) => Kind::InvalidNotation,
        E::InvalidPosition(_) => Kind::InvalidPosition,
        E::InvalidRoll(_) => Kind::InvalidRoll,
        E::IllegalMove(_) => Kind::IllegalMove,
        E::WrongPhase(_) => Kind::WrongPhase,
        E::InvalidPlayer(_) => Kind::InvalidPlayer,
        E::InvalidArgument(_) => Kind::InvalidArgument,
        E::Cancelled(_) => Kind::Cancelled,
        E::Resource(_) => Kind::Resource,
        _ => return PachisiError::new_err(message),
    };
    new_err(kind, message)
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs engine code; an engine error becomes its exception class and a panic (a bug) becomes
/// `PachisiError("internal error: ...")` instead of crossing into Python.
pub fn guard<T>(f: impl FnOnce() -> pachisi::Result<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(to_pyerr(e)),
        Err(payload) => Err(PachisiError::new_err(format!(
            "internal error in the pachisi engine: {}",
            panic_message(payload.as_ref())
        ))),
    }
}

/// Like [`guard`] for code that cannot fail except by panicking.
pub fn guard_ok<T>(f: impl FnOnce() -> T) -> PyResult<T> {
    guard(|| Ok(f()))
}

/// `obj` as an integer argument named `name` of type `T`: a `TypeError` naming the argument
/// when it is not an int (bools are refused too), an `InvalidArgumentError` naming it and
/// `range` when the value does not fit (never an `OverflowError`).
pub fn int_arg<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>, name: &str, range: &str) -> PyResult<T> {
    int_value(obj, &format!("`{name}`"), range)
}

/// A `TypeError` (`<what>, got <type>`) unless `obj` is an int; a bool is not one here.
fn require_int(obj: &Bound<'_, PyAny>, what: impl FnOnce() -> String) -> PyResult<()> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{}, got {}",
            what(),
            obj.get_type().name()?
        )));
    }
    Ok(())
}

/// [`int_arg`] for an argument described as `subject`.
fn int_value<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>, subject: &str, range: &str) -> PyResult<T> {
    require_int(obj, || format!("{subject} must be an int ({range})"))?;
    let out_of_range = || -> PyResult<PyErr> {
        // `str()` of an int over 4300 digits raises: describe it by its size instead.
        let text = match obj.str() {
            Ok(t) => t.to_cow()?.into_owned(),
            Err(_) => format!("an int of {} bits", obj.call_method0("bit_length")?),
        };
        Ok(new_err(
            Kind::InvalidArgument,
            format!(
                "{subject} must be {range}, got {}",
                pachisi::error::excerpt(&text, pachisi::error::EXCERPT_CHARS)
            ),
        ))
    };
    match obj.extract::<i128>() {
        Ok(v) => T::try_from(v).map_err(|_| out_of_range().unwrap_or_else(|e| e)),
        Err(_) => Err(out_of_range()?),
    }
}

/// A thread-count argument: `None` (every core) or an int 1..=`pachisi.MAX_THREADS`.
pub fn threads_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    let range = format!("1..={} (or None for every core)", pachisi::sim::MAX_THREADS);
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => {
            let n: usize = int_arg(o, "threads", &range)?;
            if n == 0 || n > pachisi::sim::MAX_THREADS {
                return Err(new_err(
                    Kind::InvalidArgument,
                    format!("`threads` must be {range}, got {n}"),
                ));
            }
            Ok(Some(n))
        }
    }
}

/// A seed: any Python int, taken modulo 2**64 (so -1 is 2**64 - 1); a `TypeError` for
/// anything else.
#[derive(Copy, Clone, Debug, Default)]
pub struct Seed(pub u64);

impl<'py> FromPyObject<'_, 'py> for Seed {
    type Error = PyErr;
    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Seed> {
        require_int(&obj, || "a seed must be an int".to_string())?;
        let reduced = obj.bitand(u64::MAX)?;
        Ok(Seed(reduced.extract::<u64>()?))
    }
}

/// The range of an integer argument type, for [`Named`]'s error message.
pub trait IntRange: TryFrom<i128> + Copy {
    /// The smallest and largest value, as text.
    const RANGE: &'static str;
}
impl IntRange for u8 {
    const RANGE: &'static str = "an int from 0 to 255";
}
impl IntRange for u32 {
    const RANGE: &'static str = "an int from 0 to 2**32 - 1";
}
impl IntRange for u64 {
    const RANGE: &'static str = "an int from 0 to 2**64 - 1";
}
impl IntRange for usize {
    const RANGE: &'static str = "an int from 0 to 2**64 - 1";
}
impl IntRange for i64 {
    const RANGE: &'static str = "an int from -2**63 to 2**63 - 1";
}

/// The name of an integer argument (and, when narrower than its type's, its range), for
/// [`Named`]'s messages.
pub trait ArgName {
    /// The argument's name in the Python signature.
    const NAME: &'static str;
    /// The valid range in words, when narrower than the type's.
    const RANGE: Option<&'static str> = None;
}

/// An integer argument of type `T` whose messages name it (`` `num_envs` must be an int ... ``;
/// pyo3 adds no name to them): a `TypeError` for a non-int (bools too), an
/// `InvalidArgumentError` when the value does not fit `T` or the range of `N` (never an
/// `OverflowError`, which pyo3's own integer arguments raise).
#[derive(Copy, Clone, Debug)]
pub struct Named<T, N>(pub T, pub std::marker::PhantomData<N>);

impl<T, N> Named<T, N> {
    /// A default value.
    pub const fn new(value: T) -> Self {
        Named(value, std::marker::PhantomData)
    }
}

impl<'py, T: IntRange, N: ArgName> FromPyObject<'_, 'py> for Named<T, N> {
    type Error = PyErr;
    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Named<T, N>> {
        let range = N::RANGE.unwrap_or(T::RANGE);
        int_value(&obj, &format!("`{}`", N::NAME), range).map(Named::new)
    }
}

macro_rules! arg_names {
    ($($ty:ident = $name:literal $(, $range:literal)?;)*) => {$(
        #[doc = concat!("The argument `", $name, "`.")]
        #[derive(Copy, Clone, Debug)]
        pub struct $ty;
        impl ArgName for $ty {
            const NAME: &'static str = $name;
            $(const RANGE: Option<&'static str> = Some($range);)?
        }
    )*};
}

arg_names! {
    NumEnvs = "num_envs", "an int from 1 to 65536";
    MaxDecisions = "max_decisions", "None or an int from 0 to 2**32 - 1";
    Games = "games", "an int >= 0";
    EvalEvery = "eval_every", "an int >= 0";
    EvalDeals = "eval_deals", "an int >= 0";
    Hidden = "hidden", "an int from 1 to 1024";
    MaxPoints = "max_points", "None or an int from 0 to 2**32 - 1";
    Action = "action";
    SeatArg = "seat";
}

/// An index argument, as a list takes one: a `TypeError` for a non-int (bools too); any int,
/// `None` inside when it is negative or too large for a `usize` (the caller's `IndexError`,
/// never an `InvalidArgumentError` or `OverflowError`).
#[derive(Copy, Clone, Debug)]
pub struct Index(pub Option<usize>);

impl<'py> FromPyObject<'_, 'py> for Index {
    type Error = PyErr;
    fn extract(obj: Borrowed<'_, 'py, PyAny>) -> PyResult<Index> {
        require_int(&obj, || "an index must be an int".to_string())?;
        Ok(Index(obj.extract::<usize>().ok()))
    }
}
