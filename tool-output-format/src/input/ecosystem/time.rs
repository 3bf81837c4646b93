//! The time crate's types (feature `time`). Their serde forms are tuples or need a format
//! chosen by the user (`time::serde::rfc3339`), not something a model reads well, so they
//! render as text, formatted through jiff (no `formatting` feature of time needed):
//!
//! - instants (`OffsetDateTime`, `UtcDateTime`, `Timestamp`) as RFC 3339, like
//!   `std::time::SystemTime` (`src/input/time.rs`): `2023-12-22T00:00:00Z` in UTC,
//!   `2023-12-22T05:30:00+05:30` with another offset, a fraction of a second only when it is
//!   not zero and with no trailing zeros (`2023-12-22T00:00:00.5Z`);
//! - `PrimitiveDateTime` as `2023-12-22T09:30:00`, `Date` as `2023-12-22`, `Time` as
//!   `09:30:00` (`09:30:00.25`);
//! - `Duration` in jiff's friendly form, like `std::time::Duration`: `1h 30m 5s 250ms`.
//!
//! The JSON form of each (what a registered renderer receives) is that text, not time's
//! serde form. A value outside jiff's years -9999 to 9999 (time's `large-dates` feature)
//! shows time's own `Display` text.

use std::fmt::Write;

use ::time::{Date, Duration, OffsetDateTime, PrimitiveDateTime, Time, Timestamp, UtcDateTime};

/// RFC 3339 of an instant in UTC (jiff's `Timestamp` text), or `fallback` when jiff cannot
/// hold it.
fn utc_instant(nanos: i128, fallback: &dyn std::fmt::Display, out: &mut String) {
    let _ = match jiff::Timestamp::from_nanosecond(nanos) {
        Ok(ts) => write!(out, "{ts}"),
        Err(_) => write!(out, "{fallback}"),
    };
}

/// RFC 3339 with its offset, `Z` when the offset is zero (as time's `Rfc3339` writes it).
fn offset_date_time(t: &OffsetDateTime, out: &mut String) {
    let offset = t.offset();
    if offset.is_utc() {
        return utc_instant(t.unix_timestamp_nanos(), t, out);
    }
    let _ = match (
        jiff::Timestamp::from_nanosecond(t.unix_timestamp_nanos()),
        jiff::tz::Offset::from_seconds(offset.whole_seconds()),
    ) {
        (Ok(ts), Ok(offset)) => write!(out, "{}", ts.display_with_offset(offset)),
        _ => write!(out, "{t}"),
    };
}

fn utc_date_time(t: &UtcDateTime, out: &mut String) {
    utc_instant(t.unix_timestamp_nanos(), t, out);
}

fn timestamp(t: &Timestamp, out: &mut String) {
    utc_instant(t.as_nanoseconds(), &t.to_utc(), out);
}

/// jiff's civil date, when its year fits.
fn civil_date(d: Date) -> Option<jiff::civil::Date> {
    let year = i16::try_from(d.year()).ok()?;
    // Month 1 to 12 and day 1 to 31 always fit an `i8`.
    jiff::civil::Date::new(
        year,
        u8::from(d.month()).cast_signed(),
        d.day().cast_signed(),
    )
    .ok()
}

/// jiff's civil time (every `Time` is one).
fn civil_time(t: Time) -> jiff::civil::Time {
    jiff::civil::Time::constant(
        t.hour().cast_signed(),
        t.minute().cast_signed(),
        t.second().cast_signed(),
        t.nanosecond().cast_signed(),
    )
}

#[allow(clippy::trivially_copy_pass_by_ref)] // the writer signature every impl here shares
fn date(d: &Date, out: &mut String) {
    let _ = match civil_date(*d) {
        Some(civil) => write!(out, "{civil}"),
        None => write!(out, "{d}"),
    };
}

#[allow(clippy::trivially_copy_pass_by_ref)] // the writer signature every impl here shares
fn time_of_day(t: &Time, out: &mut String) {
    let _ = write!(out, "{}", civil_time(*t));
}

fn primitive_date_time(t: &PrimitiveDateTime, out: &mut String) {
    let _ = match civil_date(t.date()) {
        Some(civil) => write!(out, "{}", civil.to_datetime(civil_time(t.time()))),
        None => write!(out, "{t}"),
    };
}

