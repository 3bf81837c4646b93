//! A derived struct whose fields have no `ToolOutput` impl of their own: `SystemTime`, a
//! `Uuid` (serialized as a string; with the `uuid` feature, which the workspace's tests turn
//! on, its own impl renders the same text), a user's `Serialize`-only struct, a `Money(u64)`
//! newtype deriving `ToolOutput`, and a Unix-seconds field through `with = "epoch_seconds"`.

use std::time::{Duration, UNIX_EPOCH};

use tool_output_format::{Formatter, ToolOutput};

#[derive(serde::Serialize)]
struct Customer {
    name: &'static str,
    vip: bool,
}

#[derive(ToolOutput)]
struct Money(#[tool_output(with = "cents")] u64);

#[derive(ToolOutput)]
struct Invoice {
    id: uuid::Uuid,
    issued: std::time::SystemTime,
    #[tool_output(with = "epoch_seconds")]
    due: i64,
    total: Money,
    customer: Customer,
}

fn main() {
    let invoice = Invoice {
        id: uuid::Uuid::from_u128(0x67e5_5044_10b1_426f_9247_bb68_0e5f_e0c8),
        issued: UNIX_EPOCH + Duration::from_secs(1_703_203_200),
        due: 1_705_881_600,
        total: Money(4999),
        customer: Customer { name: "Ada", vip: true },
    };
    let fmt = Formatter::new();
    assert_eq!(
        fmt.format("get_invoice", &invoice),
        "**get_invoice result**

- id: 67e55044-10b1-426f-9247-bb680e5fe0c8
- issued: 2023-12-22T00:00:00Z
- due: 2024-01-22T00:00:00Z
- total: 49.99
- customer:
  - name: Ada
  - vip: true"
    );
    assert_eq!(
        fmt.format("list_invoices", &vec![invoice]),
        "\
| id | issued | due | total | customer |
|---|---|---|---|---|
| 67e55044-10b1-426f-9247-bb680e5fe0c8 | 2023-12-22T00:00:00Z | 2024-01-22T00:00:00Z | 49.99 | {\"name\":\"Ada\",\"vip\":true} |"
    );
}
