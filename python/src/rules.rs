//! `pachisi.Rules`: a preset plus options.

use crate::convert::{dict_to_map, json_to_py, map_to_dict};
use crate::errors::{Kind, guard, new_err};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use serde_json::{Map, Value};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A validated variant: a preset name plus the value of every option.
///
/// ``Rules("parcheesi", capture_bonus=10)`` starts from the preset and changes the options given
/// as keyword arguments; unknown options, wrong types and invalid combinations raise
/// ``InvalidRulesError``, unknown presets ``UnknownVariantError``.
#[pyclass(module = "pachisi", name = "Rules", frozen)]
#[derive(Clone)]
pub struct PyRules {
    pub inner: pachisi::Rules,
}

/// Options given as keyword arguments, as a JSON object.
pub fn kwargs_map(options: Option<&Bound<'_, PyDict>>) -> PyResult<Map<String, Value>> {
    match options {
        Some(d) => dict_to_map(d, "options"),
        None => Ok(Map::new()),
    }
}

/// Rules from a preset name or a `Rules` object, with keyword options overlaid.
pub fn rules_from(
    rules: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<pachisi::Rules> {
    let opts = kwargs_map(options)?;
    let base = if let Ok(r) = rules.cast::<PyRules>() {
        r.get().inner.clone()
    } else if let Ok(s) = rules.cast::<PyString>() {
        let name = s.to_cow()?.into_owned();
        guard(|| pachisi::Rules::preset(&name))?
    } else {
        return Err(new_err(
            Kind::InvalidRules,
            "rules must be a preset name (str) or a pachisi.Rules",
        ));
    };
    guard(|| base.overlay(&opts))
}

/// `Rules('parcheesi', capture_bonus=10)`: pasteable.
pub fn rules_repr(py: Python<'_>, rules: &pachisi::Rules) -> PyResult<String> {
    let mut s = format!("Rules({:?}", rules.variant());
    for (k, v) in rules.changed_options() {
        let obj = json_to_py(py, &v)?;
        s.push_str(&format!(", {k}={}", obj.repr()?));
    }
    s.push(')');
    Ok(s.replace("Rules(\"", "Rules('")
        .replace("\", ", "', ")
        .replace("\")", "')"))
}

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (variant, **options))]
    fn new(variant: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Ok(PyRules {
            inner: rules_from(variant, options)?,
        })
    }

    /// The preset this value started from.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.variant()
    }

    /// Every option and its value (a new dict; changing it changes nothing).
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        map_to_dict(py, &self.inner.options())
    }

    /// Every option of the preset, to build a settings screen: a list of dicts ``{"name",
    /// "kind" ("bool", "integer", "number", "choice" or "list"), "default" (the preset's value),
    /// "min", "max", "contiguous", "values" (integers: the valid values when at most 16),
    /// "choices" (names a choice accepts)}``. Integer ranges are what validates with the other
    /// options at the preset's values (some options constrain each other).
    fn option_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::convert::serde_to_py(py, &self.inner.option_info())
    }

    /// A copy with some options changed (validated).
    #[pyo3(signature = (**options))]
    fn replace(&self, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Python::attach(|py| {
            let me = Bound::new(py, self.clone())?;
            Ok(PyRules {
                inner: rules_from(me.as_any(), options)?,
            })
        })
    }

    /// The rules as JSON text: ``{"variant": ..., every option}``.
    fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// The rules as a dict: ``{"variant": ..., every option}``.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &self.inner.to_value())
    }

    /// Reads rules from JSON: ``variant`` names the preset, other keys override its options.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Ok(PyRules {
            inner: guard(|| pachisi::Rules::from_json(text))?,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        rules_repr(py, &self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyRules>() {
            Ok(o) => o.get().inner == self.inner,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.to_json().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let ctor = py.get_type::<PyRules>().getattr("from_json")?;
        PyTuple::new(
            py,
            [ctor, PyTuple::new(py, [self.inner.to_json()])?.into_any()],
        )
    }
}
