//! The composition harness (SPEC section 15), shared by the matrix test (`tests/compose.rs`),
//! the property test over random data and option sets (`tests/compose_props.rs`) and the fuzz
//! target: a result wrapper x an option set x every entry point, and the promises each
//! feature makes alone, checked on what comes out.
//!
//! Wrappers: a bare `Value` list and record, a typed `Vec<T>`, a `Page` of typed and of
//! `Value` rows, a `Reply`, an `Err`, a `Batch` with values, streamed rows (`collect_rows` and
//! `format_rows`), a registered renderer. Options: layout x global shape or none x budget x
//! summaries x store x focus query, and the agent preset (`Formatter::for_agents`). Entry
//! points: text (`format_with_report`, `focus(q).format_with_report`, and with a store
//! `format_async` / `focus(q).format_async` on an async store, which must give the same
//! text), structured JSON (`format_json`, `focus(q).format_json`), and with a store every
//! page the fetch tool
//! serves (`store::Fetch`), following the Next lines from the first text to the last page.
//!
//! Every row carries secrets (`password`, `meta.api_key`, values starting `pw-SECRET-` and
//! `key-SECRET-`) that the formatter is told to redact, and an id `T-0000`.., so a check can
//! count the rows each output keeps.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};
use tool_output_format::store::Fetch;
use tool_output_format::{
    Batch, ErrorKind, Formatted, Formatter, Layout, NextAction, Page, Reply, Shape, ToolError,
    ToolOutput,
    store::{MemoryStore, ResultStore},
};

/// Values that must never appear in any output.
pub const SECRETS: [&str; 2] = ["pw-SECRET-", "key-SECRET-"];

/// A typed row (derived), with the same secrets and a capped field.
#[derive(Clone, ToolOutput)]
pub struct Ticket {
    pub id: String,
    pub title: String,
    pub status: &'static str,
    pub password: String,
    pub api_key: String,
    #[tool_output(max_chars = 40)]
    pub body: String,
}

/// The typed ticket `i`.
pub fn ticket(i: usize) -> Ticket {
    Ticket {
        id: format!("T-{i:04}"),
        title: format!("Printer {i} on floor {} is jammed again", i % 7),
        status: ["open", "closed", "pending"][i % 3],
        password: format!("pw-SECRET-{i}"),
        api_key: format!("key-SECRET-{i}"),
        body: "The customer reports that the device stops after a few pages and shows an \
               error code. "
            .repeat(2),
    }
}

/// The untyped ticket `i` (the typed one's fields plus a URL, a nested secret, a nested
/// value repeated by a sibling, another that differs from it in one field, and two empty
/// fields, so the compact layout's lean records run under every option: `(same as meta)`,
/// `(same as meta, except:)` and the `(empty)` line).
pub fn ticket_value(i: usize) -> Value {
    let t = ticket(i);
    let meta = json!({"api_key": t.api_key, "tags": ["a", "b"], "team": "core"});
    let mut escalation = meta.clone();
    escalation["team"] = "ops".into();
    json!({
        "id": t.id, "title": t.title, "status": t.status, "password": t.password,
        "internal_url": format!("https://api.example.com/tickets/{i}"),
        "meta": meta, "assignee": null, "origin": meta, "due": "",
        "escalation": escalation, "body": t.body,
    })
}

/// Row `i` made of arbitrary data: its id and secrets first, then `fields` (with their keys
/// changed where they would collide with those).
pub fn row_with(i: usize, fields: &Map<String, Value>) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), format!("T-{i:04}").into());
    m.insert("password".into(), format!("pw-SECRET-{i}").into());
    m.insert("meta".into(), json!({"api_key": format!("key-SECRET-{i}")}));
    for (k, v) in fields {
        let k = if m.contains_key(k) {
            format!("x_{k}")
        } else {
            k.clone()
        };
        m.insert(k, v.clone());
    }
    Value::Object(m)
}