fn duration(d: &Duration, out: &mut String) {
    super::friendly_duration(d.whole_seconds(), d.subsec_nanoseconds(), out);
}

super::as_text!(
    /// Renders as RFC 3339 with its offset (`2023-12-22T05:30:00+05:30`, `Z` for UTC), like
    /// `SystemTime`; the JSON form is that string, not time's serde form. Feature `time`.
    [] OffsetDateTime, offset_date_time
);
super::as_text!(
    /// Renders as RFC 3339 in UTC (`2023-12-22T00:00:00Z`), like `SystemTime`; the JSON form
    /// is that string, not time's serde form. Feature `time`.
    [] UtcDateTime, utc_date_time
);
super::as_text!(
    /// Renders as RFC 3339 in UTC (`2023-12-22T00:00:00Z`), like `SystemTime`; the JSON form
    /// is that string, not time's serde form. Feature `time`.
    [] Timestamp, timestamp
);
super::as_text!(
    /// Renders as `2023-12-22T09:30:00`; the JSON form is that string, not time's serde form.
    /// Feature `time`.
    [] PrimitiveDateTime, primitive_date_time
);
super::as_text!(
    /// Renders as `2023-12-22`; the JSON form is that string, not time's serde form. Feature
    /// `time`.
    [] Date, date
);
super::as_text!(
    /// Renders as `09:30:00` (`09:30:00.25`: a fraction only when not zero, no trailing
    /// zeros); the JSON form is that string, not time's serde form. Feature `time`.
    [] Time, time_of_day
);
super::as_text!(
    /// Renders in jiff's friendly form, `1h 30m 5s 250ms` (`0s` for zero, `-` before a
    /// negative one), like `std::time::Duration`; the JSON form is that text, not time's
    /// serde form. Feature `time`.
    [] Duration, duration
);

#[cfg(test)]
mod tests {
    use ::time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, UtcOffset};
    use serde_json::Value;

    use crate::{Formatter, ToolOutput};

    #[test]
    fn time_values_as_text() {
        let at = OffsetDateTime::from_unix_timestamp(1_703_203_200).unwrap();
        let date = Date::from_calendar_date(2023, Month::December, 22).unwrap();
        let nine_thirty = Time::from_hms(9, 30, 0).unwrap();
        let fmt = Formatter::new();
        let cases: [(&dyn ToolOutput, &str); 14] = [
            (&at, "2023-12-22T00:00:00Z"),
            (
                &(at + Duration::milliseconds(500)),
                "2023-12-22T00:00:00.5Z",
            ),
            (
                &at.to_offset(UtcOffset::from_hms(5, 30, 0).unwrap()),
                "2023-12-22T05:30:00+05:30",
            ),
            (
                &at.to_offset(UtcOffset::from_hms(-8, 0, 0).unwrap()),
                "2023-12-21T16:00:00-08:00",
            ),
            (&at.to_utc(), "2023-12-22T00:00:00Z"),
            (
                &::time::Timestamp::from_seconds(0).unwrap(),
                "1970-01-01T00:00:00Z",
            ),
            (&date, "2023-12-22"),
            (&nine_thirty, "09:30:00"),
            (&Time::from_hms_milli(9, 30, 0, 250).unwrap(), "09:30:00.25"),
            (
                &PrimitiveDateTime::new(date, nine_thirty),
                "2023-12-22T09:30:00",
            ),
            (&Duration::milliseconds(5_405_250), "1h 30m 5s 250ms"),
            (&Duration::ZERO, "0s"),
            (&Duration::seconds(-90), "-1m 30s"),
            (&Duration::nanoseconds(1_500), "1µs 500ns"),
        ];
        for (value, want) in cases {
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            assert_eq!(fmt.format("t", value), fmt.format("t", want));
        }
        // The same text as `SystemTime` for the same instant.
        let system =
            std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_millis(1_703_203_200_500);
        assert_eq!(
            (at + Duration::milliseconds(500)).to_json(),
            system.to_json()
        );
        // In a table, a text cell as the string would be.
        assert_eq!(
            fmt.format("t", &vec![date]),
            fmt.format("t", &vec!["2023-12-22"])
        );
    }
}
