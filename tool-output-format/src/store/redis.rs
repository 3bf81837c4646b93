//! [`RedisStore`]: a [`ResultStore`] on Redis, for agents that run on several machines.

use std::fmt;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::{ResultStore, StoreError, StoreErrorKind, ago, is_reference, new_reference, span};

/// How long after its result expires a tombstone key is kept (to say "expired", not "unknown").
const TOMBSTONE_KEEP_SECS: u64 = 24 * 3600;
/// Redis refuses strings over 512 MiB.
const MAX_VALUE_BYTES: usize = 512 * 1024 * 1024;
/// The sync `put`: the result and its tombstone in one atomic step with one answer (the same
/// keys and times as the async path's `MULTI` pipeline).
const PUT_SCRIPT: &str = "redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) \
     redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) \
     if ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[5], 'EX', ARGV[2]) end return 1";
/// Connect, read and write timeout of the connection.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

/// Results kept in Redis, so an agent on one machine can fetch what a tool on another stored.
///
/// **Keys.** A result is stored as its compact JSON under `{prefix}{reference}` (prefix
/// default `tof:result:`) with `SET ... EX ttl`: Redis enforces the time to live (whole
/// seconds, rounded up, at least 1). In the same `MULTI` transaction a tombstone
/// `{prefix}{reference}:expires` holds the Unix time (seconds) the result expires at and lives
/// 24 hours longer. So `get` tells:
///
/// | result key | tombstone | `get` says |
/// |---|---|---|
/// | present | any | the value |
/// | missing | expiry in the past | "expired 12 minutes ago" ([`StoreErrorKind::Expired`]) |
/// | missing | expiry in the future | "expired early": Redis evicted it (maxmemory policy) or it was deleted |
/// | missing | missing | "unknown" ([`StoreErrorKind::Unknown`]) |
///
/// **A Redis that is down** gives [`StoreErrorKind::Unavailable`] with the address (password
/// hidden) and the cause, never a panic; the connection is opened again on the next call. A
/// failed `put` reads `Redis unavailable at 127.0.0.1:6379 (connection refused)` on both
/// paths (the text's line is `[Full result not stored: Redis unavailable at ...]`); a failed
/// `get` adds what the model can do (retry, or call the original tool again). The
/// [timeout](Self::timeout) bounds each sync call as a whole (connecting and one retry
/// included): a Redis that accepts and never answers costs one timeout.
/// A failed `put` stores nothing, and the caller still holds the value (the formatter then
/// renders the cut result without a reference, and says so in one line).
///
/// **Two paths.** The sync [`ResultStore`] calls (sync hosts, the CLI) share one blocking
/// connection under a lock, each call one round trip within the [timeout](Self::timeout). The
/// async [`AsyncResultStore`](super::AsyncResultStore) calls (tokio hosts, through
/// [`Formatter::format_async`](crate::Formatter::format_async)) share one multiplexed
/// `ConnectionManager` from the redis crate: concurrent calls pipeline on it, it reconnects
/// by itself after Redis restarts, and no lock is held while a command waits. Its failures
/// read `Redis unavailable at 127.0.0.1:6379 (connection refused)`.
///
/// ```no_run
/// use std::time::Duration;
/// use tool_output_format::store::{RedisStore, ResultStore};
///
/// let store = RedisStore::open("redis://127.0.0.1:6379", Duration::from_secs(3600))?;
/// let reference = store.put(&serde_json::json!([{"id": 1}]))?;
/// assert_eq!(store.get(&reference)?, serde_json::json!([{"id": 1}]));
/// # Ok::<(), tool_output_format::store::StoreError>(())
/// ```
pub struct RedisStore {
    client: redis::Client,
    address: String,
    prefix: String,
    ttl: Duration,
    timeout: Duration,
    max_bytes: usize,
    connection: Mutex<Option<redis::Connection>>,
    /// The async path's connection: multiplexed, reconnects by itself; made on the first
    /// async call (it needs the runtime). The lock is held only to clone or set it.
    manager: Mutex<Option<redis::aio::ConnectionManager>>,
}