/// What wraps the data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrapper {
    ValueList,
    ValueRecord,
    TypedVec,
    TypedPage,
    ValuePage,
    Reply,
    Err,
    Batch,
    Streamed,
    /// A `Value` list through a registered renderer (its own markdown, one line per row).
    Registered,
}

/// Every wrapper.
pub const WRAPPERS: [Wrapper; 10] = [
    Wrapper::ValueList,
    Wrapper::ValueRecord,
    Wrapper::TypedVec,
    Wrapper::TypedPage,
    Wrapper::ValuePage,
    Wrapper::Reply,
    Wrapper::Err,
    Wrapper::Batch,
    Wrapper::Streamed,
    Wrapper::Registered,
];

impl Wrapper {
    /// Whether the data is the list of rows (so a cut can be counted).
    pub fn is_list(self) -> bool {
        !matches!(self, Wrapper::ValueRecord | Wrapper::Err)
    }

    fn is_page(self) -> bool {
        matches!(self, Wrapper::TypedPage | Wrapper::ValuePage)
    }

    fn is_typed(self) -> bool {
        matches!(self, Wrapper::TypedVec | Wrapper::TypedPage)
    }
}

/// One option set.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub layout: Layout,
    pub shape: bool,
    pub budget: Option<usize>,
    pub summary: bool,
    pub store: bool,
    pub focus: bool,
    /// An explicit row cap (`None`: none set; with a budget the budget is the bound).
    pub max_rows: Option<usize>,
    /// Start from the agent preset (`Formatter::for_agents()`): its folding shape, unless
    /// `shape` replaces it.
    pub agent: bool,
}

impl Options {
    /// An option set drawn from bytes (the fuzz target's first bytes); how many it used.
    pub fn from_bytes(b: &[u8]) -> (Options, Wrapper, usize) {
        let byte = |i: usize| b.get(i).copied().unwrap_or(0);
        let (a, c, d) = (byte(0), byte(1), byte(2));
        let layout = [Layout::Aligned, Layout::Compact, Layout::Csv][usize::from(a % 3)];
        let budget = match (a >> 2) % 3 {
            0 => None,
            1 => Some(200 + usize::from(c) * 8),
            _ => Some(2_000 + usize::from(c) * 40),
        };
        let o = Options {
            layout,
            shape: a & 0x20 != 0,
            budget,
            summary: a & 0x40 != 0,
            store: a & 0x80 != 0,
            focus: d & 1 != 0,
            max_rows: Some(1 + usize::from(d >> 1) % 40),
            agent: d & 0x80 != 0,
        };
        let w = WRAPPERS[usize::from(byte(3)) % WRAPPERS.len()];
        (o, w, 4.min(b.len()))
    }
}

/// Every option set of the matrix: 144 from the default formatter, then 24 from the agent
/// preset (its own layout and shape, x budget x summary x store x focus).
pub fn option_sets() -> Vec<Options> {
    let mut out = Vec::new();
    for layout in [Layout::Aligned, Layout::Compact, Layout::Csv] {
        for shape in [false, true] {
            for budget in [None, Some(1_000), Some(5_000)] {
                for summary in [false, true] {
                    for store in [false, true] {
                        for focus in [false, true] {
                            out.push(Options {
                                layout,
                                shape,
                                budget,
                                summary,
                                store,
                                focus,
                                max_rows: Some(20),
                                agent: false,
                            });
                        }
                    }
                }
            }
        }
    }
    for budget in [None, Some(1_000), Some(5_000)] {
        for summary in [false, true] {
            for store in [false, true] {
                for focus in [false, true] {
                    out.push(Options {
                        layout: Layout::Compact,
                        shape: false,
                        budget,
                        summary,
                        store,
                        focus,
                        max_rows: Some(20),
                        agent: true,
                    });
                }
            }
        }
    }
    out
}

/// The formatter an agent server would build with these options (a sync store).
pub fn formatter(o: &Options) -> Formatter {
    formatter_and_fetch(o).0
}

