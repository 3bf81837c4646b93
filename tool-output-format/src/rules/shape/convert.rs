//! [`Convert`]: machine encodings to readable ones (epochs and offsets to UTC, cents to
//! amounts, codes to names, one id format).
//!
//! Money and decimals are exact: the number's text (as `serde_json` holds it) is read digit by
//! digit, never through `f64`. Dates and times go through `jiff`.

use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt;

/// A value converter for [`Shape::convert`](super::Shape::convert).
///
/// | converter | reads | gives |
/// |---|---|---|
/// | [`EpochSeconds`](Convert::EpochSeconds) | `1703203200`, `1703203200.5`, `"1703203200"` | `"2023-12-22T00:00:00Z"`, `"2023-12-22T00:00:00.5Z"` |
/// | [`EpochMillis`](Convert::EpochMillis) | `1703203200123` | `"2023-12-22T00:00:00.123Z"` |
/// | [`Timestamp`](Convert::Timestamp) | `"2023-12-22T02:00:00+02:00"`, `"2023-12-22 00:00:00+00:00"`, `"20231222T000000Z"`, `"Fri, 22 Dec 2023 00:00:00 +0000"` | `"2023-12-22T00:00:00Z"` |
/// | [`Cents`](Convert::Cents) | `4999`, `-5`, `"4999"` | `"49.99"`, `"-0.05"` |
/// | [`Fixed(2)`](Convert::Fixed) | `50.1`, `"2.675"`, `7` | `"50.10"`, `"2.68"`, `"7.00"` |
/// | [`map`](Convert::map) | `3`, `"in_transit"` | the paired value, e.g. `"shipped"` |
/// | [`prefix("ORD-")`](Convert::prefix) | `12345`, `"12345"`, `"ORD-12345"` | `"ORD-12345"` |
///
/// Every time converter gives RFC 3339 in UTC with a `Z`, with a fraction of a second only
/// when it is not zero (up to nanoseconds; finer digits are cut, not rounded). A string with
/// no offset (`"2023-12-22 00:00:00"`) names no instant and is not read.
///
/// Null passes through every converter untouched, and so does `""` (an absent value, not a
/// bad one). A value a converter cannot read (`"yesterday"` for `Timestamp`, `49.5` for
/// `Cents`, an object for anything, a value with no pair in a `map`) is kept unchanged and
/// counted in [`ShapeStats::conversions_failed`](super::ShapeStats::conversions_failed).
/// Arrays are transparent: a converter on an array converts each item.
///
/// ```
/// use tool_output_format::Convert;
/// use serde_json::json;
///
/// assert_eq!(Convert::EpochSeconds.apply(&json!(1703203200)), Some(json!("2023-12-22T00:00:00Z")));
/// assert_eq!(Convert::Timestamp.apply(&json!("2023-12-22 05:30:00+05:30")), Some(json!("2023-12-22T00:00:00Z")));
/// assert_eq!(Convert::Cents.apply(&json!(4999)), Some(json!("49.99")));
/// assert_eq!(Convert::Fixed(2).apply(&json!(50.1)), Some(json!("50.10")));
/// assert_eq!(Convert::map([(3, "shipped")]).apply(&json!(3)), Some(json!("shipped")));
/// assert_eq!(Convert::prefix("ORD-").apply(&json!(12345)), Some(json!("ORD-12345")));
/// assert_eq!(Convert::Cents.apply(&json!("n/a")), None); // not readable: kept and counted
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Convert {
    /// Unix seconds (integer, decimal fraction, or a numeric string) to RFC 3339 UTC.
    EpochSeconds,
    /// Unix milliseconds (integer, decimal fraction, or a numeric string) to RFC 3339 UTC.
    EpochMillis,
    /// A date-time string with an offset (RFC 3339, ISO 8601 including the basic form, a space
    /// instead of `T`, an RFC 9557 `[zone]` annotation, or RFC 2822) to RFC 3339 UTC.
    Timestamp,
    /// Integer cents (a number or an integer string) to an exact decimal string with two
    /// decimals: `4999` -> `"49.99"`, `-5` -> `"-0.05"`.
    Cents,
    /// A number or numeric string to a string with exactly this many decimals, rounded half
    /// away from zero on the exact decimal text: `50.1` -> `"50.10"`, `2.675` -> `"2.68"`.
    Fixed(u8),
    /// Value to value; build it with [`Convert::map`].
    Map(ValueMap),
    /// A string or number as a string that starts with this prefix (added only when missing);
    /// build it with [`Convert::prefix`].
    Prefix(String),
}

