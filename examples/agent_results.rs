use tool_output_format::*;
use serde_json::json;
fn main() {
    let fmt = Formatter::new();
    let rows: Vec<_> = (0..5).map(|i| json!({"id": i, "name": format!("n{i}")})).collect();
    let page = Page::new(rows.clone()).has_more(true).next_cursor("c5").total(12).item_cursors((0..5).map(|i| format!("c{i}"))).next_call("list", "cursor");
    println!("{}\n----", fmt.format("list", &page));
    println!("{}\n----", Formatter::new().max_rows(3).format("list", &page));
    println!("{}\n----", fmt.format("list", &Page::new(Vec::<serde_json::Value>::new())));
    let err = ToolError::new(ErrorKind::RateLimited, "slow\ndown | now").hint("wait").retry_after_secs(30);
    println!("{}\n----", fmt.format("get", &err));
    let b = Batch::new().ok("a").failed("b", ToolError::new(ErrorKind::Timeout, "t")).failed(3, ToolError::new(ErrorKind::NotFound, "nf")).retry_call("send", "ids");
    println!("{}\n----", fmt.format("send", &b));
    let bv = Batch::with_values().ok_with("a", json!({"x": 1})).failed("b", ToolError::new(ErrorKind::Timeout, "t")).retry_call("send", "ids");
    println!("{}\n----", fmt.format("send", &bv));
    let r = Reply::new(json!({"order_id": "ORD-7"})).next(NextAction::call("get_order").arg("order_id", "ORD-7")).link("view", "https://x/7").reference(ResourceRef::new("resource://a").name("r.pdf").size_bytes(48213));
    println!("{}\n----", fmt.format("place", &r));
    let rp = Reply::new(page.clone()).link("view", "https://x");
    println!("{}\n----", fmt.format("list", &rp));
    let nested = json!({"a": 1});
    let _ = nested;
    let v = vec![page.clone(), Page::new(vec![])];
    println!("{}\n----", fmt.format("list", &v));
    let res: Vec<Result<i32, ToolError>> = vec![Ok(1), Err(err.clone())];
    println!("{}\n----", fmt.format("x", &res));
    for b in [150, 250, 400] {
        println!("{}\n---- {b}", Formatter::new().max_chars(b).format("list", &page));
    }
}