/// [`formatter`] and, with a store, the fetch tool that serves what it stores.
pub fn formatter_and_fetch(o: &Options) -> (Formatter, Option<Fetch>) {
    let f = without_store(o);
    if !o.store {
        return (f, None);
    }
    let store: Arc<dyn ResultStore> = Arc::new(MemoryStore::new(Duration::from_secs(60)));
    let f = f.store(store.clone(), "get_stored_result");
    let fetch = Fetch::new(store, "get_stored_result").formatter(&f);
    (f, Some(fetch))
}

/// The most fetch calls a walk makes before it is called endless.
const MAX_FETCHES: usize = 400;

/// The reference and cursor of a text's `Next: call get_stored_result(...)` line. Each
/// argument is a JSON string literal (`cursor="/\u003cb\"r/2"`), read as a model's tool
/// call would read it: escapes decoded.
pub fn fetch_line(text: &str) -> Option<(String, Option<String>)> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("Next: call get_stored_result("))?;
    let args = line.strip_suffix(')')?;
    let arg = |name: &str| {
        let open = args.find(&format!("{name}=\""))? + name.len() + 1;
        let bytes = args.as_bytes();
        let mut end = open + 1;
        while *bytes.get(end)? != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        serde_json::from_str::<String>(&args[open..=end]).ok()
    };
    Some((arg("ref")?, arg("cursor")))
}

/// The pages the fetch tool serves, following the Next lines from `text` to the last page
/// (at most [`MAX_FETCHES`]; one more page means the walk did not end).
pub fn walk(fetch: &Fetch, text: &str) -> Vec<String> {
    let mut pages = Vec::new();
    let mut next = fetch_line(text);
    while let Some((reference, cursor)) = next {
        if pages.len() > MAX_FETCHES {
            break;
        }
        let page = fetch.call(&reference, cursor.as_deref(), None);
        next = fetch_line(&page);
        pages.push(page);
    }
    pages
}

/// The same formatter with an async store, for `format_async` (`None` without a store).
pub fn async_formatter(o: &Options) -> Option<Formatter> {
    o.store.then(|| {
        without_store(o).store_async(
            Arc::new(MemoryStore::new(Duration::from_secs(60))),
            "get_stored_result",
            Duration::from_secs(10),
        )
    })
}

fn without_store(o: &Options) -> Formatter {
    let base = if o.agent {
        Formatter::for_agents()
    } else {
        Formatter::new()
    };
    let mut f = base
        .layout(o.layout)
        .redact_keys(["password", "api_key"])
        .summarize(o.summary)
        .register("render_tickets", render_tickets);
    if o.shape {
        f = f.shape(Shape::new().drop(["*_url"]).rename("title", "subject"));
    }
    if let Some(b) = o.budget {
        f = f.max_chars(b);
    }
    if let Some(n) = o.max_rows {
        f = f.max_rows(n);
    }
    f
}

/// The registered renderer of [`Wrapper::Registered`]: one line per row.
fn render_tickets(v: &Value) -> String {
    let rows = v.as_array().map(Vec::as_slice).unwrap_or_default();
    let line = |r: &Value| {
        format!(
            "- {} {} {} {}",
            r["id"], r["title"], r["password"], r["meta"]
        )
    };
    rows.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// What one wrapper gives through both entry points.
pub struct Out {
    pub text: Formatted,
    pub json: Value,
    /// For streamed rows: what `format_rows` gave (the same pipeline as the collected rows).
    pub format_rows: Option<String>,
    /// With a store: what `format_async` (focused with the focus query) gave with an async
    /// store.
    pub format_async: Option<Formatted>,
    /// With a store: the fetch pages served following the text's Next lines, in order.
    pub fetched: Vec<String>,
    /// Whether the fetch pages were walked ([`render`]; not [`render_unwalked`]).
    pub walked: bool,
}

/// The focus query of the matrix.
pub const QUERY: &str = "floor 3 jammed";

fn run<T: ToolOutput + ?Sized>(fmt: &Formatter, o: &Options, tool: &str, v: &T) -> Out {
    let format_async = async_formatter(o).map(|a| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a tokio runtime");
        if o.focus {
            runtime.block_on(a.focus(QUERY).format_async(tool, v))
        } else {
            runtime.block_on(a.format_async(tool, v))
        }
    });
    if o.focus {
        let f = fmt.focus(QUERY);
        return Out {
            text: f.format_with_report(tool, v),
            json: f.format_json(tool, v),
            format_rows: None,
            format_async,
            fetched: Vec::new(),
            walked: false,
        };
    }
    Out {
        text: fmt.format_with_report(tool, v),
        json: fmt.format_json(tool, v),
        format_rows: None,
        format_async,
        fetched: Vec::new(),
        walked: false,
    }
}

