//! Render LLM agent tool results as markdown a model reads reliably and cheaply.
//!
//! A model handed 40 records as raw JSON skims and guesses; the same records as a markdown
//! table, trimmed with an honest notice, it reasons over. This crate turns a tool's result
//! (a `serde_json::Value`, or your own types through [`ToolOutput`]) into such text.
//!
//! ```
//! use tool_output_format::Formatter;
//! use serde_json::json;
//!
//! let team = json!([
//!     {"name": "Alice", "role": "engineer", "team": "infra"},
//!     {"name": "Bob", "role": "PM", "team": "product"},
//! ]);
//! assert_eq!(
//!     Formatter::new().format("list_team", &team),
//!     "| name  | role     | team    |\n\
//!      |-------|----------|---------|\n\
//!      | Alice | engineer | infra   |\n\
//!      | Bob   | PM       | product |"
//! );
//! ```
//!
//! # The flow
//!
//! Sources (the `Value` walker, derived or hand-written [`ToolOutput`] impls) describe the
//! result as a [`Node`]; caps cut it and record [`Notice`]s; the markdown sink
//! writes it. Typed and untyped results meet in the same document, so they render the same.
//!
//! # Rendering rules
//!
//! | result | rendering |
//! |---|---|
//! | non-empty list of records | markdown table, columns in first-seen order across all rows |
//! | one record | `**{tool} result**`, a blank line, then `- key: value` bullets |
//! | string | fenced code block (fence longer than any backtick run inside) |
//! | number, bool | the value as serde_json writes it |
//! | null | `null` |
//! | empty list / empty record | `*(empty)*` |
//! | list of scalars, or mixed | one bullet per item (null items as `null`, empty strings as a bare `-`); records as sub-bullets |
//!
//! Inside records: nested objects are indented sub-bullets (`{}` when empty); lists of
//! records are tables inside the item (after a blank line); lists of numbers, booleans and
//! non-empty strings are joined with `, ` (`[]` when empty); other lists are nested bullets
//! (after a blank line when the first one is a bare `-`, so it cannot underline the key);
//! multi-line strings are fenced code blocks inside the item; null and empty strings leave
//! the value empty (`- key:`). Records with more than
//! [`MAX_COLUMNS`] (65,535) keys between them, more cells than GFM parsers
//! read as a table row, are listed as records instead of tabled.
//!
//! In table cells (`source::cell`): null is empty, scalar lists are joined with `, `,
//! other nested values are compact JSON.
//!
//! # The raw text is what the model reads
//!
//! Text is escaped only where it would change the structure, by one invertible mapping:
//! `_id`, `+1`, `1.0.0`, `<details>`, `C:\path`, `a*b` and a cell's JSON are written as they
//! are. What is escaped: `|` as `\|`; a line break as `<br>`; control and bidi characters
//! (tab, NUL, ESC, U+202E ...) and a space at either end of a value as `\u{HEX}`; the escape
//! forms themselves (a literal `<br>` as `\<br>`, a literal `\u{` as `\u{5C}u{`, a backslash
//! before a line break as `\u{5C}`); and, at the start of a list item only, a block opener
//! (`# `, `>`, `- `, `1. `, `---`, a fence, `<div`, `[`) gets a backslash before it. To read a
//! value back: `\|` is `|`, `\<br>` is `<br>`, `<br>` is a line break, `\u{HEX}` is that
//! character; every other character, backslashes included, is itself. So JSON in a cell
//! parses with `serde_json` once `\|` is read as `|` (unless a string in it holds a literal
//! `<br>` or `\u{`). A markdown *viewer* reads the raw text differently in one place: it
//! hides a backslash before punctuation (`a\*b` shows as `a*b`, `x\\|y` as `x\|y`) and may
//! render inline HTML; the raw text, which is what the model reads, is the contract.
//!
//! # Caps
//!
//! Strings over `max_lines` lines (default 100) keep their first lines and tables over
//! `max_rows` rows (default `max_lines`) their first rows; the cut is announced first:
//! `[Truncated to 100 rows of 10000 total]`, a blank line, then the content. A table nested
//! in a record or list is capped by `max_rows` too, announced in place (the notice line, a
//! blank line, then the table, inside the item). `max_cell_chars` cuts long cells and values
//! (`…[+N chars]`, only when that is shorter than the value); [`Formatter::max_chars`] and
//! `max_tokens` fit the whole output into a budget, a registered renderer's text included;
//! [`Formatter::format_with_report`] tells what was produced and cut (every cut value
//! counted, field `max_chars` included).
//!
//! What a budget cuts first: the largest collections at any depth (table
//! rows, list items, lines of long strings, a prefix kept of each); then long values, cut to
//! no less than 32 characters and only when that keeps more rows; whole fields of a record
//! last, largest first, short scalar fields (ids, counts, flags, cursors of up to 64
//! characters) only when nothing else is left. A page `{total_count, items: [...],
//! next_cursor}` keeps its cursor and counts and as many rows as fit. When nothing fits, one
//! line says what was omitted and the least it needs:
//! `[Omitted: 1000 rows; 1 row needs 365 chars, over the budget of 120]`.
//!
//! Options resolve most specific first: a tool's options ([`Formatter::tool`]) > the type's
//! attributes (`#[tool_output(max_rows = N)]`) > the formatter's.
//!
//! # Results an agent can act on
//!
//! [`Page`], [`ToolError`] (and `Result<T, E>`), [`Batch`] and [`Reply`] wrap a result with
//! what an agent loops on: whether more exists and the call that fetches it, what failed and
//! whether a retry can help, per-item outcomes with a retry of exactly the retryable items,
//! follow-up calls, links and resource references. These lines are the result's envelope:
//! caps and budgets cut the data inside it, never the envelope, and a page cut by either
//! says how to reach the dropped items (see [`agent`] for every line, [`Envelope`] for the
//! JSON shape). [`Formatted::is_error`] tells a failure from everything else.
//!
//! ```
//! use tool_output_format::{Batch, ErrorKind, Formatter, NextAction, Page, Reply, ToolError};
//!
//! let fmt = Formatter::new();
//!
//! // A page: the footer always says `has_more`, and gives the next call.
//! let page = Page::new(vec!["Ada", "Bob"])
//!     .has_more(true)
//!     .next_cursor("eyJvZmZzZXQiOjUwfQ")
//!     .next_call("list_contacts", "cursor");
//! assert_eq!(
//!     fmt.format("list_contacts", &page),
//!     "- Ada\n- Bob\n\nhas_more: true\nnext_cursor: eyJvZmZzZXQiOjUwfQ\n\
//!      Next: call list_contacts(cursor=\"eyJvZmZzZXQiOjUwfQ\")"
//! );
//!
//! // An error: marked as a failure, with what to do about it.
//! let err: Result<u32, ToolError> = Err(ToolError::new(ErrorKind::NotFound, "order ORD-1 does not exist")
//!     .hint("list_orders(customer_id=...) lists this customer's orders"));
//! let out = fmt.format_with_report("get_order", &err);
//! assert!(out.is_error());
//! assert_eq!(
//!     out.text,
//!     "**get_order failed**\n\n- kind: not_found\n- message: order ORD-1 does not exist\n\
//!      - retryable: false\n- hint: list_orders(customer_id=...) lists this customer's orders"
//! );
//!
//! // A batch: counts, the failures, and a retry of exactly the retryable ones.
//! let batch = Batch::new()
//!     .ok("a@example.com")
//!     .failed("c@example.com", ToolError::new(ErrorKind::Unavailable, "mailbox full"))
//!     .retry_call("send_invites", "emails");
//! let md = fmt.format("send_invites", &batch);
//! assert!(md.starts_with("2 total, 1 succeeded, 1 failed\n"));
//! assert!(md.ends_with("Next: call send_invites(emails=[\"c@example.com\"])"));
//!
//! // A reply: any result with its follow-up call and links.
//! let reply = Reply::new("job_9 queued")
//!     .next(NextAction::call("check_job_status").arg("job_id", "job_9").after_secs(30))
//!     .link("view", "https://jobs.example.com/9");
//! assert!(fmt.format("start_job", &reply).ends_with(
//!     "Links: [view](https://jobs.example.com/9)\n\
//!      Next: call check_job_status(job_id=\"job_9\") after 30 s"
//! ));
//! ```
//!
//! # Limits on hostile input
//!
//! Records and lists nest at most [`MAX_DEPTH`] (32) levels; a deeper subtree is
//! replaced by `[Truncated at depth 32: N nested values omitted]`. Every walk is bounded by
//! that depth, so a 100,000-deep value renders on a small stack.
//!
//! # Layouts
//!
//! [`Layout::Aligned`] (default) pads columns to their widest cell by display width, but a
//! cell wider than `sink::markdown::PAD_CAP` (32) columns does not widen its column.
//! [`Layout::Compact`] drops padding and uses `|-|` separators. [`Layout::Csv`] writes tables
//! as RFC 4180 CSV with the `csv` crate (the fewest tokens on uniform tables: 0.92x TOON on
//! the bundled ones) and everything else as markdown; a table nested in a record is a fenced
//! `csv` block inside the item. `csv::Reader` reads a top-level table back to exactly its
//! header and kept cells: cells are written verbatim (quoted when they must be, a whole
//! record quoted when a cell has edge white space or a control character), and cells
//! starting with `=`, `+`, `-` or `@` are not altered (the reader is a model, not a
//! spreadsheet; neutralise them yourself before opening the CSV in one). The rules and the
//! re-parse argument for nested blocks are in `src/sink/csv.rs`.
//!
//! # Structured JSON
//!
//! [`Formatter::format_json`] gives the same shaped, capped result as a
//! [`serde_json::Value`], for hosts that read structured content (MCP `structuredContent`):
//!
//! ```json
//! {"result": [{"id": 1, "tags": ["a"]}],
//!  "notices": [{"kind": "rows", "path": "", "kept": 1, "total": 9,
//!               "text": "[Truncated to 1 rows of 9 total]"}]}
//! ```
//!
//! `result` is the value after caps and budgets: a table is an array of objects, every
//! column in every row, cells keeping their kind (numbers, booleans, `null`, nested JSON);
//! records are objects, strings strings, shortened values strings ending with their
//! `…[+N chars]` marker. `notices` records every cut, never silently applied: `kind`
//! (`rows`, `lines`, `fields`, `items`, `shortened`, `omitted`, `depth`), `path` (an RFC
//! 6901 JSON Pointer into `result`: `""` for the whole result, `/orders` for a table nested
//! in a field), the figures (`kept` and `total`, `strategy`, `values` and `max_chars`,
//! `needed`, `budget` and `unit`) and `text` (the line markdown prints). Budgets measure the
//! compact serialization.
//!
//! An agent envelope ([`Page`], [`ToolError`], [`Batch`], [`Reply`]) is one object inside
//! `result`: its data under its own key (`items` for a page, `result` for a reply) and its
//! parts beside the data, never inside it (`has_more`, `next_cursor`, `next` for a page;
//! `error` for an error). Parts are never cut:
//!
//! ```
//! use serde_json::json;
//! use tool_output_format::{Formatter, Page};
//!
//! let page = Page::new(vec![json!({"id": 1}), json!({"id": 2})]).has_more(true).next_cursor("c2");
//! assert_eq!(
//!     Formatter::new().format_json("list", &page),
//!     json!({"result": {"items": [{"id": 1}, {"id": 2}], "has_more": true, "next_cursor": "c2"},
//!            "notices": []})
//! );
//! let cut = Formatter::new().max_rows(1).format_json("list", &page);
//! assert_eq!(cut["result"]["items"], json!([{"id": 1}]));
//! assert_eq!(cut["result"]["next_cursor"], "c2");
//! ```
//!
//! # Streams
//!
//! [`Formatter::format_rows`] renders records from an iterator as one table, keeping only
//! the rows the row cap shows and counting the rest; [`Rows`] holds kept records with the
//! true total (and the keys seen only in records not kept), for readers that count records
//! without parsing them (the `tof` program does). Either renders like the whole array.
//! [`Layout::Aligned`] (default) pads columns to their widest cell by display width, so they
//! line up in a monospace view, as long as they can: columns are padded from the first up
//! to the first whose widest cell (or header) is over `sink::markdown::PAD_CAP` (32)
//! columns; from that column on nothing is padded (its cells could not line up, nor could
//! any column after it) and its separator is `---`. So every padded column lines up, and no
//! padding is spent where it cannot. [`Layout::Compact`] drops padding and uses `|-|`
//! separators.
//!
//! # Deriving `ToolOutput`
//!
//! With the `derive` feature (on by default), `use tool_output_format::ToolOutput;` brings the
//! trait and its derive, like serde. A struct with named fields renders as a record, and
//! `Vec<T>`, `&[T]`, `[T; N]`, `Box<[T]>` or `VecDeque<T>` of it as a table whose header
//! cells are string literals fixed at compile time; rows are written cell by cell into one
//! buffer (no `serde_json::Value`, no `String` per cell).
//!
//! ```
//! use tool_output_format::{Formatter, ToolOutput};
//!
//! #[derive(ToolOutput)]
//! struct Member { name: &'static str, role: &'static str }
//!
//! let team = vec![Member { name: "Alice", role: "engineer" }, Member { name: "Bob", role: "PM" }];
//! assert_eq!(
//!     Formatter::new().format("list_team", &team),
//!     "| name  | role     |\n|-------|----------|\n| Alice | engineer |\n| Bob   | PM       |"
//! );
//! assert_eq!(
//!     Formatter::new().format("get_member", &team[0]),
//!     "**get_member result**\n\n- name: Alice\n- role: engineer"
//! );
//! ```
//!
//! Field types go through the [`ToolOutput`](trait@ToolOutput) trait (no type sniffing):
//! strings, every integer and float type (printed exactly as serde_json prints them; NaN and
//! infinities are null), `bool`, `char`, `Option<T>`, `Vec<T>`, slices, arrays, `VecDeque<T>`,
//! `BTreeMap`/`HashMap` with string-like keys, `Box`/`Rc`/`Arc`/`&T`/`Cow`, other derived
//! types, `serde_json::Value`, `std::time::SystemTime` (RFC 3339 in UTC,
//! `2023-12-22T00:00:00Z`) and `std::time::Duration` (`1h 30m 5s 250ms`), and jiff's
//! `Timestamp`, `ZonedDateTime`, `SignedDuration`, `Span` and `civil::{Date, DateTime, Time}`
//! (as their `Display` text, which is also their serde form). Type parameters get a
//! `ToolOutput` bound.
//!
//! A field whose type implements `serde::Serialize` but not `ToolOutput` (a `uuid::Uuid`, a
//! `rust_decimal::Decimal`, a `chrono` or `jiff` timestamp, your own `Serialize` struct)
//! renders through its JSON form, `serde_json::to_value(&field)`, with the rules of any
//! `serde_json::Value` (a string is a string, a struct a nested record or a JSON cell): no
//! impl is needed. `serde` is a plain dependency of this crate (serde_json depends on it
//! anyway), so this needs no feature. A type with neither impl is a compile error at the
//! field's type that says what to do.
//!
//! A tuple struct with one field (a newtype) renders as that field, as serde serializes it:
//! `Money(4999)` reads `4999`. A tuple struct with several fields renders as the list of
//! their values (serde's array). Their fields take `with` and `redact` (and `skip`, but not
//! on the only field); names, columns and records keys do not apply to them.
//!
//! An enum whose variants are all unit variants derives as a value: its variant name (after
//! `rename_all` / `rename`). Unit structs, enums with data and unions are compile errors.
//!
//! **Consistency law.** For a type that also derives `serde::Serialize` and uses only the
//! serde-compatible attributes below (and no `skip_serializing_if`), the output equals the
//! output of `serde_json::to_value(&value)` for every tool name and option set, for a value,
//! a `Vec` and a slice. `to_json` is exactly `serde_json::to_value` (except that `HashMap`
//! entries are sorted, below).
//!
//! **Deterministic order.** The same result always renders the same bytes (which also keeps
//! prompt caches warm): a `HashMap` field renders its entries in sorted key order, and its
//! `to_json` form is sorted too. `serde_json::to_value` of a `HashMap` keeps the map's
//! per-process hash order instead, so the law holds for `HashMap` fields only up to the
//! order of their entries; use a `BTreeMap` (or an `IndexMap` through `Value`) where the
//! order must match serde's exactly.
//!
//! | attribute | on | effect | serde equivalent honoured |
//! |---|---|---|---|
//! | `rename = "name"` | field, variant | the column / key / value name | `#[serde(rename = "...")]`, `rename(serialize = "...")` |
//! | `skip` | field | left out everywhere | `#[serde(skip)]`, `#[serde(skip_serializing)]` |
//! | `max_chars = N` | field | cut to N characters on a grapheme boundary, `…[+K chars]` | none (not in the law) |
//! | `with = "path::to::fn"` | field | render `fn(&field)` instead (any `ToolOutput` or `Serialize` return type) | none (not in the law) |
//! | `with = "epoch_seconds"`, `"epoch_millis"`, `"timestamp"`, `"cents"`, `"fixed(N)"` | field | the field's JSON form through that [`Convert`] (as a shape converts a key: the items of an array one by one; a value it cannot read is kept) | none (not in the law) |
//! | `redact` | field | the value is never read: `[redacted]` in cells, records and JSON (see `redact`) | none (not in the law) |
//! | `flatten` | field | the nested derived struct's fields become columns / keys in place | `#[serde(flatten)]` |
//! | `detail = "full"` | field | shown only in [`Detail::Full`]; in summary detail (the default) left out and named in a last line (see [Large results](crate#large-results)) | none (not in the law) |
//! | `rename_all = "rule"` | struct, enum | serde's eight rules, serde's exact algorithm | `#[serde(rename_all = "...")]`, `rename_all(serialize = "...")` |
//! | `title = "..."` | struct | a `**title**` line over the table, or instead of `{tool} result` over the record | none (not in the law) |
//! | `max_rows = N` | struct | row cap for tables of this type (overrides the formatter's) | none (not in the law) |
//! | `crate = "path"` | struct, enum | path of this crate, when it is re-exported (default `::tool_output_format`) | |
//! | `canonical = "path::to::const_fn"` | struct | every final field name must satisfy `const fn(&str) -> bool` | |
//!
//! Name precedence: ours `rename` > serde `rename` > ours `rename_all` > serde `rename_all` >
//! the field name (a raw `r#` stripped). Serde keys not in the table are ignored (serde_derive
//! checks them). Mistakes are compile errors spanned at the key or literal, all reported in one
//! compile: unknown or duplicate key, bad value (the message lists the valid ones), a name that
//! is empty, has edge white space, or contains `|`, `\`, `<`, a line break or a control
//! character, `max_chars = 0` / `max_rows = 0`, two fields with one final name, `flatten`
//! combined with `rename`, `max_chars` or `with`, and `skip` (or `#[serde(skip)]`) combined
//! with any other key.
//!
//! `rename`, and `skip`:
//!
//! ```
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! #[derive(ToolOutput)]
//! struct Customer {
//!     #[tool_output(rename = "customer_id")]
//!     id: u64,
//!     #[tool_output(skip)]
//!     password_hash: String,
//! }
//!
//! let c = Customer { id: 7, password_hash: "x".into() };
//! assert_eq!(to_markdown(&c), "- customer_id: 7");
//! ```
//!
//! `max_chars` (the cut is announced in the value itself):
//!
//! ```
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! #[derive(ToolOutput)]
//! struct Ticket {
//!     #[tool_output(max_chars = 8)]
//!     body: String,
//! }
//!
//! let t = vec![Ticket { body: "Printer on fire again".into() }];
//! assert_eq!(to_markdown(&t), "| body                 |\n|----------------------|\n| Printer …[+13 chars] |");
//! ```
//!
//! `with` (the function's return type may be any `ToolOutput`; it also gives the JSON form):
//!
//! ```
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! fn dollars(cents: &u64) -> String {
//!     format!("{}.{:02}", cents / 100, cents % 100)
//! }
//!
//! #[derive(ToolOutput)]
//! struct Order {
//!     #[tool_output(with = "dollars")]
//!     total: u64,
//! }
//!
//! assert_eq!(to_markdown(&Order { total: 4999 }), "- total: 49.99");
//! ```
//!
//! A bare converter name means the [`Convert`] of that name (a function called like one is
//! reached as `self::cents`); newtypes and `Serialize`-only fields need no impl of ours:
//!
//! ```
//! use std::time::{Duration, UNIX_EPOCH};
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! #[derive(serde::Serialize)]
//! struct Customer { name: &'static str, vip: bool }
//!
//! #[derive(ToolOutput)]
//! struct Money(#[tool_output(with = "cents")] u64);
//!
//! #[derive(ToolOutput)]
//! struct Invoice {
//!     #[tool_output(with = "epoch_seconds")]
//!     due: i64,
//!     issued: std::time::SystemTime,
//!     total: Money,
//!     customer: Customer,
//! }
//!
//! let invoice = Invoice {
//!     due: 1_705_881_600,
//!     issued: UNIX_EPOCH + Duration::from_secs(1_703_203_200),
//!     total: Money(4999),
//!     customer: Customer { name: "Ada", vip: true },
//! };
//! assert_eq!(
//!     to_markdown(&invoice),
//!     "- due: 2024-01-22T00:00:00Z\n- issued: 2023-12-22T00:00:00Z\n- total: 49.99\n\
//!      - customer:\n  - name: Ada\n  - vip: true"
//! );
//! ```
//!
//! `flatten` (the nested struct must derive `ToolOutput` too):
//!
//! ```
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! #[derive(ToolOutput)]
//! struct Address { city: &'static str }
//!
//! #[derive(ToolOutput)]
//! struct Customer {
//!     name: &'static str,
//!     #[tool_output(flatten)]
//!     address: Address,
//! }
//!
//! let rows = [Customer { name: "Ada", address: Address { city: "London" } }];
//! assert_eq!(to_markdown(&rows[..]), "| name | city   |\n|------|--------|\n| Ada  | London |");
//! ```
//!
//! `rename_all` on a struct (field rule) and on an enum (variant rule), like serde:
//!
//! ```
//! use tool_output_format::{ToolOutput, to_markdown};
//!
//! #[derive(ToolOutput)]
//! #[tool_output(rename_all = "SCREAMING_SNAKE_CASE")]
//! enum Tier { FreeTrial, Enterprise }
//!
//! #[derive(ToolOutput)]
//! #[tool_output(rename_all = "camelCase")]
//! struct Account { account_tier: Tier }
//!
//! assert_eq!(to_markdown(&Account { account_tier: Tier::FreeTrial }), "- accountTier: FREE_TRIAL");
//! ```
//!
//! `title` and `max_rows`:
//!
//! ```
//! use tool_output_format::{Formatter, ToolOutput};
//!
//! #[derive(ToolOutput)]
//! #[tool_output(title = "Open tickets", max_rows = 1)]
//! struct Ticket { id: u32 }
//!
//! let md = Formatter::new().format("list_tickets", &vec![Ticket { id: 1 }, Ticket { id: 2 }]);
//! assert_eq!(md, "[Truncated to 1 rows of 2 total]\n\n**Open tickets**\n\n| id |\n|----|\n| 1  |");
//! ```
//!
//! `crate`, for code that reaches this crate through a re-export:
//!
//! ```
//! mod deps {
//!     pub use ::tool_output_format as tof;
//! }
//!
//! #[derive(deps::tof::ToolOutput)]
//! #[tool_output(crate = "deps::tof")]
//! struct Ping { ok: bool }
//!
//! assert_eq!(deps::tof::to_markdown(&Ping { ok: true }), "- ok: true");
//! ```
//!
//! `canonical`: one vocabulary across tools. A name the function rejects fails to compile,
//! with the error on that name:
//!
//! ```
//! use tool_output_format::ToolOutput;
//!
//! pub const fn snake_case(name: &str) -> bool {
//!     let b = name.as_bytes();
//!     let mut i = 0;
//!     while i < b.len() {
//!         if !(b[i].is_ascii_lowercase() || b[i].is_ascii_digit() || b[i] == b'_') {
//!             return false;
//!         }
//!         i += 1;
//!     }
//!     true
//! }
//!
//! #[derive(ToolOutput)]
//! #[tool_output(canonical = "snake_case")]
//! struct Order { order_id: u64, customer_id: u64 }
//! ```
//!
//! ```compile_fail
//! # use tool_output_format::ToolOutput;
//! # const fn snake_case(name: &str) -> bool {
//! #     let b = name.as_bytes();
//! #     let mut i = 0;
//! #     while i < b.len() {
//! #         if b[i].is_ascii_uppercase() {
//! #             return false;
//! #         }
//! #         i += 1;
//! #     }
//! #     true
//! # }
//! #[derive(ToolOutput)]
//! #[tool_output(canonical = "snake_case")]
//! struct Order {
//!     #[tool_output(rename = "orderId")] // error: rejected by `canonical = "snake_case"`
//!     order_id: u64,
//! }
//! ```
//!
//! Serde's attributes give the same names (and the law holds):
//!
//! ```
//! use serde::Serialize;
//! use tool_output_format::{Formatter, ToolOutput};
//!
//! #[derive(Serialize, ToolOutput)]
//! #[serde(rename_all = "camelCase")]
//! struct Message {
//!     message_id: String,
//!     #[serde(rename = "ms")]
//!     latency_ms: u32,
//!     #[serde(skip_serializing)]
//!     internal: u8,
//! }
//!
//! let m = Message { message_id: "msg_001".into(), latency_ms: 142, internal: 0 };
//! let fmt = Formatter::new();
//! assert_eq!(fmt.format("t", &m), "**t result**\n\n- messageId: msg_001\n- ms: 142");
//! assert_eq!(fmt.format("t", &m), fmt.format("t", &serde_json::to_value(&m).unwrap()));
//! ```
//!
//! # Large results
//!
//! For results too large to show whole: don't make the model count, default to a summary
//! and offer the detail on request, and keep the full result where the model can fetch it.
//!
//! | task | how |
//! |---|---|
//! | figures over **all** rows of a cut table | [`Formatter::summarize`]`(true)` or [`ToolOptions::summarize`] (per tool) |
//! | sums of some columns | [`Formatter::sum`] / [`ToolOptions::sum`]`(["amount"])` |
//! | fields only on request | `#[tool_output(detail = "full")]`; [`Formatter::detail`] / [`ToolOptions::detail`]`(`[`Detail::Full`]`)` |
//! | keep the full result of a cut output | [`Formatter::store`]`(Arc::new(`[`MemoryStore::new`]`(ttl)), "get_stored_result")` |
//! | the fetch tool | `fn get_stored_result(r: &str) -> Result<Value, ToolError> { Ok(store.get(r)?) }` ([`StoreError`] converts into [`ToolError`]) |
//! | log sizes | feature `tracing`: one `INFO` event per formatted result, target `tool_output_format`, message `tool result formatted`, fields `tool`, `chars`, `bytes`, `tokens` (when counted: feature `tokens`), `rows_kept`, `rows_total` (tables), `cut`, `stored` |
//!
//! A cut table with all three:
//!
//! ```text
//! [Truncated to 2 rows of 5000 total]
//!
//! | order_id  | status    | total  |
//! |-----------|-----------|--------|
//! | ORD-00001 | cancelled | 79.19  |
//! | ORD-00002 | delivered | 158.38 |
//!
//! [Summary of all 5000 rows]
//! - status: cancelled 1250, delivered 1250, pending 1250, shipped 1250
//! - total: 0.17 to 999.72, sum 2499975.0
//!
//! [Left out in summary detail: shipping_address. Call list_orders(detail="full") for them]
//! Next: call get_stored_result(ref="r_19jp0xkza7e0g3nxv8t6pwfxjy")
//! ```
//!
//! **Summary.** Shown after the table when the result's main (top-level) table lost rows
//! to a row cap or a budget. With summaries on, the whole table is built once and the caps
//! cut what is rendered; the summary reads every row's cells in one pass: the row count;
//! per column `min to max` of numbers, `earliest to latest` of RFC 3339 timestamps or
//! `YYYY-MM-DD` dates, value counts when a column has at most 10 distinct values (each at
//! most 64 bytes, at least two cells per value on average), `, sum S` for the columns named
//! by `sum` (exact decimal arithmetic), and `, N empty` for null or missing cells. Exact
//! figures, numbers as serde_json writes them; typed and `Value` tables give the same
//! summary. It is computed after redaction (secret values never reach it) and before
//! `max_cell_chars`/`max_chars` cuts (a figure is never a cut value). Tables nested in
//! records are not summarised.
//!
//! **Detail.** In [`Detail::Summary`] (the default) derived fields marked
//! `#[tool_output(detail = "full")]` are left out of records and tables (and so of the
//! summary), and the output's last lines include
//! `[Left out in summary detail: NAMES. Call TOOL(detail="full") for them]`: the tool
//! should accept an optional `detail` argument ([`Detail::from_arg`]) and render with
//! [`Detail::Full`] when given `"full"`. Without a tool name the sentence after the names is
//! left out. The JSON form (registered renderers, stores) always has every field.
//!
//! **Trim and reference.** With [`Formatter::store`], a result that was cut (any notice, or
//! a nested table that lost rows) is stored as its JSON form, secrets redacted, and the
//! output ends with the [`NextAction`] line `Next: call get_stored_result(ref="r_...")` (the
//! fetch tool's name as given). A result that was not cut is not stored. When `put` fails,
//! no reference is promised: the output ends with `[Full result not stored: REASON]` and
//! [`Report::store_error`] says why;
//! [`Report::reference`] holds the reference otherwise. [`ResultStore::get`] errors convert
//! into a [`ToolError`]: expired and unknown references are `not_found` (the message says
//! "expired" or "unknown" and what to do), a store that is down is `unavailable`
//! (retryable), an oversized value `invalid_input`, a corrupt value or bad configuration
//! `internal`.
//!
//! **Budgets.** The summary, the left-out line and the Next line are measured with the rest
//! of the output, so rows are cut to make room. The left-out and Next lines are never cut
//! (while fitting, the Next line holds a stand-in reference of the same shape; if the real
//! one breaks a token budget, the fit runs again). What a budget cuts, in order: table rows
//! (down to one), then the summary's column lines from the last (announced by
//! `- (N more columns left out to fit the budget)`; the line with the row count stays), then
//! cells are shortened, and when nothing fits the output is the `[Omitted: ...]` notice
//! followed by the left-out and Next lines (a budget too small for those is exceeded, never
//! silently).
//!
//! # Security
//!
//! A tool result is untrusted data (a web page, a ticket body, a log line). What the
//! formatter guarantees, for every input, both parsers (pulldown-cmark and comrak, GFM
//! tables on) and both layouts:
//!
//! - **Data cannot forge structure.** A table has exactly the data's columns and kept rows,
//!   and each cell's text maps back to its value (see [the mapping](crate#the-raw-text-is-what-the-model-reads):
//!   pipes, line breaks and the escape forms themselves are escaped). Records and lists have one list item per field or entry,
//!   nested as the data is. No value can open a heading, block quote, HTML block, list,
//!   thematic break, link reference definition, footnote or task-list checkbox, and no
//!   string can close its code block early (the fence is longer than any backtick run).
//! - **Nothing invisible or terminal-active is written raw.** C0 and C1 controls (NUL, ESC
//!   and so ANSI colour codes), DEL, U+2028, U+2029 and the bidi overrides and isolates
//!   become `\u{HEX}`; no line ends in white space; the output never ends with a newline.
//! - **Bounded depth.** Records and lists nest at most [`MAX_DEPTH`] levels and every
//!   walk is bounded by it, so no input overflows the stack (a 100,000-deep value renders on a
//!   2 MiB thread). Tables have at most [`MAX_COLUMNS`] columns.
//! - **Bounded, announced cuts.** Top-level tables keep at most `max_rows` rows and strings
//!   `max_lines` lines; every cut is announced first with exact counts, and a depth cut in
//!   place with the number of values omitted.
//! - **No panics.** Checked by an adversarial corpus (`tests/adversarial.rs`), 10,000
//!   generated cases per CI run (`tests/properties.rs`) and libFuzzer (`fuzz/README.md`).
//!   A registered renderer is your code: the formatter does not catch its panics.
//!
//! What it does not do:
//!
//! - **Prompt injection is out of scope.** Text inside a cell is still text, and a model may
//!   obey it ("ignore previous instructions" arrives intact, by design: the mapping keeps
//!   content). Keep untrusted results out of the instruction channel.
//! - **Inline markup is kept.** Within a line, `**bold**`, `` `code` ``, links and images
//!   (`![x](https://host/?q=...)`) and entities (`&lt;`) are written as given; a markdown
//!   viewer may render them (and fetch an image). Only block structure is neutralised.
//! - **Look-alikes are kept.** Zero-width characters, joiners, combining marks and
//!   homoglyphs are written as is (they cannot change structure).
//! - **Size is bounded only where capped or budgeted.** Without `max_chars` / `max_tokens`,
//!   records, lists and tables nested inside a record are not capped and cells are not cut
//!   (unless `max_cell_chars` is set), so output grows linearly with such input: set a budget
//!   when results may be huge.
//!
//! Secrets: keys given to [`Formatter::redact_keys`] (or per tool) and fields marked
//! `#[tool_output(redact)]` render as `[redacted]` wherever they occur, nested and inside
//! JSON cells included, and a registered renderer receives the redacted JSON: the value never
//! reaches the output (`redact`).
pub mod adapt;
pub mod agent;
mod build;
mod caps;
mod detail;
mod doc;
mod ecosystem;
mod fit;
pub mod focus;
mod focused;
mod formatter;
mod notice;
mod options;
mod pipeline;
mod redact;
mod report;
mod resolved;
pub mod shape;
mod sink;
mod source;
pub mod store;
mod summary;
mod text;
mod tokens;
mod trace;
mod trailer;

#[cfg(feature = "rmcp")]
pub use adapt::rmcp::McpResult;
pub use agent::{Batch, ErrorKind, NextAction, Page, Reply, ResourceRef, ToToolError, ToolError};
pub use build::Context;
pub use detail::Detail;
pub use doc::Envelope;
pub use doc::{Field, Kind, MAX_DEPTH, Node, Record, Table, Text, depth_notice};
pub use formatter::Focused;
pub use formatter::{Formatter, to_markdown};
pub use notice::{Notice, Strategy};
pub use options::{DEFAULT_MAX_LINES, ToolOptions};
pub use report::{FocusReport, Formatted, Kept, Report};
pub use shape::{Convert, Shape, ShapeError};
pub use sink::Layout;
pub use source::ToolOutput;
pub use source::stream::Rows;
pub use source::table::MAX_COLUMNS;
#[cfg(feature = "redis")]
pub use store::RedisStore;
pub use store::{MemoryStore, ResultStore, StoreError};
#[cfg(feature = "tokens")]
pub use tokens::O200k;
pub use tokens::TokenCounter;

/// Derive [`ToolOutput`](trait@ToolOutput) for a struct with named fields or a unit-only enum
/// (see [Deriving `ToolOutput`](crate#deriving-tooloutput)).
#[cfg(feature = "derive")]
pub use tool_output_format_derive::ToolOutput;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
