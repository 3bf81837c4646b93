//! A customer-support agent's tools returning typed results, rendered with
//! `#[derive(ToolOutput)]`: `rename`, `skip`, `max_chars`, `with` normalisers and `flatten`.
//!
//! Run with `cargo run --example typed`.

use tool_output_format::{Formatter, ToolOutput};

/// `with` normaliser: Unix epoch seconds -> ISO 8601 date (`2026-11-01`).
fn iso_date(epoch_secs: &i64) -> String {
    // Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar, UTC).
    let z = epoch_secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `with` normaliser: integer cents -> `49.99`.
fn money(cents: &u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Shared by both tools and flattened into each: same names for the same concept everywhere.
#[derive(ToolOutput)]
struct Contact {
    email: String,
    phone: Option<String>,
}

#[derive(ToolOutput, Clone, Copy)]
#[tool_output(rename_all = "snake_case")]
#[allow(dead_code)]
enum Plan {
    Free,
    Pro,
    Enterprise,
}

/// What `get_customer` returns.
#[derive(ToolOutput)]
#[tool_output(title = "Customer")]
struct Customer {
    #[tool_output(rename = "customer_id")]
    id: u64,
    name: String,
    plan: Plan,
    #[tool_output(flatten)]
    contact: Contact,
    #[tool_output(with = "iso_date")]
    customer_since: i64,
    /// Free text written by earlier agents: keep it short for the model.
    #[tool_output(max_chars = 60)]
    notes: String,
    /// Never shown to the model.
    #[tool_output(skip)]
    #[allow(dead_code)]
    password_hash: String,
}

#[derive(ToolOutput, Clone, Copy)]
#[tool_output(rename_all = "SCREAMING_SNAKE_CASE")]
enum OrderStatus {
    Paid,
    Shipped,
    RefundRequested,
}

/// One row of `list_orders`.
#[derive(ToolOutput)]
#[tool_output(max_rows = 4)]
struct Order {
    #[tool_output(rename = "order_id")]
    id: String,
    #[tool_output(with = "iso_date", rename = "placed")]
    placed_at: i64,
    status: OrderStatus,
    #[tool_output(with = "money", rename = "total_usd")]
    total_cents: u64,
    #[tool_output(max_chars = 24)]
    items: Vec<String>,
}

fn get_customer() -> Customer {
    Customer {
        id: 40_112,
        name: "Ada Lovelace".into(),
        plan: Plan::Pro,
        contact: Contact {
            email: "ada@example.com".into(),
            phone: None,
        },
        customer_since: 1_700_000_000,
        notes: "VIP since 2023. Prefers email. Asked twice about the | pipe in invoice \
                numbers; escalate billing questions to tier 2."
            .into(),
        password_hash: "$argon2id$v=19$...".into(),
    }
}

fn list_orders() -> Vec<Order> {
    let statuses = [
        OrderStatus::Paid,
        OrderStatus::Shipped,
        OrderStatus::RefundRequested,
    ];
    (0u64..6)
        .map(|i| Order {
            id: format!("ord_{:04}", 1000 + i),
            placed_at: 1_790_000_000 + i as i64 * 86_400 * 9,
            status: statuses[i as usize % 3],
            total_cents: 4_999 + i * 1_250,
            items: match i % 3 {
                0 => vec!["USB-C cable".into()],
                1 => vec!["Keyboard".into(), "Wrist rest".into()],
                _ => vec!["Monitor arm".into(), "Desk lamp".into(), "Webcam".into()],
            },
        })
        .collect()
}

fn main() {
    let fmt = Formatter::new();
    let customer = get_customer();
    let orders = list_orders();
    println!(
        "## get_customer\n\n{}\n",
        fmt.format("get_customer", &customer)
    );
    println!("## list_orders\n\n{}\n", fmt.format("list_orders", &orders));
    // A registered renderer receives the JSON form; `with` applies there too.
    let fmt = fmt.register("get_customer", |v: &serde_json::Value| {
        let field = |k: &str| v[k].as_str().unwrap_or("?").to_owned();
        format!(
            "{} <{}>, customer since {}",
            field("name"),
            field("email"),
            field("customer_since")
        )
    });
    println!(
        "## get_customer (custom renderer)\n\n{}",
        fmt.format("get_customer", &customer)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cargo test` runs the example end to end.
    #[test]
    fn runs() {
        super::main()
    }

    #[test]
    fn normalisers() {
        assert_eq!(iso_date(&0), "1970-01-01");
        assert_eq!(iso_date(&1_700_000_000), "2023-11-14");
        assert_eq!(iso_date(&-86_400), "1969-12-31");
        assert_eq!(money(&4_999), "49.99");
        assert_eq!(money(&5), "0.05");
    }

    #[test]
    fn renders() {
        let fmt = Formatter::new();
        assert_eq!(
            fmt.format("get_customer", &get_customer()),
            "**Customer**\n\n\
             - customer_id: 40112\n\
             - name: Ada Lovelace\n\
             - plan: pro\n\
             - email: ada@example.com\n\
             - phone:\n\
             - customer_since: 2023-11-14\n\
             - notes: VIP since 2023. Prefers email. Asked twice about the \\| pipe …[+57 chars]"
        );
        let md = fmt.format("list_orders", &list_orders());
        assert!(md.starts_with("[Truncated to 4 rows of 6 total]\n\n| order_id | placed "));
    }
}
