//! [`ToolError`] and [`ErrorKind`]: a failure written for a model, and the conversions from
//! the errors a tool already has ([`ToToolError`], `From`).

use std::error::Error;
use std::fmt;

/// What kind of failure a [`ToolError`] is: a small closed set, like `std::io::ErrorKind`.
///
/// Each kind has a `snake_case` name ([`ErrorKind::as_str`], also its `Display`), which is what
/// the rendering shows (`- kind: not_found`), and a default for whether retrying the same
/// call can help (the table's third column):
///
/// | kind | name | retryable by default | meaning |
/// |---|---|---|---|
/// | `InvalidInput` | `invalid_input` | no | the arguments are wrong: fix them |
/// | `NotFound` | `not_found` | no | the thing asked for does not exist |
/// | `PermissionDenied` | `permission_denied` | no | not allowed (or not signed in) |
/// | `Conflict` | `conflict` | no | the current state forbids it (already exists, changed meanwhile) |
/// | `RateLimited` | `rate_limited` | yes | too many calls: wait, then retry |
/// | `Timeout` | `timeout` | yes | no answer in time |
/// | `Unavailable` | `unavailable` | yes | the service or resource is down or busy for now |
/// | `Cancelled` | `cancelled` | no | stopped by the user or the caller |
/// | `Internal` | `internal` | no | a bug or an unexpected failure in the tool |
///
/// The set may grow (`#[non_exhaustive]`): match with a `_` arm.
///
/// ```
/// use tool_output_format::{ErrorKind, ToolError};
///
/// assert_eq!(ErrorKind::NotFound.as_str(), "not_found");
/// assert_eq!(ErrorKind::NotFound.to_string(), "not_found");
/// // Unless told otherwise, a rate limit can be retried and invalid input cannot.
/// assert!(ToolError::new(ErrorKind::RateLimited, "slow down").is_retryable());
/// assert!(!ToolError::new(ErrorKind::InvalidInput, "bad id").is_retryable());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The arguments are wrong; retrying the same call cannot help.
    InvalidInput,
    /// The requested thing does not exist.
    NotFound,
    /// The caller may not do this (or is not authenticated).
    PermissionDenied,
    /// The current state forbids the call: it already exists, or changed meanwhile.
    Conflict,
    /// Too many calls; retry later.
    RateLimited,
    /// No answer in time.
    Timeout,
    /// The service or resource is down or busy for now.
    Unavailable,
    /// Stopped by the user or the caller.
    Cancelled,
    /// A bug or an unexpected failure inside the tool.
    Internal,
}

