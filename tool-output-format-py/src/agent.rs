//! The agent result shapes (`Page`, `ToolError`, `Batch`, `Reply`, `NextAction`,
//! `ResourceRef`) as Python classes, and [`Res`]: any result a Python tool returns, as one
//! Rust type the formatter renders.
//!
//! Each class is immutable (`frozen`) and converts its data once, when it is made; a
//! `Batch`'s methods return a new batch, as the Rust builders do.

use std::sync::Arc;

use pyo3::exceptions::{
    PyConnectionError, PyFileExistsError, PyFileNotFoundError, PyLookupError, PyPermissionError,
    PyTimeoutError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use serde_json::Value;
use tool_output_format::{Batch, Context, ErrorKind, NextAction, Page, Reply, ResourceRef, ToolError, ToolOutput, doc::{Kind, Node}};

use crate::convert::{to_py, to_value};

/// A tool result as the formatter receives it from Python: plain data, or one of the agent
/// shapes (shared, so formatting one twice copies nothing).
#[derive(Clone, Debug)]
pub enum Res {
    Value(Value),
    Page(Arc<Page<Value>>),
    Error(Arc<ToolError>),
    Batch(Arc<Batch<Value>>),
    Reply(Arc<Reply<Res>>),
}

/// Each variant renders exactly as the Rust type it holds.
impl ToolOutput for Res {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        match self {
            Res::Value(v) => v.to_node(cx),
            Res::Page(p) => p.to_node(cx),
            Res::Error(e) => e.to_node(cx),
            Res::Batch(b) => b.to_node(cx),
            Res::Reply(r) => r.to_node(cx),
        }
    }

    fn to_json(&self) -> Value {
        match self {
            Res::Value(v) => v.to_json(),
            Res::Page(p) => p.to_json(),
            Res::Error(e) => e.to_json(),
            Res::Batch(b) => b.to_json(),
            Res::Reply(r) => r.to_json(),
        }
    }

    fn write_cell(&self, cx: &Context<'_>, out: &mut String) -> Kind {
        match self {
            Res::Value(v) => v.write_cell(cx, out),
            Res::Page(p) => p.write_cell(cx, out),
            Res::Error(e) => e.write_cell(cx, out),
            Res::Batch(b) => b.write_cell(cx, out),
            Res::Reply(r) => r.write_cell(cx, out),
        }
    }
}

/// A Python tool result as a [`Res`]: an agent shape as itself, an exception as its
/// [`ToolError`] (see `ToolError.from_exception`), anything else as JSON.
pub fn to_result(obj: &Bound<'_, PyAny>) -> PyResult<Res> {
    if let Ok(p) = obj.cast::<PyPage>() {
        return Ok(Res::Page(p.get().0.clone()));
    }
    if let Ok(e) = obj.cast::<PyToolError>() {
        return Ok(Res::Error(e.get().0.clone()));
    }
    if let Ok(b) = obj.cast::<PyBatch>() {
        return Ok(Res::Batch(b.get().0.clone()));
    }
    if let Ok(r) = obj.cast::<PyReply>() {
        return Ok(Res::Reply(r.get().0.clone()));
    }
    if obj.is_instance_of::<pyo3::exceptions::PyBaseException>() {
        return Ok(Res::Error(Arc::new(from_exception(obj)?)));
    }
    Ok(Res::Value(to_value(obj)?))
}

/// The JSON form of an agent shape found inside plain data (a `ToolError` in a dict).
pub fn json_form(obj: &Bound<'_, PyAny>) -> Option<Value> {
    if let Ok(p) = obj.cast::<PyPage>() {
        return Some(p.get().0.to_json());
    }
    if let Ok(e) = obj.cast::<PyToolError>() {
        return Some(e.get().0.to_json());
    }
    if let Ok(b) = obj.cast::<PyBatch>() {
        return Some(b.get().0.to_json());
    }
    if let Ok(r) = obj.cast::<PyReply>() {
        return Some(r.get().0.to_json());
    }
    if let Ok(n) = obj.cast::<PyNextAction>() {
        return Some(Value::String(n.get().0.line()));
    }
    if let Ok(r) = obj.cast::<PyResourceRef>() {
        return Some(Value::String(r.get().0.line()));
    }
    None
}

