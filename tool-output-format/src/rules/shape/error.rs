//! Mistakes in a shape: [`ShapeError`] and its [`ShapeErrorKind`].

use std::fmt;

/// What kind of mistake a [`ShapeError`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum ShapeErrorKind {
    /// A path or pattern that cannot be read (empty, empty key, `**`, `*` outside `drop`).
    MalformedPath,
    /// One path given twice to one rule (or two marks), or two kept fields with one output
    /// name.
    Duplicate,
    /// A new name that is empty.
    BadName,
    /// A shape file that is not valid JSON (or TOML).
    Syntax,
    /// A shape file key that is not one of `keep`, `drop`, `rename`, `convert`, `drop_empty`,
    /// `flatten`, `essential`, `minor`.
    UnknownKey,
    /// A shape file value of the wrong type.
    BadValue,
    /// A converter name a shape file does not know.
    UnknownConverter,
}

/// A mistake in a shape: where it is (`keep[2]`, `convert["amount"].fixed`) and what to do.
///
/// ```
/// use tool_output_format::Shape;
///
/// let err = Shape::new().keep(["title", "user..login"]).check().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "shape keep[1]: malformed path `user..login`: it has an empty key between two dots; \
///      write keys separated by single dots, like `user.login`"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError {
    kind: ShapeErrorKind,
    at: String,
    message: String,
}

impl ShapeError {
    pub(crate) fn new(
        kind: ShapeErrorKind,
        at: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ShapeError {
            kind,
            at: at.into(),
            message: message.into(),
        }
    }

    /// The kind of mistake.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn kind(&self) -> ShapeErrorKind {
        self.kind
    }

    /// Where it is: `keep[1]`, `rename["user.login"]`, `convert["amount"].fixed`, or `line 3
    /// column 5` for a JSON syntax error; empty for the whole shape.
    #[must_use]
    pub fn at(&self) -> &str {
        &self.at
    }

    /// What is wrong and what was expected.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "shape: {}", self.message)
        } else {
            write!(f, "shape {}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for ShapeError {}
