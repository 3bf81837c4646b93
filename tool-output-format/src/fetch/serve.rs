//! Serving a page of a stored result: read the value, take the page its cursor names (rows,
//! a nested table's rows, values shortened, a record's leaves, a text) and render it through
//! the fetch's formatter.

use serde_json::Value;

use super::cursor::Cursor;
use super::leaf_runs::Continue;
use super::record_rest::ALONE_CHARS;
use super::served::{Served, TextPart};
use super::stored::{Stored, matches, rows_of};
use super::tool::Fetch;
use super::write::{most_that_fit, part_cut, rows_cut};
use crate::doc::agent::{NextAction, Page};
use crate::store::StoreError;

impl Fetch {
    /// The text of the most rows from the start of `page` (fewer than all) that fit the
    /// budget with no row left out and no value shortened, found by bisection; `None` when
    /// not even the first row does.
    pub(super) fn whole_rows(&self, origin: Option<&str>, page: &Page<Value>) -> Option<String> {
        most_that_fit(page.len(), |k| {
            let head = self.first_rows(page, page.items()[..k].to_vec());
            let out = self.render(origin, false, &head);
            (!rows_cut(&out.report) && !part_cut(&out.report)).then_some(out.text)
        })
    }

    /// `page` cut to its first rows (`rows`), resuming at the next.
    pub(super) fn first_rows(&self, page: &Page<Value>, rows: Vec<Value>) -> Page<Value> {
        let k = rows.len();
        let cursors = page.get_item_cursors().unwrap_or_default();
        let mut alone = Page::new(rows)
            .has_more(page.len() > k || page.get_has_more())
            .item_cursors(cursors.iter().take(k).cloned());
        if let Some(t) = page.get_total() {
            alone = alone.total(t);
        }
        let next = cursors
            .get(k)
            .map(String::as_str)
            .or(page.get_next_cursor());
        if let Some(c) = next {
            alone = alone.next_cursor(c);
        }
        if let Some((action, arg)) = page.get_next_call() {
            alone = alone.next_call_with(action.clone(), arg);
        }
        alone
    }