/// The kind named by its `snake_case` name.
fn error_kind(name: &str) -> PyResult<ErrorKind> {
    name.parse::<ErrorKind>()
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The error kind for a Python exception, most specific class first.
fn exception_kind(exc: &Bound<'_, PyAny>) -> ErrorKind {
    let py = exc.py();
    let is = |t: Bound<'_, pyo3::types::PyType>| exc.is_instance(&t).unwrap_or(false);
    if is(py.get_type::<PyFileExistsError>()) {
        ErrorKind::Conflict
    } else if is(py.get_type::<PyFileNotFoundError>()) || is(py.get_type::<PyLookupError>()) {
        ErrorKind::NotFound
    } else if is(py.get_type::<PyPermissionError>()) {
        ErrorKind::PermissionDenied
    } else if is(py.get_type::<PyTimeoutError>()) {
        ErrorKind::Timeout
    } else if is(py.get_type::<PyConnectionError>()) {
        ErrorKind::Unavailable
    } else if is(py.get_type::<PyValueError>()) || is(py.get_type::<PyTypeError>()) {
        ErrorKind::InvalidInput
    } else {
        ErrorKind::Internal
    }
}

/// A Python exception as a [`ToolError`]: its kind from its class, its message `str(exc)`
/// (the class name when that is empty).
fn from_exception(exc: &Bound<'_, PyAny>) -> PyResult<ToolError> {
    let text = exc.str()?.to_cow()?.into_owned();
    let message = if text.is_empty() {
        exc.get_type().name()?.to_string()
    } else {
        text
    };
    Ok(ToolError::new(exception_kind(exc), message))
}

/// What failed and why, rendered under `**{tool} failed**` with whether a retry can help.
///
/// `kind` is one of `"invalid_input"`, `"not_found"`, `"permission_denied"`, `"conflict"`,
/// `"rate_limited"`, `"timeout"`, `"unavailable"`, `"cancelled"`, `"internal"`.
#[pyclass(name = "ToolError", module = "tool_output_format", frozen)]
pub struct PyToolError(pub Arc<ToolError>);

#[pymethods]
impl PyToolError {
    #[new]
    #[pyo3(signature = (kind, message, *, hint=None, retryable=None, retry_after_secs=None))]
    fn new(
        kind: &str,
        message: String,
        hint: Option<String>,
        retryable: Option<bool>,
        retry_after_secs: Option<u64>,
    ) -> PyResult<Self> {
        let mut e = ToolError::new(error_kind(kind)?, message);
        if let Some(h) = hint {
            e = e.hint(h);
        }
        if let Some(r) = retryable {
            e = e.retryable(r);
        }
        if let Some(s) = retry_after_secs {
            e = e.retry_after_secs(s);
        }
        Ok(PyToolError(Arc::new(e)))
    }

    /// The error for a Python exception: `FileExistsError` -> `conflict`;
    /// `FileNotFoundError`, `LookupError` (`KeyError`, `IndexError`) -> `not_found`;
    /// `PermissionError` -> `permission_denied`; `TimeoutError` -> `timeout`;
    /// `ConnectionError` -> `unavailable`; `ValueError`, `TypeError` -> `invalid_input`;
    /// anything else -> `internal`. The message is `str(exc)`.
    #[staticmethod]
    fn from_exception(exc: &Bound<'_, PyAny>) -> PyResult<Self> {
        if !exc.is_instance_of::<pyo3::exceptions::PyBaseException>() {
            return Err(PyTypeError::new_err("from_exception takes an exception"));
        }
        Ok(PyToolError(Arc::new(from_exception(exc)?)))
    }

    /// The kind's name (`"not_found"`, ...).
    #[getter]
    fn kind(&self) -> &'static str {
        self.0.kind().as_str()
    }

    /// What failed and why.
    #[getter]
    fn message(&self) -> &str {
        self.0.message()
    }

    /// How to fix the call, if given.
    #[getter]
    fn hint(&self) -> Option<&str> {
        self.0.get_hint()
    }

    /// Whether retrying can help: as given, else the kind's default.
    #[getter]
    fn retryable(&self) -> bool {
        self.0.is_retryable()
    }

    /// Seconds to wait before retrying, if given.
    #[getter]
    fn retry_after_secs(&self) -> Option<u64> {
        self.0.get_retry_after_secs()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "ToolError({:?}, {:?})",
            self.0.kind().as_str(),
            self.0.message()
        )
    }
}

