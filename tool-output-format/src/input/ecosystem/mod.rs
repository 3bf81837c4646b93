//! [`ToolOutput`](crate::ToolOutput) for common field types of other crates, each behind the
//! Cargo feature named after its crate (off by default, no default features of the crate).
//!
//! Without these features such a field still renders through its `serde::Serialize` form
//! (`src/private/field.rs`); with them it needs no serde feature of its crate and renders as
//! below. Where the crate's serde form is a readable string, the rendering is that string, so
//! a struct deriving both `Serialize` and `ToolOutput` keeps the consistency law (the typed
//! value renders as its `serde_json::to_value` form does). Where it is not (tuples of seconds
//! and nanoseconds, the time crate's custom forms), the value renders as text the model
//! reads, like `std::time::SystemTime` and `Duration` (`src/input/time.rs`); there the JSON form (what
//! a registered renderer receives) is that text too, not the crate's serde form.
//!
//! | type | renders as | serde form? | feature |
//! |---|---|---|---|
//! | `rust_decimal::Decimal` | its string, scale kept: `49.99`, `1.50` | yes (default `serde`) | `rust_decimal` |
//! | `chrono::DateTime<Tz>` | RFC 3339, `Z` for UTC, 0, 3, 6 or 9 fraction digits: `2023-12-22T00:00:00.500Z`, `2023-12-22T05:30:00+05:30` | yes | `chrono` |
//! | `chrono::NaiveDate` / `NaiveDateTime` / `NaiveTime` | `2023-12-22` / `2023-12-22T09:30:00` / `09:30:00.250` | yes | `chrono` |
//! | `chrono::TimeDelta` | `1h 30m 5s 250ms` (jiff's friendly form) | no (`[secs, nanos]`) | `chrono` |
//! | `time::OffsetDateTime` | RFC 3339, `Z` for UTC, shortest fraction: `2023-12-22T00:00:00.5Z`, `2023-12-22T05:30:00+05:30` | no | `time` |
//! | `time::UtcDateTime`, `time::Timestamp` | RFC 3339 in UTC: `2023-12-22T00:00:00Z` | no | `time` |
//! | `time::PrimitiveDateTime` / `Date` / `Time` | `2023-12-22T09:30:00` / `2023-12-22` / `09:30:00.25` | no | `time` |
//! | `time::Duration` | `1h 30m 5s 250ms` (jiff's friendly form) | no | `time` |
//! | `url::Url` | its string: `https://example.com/a?b=c` | yes | `url` |
//! | `uuid::Uuid` | hyphenated, lowercase: `67e55044-10b1-426f-9247-bb680e5fe0c8` | yes | `uuid` |
//!
//! Every one is a text value (a string node, a text cell), as its string JSON form would be.
//! `rust_decimal`'s serde form is a string unless its `serde-float` or
//! `serde-arbitrary-precision` feature is on; with those the serde form is a number and the
//! typed rendering (still the string) no longer matches it.

#[cfg(feature = "chrono")]
mod chrono;
#[cfg(feature = "rust_decimal")]
mod rust_decimal;
#[cfg(feature = "time")]
mod time;
#[cfg(feature = "url")]
mod url;
#[cfg(feature = "uuid")]
mod uuid;

/// `impl ToolOutput` for a type rendered as text: `$write` appends the text to a `String`;
/// the node is that text as a string, the JSON form that string, the cell that text.
#[cfg(any(
    feature = "chrono",
    feature = "rust_decimal",
    feature = "time",
    feature = "uuid"
))]
macro_rules! as_text {
    ($(#[$doc:meta])* [$($generics:tt)*] $t:ty, $write:path) => {
        $(#[$doc])*
        impl<$($generics)*> crate::input::ToolOutput for $t {
            fn to_node<'a>(&'a self, _: &crate::input::context::Context<'_>) -> crate::doc::Node<'a> {
                crate::doc::Node::Str(crate::doc::Text::Owned(super::text_of(self, $write)))
            }
            fn to_json(&self) -> serde_json::Value {
                serde_json::Value::String(super::text_of(self, $write))
            }
            fn write_cell(&self, _: &crate::input::context::Context<'_>, out: &mut String) -> crate::doc::Kind {
                $write(self, out);
                crate::doc::Kind::Text
            }
        }
    };
}
#[cfg(any(
    feature = "chrono",
    feature = "rust_decimal",
    feature = "time",
    feature = "uuid"
))]
use as_text;

/// The text `write` appends, as a new `String`.
#[cfg(any(
    feature = "chrono",
    feature = "rust_decimal",
    feature = "time",
    feature = "uuid"
))]
fn text_of<T: ?Sized>(value: &T, write: impl Fn(&T, &mut String)) -> String {
    let mut s = String::new();
    write(value, &mut s);
    s
}

/// Append `value`'s `Display` text.
#[cfg(any(feature = "rust_decimal", feature = "chrono"))]
fn display<T: std::fmt::Display + ?Sized>(value: &T, out: &mut String) {
    use std::fmt::Write;
    // Writing to a `String` cannot fail.
    let _ = write!(out, "{value}");
}

/// Append a signed duration in jiff's friendly form (`1h 30m 5s 250ms`, `0s`), as
/// `std::time::Duration` renders (`src/input/time.rs`), with `-` before a negative one (`-1m 30s`,
/// where jiff's default would write `1m 30s ago`: a duration is not a point in the past).
#[cfg(any(feature = "chrono", feature = "time"))]
fn friendly_duration(secs: i64, nanos: i32, out: &mut String) {
    use jiff::fmt::friendly::{Direction, SpanPrinter};
    static PRINTER: SpanPrinter = SpanPrinter::new().direction(Direction::Sign);
    out.push_str(&PRINTER.duration_to_string(&jiff::SignedDuration::new(secs, nanos)));
}
