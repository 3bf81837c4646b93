//! [`Batch`]: per-item outcomes of a call that touches many items, its counts line and its
//! retry line.

use serde_json::Value;

use crate::doc::agent::error::ToolError;
use crate::doc::agent::next::NextAction;

/// The outcome of a call over many items: one entry per item (its id, and its value or its
/// error), never collapsed to one boolean.
///
/// It renders as a counts line ([`Batch::counts_line`]), a table of the failures (id, kind,
/// message, retryable) and a retry line naming exactly the failed, retryable ids
/// (the batch's `Next:` line).
///
/// Ids are JSON values (strings, numbers...), so the retry line passes them back as they
/// came. `T` is the type of the values succeeded items may carry ([`Batch::ok_with`]);
/// [`Batch::new`] makes a batch whose items carry none.
///
/// ```
/// use tool_output_format::{Batch, ErrorKind, ToolError};
///
/// let batch = Batch::new()
///     .ok("a@example.com")
///     .ok("b@example.com")
///     .failed("c@example.com", ToolError::new(ErrorKind::Unavailable, "mailbox full").retryable(true))
///     .retry_call("send_invites", "emails");
/// assert_eq!(batch.counts_line(), "3 total, 2 succeeded, 1 failed");
/// let md = tool_output_format::to_markdown(&batch);
/// assert!(md.ends_with(r#"Next: call send_invites(emails=["c@example.com"])"#));
/// ```
///
/// Its builders own the plain names (`retry_call(...)` sets a value), so the getters that read a value
/// back are `get_`-prefixed (`get_retry_call()`), as `std::process::Command::get_program` is.
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub struct Batch<T = ()> {
    items: Vec<BatchItem<T>>,
    retry_call: Option<(NextAction, String)>,
}

/// One item of a [`Batch`]: its id and its outcome.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BatchItem<T> {
    id: Value,
    outcome: Result<Option<T>, ToolError>,
}

impl<T> BatchItem<T> {
    /// The item's id.
    pub(crate) fn id(&self) -> &Value {
        &self.id
    }

    /// True when the item succeeded.
    pub(crate) fn is_ok(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The value a succeeded item carries, if any.
    pub(crate) fn value(&self) -> Option<&T> {
        self.outcome.as_ref().ok().and_then(Option::as_ref)
    }

    /// The error of a failed item.
    pub(crate) fn error(&self) -> Option<&ToolError> {
        self.outcome.as_ref().err()
    }
}

impl Batch<()> {
    /// An empty batch whose items carry no values.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().counts_line(), "0 total, 0 succeeded, 0 failed");
    /// ```
    pub fn new() -> Self {
        Batch::with_values()
    }
}

impl Default for Batch<()> {
    fn default() -> Self {
        Batch::new()
    }
}

impl<T> Batch<T> {
    /// An empty batch whose succeeded items may carry a `T` ([`Batch::ok_with`]).
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// let batch = Batch::with_values().ok_with("ORD-1", 42.5);
    /// assert_eq!(batch.succeeded_count(), 1);
    /// ```
    pub fn with_values() -> Self {
        Batch {
            items: Vec::new(),
            retry_call: None,
        }
    }

    /// Record a succeeded item.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().ok("a").ok(2).succeeded_count(), 2);
    /// ```
    pub fn ok(mut self, id: impl Into<Value>) -> Self {
        self.items.push(BatchItem {
            id: id.into(),
            outcome: Ok(None),
        });
        self
    }

    /// Record a succeeded item with its result value.
    ///
    /// ```
    /// use tool_output_format::{Batch, ToolOutput};
    /// let batch = Batch::with_values().ok_with("a", "created");
    /// assert!(batch.to_json()["results"].to_string().contains("created"));
    /// ```
    pub fn ok_with(mut self, id: impl Into<Value>, value: T) -> Self {
        self.items.push(BatchItem {
            id: id.into(),
            outcome: Ok(Some(value)),
        });
        self
    }