/// A tool's next call: `Next: call TOOL(arg="value") after N s (reason)`.
#[pyclass(name = "NextAction", module = "tool_output_format", frozen)]
pub struct PyNextAction(pub NextAction);

#[pymethods]
impl PyNextAction {
    #[new]
    #[pyo3(signature = (tool, args=None, *, after_secs=None, reason=None))]
    fn new(
        tool: String,
        args: Option<&Bound<'_, PyDict>>,
        after_secs: Option<u64>,
        reason: Option<String>,
    ) -> PyResult<Self> {
        let mut a = NextAction::call(tool);
        if let Some(args) = args {
            for (k, v) in args.iter() {
                a = a.arg(k.extract::<String>()?, to_value(&v)?);
            }
        }
        if let Some(s) = after_secs {
            a = a.after_secs(s);
        }
        if let Some(r) = reason {
            a = a.reason(r);
        }
        Ok(PyNextAction(a))
    }

    /// The tool to call.
    #[getter]
    fn tool(&self) -> &str {
        self.0.tool()
    }

    /// The arguments, in order.
    #[getter]
    fn args<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.0.args() {
            d.set_item(k, to_py(py, v)?)?;
        }
        Ok(d)
    }

    /// The line the output ends with.
    fn line(&self) -> String {
        self.0.line()
    }

    fn __str__(&self) -> String {
        self.0.line()
    }

    fn __repr__(&self) -> String {
        format!("NextAction({:?})", self.0.line())
    }
}

/// A tool name (`str`) or a `NextAction` as the action.
fn action(obj: &Bound<'_, PyAny>) -> PyResult<NextAction> {
    if let Ok(a) = obj.cast::<PyNextAction>() {
        return Ok(a.get().0.clone());
    }
    match obj.extract::<String>() {
        Ok(tool) => Ok(NextAction::call(tool)),
        Err(_) => Err(PyTypeError::new_err(
            "a call is a tool name (str) or a NextAction",
        )),
    }
}

/// One page of a listing: the items, then `has_more` and the call that fetches the next page.
///
/// `next_call` is `(tool, cursor_arg)`, the tool a name or a `NextAction` (whose arguments
/// come before the cursor); `item_cursors` are the cursors of the items, one each.
#[pyclass(name = "Page", module = "tool_output_format", frozen)]
pub struct PyPage(pub Arc<Page<Value>>);

