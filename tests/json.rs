//! The structured JSON form (`Formatter::format_json`, SPEC section 12): the same capped
//! result as the markdown, tables as arrays of objects with cell kinds kept, every cut in
//! `notices`, budgets met by the compact serialization.

use serde_json::{Value, json};
use tof_support::data;
use tool_output_format::{Formatter, Rows, Strategy, ToolOptions};

#[test]
fn a_table_keeps_cell_kinds() {
    let v = json!([
        {"id": 1, "ok": true, "name": "Ada", "tags": ["a", "b, c"], "meta": {"k": [1, null]}, "x": 1.5, "none": null},
        {"id": -2, "ok": false, "name": "", "tags": [], "meta": {}, "x": 1e20},
    ]);
    let out = Formatter::new().format_json("t", &v);
    assert_eq!(
        out,
        json!({
            "result": [
                {"id": 1, "ok": true, "name": "Ada", "tags": ["a", "b, c"], "meta": {"k": [1, null]}, "x": 1.5, "none": null},
                {"id": -2, "ok": false, "name": "", "tags": [], "meta": {}, "x": 1e20, "none": null},
            ],
            "notices": []
        })
    );
}

#[test]
fn uncut_data_comes_back_as_it_was() {
    // Every bundled dataset whose values fit the depth limit, with nothing cut, is its own
    // `result` (a table row gains `null` for a key it lacks; these datasets are uniform or
    // records).
    let fmt = Formatter::new().max_lines(usize::MAX);
    for name in [
        "team.json",
        "message.json",
        "employees_100.json",
        "rows_1000.json",
    ] {
        let text = data::ALL.iter().find(|(n, _)| *n == name).unwrap().1;
        let v = data::parse(text);
        let out = fmt.format_json("", &v);
        assert_eq!(out["notices"], json!([]), "{name}");
        assert_eq!(out["result"], v, "{name}");
    }
}

#[test]
fn the_row_cap_is_recorded() {
    let rows: Vec<Value> = (0..1000).map(|i| json!({"id": i})).collect();
    let out = Formatter::new().max_rows(2).format_json("t", &rows);
    assert_eq!(
        out,
        json!({
            "result": [{"id": 0}, {"id": 1}],
            "notices": [{"kind": "rows", "path": "", "kept": 2, "total": 1000,
                         "text": "[Truncated to 2 rows of 1000 total]"}]
        })
    );
}

#[test]
fn nested_cuts_have_a_path() {
    let v = json!({"user": {"a/b": [{"n": 1}, {"n": 2}, {"n": 3}]}});
    let out = Formatter::new().max_rows(1).format_json("t", &v);
    assert_eq!(
        out,
        json!({
            "result": {"user": {"a/b": [{"n": 1}]}},
            "notices": [{"kind": "rows", "path": "/user/a~1b", "kept": 1, "total": 3,
                         "text": "[Truncated to 1 rows of 3 total]"}]
        })
    );
}

#[test]
fn lines_and_strategy_are_recorded() {
    let out = Formatter::new()
        .max_lines(2)
        .strategy(Strategy::HeadTail)
        .format_json("t", "1\n2\n3\n4");
    assert_eq!(
        out,
        json!({
            "result": "1\n… [2 lines omitted] …\n4\n",
            "notices": [{"kind": "lines", "path": "", "kept": 2, "total": 4, "strategy": "head_tail",
                         "text": "[Truncated to 2 lines of 4 total: the first 1 and the last 1]"}]
        })
    );
}

#[test]
fn values_cut_by_the_cap_are_recorded() {
    // A value is cut only when the cut form is shorter (SPEC section 8).
    let v = json!([{"a": "abcdefghijklmnopqrstuvwxyz", "n": 123456789}, {"a": "abcdefgh", "n": 1}]);
    let out = Formatter::new().max_cell_chars(3).format_json("t", &v);
    assert_eq!(
        out,
        json!({
            "result": [{"a": "abc…[+23 chars]", "n": 123456789}, {"a": "abcdefgh", "n": 1}],
            "notices": [{"kind": "shortened", "path": "", "values": 1, "max_chars": 3,
                         "text": "[Shortened 1 values to 3 chars]"}]
        })
    );
}

#[test]
fn a_depth_cut_is_recorded() {
    let mut v = json!(1);
    for _ in 0..40 {
        v = json!({ "k": v });
    }
    let out = Formatter::new().format_json("", &v);
    let notices = out["notices"].as_array().unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0]["kind"], "depth");
    assert_eq!(notices[0]["path"], "/k".repeat(32));
    assert_eq!(notices[0]["values"], 9);
}

#[test]
fn secrets_stay_redacted() {
    let v = json!([{"user": "ada", "token": "s3cr3t", "meta": {"password": "pw"}}]);
    let fmt = Formatter::new().tool("t", ToolOptions::new().redact_keys(["token", "password"]));
    let out = fmt.format_json("t", &v);
    assert_eq!(
        out["result"],
        json!([{"user": "ada", "token": "[redacted]", "meta": {"password": "[redacted]"}}])
    );
    assert!(!out.to_string().contains("s3cr3t"));
}

