//! `Formatter`, its per-call `Focus` view and the `Formatted` text-with-report.
//!
//! Options are keyword-only parameters (so `inspect.signature` and `help()` list them), one
//! per key of the Rust options table (`OPTION_KEYS`, same names; listed once, in the call of
//! `formatter_methods!`, and checked against the table when this crate compiles), read once
//! into the Rust `Formatter` (global) or a `ToolOptions` (per tool) by `ToolOptions::set`, the
//! one place option values are read (and worded: a negative count is the library's
//! `ValueError`): this file only turns Python objects into the kind of value the table names
//! (a `TypeError` for a wrong type); rendering releases the GIL.

use std::cell::RefCell;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::Value;
use tool_output_format::RowOrder;
use tool_output_format::{Formatted, Formatter, OPTION_KEYS, OptionKey, OptionKind, ToolOptions};

use crate::agent::to_result;
use crate::convert::{item_value, to_py};
use crate::shape::PyShape;
use crate::store::result_store;

/// One option as Python gave it; `None` (or left out) leaves it unset.
type Opt<'py> = Option<Bound<'py, PyAny>>;

/// A count option: an int, whose value the library checks (a negative one is its
/// `ValueError`).
fn count(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    v.extract::<i64>()
        .map(Value::from)
        .or_else(|_| v.extract::<u64>().map(Value::from))
        .map_err(|_| PyTypeError::new_err(format!("{key} is an int")))
}

/// A list-of-str option (one `str` is refused: it would read as a list of letters).
fn strings(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if v.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{key} is a list of str, not one str"
        )));
    }
    v.extract()
        .map_err(|_| PyTypeError::new_err(format!("{key} is a list of str")))
}

/// The options of one tool (`Formatter.tool(...)`, and the global ones of `Formatter(...)`),
/// as Python gave them: each keyword by its name in the Rust options table.
struct Options<'py>(Vec<(&'static str, Opt<'py>)>);

impl Options<'_> {
    /// These options as the Rust `ToolOptions`: each value as the kind of value its key
    /// takes, read by `ToolOptions::set`.
    fn read(self) -> PyResult<ToolOptions> {
        let mut t = ToolOptions::new();
        for (name, v) in self.0 {
            let Some(v) = v else { continue };
            let key = OptionKey::find(name)
                .unwrap_or_else(|| panic!("the keyword {name} is not in the options table"));
            if key.kind == OptionKind::Shape {
                t = t.shape(shape(&v)?);
                continue;
            }
            // The library's words; a one-of's names the option itself ("unknown layout").
            t = t.set(name, value(key, &v)?).map_err(|e| match key.kind {
                OptionKind::OneOf(_) => PyValueError::new_err(e.to_string()),
                _ => PyValueError::new_err(format!("{name}: {e}")),
            })?;
        }
        Ok(t)
    }

    /// `base` with these options as its global ones, and the store (one serves every tool).
    fn global(
        self,
        base: Formatter,
        store: Option<&Bound<'_, PyAny>>,
        fetch_tool: Opt<'_>,
    ) -> PyResult<Formatter> {
        let fetch_tool: Option<String> = fetch_tool
            .map(|v| {
                v.extract()
                    .map_err(|_| PyTypeError::new_err("fetch_tool is a str"))
            })
            .transpose()?;
        let store = store.map(result_store).transpose()?;
        let mut f = base.defaults(self.read()?);
        match (store, fetch_tool) {
            (Some(store), tool) => {
                f = f.store(store, tool.as_deref().unwrap_or("get_stored_result"));
            }
            (None, Some(_)) => {
                return Err(PyValueError::new_err(
                    "fetch_tool names the tool that reads the store: give store= too",
                ));
            }
            (None, None) => {}
        }
        Ok(f)
    }
}

/// A Python option value as the kind of value its key takes (`TypeError` for another type).
fn value(key: &OptionKey, v: &Bound<'_, PyAny>) -> PyResult<Value> {
    let name = key.name;
    Ok(match key.kind {
        OptionKind::Count => count(name, v)?,
        OptionKind::Flag => Value::Bool(
            v.extract()
                .map_err(|_| PyTypeError::new_err(format!("{name} is a bool")))?,
        ),
        OptionKind::OneOf(_) => Value::String(
            v.extract()
                .map_err(|_| PyTypeError::new_err(format!("{name} is a str")))?,
        ),
        OptionKind::List => Value::from(strings(name, v)?),
        other => panic!("the options table's kind {other:?} has no Python form"),
    })
}

