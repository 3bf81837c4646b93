//! serde's rename rules, with `serde_derive`'s exact algorithm (`serde_derive/src/internals/
//! case.rs`, 1.0.229), so `rename_all` gives the names `serde_json::to_value` gives.
//!
//! Fields and variants are converted differently, as in serde: a field is assumed to be
//! `snake_case` already, a variant `PascalCase`. Only ASCII letters change case. One
//! deliberate difference: serde slices the first *byte* for `camelCase` (and panics on a
//! non-ASCII first letter); we split at the first *character*, which gives the same result for
//! every name serde accepts.

use self::RenameRule::{
    CamelCase, KebabCase, LowerCase, None, PascalCase, ScreamingKebabCase, ScreamingSnakeCase,
    SnakeCase, UpperCase,
};

/// The eight rules of `rename_all` (plus `None`: no rule).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RenameRule {
    None,
    LowerCase,
    UpperCase,
    PascalCase,
    CamelCase,
    SnakeCase,
    ScreamingSnakeCase,
    KebabCase,
    ScreamingKebabCase,
}

/// The accepted spellings, in serde's order (used in the error message).
pub static RENAME_RULES: &[(&str, RenameRule)] = &[
    ("lowercase", LowerCase),
    ("UPPERCASE", UpperCase),
    ("PascalCase", PascalCase),
    ("camelCase", CamelCase),
    ("snake_case", SnakeCase),
    ("SCREAMING_SNAKE_CASE", ScreamingSnakeCase),
    ("kebab-case", KebabCase),
    ("SCREAMING-KEBAB-CASE", ScreamingKebabCase),
];

impl RenameRule {
    pub fn from_str(s: &str) -> Option<Self> {
        RENAME_RULES.iter().find(|(n, _)| *n == s).map(|&(_, r)| r)
    }

    /// The valid values, for error messages: `"lowercase", "UPPERCASE", ...`.
    pub fn expected() -> String {
        let names: Vec<String> = RENAME_RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
        names.join(", ")
    }

    /// Apply the rule to an enum variant name (assumed `PascalCase`).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            None | PascalCase => variant.to_owned(),
            LowerCase => variant.to_ascii_lowercase(),
            UpperCase => variant.to_ascii_uppercase(),
            CamelCase => lower_first(variant),
            SnakeCase => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            ScreamingSnakeCase => SnakeCase.apply_to_variant(variant).to_ascii_uppercase(),
            KebabCase => SnakeCase.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebabCase => ScreamingSnakeCase
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }

    /// Apply the rule to a struct field name (assumed `snake_case`).
    #[allow(clippy::match_same_arms)] // one arm per rule, as serde_derive's `case.rs` has it
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            None | LowerCase | SnakeCase => field.to_owned(),
            UpperCase => field.to_ascii_uppercase(),
            PascalCase => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            CamelCase => lower_first(&PascalCase.apply_to_field(field)),
            ScreamingSnakeCase => field.to_ascii_uppercase(),
            KebabCase => field.replace('_', "-"),
            ScreamingKebabCase => ScreamingSnakeCase.apply_to_field(field).replace('_', "-"),
        }
    }

    /// This rule, or `other` when this one is `None`.
    pub fn or(self, other: Self) -> Self {
        match self {
            None => other,
            _ => self,
        }
    }
}

/// serde's `s[..1].to_ascii_lowercase() + &s[1..]`, split at a character boundary.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => {
            let mut out = first.to_ascii_lowercase().to_string();
            out.push_str(chars.as_str());
            out
        }
        Option::None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_derive's own test table for variants.
    #[test]
    fn rename_variants() {
        for &(original, lower, upper, camel, snake, screaming, kebab, screaming_kebab) in &[
            (
                "Outcome", "outcome", "OUTCOME", "outcome", "outcome", "OUTCOME", "outcome",
                "OUTCOME",
            ),
            (
                "VeryTasty",
                "verytasty",
                "VERYTASTY",
                "veryTasty",
                "very_tasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ),
            ("A", "a", "A", "a", "a", "A", "a", "A"),
            ("Z42", "z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"),
            // Acronyms: every capital starts a word, as in serde.
            (
                "HTTPStatus",
                "httpstatus",
                "HTTPSTATUS",
                "hTTPStatus",
                "h_t_t_p_status",
                "H_T_T_P_STATUS",
                "h-t-t-p-status",
                "H-T-T-P-STATUS",
            ),
        ] {
            assert_eq!(None.apply_to_variant(original), original);
            assert_eq!(LowerCase.apply_to_variant(original), lower);
            assert_eq!(UpperCase.apply_to_variant(original), upper);
            assert_eq!(PascalCase.apply_to_variant(original), original);
            assert_eq!(CamelCase.apply_to_variant(original), camel);
            assert_eq!(SnakeCase.apply_to_variant(original), snake);
            assert_eq!(ScreamingSnakeCase.apply_to_variant(original), screaming);
            assert_eq!(KebabCase.apply_to_variant(original), kebab);
            assert_eq!(
                ScreamingKebabCase.apply_to_variant(original),
                screaming_kebab
            );
        }
    }

    /// serde_derive's own test table for fields.
    #[test]
    fn rename_fields() {
        for &(original, upper, pascal, camel, screaming, kebab, screaming_kebab) in &[
            (
                "outcome", "OUTCOME", "Outcome", "outcome", "OUTCOME", "outcome", "OUTCOME",
            ),
            (
                "very_tasty",
                "VERY_TASTY",
                "VeryTasty",
                "veryTasty",
                "VERY_TASTY",
                "very-tasty",
                "VERY-TASTY",
            ),
            ("a", "A", "A", "a", "A", "a", "A"),
            ("z42", "Z42", "Z42", "z42", "Z42", "z42", "Z42"),
            // Not snake_case input: kept as serde keeps it.
            (
                "userID_v2",
                "USERID_V2",
                "UserIDV2",
                "userIDV2",
                "USERID_V2",
                "userID-v2",
                "USERID-V2",
            ),
        ] {
            assert_eq!(None.apply_to_field(original), original);
            assert_eq!(LowerCase.apply_to_field(original), original);
            assert_eq!(SnakeCase.apply_to_field(original), original);
            assert_eq!(UpperCase.apply_to_field(original), upper);
            assert_eq!(PascalCase.apply_to_field(original), pascal);
            assert_eq!(CamelCase.apply_to_field(original), camel);
            assert_eq!(ScreamingSnakeCase.apply_to_field(original), screaming);
            assert_eq!(KebabCase.apply_to_field(original), kebab);
            assert_eq!(ScreamingKebabCase.apply_to_field(original), screaming_kebab);
        }
    }

    #[test]
    fn non_ascii_first_letter_does_not_panic() {
        assert_eq!(CamelCase.apply_to_field("étage_deux"), "étageDeux");
        assert_eq!(CamelCase.apply_to_variant("Été"), "Été");
    }

    #[test]
    fn parse_rules() {
        for (name, rule) in RENAME_RULES {
            assert_eq!(RenameRule::from_str(name), Some(*rule));
        }
        assert_eq!(RenameRule::from_str("Camel"), Option::None);
        assert!(RenameRule::expected().starts_with("\"lowercase\", \"UPPERCASE\""));
    }
}
