//! The row type and data the benchmarks share (a folder, so cargo does not take it for a
//! bench target of its own).

use serde::{Deserialize, Serialize};
use tabled::Tabled;
use tof_support::data;
use tool_output_format::ToolOutput;

/// One row of `rows_1000.json` (10 fields).
#[derive(Clone, Serialize, Deserialize, ToolOutput, Tabled)]
pub struct Row {
    pub id: u64,
    sku: String,
    title: String,
    price: f64,
    qty: u32,
    in_stock: bool,
    warehouse: String,
    updated: String,
    rating: f64,
    #[tabled(display = "join")]
    tags: Vec<String>,
}

/// tabled needs `Display` cells: the tags joined as our cell rules join them.
pub fn join(tags: &[String]) -> String {
    tags.join(", ")
}

/// `rows_1000.json` repeated to `n` rows, ids renumbered.
pub fn rows(n: usize) -> Vec<Row> {
    let base: Vec<Row> = serde_json::from_str(data::ROWS_1000).expect("rows_1000.json");
    (0..n)
        .map(|i| {
            let mut r = base[i % base.len()].clone();
            r.id = i as u64;
            r
        })
        .collect()
}
