//! Stores whose calls are awaited (feature `async`): [`AsyncResultStore`], its futures, and
//! the [`MemoryStore`] that answers them at once. The formatter's async path that puts into
//! them is `Formatter::format_async` (`formatter/nonblocking.rs`).

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::{MemoryStore, ResultStore, StoreError};

/// The future of an [`AsyncResultStore`] call (boxed: the trait stays object safe).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// A [`ResultStore`] whose calls are awaited: for stores on the network used from an async
/// host (tokio). Object safe, `Send + Sync`: share one as `Arc<dyn AsyncResultStore>`.
///
/// The reference is chosen by the caller ([`put_at`](Self::put_at)), so the text that names
/// it can be rendered before the I/O starts.
pub trait AsyncResultStore: Send + Sync {
    /// Keeps `value` under `reference` (a fresh `r_` reference the caller made).
    fn put_at<'a>(&'a self, reference: &'a str, value: &'a Value) -> StoreFuture<'a, ()>;

    /// Returns the value stored under `reference`; the errors of [`ResultStore::get`].
    fn get_async<'a>(&'a self, reference: &'a str) -> StoreFuture<'a, Value>;

    /// [`put_at`](Self::put_at), remembering the tool whose result it is (see
    /// [`ResultStore::put_for`]); the default forgets it.
    fn put_at_for<'a>(
        &'a self,
        reference: &'a str,
        tool: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, ()> {
        let _ = tool;
        self.put_at(reference, value)
    }

    /// The tool whose result is stored under `reference` (see [`ResultStore::origin`]); the
    /// default: `None`.
    fn origin_async<'a>(&'a self, reference: &'a str) -> OriginFuture<'a> {
        let _ = reference;
        Box::pin(std::future::ready(None))
    }
}

/// The future of [`AsyncResultStore::origin_async`].
pub type OriginFuture<'a> = Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;

/// `MemoryStore` does no I/O: its async calls are its sync ones, ready at once.
impl AsyncResultStore for MemoryStore {
    fn put_at<'a>(&'a self, reference: &'a str, value: &'a Value) -> StoreFuture<'a, ()> {
        Box::pin(std::future::ready(self.insert(reference, None, value)))
    }

    fn get_async<'a>(&'a self, reference: &'a str) -> StoreFuture<'a, Value> {
        Box::pin(std::future::ready(ResultStore::get(self, reference)))
    }

    fn put_at_for<'a>(
        &'a self,
        reference: &'a str,
        tool: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, ()> {
        Box::pin(std::future::ready(self.insert(
            reference,
            Some(tool),
            value,
        )))
    }

    fn origin_async<'a>(&'a self, reference: &'a str) -> OriginFuture<'a> {
        Box::pin(std::future::ready(ResultStore::origin(self, reference)))
    }
}
