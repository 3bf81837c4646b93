//! `Formatter`, its per-call `Focus` view and the `Formatted` text-with-report.
//!
//! Options are keyword arguments, read once into the Rust `Formatter` (global) or a
//! `ToolOptions` (per tool); rendering releases the GIL.

use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use tool_output_format::focus::RowOrder;
use tool_output_format::{
    Detail, Formatted, Formatter, Layout, ResultStore, Shape, Strategy, ToolOptions,
};

use crate::agent::to_result;
use crate::convert::to_py;
use crate::shape::PyShape;
use crate::store::result_store;

/// The options one call of `Formatter(...)` or `.tool(...)` gives.
#[derive(Default)]
struct Options {
    max_lines: Option<usize>,
    max_rows: Option<usize>,
    max_cell_chars: Option<usize>,
    max_chars: Option<usize>,
    max_tokens: Option<usize>,
    layout: Option<Layout>,
    strategy: Option<Strategy>,
    redact_keys: Option<Vec<String>>,
    shape: Option<Shape>,
    summarize: Option<bool>,
    sum: Option<Vec<String>>,
    detail: Option<Detail>,
    store: Option<Arc<dyn ResultStore>>,
    fetch_tool: Option<String>,
}

/// Where the options are given, for messages.
#[derive(Clone, Copy, PartialEq)]
enum Site {
    Formatter,
    Tool,
}

impl Site {
    fn name(self) -> &'static str {
        match self {
            Site::Formatter => "Formatter()",
            Site::Tool => "Formatter.tool()",
        }
    }
}

/// Every option, in the order of the stub's signature.
const KEYS: &[&str] = &[
    "max_lines",
    "max_rows",
    "max_cell_chars",
    "max_chars",
    "max_tokens",
    "layout",
    "strategy",
    "redact_keys",
    "shape",
    "summarize",
    "sum",
    "detail",
    "store",
    "fetch_tool",
];

/// Options of the formatter only (one store serves every tool).
const GLOBAL_ONLY: &[&str] = &["store", "fetch_tool"];

/// A count option: a non-negative int.
fn count(key: &str, v: &Bound<'_, PyAny>) -> PyResult<usize> {
    let n: i64 = v
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{key} is an int")))?;
    usize::try_from(n).map_err(|_| PyValueError::new_err(format!("{key} is >= 0, got {n}")))
}

/// One of `names` (`snake_case` Rust names), as its value.
/// The value a `str` option names, read with the type's `FromStr` (the Rust names, one table
/// in the core): `unknown layout "grid"; expected one of "aligned", "compact", "csv"`.
fn named<T: std::str::FromStr<Err = tool_output_format::UnknownName>>(
    key: &str,
    v: &Bound<'_, PyAny>,
) -> PyResult<T> {
    let s: String = v
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{key} is a str")))?;
    s.parse::<T>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

fn strings(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if v.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{key} is a list of str, not one str"
        )));
    }
    v.extract()
        .map_err(|_| PyTypeError::new_err(format!("{key} is a list of str")))
}

