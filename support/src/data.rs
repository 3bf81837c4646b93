//! The bundled datasets, compiled in so tests and examples never read outside the project.

use serde_json::Value;

macro_rules! datasets {
    ($($name:ident => $file:literal),* $(,)?) => {
        /// Every bundled dataset as `(file name, JSON text)`.
        pub const ALL: &[(&str, &str)] = &[
            $(($file, include_str!(concat!("../../examples/data/", $file)))),*
        ];
        $(
            #[doc = concat!("The JSON text of `examples/data/", $file, "`.")]
            pub const $name: &str = include_str!(concat!("../../examples/data/", $file));
        )*
    };
}

datasets! {
    TEAM => "team.json",
    MESSAGE => "message.json",
    LOGS => "logs.json",
    EMPLOYEES_100 => "employees_100.json",
    ROWS_1000 => "rows_1000.json",
    ORDERS_LEGACY => "orders_legacy.json",
    ORDERS_V2 => "orders_v2.json",
    ORDERS_V3 => "orders_v3.json",
    REPOS_100 => "repos_100.json",
    CONTACTS_RAW => "contacts_raw.json",
    CONFIG_NESTED => "config_nested.json",
    ISSUES_30 => "issues_30.json",
    SEARCH_PAGE => "search_page.json",
}

/// Parse a bundled dataset.
///
/// # Panics
/// If the text is not JSON (the bundled files are).
pub fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("bundled dataset is valid JSON")
}