    /// What `value` is served as from the cursor `at` (see the type's docs).
    pub(super) fn serve(
        &self,
        value: Value,
        reference: &str,
        at: Cursor,
        query: Option<&str>,
        origin: Option<String>,
    ) -> Result<Served, StoreError> {
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        if let Cursor::RowLeaf(row, k, item) = at {
            let label = row.to_string();
            let bad =
                || self.bad_cursor(&Cursor::RowLeaf(Box::new(Cursor::Row(0)), k, item).to_string());
            return match (self.serve(value, reference, *row, query, origin)?, item) {
                (
                    Served::Rows {
                        page,
                        origin,
                        reference,
                        ..
                    },
                    Some(i),
                ) => self
                    .leaf_items(&page, k, i, &label, &reference, origin)
                    .ok_or_else(bad),
                (
                    Served::Rows {
                        page,
                        origin,
                        reference,
                        ..
                    },
                    None,
                ) => Ok(Served::RowLeaves {
                    page,
                    k,
                    row: label,
                    origin,
                    reference,
                }),
                _ => Err(bad()),
            };
        }
        match (rows_of(value), at) {
            // A text queried: its matching sections (a line, a log entry with its
            // continuation lines, a paragraph, a heading's section), as rows.
            (Stored::Text(text), Cursor::Row(start)) if query.is_some() => Ok(self.rows_page(
                crate::cut::focus::sections(&text)
                    .map(|l| Value::String(l.to_owned()))
                    .collect(),
                start,
                &|i| i.to_string(),
                Continue {
                    then: None,
                    after: None,
                },
                (reference, query, origin),
            )),
            // An empty text: served whole (an empty block).
            (Stored::Text(text), Cursor::Row(0)) if text.is_empty() => {
                Ok(Served::Whole(Value::String(text), reference.into(), origin))
            }
            // A text: from a line, or a character of a line, on.
            (Stored::Text(text), at @ (Cursor::Row(_) | Cursor::Char(..))) if query.is_none() => {
                let (line, col) = match at {
                    Cursor::Char(l, c) => (l, c),
                    Cursor::Row(l) => (l, 0),
                    _ => unreachable!("matched above"),
                };
                let passage = crate::cut::passage::Passage::new(&text);
                let Some(start) = passage.position(&format!("{line}:{col}")) else {
                    return Err(self.bad_text_cursor(line, col, passage.lines()));
                };
                Ok(Served::Passage {
                    text,
                    start,
                    reference: reference.into(),
                    origin,
                })
            }
            (Stored::Text(_), c) => Err(self.bad_cursor(&c.to_string())),
            // The rows from the cursor, then what the first text did not show of the rows
            // before it (values shortened, fields left out), then the stored page's own next
            // call.
            (Stored::Rows(rows, then), at) => {
                let end = Continue { then, after: None };
                self.rows_from(rows, at, ("", ""), end, (reference, query, origin))
            }
            (Stored::Whole(value), Cursor::Row(_)) => {
                Ok(Served::Whole(value, reference.into(), origin))
            }
            (Stored::Whole(value), Cursor::Leaf(k)) if k < super::leaves::count(&value) => {
                Ok(Served::Leaves(value, k, reference.into(), origin))
            }
            // The rest of a table or a text the record's text cut, then the next part: what
            // the record's text left out beside it, when the cursor says, else the next part
            // the record's own page cuts.
            (Stored::Whole(value), Cursor::In(at, inner, rest)) => {
                let written = Cursor::In(at.clone(), inner.clone(), rest.clone()).to_string();
                let bad = || self.bad_cursor(&written);
                let part = match value.pointer(&at) {
                    Some(Value::Array(rows)) => Ok(rows.clone()),
                    Some(Value::String(text)) => Err(text.clone()),
                    _ => return Err(bad()),
                };
                let (after, suffix) = match rest {
                    Some(rest) => {
                        let any = !rest.entries(&value, &at).is_empty();
                        let suffix = format!("~{}", rest.write());
                        (
                            any.then(|| Cursor::Rest(at.clone(), 0, None, rest).to_string()),
                            suffix,
                        )
                    }
                    None => {
                        let after = self.after_part(&value, &at, reference, origin.as_deref());
                        (after, String::new())
                    }
                };
                match (part, *inner) {
                    (Ok(rows), inner) => {
                        let end = Continue { then: None, after };
                        let prefix = format!("{at}/");
                        let label = (prefix.as_str(), suffix.as_str());
                        self.rows_from(rows, inner, label, end, (reference, query, origin))
                    }
                    (Err(text), Cursor::Row(start)) if suffix.is_empty() => Ok(Served::Text(
                        TextPart {
                            label: (format!("{at}/"), String::new()),
                            text,
                            at,
                            start,
                            after,
                        },
                        reference.into(),
                        origin,
                    )),
                    (Err(_), _) => Err(bad()),
                }
            }
            // What a record's text left out beside the part at `at`, entry by entry: a long
            // text alone, in pieces that fit the budget; the other entries as rows.
            (Stored::Whole(value), Cursor::Rest(at, i, piece, rest)) => {
                let mut entries = rest.entries(&value, &at);
                let label = |j: usize| Cursor::Rest(at.clone(), j, None, rest.clone()).to_string();
                if let Some((field, text)) = entries.get(i).and_then(long_text) {
                    let after = (i + 1 < entries.len()).then(|| label(i + 1));
                    let part = TextPart {
                        text: text.to_owned(),
                        at: field.to_owned(),
                        start: piece.unwrap_or(0),
                        after,
                        label: (format!("{at}/~v{i}:"), format!(";{}", rest.write())),
                    };
                    return Ok(Served::Text(part, reference.into(), origin));
                }
                if piece.is_some() {
                    return Err(self.bad_cursor(&Cursor::Rest(at, i, piece, rest).to_string()));
                }
                // The rows up to the next long text, which comes alone after them.
                let text_at = (i + 1..entries.len()).find(|&j| long_text(&entries[j]).is_some());
                let after = text_at.map(|j| {
                    entries.truncate(j);
                    label(j)
                });
                let end = Continue { then: None, after };
                Ok(self.rows_page(entries, i, &label, end, (reference, None, origin)))
            }
            (Stored::Whole(_), c) => Err(self.bad_cursor(&c.to_string())),
        }
    }