impl ErrorKind {
    /// Every kind, in the order of the table above (for tests and documentation).
    pub(crate) const ALL: &'static [ErrorKind] = &[
        ErrorKind::InvalidInput,
        ErrorKind::NotFound,
        ErrorKind::PermissionDenied,
        ErrorKind::Conflict,
        ErrorKind::RateLimited,
        ErrorKind::Timeout,
        ErrorKind::Unavailable,
        ErrorKind::Cancelled,
        ErrorKind::Internal,
    ];

    /// The `snake_case` name the rendering shows.
    ///
    /// ```
    /// use tool_output_format::ErrorKind;
    /// assert_eq!(ErrorKind::PermissionDenied.as_str(), "permission_denied");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::NotFound => "not_found",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::Conflict => "conflict",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Internal => "internal",
        }
    }

    /// The kind in words, for sentences (`ToolError`'s `Display`).
    #[must_use]
    pub(crate) const fn words(self) -> &'static str {
        match self {
            ErrorKind::InvalidInput => "invalid input",
            ErrorKind::NotFound => "not found",
            ErrorKind::PermissionDenied => "permission denied",
            ErrorKind::Conflict => "conflict",
            ErrorKind::RateLimited => "rate limited",
            ErrorKind::Timeout => "timed out",
            ErrorKind::Unavailable => "unavailable",
            ErrorKind::Cancelled => "cancelled",
            ErrorKind::Internal => "internal error",
        }
    }

    /// Whether retrying the same call can help, when the error does not say
    /// ([`ToolError::retryable`] overrides it): true for `RateLimited`, `Timeout` and
    /// `Unavailable`, false for the others.
    #[must_use]
    pub(crate) const fn retryable_by_default(self) -> bool {
        matches!(
            self,
            ErrorKind::RateLimited | ErrorKind::Timeout | ErrorKind::Unavailable
        )
    }

    /// The kind for a `std::io::ErrorKind`: `NotFound` -> `NotFound`, `PermissionDenied`
    /// -> `PermissionDenied`, `TimedOut` -> `Timeout`, `AlreadyExists` and
    /// `DirectoryNotEmpty` -> `Conflict`, `InvalidInput`, `InvalidData`, `InvalidFilename`
    /// and `Unsupported` -> `InvalidInput`, connection failures, `WouldBlock`,
    /// `Interrupted`, `ResourceBusy` and unreachable hosts or networks -> `Unavailable`,
    /// anything else -> `Internal`.
    #[must_use]
    pub(crate) fn from_io(kind: std::io::ErrorKind) -> ErrorKind {
        use std::io::ErrorKind as Io;
        match kind {
            Io::NotFound => ErrorKind::NotFound,
            Io::PermissionDenied => ErrorKind::PermissionDenied,
            Io::TimedOut => ErrorKind::Timeout,
            Io::AlreadyExists | Io::DirectoryNotEmpty => ErrorKind::Conflict,
            Io::InvalidInput | Io::InvalidData | Io::InvalidFilename | Io::Unsupported => {
                ErrorKind::InvalidInput
            }
            Io::ConnectionRefused
            | Io::ConnectionReset
            | Io::ConnectionAborted
            | Io::NotConnected
            | Io::BrokenPipe
            | Io::AddrInUse
            | Io::AddrNotAvailable
            | Io::HostUnreachable
            | Io::NetworkUnreachable
            | Io::NetworkDown
            | Io::WouldBlock
            | Io::Interrupted
            | Io::ResourceBusy => ErrorKind::Unavailable,
            _ => ErrorKind::Internal,
        }
    }
}

impl fmt::Display for ErrorKind {
    /// Writes the `snake_case` name ([`ErrorKind::as_str`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool's failure, written for a model: what kind, what happened, whether a retry can help
/// (and after how long), and how to fix it.
///
/// It renders under the title `**{tool} failed**` (see the [module docs](crate::doc::agent)), so
/// a failure never looks like an empty or ordinary result.
///
/// ```
/// use tool_output_format::{ErrorKind, ToolError};
///
/// let err = ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist")
///     .hint("list_orders(customer_id=...) lists this customer's orders");
/// assert!(!err.is_retryable());
/// assert_eq!(
///     err.to_string(),
///     "not found: order ORD-1 does not exist (not retryable); \
///      hint: list_orders(customer_id=...) lists this customer's orders"
/// );
/// ```
///
/// Its builders own the plain names (`hint(...)` sets a value), so the getters that read a value
/// back are `get_`-prefixed (`get_hint()`), as `std::process::Command::get_program` is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct ToolError {
    kind: ErrorKind,
    message: String,
    hint: Option<String>,
    retryable: Option<bool>,
    retry_after_secs: Option<u64>,
}

