//! The async path (feature `async`): stores that do network I/O without blocking a runtime
//! thread, and [`Formatter::format_async`].
//!
//! **Design.** The pipeline stays synchronous and does no I/O: it renders the text with a
//! reference chosen *first* (128 random bits, [`new_reference`](crate::store::new_reference)), kept
//! by a hand-off store that only remembers the value. Then `format_async` awaits
//! [`AsyncResultStore::put_at`] of that value under that reference, bounded by the timeout
//! given to [`Formatter::store_async`]. When the put succeeds the text is returned as rendered
//! (its Next line already names the reference). When it fails or times out, the result is
//! rendered again with the failure as the store's answer, so the text ends with
//! `[Full result not stored: WHY]` and promises no reference, with every budget still held
//! (the same pipeline wrote it). No lock is held across an await, and nothing blocks.
//!
//! The sync path is unchanged: [`Formatter::store`] and [`Formatter::format`] for sync hosts
//! and the CLI. A formatter may have both (e.g. one `RedisStore` set with each).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! use std::sync::Arc;
//! use std::time::Duration;
//! use tool_output_format::{Formatter, store::{MemoryStore, ResultStore}};
//!
//! let store = Arc::new(MemoryStore::new(Duration::from_secs(600)));
//! let fmt = Formatter::new()
//!     .max_rows(2)
//!     .store_async(store.clone(), "get_stored_result", Duration::from_secs(2));
//! let rows: Vec<_> = (1..=10).map(|id| serde_json::json!({"id": id})).collect();
//! let out = fmt.format_async("list", &rows).await;
//! let reference = out.report.reference.clone().unwrap();
//! assert!(out.text.ends_with(&format!("Next: call get_stored_result(ref=\"{reference}\", cursor=\"2\")")));
//! assert_eq!(store.get(&reference).unwrap().as_array().unwrap().len(), 10);
//! # }
//! ```

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

use crate::call::focused::Query;
use crate::call::report::Formatted;
use crate::formatter::{Focused, Formatter};
use crate::input::ToolOutput;
use crate::store::{AsyncResultStore, ResultStore, StoreError, StoreErrorKind, new_reference};

/// Where `format_async` keeps cut results: an async store, its fetch tool, the timeout.
#[derive(Clone)]
pub(crate) struct AsyncTarget {
    pub store: Arc<dyn AsyncResultStore>,
    pub fetch_tool: String,
    pub timeout: Duration,
    /// What the sync path stores into when only this async store is set: nothing, told in
    /// the text (`[Full result not stored: ...]`) instead of said nowhere.
    pub sync: crate::call::pipeline::StoreTarget,
}

/// Why a result rendered on the sync path of a formatter with only an async store is not
/// stored.
const SYNC_ON_ASYNC: &str = "the store is asynchronous and this result was rendered on the \
     sync path (the server should call format_async or McpJson::new_async)";

/// The pipeline's store during `format_async`: issues the reference and keeps the value for
/// the put that follows. No I/O.
#[derive(Default)]
struct Handoff {
    /// The reference, the tool whose result it is, the value.
    value: Mutex<Option<(String, Option<String>, Value)>>,
}

impl Handoff {
    fn keep(&self, tool: Option<&str>, value: &Value) -> Result<String, StoreError> {
        let reference = new_reference()?;
        let mut slot = self
            .value
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *slot = Some((reference.clone(), tool.map(str::to_owned), value.clone()));
        Ok(reference)
    }
}

impl ResultStore for Handoff {
    fn put(&self, value: &Value) -> Result<String, StoreError> {
        self.keep(None, value)
    }

    fn put_for(&self, tool: &str, value: &Value) -> Result<String, StoreError> {
        self.keep(Some(tool), value)
    }

    fn get(&self, reference: &str) -> Result<Value, StoreError> {
        Err(StoreError::unknown(reference))
    }
}

/// The pipeline's store for the second render after a failed put: it answers the failure.
struct Failed(String);

