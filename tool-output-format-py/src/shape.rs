//! `Shape` and `Convert`: keep, drop, rename and convert fields before the model reads them
//! (SPEC section 11), built from keyword arguments or read from a JSON or TOML shape file.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use tool_output_format::{Convert, Shape};

use crate::ShapeError;
use crate::convert::{to_py, to_value};

/// The Rust message as a `ShapeError` (a `ValueError`).
fn shape_error(e: &tool_output_format::shape::ShapeError) -> PyErr {
    ShapeError::new_err(e.to_string())
}

/// How one field's value is rewritten (`Shape(convert={"created_at": Convert.timestamp()})`).
#[pyclass(name = "Convert", module = "tool_output_format", frozen)]
pub struct PyConvert(pub Convert);

#[pymethods]
impl PyConvert {
    /// Unix seconds to RFC 3339 UTC (`1703203200` -> `"2023-12-22T00:00:00Z"`).
    #[staticmethod]
    fn epoch_seconds() -> Self {
        PyConvert(Convert::EpochSeconds)
    }

    /// Unix milliseconds to RFC 3339 UTC.
    #[staticmethod]
    fn epoch_millis() -> Self {
        PyConvert(Convert::EpochMillis)
    }

    /// A date-time with an offset (RFC 3339, ISO 8601, `YYYY-MM-DD HH:MM:SS+HH:MM`) to UTC.
    #[staticmethod]
    fn timestamp() -> Self {
        PyConvert(Convert::Timestamp)
    }

    /// Integer cents to an exact decimal string (`4999` -> `"49.99"`).
    #[staticmethod]
    fn cents() -> Self {
        PyConvert(Convert::Cents)
    }

    /// A number or numeric string to exactly `decimals` decimals (`50.1` -> `"50.10"`).
    #[staticmethod]
    fn fixed(decimals: u8) -> Self {
        PyConvert(Convert::Fixed(decimals))
    }

    /// Value to value (`{3: "shipped"}`); keys match by their text, so `"3"` matches `3`.
    #[staticmethod]
    fn map(pairs: &Bound<'_, PyDict>) -> PyResult<Self> {
        let mut out = Vec::with_capacity(pairs.len());
        for (k, v) in pairs.iter() {
            out.push((to_value(&k)?, to_value(&v)?));
        }
        Ok(PyConvert(Convert::map(out)))
    }

    /// A string or number as a string starting with `prefix` (added only when missing).
    #[staticmethod]
    fn prefix(prefix: String) -> PyResult<Self> {
        if prefix.is_empty() {
            return Err(PyValueError::new_err("a prefix is a non-empty string"));
        }
        Ok(PyConvert(Convert::prefix(prefix)))
    }

    /// The converted value; `ValueError` when this converter cannot read `value`.
    fn apply<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let v = to_value(value)?;
        match self.0.apply(&v) {
            Some(out) => to_py(value.py(), &out),
            None => Err(PyValueError::new_err(format!(
                "{} cannot read {v}",
                self.0.name()
            ))),
        }
    }

    fn __repr__(&self) -> String {
        format!("Convert({})", self.0)
    }
}

/// A converter given as a `Convert` or the name of one that takes no argument.
fn converter(obj: &Bound<'_, PyAny>, path: &str) -> PyResult<Convert> {
    if let Ok(c) = obj.cast::<PyConvert>() {
        return Ok(c.get().0.clone());
    }
    if let Ok(name) = obj.cast::<PyString>() {
        return match &*name.to_cow()? {
            "epoch_seconds" => Ok(Convert::EpochSeconds),
            "epoch_millis" => Ok(Convert::EpochMillis),
            "timestamp" => Ok(Convert::Timestamp),
            "cents" => Ok(Convert::Cents),
            other => Err(ShapeError::new_err(format!(
                "shape convert[{path:?}]: unknown converter {other:?}; expected \"epoch_seconds\", \
                 \"epoch_millis\", \"timestamp\", \"cents\" or a Convert (Convert.fixed(2), \
                 Convert.map({{...}}), Convert.prefix(\"...\"))"
            ))),
        };
    }
    Err(PyTypeError::new_err(format!(
        "convert[{path:?}] is a Convert or a converter name"
    )))
}

