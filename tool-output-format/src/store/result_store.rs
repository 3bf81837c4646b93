//! The contract of a store: [`ResultStore`], its errors ([`StoreError`],
//! [`StoreErrorKind`]), and the `r_...` references every store hands out.

use std::error::Error;
use std::fmt;
use std::time::Duration;

/// The cursor argument of the Next line a cut result ends with
/// (`Next: call get_stored_result(ref="r_...", cursor="25")`), and of [`Fetch`](crate::store::Fetch) unless
/// [`Fetch::arg_names`](crate::store::Fetch::arg_names) names another.
pub(crate) const CURSOR_ARG: &str = "cursor";

/// A place to keep full tool results for a while, addressed by an unguessable reference.
///
/// Object safe, `Send + Sync`: share one as `Arc<dyn ResultStore>` between threads and tools.
///
/// ```
/// use std::sync::Arc;
/// use std::time::Duration;
/// use tool_output_format::store::{MemoryStore, ResultStore};
///
/// let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
/// let r = store.put(&serde_json::json!({"total": 5000})).unwrap();
/// assert_eq!(store.get(&r).unwrap()["total"], 5000);
/// ```
pub trait ResultStore: Send + Sync {
    /// Keeps `value` and returns its reference (`r_` and 26 base32 characters).
    ///
    /// # Errors
    ///
    /// Fails with [`StoreErrorKind::TooLarge`] when the value exceeds what the store accepts
    /// and [`StoreErrorKind::Unavailable`] when the backend cannot be reached; the value is
    /// then not stored (the caller still has it).
    fn put(&self, value: &serde_json::Value) -> Result<String, StoreError>;

    /// Returns the full value stored under `reference`.
    ///
    /// # Errors
    ///
    /// Fails with [`StoreErrorKind::Expired`] (message contains "expired") for a reference
    /// this store issued whose time is up, and [`StoreErrorKind::Unknown`] (message contains
    /// "unknown") for one it never issued or forgot long ago.
    fn get(&self, reference: &str) -> Result<serde_json::Value, StoreError>;

    /// [`put`](Self::put), remembering the tool whose result `value` is, so the fetch tool
    /// serves its pages with that tool's options (its budget first of all). The default
    /// forgets the tool; [`MemoryStore`](crate::store::MemoryStore) and `RedisStore` keep it.
    ///
    /// # Errors
    ///
    /// As [`put`](Self::put).
    ///
    /// ```
    /// use tool_output_format::store::{MemoryStore, ResultStore};
    /// let store = MemoryStore::new(std::time::Duration::from_secs(60));
    /// let r = store.put_for("list_orders", &serde_json::json!([1, 2])).unwrap();
    /// assert_eq!(store.origin(&r).as_deref(), Some("list_orders"));
    /// ```
    fn put_for(&self, tool: &str, value: &serde_json::Value) -> Result<String, StoreError> {
        let _ = tool;
        self.put(value)
    }

    /// The tool whose result is stored under `reference`, when the store kept it
    /// ([`put_for`](Self::put_for)); `None` otherwise, or when the store cannot say now.
    fn origin(&self, reference: &str) -> Option<String> {
        let _ = reference;
        None
    }
}

/// What went wrong in a [`ResultStore`] call.
///
/// ```
/// use tool_output_format::store::StoreErrorKind;
/// # use tool_output_format::store::{MemoryStore, ResultStore};
/// # let store = MemoryStore::new(std::time::Duration::from_secs(1));
/// let err = store.get("not-a-reference").unwrap_err();
/// assert_eq!(err.kind(), StoreErrorKind::Unknown);
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StoreErrorKind {
    /// The reference was issued by this store, but its result is gone: its time to live ran
    /// out, or it was evicted to make room. The model should call the original tool again.
    Expired,
    /// The store never issued this reference (a typo, a made-up reference, another store's),
    /// or forgot it long ago.
    Unknown,
    /// The backend cannot be reached or failed (Redis down, a timeout): retrying later may work.
    Unavailable,
    /// The value is larger than the store accepts; it was not stored.
    TooLarge,
    /// The stored bytes are not the JSON this crate wrote (another program wrote the key).
    Corrupt,
    /// The store is set up wrong (e.g. a Redis URL that does not parse): fix the configuration.
    Config,
}