impl ResultStore for Failed {
    fn put(&self, _: &Value) -> Result<String, StoreError> {
        Err(StoreError::new(StoreErrorKind::Unavailable, self.0.clone()))
    }

    fn get(&self, reference: &str) -> Result<Value, StoreError> {
        Err(StoreError::unknown(reference))
    }
}

impl Formatter {
    /// Keep the full result of every cut output of [`format_async`](Self::format_async) in
    /// `store`, waiting at most `timeout` for it (the same Next line as
    /// [`Formatter::store`]). The sync `format` calls do not use it.
    #[must_use]
    pub fn store_async(
        self,
        store: Arc<dyn AsyncResultStore>,
        fetch_tool: &str,
        timeout: Duration,
    ) -> Self {
        self.with_async_store(Some(AsyncTarget {
            store,
            fetch_tool: fetch_tool.to_owned(),
            timeout,
            sync: crate::call::pipeline::StoreTarget {
                store: Arc::new(Failed(SYNC_ON_ASYNC.to_owned())),
                fetch_tool: fetch_tool.to_owned(),
            },
        }))
    }

    /// [`format_with_report`](Self::format_with_report) for async hosts: the text is rendered
    /// at once (no I/O), then the full result of a cut output is put into the
    /// [async store](Self::store_async) and awaited at most its timeout. On failure or
    /// timeout the output ends with `[Full result not stored: WHY]`, promises no reference,
    /// and [`Report::store_error`](crate::Report::store_error) says why.
    ///
    /// Without an async store it is `format_with_report` (a sync store, if set, is used as
    /// the sync path uses it). Needs a tokio runtime with its timer enabled (as
    /// `#[tokio::main]` makes).
    pub async fn format_async<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Formatted {
        self.format_async_in(tool, None, result).await
    }

    /// `format_async`, focused on `query` when there is one ([`Focused::format_async`]).
    async fn format_async_in<T: ToolOutput + ?Sized>(
        &self,
        tool: &str,
        query: Option<&Query>,
        result: &T,
    ) -> Formatted {
        let Some(target) = self.async_store() else {
            return self.format_in(tool, query, result);
        };
        let handoff = Arc::new(Handoff::default());
        let out = self.format_storing(tool, query, result, handoff.clone(), &target.fetch_tool);
        let taken = handoff
            .value
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        let Some((reference, origin, value)) = taken else {
            return out;
        };
        let put = match &origin {
            Some(t) => target.store.put_at_for(&reference, t, &value),
            None => target.store.put_at(&reference, &value),
        };
        let why = match tokio::time::timeout(target.timeout, put).await {
            Ok(Ok(())) => return out,
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!(
                "the store did not answer within {} ms",
                target.timeout.as_millis()
            ),
        };
        let failed = Arc::new(Failed(why));
        self.format_storing(tool, query, result, failed, &target.fetch_tool)
    }
}

impl Focused<'_> {
    /// [`Formatter::format_async`] trimmed around the query: the text is rendered at once,
    /// then the full result of a cut output is put into the async store (the model's Next
    /// line fetches the rest, unfocused).
    ///
    /// ```
    /// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
    /// use std::{sync::Arc, time::Duration};
    /// use serde_json::json;
    /// use tool_output_format::{Formatter, store::MemoryStore};
    /// let store = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    /// let fmt = Formatter::new().max_rows(1).store_async(store, "more", Duration::from_secs(1));
    /// let rows = json!([{"t": "printer"}, {"t": "refund late"}, {"t": "vpn"}]);
    /// let out = fmt.focus("refund").format_async("t", &rows).await;
    /// assert!(out.text.starts_with("[Kept 1 of 3 rows relevant to \"refund\"]"), "{}", out.text);
    /// assert!(out.text.contains("| refund late |"));
    /// assert!(out.report.reference.is_some());
    /// # });
    /// ```
    pub async fn format_async<T: ToolOutput + ?Sized>(&self, tool: &str, result: &T) -> Formatted {
        self.fmt
            .format_async_in(tool, Some(&self.query), result)
            .await
    }
}