#[test]
fn budgets_measure_the_compact_json() {
    let v = data::parse(data::ROWS_1000);
    for budget in [1_000, 5_000, 20_000] {
        let out = Formatter::new().max_chars(budget).format_json("t", &v);
        let text = out.to_string();
        assert!(text.chars().count() <= budget, "{budget}: {}", text.len());
        let n = &out["notices"][0];
        assert_eq!(n["kind"], "rows");
        assert_eq!(n["total"], 1000);
        assert_eq!(n["kept"], out["result"].as_array().unwrap().len());
    }
    let out = Formatter::new().max_chars(10).format_json("t", &v);
    assert_eq!(out["result"], Value::Null);
    assert_eq!(out["notices"][0]["kind"], "omitted");
    assert_eq!(out["notices"][0]["budget"], 10);
}

#[test]
fn cap_cuts_under_a_budget_keep_it() {
    let v = data::parse(data::REPOS_100);
    for budget in [2_000, 8_000] {
        let out = Formatter::new()
            .max_cell_chars(20)
            .max_chars(budget)
            .format_json("t", &v);
        assert!(out.to_string().chars().count() <= budget, "{budget}");
    }
}

#[test]
fn streamed_rows_give_the_true_total() {
    let fmt = Formatter::new().max_rows(3);
    let rows = fmt.collect_rows("t", (0..100_000).map(|i| json!({"id": i})));
    let out = fmt.format_json("t", &rows);
    assert_eq!(out["result"], json!([{"id": 0}, {"id": 1}, {"id": 2}]));
    assert_eq!(out["notices"][0]["total"], 100_000);
    let rows = Rows::new(vec![json!({"a": 1})], 5).with_columns(["b".to_string()]);
    assert_eq!(
        Formatter::new().format_json("", &rows)["result"],
        json!([{"a": 1, "b": null}])
    );
}

#[test]
fn wide_integers_are_strings_as_in_to_json() {
    let v = vec![u128::MAX, 7];
    let out = Formatter::new().format_json("", &v);
    assert_eq!(out["result"], json!([u128::MAX.to_string(), 7]));
}

/// An envelope in the structured form: the page's parts beside its (capped) items, the cut
/// recorded in the notices.
#[test]
fn a_page_keeps_its_parts_and_records_the_row_cut() {
    use tool_output_format::{Formatter, Page};
    let items: Vec<serde_json::Value> = (0..30).map(|i| serde_json::json!({"id": i})).collect();
    let page = Page::new(items).has_more(false).next_call("list", "cursor");
    let v = Formatter::new().max_rows(5).format_json("list", &page);
    let result = &v["result"];
    assert_eq!(result["items"].as_array().map(Vec::len), Some(5), "{v}");
    assert_eq!(result["has_more"], true, "a cut page has more: {v}");
    assert_eq!(v["notices"][0]["kind"], "rows", "{v}");
    assert_eq!(v["notices"][0]["total"], 30, "{v}");
}

/// The structured form goes through the same pipeline as the text: the detail level, a
/// focus query and a shape apply to it too.
#[test]
fn the_structured_form_honours_detail_focus_and_shape() {
    use tool_output_format::{Detail, Shape, ToolOutput};
    #[derive(ToolOutput)]
    struct Order {
        id: u32,
        #[tool_output(detail = "full")]
        note: &'static str,
    }
    let orders = vec![Order { id: 1, note: "a" }, Order { id: 2, note: "b" }];
    let summary = Formatter::new().detail(Detail::Summary);
    assert_eq!(
        summary.format_json("list_orders", &orders)["result"],
        json!([{"id": 1}, {"id": 2}])
    );
    assert_eq!(
        Formatter::new()
            .detail(Detail::Full)
            .format_json("list_orders", &orders)["result"],
        json!([{"id": 1, "note": "a"}, {"id": 2, "note": "b"}])
    );
    let tickets = json!([{"t": "printer"}, {"t": "refund late"}, {"t": "vpn"}]);
    let one_row = Formatter::new().max_rows(1);
    let v = one_row.focus("refund").format_json("t", &tickets);
    assert_eq!(v["result"], json!([{"t": "refund late"}]));
    assert_eq!(v["notices"][0]["kind"], "focus");
    let shaped = Formatter::new()
        .detail(Detail::Full)
        .shape(Shape::new().rename("id", "order_id"));
    assert_eq!(
        shaped.format_json("list_orders", &orders)["result"],
        json!([{"order_id": 1, "note": "a"}, {"order_id": 2, "note": "b"}])
    );
    // Summary detail under a shape: the full-only field is left out (and named in the text).
    let shaped = Formatter::new().shape(Shape::new().rename("id", "order_id"));
    assert_eq!(
        shaped.format_json("list_orders", &orders)["result"],
        json!([{"order_id": 1}, {"order_id": 2}])
    );
    assert!(
        shaped.format("list_orders", &orders).ends_with(
            "[Left out in summary detail: note. Call list_orders(detail=\"full\") for them]"
        ),
        "{}",
        shaped.format("list_orders", &orders)
    );
}