/// Render `rows` wrapped by `w` with options `o` (the typed wrappers use [`ticket`] for
/// each row index instead of the rows themselves).
pub fn render(w: Wrapper, o: &Options, rows: &[Value]) -> Out {
    let (fmt, fetch) = formatter_and_fetch(o);
    let mut out = render_with(&fmt, w, o, rows);
    if let Some(fetch) = &fetch {
        out.fetched = walk(fetch, &out.text.text);
    }
    out.walked = true;
    out
}

/// [`render`] without walking the fetch pages (the checks then take a fetch Next line for
/// the way to the rest).
pub fn render_unwalked(w: Wrapper, o: &Options, rows: &[Value]) -> Out {
    render_with(&formatter(o), w, o, rows)
}

fn render_with(fmt: &Formatter, w: Wrapper, o: &Options, rows: &[Value]) -> Out {
    let values = rows.to_vec();
    let typed = || (0..rows.len()).map(ticket).collect::<Vec<_>>();
    let cursor = format!("c{}", rows.len());
    match w {
        Wrapper::ValueList => run(fmt, o, "list_tickets", &Value::Array(values)),
        Wrapper::ValueRecord => {
            let record = rows.first().cloned().unwrap_or_else(|| ticket_value(0));
            run(fmt, o, "get_ticket", &record)
        }
        Wrapper::TypedVec => run(fmt, o, "list_tickets", &typed()),
        Wrapper::TypedPage => {
            let page = Page::new(typed())
                .has_more(true)
                .next_cursor(cursor)
                .next_call("list_tickets", "cursor");
            run(fmt, o, "list_tickets", &page)
        }
        Wrapper::ValuePage => {
            let page = Page::new(values)
                .has_more(true)
                .next_cursor(cursor)
                .next_call("list_tickets", "cursor");
            run(fmt, o, "list_tickets", &page)
        }
        Wrapper::Reply => {
            let reply = Reply::new(Value::Array(values))
                .next(NextAction::call("close_ticket").arg("id", "T-0003"))
                .link("dashboard", "https://desk.example.com/");
            run(fmt, o, "list_tickets", &reply)
        }
        Wrapper::Err => {
            let r: Result<Vec<Ticket>, ToolError> = Err(ToolError::new(
                ErrorKind::NotFound,
                "ticket T-9999 does not exist",
            )
            .hint("call list_tickets"));
            run(fmt, o, "get_ticket", &r)
        }
        Wrapper::Batch => {
            let mut b = Batch::with_values();
            for (i, v) in values.into_iter().enumerate() {
                b = b.ok_with(format!("T-{i:04}"), v);
            }
            let b = b
                .failed(
                    "T-9998",
                    ToolError::new(ErrorKind::Unavailable, "desk busy").retryable(true),
                )
                .retry_call("update_tickets", "ids");
            run(fmt, o, "update_tickets", &b)
        }
        Wrapper::Registered => run(fmt, o, "render_tickets", &Value::Array(values)),
        Wrapper::Streamed => {
            let collected = fmt.collect_rows("list_tickets", values.clone());
            let mut out = run(fmt, o, "list_tickets", &collected);
            if !o.focus {
                out.format_rows = Some(fmt.format_rows("list_tickets", values));
            }
            out
        }
    }
}