/// What to keep, drop, rename and convert in each record (each row of a table, or the one
/// record). Paths are dot-separated keys of the input; a mistake raises `ShapeError`.
#[pyclass(name = "Shape", module = "tool_output_format", frozen)]
pub struct PyShape(pub Shape);

impl PyShape {
    /// `Shape.from_dict`, for the formatter's `shape=` given as a dict.
    pub fn from_dict_value(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        Shape::from_value(&to_value(value)?)
            .map(PyShape)
            .map_err(|e| shape_error(&e))
    }
}

#[pymethods]
impl PyShape {
    #[new]
    #[pyo3(signature = (*, keep=None, drop=None, rename=None, convert=None, drop_empty=false, flatten=false, essential=None, minor=None))]
    #[allow(clippy::too_many_arguments)] // one keyword argument per shape rule
    fn new(
        keep: Option<Vec<String>>,
        drop: Option<Vec<String>>,
        rename: Option<&Bound<'_, PyDict>>,
        convert: Option<&Bound<'_, PyDict>>,
        drop_empty: bool,
        flatten: bool,
        essential: Option<Vec<String>>,
        minor: Option<Vec<String>>,
    ) -> PyResult<Self> {
        let mut s = Shape::new();
        if let Some(k) = keep {
            s = s.keep(k);
        }
        if let Some(d) = drop {
            s = s.drop(d);
        }
        if let Some(r) = rename {
            for (path, name) in r.iter() {
                s = s.rename(path.extract::<String>()?, name.extract::<String>()?);
            }
        }
        if let Some(c) = convert {
            for (path, conv) in c.iter() {
                let path: String = path.extract()?;
                let conv = converter(&conv, &path)?;
                s = s.convert(path, conv);
            }
        }
        if drop_empty {
            s = s.drop_empty();
        }
        if flatten {
            s = s.flatten();
        }
        if let Some(e) = essential {
            s = s.essential(e);
        }
        if let Some(m) = minor {
            s = s.minor(m);
        }
        s.check().map_err(|e| shape_error(&e))?;
        Ok(PyShape(s))
    }

    /// A shape file's text, JSON (see `from_file` for the keys).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        Shape::from_json_str(text)
            .map(PyShape)
            .map_err(|e| shape_error(&e))
    }

    /// A shape file's text, TOML (a dotted path is a quoted key: `"user.login" = "author"`).
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<Self> {
        Shape::from_toml_str(text)
            .map(PyShape)
            .map_err(|e| shape_error(&e))
    }

    /// A shape file as a dict (the parsed JSON or TOML).
    #[staticmethod]
    fn from_dict(value: &Bound<'_, PyAny>) -> PyResult<Self> {
        PyShape::from_dict_value(value)
    }

    /// Read a shape file: TOML when its name ends in `.toml`, JSON otherwise. Keys, all
    /// optional: `keep`, `drop` (lists of paths), `rename` (path -> new name), `convert`
    /// (path -> `"epoch_seconds"`, `"epoch_millis"`, `"timestamp"`, `"cents"`,
    /// `{"fixed": N}`, `{"map": {...}}` or `{"prefix": "..."}`), `drop_empty`, `flatten`,
    /// `essential`, `minor` (lists of paths: what a budget keeps first, and leaves out first).
    /// A mistake raises `ShapeError` naming the file and where it is; a missing file `OSError`.
    #[staticmethod]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a Python path as an owned PathBuf
    fn from_file(path: PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path)?;
        let toml = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        let shape = if toml {
            Shape::from_toml_str(&text)
        } else {
            Shape::from_json_str(&text)
        };
        shape
            .map(PyShape)
            .map_err(|e| ShapeError::new_err(format!("{}: {e}", path.display())))
    }

    /// The value shaped (a record, or a list of records).
    fn apply<'py>(&self, value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let v = to_value(value)?;
        to_py(value.py(), &self.0.apply(&v))
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.0)
    }
}