impl RedisStore {
    /// A store on the Redis at `url` (`redis://[:password@]host[:port][/db]`), whose results
    /// live `ttl`. Does not connect yet: the first call does (and says so if Redis is down).
    ///
    /// # Errors
    ///
    /// Fails with [`StoreErrorKind::Config`] when `url` is not a Redis URL.
    ///
    /// ```
    /// use std::time::Duration;
    /// use tool_output_format::store::RedisStore;
    /// use tool_output_format::store::StoreErrorKind;
    ///
    /// let err = RedisStore::open("http://localhost", Duration::from_secs(60)).unwrap_err();
    /// assert_eq!(err.kind(), StoreErrorKind::Config);
    /// ```
    pub fn open(url: &str, ttl: Duration) -> Result<Self, StoreError> {
        let address = hide_password(url);
        // No `CLIENT SETINFO` round trips at connect: each waited its own timeout on a
        // Redis that never answers, so a call took a multiple of the timeout.
        let info = redis::IntoConnectionInfo::into_connection_info(url).map(|info| {
            let settings = info.redis_settings().clone().set_skip_set_lib_name();
            info.set_redis_settings(settings)
        });
        let client = info.and_then(redis::Client::open).map_err(|e| {
            StoreError::new(
                StoreErrorKind::Config,
                format!(
                    "\"{address}\" is not a Redis URL ({e}): expected \
                     redis://[:password@]host[:port][/db], e.g. redis://127.0.0.1:6379"
                ),
            )
            .with_source(e)
        })?;
        Ok(RedisStore {
            client,
            address,
            prefix: "tof:result:".to_owned(),
            ttl,
            timeout: DEFAULT_TIMEOUT,
            max_bytes: MAX_VALUE_BYTES,
            connection: Mutex::new(None),
            manager: Mutex::new(None),
        })
    }

    /// Sets the key prefix (default `tof:result:`), e.g. one per application or test run.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::RedisStore;
    /// let store = RedisStore::open("redis://127.0.0.1", Duration::from_secs(60))?.prefix("myapp:");
    /// # Ok::<(), tool_output_format::store::StoreError>(())
    /// ```
    #[must_use]
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// Sets the connect, read and write timeout (default 2 seconds).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::RedisStore;
    /// let store = RedisStore::open("redis://127.0.0.1", Duration::from_secs(60))?
    ///     .timeout(Duration::from_millis(500));
    /// # Ok::<(), tool_output_format::store::StoreError>(())
    /// ```
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Sets the largest result stored, in bytes of compact JSON (default and most: 512 MiB,
    /// Redis's limit); a larger one is not stored ([`StoreErrorKind::TooLarge`]).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::RedisStore;
    /// let store = RedisStore::open("redis://127.0.0.1", Duration::from_secs(60))?
    ///     .max_bytes(8 * 1024 * 1024);
    /// # Ok::<(), tool_output_format::store::StoreError>(())
    /// ```
    #[must_use]
    pub fn max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes.min(MAX_VALUE_BYTES);
        self
    }

    /// How long each result lives.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use tool_output_format::store::RedisStore;
    /// let store = RedisStore::open("redis://127.0.0.1", Duration::from_secs(60))?;
    /// assert_eq!(store.ttl(), Duration::from_secs(60));
    /// # Ok::<(), tool_output_format::store::StoreError>(())
    /// ```
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The time to live in whole seconds as Redis takes it: rounded up, at least 1.
    fn ttl_secs(&self) -> u64 {
        let s = self.ttl.as_secs();
        let s = if self.ttl.subsec_nanos() > 0 {
            s.saturating_add(1)
        } else {
            s
        };
        // Redis takes EX up to i64::MAX / 1000 (it converts to milliseconds).
        s.clamp(1, (i64::MAX / 1000) as u64 - TOMBSTONE_KEEP_SECS)
    }

    fn data_key(&self, reference: &str) -> String {
        format!("{}{reference}", self.prefix)
    }

