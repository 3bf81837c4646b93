//! Tool outputs for agents written with [rig](https://docs.rs/rig-core) (feature `rig`,
//! rig-core 0.44).
//!
//! A rig tool's `Output` goes through rig's `IntoToolOutput`; [`output`] gives the rendered
//! markdown as one text block (the model reads the table, not a JSON-quoted string), and an
//! error result (`ToolError`, `Err`) as a `ToolExecutionError` whose model output is the
//! same markdown, so rig records the call as failed and the model still reads the kind, the
//! message and the hint. Declare `type Output = rig_core::tool::ToolOutput;` and
//! `type Error = rig_core::tool::ToolExecutionError;`:
//!
//! ```
//! use rig_core::tool::{PortableTool, ToolExecutionError, ToolOutput};
//! use tool_output_format::{Formatter, adapt::rig::output};
//!
//! struct ListUsers { fmt: Formatter }
//!
//! impl PortableTool for ListUsers {
//!     const NAME: &'static str = "list_users";
//!     type Args = serde_json::Value;
//!     type Output = ToolOutput;
//!     type Error = ToolExecutionError;
//!
//!     fn description(&self) -> String { "List users".into() }
//!     fn parameters(&self) -> serde_json::Value { serde_json::json!({"type": "object"}) }
//!
//!     async fn call(&self, _args: Self::Args) -> Result<ToolOutput, ToolExecutionError> {
//!         let users = serde_json::json!([{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bob"}]);
//!         output(&self.fmt, Self::NAME, &users)
//!     }
//! }
//!
//! let out = output(&Formatter::new(), "list_users", &serde_json::json!([{"id": 1}])).unwrap();
//! assert_eq!(out.as_text(), Some("| id |\n|----|\n| 1  |"));
//! ```

use rig_core::tool::{ToolErrorKind, ToolExecutionError, ToolOutput as RigOutput};

use crate::doc::agent::{ErrorKind, ToolError};
use crate::{Formatter, ToolOutput};

/// The rendered result as a rig tool output: `Ok` with one text block holding the markdown,
/// or, for a `ToolError` / `Err`, a `ToolExecutionError` (kind `other`, not retryable)
/// whose model output and message are the markdown. For a typed [`ToolError`], [`error`]
/// keeps its kind and retryability.
///
/// # Errors
///
/// A `ToolExecutionError` when the result is an error (`Formatted::is_error`): the model
/// still reads the markdown.
///
/// ```
/// use tool_output_format::{ErrorKind, Formatter, ToolError, adapt::rig::output};
///
/// let fmt = Formatter::new();
/// assert_eq!(output(&fmt, "add", &3).unwrap().as_text(), Some("3"));
///
/// let failed: Result<u32, ToolError> = Err(ToolError::new(ErrorKind::NotFound, "no order 9"));
/// let err = output(&fmt, "get_order", &failed).unwrap_err();
/// assert!(err.model_output().as_text().unwrap().contains("no order 9"));
/// ```
pub fn output<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    result: &T,
) -> Result<RigOutput, ToolExecutionError> {
    let (text, is_error) = super::render(fmt, tool, result);
    rendered(text, is_error)
}

/// [`output`] on the async path: a cut result is stored in the formatter's
/// [async store](Formatter::store_async) without blocking the agent's runtime, bounded by
/// its timeout (a failed put is told in the text, no reference promised).
///
/// # Errors
///
/// As [`output`]: a `ToolExecutionError` when the result is an error.
pub async fn output_async<T: ToolOutput + ?Sized>(
    fmt: &Formatter,
    tool: &str,
    result: &T,
) -> Result<RigOutput, ToolExecutionError> {
    let (text, is_error) = super::render_async(fmt, tool, result).await;
    rendered(text, is_error)
}

/// A rendered result as rig's: the text, or for an error a `ToolExecutionError` whose model
/// output is that text.
fn rendered(text: String, is_error: bool) -> Result<RigOutput, ToolExecutionError> {
    if is_error {
        Err(ToolExecutionError::new(ToolErrorKind::Other, text.clone())
            .with_model_output(RigOutput::text(text))
            .with_retryable(false))
    } else {
        Ok(RigOutput::text(text))
    }
}

/// A [`ToolError`] as a rig `ToolExecutionError`: rig's kind for ours (`not_found` ->
/// `NotFound`, `unavailable` -> `Provider`, ...), the error's retryability, and the rendered
/// markdown (`**{tool} failed**`, kind, message, hint) as what the model reads.
///
/// ```
/// use rig_core::tool::ToolErrorKind;
/// use tool_output_format::{ErrorKind, Formatter, ToolError, adapt::rig::error};
///
/// let e = ToolError::new(ErrorKind::RateLimited, "slow down").retry_after_secs(30);
/// let err = error(&Formatter::new(), "search", &e);
/// assert_eq!(err.kind(), ToolErrorKind::RateLimited);
/// assert!(err.model_output().as_text().unwrap().contains("slow down"));
/// ```
#[must_use]
pub fn error(fmt: &Formatter, tool: &str, error: &ToolError) -> ToolExecutionError {
    let (text, _) = super::render(fmt, tool, error);
    ToolExecutionError::new(rig_kind(error.kind()), error.message())
        .with_model_output(RigOutput::text(text))
        .with_retryable(error.is_retryable())
}