    /// Record a failed item and why.
    ///
    /// ```
    /// use tool_output_format::{Batch, ErrorKind, ToolError};
    /// let batch = Batch::new().failed("c", ToolError::new(ErrorKind::Conflict, "already invited"));
    /// assert_eq!(batch.failed_count(), 1);
    /// ```
    pub fn failed(mut self, id: impl Into<Value>, error: impl Into<ToolError>) -> Self {
        self.items.push(BatchItem {
            id: id.into(),
            outcome: Err(error.into()),
        });
        self
    }

    /// The call that retries failed items: `tool` takes the JSON array of the failed,
    /// retryable ids as its argument `ids_arg`.
    ///
    /// ```
    /// use tool_output_format::{Batch, ErrorKind, ToolError};
    /// let batch = Batch::new()
    ///     .failed(1, ToolError::new(ErrorKind::Timeout, "slow"))
    ///     .retry_call("refresh", "ids");
    /// assert!(tool_output_format::to_markdown(&batch).ends_with("Next: call refresh(ids=[1])"));
    /// ```
    pub fn retry_call(self, tool: impl Into<String>, ids_arg: impl Into<String>) -> Self {
        self.retry_call_with(NextAction::call(tool), ids_arg)
    }

    /// The retry call with other arguments kept: the ids are set on `action` as `ids_arg`.
    ///
    /// ```
    /// use tool_output_format::{Batch, ErrorKind, NextAction, ToolError};
    /// let batch = Batch::new()
    ///     .failed("c", ToolError::new(ErrorKind::Timeout, "slow"))
    ///     .retry_call_with(NextAction::call("send_invites").arg("template", "welcome"), "emails");
    /// assert!(
    ///     tool_output_format::to_markdown(&batch)
    ///         .ends_with(r#"Next: call send_invites(template="welcome", emails=["c"])"#)
    /// );
    /// ```
    pub fn retry_call_with(mut self, action: NextAction, ids_arg: impl Into<String>) -> Self {
        self.retry_call = Some((action, ids_arg.into()));
        self
    }

    /// Every item, in the order recorded.
    #[must_use]
    pub(crate) fn items(&self) -> &[BatchItem<T>] {
        &self.items
    }

    /// The failed items, in order.
    pub(crate) fn failures(&self) -> impl Iterator<Item = (&Value, &ToolError)> {
        self.items
            .iter()
            .filter_map(|i| i.error().map(|e| (&i.id, e)))
    }

    /// The ids of the failed items whose error is retryable ([`ToolError::is_retryable`]).
    #[cfg(test)]
    pub(crate) fn retryable_ids(&self) -> impl Iterator<Item = &Value> {
        self.failures()
            .filter(|(_, e)| e.is_retryable())
            .map(|(id, _)| id)
    }

    /// The number of items.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().ok("a").ok("b").total(), 2);
    /// ```
    #[must_use]
    pub fn total(&self) -> usize {
        self.items.len()
    }

    /// The number of succeeded items.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().ok("a").succeeded_count(), 1);
    /// ```
    #[must_use]
    pub fn succeeded_count(&self) -> usize {
        self.items.iter().filter(|i| i.is_ok()).count()
    }

    /// The number of failed items.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().ok("a").failed_count(), 0);
    /// ```
    #[must_use]
    pub fn failed_count(&self) -> usize {
        self.items.len() - self.succeeded_count()
    }

    /// The retry call and its ids argument, if set.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn get_retry_call(&self) -> Option<(&NextAction, &str)> {
        self.retry_call.as_ref().map(|(a, arg)| (a, arg.as_str()))
    }

    /// The counts line, `{total} total, {succeeded} succeeded, {failed} failed`.
    ///
    /// ```
    /// use tool_output_format::Batch;
    /// assert_eq!(Batch::new().ok("a").counts_line(), "1 total, 1 succeeded, 0 failed");
    /// ```
    #[must_use]
    pub fn counts_line(&self) -> String {
        counts_line(self.succeeded_count(), self.failed_count())
    }

