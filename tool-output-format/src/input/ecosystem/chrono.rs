//! chrono's types (feature `chrono`). `DateTime<Tz>`, `NaiveDate`, `NaiveDateTime` and
//! `NaiveTime` render as the strings chrono's serde impls write: RFC 3339 with `Z` for UTC
//! and a fraction of 0, 3, 6 or 9 digits (`2023-12-22T00:00:00Z`, `2023-12-22T00:00:00.500Z`,
//! `2023-12-22T05:30:00+05:30`), `2023-12-22`, `2023-12-22T09:30:00`, `09:30:00.250`.
//! `TimeDelta`'s serde form is a `[secs, nanos]` pair, not something a model reads well, so
//! it renders like `std::time::Duration`, in jiff's friendly form (`1h 30m 5s 250ms`), and
//! its JSON form is that text, not the pair.

use ::chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, SecondsFormat, TimeDelta, TimeZone};

/// RFC 3339 as chrono's serde impl writes it: local time and offset, `Z` for a zero offset,
/// the fraction with 0, 3, 6 or 9 digits (`AutoSi`).
fn rfc3339<Tz: TimeZone>(t: &DateTime<Tz>, out: &mut String) {
    out.push_str(&t.to_rfc3339_opts(SecondsFormat::AutoSi, true));
}

/// `Debug`, which chrono's serde impls of `NaiveDate` and `NaiveDateTime` write (`Display`
/// puts a space between date and time).
fn debug<T: std::fmt::Debug>(value: &T, out: &mut String) {
    use std::fmt::Write;
    let _ = write!(out, "{value:?}");
}

/// jiff's friendly form of the whole duration, nanoseconds included.
fn time_delta(d: &TimeDelta, out: &mut String) {
    super::friendly_duration(d.num_seconds(), d.subsec_nanos(), out);
}

super::as_text!(
    /// Renders as RFC 3339, exactly as chrono's serde form (`2023-12-22T00:00:00Z`,
    /// `2023-12-22T00:00:00.500Z`, `2023-12-22T05:30:00+05:30`); the JSON form is that
    /// string. Feature `chrono`.
    [Tz: TimeZone] DateTime<Tz>, rfc3339
);
super::as_text!(
    /// Renders as `2023-12-22`, its serde form. Feature `chrono`.
    [] NaiveDate, debug
);
super::as_text!(
    /// Renders as `2023-12-22T09:30:00` (fraction of 0, 3, 6 or 9 digits), its serde form.
    /// Feature `chrono`.
    [] NaiveDateTime, debug
);
super::as_text!(
    /// Renders as `09:30:00` (fraction of 0, 3, 6 or 9 digits), its serde form. Feature
    /// `chrono`.
    [] NaiveTime, super::display
);
super::as_text!(
    /// Renders in jiff's friendly form, `1h 30m 5s 250ms` (`0s` for zero, `-` before a
    /// negative one), like `std::time::Duration`; the JSON form is that text, not chrono's
    /// serde form (a `[secs, nanos]` pair). Feature `chrono`.
    [] TimeDelta, time_delta
);

#[cfg(test)]
mod tests {
    use ::chrono::{DateTime, FixedOffset, NaiveDate, TimeDelta, Utc};
    use serde_json::Value;

    use crate::{Formatter, ToolOutput};

    /// The typed value renders as its serde form, in a record and a table too.
    fn check_serde_form<T: ToolOutput + serde::Serialize>(value: T, want: &str) {
        let fmt = Formatter::new();
        let serde_form = serde_json::to_value(&value).unwrap();
        assert_eq!(serde_form, Value::String(want.to_owned()));
        assert_eq!(value.to_json(), serde_form);
        assert_eq!(fmt.format("t", &value), fmt.format("t", &serde_form));
        let rows = vec![value];
        assert_eq!(
            fmt.format("t", &rows),
            fmt.format("t", &serde_json::to_value(&rows).unwrap())
        );
    }

    #[test]
    fn date_times_as_their_serde_strings() {
        let at: DateTime<Utc> = DateTime::from_timestamp(1_703_203_200, 0).unwrap();
        check_serde_form(at, "2023-12-22T00:00:00Z");
        check_serde_form(
            DateTime::from_timestamp(1_703_203_200, 500_000_000).unwrap(),
            "2023-12-22T00:00:00.500Z",
        );
        check_serde_form(
            DateTime::from_timestamp(1_703_203_200, 123_456_789).unwrap(),
            "2023-12-22T00:00:00.123456789Z",
        );
        let ist = FixedOffset::east_opt(5 * 3600 + 1800).unwrap();
        check_serde_form(at.with_timezone(&ist), "2023-12-22T05:30:00+05:30");
        // A zero fixed offset is `Z`, as in chrono's serde form.
        check_serde_form(
            at.with_timezone(&FixedOffset::east_opt(0).unwrap()),
            "2023-12-22T00:00:00Z",
        );
        let date = NaiveDate::from_ymd_opt(2023, 12, 22).unwrap();
        check_serde_form(date, "2023-12-22");
        check_serde_form(date.and_hms_opt(9, 30, 0).unwrap(), "2023-12-22T09:30:00");
        check_serde_form(
            date.and_hms_micro_opt(9, 30, 0, 250_000).unwrap(),
            "2023-12-22T09:30:00.250",
        );
        check_serde_form(date.and_hms_opt(9, 30, 0).unwrap().time(), "09:30:00");
        check_serde_form(
            date.and_hms_nano_opt(9, 30, 5, 1).unwrap().time(),
            "09:30:05.000000001",
        );
    }

    /// `TimeDelta` renders in the friendly form, not its `[secs, nanos]` serde form.
    #[test]
    fn time_deltas_friendly() {
        let fmt = Formatter::new();
        for (value, want) in [
            (TimeDelta::milliseconds(5_405_250), "1h 30m 5s 250ms"),
            (TimeDelta::zero(), "0s"),
            (TimeDelta::seconds(-90), "-1m 30s"),
            (TimeDelta::nanoseconds(1_500), "1µs 500ns"),
        ] {
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            assert_ne!(serde_json::to_value(value).unwrap(), value.to_json());
            assert_eq!(fmt.format("t", &value), fmt.format("t", want));
        }
    }
}
