//! Conversions between Python objects and JSON values, rolls and places.

use crate::errors::{Kind, new_err};
use pachisi::Roll;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// A JSON value as a Python object (objects become dicts, arrays lists).
pub fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_bound_py_any(py)?
            } else if let Some(u) = n.as_u64() {
                u.into_bound_py_any(py)?
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?
            }
        }
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(json_to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => map_to_dict(py, m)?.into_any(),
    })
}

/// A JSON object as a Python dict.
pub fn map_to_dict<'py>(py: Python<'py>, m: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, x) in m {
        d.set_item(k, json_to_py(py, x)?)?;
    }
    Ok(d)
}

/// A Python object (None, bool, int, float, str, list/tuple, dict with str keys) as JSON.
/// `what` names the value in error messages.
pub fn py_to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(new_err(
            Kind::InvalidRules,
            format!("{what}: integer out of range"),
        ));
    }
    if obj.is_instance_of::<PyFloat>() {
        let f: f64 = obj.extract()?;
        return Number::from_f64(f).map(Value::Number).ok_or_else(|| {
            new_err(
                Kind::InvalidRules,
                format!("{what}: {f} is not a finite number"),
            )
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in obj.try_iter()? {
            out.push(py_to_json(&item?, what)?);
        }
        return Ok(Value::Array(out));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        return Ok(Value::Object(dict_to_map(d, what)?));
    }
    Err(new_err(
        Kind::InvalidRules,
        format!(
            "{what}: unsupported value of type {}",
            obj.get_type().name()?
        ),
    ))
}

/// A dict with string keys as a JSON object.
pub fn dict_to_map(d: &Bound<'_, PyDict>, what: &str) -> PyResult<Map<String, Value>> {
    let mut m = Map::new();
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| new_err(Kind::InvalidRules, format!("{what}: keys must be strings")))?;
        let value = py_to_json(&v, &format!("option `{key}`"))?;
        m.insert(key, value);
    }
    Ok(m)
}

/// The 36 rolls of two six-sided dice as tuples, `(a, b)` at index `6 * (a - 1) + (b - 1)`, made
/// once: tuples are immutable, so a roll hands out one of these instead of a new tuple per call.
static DICE_TUPLES: PyOnceLock<Vec<Py<PyTuple>>> = PyOnceLock::new();

/// A roll as Python: two dice as a tuple `(a, b)`, a cowrie throw as an int.
pub fn roll_to_py<'py>(py: Python<'py>, roll: Roll) -> PyResult<Bound<'py, PyAny>> {
    match roll {
        Roll::Dice([a, b]) if (1..=6).contains(&a) && (1..=6).contains(&b) => {
            let tuples = DICE_TUPLES.get_or_try_init(py, || {
                (1..=6u8)
                    .flat_map(|a| (1..=6u8).map(move |b| [a, b]))
                    .map(|d| Ok(PyTuple::new(py, d)?.unbind()))
                    .collect::<PyResult<Vec<_>>>()
            })?;
            let i = 6 * (a as usize - 1) + (b as usize - 1);
            Ok(tuples[i].bind(py).clone().into_any())
        }
        Roll::Dice([a, b]) => Ok(PyTuple::new(py, [a, b])?.into_any()),
        Roll::Cowries(n) => n.into_bound_py_any(py),
    }
}

/// A roll from Python: `(a, b)` / `[a, b]` for dice, an int for cowries (shells mouth up).
pub fn roll_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Roll> {
    let bad = || {
        new_err(
            Kind::InvalidRoll,
            "a roll is two dice `(a, b)` or a number of cowries mouth up (an int)",
        )
    };
    if obj.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    // The value as text, cut short, for a message (a Python int may have any size).
    let shown = |o: &Bound<'_, PyAny>| -> String {
        o.str()
            .map(|s| pachisi::error::excerpt(&s.to_string(), 40))
            .unwrap_or_default()
    };
    if obj.is_instance_of::<PyInt>() {
        let n = obj
            .extract::<i128>()
            .ok()
            .and_then(|n| u8::try_from(n).ok());
        let n = n.ok_or_else(|| {
            new_err(
                Kind::InvalidRoll,
                format!("{} shells up is out of range", shown(obj)),
            )
        })?;
        return Ok(Roll::Cowries(n));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        if items.len() != 2 {
            return Err(bad());
        }
        let mut dice = [0u8; 2];
        for (slot, item) in dice.iter_mut().zip(&items) {
            if item.is_instance_of::<PyBool>() || !item.is_instance_of::<PyInt>() {
                return Err(bad());
            }
            let v = item
                .extract::<i128>()
                .ok()
                .and_then(|n| u8::try_from(n).ok());
            *slot = v.ok_or_else(|| {
                new_err(
                    Kind::InvalidRoll,
                    format!("dice must show 1..=6, got {}", shown(item)),
                )
            })?;
        }
        return Ok(Roll::Dice(dice));
    }
    Err(bad())
}

/// Any serde value as a Python object (through JSON).
pub fn serde_to_py<'py, T: serde::Serialize>(
    py: Python<'py>,
    v: &T,
) -> PyResult<Bound<'py, PyAny>> {
    let value = serde_json::to_value(v)
        .map_err(|e| crate::errors::PachisiError::new_err(format!("internal error: {e}")))?;
    json_to_py(py, &value)
}