    /// The retry action: the retry call with the JSON array of exactly the failed, retryable
    /// ids, and ` after N s` with the longest retry delay among them. `None` when no retry
    /// call is set or no failure is retryable.
    #[must_use]
    pub(crate) fn retry_action(&self) -> Option<NextAction> {
        let (action, arg) = self.retry_call.as_ref()?;
        let mut ids = Vec::new();
        let mut after: Option<u64> = None;
        for (id, error) in self.failures().filter(|(_, e)| e.is_retryable()) {
            ids.push(id.clone());
            if let Some(secs) = error.get_retry_after_secs() {
                after = Some(after.map_or(secs, |a| a.max(secs)));
            }
        }
        if ids.is_empty() {
            return None;
        }
        let mut action = action.clone().arg(arg.as_str(), Value::Array(ids));
        if let Some(secs) = after {
            action = action.after_secs(secs);
        }
        Some(action)
    }

    /// The retry line ([`Batch::retry_action`] as a `Next:` line), if any.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn retry_line(&self) -> Option<String> {
        self.retry_action().map(|a| a.line())
    }
}

/// The counts line of a batch: `{total} total, {succeeded} succeeded, {failed} failed`.
#[must_use]
pub(crate) fn counts_line(succeeded: usize, failed: usize) -> String {
    let total = succeeded.saturating_add(failed);
    format!("{total} total, {succeeded} succeeded, {failed} failed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::agent::error::ErrorKind;

    #[test]
    fn the_counts_line_reads_total_succeeded_failed() {
        assert_eq!(counts_line(2, 1), "3 total, 2 succeeded, 1 failed");
    }

    fn err(kind: ErrorKind, msg: &str) -> ToolError {
        ToolError::new(kind, msg)
    }

    #[test]
    fn seed_example() {
        let batch = Batch::new()
            .ok("a@example.com")
            .ok("b@example.com")
            .failed(
                "c@example.com",
                err(ErrorKind::Unavailable, "mailbox full").retryable(true),
            )
            .retry_call("send_invites", "emails");
        assert_eq!(batch.counts_line(), "3 total, 2 succeeded, 1 failed");
        assert_eq!(
            batch.retry_line().as_deref(),
            Some("Next: call send_invites(emails=[\"c@example.com\"])")
        );
    }

    #[test]
    fn retry_names_exactly_the_retryable_failures() {
        let batch = Batch::new()
            .ok("a")
            .failed("b", err(ErrorKind::InvalidInput, "not an email"))
            .failed("c", err(ErrorKind::Timeout, "smtp timeout"))
            .failed(
                "d",
                err(ErrorKind::Unavailable, "mailbox full").retryable(false),
            )
            .failed(
                "e",
                err(ErrorKind::NotFound, "no such list").retryable(true),
            )
            .failed("f", err(ErrorKind::Internal, "bug").retry_after_secs(5))
            .ok("g")
            .retry_call("send_invites", "emails");
        assert_eq!(batch.counts_line(), "7 total, 2 succeeded, 5 failed");
        assert_eq!(
            batch.retry_line().as_deref(),
            Some("Next: call send_invites(emails=[\"c\",\"e\",\"f\"]) after 5 s")
        );
        assert_eq!(batch.failures().count(), 5);
    }

    #[test]
    fn no_retry_line_without_call_or_retryable_failure() {
        let failing = Batch::new().failed("c", err(ErrorKind::Timeout, "slow"));
        assert_eq!(failing.retry_line(), None);
        let permanent = Batch::new()
            .ok("a")
            .failed("b", err(ErrorKind::PermissionDenied, "not a member"))
            .retry_call("send_invites", "emails");
        assert_eq!(permanent.retry_line(), None);
        let all_ok = Batch::new().ok("a").retry_call("send_invites", "emails");
        assert_eq!(all_ok.retry_line(), None);
        assert_eq!(all_ok.counts_line(), "1 total, 1 succeeded, 0 failed");
    }

    #[test]
    fn ids_keep_their_json_type_and_hostile_ids_stay_on_the_line() {
        let batch = Batch::new()
            .failed(42, err(ErrorKind::Timeout, "slow"))
            .failed("x\n<script>", err(ErrorKind::Timeout, "slow"))
            .retry_call("refresh", "ids");
        assert_eq!(
            batch.retry_line().as_deref(),
            Some("Next: call refresh(ids=[42,\"x\\n\\u003cscript>\"])")
        );
    }

    #[test]
    fn values_and_conversions() {
        let batch = Batch::with_values()
            .ok_with("ORD-1", "shipped")
            .ok("ORD-2")
            .failed("ORD-3", "warehouse offline")
            .failed("ORD-4", std::io::Error::from(std::io::ErrorKind::TimedOut));
        let values: Vec<Option<&&str>> = batch.items().iter().map(BatchItem::value).collect();
        assert_eq!(values, [Some(&"shipped"), None, None, None]);
        let kinds: Vec<ErrorKind> = batch.failures().map(|(_, e)| e.kind()).collect();
        assert_eq!(kinds, [ErrorKind::Internal, ErrorKind::Timeout]);
        assert_eq!(batch.retryable_ids().collect::<Vec<_>>(), ["ORD-4"]);
    }

    #[test]
    fn counts_line_saturates() {
        assert_eq!(counts_line(0, 0), "0 total, 0 succeeded, 0 failed");
        assert_eq!(
            counts_line(usize::MAX, 1),
            format!("{} total, {} succeeded, 1 failed", usize::MAX, usize::MAX)
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn items() {
        use crate::Batch;
        assert_eq!(Batch::new().ok("a").items().len(), 1);
    }

    #[test]
    fn failures() {
        use crate::{Batch, ErrorKind, ToolError};
        let batch = Batch::new()
            .ok("a")
            .failed("b", ToolError::new(ErrorKind::Internal, "x"));
        assert_eq!(batch.failures().count(), 1);
    }

    #[test]
    fn retryable_ids() {
        use crate::{Batch, ErrorKind, ToolError};
        let batch = Batch::new()
            .failed("a", ToolError::new(ErrorKind::Timeout, "slow"))
            .failed("b", ToolError::new(ErrorKind::NotFound, "gone"));
        assert_eq!(batch.retryable_ids().collect::<Vec<_>>(), ["a"]);
    }

    #[test]
    fn get_retry_call() {
        use crate::Batch;
        let batch = Batch::new().retry_call("send_invites", "emails");
        let (action, arg) = batch.get_retry_call().unwrap();
        assert_eq!((action.tool(), arg), ("send_invites", "emails"));
    }

    #[test]
    fn retry_action() {
        use crate::{Batch, ErrorKind, ToolError};
        let batch = Batch::new()
            .failed(
                "a",
                ToolError::new(ErrorKind::RateLimited, "slow down").retry_after_secs(20),
            )
            .failed(
                "b",
                ToolError::new(ErrorKind::RateLimited, "slow down").retry_after_secs(60),
            )
            .retry_call("send", "ids");
        assert_eq!(
            batch.retry_action().unwrap().line(),
            r#"Next: call send(ids=["a","b"]) after 60 s"#
        );
    }

    #[test]
    fn retry_line() {
        use crate::{Batch, ErrorKind, ToolError};
        let batch = Batch::new()
            .failed("b", ToolError::new(ErrorKind::InvalidInput, "not an email"))
            .retry_call("send_invites", "emails");
        assert_eq!(batch.retry_line(), None); // nothing a retry can fix
    }

    #[test]
    fn id() {
        use crate::Batch;
        assert_eq!(Batch::new().ok("a").items()[0].id(), "a");
    }

    #[test]
    fn is_ok() {
        use crate::Batch;
        assert!(Batch::new().ok("a").items()[0].is_ok());
    }

    #[test]
    fn value() {
        use crate::Batch;
        assert_eq!(
            Batch::with_values().ok_with("a", 7).items()[0].value(),
            Some(&7)
        );
    }

    #[test]
    fn error() {
        use crate::Batch;
        let batch = Batch::new().failed("a", "smtp down");
        assert_eq!(batch.items()[0].error().unwrap().message(), "smtp down");
    }
}
