//! `rust_decimal::Decimal` (feature `rust_decimal`): its string form, scale kept (`49.99`,
//! `1.50`, `-0.001`), which is what `rust_decimal`'s serde impl writes by default. A string,
//! not a number: a JSON number would lose the scale and, past 17 digits, the value.

use ::rust_decimal::Decimal;

super::as_text!(
    /// Renders as its string form (`49.99`), the same text as its default serde form; the
    /// JSON form is that string. Feature `rust_decimal`.
    [] Decimal, super::display
);

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::str::FromStr;

    use ::rust_decimal::Decimal;
    use serde_json::Value;

    use crate::{Formatter, ToolOutput};

    #[test]
    fn decimals_as_their_serde_strings() {
        let fmt = Formatter::new();
        for (value, want) in [
            (Decimal::new(4999, 2), "49.99"),
            (Decimal::from_str("1.50").unwrap(), "1.50"),
            (Decimal::from_str("-0.001").unwrap(), "-0.001"),
            (Decimal::ZERO, "0"),
            (Decimal::MAX, "79228162514264337593543950335"),
        ] {
            let serde_form = serde_json::to_value(value).unwrap();
            assert_eq!(serde_form, Value::String(want.to_owned()));
            assert_eq!(value.to_json(), serde_form);
            assert_eq!(fmt.format("t", &value), fmt.format("t", &serde_form));
            // In a record and a table, as the JSON string renders.
            let rows = vec![value, Decimal::ONE];
            assert_eq!(
                fmt.format("t", &rows),
                fmt.format("t", &serde_json::to_value(&rows).unwrap())
            );
        }
        assert_eq!(
            fmt.format("t", &BTreeMap::from([("total", Decimal::new(4999, 2))])),
            "**t result**\n\n- total: 49.99"
        );
    }
}
