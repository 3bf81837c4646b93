//! Issue 20's "field types that just work": a derived struct with a `SystemTime`, a
//! `uuid::Uuid`, a `rust_decimal::Decimal`, a `chrono::DateTime<Utc>`, a `url::Url` (each
//! through its `ToolOutput` impl, features `uuid`, `rust_decimal`, `chrono`, `url`), a
//! `Money(u64)` newtype deriving `ToolOutput` and a Unix-seconds field through
//! `with = "epoch_seconds"`, rendered as one record and as a table row.

use std::str::FromStr;
use std::time::{Duration, UNIX_EPOCH};

use tool_output_format::{Formatter, ToolOutput};

#[derive(ToolOutput)]
struct Money(#[tool_output(with = "cents")] u64);

#[derive(ToolOutput)]
struct Invoice {
    id: uuid::Uuid,
    issued: std::time::SystemTime,
    #[tool_output(with = "epoch_seconds")]
    due: i64,
    total: Money,
    tax: rust_decimal::Decimal,
    paid_at: chrono::DateTime<chrono::Utc>,
    link: url::Url,
}

fn main() {
    let invoice = Invoice {
        id: uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        issued: UNIX_EPOCH + Duration::from_secs(1_703_203_200),
        due: 1_705_881_600,
        total: Money(4999),
        tax: rust_decimal::Decimal::from_str("9.50").unwrap(),
        paid_at: chrono::DateTime::from_timestamp(1_703_289_600, 250_000_000).unwrap(),
        link: url::Url::parse("https://billing.example.com/invoices/42").unwrap(),
    };
    let fmt = Formatter::new();
    assert_eq!(
        fmt.format("get_invoice", &invoice),
        "**get_invoice result**

- id: 67e55044-10b1-426f-9247-bb680e5fe0c8
- issued: 2023-12-22T00:00:00Z
- due: 2024-01-22T00:00:00Z
- total: 49.99
- tax: 9.50
- paid_at: 2023-12-23T00:00:00.250Z
- link: https://billing.example.com/invoices/42"
    );
    assert_eq!(
        fmt.format("list_invoices", &vec![invoice]),
        "\
| id | issued | due | total | tax | paid_at | link |
|---|---|---|---|---|---|---|
| 67e55044-10b1-426f-9247-bb680e5fe0c8 | 2023-12-22T00:00:00Z | 2024-01-22T00:00:00Z | 49.99 | 9.50 | 2023-12-23T00:00:00.250Z | https://billing.example.com/invoices/42 |"
    );
}