/// The pairs of a [`Convert::map`]: each key is matched by its text (a string as itself, a
/// number or bool as JSON writes it), so the key `"3"` matches both `3` and `"3"`.
///
/// ```
/// use tool_output_format::Convert;
/// use serde_json::json;
///
/// let status = Convert::map([("3", "shipped")]);
/// assert_eq!(status.apply(&json!(3)), Some(json!("shipped")));
/// assert_eq!(status.apply(&json!("3")), Some(json!("shipped")));
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ValueMap {
    pairs: BTreeMap<String, Value>,
}

impl ValueMap {
    /// The value paired with `key`, if any.
    #[must_use]
    pub(crate) fn get(&self, key: &Value) -> Option<&Value> {
        key_text(key).and_then(|k| self.pairs.get(k.as_ref()))
    }

    /// How many pairs it holds.
    #[must_use]
    pub(crate) fn len(&self) -> usize {
        self.pairs.len()
    }
}

fn key_text(value: &Value) -> Option<std::borrow::Cow<'_, str>> {
    match value {
        Value::String(s) => Some(std::borrow::Cow::Borrowed(s)),
        Value::Number(n) => Some(std::borrow::Cow::Owned(n.to_string())),
        Value::Bool(b) => Some(std::borrow::Cow::Borrowed(if *b {
            "true"
        } else {
            "false"
        })),
        _ => None,
    }
}

impl Convert {
    /// Value to value, e.g. status codes to names. A later pair for the same key replaces an
    /// earlier one. Keys are matched by their text (see [`ValueMap`]); a key that is null,
    /// an array or an object never matches.
    ///
    /// ```
    /// use tool_output_format::Convert;
    /// use serde_json::json;
    ///
    /// let legacy = Convert::map([(1, "pending"), (2, "processing"), (3, "shipped")]);
    /// assert_eq!(legacy.apply(&json!(3)), Some(json!("shipped")));
    /// assert_eq!(legacy.apply(&json!(9)), None); // no pair: kept unchanged and counted
    /// ```
    pub fn map<K, V, I>(pairs: I) -> Convert
    where
        K: Into<Value>,
        V: Into<Value>,
        I: IntoIterator<Item = (K, V)>,
    {
        let mut map = ValueMap::default();
        for (k, v) in pairs {
            if let Some(text) = key_text(&k.into()) {
                map.pairs.insert(text.into_owned(), v.into());
            }
        }
        Convert::Map(map)
    }

    /// A string or number as a string that starts with `prefix`, added only when missing.
    ///
    /// ```
    /// use tool_output_format::Convert;
    /// use serde_json::json;
    ///
    /// let id = Convert::prefix("ORD-");
    /// assert_eq!(id.apply(&json!(12345)), Some(json!("ORD-12345")));
    /// assert_eq!(id.apply(&json!("ORD-12345")), Some(json!("ORD-12345")));
    /// ```
    pub fn prefix(prefix: impl Into<String>) -> Convert {
        Convert::Prefix(prefix.into())
    }

