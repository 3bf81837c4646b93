//! [`MemoryStore`]: results kept in this process, with a time to live and a byte cap.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::{ResultStore, StoreError, StoreErrorKind, ago, is_reference, new_reference, span};

/// The default byte cap of a [`MemoryStore`]: 64 MiB of stored JSON.
pub(crate) const DEFAULT_MAX_BYTES: usize = 64 * 1024 * 1024;

/// How many expired or evicted references a [`MemoryStore`] remembers, to tell them from
/// unknown ones.
const TOMBSTONES: usize = 10_000;
/// How long it remembers each of them.
const TOMBSTONE_KEEP: Duration = Duration::from_secs(24 * 3600);

/// Where a [`MemoryStore`] reads the time: the system's monotonic clock, or a test's.
pub(crate) trait Clock: Send + Sync {
    /// The current instant.
    fn now(&self) -> Instant;
}

/// The system's monotonic clock ([`Instant::now`]).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told: expiry tests without sleeping.
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct ManualClock {
    start: Instant,
    offset: Mutex<Duration>,
}

#[cfg(test)]
impl ManualClock {
    /// A clock standing at the moment it was made.
    #[must_use]
    pub fn new() -> Self {
        ManualClock {
            start: Instant::now(),
            offset: Mutex::new(Duration::ZERO),
        }
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut o = self
            .offset
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *o = o.saturating_add(by);
    }
}

#[cfg(test)]
impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
impl Clock for ManualClock {
    fn now(&self) -> Instant {
        let o = *self
            .offset
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // An offset too large for `Instant` stays at the last representable step.
        self.start.checked_add(o).unwrap_or(self.start)
    }
}

/// Results kept in this process's memory: no setup, `Send + Sync`.
///
/// **Expiry.** A result lives `ttl` from its [`put`](ResultStore::put); after that,
/// [`get`](ResultStore::get) fails with [`StoreErrorKind::Expired`].
///
/// **Bounded memory (eviction rule).** The store counts each result as the length of its
/// compact JSON text (which is what it keeps: results are stored serialised, and parsed again
/// by `get`). When a new result would take the total over [`max_bytes`](Self::max_bytes)
/// (default 64 MiB), the oldest results are evicted first until it
/// fits; since every result has the same time to live, oldest first is also soonest to
/// expire first. A result larger than the whole cap is refused with
/// [`StoreErrorKind::TooLarge`] (nothing is evicted for it).
///
/// **Expired or unknown.** The last 10,000 references that expired or were evicted are
/// remembered (without their data) for 24 hours after they went, so `get` says "expired
/// 12 minutes ago" or "expired early ... evicted" for those, and "unknown" for references it
/// never issued or no longer remembers.
///
/// Expired entries are dropped during `put` and `get` calls (no background thread).
pub struct MemoryStore {
    ttl: Duration,
    max_bytes: usize,
    clock: Arc<dyn Clock>,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Live results by reference.
    live: HashMap<Box<str>, Live>,
    /// Live references, oldest first.
    order: VecDeque<Box<str>>,
    /// Sum of the live results' JSON lengths.
    bytes: usize,
    /// References that went, and how.
    gone: HashMap<Box<str>, Gone>,
    /// The same, oldest first.
    gone_order: VecDeque<Box<str>>,
}

struct Live {
    json: Arc<str>,
    stored_at: Instant,
    /// The tool whose result it is ([`ResultStore::put_for`]).
    origin: Option<Box<str>>,
}

#[derive(Clone, Copy)]
struct Gone {
    at: Instant,
    evicted: bool,
}

impl MemoryStore {
    /// A store whose results live `ttl`, capped at 64 MiB, on the system clock.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_output_format::store::MemoryStore;
    /// let store = MemoryStore::new(Duration::from_secs(3600));
    /// assert_eq!(store.ttl(), Duration::from_secs(3600));
    /// ```
    #[must_use]
    pub fn new(ttl: Duration) -> Self {
        Self::with_clock(ttl, Arc::new(SystemClock))
    }

