//! Results an agent can act on: pages, errors, partial success, next actions, links and
//! resource references.
//!
//! | you return | type | the model reads |
//! |---|---|---|
//! | one page of a cursor-paginated list | [`Page`] | the items, then `has_more`, the cursor, the total and the next call |
//! | a failure | [`ToolError`] (kind: [`ErrorKind`]) | `**{tool} failed**`, kind, message, whether to retry, how to fix |
//! | a call over many items | [`Batch`] | counts, the failures, a retry of exactly the retryable ones |
//! | a suggested follow-up call | [`NextAction`] | `Next: call TOOL(ARG=VALUE, ...)` |
//! | any result with follow-ups, links, references | [`Reply`] ([`ResourceRef`], [`Reply::link`]) | the result, then `Links:`, `Resource:` and `Next:` lines |
//!
//! The types are plain values with `#[must_use]` builders (`Clone`, `Debug`). Builder
//! methods take the field's name (`.hint(..)`); where a builder and a reader would share a
//! name, the reader is `get_*` (`.get_hint()`), as in clap.
//!
//! # In the pipeline
//!
//! Each type implements [`ToolOutput`](crate::ToolOutput) and describes itself as a
//! [`Node::Envelope`](crate::doc::Node::Envelope) (see [`Envelope`](crate::doc::Envelope)): its body is
//! data (a page's items, a batch's failures, a reply's result), which caps and budgets cut
//! as any other; its lines are never cut. The formatter renders every budget candidate
//! inside the envelope, so the budget is met with the lines included, and a page's footer
//! is computed from the items the cut kept. The markdown below is what they produce.
//!
//! # The lines (exact, tested)
//!
//! | line | from | example |
//! |---|---|---|
//! | next action (pinned form) | [`NextAction::line`] | `Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")` |
//! | ... with a delay and a reason | [`NextAction::after_secs`], [`NextAction::reason`] | `Next: call check_job_status(jobId="job_9") after 30 s -- the job is queued` |
//! | page footer | [`Page::has_more`], [`Page::next_cursor`], [`Page::total`], [`Page::next_call`] | `has_more: false` (always), `next_cursor: ...`, `total: 1234`, the Next line |
//! | cut page notice | a cut [`Page`] | `[Items 26-30 of this page were cut: next_cursor resumes at item 26]` |
//! | batch counts | [`Batch::counts_line`] | `3 total, 2 succeeded, 1 failed` |
//! | batch retry | [`Batch::retry_call`] | `Next: call send_invites(emails=["c@example.com"])` |
//! | links | [`Reply::link`] | `Links: [view](https://shop.example.com/orders/7)` |
//! | resource reference | [`ResourceRef::line`] (sizes in decimal SI) | `Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc` |
//! | retryable field | [`ToolError::retryable`], [`ToolError::retry_after_secs`] | `true`, `false`, `true, after 30 s` |
//!
//! Argument values in a Next line are compact JSON (`serde_json::to_string`), kept on one
//! line and free of HTML without leaving JSON (see [`NextAction::line`]); names, cursors,
//! resource parts and link labels are escaped like inline text
//! (`text::escape_inline`), so ordinary values are verbatim; URLs are
//! percent-encoded only where they could break the link. Sizes are decimal SI
//! (`48.2 kB` = 48,213 bytes).
//!
//! # The shapes
//!
//! **Page**: the items as they render alone (a table for records, `*(empty)*` for none), a
//! blank line, then the footer lines. A cut page (caps or a budget) keeps its cut notice
//! first as every cut does, and its footer says how to reach what was dropped
//! (computed from the number of items kept):
//!
//! ```text
//! | name | email           |
//! |------|-----------------|
//! | Ada  | ada@example.com |
//!
//! has_more: true
//! next_cursor: eyJvZmZzZXQiOjUwfQ
//! total: 1234
//! Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")
//! ```
//!
//! An empty page is `*(empty)*`, a blank line, `has_more: false`: empty, not failed.
//!
//! **`ToolError`**: the pinned title, a blank line, then bullets like a record's (values
//! escaped and laid out as record values are; `hint` only when set):
//!
//! ```text
//! **get_order failed**
//!
//! - kind: not_found
//! - message: order ORD-1 does not exist
//! - retryable: false
//! - hint: list_orders(customer_id=...) lists this customer's orders
//! ```
//!
//! With a retry delay the retryable bullet reads `- retryable: true, after 30 s`.
//! Without a tool name the title is `**failed**`; nested in a record or a list, an error is
//! `- key: **failed**` with its bullets below. [`Formatted::is_error`](crate::Formatted::is_error)
//! is true for a `ToolError` (and an `Err`, also inside a `Reply`), false for everything
//! else: an empty page and a batch whose items all failed included (a batch reports
//! per-item outcomes; it did not fail as a call). An error's bullets are never cut, by a
//! budget either: keep messages to what the model needs.
//!
//! **Batch**: the counts line, a blank line, the failures table (omitted when nothing
//! failed), a blank line, the retry line (when a retry call is set and a failure is
//! retryable). Ids are written as text when they are strings, as compact JSON otherwise.
//! When succeeded items carry values ([`Batch::ok_with`]), the body is a record: `failures`
//! (the table above) then `results` (an `id` column, then the value's columns); failures
//! first, so a budget that must drop a field drops the results. Without values the
//! failures table is the result's main table: caps and budgets cut its rows (announced),
//! while the counts and the retry line still name every failure.
//!
//! ```text
//! 3 total, 2 succeeded, 1 failed
//!
//! | id            | kind        | message      | retryable |
//! |---------------|-------------|--------------|-----------|
//! | c@example.com | unavailable | mailbox full | true      |
//!
//! Next: call send_invites(emails=["c@example.com"])
//! ```
//!
//! **Reply**: the result as it renders alone, a blank line, then its lines: one
//! `Links:` line, one `Resource:` line per reference, one `Next:` line per action.
//!
//! ```text
//! **place_order result**
//!
//! - order_id: ORD-7
//! - status: placed
//!
//! Links: [view](https://shop.example.com/orders/7)
//! Resource: report.pdf (application/pdf, 48.2 kB) resource://files/abc
//! Next: call get_order(order_id="ORD-7")
//! ```
//!
//! Every envelope line (footer, cut notice, error bullets, counts, retry, links, references,
//! Next) is part of the result's contract and is never cut by caps or budgets; budgets cut
//! the data around them.
//!
//! # `Result<T, E>`
//!
//! `impl<T: ToolOutput, E: ToToolError> ToolOutput for Result<T, E>`: `Ok` renders as
//! `T`, `Err` as the [`ToolError`] from
//! [`ToToolError::to_tool_error`]. [`ToToolError`] borrows, which a bound
//! `E: Into<ToolError> + Clone` could not: `std::io::Error` and `serde_json::Error`, the
//! errors tools return most, are not `Clone`. It is implemented for `ToolError`,
//! `std::io::Error`, `serde_json::Error`, `String`, `str`, `dyn Error (+ Send + Sync)`,
//! `std::fmt::Error`, the std parse errors, and through `&E`, `Box<E>`, `Rc<E>`, `Arc<E>`;
//! a user error type implements it in one line with [`ToolError::from_error`].
//!
//! The same conversions exist as `From` for `?` in a function returning
//! `Result<_, ToolError>`:
//!
//! | from | kind |
//! |---|---|
//! | `std::io::Error` | by its `io::ErrorKind` |
//! | `serde_json::Error` | `invalid_input` (an I/O error: by its kind) |
//! | `ParseIntError`, `ParseFloatError`, `ParseBoolError`, `ParseCharError`, `TryFromIntError`, `Utf8Error`, `FromUtf8Error`, `AddrParseError` | `invalid_input` |
//! | `String`, `&str`, `Cow<str>`, `Box<dyn Error (+ Send + Sync)>`, `std::fmt::Error` | `internal` |
//!
//! The message keeps the error's `source()` chain ([`ToolError::from_error`]).
//!
//! ```
//! use tool_output_format::{ErrorKind, ToolError};
//!
//! fn parse_limit(s: &str) -> Result<u32, ToolError> {
//!     let n: u32 = s.parse()?;
//!     if n > 100 {
//!         return Err(ToolError::new(ErrorKind::InvalidInput, format!("limit {n} is over 100"))
//!             .hint("pass limit=100 and follow the cursor"));
//!     }
//!     Ok(n)
//! }
//! assert_eq!(parse_limit("25"), Ok(25));
//! assert_eq!(
//!     parse_limit("ten").unwrap_err().to_string(),
//!     "invalid input: invalid digit found in string (not retryable)"
//! );
//! ```
//!
//! # Links in derived types (planned)
//!
//! `#[tool_output(link = "view")]` on a `String` field is to render its value as
//! `[view](url)`, in table cells and record values alike (the URL encoding
//! already covers `|`, so a link cannot split a cell).

// The envelopes (`Page`, `ToolError`, `Batch`, `Reply`, `NextAction` and the types their
// builders take) are exported at the crate root; this module exports the rest.
pub(crate) mod batch;
pub(crate) mod convert;
pub(crate) mod error;
mod link;
pub(crate) mod next;
pub(crate) mod page;
pub(crate) mod reply;
pub(crate) mod resource;

pub(crate) use batch::{Batch, counts_line};
pub(crate) use convert::ToToolError;
pub(crate) use error::{ErrorKind, ToolError};
pub(crate) use link::links_line;
pub(crate) use next::NextAction;
pub(crate) use page::{Page, PageMeta};
pub(crate) use reply::Reply;
pub(crate) use resource::ResourceRef;

pub(crate) use link::Link;
pub(crate) use page::{PageCut, PageFooter, PageRest};

#[cfg(test)]
mod reparse;
