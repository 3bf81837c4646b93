//! Feature `tracing`: one event per formatted result, captured by a subscriber.
#![cfg(feature = "tracing")]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use serde_json::json;
use tool_output_format::Formatter;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

type Events = Arc<Mutex<Vec<BTreeMap<String, String>>>>;

/// Records every event's fields as text.
struct Capture(Events);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        fields.insert("target".into(), event.metadata().target().to_owned());
        fields.insert("level".into(), event.metadata().level().to_string());
        event.record(&mut Fields(&mut fields));
        self.0.lock().unwrap().push(fields);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn capture(f: impl FnOnce()) -> Vec<BTreeMap<String, String>> {
    let events = Events::default();
    tracing::subscriber::with_default(Capture(events.clone()), f);
    events.lock().unwrap().clone()
}

fn pairs(e: &BTreeMap<String, String>) -> Vec<(&str, &str)> {
    e.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

#[test]
fn one_event_per_formatted_result() {
    let rows: Vec<_> = (0..250).map(|i| json!({"id": i})).collect();
    let fmt = Formatter::new();
    let mut md = String::new();
    let events = capture(|| {
        md = fmt.format("list_items", &rows);
    });
    assert_eq!(events.len(), 1);
    let chars = md.chars().count().to_string();
    let bytes = md.len().to_string();
    let mut want = vec![
        ("bytes", bytes.as_str()),
        ("chars", chars.as_str()),
        ("cut", "true"),
        ("level", "INFO"),
        ("message", "tool result formatted"),
        ("rows_kept", "100"),
        ("rows_total", "250"),
        ("stored", "false"),
        ("target", "tool_output_format"),
        ("tool", "list_items"),
    ];
    // Tokens are counted with the `tokens` feature (the workspace test build turns it on).
    let tokens = events[0].get("tokens").cloned();
    if let Some(t) = &tokens {
        assert!(t.parse::<usize>().unwrap() > 100, "{t}");
        want.push(("tokens", t));
        want.sort();
    }
    assert_eq!(pairs(&events[0]), want);
}

#[test]
fn an_uncut_result_and_a_registered_renderer() {
    let fmt = Formatter::new().register("ping", |_| "pong".to_owned());
    let events = capture(|| {
        fmt.format("get", &json!({"a": 1}));
        fmt.format("ping", &json!(null));
    });
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["tool"], "get");
    assert_eq!(events[0]["cut"], "false");
    assert_eq!(events[0]["chars"], "22"); // "**get result**\n\n- a: 1"
    assert!(!events[0].contains_key("rows_kept"));
    assert_eq!(events[1]["tool"], "ping");
    assert_eq!(events[1]["chars"], "4");
}

/// A tool name near a registered one (a likely typo) is warned about once per call, before
/// the result's event; a registered name is not.
#[test]
fn a_near_miss_tool_name_is_warned_about() {
    let fmt = Formatter::new().tool(
        "list_orders",
        tool_output_format::ToolOptions::new().max_rows(1),
    );
    let events = capture(|| {
        let _ = fmt.format("list_order", &json!([{"a": 1}, {"a": 2}]));
    });
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["level"], "WARN");
    assert_eq!(events[0]["tool"], "list_order");
    assert_eq!(events[0]["registered"], "list_orders");
    let events = capture(|| {
        let _ = fmt.format("list_orders", &json!([{"a": 1}]));
    });
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["level"], "INFO");
}