impl ToolError {
    /// An error of `kind` with `message`, shown verbatim (escaped only where it would change
    /// the markdown's structure).
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// let err = ToolError::new(ErrorKind::Timeout, "the search took over 10 s");
    /// assert_eq!(err.kind(), ErrorKind::Timeout);
    /// assert_eq!(err.message(), "the search took over 10 s");
    /// ```
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        ToolError {
            kind,
            message: message.into(),
            hint: None,
            retryable: None,
            retry_after_secs: None,
        }
    }

    /// An error of `kind` from any error value: the message is its `Display` followed by its
    /// `source()` chain, each as `: cause` (a cause whose text the message already ends with
    /// is not repeated).
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    ///
    /// let io = std::io::Error::new(std::io::ErrorKind::Other, "disk quota exceeded");
    /// let err = ToolError::from_error(ErrorKind::Unavailable, &io);
    /// assert_eq!(err.message(), "disk quota exceeded");
    /// assert_eq!(err.kind(), ErrorKind::Unavailable);
    /// ```
    pub fn from_error<E: Error + ?Sized>(kind: ErrorKind, error: &E) -> Self {
        ToolError::new(kind, chain_text(error))
    }

    /// How to fix it or what to do instead (another tool, other arguments).
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// let err = ToolError::new(ErrorKind::InvalidInput, "date must be ISO-8601").hint("e.g. 2024-07-01");
    /// assert_eq!(err.get_hint(), Some("e.g. 2024-07-01"));
    /// ```
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Say whether retrying the same call can help, overriding the kind's default (see
    /// [`ErrorKind`]).
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// let err = ToolError::new(ErrorKind::Unavailable, "mailbox full").retryable(false);
    /// assert!(!err.is_retryable());
    /// ```
    pub fn retryable(mut self, retryable: bool) -> Self {
        self.retryable = Some(retryable);
        self
    }

    /// Retrying can help after `secs` seconds. This makes the error retryable unless
    /// [`ToolError::retryable`] says `false` explicitly.
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// let err = ToolError::new(ErrorKind::Internal, "index rebuilding").retry_after_secs(30);
    /// assert!(err.is_retryable());
    /// assert_eq!(err.get_retry_after_secs(), Some(30));
    /// ```
    pub fn retry_after_secs(mut self, secs: u64) -> Self {
        self.retry_after_secs = Some(secs);
        self
    }

    /// The kind.
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// assert_eq!(ToolError::new(ErrorKind::Conflict, "exists").kind(), ErrorKind::Conflict);
    /// ```
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The message, as given.
    ///
    /// ```
    /// use tool_output_format::ToolError;
    /// assert_eq!(ToolError::from("boom").message(), "boom");
    /// ```
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The hint, if any.
    ///
    /// ```
    /// use tool_output_format::ToolError;
    /// assert_eq!(ToolError::from("boom").get_hint(), None);
    /// ```
    #[must_use]
    pub fn get_hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    /// What [`ToolError::retryable`] set, if it was called (`None`: the kind decides).
    #[must_use]
    #[cfg(test)]
    pub(crate) fn get_retryable(&self) -> Option<bool> {
        self.retryable
    }

    /// Whether retrying can help: what [`ToolError::retryable`] set, else true when a retry
    /// delay is set, else the kind's default.
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// assert!(ToolError::new(ErrorKind::Timeout, "slow").is_retryable());
    /// assert!(!ToolError::new(ErrorKind::NotFound, "gone").is_retryable());
    /// ```
    #[must_use]
    pub fn is_retryable(&self) -> bool {
        self.retryable
            .unwrap_or(self.retry_after_secs.is_some() || self.kind.retryable_by_default())
    }

    /// The retry delay in seconds, if any.
    ///
    /// ```
    /// use tool_output_format::{ErrorKind, ToolError};
    /// assert_eq!(ToolError::new(ErrorKind::RateLimited, "slow down").get_retry_after_secs(), None);
    /// ```
    #[must_use]
    pub fn get_retry_after_secs(&self) -> Option<u64> {
        self.retry_after_secs
    }

    /// The retryable field as the rendering shows it: `true`, `false`, or
    /// `true, after N s`.
    #[must_use]
    pub(crate) fn retryable_text(&self) -> String {
        match (self.is_retryable(), self.retry_after_secs) {
            (true, Some(secs)) => format!("true, after {secs} s"),
            (true, None) => String::from("true"),
            (false, _) => String::from("false"),
        }
    }
}

impl fmt::Display for ToolError {
    /// A sentence: `{kind in words}: {message} ({retryable})` then `; hint: {hint}`, where
    /// `{retryable}` is `retryable`, `retryable after N s` or `not retryable`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.words(), self.message)?;
        match (self.is_retryable(), self.retry_after_secs) {
            (true, Some(secs)) => write!(f, " (retryable after {secs} s)")?,
            (true, None) => f.write_str(" (retryable)")?,
            (false, _) => f.write_str(" (not retryable)")?,
        }
        if let Some(hint) = &self.hint {
            write!(f, "; hint: {hint}")?;
        }
        Ok(())
    }
}

impl Error for ToolError {}

