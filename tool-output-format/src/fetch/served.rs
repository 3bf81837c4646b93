//! What a fetch call serves ([`Served`]: rows, a record's leaves, a whole value, a part of a
//! text, a passage), and the page it is as a structured result.

use serde_json::Value;

use crate::doc::agent::Page;

/// What a stored value is served as (made once per call and consumed at once).
#[allow(clippy::large_enum_variant)]
pub(crate) enum Served {
    /// A page of rows; `last`: the same page ending with the stored page's own next call
    /// (when this is the last page of a stored page's items).
    Rows {
        page: Page<Value>,
        last: Option<Page<Value>>,
        origin: Option<String>,
        /// The stored result's reference.
        reference: String,
    },
    /// The first row of a page of rows, from its `k`-th leaf (a row wider than the budget is
    /// served as a record in runs of its leaves); the cursor of that row; the reference.
    RowLeaves {
        page: Page<Value>,
        k: usize,
        row: String,
        origin: Option<String>,
        reference: String,
    },
    /// A record or a scalar, whole; the reference it is stored under; the tool whose result
    /// it is.
    Whole(Value, String, Option<String>),
    /// A stored record from a leaf on (a record whose page left fields out is served in
    /// runs of its leaves); the reference; the tool.
    Leaves(Value, usize, String, Option<String>),
    /// A text of a stored record, from a character on; the reference; the tool.
    Text(TextPart, String, Option<String>),
    /// A stored text served as text from byte `start` (see [`crate::cut::passage`]).
    Passage {
        text: String,
        start: usize,
        reference: String,
        origin: Option<String>,
    },
}

/// A text of a stored record served from a character on.
pub(crate) struct TextPart {
    /// The whole text.
    pub(super) text: String,
    /// Its JSON pointer in the record (or its dotted name).
    pub(super) at: String,
    /// The first character to serve.
    pub(super) start: usize,
    /// The cursor of the next part the record cut, after the last character.
    pub(super) after: Option<String>,
    /// The cursor of the next piece is the character it starts at between these two
    /// (`"/body/"`, `""`: `"/body/300"`).
    pub(super) label: (String, String),
}

impl Served {
    /// As a page ([`Fetch::page`]): a whole value is a page of one item, a text the lines
    /// from the cursor (`page_size` of them).
    pub(super) fn into_page(self, page_size: usize) -> Page<Value> {
        match self {
            Served::Rows { page, .. } | Served::RowLeaves { page, .. } => page,
            Served::Whole(value, ..) => Page::new(vec![value]).total(1),
            Served::Leaves(value, k, ..) => {
                let n = super::leaves::count(&value);
                Page::new(vec![super::leaves::pruned(&value, k..n)]).total(1)
            }
            Served::Text(part, ..) => {
                let rest: String = part.text.chars().skip(part.start).collect();
                Page::new(vec![Value::String(rest)]).total(1)
            }
            Served::Passage { text, start, .. } => {
                crate::cut::passage::Passage::new(&text).lines_page(start, page_size)
            }
        }
    }
}
