//! `uuid::Uuid` (feature `uuid`): hyphenated and lowercase
//! (`67e55044-10b1-426f-9247-bb680e5fe0c8`), the string its serde impl writes to JSON. No
//! serde feature of uuid is needed.

use ::uuid::Uuid;

/// Append the hyphenated lowercase form, without allocating.
fn hyphenated(id: &Uuid, out: &mut String) {
    out.push_str(id.hyphenated().encode_lower(&mut Uuid::encode_buffer()));
}

super::as_text!(
    /// Renders hyphenated and lowercase (`67e55044-10b1-426f-9247-bb680e5fe0c8`), as its serde
    /// form; the JSON form is that string. Feature `uuid` (uuid's `serde` feature not needed).
    [] Uuid, hyphenated
);

#[cfg(test)]
mod tests {
    use ::uuid::Uuid;
    use serde_json::Value;

    use crate::{Formatter, ToolOutput};

    #[test]
    fn uuids_hyphenated_lowercase() {
        let fmt = Formatter::new();
        for (value, want) in [
            (
                Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
                "67e55044-10b1-426f-9247-bb680e5fe0c8",
            ),
            (Uuid::nil(), "00000000-0000-0000-0000-000000000000"),
            (Uuid::max(), "ffffffff-ffff-ffff-ffff-ffffffffffff"),
        ] {
            assert_eq!(value.to_json(), Value::String(want.to_owned()));
            // uuid's serde form (its `serde` feature is on for these tests only).
            assert_eq!(serde_json::to_value(value).unwrap(), value.to_json());
            assert_eq!(fmt.format("t", &value), fmt.format("t", want));
            let rows = vec![value];
            assert_eq!(fmt.format("t", &rows), fmt.format("t", &vec![want]));
        }
    }
}
