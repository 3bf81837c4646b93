//! Rendering speed, side by side with the peers an agent would otherwise use, on the same
//! data in the same run (criterion groups; compare within a group, never across runs).
//!
//! Groups (`cargo bench --bench render`):
//! - `employees_100`, `rows_1000`, `rows_10000`: a typed `Vec<T>` and the same data as a
//!   `serde_json::Value`, rendered as aligned and compact markdown, vs `serde_json::to_string`
//!   of the same input, `tabled` (`#[derive(Tabled)]` + `Style::markdown()`) on the same rows,
//!   and `toon-format` encoding the same `Value`.
//! - `budget_fit_100000`: 100,000 rows into a 4,000-character budget, vs rendering only the
//!   rows the budget keeps (same rows, no budget).
//! - `focus`: query-focused trimming of the bundled log and FAQ
//!   (`tool-output-format/tests/data/focus/`) into 4,000 characters, through the formatter
//!   (`Formatter::focus`; the engine is not public API); throughput in bytes, so
//!   criterion reports the time per megabyte.
//!
//! Every markdown rendering uses `max_rows(usize::MAX)`, so all rows are written (the default
//! cap of 100 rows would make the comparison meaningless). `benches/ratios.py` turns the
//! medians criterion saves into the ratio tables of `BENCHMARKS.md`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, Throughput, measurement::WallTime};
use serde::{Deserialize, Serialize};
use tabled::settings::Style;
use tabled::{Table as Tabled_, Tabled};
use tof_support::data;

mod common;
use common::rows;
use tool_output_format::{Formatter, Layout, ToolOutput};

/// One row of `employees_100.json` (8 fields).
#[derive(Clone, Serialize, Deserialize, ToolOutput, Tabled)]
struct Employee {
    id: u64,
    name: String,
    email: String,
    team: String,
    role: String,
    city: String,
    salary: u64,
    active: bool,
}

fn markdown(layout: Layout) -> Formatter {
    Formatter::new().max_rows(usize::MAX).layout(layout)
}

fn configure(g: &mut BenchmarkGroup<'_, WallTime>, rows: usize) {
    g.throughput(Throughput::Elements(rows as u64));
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    if rows >= 10_000 {
        // One iteration takes milliseconds: equal-sized samples keep the run short.
        g.sampling_mode(SamplingMode::Flat).sample_size(10);
    } else {
        g.sample_size(20);
    }
}

/// Every contender on one data set.
fn compare<T>(c: &mut Criterion, name: &str, items: &[T])
where
    T: Serialize + ToolOutput + Tabled,
{
    let value = serde_json::to_value(items).expect("serializable");
    let aligned = markdown(Layout::Aligned);
    let compact = markdown(Layout::Compact);
    // The consistency law, checked on the benchmarked data: both paths do the same work.
    assert_eq!(aligned.format("", items), aligned.format("", &value));
    assert_eq!(compact.format("", items), compact.format("", &value));

    let mut g = c.benchmark_group(name);
    configure(&mut g, items.len());
    g.bench_function("typed/serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(items)).unwrap())
    });
    g.bench_function("typed/md_aligned", |b| {
        b.iter(|| aligned.format("", black_box(items)))
    });
    g.bench_function("typed/md_compact", |b| {
        b.iter(|| compact.format("", black_box(items)))
    });
    g.bench_function("typed/tabled", |b| {
        b.iter(|| {
            Tabled_::new(black_box(items))
                .with(Style::markdown())
                .to_string()
        })
    });
    g.bench_function("value/serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&value)).unwrap())
    });
    g.bench_function("value/md_aligned", |b| {
        b.iter(|| aligned.format("", black_box(&value)))
    });
    g.bench_function("value/md_compact", |b| {
        b.iter(|| compact.format("", black_box(&value)))
    });
    g.bench_function("value/toon", |b| {
        b.iter(|| toon_format::encode_default(black_box(&value)).unwrap())
    });
    g.finish();
}

fn tables(c: &mut Criterion) {
    let employees: Vec<Employee> =
        serde_json::from_str(data::EMPLOYEES_100).expect("employees_100.json");
    compare(c, "employees_100", &employees);
    compare(c, "rows_1000", &rows(1_000));
    compare(c, "rows_10000", &rows(10_000));
}

/// 100,000 rows into a 4,000-character budget vs rendering the kept rows alone.
fn budget(c: &mut Criterion) {
    let items = rows(100_000);
    let fit = Formatter::new().max_rows(usize::MAX).max_chars(4000);
    let out = fit.format_with_report("", &items);
    assert!(out.report.chars <= 4000);
    let kept = out.report.rows.expect("a table").kept;
    let plain = Formatter::new().max_rows(usize::MAX);

    let mut g = c.benchmark_group("budget_fit_100000");
    configure(&mut g, items.len());
    g.bench_function("fit_4000_chars", |b| {
        b.iter(|| fit.format("", black_box(&items)))
    });
    eprintln!("budget_fit_100000: the budget keeps {kept} rows");
    g.bench_function("kept_rows_no_budget", |b| {
        b.iter(|| plain.format("", black_box(&items[..kept])))
    });
    // The same through serde_json::Value: shape and columns still scan every row.
    let value = serde_json::to_value(&items).expect("rows serialize");
    assert_eq!(fit.format("", &value), fit.format("", &items));
    g.bench_function("value_fit_4000_chars", |b| {
        b.iter(|| fit.format("", black_box(&value)))
    });
    // For scale: what an agent pays to hand the same value over as JSON.
    g.bench_function("value_serde_json", |b| {
        b.iter(|| serde_json::to_string(black_box(&value)).unwrap())
    });
    g.finish();
}

/// Query-focused trimming of a 5,000-line log and a help-center FAQ into 4,000 characters.
fn focus(c: &mut Criterion) {
    const DOCS: [(&str, &str); 2] = [
        (
            "app.log",
            include_str!("../tool-output-format/tests/data/focus/app.log"),
        ),
        (
            "faq.md",
            include_str!("../tool-output-format/tests/data/focus/faq.md"),
        ),
    ];
    let query = "which host ran out of disk space";
    let fmt = Formatter::new().max_chars(4_000).max_lines(1_000_000);
    let mut g = c.benchmark_group("focus");
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    g.sample_size(10);
    for (name, text) in DOCS {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("{name}/formatter"), |b| {
            b.iter(|| fmt.focus(query).format("fetch", black_box(text)))
        });
    }
    g.finish();
}

criterion::criterion_group!(benches, tables, budget, focus);
criterion::criterion_main!(benches);
