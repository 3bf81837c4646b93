//! A [`StoreError`] as the [`ToolError`] a `get_stored_result` tool returns, so a failed
//! fetch renders through the error path (`**get_stored_result failed**`, kind, message,
//! retryable, hint).
//!
//! | store error | tool error kind | retryable |
//! |---|---|---|
//! | `Expired` | `not_found` | no |
//! | `Unknown` | `not_found` | no |
//! | `Unavailable` | `unavailable` | yes |
//! | `TooLarge` | `invalid_input` | no |
//! | `Corrupt`, `Config` | `internal` | no |
//!
//! Expired and unknown are both `not_found` (the result is not there either way); the
//! message, kept verbatim, tells them apart with the words "expired" and "unknown", as
//! [`ResultStore::get`](super::ResultStore::get) promises, and already says what to do
//! (copy the reference exactly, or call the original tool again), so no hint is added.

use super::{StoreError, StoreErrorKind};
use crate::doc::agent::{ErrorKind, ToToolError, ToolError};

impl ToToolError for StoreError {
    fn to_tool_error(&self) -> ToolError {
        let kind = match self.kind() {
            StoreErrorKind::Expired | StoreErrorKind::Unknown => ErrorKind::NotFound,
            StoreErrorKind::Unavailable => ErrorKind::Unavailable,
            StoreErrorKind::TooLarge => ErrorKind::InvalidInput,
            StoreErrorKind::Corrupt | StoreErrorKind::Config => ErrorKind::Internal,
        };
        ToolError::new(kind, self.message()).retryable(self.is_retryable())
    }
}

/// `?` on a store call in a tool that returns `Result<_, ToolError>`.
///
/// ```
/// use std::time::Duration;
/// use tool_output_format::{ErrorKind, ToolError, store::{MemoryStore, ResultStore}};
///
/// fn get_stored_result(store: &MemoryStore, reference: &str) -> Result<serde_json::Value, ToolError> {
///     Ok(store.get(reference)?)
/// }
/// let store = MemoryStore::new(Duration::from_secs(60));
/// let err = get_stored_result(&store, "r_zzzzzzzzzzzzzzzzzzzzzzzzzz").unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::NotFound);
/// assert!(err.message().contains("unknown"));
/// ```
impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> ToolError {
        e.to_tool_error()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::store::{ManualClock, MemoryStore, ResultStore};

    #[test]
    fn expired_and_unknown_are_not_found_with_their_words() {
        let clock = Arc::new(ManualClock::new());
        let store = MemoryStore::with_clock(Duration::from_secs(60), clock.clone());
        let r = store.put(&serde_json::json!([1, 2])).unwrap();
        clock.advance(Duration::from_secs(61));
        let expired = ToolError::from(store.get(&r).unwrap_err());
        assert_eq!(expired.kind(), ErrorKind::NotFound);
        assert!(!expired.is_retryable());
        assert!(
            expired.message().contains("expired"),
            "{}",
            expired.message()
        );
        let unknown = store.get("r_zzzzzzzzzzzzzzzzzzzzzzzzzz").unwrap_err();
        let unknown = unknown.to_tool_error();
        assert_eq!(unknown.kind(), ErrorKind::NotFound);
        assert_eq!(
            unknown.to_string(),
            "not found: reference \"r_zzzzzzzzzzzzzzzzzzzzzzzzzz\" is unknown: this store never \
             issued it, or it expired long ago; check that it was copied exactly, or call the \
             original tool again (not retryable)"
        );
    }

    #[test]
    fn unavailable_is_retryable() {
        let e = StoreError::new(StoreErrorKind::Unavailable, "redis is down").to_tool_error();
        assert_eq!(e.kind(), ErrorKind::Unavailable);
        assert!(e.is_retryable());
        assert_eq!(e.get_hint(), None);
        let e = ToolError::from(StoreError::new(StoreErrorKind::Corrupt, "bad bytes"));
        assert_eq!(e.kind(), ErrorKind::Internal);
    }
}
