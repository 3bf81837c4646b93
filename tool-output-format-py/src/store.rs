//! Result stores: keep the full result of a cut output so the model can fetch it
//! (`Formatter(store=..., fetch_tool="get_stored_result")`). `MemoryStore` lives in the
//! process; `RedisStore` serves agents that run on several machines.

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use tool_output_format::{MemoryStore, RedisStore, ResultStore, ToolError};

use crate::StoreError;
use crate::agent::PyToolError;
use crate::convert::{to_py, to_value};

/// Seconds as a `Duration`; `ValueError` for a negative or non-finite number.
fn seconds(name: &str, secs: f64) -> PyResult<Duration> {
    Duration::try_from_secs_f64(secs).map_err(|_| {
        PyValueError::new_err(format!("{name} is a number of seconds >= 0, got {secs}"))
    })
}

/// `put`, `get` and `fetch` of either store (the GIL released while the store works).
fn put(py: Python<'_>, store: &dyn ResultStore, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let v = to_value(value)?;
    py.detach(|| store.put(&v))
        .map_err(|e| StoreError::new_err(e.to_string()))
}

fn get<'py>(
    py: Python<'py>,
    store: &dyn ResultStore,
    reference: &str,
) -> PyResult<Bound<'py, PyAny>> {
    match py.detach(|| store.get(reference)) {
        Ok(v) => to_py(py, &v),
        Err(e) => Err(StoreError::new_err(e.to_string())),
    }
}

fn fetch<'py>(
    py: Python<'py>,
    store: &dyn ResultStore,
    reference: &str,
) -> PyResult<Bound<'py, PyAny>> {
    match py.detach(|| store.get(reference)) {
        Ok(v) => to_py(py, &v),
        Err(e) => Ok(Bound::new(py, PyToolError(Arc::new(ToolError::from(e))))?.into_any()),
    }
}

/// The store behind a `store=` option.
pub fn result_store(obj: &Bound<'_, PyAny>) -> PyResult<Arc<dyn ResultStore>> {
    if let Ok(s) = obj.cast::<PyMemoryStore>() {
        return Ok(s.get().0.clone());
    }
    if let Ok(s) = obj.cast::<PyRedisStore>() {
        return Ok(s.get().0.clone());
    }
    Err(PyTypeError::new_err(
        "store is a MemoryStore or a RedisStore",
    ))
}

/// An in-process store of full results, each kept `ttl_secs` seconds.
#[pyclass(name = "MemoryStore", module = "tool_output_format", frozen)]
pub struct PyMemoryStore(pub Arc<MemoryStore>);

#[pymethods]
impl PyMemoryStore {
    /// `max_bytes`: the most compact-JSON bytes kept at once (a larger result is not stored).
    #[new]
    #[pyo3(signature = (ttl_secs, *, max_bytes=None))]
    fn new(ttl_secs: f64, max_bytes: Option<usize>) -> PyResult<Self> {
        let mut store = MemoryStore::new(seconds("ttl_secs", ttl_secs)?);
        if let Some(m) = max_bytes {
            store = store.max_bytes(m);
        }
        Ok(PyMemoryStore(Arc::new(store)))
    }

    /// Keep `value`; returns its reference (`r_` and 26 characters).
    fn put(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
        put(py, &*self.0, value)
    }

    /// The value stored under `reference`; `StoreError` when it expired or is unknown, the
    /// message saying which and what to do.
    fn get<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        get(py, &*self.0, reference)
    }

    /// The value stored under `reference`, or the `ToolError` to return instead (expired and
    /// unknown references are `not_found`): the body of a fetch tool,
    /// `return fmt.format("get_stored_result", store.fetch(ref))`.
    fn fetch<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        fetch(py, &*self.0, reference)
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

/// Full results kept in Redis (`redis://[:password@]host[:port][/db]`), each `ttl_secs`
/// seconds, so an agent on one machine can fetch what a tool on another stored. Connects on
/// first use; a Redis that is down is a `StoreError` (from `fetch`: an `unavailable`,
/// retryable `ToolError`).
#[pyclass(name = "RedisStore", module = "tool_output_format", frozen)]
pub struct PyRedisStore(pub Arc<RedisStore>);

#[pymethods]
impl PyRedisStore {
    /// `prefix`: the key prefix (default `tof:result:`); `timeout_secs`: connect, read and
    /// write timeout (default 2).
    #[new]
    #[pyo3(signature = (url, ttl_secs, *, prefix=None, timeout_secs=None))]
    fn new(
        url: &str,
        ttl_secs: f64,
        prefix: Option<String>,
        timeout_secs: Option<f64>,
    ) -> PyResult<Self> {
        let mut store = RedisStore::open(url, seconds("ttl_secs", ttl_secs)?)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        if let Some(p) = prefix {
            store = store.prefix(p);
        }
        if let Some(t) = timeout_secs {
            store = store.timeout(seconds("timeout_secs", t)?);
        }
        Ok(PyRedisStore(Arc::new(store)))
    }

    /// Keep `value`; returns its reference.
    fn put(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<String> {
        put(py, &*self.0, value)
    }

    /// The value stored under `reference`; `StoreError` when it expired, is unknown, or Redis
    /// cannot be reached.
    fn get<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        get(py, &*self.0, reference)
    }

    /// The value stored under `reference`, or the `ToolError` to return instead.
    fn fetch<'py>(&self, py: Python<'py>, reference: &str) -> PyResult<Bound<'py, PyAny>> {
        fetch(py, &*self.0, reference)
    }

    #[getter]
    fn ttl_secs(&self) -> f64 {
        self.0.ttl().as_secs_f64()
    }
}
