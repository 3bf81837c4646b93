//! o200k token counts of every bundled dataset in JSON (pretty and compact), TOON, our
//! aligned and compact markdown and our CSV layout, with ratios to JSON compact and to TOON,
//! as a markdown table; then a TSV variant of the uniform tables next to CSV.
//!
//! Run with `cargo run --release --example token_report`.
//!
//! The markdown is rendered with `max_lines(usize::MAX)` (which also lifts the row cap), so
//! nothing is cut and every format holds the same data; the tool name is empty, so records
//! carry no `**{tool} result**` title line. JSON is `serde_json::to_string_pretty` /
//! `to_string`, TOON is `toon_format::encode_default`, tokens are counted with
//! [`tool_output_format::O200k`] (tiktoken-rs, o200k_base).

use serde_json::Value;
use tool_output_format::{Formatter, Layout, O200k, TokenCounter};

/// Every bundled dataset as `(file name, JSON text)`.
const ALL: &[(&str, &str)] = &[
    ("team.json", include_str!("data/team.json")),
    ("message.json", include_str!("data/message.json")),
    ("logs.json", include_str!("data/logs.json")),
    (
        "employees_100.json",
        include_str!("data/employees_100.json"),
    ),
    ("rows_1000.json", include_str!("data/rows_1000.json")),
    (
        "orders_legacy.json",
        include_str!("data/orders_legacy.json"),
    ),
    ("orders_v2.json", include_str!("data/orders_v2.json")),
    ("orders_v3.json", include_str!("data/orders_v3.json")),
    ("repos_100.json", include_str!("data/repos_100.json")),
    ("contacts_raw.json", include_str!("data/contacts_raw.json")),
    (
        "config_nested.json",
        include_str!("data/config_nested.json"),
    ),
];

/// Token counts of one dataset in every format.
struct Counts {
    name: &'static str,
    shape: String,
    json_pretty: usize,
    json_compact: usize,
    toon: usize,
    md_aligned: usize,
    md_compact: usize,
    csv: usize,
    /// Uniform tables only.
    tsv: Option<usize>,
}

/// True for a list of records with the same keys in the same order and only scalar values
/// (strings, numbers, booleans, null): the uniform tables the token targets are about.
fn is_uniform_table(v: &serde_json::Value) -> bool {
    let Some(items) = v.as_array() else {
        return false;
    };
    let Some(first) = items.first().and_then(|i| i.as_object()) else {
        return false;
    };
    items.iter().all(|i| {
        i.as_object().is_some_and(|m| {
            m.keys().eq(first.keys()) && m.values().all(|x| !x.is_array() && !x.is_object())
        })
    })
}

fn shape(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(items) if is_uniform_table(v) => {
            format!("uniform table, {} rows", items.len())
        }
        serde_json::Value::Array(items) if items.iter().all(|i| i.is_object()) => {
            let nested = items
                .iter()
                .filter_map(|i| i.as_object())
                .flat_map(|m| m.values())
                .any(|x| x.is_object());
            let cells = if nested { "objects" } else { "lists" };
            format!("table with {cells} in cells, {} rows", items.len())
        }
        serde_json::Value::Array(items) => format!("list of {}", items.len()),
        serde_json::Value::Object(m) => format!("record, {} keys", m.len()),
        serde_json::Value::String(s) => format!("string, {} lines", s.lines().count()),
        _ => "scalar".to_owned(),
    }
}

fn count(name: &'static str, text: &str) -> Counts {
    let value: serde_json::Value = serde_json::from_str(text).expect("bundled data is JSON");
    let tokens = |s: &str| O200k.count(s);
    let md = |layout| {
        Formatter::new()
            .max_lines(usize::MAX)
            .layout(layout)
            .format("", &value)
    };
    Counts {
        name,
        shape: shape(&value),
        json_pretty: tokens(&serde_json::to_string_pretty(&value).expect("JSON")),
        json_compact: tokens(&serde_json::to_string(&value).expect("JSON")),
        toon: tokens(&toon_format::encode_default(&value).expect("TOON")),
        md_aligned: tokens(&md(Layout::Aligned)),
        md_compact: tokens(&md(Layout::Compact)),
        csv: tokens(&md(Layout::Csv)),
        tsv: is_uniform_table(&value).then(|| tokens(&delimited(&value, b'\t'))),
    }
}