    /// A store reading the time from `clock` (a [`ManualClock`] in tests).
    pub(crate) fn with_clock(ttl: Duration, clock: Arc<dyn Clock>) -> Self {
        MemoryStore {
            ttl,
            max_bytes: DEFAULT_MAX_BYTES,
            clock,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Sets the byte cap: the most compact-JSON bytes kept at once (see the eviction rule).
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_output_format::store::{MemoryStore, ResultStore};
    /// let store = MemoryStore::new(Duration::from_secs(60)).max_bytes(4);
    /// assert!(store.put(&serde_json::json!("hello")).is_err()); // 7 bytes of JSON
    /// ```
    #[must_use]
    pub fn max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// How long each result lives.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::MemoryStore;
    /// assert_eq!(MemoryStore::new(Duration::from_secs(5)).ttl(), Duration::from_secs(5));
    /// ```
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The compact-JSON bytes of the results held now (expired ones not yet dropped included).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::{MemoryStore, ResultStore};
    /// let store = MemoryStore::new(Duration::from_secs(5));
    /// store.put(&serde_json::json!([1, 2])).unwrap();
    /// assert_eq!(store.stored_bytes(), 5);
    /// ```
    pub fn stored_bytes(&self) -> usize {
        self.lock().bytes
    }

    /// How many results are held now (expired ones not yet dropped included).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::{MemoryStore, ResultStore};
    /// let store = MemoryStore::new(Duration::from_secs(5));
    /// store.put(&serde_json::json!(1)).unwrap();
    /// assert_eq!(store.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().live.len()
    }

    /// Whether no result is held.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::MemoryStore;
    /// assert!(MemoryStore::new(Duration::from_secs(5)).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.lock().live.is_empty()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave `Inner` half-updated in a way that
        // breaks its invariants for readers, so a poisoned lock is used as is.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    /// Moves results older than `ttl` to the tombstones, and forgets old tombstones.
    fn sweep(&mut self, now: Instant, ttl: Duration) {
        while let Some(r) = self.order.front() {
            let Some(live) = self.live.get(r) else {
                self.order.pop_front();
                continue;
            };
            if now.saturating_duration_since(live.stored_at) < ttl {
                break;
            }
            let at = live.stored_at.checked_add(ttl).unwrap_or(now);
            self.drop_oldest(Gone { at, evicted: false });
        }
        self.trim_tombstones(now);
    }

    /// Forgets tombstones older than [`TOMBSTONE_KEEP`] and all but the last [`TOMBSTONES`].
    fn trim_tombstones(&mut self, now: Instant) {
        while let Some(r) = self.gone_order.front() {
            let old = self
                .gone
                .get(r)
                .is_none_or(|g| now.saturating_duration_since(g.at) >= TOMBSTONE_KEEP);
            if !old && self.gone_order.len() <= TOMBSTONES {
                break;
            }
            if let Some(r) = self.gone_order.pop_front() {
                self.gone.remove(&r);
            }
        }
    }

    /// Removes the oldest live result, leaving `gone` as its tombstone.
    fn drop_oldest(&mut self, gone: Gone) {
        let Some(r) = self.order.pop_front() else {
            return;
        };
        if let Some(live) = self.live.remove(&r) {
            self.bytes -= live.json.len();
            self.gone.insert(r.clone(), gone);
            self.gone_order.push_back(r);
        }
    }
}

impl MemoryStore {
    /// Keeps `value` under `reference` (the async path chooses the reference first), with
    /// the tool whose result it is.
    pub(crate) fn insert(
        &self,
        reference: &str,
        origin: Option<&str>,
        value: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let json: Arc<str> = serde_json::to_string(value)
            .map_err(|e| {
                StoreError::new(
                    StoreErrorKind::Corrupt,
                    format!("the result cannot be written as JSON ({e}): it was not stored"),
                )
            })?
            .into();
        if json.len() > self.max_bytes {
            return Err(StoreError::too_large(json.len(), self.max_bytes));
        }
        let now = self.clock.now();
        let mut inner = self.lock();
        inner.sweep(now, self.ttl);
        while inner.bytes + json.len() > self.max_bytes && !inner.order.is_empty() {
            inner.drop_oldest(Gone {
                at: now,
                evicted: true,
            });
        }
        inner.trim_tombstones(now);
        inner.bytes += json.len();
        let key: Box<str> = reference.into();
        inner.order.push_back(key.clone());
        inner.live.insert(
            key,
            Live {
                json,
                stored_at: now,
                origin: origin.map(Into::into),
            },
        );
        Ok(())
    }
}

impl ResultStore for MemoryStore {
    fn put(&self, value: &serde_json::Value) -> Result<String, StoreError> {
        let reference = new_reference()?;
        self.insert(&reference, None, value)?;
        Ok(reference)
    }

    fn put_for(&self, tool: &str, value: &serde_json::Value) -> Result<String, StoreError> {
        let reference = new_reference()?;
        self.insert(&reference, Some(tool), value)?;
        Ok(reference)
    }

    fn origin(&self, reference: &str) -> Option<String> {
        let inner = self.lock();
        let origin = inner.live.get(reference)?.origin.as_deref()?;
        Some(origin.to_owned())
    }

