//! Redaction in the JSON and typed paths: the secret value never reaches the output.

use serde_json::json;
use tool_output_format::{Formatter, Layout, ToolOptions, ToolOutput};

const SECRET: &str = "hunter2-SECRET";

fn assert_hidden(md: &str) {
    assert!(!md.contains(SECRET), "secret leaked:\n{md}");
    assert!(md.contains("[redacted]"), "{md}");
}

#[test]
fn json_keys_anywhere_case_insensitive() {
    let fmt = Formatter::new().redact_keys(["password", "api_key", "authorization"]);
    let cases = [
        json!({"user": "ada", "Password": SECRET}),
        json!({"account": {"settings": {"API_KEY": SECRET}}}),
        json!([{"user": "ada", "authorization": SECRET}, {"user": "bob"}]),
        json!([{"user": "ada", "meta": {"headers": {"Authorization": SECRET}}}]),
        json!({"rows": [{"password": SECRET}]}),
        json!([1, {"password": {"nested": SECRET}}]),
        json!({"password": [SECRET, SECRET]}),
    ];
    for v in &cases {
        for layout in [Layout::Aligned, Layout::Compact] {
            assert_hidden(&fmt.clone().layout(layout).format("t", v));
        }
    }
    assert_eq!(
        fmt.format("t", &json!([{"u": "a", "password": SECRET}])),
        "| u | password   |\n|---|------------|\n| a | [redacted] |"
    );
}

#[test]
fn per_tool_keys_add_to_global_ones() {
    let fmt = Formatter::new()
        .redact_keys(["password"])
        .tool("login", ToolOptions::new().redact_keys(["otp"]));
    let v = json!({"password": SECRET, "otp": SECRET, "user": "ada"});
    assert_hidden(&fmt.format("login", &v));
    let other = fmt.format("other", &v);
    assert!(other.contains("- password: [redacted]"));
    assert!(
        other.contains(&format!("- otp: {SECRET}")),
        "other tools keep their data: {other}"
    );
}

#[test]
fn registered_renderers_receive_redacted_json() {
    let fmt = Formatter::new()
        .redact_keys(["token"])
        .register("raw", |v: &serde_json::Value| v.to_string());
    let md = fmt.format(
        "raw",
        &json!({"token": SECRET, "deep": [{"TOKEN": SECRET}]}),
    );
    assert_hidden(&md);
}

#[test]
fn budgets_and_reports_never_see_the_secret() {
    let fmt = Formatter::new().redact_keys(["password"]).max_chars(60);
    let v = json!({"password": SECRET.repeat(20), "user": "ada"});
    let out = fmt.format_with_report("t", &v);
    assert_hidden(&out.text);
}

#[derive(ToolOutput, serde::Serialize)]
struct Creds {
    user: String,
    #[tool_output(redact)]
    password: String,
    api_key: String,
}

#[derive(ToolOutput, serde::Serialize)]
struct Account {
    id: u32,
    creds: Creds,
}

#[test]
fn typed_field_attribute() {
    let c = Creds {
        user: "ada".into(),
        password: SECRET.into(),
        api_key: "visible".into(),
    };
    let fmt = Formatter::new();
    assert_eq!(
        fmt.format("", &c),
        "- user: ada\n- password: [redacted]\n- api_key: visible"
    );
    assert_hidden(&fmt.format("t", &vec![c]));
    let c = Creds {
        user: "ada".into(),
        password: SECRET.into(),
        api_key: "visible".into(),
    };
    assert_hidden(
        &fmt.clone()
            .register("raw", |v: &serde_json::Value| v.to_string())
            .format("raw", &c),
    );
    assert_eq!(c.to_json()["password"], "[redacted]");
}

#[test]
fn typed_runtime_keys_match_the_json_path() {
    let fmt = Formatter::new().redact_keys(["api_key"]);
    let c = || Creds {
        user: "ada".into(),
        password: "p".into(),
        api_key: SECRET.into(),
    };
    let a = vec![Account { id: 1, creds: c() }, Account { id: 2, creds: c() }];
    for layout in [Layout::Aligned, Layout::Compact] {
        let f = fmt.clone().layout(layout);
        // A nested struct in a table cell is written as JSON: its secret key is redacted too.
        let typed = f.format("t", &a);
        assert_hidden(&typed);
        let rec = f.format("t", &a[0]);
        assert_hidden(&rec);
        // Same bytes as the JSON path for the fields serde sees (the `redact` attribute is ours).
        let mut json = serde_json::to_value(&a).unwrap();
        for row in json.as_array_mut().unwrap() {
            row["creds"]["password"] = json!("[redacted]");
        }
        assert_eq!(typed, f.format("t", &json));
    }
}