/// A `shape` option: a `Shape`, or a shape file's dict.
fn shape(v: &Bound<'_, PyAny>) -> PyResult<tool_output_format::Shape> {
    match v.cast::<PyShape>() {
        Ok(s) => Ok(s.get().0.clone()),
        Err(_) if v.is_instance_of::<PyDict>() => Ok(PyShape::from_dict_value(v)?.0),
        Err(_) => Err(PyTypeError::new_err(
            "shape is a Shape (or a shape file's dict)",
        )),
    }
}

thread_local! {
    /// The exception a registered Python renderer raised in the current call on this thread.
    /// A Rust renderer returns a `String`, so the exception waits here until [`rendering`]
    /// raises it when the call returns.
    static RENDER_ERROR: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Run one rendering call with the GIL released, raising the exception a registered Python
/// renderer raised during it (the first one). Re-entrant: a renderer may format too.
pub(crate) fn rendering<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> PyResult<T> {
    let outer = RENDER_ERROR.take();
    let out = py.detach(f);
    match RENDER_ERROR.replace(outer) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// A Python callable as a Rust renderer: the tool's JSON as a Python object in, a `str` out.
/// An exception (or a result that is not a `str`) is kept for [`rendering`] to raise, and the
/// text is empty meanwhile.
fn python_renderer(render: Py<PyAny>) -> impl Fn(&serde_json::Value) -> String + Send + Sync {
    move |json| {
        Python::attach(|py| {
            let text = to_py(py, json)
                .and_then(|arg| render.bind(py).call1((arg,)))
                .and_then(|out| match out.extract::<String>() {
                    Ok(s) => Ok(s),
                    Err(_) => Err(PyTypeError::new_err(format!(
                        "a renderer returns the markdown as a str, got {}",
                        out.get_type().name()?
                    ))),
                });
            text.unwrap_or_else(|e| {
                RENDER_ERROR.with_borrow_mut(|slot| {
                    slot.get_or_insert(e);
                });
                String::new()
            })
        })
    }
}

/// Renders tool results as markdown a model reads well: the same text, byte for byte, as the
/// Rust `Formatter` with the same options. Immutable: `.tool()` and `.register()` return a
/// new formatter.
///
/// Options (keyword-only; `None` leaves one unset, so it keeps its default or, per tool,
/// the global value):
///
/// - `max_lines`: cap on string lines, and on table rows unless `max_rows` is set (default
///   100 when no budget is set; with `max_chars` or `max_tokens`, or in the agent preset, the
///   budget is the bound).
/// - `max_rows`: cap on table rows (set explicitly, it applies under a budget too).
/// - `max_cell_chars`: cap on one cell or record value (`…[+N chars]`).
/// - `max_chars`, `max_tokens`: budget for the whole output, in characters or o200k tokens.
/// - `layout`: `"aligned"` (default), `"compact"` or `"csv"`.
/// - `strategy`: which lines of a long string to keep: `"head"` (default), `"tail"`,
///   `"head_tail"`.
/// - `redact_keys`: keys whose values render as `[redacted]` (case-insensitive, nested too).
/// - `shape`: a `Shape` (or a shape file's dict) applied to every result.
/// - `summarize`: add a summary over all rows when a table is cut; `sum`: columns it sums.
/// - `detail`: `"summary"` (default) or `"full"`: with `for_agents()`, `"full"` shows the
///   fields the preset folds out.
/// - `salience`: keep what an agent needs under a budget (fields ranked by their name and
///   value, the least needed left out first; on in `for_agents()`).
/// - `store`: a `MemoryStore` or `RedisStore` that keeps the full result of a cut output;
///   the output then ends with `Next: call FETCH_TOOL(ref="r_...")`, `fetch_tool` (default
///   `"get_stored_result"`) naming your fetch tool. The formatter's only (not per tool).
///
/// A bad value raises `ValueError` (`TypeError` for a wrong type or an unknown keyword).
#[pyclass(name = "Formatter", module = "tool_output_format", frozen)]
pub struct PyFormatter(pub(crate) Formatter);

/// The methods of `Formatter`. The three that take options (`Formatter(...)`,
/// `Formatter.for_agents(...)`, `Formatter.tool(...)`) are made here with one keyword-only
/// parameter per option (so `inspect.signature` and `help()` list them), from the one list
/// the call gives, which must be the Rust options table's names in its order: an option of
/// the table without its keyword fails to compile (the assertion on [`same_names`]). PyO3
/// needs a method's parameters written out, so this list is the one place the binding names
/// the options; their values are read by the library (`ToolOptions::set`). The other methods
/// pass through.
macro_rules! formatter_methods {
    ([$($name:ident),* $(,)?] $($methods:tt)*) => {
        /// The keyword options of `Formatter(...)`, `for_agents(...)` and `tool(...)`.
        const KEYWORDS: &[&str] = &[$(stringify!($name)),*];

        #[pymethods]
        impl PyFormatter {
            #[new]
            #[pyo3(signature = (*, $($name=None,)* store=None, fetch_tool=None))]
            #[allow(clippy::too_many_arguments)] // one per Python keyword option
            fn new<'py>(
                $($name: Opt<'py>,)*
                store: Option<&Bound<'py, PyAny>>,
                fetch_tool: Opt<'py>,
            ) -> PyResult<Self> {
                let o = Options(vec![$((stringify!($name), $name)),*]);
                Ok(PyFormatter(o.global(Formatter::new(), store, fetch_tool)?))
            }

            /// The agent preset (Rust's `Formatter::for_agents()`): compact layout; machine-only
            /// fields (API URLs and URL templates, node ids) and null or empty fields folded out
            /// of the view and named in one left-out line that says how to get them
            /// (`Call TOOL(detail="full")`, or the stored full result when `store` is set); a
            /// budget of 40,000 characters. Then the options of `Formatter(...)` on top.
            #[staticmethod]
            #[pyo3(signature = (*, $($name=None,)* store=None, fetch_tool=None))]
            #[allow(clippy::too_many_arguments)] // one per Python keyword option
            fn for_agents<'py>(
                $($name: Opt<'py>,)*
                store: Option<&Bound<'py, PyAny>>,
                fetch_tool: Opt<'py>,
            ) -> PyResult<Self> {
                let o = Options(vec![$((stringify!($name), $name)),*]);
                Ok(PyFormatter(o.global(Formatter::for_agents(), store, fetch_tool)?))
            }

            /// A new formatter with options for the tool `name` (the options of
            /// `Formatter(...)` but `store` and `fetch_tool`); unset ones inherit the global
            /// options (`redact_keys` adds to them, `shape` replaces the global shape). Calling
            /// it again for the same tool replaces that tool's options (a registered renderer
            /// stays).
            #[pyo3(signature = (name, *, $($name=None,)*))]
            #[allow(clippy::too_many_arguments)] // one per Python keyword option
            fn tool<'py>(&self, name: String, $($name: Opt<'py>,)*) -> PyResult<Self> {
                let o = Options(vec![$((stringify!($name), $name)),*]);
                Ok(PyFormatter(self.0.clone().tool(name, o.read()?)))
            }

            $($methods)*
        }
    };
}

