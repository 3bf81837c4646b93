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
//! result as a [`doc::Node`]; caps cut it and record [`budget::Notice`]s; the markdown sink
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
//! [`source::value::MAX_COLUMNS`] (65,535) keys between them, more cells than GFM parsers
//! read as a table row, are listed as records instead of tabled.
//!
//! In table cells ([`source::cell`]): null is empty, scalar lists are joined with `, `,
//! other nested values are compact JSON. Text is escaped by one documented, invertible
//! mapping ([`text`]): pipes and backslashes cannot split cells, line breaks become `<br>`,
//! control and bidi characters are written as `\u{HEX}`.
//!
//! # Caps
//!
//! Strings over `max_lines` lines (default 100) keep their first lines and tables over
//! `max_rows` rows (default `max_lines`) their first rows; the cut is announced first:
//! `[Truncated to 100 rows of 10000 total]`, a blank line, then the content.
//!
//! # Limits on hostile input
//!
//! Records and lists nest at most [`doc::MAX_DEPTH`] (32) levels; a deeper subtree is
//! replaced by `[Truncated at depth 32: N nested values omitted]`. Every walk is bounded by
//! that depth, so a 100,000-deep value renders on a small stack.
//!
//! # Layouts
//!
//! [`Layout::Aligned`] (default) pads columns to their widest cell by display width, but a
//! cell wider than [`sink::markdown::PAD_CAP`] (32) columns does not widen its column.
//! [`Layout::Compact`] drops padding and uses `|-|` separators.
//!
//! # Security
//!
//! A tool result is untrusted data (a web page, a ticket body, a log line). What the
//! formatter guarantees, for every input, both parsers (pulldown-cmark and comrak, GFM
//! tables on) and both layouts:
//!
//! - **Data cannot forge structure.** A table has exactly the data's columns and kept rows,
//!   and each cell's text maps back to its value ([`text`]: pipes, backslashes, line
//!   breaks and `<` are escaped). Records and lists have one list item per field or entry,
//!   nested as the data is. No value can open a heading, block quote, HTML block, list,
//!   thematic break, link reference definition, footnote or task-list checkbox, and no
//!   string can close its code block early (the fence is longer than any backtick run).
//! - **Nothing invisible or terminal-active is written raw.** C0 and C1 controls (NUL, ESC
//!   and so ANSI colour codes), DEL, U+2028, U+2029 and the bidi overrides and isolates
//!   become `\u{HEX}`; no line ends in white space; the output never ends with a newline.
//! - **Bounded depth.** Records and lists nest at most [`doc::MAX_DEPTH`] levels and every
//!   walk is bounded by it, so no input overflows the stack (a 100,000-deep value renders on a
//!   2 MiB thread). Tables have at most [`source::value::MAX_COLUMNS`] columns.
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
//! - **Size is bounded only where capped.** Records, lists and tables nested inside a
//!   record are not capped, and no cell is cut on the `Value` path, so output grows linearly
//!   with such input: cap results at the source if they may be huge.
//! - **No redaction yet.** Secret fields are rendered like any other value.
pub mod budget;
pub mod doc;
mod formatter;
mod options;
pub mod sink;
pub mod source;
pub mod text;

pub use formatter::{Formatter, to_markdown};
pub use options::{DEFAULT_MAX_LINES, Layout, ToolOptions};
pub use source::ToolOutput;
