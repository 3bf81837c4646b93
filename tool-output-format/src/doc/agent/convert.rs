//! [`ToToolError`] and the `From` conversions into [`ToolError`]: from the errors a tool
//! already has.

use std::error::Error;

use crate::doc::agent::error::{ErrorKind, ToolError};

/// Convert a borrowed error into a [`ToolError`]: the bound `Result<T, E>` is meant to
/// render with (see the [module docs](crate::doc::agent)).
///
/// Borrowing matters: a result is rendered from `&Result<T, E>`, and the errors tools
/// return most (`std::io::Error`, `serde_json::Error`) are not `Clone`, so a bound like
/// `E: Into<ToolError> + Clone` would leave them out.
///
/// Implemented for [`ToolError`], `std::io::Error`, `serde_json::Error`, `String`, `str`,
/// `Box<dyn Error + Send + Sync>`, `std::fmt::Error`, the std parse errors, and through
/// `&E`, `Box<E>`, `Rc<E>` and `Arc<E>`. For your own error type, implement it in one
/// line with [`ToolError::from_error`] (or build the kind from your variants):
///
/// ```
/// use tool_output_format::{ErrorKind, ToToolError, ToolError};
///
/// #[derive(Debug)]
/// struct QuotaExceeded;
/// impl std::fmt::Display for QuotaExceeded {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("monthly quota exceeded")
///     }
/// }
/// impl std::error::Error for QuotaExceeded {}
///
/// impl ToToolError for QuotaExceeded {
///     fn to_tool_error(&self) -> ToolError {
///         ToolError::from_error(ErrorKind::RateLimited, self).hint("the quota resets on the 1st")
///     }
/// }
/// // And `?` in functions returning `ToolError`:
/// impl From<QuotaExceeded> for ToolError {
///     fn from(e: QuotaExceeded) -> ToolError { e.to_tool_error() }
/// }
///
/// assert_eq!(QuotaExceeded.to_tool_error().kind(), ErrorKind::RateLimited);
/// ```
pub trait ToToolError {
    /// The [`ToolError`] for this error.
    fn to_tool_error(&self) -> ToolError;
}

impl ToToolError for ToolError {
    fn to_tool_error(&self) -> ToolError {
        self.clone()
    }
}

impl ToToolError for std::io::Error {
    /// The kind from the `io::ErrorKind` (`NotFound` -> `not_found`, `TimedOut` -> `timeout`, ...), the message from the error and its causes.
    fn to_tool_error(&self) -> ToolError {
        ToolError::from_error(ErrorKind::from_io(self.kind()), self)
    }
}

impl ToToolError for serde_json::Error {
    /// `invalid_input` for syntax, data and end-of-input errors (the message keeps line and
    /// column); an I/O error maps like `std::io::Error`.
    fn to_tool_error(&self) -> ToolError {
        let kind = match self.io_error_kind() {
            Some(io) => ErrorKind::from_io(io),
            None => ErrorKind::InvalidInput,
        };
        ToolError::from_error(kind, self)
    }
}

impl ToToolError for str {
    /// `internal`, the text as the message.
    fn to_tool_error(&self) -> ToolError {
        ToolError::new(ErrorKind::Internal, self)
    }
}

impl ToToolError for String {
    /// `internal`, the text as the message.
    fn to_tool_error(&self) -> ToolError {
        self.as_str().to_tool_error()
    }
}

impl ToToolError for dyn Error + Send + Sync {
    /// `internal`, the message from the error and its causes.
    fn to_tool_error(&self) -> ToolError {
        ToolError::from_error(ErrorKind::Internal, self)
    }
}

impl ToToolError for dyn Error {
    /// `internal`, the message from the error and its causes.
    fn to_tool_error(&self) -> ToolError {
        ToolError::from_error(ErrorKind::Internal, self)
    }
}

impl<E: ToToolError + ?Sized> ToToolError for &E {
    fn to_tool_error(&self) -> ToolError {
        (**self).to_tool_error()
    }
}

impl<E: ToToolError + ?Sized> ToToolError for Box<E> {
    fn to_tool_error(&self) -> ToolError {
        (**self).to_tool_error()
    }
}

impl<E: ToToolError + ?Sized> ToToolError for std::rc::Rc<E> {
    fn to_tool_error(&self) -> ToolError {
        (**self).to_tool_error()
    }
}

impl<E: ToToolError + ?Sized> ToToolError for std::sync::Arc<E> {
    fn to_tool_error(&self) -> ToolError {
        (**self).to_tool_error()
    }
}

/// `ToToolError` and `From` for std errors that always mean one kind.
macro_rules! fixed_kind {
    ($kind:ident: $($ty:ty),+ $(,)?) => {$(
        impl ToToolError for $ty {
            #[doc = concat!("`", stringify!($kind), "`, the message from the error.")]
            fn to_tool_error(&self) -> ToolError {
                ToolError::from_error(ErrorKind::$kind, self)
            }
        }
        impl From<$ty> for ToolError {
            fn from(error: $ty) -> ToolError {
                error.to_tool_error()
            }
        }
    )+};
}

fixed_kind!(InvalidInput:
    std::num::ParseIntError,
    std::num::ParseFloatError,
    std::num::TryFromIntError,
    std::str::ParseBoolError,
    std::char::ParseCharError,
    std::str::Utf8Error,
    std::string::FromUtf8Error,
    std::net::AddrParseError,
);
fixed_kind!(Internal: std::fmt::Error);

