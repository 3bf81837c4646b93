//! `MemoryStore`: keeps the full result of a cut output so the model can fetch it
//! (`Formatter(store=..., fetch_tool="get_stored_result")`).

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tool_output_format::{MemoryStore, ResultStore, ToolError};

use crate::StoreError;
use crate::agent::PyToolError;
use crate::convert::{to_py, to_value};

/// An in-process store of full results, each kept `ttl_secs` seconds.
#[pyclass(name = "MemoryStore", module = "tool_output_format", frozen)]
pub struct PyMemoryStore(pub Arc<MemoryStore>);

#[pymethods]
impl PyMemoryStore {
    /// `max_bytes`: the most compact-JSON bytes kept at once (a larger result is not stored).
    #[new]
    #[pyo3(signature = (ttl_secs, *, max_bytes=None))]
    fn new(ttl_secs: f64, max_bytes: Option<usize>) -> PyResult<Self> {
        let ttl = Duration::try_from_secs_f64(ttl_secs).map_err(|_| {
            PyValueError::new_err(format!(
                "ttl_secs is a number of seconds >= 0, got {ttl_secs}"
            ))
        })?;
        let mut store = MemoryStore::new(ttl);
        if let Some(m) = max_bytes {
            store = store.max_bytes(m);
        }
        Ok(PyMemoryStore(Arc::new(store)))
    }

    /// Keep `value`; returns its reference (`r_` and 26 characters).
    fn put(&self, value: &Bound<'_, PyAny>) -> PyResult<String> {
        let v = to_value(value)?;
        self.0
            .put(&v)
            .map_err(|e| StoreError::new_err(e.to_string()))
    }

    /// The value stored under `reference`; `StoreError` (a `LookupError`) when it expired or
    /// is unknown, the message saying which and what to do.
    fn get<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.0.get(reference) {
            Ok(v) => to_py(py, &v),
            Err(e) => Err(StoreError::new_err(e.to_string())),
        }
    }

    /// The value stored under `reference`, or the `ToolError` to return instead (expired and
    /// unknown references are `not_found`): the body of a fetch tool,
    /// `return fmt.format("get_stored_result", store.fetch(ref))`.
    fn fetch<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.0.get(reference) {
            Ok(v) => to_py(py, &v),
            Err(e) => Ok(Bound::new(py, PyToolError(Arc::new(ToolError::from(e))))?.into_any()),
        }
    }

    #[getter]
    fn ttl_secs(&self) -> f64 {
        self.0.ttl().as_secs_f64()
    }

    /// JSON bytes kept now.
    #[getter]
    fn stored_bytes(&self) -> usize {
        self.0.stored_bytes()
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }
}