    /// Converts one scalar: `Some(new)` when read, `None` when this converter cannot read it
    /// (the caller keeps the value unchanged and counts it). Null and `""` come back unchanged
    /// (`Some`). Arrays are not walked here: [`Shape`](super::Shape) converts their items.
    ///
    /// ```
    /// use tool_output_format::Convert;
    /// use serde_json::json;
    ///
    /// assert_eq!(Convert::EpochMillis.apply(&json!(1703203200123_i64)), Some(json!("2023-12-22T00:00:00.123Z")));
    /// assert_eq!(Convert::Timestamp.apply(&json!(null)), Some(json!(null)));
    /// assert_eq!(Convert::Timestamp.apply(&json!("2023-12-22")), None);
    /// ```
    pub fn apply(&self, value: &Value) -> Option<Value> {
        match value {
            Value::Null => return Some(Value::Null),
            Value::String(s) if s.is_empty() => return Some(value.clone()),
            _ => {}
        }
        match self {
            Convert::EpochSeconds => epoch(value, 0).map(Value::String),
            Convert::EpochMillis => epoch(value, 3).map(Value::String),
            Convert::Timestamp => timestamp(value.as_str()?).map(Value::String),
            Convert::Cents => {
                let d = Decimal::read(value)?;
                if !d.is_integer() {
                    return None;
                }
                Some(Value::String(d.shift(-2)?.fixed(2)))
            }
            Convert::Fixed(n) => Some(Value::String(Decimal::read(value)?.fixed(*n))),
            Convert::Map(map) => map.get(value).cloned(),
            Convert::Prefix(prefix) => {
                let text = match value {
                    Value::String(s) => std::borrow::Cow::Borrowed(s.as_str()),
                    Value::Number(n) => std::borrow::Cow::Owned(n.to_string()),
                    _ => return None,
                };
                Some(Value::String(if text.starts_with(prefix.as_str()) {
                    text.into_owned()
                } else {
                    format!("{prefix}{text}")
                }))
            }
        }
    }

    /// The name used in shape files and messages: `epoch_seconds`, `fixed`, `map`, ...
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Convert::EpochSeconds => "epoch_seconds",
            Convert::EpochMillis => "epoch_millis",
            Convert::Timestamp => "timestamp",
            Convert::Cents => "cents",
            Convert::Fixed(_) => "fixed",
            Convert::Map(_) => "map",
            Convert::Prefix(_) => "prefix",
        }
    }
}

impl fmt::Display for Convert {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Convert::Fixed(n) => write!(f, "fixed({n})"),
            Convert::Prefix(p) => write!(f, "prefix({p:?})"),
            Convert::Map(m) => write!(f, "map({} pairs)", m.len()),
            other => f.write_str(other.name()),
        }
    }
}

/// Epoch seconds (`unit_digits` 0) or milliseconds (3) to RFC 3339 UTC.
fn epoch(value: &Value, unit_digits: i32) -> Option<String> {
    let seconds = Decimal::read(value)?.shift(-unit_digits)?;
    let (whole, nanos) = seconds.split_seconds()?;
    let ts = jiff::Timestamp::new(whole, nanos).ok()?;
    Some(rfc3339(ts))
}

/// Any date-time string with an offset, to RFC 3339 UTC.
fn timestamp(text: &str) -> Option<String> {
    let ts = text
        .parse::<jiff::Timestamp>()
        .ok()
        .or_else(|| jiff::fmt::rfc2822::parse(text).ok().map(|z| z.timestamp()))?;
    Some(rfc3339(ts))
}

/// `2023-12-22T00:00:00Z`, with the fraction only when it is not zero.
fn rfc3339(ts: jiff::Timestamp) -> String {
    // jiff's Display for Timestamp is RFC 3339 in UTC with `Z` and the shortest fraction.
    ts.to_string()
}

/// An exact decimal: `digits` (ASCII, no sign) times 10^-`scale`.
#[derive(Debug, Clone, PartialEq)]
struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    scale: u32,
}

/// Refuse numbers whose digits would run past this (`1e999999999` must not allocate a
/// gigabyte); no real amount or epoch comes close.
const MAX_DIGITS: usize = 400;

impl Decimal {
    /// A number, or a string holding one (`-12.5`, `1e3`, `+7`), read from its exact text.
    fn read(value: &Value) -> Option<Decimal> {
        match value {
            Value::Number(n) => Decimal::parse(&n.to_string()),
            Value::String(s) => Decimal::parse(s),
            _ => None,
        }
    }