/// The error of a [`ResultStore`] call: a [kind](StoreErrorKind) and a message written for
/// the model that will read it (what failed, and what to do next).
///
/// ```
/// use std::time::Duration;
/// use tool_output_format::store::{MemoryStore, ResultStore, StoreError};
///
/// let store = MemoryStore::new(Duration::from_secs(60));
/// let err: StoreError = store.get("r_zzzzzzzzzzzzzzzzzzzzzzzzzz").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "reference \"r_zzzzzzzzzzzzzzzzzzzzzzzzzz\" is unknown: this store never issued it, \
///      or it expired long ago; check that it was copied exactly, or call the original tool again"
/// );
/// ```
#[derive(Debug)]
pub struct StoreError {
    kind: StoreErrorKind,
    message: String,
    source: Option<Box<dyn Error + Send + Sync>>,
}

impl StoreError {
    /// An error of `kind` with `message` (a sentence for the model: what failed, what to do).
    ///
    /// ```
    /// use tool_output_format::store::StoreError;
    /// use tool_output_format::store::StoreErrorKind;
    /// let e = StoreError::new(StoreErrorKind::Unavailable, "the store is down: retry later");
    /// assert_eq!(e.to_string(), "the store is down: retry later");
    /// ```
    pub fn new(kind: StoreErrorKind, message: impl Into<String>) -> Self {
        StoreError {
            kind,
            message: message.into(),
            source: None,
        }
    }

    /// The same error, with the lower-level error that caused it (see [`Error::source`]).
    ///
    /// ```
    /// use std::error::Error;
    /// use tool_output_format::store::StoreError;
    /// use tool_output_format::store::StoreErrorKind;
    /// let io = std::io::Error::other("connection refused");
    /// let e = StoreError::new(StoreErrorKind::Unavailable, "down").with_source(io);
    /// assert_eq!(e.source().unwrap().to_string(), "connection refused");
    /// ```
    #[must_use]
    pub fn with_source(mut self, source: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        self.source = Some(source.into());
        self
    }

    /// What went wrong.
    ///
    /// ```
    /// use tool_output_format::store::StoreError;
    /// use tool_output_format::store::StoreErrorKind;
    /// assert_eq!(StoreError::new(StoreErrorKind::TooLarge, "x").kind(), StoreErrorKind::TooLarge);
    /// ```
    #[must_use]
    pub fn kind(&self) -> StoreErrorKind {
        self.kind
    }

    /// The message, as [`Display`](fmt::Display) writes it.
    ///
    /// ```
    /// use tool_output_format::store::StoreError;
    /// use tool_output_format::store::StoreErrorKind;
    /// assert_eq!(StoreError::new(StoreErrorKind::Corrupt, "bad bytes").message(), "bad bytes");
    /// ```
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether calling again later may succeed (only [`StoreErrorKind::Unavailable`]).
    ///
    /// ```
    /// use tool_output_format::store::StoreError;
    /// use tool_output_format::store::StoreErrorKind;
    /// assert!(StoreError::new(StoreErrorKind::Unavailable, "down").is_retryable());
    /// assert!(!StoreError::new(StoreErrorKind::Expired, "gone").is_retryable());
    /// ```
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        self.kind == StoreErrorKind::Unavailable
    }

    pub(crate) fn unknown(reference: &str) -> Self {
        let mut shown = String::new();
        crate::text::escape_inline(&cut_reference(reference), false, &mut shown);
        let message = if is_reference(reference) {
            format!(
                "reference \"{shown}\" is unknown: this store never issued it, or it expired \
                 long ago; check that it was copied exactly, or call the original tool again"
            )
        } else {
            format!(
                "reference \"{shown}\" is unknown: references look like \"r_\" followed by 26 \
                 lowercase letters and digits; copy it exactly from the result that gave it, or \
                 call the original tool again"
            )
        };
        StoreError::new(StoreErrorKind::Unknown, message)
    }

    /// `why` completes "reference \"r_...\" expired ...", e.g. "12 minutes ago".
    pub(crate) fn expired(reference: &str, why: &str) -> Self {
        StoreError::new(
            StoreErrorKind::Expired,
            format!(
                "reference \"{reference}\" expired {why}: the stored result is gone; call the \
                 original tool again to get it"
            ),
        )
    }

    pub(crate) fn too_large(bytes: usize, max: usize) -> Self {
        StoreError::new(
            StoreErrorKind::TooLarge,
            format!(
                "the result is {bytes} bytes of JSON, more than the store accepts ({max} bytes): \
                 it was not stored; ask for fewer rows or narrower fields"
            ),
        )
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

/// The prefix of every reference.
pub(crate) const REFERENCE_PREFIX: &str = "r_";
/// Characters after the prefix: 26 base32 digits carry 130 bits, 128 of them random.
const REFERENCE_DIGITS: usize = 26;
/// Lowercase base32 without look-alikes (Crockford's alphabet: no i, l, o, u).
const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// A new reference: `r_` and 128 bits from the operating system's random source.
pub(crate) fn new_reference() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        StoreError::new(
            StoreErrorKind::Unavailable,
            format!("the operating system's random source failed ({e}): the result was not stored"),
        )
    })?;
    let mut n = u128::from_be_bytes(bytes);
    let mut digits = [0u8; REFERENCE_DIGITS];
    for d in digits.iter_mut().rev() {
        *d = ALPHABET[(n & 31) as usize];
        n >>= 5;
    }
    let mut s = String::with_capacity(REFERENCE_PREFIX.len() + REFERENCE_DIGITS);
    s.push_str(REFERENCE_PREFIX);
    // ALPHABET is ASCII, so every byte is a char.
    s.extend(digits.iter().map(|&b| b as char));
    Ok(s)
}