#[pymethods]
impl PyPage {
    #[new]
    #[pyo3(signature = (items, *, has_more=false, next_cursor=None, total=None, item_cursors=None, next_call=None))]
    fn new(
        items: &Bound<'_, PyAny>,
        has_more: bool,
        next_cursor: Option<String>,
        total: Option<u64>,
        item_cursors: Option<Vec<String>>,
        next_call: Option<(Bound<'_, PyAny>, String)>,
    ) -> PyResult<Self> {
        let Value::Array(items) = to_value(items)? else {
            return Err(PyTypeError::new_err(
                "Page items are a list (or tuple) of results",
            ));
        };
        let mut p = Page::new(items).has_more(has_more);
        if let Some(c) = next_cursor {
            p = p.next_cursor(c);
        }
        if let Some(t) = total {
            p = p.total(t);
        }
        if let Some(c) = item_cursors {
            p = p.item_cursors(c);
        }
        if let Some((tool, arg)) = next_call {
            p = p.next_call_with(action(&tool)?, arg);
        }
        Ok(PyPage(Arc::new(p)))
    }

    /// The items of this page (as Python data).
    #[getter]
    fn items<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for item in self.0.items() {
            list.append(to_py(py, item)?)?;
        }
        Ok(list)
    }

    /// Whether more pages follow.
    #[getter]
    fn has_more(&self) -> bool {
        self.0.get_has_more()
    }

    /// The cursor of the next page, if any.
    #[getter]
    fn next_cursor(&self) -> Option<&str> {
        self.0.get_next_cursor()
    }

    /// The number of items over all pages, if known.
    #[getter]
    fn total(&self) -> Option<u64> {
        self.0.get_total()
    }

    fn __len__(&self) -> usize {
        self.0.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Page({} items, has_more={})",
            self.0.len(),
            if self.0.get_has_more() {
                "True"
            } else {
                "False"
            }
        )
    }
}

/// An error as a `ToolError`: one, an exception (mapped), or a message (`internal`).
fn tool_error(obj: &Bound<'_, PyAny>) -> PyResult<ToolError> {
    if let Ok(e) = obj.cast::<PyToolError>() {
        return Ok((*e.get().0).clone());
    }
    if obj.is_instance_of::<pyo3::exceptions::PyBaseException>() {
        return from_exception(obj);
    }
    match obj.extract::<String>() {
        Ok(message) => Ok(ToolError::from(message)),
        Err(_) => Err(PyTypeError::new_err(
            "an error is a ToolError, an exception or a message (str)",
        )),
    }
}

/// Per-item outcomes of a bulk call: counts, the failures table, and a retry of exactly the
/// retryable failures. Each method returns a new batch.
#[pyclass(name = "Batch", module = "tool_output_format", frozen)]
pub struct PyBatch(pub Arc<Batch<Value>>);

impl PyBatch {
    fn with(&self, f: impl FnOnce(Batch<Value>) -> Batch<Value>) -> PyBatch {
        PyBatch(Arc::new(f((*self.0).clone())))
    }
}

#[pymethods]
impl PyBatch {
    #[new]
    fn new() -> Self {
        PyBatch(Arc::new(Batch::with_values()))
    }

    /// An item that succeeded.
    fn ok(&self, id: &Bound<'_, PyAny>) -> PyResult<PyBatch> {
        let id = to_value(id)?;
        Ok(self.with(|b| b.ok(id)))
    }

