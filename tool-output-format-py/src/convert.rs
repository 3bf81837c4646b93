//! Python values to `serde_json::Value` and back, walked directly through `PyO3` (no JSON
//! text in between).
//!
//! | Python | JSON |
//! |---|---|
//! | `None`, `bool`, `str` | null, boolean, string |
//! | `int` | a number (64-bit, signed or unsigned); a larger one as its decimal text |
//! | `float` | a number; NaN and infinities as null (JSON has no such numbers) |
//! | `dict` and other mappings | an object, keys in the mapping's order (`str` keys; `int`, `float`, `bool` and `None` keys as `json.dumps` writes them) |
//! | `list`, `tuple` | an array |
//! | a dataclass instance | an object of its fields (nested dataclasses too), as `dataclasses.asdict` |
//! | a pydantic model | its `model_dump(mode="json")` |
//! | `datetime`, `date`, `time` | the `isoformat()` text, a UTC offset written `Z` as Rust writes it |
//! | `decimal.Decimal`, `uuid.UUID`, `os.PathLike` (`pathlib.Path`) | their text (`str()`; a path's `os.fspath`), as Rust's `rust_decimal`, `uuid` and `PathBuf` serialize |
//! | an `Enum` member | its value |
//! | `Page`, `ToolError`, `Batch`, `Reply`, `NextAction`, `ResourceRef` | their JSON form |
//!
//! Anything else is a `TypeError` naming its type and where it is (`$[3].created`). Values
//! nest at most [`MAX_NESTING`] levels (a cycle is caught there): deeper is a `ValueError`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// How deep a Python value may nest. The renderer cuts at 32 levels (and counts what is
/// below); this bound only stops cycles and runaway recursion in the conversion itself.
pub const MAX_NESTING: usize = 1000;

/// Why a value could not be converted, with the path from the root (innermost last).
pub enum ConvError {
    /// A Python exception raised while reading a value (a failing `model_dump`, a key).
    Py(PyErr),
    /// A value of a type that has no JSON form.
    Type { path: Vec<String>, what: String },
    /// Nested deeper than [`MAX_NESTING`].
    Deep { path: Vec<String> },
}

impl From<PyErr> for ConvError {
    fn from(e: PyErr) -> Self {
        ConvError::Py(e)
    }
}

impl ConvError {
    /// Add the step from the parent to where the error is.
    fn at(mut self, step: impl FnOnce() -> String) -> Self {
        match &mut self {
            ConvError::Type { path, .. } | ConvError::Deep { path } => path.push(step()),
            ConvError::Py(_) => {}
        }
        self
    }

    /// The Python exception: `TypeError` for a type without a JSON form, `ValueError` for a
    /// value nested too deep.
    pub fn into_py(self) -> PyErr {
        let place = |path: Vec<String>| {
            let mut s = String::from("$");
            for step in path.into_iter().rev() {
                s.push_str(&step);
            }
            s
        };
        match self {
            ConvError::Py(e) => e,
            ConvError::Type { path, what } => PyTypeError::new_err(format!(
                "cannot render {what} at {}: pass JSON-like values (dict, list, str, int, float, \
                 bool, None), dataclasses or pydantic models",
                place(path)
            )),
            // The path would be a thousand steps long: the first ones say where.
            ConvError::Deep { path } => {
                let mut at = place(path);
                if let Some((cut, _)) = at.char_indices().nth(60) {
                    at.truncate(cut);
                    at.push('…');
                }
                PyValueError::new_err(format!(
                    "the value nests deeper than {MAX_NESTING} levels at {at} (a list or dict \
                     that contains itself?)"
                ))
            }
        }
    }
}

/// Python modules and types looked up once.
struct Lookups {
    is_dataclass: Py<PyAny>,
    fields: Py<PyAny>,
    date: Py<PyAny>,
    time: Py<PyAny>,
    enum_type: Py<PyAny>,
    decimal: Py<PyAny>,
    uuid: Py<PyAny>,
    path_like: Py<PyAny>,
    fspath: Py<PyAny>,
}

static LOOKUPS: PyOnceLock<Lookups> = PyOnceLock::new();

fn lookups(py: Python<'_>) -> PyResult<&Lookups> {
    LOOKUPS.get_or_try_init(py, || {
        let dataclasses = py.import("dataclasses")?;
        let datetime = py.import("datetime")?;
        Ok(Lookups {
            is_dataclass: dataclasses.getattr("is_dataclass")?.unbind(),
            fields: dataclasses.getattr("fields")?.unbind(),
            date: datetime.getattr("date")?.unbind(),
            time: datetime.getattr("time")?.unbind(),
            enum_type: py.import("enum")?.getattr("Enum")?.unbind(),
            decimal: py.import("decimal")?.getattr("Decimal")?.unbind(),
            uuid: py.import("uuid")?.getattr("UUID")?.unbind(),
            path_like: py.import("os")?.getattr("PathLike")?.unbind(),
            fspath: py.import("os")?.getattr("fspath")?.unbind(),
        })
    })
}

/// A Python value as JSON (see the module docs for the mapping).
pub fn to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    walk(obj, 0).map_err(ConvError::into_py)
}

/// Item `index` of a list the caller walks itself (a stream of rows) as JSON; an error names
/// where it is as `to_value` of the whole list would (`$[3].created`).
pub fn item_value(obj: &Bound<'_, PyAny>, index: usize) -> PyResult<Value> {
    walk(obj, 1)
        .map_err(|e| e.at(|| format!("[{index}]")))
        .map_err(ConvError::into_py)
}

