//! Python bindings of `tool-output-format`: the Python module `tool_output_format`.
//!
//! Thin: every class holds the Rust value it names and every method calls the public Rust
//! API, so Python and Rust give the same bytes for the same input and options. Python values
//! are converted to `serde_json::Value` by walking them (`convert`), never through JSON text.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

mod agent;
mod convert;
mod formatter;
mod shape;
mod store;

create_exception!(
    tool_output_format,
    ShapeError,
    PyValueError,
    "A mistake in a shape or a shape file; the message names where it is."
);
create_exception!(
    tool_output_format,
    StoreError,
    PyException,
    "A result store that cannot keep or return a result (expired or unknown reference, too \
     large, Redis down); the message says which and what to do."
);

/// Render LLM agent tool results as markdown a model reads reliably and cheaply: the Python
/// face of the Rust crate `tool-output-format`, with the same text for the same input and
/// options. Start with `Formatter`; see the type stub for every class.
#[pymodule]
fn tool_output_format(m: &Bound<'_, PyModule>) -> PyResult<()> {
    formatter::register(m)?;
    m.add_class::<shape::PyShape>()?;
    m.add_class::<shape::PyConvert>()?;
    m.add_class::<agent::PyPage>()?;
    m.add_class::<agent::PyToolError>()?;
    m.add_class::<agent::PyBatch>()?;
    m.add_class::<agent::PyNextAction>()?;
    m.add_class::<agent::PyReply>()?;
    m.add_class::<agent::PyResourceRef>()?;
    m.add_class::<store::PyMemoryStore>()?;
    m.add_class::<store::PyRedisStore>()?;
    m.add_class::<store::PyFetch>()?;
    m.add("ShapeError", m.py().get_type::<ShapeError>())?;
    m.add("StoreError", m.py().get_type::<StoreError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The Rust options table's names, for the test that every one is a keyword (private:
    // the keywords themselves are the API).
    let keys: Vec<&str> = ::tool_output_format::OPTION_KEYS
        .iter()
        .map(|k| k.name)
        .collect();
    m.add("_OPTION_KEYS", pyo3::types::PyTuple::new(m.py(), keys)?)?;
    Ok(())
}