    /// An item that succeeded, with its value (the body becomes a record of `failures` and
    /// `results`).
    fn ok_with(&self, id: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<PyBatch> {
        let (id, value) = (to_value(id)?, to_value(value)?);
        Ok(self.with(|b| b.ok_with(id, value)))
    }

    /// An item that failed: `error` is a `ToolError`, an exception or a message.
    fn failed(&self, id: &Bound<'_, PyAny>, error: &Bound<'_, PyAny>) -> PyResult<PyBatch> {
        let (id, error) = (to_value(id)?, tool_error(error)?);
        Ok(self.with(|b| b.failed(id, error)))
    }

    /// The call that retries the retryable failures, their ids passed as `ids_arg`; `tool`
    /// is a name or a `NextAction`.
    fn retry_call(&self, tool: &Bound<'_, PyAny>, ids_arg: String) -> PyResult<PyBatch> {
        let a = action(tool)?;
        Ok(self.with(|b| b.retry_call_with(a, ids_arg)))
    }

    /// Items in the batch.
    #[getter]
    fn total(&self) -> usize {
        self.0.total()
    }

    /// Items that succeeded.
    #[getter]
    fn succeeded(&self) -> usize {
        self.0.succeeded_count()
    }

    /// Items that failed.
    #[getter]
    fn failed_count(&self) -> usize {
        self.0.failed_count()
    }

    fn __len__(&self) -> usize {
        self.0.total()
    }

    fn __repr__(&self) -> String {
        format!("Batch({:?})", self.0.counts_line())
    }
}

/// A link to a resource the model can read: `Resource: NAME <URI> (TYPE, SIZE)`.
#[pyclass(name = "ResourceRef", module = "tool_output_format", frozen)]
pub struct PyResourceRef(pub ResourceRef);

#[pymethods]
impl PyResourceRef {
    #[new]
    #[pyo3(signature = (uri, *, name=None, content_type=None, size_bytes=None))]
    fn new(
        uri: String,
        name: Option<String>,
        content_type: Option<String>,
        size_bytes: Option<u64>,
    ) -> Self {
        let mut r = ResourceRef::new(uri);
        if let Some(n) = name {
            r = r.name(n);
        }
        if let Some(t) = content_type {
            r = r.content_type(t);
        }
        if let Some(s) = size_bytes {
            r = r.size_bytes(s);
        }
        PyResourceRef(r)
    }

    /// Where the resource is.
    #[getter]
    fn uri(&self) -> &str {
        self.0.uri()
    }

    /// The line the output carries.
    fn line(&self) -> String {
        self.0.line()
    }

    fn __str__(&self) -> String {
        self.0.line()
    }

    fn __repr__(&self) -> String {
        format!("ResourceRef({:?})", self.0.uri())
    }
}

/// One item or a list of them.
fn one_or_many<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        obj.try_iter()?.collect()
    } else {
        Ok(vec![obj.clone()])
    }
}

/// Any result with its follow-up calls, links and resource references (the lines after the
/// result).
///
/// `next`: a `NextAction` or a list of them; `links`: a dict `label -> url` or a list of
/// `(label, url)`; `references`: a `ResourceRef` or a list of them.
#[pyclass(name = "Reply", module = "tool_output_format", frozen)]
pub struct PyReply(pub Arc<Reply<Res>>);

#[pymethods]
impl PyReply {
    #[new]
    #[pyo3(signature = (result, *, next=None, links=None, references=None))]
    fn new(
        result: &Bound<'_, PyAny>,
        next: Option<&Bound<'_, PyAny>>,
        links: Option<&Bound<'_, PyAny>>,
        references: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut r = Reply::new(to_result(result)?);
        if let Some(next) = next {
            for a in one_or_many(next)? {
                let a = a
                    .cast::<PyNextAction>()
                    .map_err(|_| PyTypeError::new_err("next is a NextAction or a list of them"))?;
                r = r.next(a.get().0.clone());
            }
        }
        if let Some(links) = links {
            let pairs: Vec<(String, String)> = match links.cast::<PyDict>() {
                Ok(d) => d
                    .iter()
                    .map(|(k, v)| Ok((k.extract()?, v.extract()?)))
                    .collect::<PyResult<_>>()?,
                Err(_) => links.extract().map_err(|_| {
                    PyTypeError::new_err("links is a dict label -> url or a list of (label, url)")
                })?,
            };
            for (label, url) in pairs {
                r = r.link(label, url);
            }
        }
        if let Some(refs) = references {
            for x in one_or_many(refs)? {
                let x = x.cast::<PyResourceRef>().map_err(|_| {
                    PyTypeError::new_err("references is a ResourceRef or a list of them")
                })?;
                r = r.reference(x.get().0.clone());
            }
        }
        Ok(PyReply(Arc::new(r)))
    }

    fn __repr__(&self) -> String {
        format!("Reply({:?})", self.0.lines())
    }
}
