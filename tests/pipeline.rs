//! The build pipeline (issue "One pipeline"): an explicit build context, one sequence method
//! that hand-written impls get for free, bounded depth on the typed path, and sources that
//! build only the rows that are kept.

use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tool_output_format::{
    Context, Formatter, ToolOptions, ToolOutput,
    doc::{Node, Record},
};

/// A hand-written impl whose JSON form is `null` (it has no sensible one): the rendering
/// must not depend on it, alone or inside any wrapper.
struct Point {
    x: i32,
    y: i32,
}

impl ToolOutput for Point {
    fn to_node<'a>(&'a self, cx: &Context<'_>) -> Node<'a> {
        let mut r = Record::default();
        r.push("x", cx.child(&self.x));
        r.push("y", cx.child(&self.y));
        Node::Record(r)
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}

#[test]
fn a_hand_impl_renders_the_same_alone_and_inside_wrappers() {
    let fmt = Formatter::new();
    let p = || Point { x: 1, y: -2 };
    let alone = fmt.format("t", &p());
    assert_eq!(alone, "**t result**\n\n- x: 1\n- y: -2");
    assert_eq!(fmt.format("t", &Some(p())), alone);
    assert_eq!(fmt.format("t", &Box::new(p())), alone);
    let table = "| x | y  |\n|---|----|\n| 1 | -2 |\n| 1 | -2 |";
    assert_eq!(fmt.format("t", &vec![p(), p()]), table);
    assert_eq!(fmt.format("t", &Some(vec![p(), p()])), table);
    let mut map = std::collections::BTreeMap::new();
    map.insert("origin", p());
    assert_eq!(
        fmt.format("t", &map),
        "**t result**\n\n- origin:\n  - x: 1\n  - y: -2"
    );
    // Inside a record's table cell: the node's JSON, not `null`.
    let v = vec![map];
    assert_eq!(
        fmt.format("t", &v),
        "| origin         |\n|----------------|\n| {\"x\":1,\"y\":-2} |"
    );
}

static WRITES: AtomicUsize = AtomicUsize::new(0);

/// Counts how often a row's cell is written (once per row written).
fn counted(id: &u32) -> u32 {
    WRITES.fetch_add(1, Ordering::Relaxed);
    *id
}

#[derive(ToolOutput)]
#[tool_output(max_rows = 500)]
struct Big {
    #[tool_output(with = "counted")]
    id: u32,
}

#[derive(ToolOutput)]
struct Plain {
    #[tool_output(with = "counted")]
    id: u32,
}

/// Rows written by one call (the counter is shared, so these tests run one at a time).
fn writes(f: impl FnOnce()) -> usize {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    WRITES.store(0, Ordering::Relaxed);
    f();
    WRITES.load(Ordering::Relaxed)
}

#[test]
fn a_type_cap_of_500_writes_500_rows() {
    let rows: Vec<Big> = (0..1000).map(|id| Big { id }).collect();
    let fmt = Formatter::new();
    let n = writes(|| {
        let md = fmt.format("t", &rows);
        assert!(md.starts_with("[Truncated to 500 rows of 1000 total]"));
    });
    assert_eq!(n, 500);
}

#[test]
fn wrappers_pass_the_row_limit_on() {
    let rows: Vec<Plain> = (0..1000).map(|id| Plain { id }).collect();
    let fmt = Formatter::new().max_rows(10);
    let wrapped = Some(rows);
    let n = writes(|| {
        let md = fmt.format("t", &wrapped);
        assert!(md.starts_with("[Truncated to 10 rows of 1000 total]"));
    });
    assert_eq!(n, 10);
    let boxed = Box::new(wrapped);
    assert_eq!(writes(|| drop(fmt.format("t", &boxed))), 10);
}

#[test]
fn a_tool_cap_beats_the_type_cap() {
    let rows: Vec<Big> = (0..1000).map(|id| Big { id }).collect();
    let fmt = Formatter::new().tool("t", ToolOptions::new().max_rows(5));
    let n = writes(|| {
        let md = fmt.format("t", &rows);
        assert!(
            md.starts_with("[Truncated to 5 rows of 1000 total]"),
            "{md}"
        );
    });
    assert_eq!(n, 5);
}

#[test]
fn a_budget_builds_rows_as_the_fit_asks_for_them() {
    let rows: Vec<Plain> = (0..100_000).map(|id| Plain { id }).collect();
    let fmt = Formatter::new().max_rows(usize::MAX).max_chars(2_000);
    let mut kept = 0;
    let n = writes(|| {
        let out = fmt.format_with_report("t", &rows);
        kept = out.report.rows.map_or(0, |r| r.kept);
    });
    assert!(kept > 100, "kept {kept}");
    // Every row written is one a candidate needed: at most the kept rows and the failing
    // guesses around them, never the whole data.
    assert!(n < kept * 3, "wrote {n} rows to keep {kept}");
}

#[test]
fn a_formatter_without_keys_inside_one_with_keys_does_not_redact() {
    /// Formats its payload with a formatter of its own while it is being built.
    struct Inner(serde_json::Value);
    impl ToolOutput for Inner {
        fn to_node<'a>(&'a self, _: &Context<'_>) -> Node<'a> {
            Node::Str(Formatter::new().format("inner", &self.0).into())
        }
        fn to_json(&self) -> serde_json::Value {
            self.0.clone()
        }
    }
    let payload = json!([{"name": "a", "meta": {"token": "abc"}}]);
    let outer = Formatter::new().redact_keys(["token"]);
    let md = outer.format("outer", &Inner(payload.clone()));
    assert!(md.contains(r#"{"token":"abc"}"#), "{md}");
    // The outer formatter still redacts what it builds itself.
    assert!(
        outer
            .format("outer", &payload)
            .contains(r#"{"token":"[redacted]"}"#)
    );
}

#[derive(ToolOutput)]
struct Tree {
    name: &'static str,
    kids: Vec<Tree>,
}

#[test]
fn a_10_000_deep_typed_value_renders_with_the_depth_notice_on_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let mut tree = Tree {
                name: "leaf",
                kids: Vec::new(),
            };
            for _ in 0..10_000 {
                tree = Tree {
                    name: "node",
                    kids: vec![tree],
                };
            }
            let fmt = Formatter::new();
            let record = fmt.format("t", &tree);
            let table = fmt.format("t", &tree.kids);
            // Drop without recursion: take the chain apart level by level.
            let mut next = tree.kids.pop();
            while let Some(mut t) = next {
                next = t.kids.pop();
            }
            (record, table)
        })
        .expect("spawn");
    let (record, table) = handle.join().expect("no stack overflow");
    assert!(
        record.contains("[Truncated at depth 32: nested values omitted]"),
        "{record}"
    );
    assert!(table.contains("Truncated at depth 32"), "{table}");
}
