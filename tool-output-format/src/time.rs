//! [`ToolOutput`] for time values: `std::time::SystemTime` and `Duration`, and jiff's
//! `Timestamp`, `ZonedDateTime`, `SignedDuration`, `Span` and `civil::{Date, DateTime, Time}`
//! (jiff is a dependency already, so these need no feature).
//!
//! The serde forms of the std types (`{"secs_since_epoch": ..., "nanos_since_epoch": ...}` and
//! `{"secs": ..., "nanos": ...}`) are not something a model reads well, so they render as
//! text: an instant as RFC 3339 in UTC (`2023-12-22T00:00:00Z`, the form the `Convert` time
//! converters give), a duration in jiff's friendly form (`1h 30m 5s 250ms`). jiff's values
//! render as their `Display` text, which is also their serde form, so a struct deriving both
//! `Serialize` and `ToolOutput` keeps the consistency law. Each JSON form (what a registered
//! renderer receives) is that same string.

use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::build::Context;
use crate::doc::{Kind, Node, Text};
use crate::source::ToolOutput;

/// RFC 3339 in UTC, with a fraction of a second only when it is not zero. An instant outside
/// the years -9999 to 9999 (which jiff does not represent) shows its `Debug` form.
fn instant_text(t: &SystemTime) -> String {
    match jiff::Timestamp::try_from(*t) {
        Ok(ts) => ts.to_string(),
        Err(_) => format!("{t:?}"),
    }
}

/// `1h 30m 5s 250ms`; `0s` for zero. A duration too long for jiff shows its `Debug` form.
fn duration_text(d: &Duration) -> String {
    match jiff::SignedDuration::try_from(*d) {
        Ok(sd) => format!("{sd:#}"),
        Err(_) => format!("{d:?}"),
    }
}

macro_rules! as_text {
    ($t:ty, $text:ident) => {
        impl ToolOutput for $t {
            fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
                Node::Str(Text::Owned($text(self)))
            }
            fn to_json(&self) -> Value {
                Value::String($text(self))
            }
            fn write_cell(&self, _: &Context<'_>, out: &mut String) -> Kind {
                out.push_str(&$text(self));
                Kind::Text
            }
        }
    };
}

/// jiff's `Display`, which its serde impls write too.
fn display_text(v: &impl std::fmt::Display) -> String {
    v.to_string()
}

as_text!(SystemTime, instant_text);
as_text!(Duration, duration_text);
as_text!(jiff::Timestamp, display_text);
as_text!(jiff::ZonedDateTime, display_text);
as_text!(jiff::SignedDuration, display_text);
as_text!(jiff::Span, display_text);
as_text!(jiff::civil::Date, display_text);
as_text!(jiff::civil::DateTime, display_text);
as_text!(jiff::civil::Time, display_text);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Formatter;

    #[test]
    fn instants_and_durations_as_text() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_703_203_200_500);
        let fmt = Formatter::new();
        let cases: [(&dyn ToolOutput, &str); 4] = [
            (&at, "2023-12-22T00:00:00.5Z"),
            (&SystemTime::UNIX_EPOCH, "1970-01-01T00:00:00Z"),
            (&Duration::from_millis(5_405_250), "1h 30m 5s 250ms"),
            (&Duration::ZERO, "0s"),
        ];
        for (value, want) in cases {
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            assert_eq!(fmt.format("t", value), fmt.format("t", want));
        }
    }

    /// jiff's values render as their `Display` text, which equals their serde form.
    #[test]
    fn jiff_values_as_their_serde_text() {
        let ts = jiff::Timestamp::from_second(1_703_203_200).unwrap();
        let fmt = Formatter::new();
        let cases: [(&dyn ToolOutput, Value, &str); 6] = [
            (
                &ts,
                serde_json::to_value(ts).unwrap(),
                "2023-12-22T00:00:00Z",
            ),
            (
                &ts.to_zoned_datetime(jiff::tz::TimeZone::UTC),
                serde_json::to_value(ts.to_zoned_datetime(jiff::tz::TimeZone::UTC)).unwrap(),
                "2023-12-22T00:00:00+00:00[UTC]",
            ),
            (
                &jiff::civil::date(2023, 12, 22),
                serde_json::to_value(jiff::civil::date(2023, 12, 22)).unwrap(),
                "2023-12-22",
            ),
            (
                &jiff::civil::time(9, 30, 0, 0),
                serde_json::to_value(jiff::civil::time(9, 30, 0, 0)).unwrap(),
                "09:30:00",
            ),
            (
                &jiff::SignedDuration::from_secs(90),
                serde_json::to_value(jiff::SignedDuration::from_secs(90)).unwrap(),
                "PT1M30S",
            ),
            (
                &jiff::civil::date(2023, 12, 22).at(9, 30, 0, 0),
                serde_json::to_value(jiff::civil::date(2023, 12, 22).at(9, 30, 0, 0)).unwrap(),
                "2023-12-22T09:30:00",
            ),
        ];
        for (value, serde_form, want) in cases {
            assert_eq!(value.to_json(), serde_form);
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            // Rendered as that string would be.
            assert_eq!(fmt.format("t", value), fmt.format("t", want));
        }
    }
}