    fn tombstone_key(&self, reference: &str) -> String {
        format!("{}{reference}:expires", self.prefix)
    }

    /// The key of the tool whose result it is ([`ResultStore::put_for`]); lives as long as
    /// the result.
    fn origin_key(&self, reference: &str) -> String {
        format!("{}{reference}:tool", self.prefix)
    }

    /// Runs `f` on the shared connection, connecting first if needed. When a connection that
    /// was already open turns out broken (Redis restarted, an idle timeout), it is dropped and
    /// `f` runs once more on a new one; both commands we send are safe to repeat.
    ///
    /// The [timeout](Self::timeout) bounds the whole call, not each step: connecting, the
    /// command and the retry share one deadline, and each read or write waits only for what
    /// is left of it.
    fn with_connection<T>(
        &self,
        mut f: impl FnMut(&mut redis::Connection) -> redis::RedisResult<T>,
    ) -> Result<T, redis::RedisError> {
        let deadline = Instant::now() + self.timeout;
        // What is left of the deadline; the sockets refuse a zero timeout, so at least 1 ms.
        let left = || {
            deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(1))
        };
        let mut slot = self.lock();
        let mut retried = false;
        loop {
            let fresh = slot.is_none();
            let con = match slot.take() {
                Some(con) => con,
                None => self.client.get_connection_with_timeout(left())?,
            };
            let con = slot.insert(con);
            con.set_read_timeout(Some(left()))?;
            con.set_write_timeout(Some(left()))?;
            match f(con) {
                Ok(v) => return Ok(v),
                Err(e) => {
                    let broken = e.is_io_error() || e.is_connection_dropped() || e.is_timeout();
                    if broken {
                        *slot = None;
                    }
                    if broken && !fresh && !retried && Instant::now() < deadline {
                        retried = true;
                        continue;
                    }
                    return Err(e);
                }
            }
        }
    }

    /// A failed `get`: the one-line cause and what the model can do (the fetch tool's error).
    fn unavailable(&self, e: redis::RedisError) -> StoreError {
        let down = self.down(e);
        StoreError::new(
            StoreErrorKind::Unavailable,
            format!(
                "{down}: the stored result cannot be fetched now; retry in a moment, or call \
                 the original tool again"
            ),
        )
    }

    fn lock(&self) -> MutexGuard<'_, Option<redis::Connection>> {
        self.connection
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl RedisStore {
    /// The compact JSON of `value`, within the size limit.
    fn encode(&self, value: &serde_json::Value) -> Result<Vec<u8>, StoreError> {
        let json = serde_json::to_vec(value).map_err(|e| {
            StoreError::new(
                StoreErrorKind::Corrupt,
                format!("the result cannot be written as JSON ({e}): it was not stored"),
            )
        })?;
        if json.len() > self.max_bytes {
            return Err(StoreError::too_large(json.len(), self.max_bytes));
        }
        Ok(json)
    }

    /// The transaction that stores `json` under `reference`: the result and its tombstone.
    fn put_pipe(&self, reference: &str, json: &[u8]) -> redis::Pipeline {
        let ttl = self.ttl_secs();
        let expires_at = unix_now().saturating_add(ttl);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("SET")
            .arg(self.data_key(reference))
            .arg(json)
            .arg("EX")
            .arg(ttl)
            .ignore()
            .cmd("SET")
            .arg(self.tombstone_key(reference))
            .arg(expires_at)
            .arg("EX")
            .arg(ttl + TOMBSTONE_KEEP_SECS)
            .ignore();
        pipe
    }

    /// What `MGET result tombstone` answered, as `get` returns it.
    fn answer(
        &self,
        reference: &str,
        (value, expires_at): (Option<Vec<u8>>, Option<u64>),
    ) -> Result<serde_json::Value, StoreError> {
        match (value, expires_at) {
            (Some(json), _) => serde_json::from_slice(&json).map_err(|e| {
                StoreError::new(
                    StoreErrorKind::Corrupt,
                    format!(
                        "the value under Redis key \"{}\" is not JSON this crate wrote ({e}): \
                         call the original tool again",
                        self.data_key(reference)
                    ),
                )
            }),
            (None, Some(at)) => {
                let now = unix_now();
                let why = if at <= now {
                    format!(
                        "{} (results are kept for {})",
                        ago(Duration::from_secs(now - at)),
                        span(self.ttl)
                    )
                } else {
                    "early: Redis dropped it before its time (memory pressure or a deletion)"
                        .to_owned()
                };
                Err(StoreError::expired(reference, &why))
            }
            (None, None) => Err(StoreError::unknown(reference)),
        }
    }

    /// The async path's connection (made on first use, in the caller's runtime).
    fn manager(&self) -> Result<redis::aio::ConnectionManager, StoreError> {
        let mut slot = self
            .manager
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(m) = &*slot {
            return Ok(m.clone());
        }
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_connection_timeout(Some(self.timeout))
            .set_response_timeout(Some(self.timeout))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(200));
        // Lazy: no I/O here, the first command connects.
        let m = redis::aio::ConnectionManager::new_lazy_with_config(self.client.clone(), config)
            .map_err(|e| self.down(e))?;
        *slot = Some(m.clone());
        Ok(m)
    }

    /// A failed `put` on either path, in the words the text's line ends with:
    /// `Redis unavailable at 127.0.0.1:6379 (connection refused)`.
    fn down(&self, e: redis::RedisError) -> StoreError {
        let cause = if e.is_connection_refusal() {
            "connection refused".to_owned()
        } else if e.is_timeout() {
            format!("no answer within {} ms", self.timeout.as_millis())
        } else if e.is_connection_dropped() {
            "connection dropped".to_owned()
        } else {
            e.to_string()
        };
        StoreError::new(
            StoreErrorKind::Unavailable,
            format!("Redis unavailable at {} ({cause})", host(&self.address)),
        )
        .with_source(e)
    }
}