    fn get(&self, reference: &str) -> Result<serde_json::Value, StoreError> {
        if !is_reference(reference) {
            return Err(StoreError::unknown(reference));
        }
        let now = self.clock.now();
        let json = {
            let mut inner = self.lock();
            inner.sweep(now, self.ttl);
            if let Some(live) = inner.live.get(reference) {
                live.json.clone()
            } else if let Some(gone) = inner.gone.get(reference) {
                let since = ago(now.saturating_duration_since(gone.at));
                let why = if gone.evicted {
                    format!(
                        "early: it was evicted {since} to make room for newer results (this \
                         store keeps at most {} bytes)",
                        self.max_bytes
                    )
                } else {
                    format!("{since} (results are kept for {})", span(self.ttl))
                };
                return Err(StoreError::expired(reference, &why));
            } else {
                return Err(StoreError::unknown(reference));
            }
        };
        serde_json::from_str(&json).map_err(|e| {
            StoreError::new(
                StoreErrorKind::Corrupt,
                format!("the result stored under \"{reference}\" cannot be read back ({e})"),
            )
        })
    }
}

impl fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.lock();
        f.debug_struct("MemoryStore")
            .field("ttl", &self.ttl)
            .field("max_bytes", &self.max_bytes)
            .field("results", &inner.live.len())
            .field("stored_bytes", &inner.bytes)
            .field("tombstones", &inner.gone.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    //! The store contract every store meets (round trip, unknown and malformed references,
    //! threads) is one suite, run against this store in `tests/memory_store.rs` and against
    //! Redis in `tests/redis_store.rs`; here, what needs the hand-moved clock or the insides.
    use super::*;
    use serde_json::json;

    fn store(ttl_secs: u64) -> (MemoryStore, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::new());
        (
            MemoryStore::with_clock(Duration::from_secs(ttl_secs), clock.clone()),
            clock,
        )
    }

    #[test]
    fn results_expire_after_ttl_and_say_when() {
        let (s, clock) = store(3600);
        let r = s.put(&json!({"n": 1})).unwrap();
        clock.advance(Duration::from_secs(3599));
        assert_eq!(s.get(&r).unwrap(), json!({"n": 1}));
        clock.advance(Duration::from_secs(1));
        let e = s.get(&r).unwrap_err();
        assert_eq!(e.kind(), StoreErrorKind::Expired);
        assert_eq!(
            e.to_string(),
            format!(
                "reference \"{r}\" expired 0 seconds ago (results are kept for 1 hour): the \
                 stored result is gone; call the original tool again to get it"
            )
        );
        clock.advance(Duration::from_secs(12 * 60));
        assert!(
            s.get(&r)
                .unwrap_err()
                .to_string()
                .contains("expired 12 minutes ago")
        );
        assert_eq!(s.len(), 0);
        assert_eq!(s.stored_bytes(), 0);
    }

    #[test]
    fn expired_is_remembered_for_a_day_then_unknown() {
        let (s, clock) = store(60);
        let r = s.put(&json!(1)).unwrap();
        clock.advance(Duration::from_secs(60 + 24 * 3600 - 1));
        assert_eq!(s.get(&r).unwrap_err().kind(), StoreErrorKind::Expired);
        assert!(
            s.get(&r)
                .unwrap_err()
                .to_string()
                .contains("expired 23 hours ago")
        );
        clock.advance(Duration::from_secs(1));
        let e = s.get(&r).unwrap_err();
        assert_eq!(e.kind(), StoreErrorKind::Unknown);
        assert!(e.to_string().contains("unknown"), "{e}");
    }

    #[test]
    fn eviction_drops_oldest_first_and_reports_it() {
        let (s, clock) = store(3600);
        let s = s.max_bytes(30);
        let v = json!("0123456789"); // 12 bytes of JSON
        let a = s.put(&v).unwrap();
        clock.advance(Duration::from_secs(1));
        let b = s.put(&v).unwrap();
        assert_eq!(s.stored_bytes(), 24);
        clock.advance(Duration::from_secs(1));
        let c = s.put(&v).unwrap(); // 36 > 30: a goes
        assert_eq!(s.stored_bytes(), 24);
        assert_eq!(s.len(), 2);
        clock.advance(Duration::from_secs(180));
        let e = s.get(&a).unwrap_err();
        assert_eq!(e.kind(), StoreErrorKind::Expired);
        assert_eq!(
            e.to_string(),
            format!(
                "reference \"{a}\" expired early: it was evicted 3 minutes ago to make room for \
                 newer results (this store keeps at most 30 bytes): the stored result is gone; \
                 call the original tool again to get it"
            )
        );
        assert_eq!(s.get(&b).unwrap(), v);
        assert_eq!(s.get(&c).unwrap(), v);
        // A value that needs the whole cap evicts everything.
        let big = json!("0123456789012345678901234567"); // 30 bytes
        let d = s.put(&big).unwrap();
        assert_eq!(s.len(), 1);
        assert_eq!(s.get(&d).unwrap(), big);
        assert_eq!(s.get(&b).unwrap_err().kind(), StoreErrorKind::Expired);
    }

