//! `#[tool_output(with = "epoch_seconds")]` (and the other named converters): a field's JSON
//! form through the same [`Convert::apply`] that shapes use, so a field and a shaped key read
//! alike.

use serde_json::Value;

use crate::shape::Convert;

/// The field's JSON form converted: each scalar through `converter`, the items of an array
/// one by one (as a shape converts them). A value the converter cannot read (a string for
/// `epoch_seconds`, an object for any converter) is kept unchanged, as in a shape.
#[must_use]
pub fn convert(converter: &Convert, value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| convert(converter, item))
                .collect(),
        ),
        Value::Object(_) => value,
        scalar => converter.apply(&scalar).unwrap_or(scalar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_arrays_and_unreadable_values() {
        let cases = [
            (
                Convert::EpochSeconds,
                json!(1703203200),
                json!("2023-12-22T00:00:00Z"),
            ),
            (
                Convert::EpochMillis,
                json!(1703203200123_i64),
                json!("2023-12-22T00:00:00.123Z"),
            ),
            (
                Convert::Timestamp,
                json!("2023-12-22T02:00:00+02:00"),
                json!("2023-12-22T00:00:00Z"),
            ),
            (Convert::Cents, json!(4999), json!("49.99")),
            (
                Convert::Cents,
                json!([5, null, 100]),
                json!(["0.05", null, "1.00"]),
            ),
            (Convert::EpochSeconds, json!("soon"), json!("soon")),
            (Convert::Cents, json!({"a": 1}), json!({"a": 1})),
        ];
        for (conv, input, want) in cases {
            assert_eq!(convert(&conv, input.clone()), want, "{conv} on {input}");
        }
    }
}