impl ResultStore for RedisStore {
    fn put(&self, value: &serde_json::Value) -> Result<String, StoreError> {
        self.put_sync(None, value)
    }

    fn put_for(&self, tool: &str, value: &serde_json::Value) -> Result<String, StoreError> {
        self.put_sync(Some(tool), value)
    }

    fn origin(&self, reference: &str) -> Option<String> {
        if !is_reference(reference) {
            return None;
        }
        let key = self.origin_key(reference);
        self.with_connection(|con| redis::cmd("GET").arg(&key).query(con))
            .ok()
            .flatten()
    }

    fn get(&self, reference: &str) -> Result<serde_json::Value, StoreError> {
        if !is_reference(reference) {
            return Err(StoreError::unknown(reference));
        }
        let (data, tomb) = (self.data_key(reference), self.tombstone_key(reference));
        let found = self
            .with_connection(|con| redis::cmd("MGET").arg(&data).arg(&tomb).query(con))
            .map_err(|e| self.unavailable(e))?;
        self.answer(reference, found)
    }
}

impl RedisStore {
    /// The sync `put`, with the tool whose result it is when known.
    fn put_sync(
        &self,
        tool: Option<&str>,
        value: &serde_json::Value,
    ) -> Result<String, StoreError> {
        let json = self.encode(value)?;
        let reference = new_reference()?;
        // One script, so one answer to wait for: a pipeline's several answers would each
        // wait what is left of the timeout again on a Redis that never answers.
        let ttl = self.ttl_secs();
        let mut put = redis::cmd("EVAL");
        put.arg(PUT_SCRIPT)
            .arg(3)
            .arg(self.data_key(&reference))
            .arg(self.tombstone_key(&reference))
            .arg(self.origin_key(&reference))
            .arg(&json)
            .arg(ttl)
            .arg(unix_now().saturating_add(ttl))
            .arg(ttl + TOMBSTONE_KEEP_SECS)
            .arg(tool.unwrap_or(""));
        self.with_connection(|con| put.query::<()>(con))
            .map_err(|e| self.down(e))?;
        Ok(reference)
    }
}