/// Our error kinds in rig's vocabulary (rig has no `conflict` or `internal`: `other`).
fn rig_kind(kind: ErrorKind) -> ToolErrorKind {
    match kind {
        ErrorKind::InvalidInput => ToolErrorKind::InvalidArgs,
        ErrorKind::NotFound => ToolErrorKind::NotFound,
        ErrorKind::PermissionDenied => ToolErrorKind::PermissionDenied,
        ErrorKind::RateLimited => ToolErrorKind::RateLimited,
        ErrorKind::Timeout => ToolErrorKind::Timeout,
        ErrorKind::Unavailable => ToolErrorKind::Provider,
        ErrorKind::Cancelled => ToolErrorKind::Cancelled,
        _ => ToolErrorKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    use rig_core::tool::{ErasedTool, PortableTool, ToolContext, ToolResult};
    use serde_json::{Value, json};

    use super::*;

    #[tokio::test(flavor = "current_thread")]
    async fn output_async_stores_through_the_async_store_and_tells_a_failure() {
        use std::{sync::Arc, time::Duration};
        let store = Arc::new(crate::store::MemoryStore::new(Duration::from_secs(60)));
        let fmt = Formatter::new().max_rows(1).store_async(
            store.clone(),
            "get_stored_result",
            Duration::from_secs(1),
        );
        let rows = serde_json::json!([{"id": 1}, {"id": 2}]);
        let out = output_async(&fmt, "list", &rows).await.unwrap();
        let text = out.as_text().unwrap();
        assert!(
            text.contains("Next: call get_stored_result(ref=\"r_"),
            "{text}"
        );
        assert_eq!(store.len(), 1);
        // A store too small for the result: the text says so, no reference.
        let tiny = Arc::new(crate::store::MemoryStore::new(Duration::from_secs(60)).max_bytes(4));
        let fmt = Formatter::new().max_rows(1).store_async(
            tiny,
            "get_stored_result",
            Duration::from_secs(1),
        );
        let out = output_async(&fmt, "list", &rows).await.unwrap();
        let text = out.as_text().unwrap();
        assert!(
            text.contains("[Full result not stored: the result is"),
            "{text}"
        );
        assert!(!text.contains("Next:"), "{text}");
    }

    /// A rig tool that looks orders up, answering through [`output`].
    struct GetOrder {
        fmt: Formatter,
    }

    impl PortableTool for GetOrder {
        const NAME: &'static str = "get_order";
        type Args = Value;
        type Output = RigOutput;
        type Error = ToolExecutionError;

        fn description(&self) -> String {
            "Get one order".into()
        }

        fn parameters(&self) -> Value {
            json!({"type": "object", "properties": {"order_id": {"type": "string"}}})
        }

        async fn call(&self, args: Value) -> Result<RigOutput, ToolExecutionError> {
            let result: Result<Value, ToolError> = match args["order_id"].as_str() {
                Some("ORD-1") => Ok(json!({"order_id": "ORD-1", "status": "shipped"})),
                Some(id) => Err(ToolError::new(
                    ErrorKind::NotFound,
                    format!("order {id} does not exist"),
                )),
                None => Err(ToolError::new(
                    ErrorKind::InvalidInput,
                    "order_id is required",
                )),
            };
            output(&self.fmt, Self::NAME, &result)
        }
    }

    /// Run a tool through rig's own dispatch boundary (argument parsing, output and error
    /// conversion), as an agent does after a model's tool call; no network, no runtime.
    fn dispatch(tool: &dyn ErasedTool, args: &str) -> ToolResult {
        let mut cx = ToolContext::new();
        let mut fut = pin!(tool.execute(args.to_string(), &mut cx));
        match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(result) => result,
            Poll::Pending => panic!("the tool future is ready at once"),
        }
    }

    #[test]
    fn the_model_reads_the_markdown_not_a_json_string() {
        let tool = GetOrder {
            fmt: Formatter::new(),
        };
        let result = dispatch(&tool, r#"{"order_id": "ORD-1"}"#);
        assert!(result.is_success());
        assert_eq!(
            result.output().as_text(),
            Some("**get_order result**\n\n- order_id: ORD-1\n- status: shipped")
        );
        assert!(result.output().as_json().is_none());
    }

    #[test]
    fn errors_fail_the_call_and_keep_the_markdown() {
        let tool = GetOrder {
            fmt: Formatter::new(),
        };
        let result = dispatch(&tool, r#"{"order_id": "ORD-404"}"#);
        assert!(result.is_error());
        let text = result.output().as_text().unwrap();
        assert!(
            text.starts_with("**") && text.contains("failed**"),
            "{text}"
        );
        assert!(
            text.contains("not_found") && text.contains("order ORD-404 does not exist"),
            "{text}"
        );
    }

    #[test]
    fn typed_errors_keep_kind_and_retryability() {
        let fmt = Formatter::new();
        let e = ToolError::new(ErrorKind::Unavailable, "mailbox full").retryable(true);
        let err = error(&fmt, "send", &e);
        assert_eq!(err.kind(), ToolErrorKind::Provider);
        assert_eq!(err.retryable(), Some(true));
        assert_eq!(err.message(), "mailbox full");
        assert_eq!(
            err.model_output().as_text().unwrap(),
            fmt.format("send", &e)
        );
        for (ours, theirs) in [
            (ErrorKind::InvalidInput, ToolErrorKind::InvalidArgs),
            (ErrorKind::Conflict, ToolErrorKind::Other),
            (ErrorKind::Internal, ToolErrorKind::Other),
        ] {
            assert_eq!(rig_kind(ours), theirs);
        }
    }
}