/// `Display` of `error`, then each `source()` as `: cause` unless the text so far already
/// ends with it (many errors print their cause themselves).
pub(super) fn chain_text<E: Error + ?Sized>(error: &E) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !cause_text.is_empty() && !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_names_words_and_defaults() {
        let table: Vec<(&str, &str, bool)> = ErrorKind::ALL
            .iter()
            .map(|k| (k.as_str(), k.words(), k.retryable_by_default()))
            .collect();
        assert_eq!(
            table,
            [
                ("invalid_input", "invalid input", false),
                ("not_found", "not found", false),
                ("permission_denied", "permission denied", false),
                ("conflict", "conflict", false),
                ("rate_limited", "rate limited", true),
                ("timeout", "timed out", true),
                ("unavailable", "unavailable", true),
                ("cancelled", "cancelled", false),
                ("internal", "internal error", false),
            ]
        );
        for kind in ErrorKind::ALL {
            assert_eq!(kind.to_string(), kind.as_str());
        }
    }

    #[test]
    fn display_reads_as_a_sentence() {
        let cases = [
            (
                ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist"),
                "not found: order ORD-1 does not exist (not retryable)",
            ),
            (
                ToolError::new(ErrorKind::Timeout, "search took over 10 s"),
                "timed out: search took over 10 s (retryable)",
            ),
            (
                ToolError::new(ErrorKind::RateLimited, "100 calls per minute").retry_after_secs(30),
                "rate limited: 100 calls per minute (retryable after 30 s)",
            ),
            (
                ToolError::new(ErrorKind::Unavailable, "mailbox full")
                    .retryable(false)
                    .retry_after_secs(5),
                "unavailable: mailbox full (not retryable)",
            ),
            (
                ToolError::new(ErrorKind::InvalidInput, "bad date").hint("use 2024-07-01"),
                "invalid input: bad date (not retryable); hint: use 2024-07-01",
            ),
            (
                ToolError::new(ErrorKind::Internal, "").retryable(true),
                "internal error:  (retryable)",
            ),
        ];
        for (err, want) in cases {
            assert_eq!(err.to_string(), want);
        }
    }

    #[test]
    fn retryable_precedence() {
        let e = |k| ToolError::new(k, "m");
        assert!(e(ErrorKind::RateLimited).is_retryable());
        assert!(!e(ErrorKind::RateLimited).retryable(false).is_retryable());
        assert!(e(ErrorKind::NotFound).retryable(true).is_retryable());
        assert!(e(ErrorKind::NotFound).retry_after_secs(3).is_retryable());
        assert!(
            !e(ErrorKind::NotFound)
                .retry_after_secs(3)
                .retryable(false)
                .is_retryable()
        );
        assert_eq!(e(ErrorKind::NotFound).retryable_text(), "false");
        assert_eq!(e(ErrorKind::Timeout).retryable_text(), "true");
        assert_eq!(
            e(ErrorKind::Timeout).retry_after_secs(0).retryable_text(),
            "true, after 0 s"
        );
        assert_eq!(
            e(ErrorKind::Timeout)
                .retry_after_secs(9)
                .retryable(false)
                .retryable_text(),
            "false"
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    #[test]
    fn get_retryable() {
        use crate::{ErrorKind, ToolError};
        assert_eq!(
            ToolError::new(ErrorKind::Timeout, "slow").get_retryable(),
            None
        );
    }

    #[test]
    fn retryable_text() {
        use crate::{ErrorKind, ToolError};
        let err = ToolError::new(ErrorKind::RateLimited, "slow down").retry_after_secs(30);
        assert_eq!(err.retryable_text(), "true, after 30 s");
    }

    #[test]
    fn words() {
        use crate::ErrorKind;
        assert_eq!(ErrorKind::RateLimited.words(), "rate limited");
    }

    #[test]
    fn retryable_by_default() {
        use crate::ErrorKind;
        assert!(ErrorKind::Timeout.retryable_by_default());
        assert!(!ErrorKind::Internal.retryable_by_default());
    }

    #[test]
    fn from_io() {
        use crate::ErrorKind;
        assert_eq!(
            ErrorKind::from_io(std::io::ErrorKind::TimedOut),
            ErrorKind::Timeout
        );
    }
}