/// The text with store references masked (each stored result gets a fresh one).
pub fn strip_refs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("ref=\"r_") {
        out.push_str(&rest[..i + 7]);
        let tail = &rest[i + 7..];
        let n = tail.bytes().take_while(u8::is_ascii_alphanumeric).count();
        out.push('*');
        rest = &tail[n..];
    }
    out.push_str(rest);
    out
}

/// Row ids (`T-0042`) in order of appearance, each once (the error's and the failed batch
/// item's ids aside).
pub fn ids(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i + 6 <= b.len() {
        if b[i] == b'T' && b[i + 1] == b'-' && b[i + 2..i + 6].iter().all(u8::is_ascii_digit) {
            let id = &s[i..i + 6];
            if id != "T-9999" && id != "T-9998" && !out.iter().any(|o| o == id) {
                out.push(id.to_owned());
            }
            i += 6;
        } else {
            i += 1;
        }
    }
    out
}

/// The tool whose failure `text` reports, read the way the renderer writes it: the first line
/// is exactly the title `**{tool} failed**` (`Some("")` for a nameless `**failed**`). Data that
/// merely contains `failed**` (a cell `" failed**"` in a CSV table, a value in a record) is no
/// error title.
pub fn error_title(text: &str) -> Option<&str> {
    let inner = text
        .lines()
        .next()?
        .strip_prefix("**")?
        .strip_suffix("failed**")?;
    if inner.is_empty() {
        return Some("");
    }
    let tool = inner.strip_suffix(' ')?;
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    (!tool.is_empty() && tool.chars().all(name_char)).then_some(tool)
}