/// A uniform table as delimiter-separated values (header, then rows; cells as the table
/// writes them: null empty, strings raw, numbers and booleans as serde_json writes them).
fn delimited(v: &Value, delimiter: u8) -> String {
    let items = v.as_array().expect("a uniform table");
    let mut w = csv::WriterBuilder::new()
        .delimiter(delimiter)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let cell = |x: &Value| match x {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        x => x.to_string(),
    };
    if let Some(first) = items.first().and_then(Value::as_object) {
        w.write_record(first.keys()).expect("in memory");
    }
    for item in items.iter().filter_map(Value::as_object) {
        w.write_record(item.values().map(cell)).expect("in memory");
    }
    let mut text = String::from_utf8(w.into_inner().expect("in memory")).expect("UTF-8");
    text.pop();
    text
}

fn ratio(a: usize, b: usize) -> String {
    format!("{:.2}x", a as f64 / b as f64)
}

/// The report for some datasets, as a markdown table.
fn report(datasets: &[(&'static str, &str)]) -> String {
    let mut out = String::from(
        "| dataset | shape | JSON pretty | JSON compact | TOON | md aligned | md compact | CSV \
         | compact / JSON compact | compact / TOON | CSV / TOON | aligned / JSON compact |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = [0usize; 6];
    let mut uniform = [0usize; 6];
    let mut tsv = Vec::new();
    for &(name, text) in datasets {
        let c = count(name, text);
        let n = [
            c.json_pretty,
            c.json_compact,
            c.toon,
            c.md_aligned,
            c.md_compact,
            c.csv,
        ];
        for (t, x) in total.iter_mut().zip(n) {
            *t += x;
        }
        if c.shape.starts_with("uniform") {
            for (t, x) in uniform.iter_mut().zip(n) {
                *t += x;
            }
        }
        if let Some(t) = c.tsv {
            tsv.push((c.name, c.csv, t, c.toon, c.md_compact));
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.name.trim_end_matches(".json"),
            c.shape,
            c.json_pretty,
            c.json_compact,
            c.toon,
            c.md_aligned,
            c.md_compact,
            c.csv,
            ratio(c.md_compact, c.json_compact),
            ratio(c.md_compact, c.toon),
            ratio(c.csv, c.toon),
            ratio(c.md_aligned, c.json_compact),
        ));
    }
    for (label, [jp, jc, toon, al, co, csv]) in [("uniform tables", uniform), ("all", total)] {
        if jc == 0 {
            continue;
        }
        out.push_str(&format!(
            "| **{label}** | | {jp} | {jc} | {toon} | {al} | {co} | {csv} | {} | {} | {} | {} |\n",
            ratio(co, jc),
            ratio(co, toon),
            ratio(csv, toon),
            ratio(al, jc),
        ));
    }
    if !tsv.is_empty() {
        out.push_str(
            "\nTSV (a measured variant, not a layout) on the uniform tables:\n\n\
             | dataset | CSV | TSV | TSV / CSV | TOON | md compact |\n\
             |---|---:|---:|---:|---:|---:|\n",
        );
        for (name, csv, tsv, toon, co) in tsv {
            out.push_str(&format!(
                "| {} | {csv} | {tsv} | {} | {toon} | {co} |\n",
                name.trim_end_matches(".json"),
                ratio(tsv, csv),
            ));
        }
    }
    out
}

fn main() {
    print!("{}", report(ALL));
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the report end to end (about a second in a debug build).
    #[test]
    fn runs() {
        super::main();
    }
}