/// `From` through [`ToToolError`] for owned errors, so `?` works in a function returning
/// `Result<_, ToolError>`.
macro_rules! from_owned {
    ($($ty:ty),+ $(,)?) => {$(
        impl From<$ty> for ToolError {
            fn from(error: $ty) -> ToolError {
                error.to_tool_error()
            }
        }
    )+};
}

from_owned!(
    std::io::Error,
    serde_json::Error,
    String,
    &str,
    Box<dyn Error + Send + Sync>,
    Box<dyn Error>,
);

impl From<std::borrow::Cow<'_, str>> for ToolError {
    /// `internal`, the text as the message.
    fn from(text: std::borrow::Cow<'_, str>) -> ToolError {
        ToolError::new(ErrorKind::Internal, text.into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt;

    #[test]
    fn io_errors_map_by_kind() {
        use std::io::{Error as IoError, ErrorKind as Io};
        let cases = [
            (Io::NotFound, ErrorKind::NotFound),
            (Io::PermissionDenied, ErrorKind::PermissionDenied),
            (Io::TimedOut, ErrorKind::Timeout),
            (Io::AlreadyExists, ErrorKind::Conflict),
            (Io::InvalidInput, ErrorKind::InvalidInput),
            (Io::InvalidData, ErrorKind::InvalidInput),
            (Io::Unsupported, ErrorKind::InvalidInput),
            (Io::ConnectionRefused, ErrorKind::Unavailable),
            (Io::WouldBlock, ErrorKind::Unavailable),
            (Io::Interrupted, ErrorKind::Unavailable),
            (Io::UnexpectedEof, ErrorKind::Internal),
            (Io::OutOfMemory, ErrorKind::Internal),
            (Io::Other, ErrorKind::Internal),
        ];
        for (io, want) in cases {
            let err = ToolError::from(IoError::new(io, "x"));
            assert_eq!((io, err.kind(), err.message()), (io, want, "x"));
        }
        let err: ToolError = IoError::from(Io::NotFound).into();
        assert_eq!(
            err.to_string(),
            "not found: entity not found (not retryable)"
        );
    }

    #[derive(Debug)]
    struct Outer(Inner);
    #[derive(Debug)]
    struct Inner;
    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("could not load config")
        }
    }
    impl fmt::Display for Inner {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("file is empty")
        }
    }
    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }
    impl Error for Inner {}

    #[test]
    fn from_error_keeps_the_source_chain() {
        let err = ToolError::from_error(ErrorKind::InvalidInput, &Outer(Inner));
        assert_eq!(err.message(), "could not load config: file is empty");
        // A cause the outer text already ends with is not repeated.
        let io = std::io::Error::other(Outer(Inner));
        assert_eq!(
            ToolError::from(io).message(),
            "could not load config: file is empty"
        );
        let boxed: Box<dyn Error + Send + Sync> = Box::new(std::io::Error::other(Outer(Inner)));
        let err = ToolError::from(boxed);
        assert_eq!(
            (err.kind(), err.message()),
            (ErrorKind::Internal, "could not load config: file is empty")
        );
    }

    #[test]
    fn serde_json_errors_are_invalid_input() {
        let e = serde_json::from_str::<serde_json::Value>("{\"a\": }").unwrap_err();
        let err = ToolError::from(e);
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert_eq!(err.message(), "expected value at line 1 column 7");
    }

    #[test]
    fn text_and_std_conversions() {
        assert_eq!(
            ToolError::from("boom"),
            ToolError::new(ErrorKind::Internal, "boom")
        );
        assert_eq!(
            ToolError::from(String::from("boom")).kind(),
            ErrorKind::Internal
        );
        assert_eq!(
            ToolError::from(std::borrow::Cow::Borrowed("boom")).message(),
            "boom"
        );
        assert_eq!(ToolError::from(std::fmt::Error).kind(), ErrorKind::Internal);
        let parse = "12x".parse::<u32>().unwrap_err();
        let err = ToolError::from(parse);
        assert_eq!(
            err.to_string(),
            "invalid input: invalid digit found in string (not retryable)"
        );
        let parse = "yes".parse::<bool>().unwrap_err();
        assert_eq!(ToolError::from(parse).kind(), ErrorKind::InvalidInput);
    }

    #[test]
    fn question_mark_works() {
        fn read(s: &str) -> Result<u32, ToolError> {
            let n: u32 = s.parse()?;
            let _: serde_json::Value = serde_json::from_str("1")?;
            Ok(n)
        }
        assert_eq!(read("7"), Ok(7));
        assert_eq!(read("x").unwrap_err().kind(), ErrorKind::InvalidInput);
    }

    #[test]
    fn to_tool_error_through_pointers() {
        fn render<E: ToToolError + ?Sized>(e: &E) -> String {
            e.to_tool_error().to_string()
        }
        let io = std::io::Error::new(std::io::ErrorKind::TimedOut, "slow");
        assert_eq!(render(&io), "timed out: slow (retryable)");
        assert_eq!(render(&&io), "timed out: slow (retryable)");
        assert_eq!(
            render(&std::sync::Arc::new(io)),
            "timed out: slow (retryable)"
        );
        assert_eq!(render("boom"), "internal error: boom (not retryable)");
        let dynamic: Box<dyn Error> = Box::new(Outer(Inner));
        assert_eq!(
            render(&dynamic),
            "internal error: could not load config: file is empty (not retryable)"
        );
    }
}
