//! Query-focused trimming: the formatter is built once, and each tool call passes the
//! question it is answering, so a long page or log keeps the part about it.
//!
//! Run with `cargo run --example focus`.

use serde_json::json;
use tool_output_format::{Formatter, Layout};

fn main() {
    // Built once, for every call.
    let fmt = Formatter::new().max_chars(400).layout(Layout::Compact);

    // A help page of five sections: two are about the question.
    let page = concat!(
        "# Shipping\nParcels leave the warehouse within two days; tracking numbers arrive by mail.\n\n",
        "# Returns\nUnworn items can be returned within 30 days with the original receipt.\n\n",
        "# Refunds\nA refund reaches your card 5 to 10 days after we receive the item.\n\n",
        "# Gift cards\nGift cards never expire and can be combined with discount codes.\n\n",
        "# Careers\nWe are hiring engineers, designers and support staff in three cities.",
    );
    let md = fmt
        .focus("how do returns and refunds work?")
        .format("fetch_page", page);
    println!("{md}\n");
    assert_eq!(
        md,
        concat!(
            "[Kept 2 of 5 sections relevant to \"how do returns and refunds work?\"]\n\n",
            "```\n",
            "[… 1 section omitted …]\n\n",
            "# Returns\nUnworn items can be returned within 30 days with the original receipt.\n\n",
            "# Refunds\nA refund reaches your card 5 to 10 days after we receive the item.\n\n",
            "[… 2 sections omitted …]\n",
            "```",
        )
    );

    // A table over its row cap keeps its most relevant rows (in the data's order).
    let tickets: Vec<_> = (1..=200)
        .map(|id| {
            let title = match id {
                17 => "Refund not received for order 991",
                120 => "Customer asks about the refund policy",
                _ => "Printer jammed",
            };
            json!({"id": id, "title": title})
        })
        .collect();
    let md = Formatter::new()
        .max_rows(5)
        .layout(Layout::Compact)
        .focus("refund")
        .format("search_tickets", &tickets);
    println!("{md}");
    assert_eq!(
        md,
        "[Kept 2 of 200 rows relevant to \"refund\"]\n\n\
         |id|title|\n|-|-|\n\
         |17|Refund not received for order 991|\n\
         |120|Customer asks about the refund policy|"
    );
}