    fn parse(text: &str) -> Option<Decimal> {
        let bytes = text.as_bytes();
        let mut i = 0;
        let negative = match bytes.first() {
            Some(b'-') => {
                i = 1;
                true
            }
            Some(b'+') => {
                i = 1;
                false
            }
            _ => false,
        };
        let mut digits = Vec::new();
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            digits.push(bytes[i]);
            i += 1;
        }
        let int_len = i - start;
        let mut frac_len = 0usize;
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                digits.push(bytes[i]);
                i += 1;
                frac_len += 1;
            }
        }
        if int_len + frac_len == 0 {
            return None;
        }
        let mut exponent: i64 = 0;
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            i += 1;
            let exp_negative = match bytes.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let exp_start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                exponent = exponent
                    .saturating_mul(10)
                    .saturating_add(i64::from(bytes[i] - b'0'));
                i += 1;
            }
            if i == exp_start {
                return None;
            }
            if exp_negative {
                exponent = -exponent;
            }
        }
        if i != bytes.len() || digits.len() > MAX_DIGITS {
            return None;
        }
        // Drop leading zeros (keep the digits at and after the point intact).
        let lead = digits
            .iter()
            .take(int_len)
            .take_while(|&&d| d == b'0')
            .count();
        digits.drain(..lead);
        let scale = i64::try_from(frac_len).ok()?.saturating_sub(exponent);
        let d = Decimal {
            negative,
            digits,
            scale: 0,
        };
        d.with_scale(scale)
    }

    /// Sets the scale from a signed value, appending zeros when it is negative.
    fn with_scale(mut self, scale: i64) -> Option<Decimal> {
        if scale < 0 {
            let zeros = usize::try_from(-scale).ok()?;
            if self.digits.len().saturating_add(zeros) > MAX_DIGITS {
                return None;
            }
            if !self.digits.is_empty() {
                self.digits.extend(std::iter::repeat_n(b'0', zeros));
            }
            self.scale = 0;
        } else {
            let digits = usize::try_from(scale).ok().filter(|&s| s <= MAX_DIGITS)?;
            self.scale = u32::try_from(digits).ok()?;
        }
        Some(self)
    }

    /// Multiplies by 10^`by` (negative: divides), exactly.
    fn shift(self, by: i32) -> Option<Decimal> {
        let scale = i64::from(self.scale) - i64::from(by);
        self.with_scale(scale)
    }

    fn is_integer(&self) -> bool {
        let frac_start = self.digits.len().saturating_sub(self.scale as usize);
        self.digits[frac_start..].iter().all(|&d| d == b'0')
    }

    /// The digits padded with leading zeros so at least one integer digit exists.
    fn padded(&self) -> Vec<u8> {
        let scale = self.scale as usize;
        let mut digits = self.digits.clone();
        if digits.len() <= scale {
            let mut padded = vec![b'0'; scale + 1 - digits.len()];
            padded.extend_from_slice(&digits);
            digits = padded;
        }
        digits
    }

    /// Exactly `n` decimals, rounded half away from zero; never `-0.00`.
    fn fixed(&self, n: u8) -> String {
        let n = usize::from(n);
        let scale = self.scale as usize;
        let mut digits = self.padded();
        if scale > n {
            let cut = digits.len() - (scale - n);
            let round_up = digits[cut] >= b'5';
            digits.truncate(cut);
            if round_up {
                let mut i = digits.len();
                loop {
                    if i == 0 {
                        digits.insert(0, b'1');
                        break;
                    }
                    i -= 1;
                    if digits[i] == b'9' {
                        digits[i] = b'0';
                    } else {
                        digits[i] += 1;
                        break;
                    }
                }
            }
        } else {
            digits.extend(std::iter::repeat_n(b'0', n - scale));
        }
        // Now `digits` holds the value times 10^n; the point goes n from the end.
        let int_len = digits.len() - n;
        let int_part = &digits[..int_len];
        let first_non_zero = int_part.iter().position(|&d| d != b'0');
        let int_part = match first_non_zero {
            Some(at) => &int_part[at..],
            None => &b"0"[..],
        };
        let frac_part = &digits[int_len..];
        let zero = int_part == b"0" && frac_part.iter().all(|&d| d == b'0');
        let mut out = String::with_capacity(int_part.len() + n + 2);
        if self.negative && !zero {
            out.push('-');
        }
        out.extend(int_part.iter().map(|&d| d as char));
        if n > 0 {
            out.push('.');
            out.extend(frac_part.iter().map(|&d| d as char));
        }
        out
    }

    /// Whole seconds and nanoseconds (both carrying the sign), finer digits cut.
    fn split_seconds(&self) -> Option<(i64, i32)> {
        let scale = self.scale as usize;
        let digits = self.padded();
        let int_len = digits.len() - scale;
        let mut whole: i64 = 0;
        for &d in &digits[..int_len] {
            whole = whole.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
        }
        let mut nanos: i32 = 0;
        for i in 0..9 {
            let d = digits.get(int_len + i).map_or(0, |&d| i32::from(d - b'0'));
            nanos = nanos * 10 + d;
        }
        if self.negative {
            Some((-whole, -nanos))
        } else {
            Some((whole, nanos))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn conv(c: &Convert, v: Value) -> Option<Value> {
        c.apply(&v)
    }

    #[test]
    fn epoch_seconds() {
        let c = Convert::EpochSeconds;
        let cases = [
            (json!(1703203200), Some("2023-12-22T00:00:00Z")),
            (json!(0), Some("1970-01-01T00:00:00Z")),
            (json!(-1), Some("1969-12-31T23:59:59Z")),
            (json!(1703203200.5), Some("2023-12-22T00:00:00.5Z")),
            (json!(-0.5), Some("1969-12-31T23:59:59.5Z")),
            (json!("1703203200"), Some("2023-12-22T00:00:00Z")),
            (json!(1.7032032e9), Some("2023-12-22T00:00:00Z")),
            (
                json!("1703203200.123456789999"),
                Some("2023-12-22T00:00:00.123456789Z"),
            ),
            (json!(1703203200.0), Some("2023-12-22T00:00:00Z")),
            // jiff's range ends at 9999-12-30T22:00:00.999999999Z (room for any offset).
            (json!(253402207200_i64), Some("9999-12-30T22:00:00Z")),
            (json!(253402207201_i64), None),
            (json!(u64::MAX), None),
            (json!("soon"), None),
            (json!(" 1703203200"), None),
            (json!(true), None),
            (json!({"s": 1}), None),
        ];
        for (input, want) in cases {
            assert_eq!(conv(&c, input.clone()), want.map(|w| json!(w)), "{input}");
        }
    }

    #[test]
    fn epoch_millis() {
        let c = Convert::EpochMillis;
        let cases = [
            (json!(1703203200000_i64), Some("2023-12-22T00:00:00Z")),
            (json!(1703203200123_i64), Some("2023-12-22T00:00:00.123Z")),
            (json!(1703203200100_i64), Some("2023-12-22T00:00:00.1Z")),
            (json!(1703203200000.5), Some("2023-12-22T00:00:00.0005Z")),
            (json!(-1), Some("1969-12-31T23:59:59.999Z")),
            (json!("1703203200000"), Some("2023-12-22T00:00:00Z")),
            (json!("1.7e12"), Some("2023-11-14T22:13:20Z")),
            (json!("12a"), None),
        ];
        for (input, want) in cases {
            assert_eq!(conv(&c, input.clone()), want.map(|w| json!(w)), "{input}");
        }
    }

    #[test]
    fn timestamps_any_offset_to_utc() {
        let c = Convert::Timestamp;
        let cases = [
            ("2023-12-22T00:00:00Z", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22t00:00:00z", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22 00:00:00+00:00", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22T02:00:00+02:00", Some("2023-12-22T00:00:00Z")),
            ("2023-12-21T19:00:00-05:00", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22 05:30:00+05:30", Some("2023-12-22T00:00:00Z")),
            (
                "2023-12-22T00:00:00.250+00:00",
                Some("2023-12-22T00:00:00.25Z"),
            ),
            ("2023-12-22T00:00:00.000Z", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22T00:00:00,5Z", Some("2023-12-22T00:00:00.5Z")),
            ("20231222T000000Z", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22T01:00:00+0100", Some("2023-12-22T00:00:00Z")),
            ("2023-12-22T01:00+01:00", Some("2023-12-22T00:00:00Z")),
            (
                "2023-12-22T01:00:00+01:00[Europe/Paris]",
                Some("2023-12-22T00:00:00Z"),
            ),
            (
                "Fri, 22 Dec 2023 00:00:00 +0000",
                Some("2023-12-22T00:00:00Z"),
            ),
            (
                "Fri, 22 Dec 2023 01:00:00 +0100",
                Some("2023-12-22T00:00:00Z"),
            ),
            ("2024-02-29T23:59:60Z", Some("2024-02-29T23:59:59Z")),
            // No offset: no instant. Not a date at all. Impossible dates.
            ("2023-12-22T00:00:00", None),
            ("2023-12-22 00:00:00", None),
            ("2023-12-22", None),
            ("yesterday", None),
            ("2023-02-30T00:00:00Z", None),
            ("2023-12-22T25:00:00Z", None),
        ];
        for (input, want) in cases {
            assert_eq!(conv(&c, json!(input)), want.map(|w| json!(w)), "{input}");
        }
        assert_eq!(
            conv(&c, json!(1703203200)),
            None,
            "numbers are for EpochSeconds"
        );
    }

    #[test]
    fn cents_exact() {
        let c = Convert::Cents;
        let cases = [
            (json!(4999), Some("49.99")),
            (json!(5), Some("0.05")),
            (json!(0), Some("0.00")),
            (json!(-5), Some("-0.05")),
            (json!(-4999), Some("-49.99")),
            (json!(100), Some("1.00")),
            (json!(162518), Some("1625.18")),
            (json!(u64::MAX), Some("184467440737095516.15")),
            (json!(i64::MIN), Some("-92233720368547758.08")),
            (json!("4999"), Some("49.99")),
            (json!("-0"), Some("0.00")),
            (json!(4999.0), Some("49.99")),
            (json!(1e3), Some("10.00")),
            (json!(49.5), None),
            (json!("49.99"), None),
            (json!("$49.99"), None),
            (json!("1e999999"), None),
            (json!(false), None),
        ];
        for (input, want) in cases {
            assert_eq!(conv(&c, input.clone()), want.map(|w| json!(w)), "{input}");
        }
    }

    #[test]
    fn fixed_exact_rounding() {
        let cases = [
            (2, json!(50.1), Some("50.10")),
            (2, json!(49.99), Some("49.99")),
            (2, json!(1897.0), Some("1897.00")),
            (2, json!(7), Some("7.00")),
            (2, json!("2.675"), Some("2.68")), // f64 2.675 is 2.67499…: text rounding is exact
            (2, json!(2.675), Some("2.68")),
            (2, json!(1.005), Some("1.01")),
            (2, json!("-2.675"), Some("-2.68")),
            (2, json!("-0.001"), Some("0.00")),
            (2, json!("9.999"), Some("10.00")),
            (2, json!("-9.995"), Some("-10.00")),
            (2, json!(".5"), Some("0.50")),
            (2, json!("5."), Some("5.00")),
            (2, json!("0001.5"), Some("1.50")),
            (2, json!("+1.5"), Some("1.50")),
            (2, json!(1e-7), Some("0.00")),
            (2, json!("1.5e2"), Some("150.00")),
            (2, json!("1e21"), Some("1000000000000000000000.00")),
            (0, json!(2.5), Some("3")),
            (0, json!(-2.5), Some("-3")),
            (0, json!(0.4), Some("0")),
            (3, json!("0.1"), Some("0.100")),
            (2, json!("12,5"), None),
            (2, json!("1.2.3"), None),
            (2, json!("-"), None),
            (2, json!("."), None),
            (2, json!("1e"), None),
            (2, json!("NaN"), None),
            (2, json!([1]), None),
        ];
        for (n, input, want) in cases {
            assert_eq!(
                conv(&Convert::Fixed(n), input.clone()),
                want.map(|w| json!(w)),
                "{n} {input}"
            );
        }
    }

    #[test]
    fn map_and_prefix() {
        let status = Convert::map([(1, "pending"), (3, "shipped")]);
        assert_eq!(conv(&status, json!(3)), Some(json!("shipped")));
        assert_eq!(conv(&status, json!("3")), Some(json!("shipped")));
        assert_eq!(
            conv(&status, json!(3.0)),
            None,
            "3.0 is written `3.0`, not `3`"
        );
        assert_eq!(conv(&status, json!(7)), None);
        let v3 = Convert::map([("in_transit", json!("shipped")), ("flag", json!(true))]);
        assert_eq!(conv(&v3, json!("in_transit")), Some(json!("shipped")));
        assert_eq!(conv(&v3, json!("flag")), Some(json!(true)));
        let bools = Convert::map([(true, "yes")]);
        assert_eq!(conv(&bools, json!(true)), Some(json!("yes")));
        assert_eq!(conv(&bools, json!("true")), Some(json!("yes")));

        let id = Convert::prefix("ORD-");
        assert_eq!(conv(&id, json!(12345)), Some(json!("ORD-12345")));
        assert_eq!(conv(&id, json!("12345")), Some(json!("ORD-12345")));
        assert_eq!(conv(&id, json!("ORD-12345")), Some(json!("ORD-12345")));
        assert_eq!(conv(&id, json!("ord-1")), Some(json!("ORD-ord-1")));
        assert_eq!(conv(&id, json!(-1.5)), Some(json!("ORD--1.5")));
        assert_eq!(conv(&id, json!(true)), None);
    }

    #[test]
    fn null_and_empty_pass_through_every_converter() {
        let all = [
            Convert::EpochSeconds,
            Convert::EpochMillis,
            Convert::Timestamp,
            Convert::Cents,
            Convert::Fixed(2),
            Convert::map([(1, 2)]),
            Convert::prefix("x"),
        ];
        for c in &all {
            assert_eq!(conv(c, json!(null)), Some(json!(null)), "{c}");
            assert_eq!(conv(c, json!("")), Some(json!("")), "{c}");
            assert_eq!(conv(c, json!({})), None, "{c}");
        }
    }

    #[test]
    fn no_input_panics() {
        let all = [
            Convert::EpochSeconds,
            Convert::EpochMillis,
            Convert::Timestamp,
            Convert::Cents,
            Convert::Fixed(0),
            Convert::Fixed(3),
            Convert::Fixed(255),
            Convert::prefix("P"),
        ];
        let alphabet: Vec<char> = "0123456789.-+eE :TZz,".chars().collect();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 14) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            for c in &all {
                let _ = c.apply(&json!(text));
            }
        }
        let edges = [
            "1e9223372036854775807",
            "1e-9223372036854775807",
            "1e99999999999999999999999",
            "-1e-99999999999999999999999",
            "0.",
        ];
        let long = "9".repeat(401);
        for text in edges.into_iter().chain([long.as_str()]) {
            for c in &all {
                let _ = c.apply(&json!(text));
            }
        }
        for n in [
            json!(f64::MAX),
            json!(f64::MIN_POSITIVE),
            json!(i64::MIN),
            json!(u64::MAX),
        ] {
            for c in &all {
                let _ = c.apply(&n);
            }
        }
        assert_eq!(
            Convert::Fixed(2).apply(&json!(f64::MIN_POSITIVE)),
            Some(json!("0.00"))
        );
        assert_eq!(Convert::Cents.apply(&json!("1e-9223372036854775807")), None);
    }
}