/// Whether `s` has the shape of a reference (it may still be unknown).
pub(crate) fn is_reference(s: &str) -> bool {
    s.strip_prefix(REFERENCE_PREFIX).is_some_and(|rest| {
        rest.len() == REFERENCE_DIGITS && rest.bytes().all(|b| ALPHABET.contains(&b))
    })
}

/// A reference as shown in a message: at most 40 characters of what the model sent.
fn cut_reference(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// "12 minutes ago", "1 second ago", "3 hours ago", "2 days ago".
pub(crate) fn ago(d: Duration) -> String {
    let s = d.as_secs();
    let (n, unit) = if s < 120 {
        (s, "second")
    } else if s < 120 * 60 {
        (s / 60, "minute")
    } else if s < 48 * 3600 {
        (s / 3600, "hour")
    } else {
        (s / 86_400, "day")
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

/// "1 hour", "90 seconds", "30 minutes": a time to live as the model reads it.
pub(crate) fn span(d: Duration) -> String {
    let s = d.as_secs();
    let (n, unit) = if s.is_multiple_of(86_400) && s >= 86_400 {
        (s / 86_400, "day")
    } else if s.is_multiple_of(3600) && s >= 3600 {
        (s / 3600, "hour")
    } else if s.is_multiple_of(60) && s >= 60 {
        (s / 60, "minute")
    } else {
        (s, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_have_the_documented_shape_and_differ() {
        let a = new_reference().unwrap();
        let b = new_reference().unwrap();
        assert_eq!(a.len(), 28);
        assert!(is_reference(&a), "{a}");
        assert_ne!(a, b);
        let set: std::collections::HashSet<String> =
            (0..1000).map(|_| new_reference().unwrap()).collect();
        assert_eq!(set.len(), 1000);
    }

    #[test]
    fn reference_shape_check() {
        assert!(is_reference("r_0123456789abcdefghjkmnpqrs"));
        assert!(!is_reference("r_0123456789abcdefghjkmnpqr")); // 25 digits
        assert!(!is_reference("r_0123456789abcdefghjkmnpqri")); // i is not in the alphabet
        assert!(!is_reference("R_0123456789abcdefghjkmnpqrs"));
        assert!(!is_reference(""));
    }

    #[test]
    fn durations_read_as_sentences() {
        assert_eq!(ago(Duration::from_secs(1)), "1 second ago");
        assert_eq!(ago(Duration::from_secs(119)), "119 seconds ago");
        assert_eq!(ago(Duration::from_secs(12 * 60 + 5)), "12 minutes ago");
        assert_eq!(ago(Duration::from_secs(3 * 3600)), "3 hours ago");
        assert_eq!(ago(Duration::from_secs(3 * 86_400)), "3 days ago");
        assert_eq!(span(Duration::from_secs(3600)), "1 hour");
        assert_eq!(span(Duration::from_secs(90)), "90 seconds");
        assert_eq!(span(Duration::from_secs(1800)), "30 minutes");
        assert_eq!(span(Duration::from_millis(500)), "0 seconds");
    }

    #[test]
    fn malformed_references_are_unknown_and_shown_safely() {
        let e = StoreError::unknown("r_x|y\nz");
        assert_eq!(e.kind(), StoreErrorKind::Unknown);
        assert_eq!(
            e.to_string(),
            "reference \"r_x\\|y<br>z\" is unknown: references look like \"r_\" followed by 26 \
             lowercase letters and digits; copy it exactly from the result that gave it, or call \
             the original tool again"
        );
        let long = "x".repeat(1000);
        assert!(StoreError::unknown(&long).to_string().len() < 300);
    }
}