impl Options {
    fn parse(site: Site, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
        let mut o = Options::default();
        let Some(kwargs) = kwargs else {
            return Ok(o);
        };
        for (k, v) in kwargs.iter() {
            let key: String = k.extract()?;
            let known = KEYS.contains(&key.as_str())
                && (site == Site::Formatter || !GLOBAL_ONLY.contains(&key.as_str()));
            if !known {
                return Err(PyTypeError::new_err(format!(
                    "{} got an unexpected keyword argument {key:?}",
                    site.name()
                )));
            }
            if v.is_none() {
                // None is "not set" for every option.
                continue;
            }
            match key.as_str() {
                "max_lines" => o.max_lines = Some(count(&key, &v)?),
                "max_rows" => o.max_rows = Some(count(&key, &v)?),
                "max_cell_chars" => o.max_cell_chars = Some(count(&key, &v)?),
                "max_chars" => o.max_chars = Some(count(&key, &v)?),
                "max_tokens" => o.max_tokens = Some(count(&key, &v)?),
                "layout" => o.layout = Some(named::<Layout>(&key, &v)?),
                "strategy" => o.strategy = Some(named::<Strategy>(&key, &v)?),
                "redact_keys" => o.redact_keys = Some(strings(&key, &v)?),
                "sum" => o.sum = Some(strings(&key, &v)?),
                "summarize" => {
                    o.summarize = Some(
                        v.extract()
                            .map_err(|_| PyTypeError::new_err("summarize is a bool"))?,
                    );
                }
                "shape" => {
                    let shape = match v.cast::<PyShape>() {
                        Ok(s) => s.get().0.clone(),
                        Err(_) if v.is_instance_of::<PyDict>() => PyShape::from_dict_value(&v)?.0,
                        Err(_) => {
                            return Err(PyTypeError::new_err(
                                "shape is a Shape (or a shape file's dict)",
                            ));
                        }
                    };
                    o.shape = Some(shape);
                }
                "detail" => o.detail = Some(named::<Detail>(&key, &v)?),
                "store" => o.store = Some(result_store(&v)?),
                "fetch_tool" => {
                    o.fetch_tool = Some(
                        v.extract()
                            .map_err(|_| PyTypeError::new_err("fetch_tool is a str"))?,
                    );
                }
                _ => unreachable!("checked against KEYS"),
            }
        }
        if o.fetch_tool.is_some() && o.store.is_none() {
            return Err(PyValueError::new_err(
                "fetch_tool names the tool that reads the store: give store= too",
            ));
        }
        Ok(o)
    }

    /// These options as the formatter's global ones.
    fn global(mut self, f: Formatter) -> Formatter {
        let (store, fetch_tool) = (self.store.take(), self.fetch_tool.take());
        let mut f = f.defaults(self.tool());
        if let Some(store) = store {
            let fetch = fetch_tool.as_deref().unwrap_or("get_stored_result");
            f = f.store(store, fetch);
        }
        f
    }

    /// These options as one tool's.
    fn tool(self) -> ToolOptions {
        let mut t = ToolOptions::new();
        if let Some(n) = self.max_lines {
            t = t.max_lines(n);
        }
        if let Some(n) = self.max_rows {
            t = t.max_rows(n);
        }
        if let Some(n) = self.max_cell_chars {
            t = t.max_cell_chars(n);
        }
        if let Some(n) = self.max_chars {
            t = t.max_chars(n);
        }
        if let Some(n) = self.max_tokens {
            t = t.max_tokens(n);
        }
        if let Some(l) = self.layout {
            t = t.layout(l);
        }
        if let Some(s) = self.strategy {
            t = t.strategy(s);
        }
        if let Some(k) = self.redact_keys {
            t = t.redact_keys(k);
        }
        if let Some(s) = self.shape {
            t = t.shape(s);
        }
        if let Some(on) = self.summarize {
            t = t.summarize(on);
        }
        if let Some(c) = self.sum {
            t = t.sum(c);
        }
        if let Some(d) = self.detail {
            t = t.detail(d);
        }
        t
    }
}

/// Renders tool results as markdown a model reads well. Immutable: `.tool()` returns a new
/// formatter.
#[pyclass(name = "Formatter", module = "tool_output_format", frozen)]
pub struct PyFormatter(pub(crate) Formatter);

#[pymethods]
impl PyFormatter {
    #[new]
    #[pyo3(signature = (**options))]
    fn new(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let o = Options::parse(Site::Formatter, options)?;
        Ok(PyFormatter(o.global(Formatter::new())))
    }

    /// The agent preset (Rust's `Formatter::for_agents()`): compact layout, machine-only
    /// fields (API URLs, node ids) and empty ones folded out of the view and named in one
    /// left-out line that says how to get them; then these options on top.
    #[staticmethod]
    #[pyo3(signature = (**options))]
    fn for_agents(options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let o = Options::parse(Site::Formatter, options)?;
        Ok(PyFormatter(o.global(Formatter::for_agents())))
    }

    /// A new formatter with options for one tool (unset ones inherit the global options);
    /// calling it again for the same tool replaces that tool's options.
    #[pyo3(signature = (name, **options))]
    fn tool(&self, name: String, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let o = Options::parse(Site::Tool, options)?;
        Ok(PyFormatter(self.0.clone().tool(name, o.tool())))
    }