fn walk(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, ConvError> {
    // Exact types first: the common case costs one pointer comparison each.
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        return Ok(int(i)?);
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(Number::from_f64(f.value()).map_or(Value::Null, Value::Number));
    }
    if depth >= MAX_NESTING {
        return Err(ConvError::Deep { path: Vec::new() });
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = key(&k)?;
            let value = walk(&v, depth + 1).map_err(|e| e.at(|| step(&key)))?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        let mut items = Vec::with_capacity(l.len());
        for (i, v) in l.iter().enumerate() {
            items.push(walk(&v, depth + 1).map_err(|e| e.at(|| format!("[{i}]")))?);
        }
        return Ok(Value::Array(items));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        let mut items = Vec::with_capacity(t.len());
        for (i, v) in t.iter().enumerate() {
            items.push(walk(&v, depth + 1).map_err(|e| e.at(|| format!("[{i}]")))?);
        }
        return Ok(Value::Array(items));
    }
    if let Some(v) = crate::agent::json_form(obj) {
        return Ok(v);
    }
    other(obj, depth)
}

/// The less common types: dataclasses, pydantic models, mappings, dates, enums.
fn other(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Value, ConvError> {
    let py = obj.py();
    let l = lookups(py)?;
    // A dataclass instance (not the class itself): its fields, walked here so nested values
    // keep this conversion's rules (`asdict` would deep-copy them first).
    if !obj.is_instance_of::<pyo3::types::PyType>()
        && l.is_dataclass.bind(py).call1((obj,))?.is_truthy()?
    {
        let mut map = Map::new();
        for field in l.fields.bind(py).call1((obj,))?.try_iter()? {
            let name: String = field?.getattr("name")?.extract()?;
            let value =
                walk(&obj.getattr(name.as_str())?, depth + 1).map_err(|e| e.at(|| step(&name)))?;
            map.insert(name, value);
        }
        return Ok(Value::Object(map));
    }
    // A pydantic (v2) model: its JSON-mode dump (dates as text, enums as values).
    // (Asked of the class: `model_fields` on an instance is deprecated since pydantic 2.11.)
    let class = obj.get_type();
    if class.hasattr("model_dump")? && class.hasattr("model_fields")? {
        let kwargs = PyDict::new(py);
        kwargs.set_item("mode", "json")?;
        let dumped = obj.call_method("model_dump", (), Some(&kwargs))?;
        return walk(&dumped, depth + 1);
    }
    if let Ok(m) = obj.cast::<PyMapping>() {
        let mut map = Map::new();
        for item in m.items()?.iter() {
            let (k, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let key = key(&k)?;
            let value = walk(&v, depth + 1).map_err(|e| e.at(|| step(&key)))?;
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance(l.date.bind(py))? || obj.is_instance(l.time.bind(py))? {
        let text: String = obj.call_method0("isoformat")?.extract()?;
        // UTC as Rust's RFC 3339 writes it (`Z`, not `+00:00`).
        let text = match text.strip_suffix("+00:00") {
            Some(utc) => format!("{utc}Z"),
            None => text,
        };
        return Ok(Value::String(text));
    }
    if obj.is_instance(l.decimal.bind(py))? || obj.is_instance(l.uuid.bind(py))? {
        return Ok(Value::String(obj.str()?.to_cow()?.into_owned()));
    }
    if obj.is_instance(l.path_like.bind(py))? {
        let path = l.fspath.bind(py).call1((obj,))?;
        return match path.extract::<String>() {
            Ok(text) => Ok(Value::String(text)),
            // A bytes path: its text, undecodable bytes replaced.
            Err(_) => Ok(Value::String(
                String::from_utf8_lossy(&path.extract::<Vec<u8>>()?).into_owned(),
            )),
        };
    }
    if obj.is_instance(l.enum_type.bind(py))? {
        return walk(&obj.getattr("value")?, depth + 1);
    }
    Err(ConvError::Type {
        path: Vec::new(),
        what: format!("a value of type {}", type_name(obj)),
    })
}

/// An `int`: 64 bits signed or unsigned as a number, larger as its decimal text (`serde_json`
/// numbers hold 64 bits; the text keeps every digit).
fn int(i: &Bound<'_, PyInt>) -> PyResult<Value> {
    if let Ok(n) = i.extract::<i64>() {
        return Ok(Value::from(n));
    }
    if let Ok(n) = i.extract::<u64>() {
        return Ok(Value::from(n));
    }
    Ok(Value::String(i.str()?.to_cow()?.into_owned()))
}

/// A mapping key as `json.dumps` writes it.
fn key(k: &Bound<'_, PyAny>) -> Result<String, ConvError> {
    if let Ok(s) = k.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if k.is_none() {
        return Ok("null".to_owned());
    }
    if let Ok(b) = k.cast::<PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_owned());
    }
    if k.is_instance_of::<PyInt>() || k.is_instance_of::<PyFloat>() {
        return Ok(k.repr()?.to_cow()?.into_owned());
    }
    Err(ConvError::Type {
        path: Vec::new(),
        what: format!("a key of type {}", type_name(k)),
    })
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// One step of a path: `.key` for identifiers, `["key"]` otherwise.
fn step(key: &str) -> String {
    let plain = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        format!(".{key}")
    } else {
        format!("[{key:?}]")
    }
}

/// JSON as a Python value: objects as `dict` (in order), arrays as `list`.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
}