/// Check every promise on one output of `rows.len()` rows. `exact_rows`: the row ids occur
/// nowhere else in the data (so the text and the JSON can be compared row by row). Each
/// failure is `(promise, details)`.
pub fn check(
    w: Wrapper,
    o: &Options,
    rows: usize,
    exact_rows: bool,
    out: &Out,
) -> Vec<(String, String)> {
    let mut fails: Vec<(&'static str, String)> = Vec::new();
    let text = &out.text.text;
    let json = out.json.to_string();
    let mut fail = |what: &'static str, detail: String| fails.push((what, detail));
    for s in SECRETS {
        if text.contains(s) {
            fail("secret in the text", s.into());
        }
        if json.contains(s) {
            fail("secret in the structured JSON", s.into());
        }
    }
    let is_err = w == Wrapper::Err;
    if out.text.is_error() != is_err {
        fail("is_error() wrong", String::new());
    }
    if is_err {
        if error_title(text) != Some("get_ticket") {
            fail(
                "no `**get_ticket failed**` title on the first line",
                String::new(),
            );
        }
        if !text.contains("not_found") || !json.contains("not_found") {
            fail("the error kind is lost", String::new());
        }
    } else if error_title(text).is_some() {
        fail(
            "a failed title on a result that is not an error",
            String::new(),
        );
    }
    if w.is_page() {
        if !text.contains("has_more: true") {
            fail("page lost `has_more: true`", String::new());
        }
        // Its own next call, or (its rest stored) the fetch tool's, whose last page ends
        // with it (SPEC 19).
        let own = "Next: call list_tickets(cursor=";
        let fetch = "Next: call get_stored_result(ref=";
        let reached = text.contains(own)
            || out.fetched.last().is_some_and(|p| p.contains(own))
            || (!out.walked && text.contains(fetch));
        if !reached {
            fail("page lost its next call", String::new());
        }
        if out.json["result"]["has_more"] != json!(true) {
            fail("structured page lost has_more", String::new());
        }
        if out.json["result"].get("next").is_none() {
            fail("structured page lost its next call", String::new());
        }
        for n in out.json["notices"].as_array().into_iter().flatten() {
            if n["kind"] == "rows" && n["path"] != "/items" {
                fail(
                    "a page's rows notice has the wrong path",
                    n["path"].to_string(),
                );
            }
        }
    }
    if w == Wrapper::Reply {
        if !text.contains("Next: call close_ticket(id=\"T-0003\")") {
            fail("reply lost its next action", String::new());
        }
        if !text.contains("https://desk.example.com/") {
            fail("reply lost its link", String::new());
        }
        if out.json["result"].get("next").is_none() {
            fail("structured reply lost its next action", String::new());
        }
    }
    if w == Wrapper::Batch {
        if !text.contains("Next: call update_tickets(ids=[\"T-9998\"])") {
            fail("batch lost its retry call", String::new());
        }
        if !text.contains(&format!("{rows} succeeded, 1 failed")) {
            fail("batch lost its counts", String::new());
        }
    }
    // One voice: at most one `Next:` line to the rest of the result (the page's own call
    // or the fetch tool's), in the text and in every fetch page; never two for one tool.
    let rest = |t: &str| {
        t.lines()
            .filter(|l| {
                l.starts_with("Next: call list_tickets(")
                    || l.starts_with("Next: call get_stored_result(")
            })
            .count()
    };
    if rest(text) > 1 {
        fail("two Next: lines to the rest of the result", String::new());
    }
    let ours = ["close_ticket", "update_tickets"];
    let nexts: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Next: call "))
        .map(|l| l.split('(').next().unwrap_or(l))
        .filter(|t| ours.contains(t))
        .collect();
    for (i, a) in nexts.iter().enumerate() {
        if nexts[i + 1..].contains(a) {
            fail("two competing Next: lines for one tool", (*a).to_owned());
        }
    }
    // The fetch pages (SPEC 18, 19): no secret, one Next line, the walk ends, and it
    // reaches every row the text left out.
    if out.fetched.len() > MAX_FETCHES {
        fail("the fetch walk does not end", clip(&out.fetched[0]));
    }
    for page in &out.fetched {
        for s in SECRETS {
            if page.contains(s) {
                fail("secret in a fetch page", clip(page));
            }
        }
        if rest(page) > 1 {
            fail("two Next: lines in a fetch page", clip(page));
        }
        // The page's title, not a substring: data may hold the words.
        if error_title(page) == Some("get_stored_result") {
            fail("a fetch page failed", clip(page));
        }
    }
    if w.is_list() && exact_rows && !out.fetched.is_empty() {
        let mut seen = ids(text);
        for page in &out.fetched {
            seen.extend(ids(page));
        }
        seen.sort();
        seen.dedup();
        if seen.len() < rows {
            fail(
                "following the Next lines does not reach every row",
                format!("{} of {rows}", seen.len()),
            );
        }
        // No row served twice (SPEC 19): each row once over the pages, and of the rows the
        // text showed, at most its last (kept after the count of rows left out) again.
        let mut served: Vec<String> = Vec::new();
        for page in &out.fetched {
            for id in ids(page) {
                if served.contains(&id) {
                    fail("a row served twice by the fetch pages", id.clone());
                }
                served.push(id);
            }
        }
        let shown = ids(text);
        let again = served.iter().filter(|id| shown.contains(id)).count();
        if again > 1 {
            fail(
                "rows of the text served again by the fetch pages",
                format!("{again} of {} rows", shown.len()),
            );
        }
    }
    // The budget holds on the exact final text, unless nothing fit and that is announced.
    if let Some(b) = o.budget {
        let n = text.chars().count();
        if n > b && !text.contains("[Omitted: ") {
            fail("over the budget", format!("{n} chars over {b}"));
        }
    }
    if w.is_list() && exact_rows {
        let shown = ids(text).len();
        if shown < rows && !o.focus {
            let total = format!("of {rows} total");
            if !text.contains(&total) && !text.contains("[Omitted") {
                fail(
                    "rows cut without the true total",
                    format!("{shown} of {rows} shown"),
                );
            }
        }
        if o.budget.is_none() && w != Wrapper::Registered && ids(&json) != ids(text) {
            fail(
                "the text and the structured form keep different rows",
                format!("{} vs {}", ids(text).len(), ids(&json).len()),
            );
        }
    }
    // (Only where the data cannot hold a notice-like line of its own.)
    for line in text
        .lines()
        .filter(|l| exact_rows && l.starts_with("[Truncated to "))
    {
        if w.is_list()
            && line.contains(" rows of ")
            && !line.contains(&format!(" rows of {rows} total"))
        {
            fail("a row notice with a wrong total", line.to_owned());
        }
    }
    if w.is_typed() && text.contains("error code. The customer") {
        fail("a derived field's max_chars was ignored", String::new());
    }
    if o.store && out.text.report.truncated() && !text.contains("get_stored_result(ref=\"r_") {
        fail(
            "a cut result with a store has no stored reference",
            String::new(),
        );
    }
    if o.store && text.contains("get_stored_result(ref=") && out.text.report.reference.is_none() {
        fail("a reference promised that was not stored", String::new());
    }
    if o.shape && w != Wrapper::Err && text.contains("internal_url") {
        fail("the shape's drop did not apply", String::new());
    }
    // The agent preset folds the URL out of the view and names it (the matrix's rows carry
    // `internal_url`; random rows do not), unless folding did not pay (a small result no
    // shorter folded): then there is no left-out line and the URL is shown.
    if o.agent && !o.shape && exact_rows && rows > 0 {
        let folded = text.contains("[Left out in summary detail: ");
        let shown = text.contains("https://api.example.com/tickets/");
        if folded && shown {
            fail("the agent preset showed a machine-only URL", String::new());
        }
        let untyped = matches!(
            w,
            Wrapper::ValueList
                | Wrapper::ValueRecord
                | Wrapper::ValuePage
                | Wrapper::Reply
                | Wrapper::Batch
                | Wrapper::Streamed
        );
        if untyped && !shown && !text.contains("machine-only: internal_url") {
            fail(
                "the agent preset dropped a field without naming it",
                String::new(),
            );
        }
    }
    if let Some(a) = &out.format_async {
        if strip_refs(&a.text) != strip_refs(text) {
            fail("format_async differs from format", clip(&a.text));
        }
        if a.is_error() != is_err {
            fail("format_async: is_error() wrong", String::new());
        }
        if a.text.contains("get_stored_result(ref=") && a.report.reference.is_none() {
            fail(
                "format_async promised a reference it did not store",
                String::new(),
            );
        }
    }
    if let Some(rows_text) = &out.format_rows
        && strip_refs(rows_text) != strip_refs(text)
    {
        fail(
            "format_rows differs from collect_rows + format",
            String::new(),
        );
    }
    fails
        .into_iter()
        .map(|(what, detail)| {
            (
                what.to_owned(),
                format!(
                    "{w:?} {o:?}: {what} {detail}\n--- text ---\n{}\n--- json ---\n{}\n\
                     --- fetch pages: {} ---\n{}",
                    clip(text),
                    clip(&json),
                    out.fetched.len(),
                    out.fetched
                        .iter()
                        .map(|p| clip(p))
                        .collect::<Vec<_>>()
                        .join("\n---\n")
                ),
            )
        })
        .collect()
}

fn clip(s: &str) -> String {
    if s.chars().count() <= 700 {
        return s.to_owned();
    }
    let head: String = s.chars().take(700).collect();
    format!("{head}…")
}

#[cfg(test)]
mod tests {
    use super::fetch_line;

    #[test]
    fn a_next_lines_arguments_are_read_as_json_strings() {
        let text =
            "x\n\nNext: call get_stored_result(ref=\"r_1\", cursor=\"/\\u003cb\\\"r\\t~1/2\")";
        assert_eq!(
            fetch_line(text),
            Some(("r_1".to_owned(), Some("/<b\"r\t~1/2".to_owned())))
        );
        let text = "Next: call get_stored_result(ref=\"r_1\")";
        assert_eq!(fetch_line(text), Some(("r_1".to_owned(), None)));
    }
}