/// The async path: one multiplexed connection (`ConnectionManager`, reconnecting by itself)
/// shared by every call; no lock is held while a command waits.
impl super::AsyncResultStore for RedisStore {
    fn put_at<'a>(
        &'a self,
        reference: &'a str,
        value: &'a serde_json::Value,
    ) -> super::StoreFuture<'a, ()> {
        Box::pin(async move {
            let json = self.encode(value)?;
            let pipe = self.put_pipe(reference, &json);
            let mut con = self.manager()?;
            pipe.query_async::<()>(&mut con)
                .await
                .map_err(|e| self.down(e))
        })
    }

    fn put_at_for<'a>(
        &'a self,
        reference: &'a str,
        tool: &'a str,
        value: &'a serde_json::Value,
    ) -> super::StoreFuture<'a, ()> {
        Box::pin(async move {
            let json = self.encode(value)?;
            let mut pipe = self.put_pipe(reference, &json);
            pipe.cmd("SET")
                .arg(self.origin_key(reference))
                .arg(tool)
                .arg("EX")
                .arg(self.ttl_secs())
                .ignore();
            let mut con = self.manager()?;
            pipe.query_async::<()>(&mut con)
                .await
                .map_err(|e| self.down(e))
        })
    }

    fn origin_async<'a>(&'a self, reference: &'a str) -> super::OriginFuture<'a> {
        Box::pin(async move {
            if !is_reference(reference) {
                return None;
            }
            let mut con = self.manager().ok()?;
            redis::cmd("GET")
                .arg(self.origin_key(reference))
                .query_async(&mut con)
                .await
                .ok()
                .flatten()
        })
    }

    fn get_async<'a>(&'a self, reference: &'a str) -> super::StoreFuture<'a, serde_json::Value> {
        Box::pin(async move {
            if !is_reference(reference) {
                return Err(StoreError::unknown(reference));
            }
            let mut con = self.manager()?;
            let found = redis::cmd("MGET")
                .arg(self.data_key(reference))
                .arg(self.tombstone_key(reference))
                .query_async(&mut con)
                .await
                .map_err(|e| self.unavailable(e))?;
            self.answer(reference, found)
        })
    }
}

impl fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisStore")
            .field("address", &self.address)
            .field("prefix", &self.prefix)
            .field("ttl", &self.ttl)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `host:port` of a (password-hidden) Redis URL, for the one-line failure.
fn host(address: &str) -> &str {
    let rest = address.split_once("://").map_or(address, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest)
}

/// The URL with any user and password replaced by `***`, for messages and `Debug`.
fn hide_password(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[start..];
    let host_end = rest.find('/').unwrap_or(rest.len());
    match rest[..host_end].rfind('@') {
        Some(at) => format!("{}***{}", &url[..start], &rest[at..]),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_messages() {
        assert_eq!(
            hide_password("redis://:s3cret@host:6379/0"),
            "redis://***@host:6379/0"
        );
        assert_eq!(hide_password("redis://user:pw@h"), "redis://***@h");
        assert_eq!(
            hide_password("redis://127.0.0.1:6379"),
            "redis://127.0.0.1:6379"
        );
        assert_eq!(hide_password("nonsense"), "nonsense");
        assert_eq!(host("redis://***@host:6379/0"), "host:6379");
        assert_eq!(host("redis://127.0.0.1:6379"), "127.0.0.1:6379");
        let e = RedisStore::open("redis://:s3cret@[bad", Duration::from_secs(1));
        if let Err(e) = e {
            assert!(!e.to_string().contains("s3cret"), "{e}");
        }
    }

    #[test]
    fn ttl_in_whole_seconds_rounded_up() {
        let s = |d| RedisStore::open("redis://127.0.0.1", d).unwrap().ttl_secs();
        assert_eq!(s(Duration::from_secs(60)), 60);
        assert_eq!(s(Duration::from_millis(1500)), 2);
        assert_eq!(s(Duration::ZERO), 1);
        assert!(s(Duration::MAX) < i64::MAX as u64 / 1000);
    }
}
