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

use crate::doc::{Kind, Node, Text};
use crate::input::ToolOutput;
use crate::input::context::Context;

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

#[cfg(feature = "schemars")]
/// Which std type an object is the serde form of, by its exact keys: `SystemTime` writes
/// `{"secs_since_epoch", "nanos_since_epoch"}`, `Duration` writes `{"secs", "nanos"}`.
fn std_form(keys: &mut dyn Iterator<Item = &str>) -> Option<StdForm> {
    let (Some(a), Some(b), None) = (keys.next(), keys.next(), keys.next()) else {
        return None;
    };
    let mut pair = [a, b];
    pair.sort_unstable();
    match pair {
        ["nanos_since_epoch", "secs_since_epoch"] => Some(StdForm::Instant),
        ["nanos", "secs"] => Some(StdForm::Duration),
        _ => None,
    }
}

#[cfg(feature = "schemars")]
#[derive(Clone, Copy)]
enum StdForm {
    Instant,
    Duration,
}

#[cfg(feature = "schemars")]
impl StdForm {
    /// The seconds and nanoseconds keys.
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            StdForm::Instant => ("secs_since_epoch", "nanos_since_epoch"),
            StdForm::Duration => ("secs", "nanos"),
        }
    }

    /// The text the value renders as (what [`ToolOutput::to_json`] writes).
    fn text(self, secs: u64, nanos: u32) -> String {
        let d = Duration::new(secs, nanos);
        match self {
            StdForm::Instant => match SystemTime::UNIX_EPOCH.checked_add(d) {
                Some(t) => instant_text(&t),
                None => format!("{d:?} after the Unix epoch"),
            },
            StdForm::Duration => duration_text(&d),
        }
    }

    /// The JSON Schema of that text.
    fn schema(self) -> Value {
        match self {
            StdForm::Instant => serde_json::json!({
                "type": "string",
                "format": "date-time",
                "description": "An instant, RFC 3339 in UTC.",
            }),
            StdForm::Duration => serde_json::json!({
                "type": "string",
                "description": "A duration, as `1h 30m 5s 250ms`.",
            }),
        }
    }
}

#[cfg(feature = "schemars")]
/// One form for each value type in text and data: in serialized data (what `serde_json`
/// writes for MCP `structuredContent`), the serde form of a `SystemTime` or `Duration` becomes
/// the text the value renders as (`2023-12-22T00:00:00Z`, `1h 30m 5s 250ms`), at every depth.
/// Walks with its own stack (no recursion on hostile depth).
pub(crate) fn serde_forms_as_text(v: &mut Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let text = v.as_object().and_then(|m| {
            let f = std_form(&mut m.keys().map(String::as_str))?;
            let (s, n) = f.keys();
            let secs = m.get(s)?.as_u64()?;
            let nanos = u32::try_from(m.get(n)?.as_u64()?).ok()?;
            (nanos < 1_000_000_000).then(|| f.text(secs, nanos))
        });
        match (text, v) {
            (Some(text), v) => *v = Value::String(text),
            (None, Value::Object(m)) => stack.extend(m.values_mut()),
            (None, Value::Array(a)) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// The schema side of [`serde_forms_as_text`]: an object schema whose properties are exactly
/// a `SystemTime`'s or `Duration`'s serde form becomes the schema of its text, at every depth
/// (definitions included), so the data stays valid against the declared schema.
#[cfg(feature = "schemars")]
pub(crate) fn serde_form_schemas_as_text(schema: &mut Value) {
    let mut stack = vec![schema];
    while let Some(v) = stack.pop() {
        let form = v.as_object().and_then(|m| {
            let properties = m.get("properties")?.as_object()?;
            (m.get("type")?.as_str()? == "object")
                .then(|| std_form(&mut properties.keys().map(String::as_str)))?
        });
        match (form, v) {
            (Some(f), v) => *v = f.schema(),
            (None, Value::Object(m)) => stack.extend(m.values_mut()),
            (None, Value::Array(a)) => stack.extend(a.iter_mut()),
            _ => {}
        }
    }
}

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

    /// The serde forms in data become the rendered text, at any depth; other objects stay.
    #[cfg(feature = "schemars")]
    #[test]
    fn serde_forms_in_data_as_text() {
        let at = SystemTime::UNIX_EPOCH + Duration::from_millis(1_703_203_200_500);
        let mut data = serde_json::json!({
            "at": at,
            "took": Duration::from_millis(5_405_250),
            "deep": [{"when": SystemTime::UNIX_EPOCH}],
            "other": {"secs": 1, "nanos": 2, "extra": 3},
            "bad": {"secs": 1, "nanos": 2_000_000_000u64},
        });
        serde_forms_as_text(&mut data);
        assert_eq!(
            data,
            serde_json::json!({
                "at": at.to_json(),
                "took": "1h 30m 5s 250ms",
                "deep": [{"when": "1970-01-01T00:00:00Z"}],
                "other": {"secs": 1, "nanos": 2, "extra": 3},
                "bad": {"secs": 1, "nanos": 2_000_000_000u64},
            })
        );
    }
}
