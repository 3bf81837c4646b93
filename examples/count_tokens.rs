//! Count o200k tokens: reads standard input, splits it into documents at each ASCII record
//! separator (`\x1e`), and prints one count per document, one per line. Used by
//! `benches/record_layouts.py` to measure record layouts that are not built (yet) without
//! leaving the tokenizer of the token report.
//!
//! ```text
//! printf 'a b\x1ec' | cargo run --release -q --example count_tokens
//! ```

use std::io::Read;

use tool_output_format::{O200k, TokenCounter};

fn main() {
    let mut input = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut input) {
        eprintln!("count_tokens: standard input is not UTF-8 text ({e})");
        std::process::exit(1);
    }
    for doc in input.split('\x1e') {
        println!("{}", O200k.count(doc));
    }
}