    /// The page of `rows` a cursor `at` names (its cursors written between `label.0` and
    /// `label.1`): the rows from a row; or, for the rest of rows a first text showed (see
    /// [`super::parts::Short`]), the rows from `K`, then that rest; `end`: what follows the
    /// last.
    fn rows_from(
        &self,
        rows: Vec<Value>,
        at: Cursor,
        (prefix, suffix): (&str, &str),
        end: Continue,
        call: (&str, Option<&str>, Option<String>),
    ) -> Result<Served, StoreError> {
        match at {
            Cursor::Row(start) => {
                let label = |i: usize| format!("{prefix}{i}{suffix}");
                Ok(self.rows_page(rows, start, &label, end, call))
            }
            Cursor::Short(start, short) if start < rows.len() => {
                let label = |i: usize| format!("{prefix}{}{suffix}", short.row_cursor(i));
                // Nothing of the rows shown left to serve: what follows the last row.
                let more = if short.values(&rows).is_empty() {
                    end
                } else {
                    Continue {
                        then: None,
                        after: Some(format!("{prefix}{}{suffix}", short.value_cursor(0))),
                    }
                };
                Ok(self.rows_page(rows, start, &label, more, call))
            }
            Cursor::Short(_, ref short) | Cursor::Values(_, ref short) => {
                let start = match at {
                    Cursor::Values(i, _) => i,
                    _ => 0,
                };
                let label = |i: usize| format!("{prefix}{}{suffix}", short.value_cursor(i));
                let (reference, _, origin) = call;
                let values = short.values(&rows);
                Ok(self.rows_page(values, start, &label, end, (reference, None, origin)))
            }
            c => Err(self.bad_cursor(&format!("{prefix}{c}{suffix}"))),
        }
    }

    /// A page of `rows` from `start`, each row's cursor `label(i)`, `more` after the last;
    /// `call`: the stored result's reference, the query and the tool whose result it is.
    pub(super) fn rows_page(
        &self,
        mut rows: Vec<Value>,
        start: usize,
        label: &dyn Fn(usize) -> String,
        more: Continue,
        call: (&str, Option<&str>, Option<String>),
    ) -> Served {
        let (reference, query, origin) = call;
        let query = query.map(str::trim).filter(|q| !q.is_empty());
        if let Some(q) = query {
            let words: Vec<String> = q.split_whitespace().map(str::to_lowercase).collect();
            rows.retain(|row| matches(row, &words));
        }
        let total = rows.len();
        let end = start
            .saturating_add(self.rows_per_page(origin.as_deref()))
            .min(total);
        let items: Vec<Value> = rows
            .into_iter()
            .skip(start)
            .take(end.saturating_sub(start))
            .collect();
        let next = self.call_for(reference, query);
        let Continue { then, after } = more;
        // After the last row of a stored page comes its own next call: on the last page
        // when it fits (`last`), else one more fetch (cursor at the end) serves it alone.
        // After the last row of a record's table comes the next table the record cut.
        let at_end = if end < total {
            Some(label(end))
        } else {
            after.or_else(|| then.is_some().then(|| label(end)))
        };
        let last = then.filter(|_| end >= total).map(|then| {
            Page::new(items.clone())
                .has_more(true)
                .total(total as u64)
                .next_cursor(then.cursor)
                .next_call_with(then.action, then.arg)
        });
        let mut page = Page::new(items)
            .has_more(at_end.is_some())
            .total(total as u64)
            .item_cursors((start..end).map(label))
            .next_call_with(next, &self.cursor_arg);
        if let Some(c) = at_end {
            page = page.next_cursor(c);
        }
        Served::Rows {
            page,
            last,
            origin,
            reference: reference.to_owned(),
        }
    }

    /// `result` as this tool serves it (see [`Formatter::format_stored`]).
    pub(super) fn render<T: crate::ToolOutput + ?Sized>(
        &self,
        origin: Option<&str>,
        unbounded: bool,
        result: &T,
    ) -> crate::Formatted {
        self.formatter
            .format_stored(&self.tool, origin, unbounded, result)
    }

    /// This tool's call for the stored result `reference` (and the query), without a cursor.
    pub(super) fn call_for(&self, reference: &str, query: Option<&str>) -> NextAction {
        let mut next = NextAction::call(&self.tool).arg(&self.ref_arg, reference);
        if let Some(q) = query.map(str::trim).filter(|q| !q.is_empty()) {
            next = next.arg(&self.query_arg, q);
        }
        next
    }
}

/// An entry of a record's rest (see [`super::record_rest::RecordRest::entries`]) that is a text longer than
/// [`ALONE_CHARS`]: its field's name and the text (served alone, in pieces).
fn long_text(entry: &Value) -> Option<(&str, &str)> {
    let field = entry.get("field")?.as_str()?;
    let text = entry.get("value")?.as_str()?;
    (text.len() > ALONE_CHARS && text.chars().count() > ALONE_CHARS).then_some((field, text))
}
