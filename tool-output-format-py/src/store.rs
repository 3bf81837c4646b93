//! Result stores: keep the full result of a cut output so the model can fetch it
//! (`Formatter(store=..., fetch_tool="get_stored_result")`). `MemoryStore` lives in the
//! process; `RedisStore` serves agents that run on several machines.

use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use tool_output_format::store::Fetch;
use tool_output_format::{ToolError, store::{MemoryStore, RedisStore, ResultStore}};

use crate::StoreError;
use crate::agent::PyToolError;
use crate::convert::{to_py, to_value};
use crate::formatter::PyFormatter;

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
///
/// `max_bytes`: the most compact-JSON bytes kept at once (a larger result is not stored).
#[pyclass(name = "MemoryStore", module = "tool_output_format", frozen)]
pub struct PyMemoryStore(pub Arc<MemoryStore>);

#[pymethods]
impl PyMemoryStore {
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

    /// How long each result is kept, in seconds.
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
/// first use; a bad URL raises `ValueError`, a Redis that is down `StoreError` (and `fetch`
/// returns an `unavailable`, retryable `ToolError`).
///
/// `prefix`: the key prefix (default `tof:result:`); `timeout_secs`: the connect, read and
/// write timeout (default 2).
#[pyclass(name = "RedisStore", module = "tool_output_format", frozen)]
pub struct PyRedisStore(pub Arc<RedisStore>);

#[pymethods]
impl PyRedisStore {
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

    /// How long each result is kept, in seconds.
    #[getter]
    fn ttl_secs(&self) -> f64 {
        self.0.ttl().as_secs_f64()
    }
}

/// The fetch tool (Rust's `store::Fetch`): serves the rest of a cut result from the store,
/// page by page from the cursor of the text's Next line to the last row, with the
/// formatter's options in full detail, never storing a page again. Its answer is the text
/// the model reads (the tool's error text when the reference is unknown or expired).
///
/// `tool`: the fetch tool's name, as the formatter's `fetch_tool`; `formatter`: the
/// formatter whose options serve each page (the originating tool's); `page_size`: rows per
/// page (at least 1); unset, as many as the options' budget holds (50 without a budget),
/// fewer when the options cut a page.
#[pyclass(name = "Fetch", module = "tool_output_format", frozen)]
pub struct PyFetch(Fetch);

#[pymethods]
impl PyFetch {
    #[new]
    #[pyo3(signature = (store, tool="get_stored_result", formatter=None, *, page_size=None))]
    fn new(
        store: &Bound<'_, PyAny>,
        tool: &str,
        formatter: Option<&Bound<'_, PyFormatter>>,
        page_size: Option<usize>,
    ) -> PyResult<Self> {
        let mut fetch = Fetch::new(result_store(store)?, tool);
        if let Some(fmt) = formatter {
            fetch = fetch.formatter(&fmt.get().0);
        }
        if let Some(n) = page_size {
            fetch = fetch.page_size(n);
        }
        Ok(PyFetch(fetch))
    }

    /// The page of the stored result `ref` from `cursor` (a `str` or an `int`; `None`: the
    /// first row), keeping only rows with every word of `query` when given.
    #[pyo3(signature = (r#ref, cursor=None, query=None))]
    fn call(
        &self,
        py: Python<'_>,
        r#ref: &str,
        cursor: Option<&Bound<'_, PyAny>>,
        query: Option<&str>,
    ) -> PyResult<String> {
        let cursor = match cursor {
            None => None,
            Some(c) if c.is_none() => None,
            Some(c) => Some(match c.extract::<String>() {
                Ok(s) => s,
                Err(_) => c
                    .extract::<u64>()
                    .map_err(|_| PyTypeError::new_err("cursor is a str or an int"))?
                    .to_string(),
            }),
        };
        crate::formatter::rendering(py, || self.0.call(r#ref, cursor.as_deref(), query))
    }

    /// The tool's name.
    #[getter]
    fn tool(&self) -> &str {
        self.0.tool()
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.0)
    }
}