    #[test]
    fn too_large_is_refused_without_evicting() {
        let (s, _) = store(60);
        let s = s.max_bytes(10);
        let kept = s.put(&json!([1, 2])).unwrap();
        let e = s.put(&json!("this is too long")).unwrap_err();
        assert_eq!(e.kind(), StoreErrorKind::TooLarge);
        assert_eq!(
            e.to_string(),
            "the result is 18 bytes of JSON, more than the store accepts (10 bytes): it was not \
             stored; ask for fewer rows or narrower fields"
        );
        assert_eq!(s.get(&kept).unwrap(), json!([1, 2]));
    }

    #[test]
    fn tombstones_are_bounded() {
        let (s, clock) = store(1);
        let s = s.max_bytes(1);
        let first = s.put(&json!(1)).unwrap();
        for _ in 0..TOMBSTONES + 5 {
            s.put(&json!(1)).unwrap();
        }
        clock.advance(Duration::from_secs(2));
        s.get(&first).unwrap_err();
        let inner = s.lock();
        assert!(inner.gone.len() <= TOMBSTONES, "{}", inner.gone.len());
        assert_eq!(inner.gone.len(), inner.gone_order.len());
        assert!(!inner.gone.contains_key(first.as_str()));
    }

    #[test]
    fn zero_ttl_expires_at_once_and_huge_ttl_never_overflows() {
        let (s, _) = store(0);
        let r = s.put(&json!(1)).unwrap();
        assert_eq!(s.get(&r).unwrap_err().kind(), StoreErrorKind::Expired);
        let clock = Arc::new(ManualClock::new());
        let s = MemoryStore::with_clock(Duration::MAX, clock.clone());
        let r = s.put(&json!(1)).unwrap();
        clock.advance(Duration::from_secs(1 << 40));
        assert_eq!(s.get(&r).unwrap(), json!(1));
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn with_clock() {
        use crate::store::ManualClock;
        use crate::store::MemoryStore;
        use std::sync::Arc;
        use std::time::Duration;
        let _store = MemoryStore::with_clock(Duration::from_secs(60), Arc::new(ManualClock::new()));
    }
}

/// The examples of the engine, kept as tests (it is not public API).
#[cfg(test)]
mod clock_examples {
    #[test]
    fn example_1() {
        use super::{Clock, SystemClock};
        let a = SystemClock.now();
        assert!(SystemClock.now() >= a);
    }

    #[test]
    fn example_2() {
        use super::SystemClock;
        use crate::store::MemoryStore;
        use std::sync::Arc;
        use std::time::Duration;
        let _store = MemoryStore::with_clock(Duration::from_secs(60), Arc::new(SystemClock));
    }

    #[test]
    fn example_3() {
        use crate::store::ManualClock;
        use crate::store::{MemoryStore, ResultStore};
        use std::sync::Arc;
        use std::time::Duration;

        let clock = Arc::new(ManualClock::new());
        let store = MemoryStore::with_clock(Duration::from_secs(60), clock.clone());
        let r = store.put(&serde_json::json!([1, 2, 3])).unwrap();
        clock.advance(Duration::from_secs(61));
        assert!(
            store
                .get(&r)
                .unwrap_err()
                .to_string()
                .contains("expired 1 second ago")
        );
    }

    #[test]
    fn example_4() {
        use super::{Clock, ManualClock};
        let c = ManualClock::new();
        assert_eq!(c.now(), c.now());
    }

    #[test]
    fn example_5() {
        use super::{Clock, ManualClock};
        use std::time::Duration;
        let c = ManualClock::new();
        let t = c.now();
        c.advance(Duration::from_secs(5));
        assert_eq!(c.now() - t, Duration::from_secs(5));
    }

    #[test]
    fn example_6() {
        use crate::store::{MemoryStore, ResultStore};
        use std::time::Duration;

        let store = MemoryStore::new(Duration::from_secs(30 * 60)).max_bytes(1 << 20);
        let r = store.put(&serde_json::json!({"rows": 5000})).unwrap();
        assert_eq!(store.get(&r).unwrap(), serde_json::json!({"rows": 5000}));
        assert_eq!(store.stored_bytes(), 13);
    }
}