    /// The result as markdown (an empty tool name leaves out a record's title line).
    fn format(&self, py: Python<'_>, tool: &str, result: &Bound<'_, PyAny>) -> PyResult<String> {
        let r = to_result(result)?;
        Ok(py.detach(|| self.0.format(tool, &r)))
    }

    /// The markdown and what was produced and cut.
    fn format_with_report(
        &self,
        py: Python<'_>,
        tool: &str,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<PyFormatted> {
        let r = to_result(result)?;
        Ok(PyFormatted(
            py.detach(|| self.0.format_with_report(tool, &r)),
        ))
    }

    /// The same shaped, capped result as data: `{"result": ..., "notices": [...]}`.
    fn format_json<'py>(
        &self,
        py: Python<'py>,
        tool: &str,
        result: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = to_result(result)?;
        let v = py.detach(|| self.0.format_json(tool, &r));
        to_py(py, &v)
    }

    /// A view that trims around `query` (long strings keep their most relevant sections,
    /// tables their most relevant rows). `row_order`: `"data"` (default) or `"ranked"`.
    #[pyo3(signature = (query, *, row_order="data"))]
    fn focus(&self, query: String, row_order: &str) -> PyResult<PyFocus> {
        let order = match row_order {
            "data" => RowOrder::Data,
            "ranked" => RowOrder::Ranked,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown row_order {other:?}; expected one of \"data\", \"ranked\""
                )));
            }
        };
        Ok(PyFocus {
            fmt: self.0.clone(),
            query,
            order,
        })
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.0)
    }
}

/// `Formatter.focus(query)`: format with the query's trimming.
#[pyclass(name = "Focus", module = "tool_output_format", frozen)]
pub struct PyFocus {
    fmt: Formatter,
    query: String,
    order: RowOrder,
}

#[pymethods]
impl PyFocus {
    /// The query as notices show it (one line, at most 80 characters).
    #[getter]
    fn query(&self) -> String {
        self.fmt.focus(&self.query).query().to_owned()
    }

    fn format(&self, py: Python<'_>, tool: &str, result: &Bound<'_, PyAny>) -> PyResult<String> {
        let r = to_result(result)?;
        Ok(py.detach(|| {
            self.fmt
                .focus(&self.query)
                .row_order(self.order)
                .format(tool, &r)
        }))
    }

    fn format_with_report(
        &self,
        py: Python<'_>,
        tool: &str,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<PyFormatted> {
        let r = to_result(result)?;
        Ok(PyFormatted(py.detach(|| {
            self.fmt
                .focus(&self.query)
                .row_order(self.order)
                .format_with_report(tool, &r)
        })))
    }

    /// The structured JSON form of the focused result: the same rows as the focused text,
    /// the focus line first among the notices (kind `focus`).
    fn format_json<'py>(
        &self,
        py: Python<'py>,
        tool: &str,
        result: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let r = to_result(result)?;
        let v = py.detach(|| {
            self.fmt
                .focus(&self.query)
                .row_order(self.order)
                .format_json(tool, &r)
        });
        to_py(py, &v)
    }
}

/// A rendered text with its report.
#[pyclass(name = "Formatted", module = "tool_output_format", frozen)]
pub struct PyFormatted(Formatted);

#[pymethods]
impl PyFormatted {
    /// The markdown.
    #[getter]
    fn text(&self) -> &str {
        &self.0.text
    }

    /// True for a failure (a `ToolError` or an exception), rendered under `**{tool} failed**`.
    #[getter]
    fn is_error(&self) -> bool {
        self.0.is_error()
    }

    /// `chars`, `bytes`, `tokens`, `rows` and `lines` (`{"kept", "total"}` or None),
    /// `values_shortened`, `notices` (their lines), `truncated`, `conversions_failed`,
    /// `shape_errors`, `reference` and `store_error` (the result store), `focus`.
    #[getter]
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.0.report.to_json())
    }

    fn __str__(&self) -> &str {
        &self.0.text
    }

    fn __repr__(&self) -> String {
        format!("Formatted({:?})", self.0.text)
    }
}

/// Register the classes of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFormatter>()?;
    m.add_class::<PyFocus>()?;
    m.add_class::<PyFormatted>()?;
    Ok(())
}