// The keywords are the Rust options table's names, in its order (checked when this crate
// compiles: a new option of the table is a compile error here until it is a keyword).
const _: () = assert!(
    same_names(KEYWORDS, OPTION_KEYS),
    "formatter_methods! lists the options table's names (OPTION_KEYS), in its order"
);

/// Whether `names` are the keys' names, in order.
const fn same_names(names: &[&str], keys: &[OptionKey]) -> bool {
    if names.len() != keys.len() {
        return false;
    }
    let mut i = 0;
    while i < names.len() {
        let (a, b) = (names[i].as_bytes(), keys[i].name.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let mut j = 0;
        while j < a.len() {
            if a[j] != b[j] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

formatter_methods! {
    [
        max_lines, max_rows, max_cell_chars, max_chars, max_tokens, layout, strategy,
        redact_keys, shape, summarize, sum, detail, salience,
    ]
    /// A new formatter whose text for the tool `name` is written by `render` (Rust's
    /// `Formatter::register`): `render(result)` receives the result's JSON form as Python
    /// data (dicts, lists, str, int, float, bool, None), redacted and shaped by the tool's
    /// options, and returns the markdown, which then goes through the tool's line cap and
    /// budgets like any text (and the store, when one is set). An exception it raises is
    /// raised by the call that formats. `format_json` does not use it (it is the data).
    #[pyo3(signature = (name, render))]
    fn register(&self, name: String, render: Bound<'_, PyAny>) -> PyResult<Self> {
        if !render.is_callable() {
            return Err(PyTypeError::new_err(
                "render is a callable: render(result) -> str",
            ));
        }
        let render = python_renderer(render.unbind());
        Ok(PyFormatter(self.0.clone().register(name, render)))
    }

    /// The result as markdown (an empty tool name leaves out a record's title line).
    #[pyo3(signature = (tool, result))]
    fn format(&self, py: Python<'_>, tool: &str, result: &Bound<'_, PyAny>) -> PyResult<String> {
        let r = to_result(result)?;
        rendering(py, || self.0.format(tool, &r))
    }

    /// Records from an iterable (a generator, a file's parsed lines, ...) as one table, the
    /// same text as `format` of the whole list: only the rows the tool's row cap shows are
    /// kept in memory (every row when a store is set, to keep the full result), the rest
    /// counted, so the notice gives the true total (`[Truncated to 100 rows of 523000
    /// total]`).
    #[pyo3(signature = (tool, rows))]
    fn format_rows(&self, py: Python<'_>, tool: &str, rows: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut failed = None;
        let values = rows.try_iter()?.enumerate().map_while(|(i, row)| {
            match row.and_then(|row| item_value(&row, i)) {
                Ok(v) => Some(v),
                Err(e) => {
                    failed = Some(e);
                    None
                }
            }
        });
        let kept = self.0.collect_rows(tool, values);
        if let Some(e) = failed {
            return Err(e);
        }
        rendering(py, || self.0.format(tool, &kept))
    }

    /// The markdown and a report of what was produced and cut.
    #[pyo3(signature = (tool, result))]
    fn format_with_report(
        &self,
        py: Python<'_>,
        tool: &str,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<PyFormatted> {
        let r = to_result(result)?;
        rendering(py, || self.0.format_with_report(tool, &r)).map(PyFormatted)
    }

    /// The same shaped, capped result as data, for MCP structured content:
    /// `{"result": ..., "notices": [{"kind", "path", ..., "text"}]}`.
    #[pyo3(signature = (tool, result))]
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

    /// A view that trims around `query`: long strings keep their most relevant sections,
    /// tables their most relevant rows, in the data's order (`row_order="data"`) or best
    /// first (`"ranked"`).
    #[pyo3(signature = (query, *, row_order="data"))]
    fn focus(&self, query: String, row_order: &str) -> PyResult<PyFocus> {
        let order: RowOrder = row_order
            .parse()
            .map_err(|e: tool_output_format::UnknownName| PyValueError::new_err(e.to_string()))?;
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

/// `Formatter.focus(query)`: the formatter's entry points, trimming around the query.
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

    /// The result as markdown, trimmed around the query.
    #[pyo3(signature = (tool, result))]
    fn format(&self, py: Python<'_>, tool: &str, result: &Bound<'_, PyAny>) -> PyResult<String> {
        let r = to_result(result)?;
        rendering(py, || {
            self.fmt
                .focus(&self.query)
                .row_order(self.order)
                .format(tool, &r)
        })
    }

    /// The trimmed markdown and its report (`report["focus"]`: the focus line and counts).
    #[pyo3(signature = (tool, result))]
    fn format_with_report(
        &self,
        py: Python<'_>,
        tool: &str,
        result: &Bound<'_, PyAny>,
    ) -> PyResult<PyFormatted> {
        let r = to_result(result)?;
        rendering(py, || {
            self.fmt
                .focus(&self.query)
                .row_order(self.order)
                .format_with_report(tool, &r)
        })
        .map(PyFormatted)
    }

    /// The structured JSON form of the focused result: the same rows as the focused text,
    /// the focus line first among the notices (kind `focus`).
    #[pyo3(signature = (tool, result))]
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
