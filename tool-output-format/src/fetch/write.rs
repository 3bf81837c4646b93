//! The fetch tool's text of what it serves ([`Fetch::write`]): the page rendered through the
//! fetch's formatter, cut as few times as the budget needs, with its Next line; the parts of a
//! text; and what the render's report says was cut.

use serde_json::Value;

use super::parts::piece_end;
use super::served::{Served, TextPart};
use super::tool::Fetch;
use crate::doc::agent::ToolError;

impl Fetch {
    /// The text the model reads for what is served: a page of rows, a whole record, or the
    /// error (`**get_stored_result failed**` and what to do).
    pub(crate) fn write(&self, served: Result<Served, ToolError>) -> String {
        match served {
            Ok(Served::Rows {
                page,
                last,
                origin,
                reference,
            }) => {
                let origin = origin.as_deref();
                // The last page ends with the stored page's own next call, unless a cap or
                // the budget cuts it: then the next call is this tool's, from the first row
                // left out.
                if let Some(last) = &last {
                    let out = self.render(origin, false, last);
                    if !rows_cut(&out.report) && !part_cut(&out.report) {
                        return out.text;
                    }
                }
                let out = self.render(origin, false, &page);
                if !omitted(&out.report) && !part_cut(&out.report) {
                    return out.text;
                }
                // The budget shortened values (or left out every row), or a row's nested
                // table was capped: the most rows from the cursor that show every value and
                // every nested row, and the next page resumes after them, so no part of a
                // row is only ever seen cut.
                if let Some(text) = self.whole_rows(origin, &page) {
                    return text;
                }
                // Not one row fits the budget whole: a record row of several fields is served
                // in runs of its leaves, then the next row.
                if let (Some(row), Some(label)) = (
                    page.items().first(),
                    page.get_item_cursors().and_then(|c| c.first().cloned()),
                ) && super::leaves::count(row) > 1
                    && (last.is_none() || page.len() > 1)
                {
                    return self.row_leaves(&page, row, &label, 0, &reference, origin);
                }
                // Else the row at the cursor alone, over the budget and said so, so the walk
                // moves on and no row is out of reach.
                let first = page.items().first().cloned();
                let Some(row) = first else { return out.text };
                // The last row of a stored page goes on with the page's own next call.
                let source = match &last {
                    Some(last) if page.len() == 1 => last,
                    _ => &page,
                };
                let alone = self.first_rows(source, vec![row]);
                let whole = self.render(origin, true, &alone).text;
                let over = if omitted(&out.report) || shortened(&out.report) {
                    "the budget"
                } else {
                    "the row caps"
                };
                shown_over(over, "this row alone needs", " whole", &whole)
            }
            Ok(Served::Whole(value, reference, origin)) => {
                let origin = origin.as_deref();
                match self.record_or_runs(&value, &reference, origin) {
                    Ok((text, _)) => text,
                    Err(()) => self.leaf_run(&value, 0, &reference, origin),
                }
            }
            Ok(Served::Leaves(value, k, reference, origin)) => {
                self.leaf_run(&value, k, &reference, origin.as_deref())
            }
            Ok(Served::RowLeaves {
                page,
                k,
                row,
                origin,
                reference,
            }) => match page.items().first() {
                Some(first) => {
                    self.row_leaves(&page, first, &row, k, &reference, origin.as_deref())
                }
                None => self.render(origin.as_deref(), false, &page).text,
            },
            Ok(Served::Text(part, reference, origin)) => {
                self.text_part(&part, &reference, origin.as_deref())
            }
            Ok(Served::Passage {
                text,
                start,
                reference,
                origin,
            }) => {
                let next = |cursor: &str| {
                    self.call_for(&reference, None)
                        .arg(&self.cursor_arg, cursor)
                        .line()
                };
                self.formatter
                    .format_text_page(&self.tool, origin.as_deref(), &text, start, &next)
            }
            Err(e) => self
                .formatter
                .format(&self.tool, &Err::<Value, ToolError>(e)),
        }
    }

    /// The characters of a stored record's text from `start` that fit the budget, with the
    /// call for the next ones (or for the next part the record cut, `after`): the most that
    /// fit, found by bisection; when not even a few fit, a few, over the budget and said so.
    fn text_part(&self, part: &TextPart, reference: &str, origin: Option<&str>) -> String {
        let total = part.text.chars().count();
        let render = |chars: usize| {
            let end = piece_end(&part.text, part.start, chars);
            let piece: String = part
                .text
                .chars()
                .skip(part.start)
                .take(end - part.start)
                .collect();
            let value = serde_json::json!({
                "part": part.at,
                "characters": format!("{} to {end} of {total}", part.start + 1),
                "text": piece,
            });
            let next = if end < total {
                Some(format!("{}{end}{}", part.label.0, part.label.1))
            } else {
                part.after.clone()
            };
            let mut reply = crate::doc::agent::Reply::new(value);
            if let Some(c) = next {
                reply = reply.next(self.call_for(reference, None).arg(&self.cursor_arg, c));
            }
            self.render(origin, false, &reply)
        };
        let rest = total.saturating_sub(part.start);
        let whole = render(rest);
        if !whole.report.truncated() || rest <= 1 {
            return whole.text;
        }
        most_that_fit(rest, |k| {
            let out = render(k);
            (!out.report.truncated()).then_some(out.text)
        })
        .unwrap_or_else(|| {
            let few = render(crate::cut::fit::MIN_VALUE_CHARS.min(rest));
            shown_over("the budget", "these characters alone need", "", &few.text)
        })
    }
}

/// `text` served past a bound, and said so: `[Over OVER: ALONE N characters; shown[ whole]
/// so the rest stays reachable]` above it (`N`: its length).
pub(super) fn shown_over(over: &str, alone: &str, whole: &str, text: &str) -> String {
    crate::sink::notice::shown_over(over, alone, whole, text)
}

/// Whether a cap or the budget left rows out (or everything).
pub(super) fn rows_cut(report: &crate::Report) -> bool {
    report.notices.iter().any(|n| {
        matches!(
            n,
            crate::doc::notice::Notice::Rows { .. }
                | crate::doc::notice::Notice::Items { .. }
                | crate::doc::notice::Notice::Omitted { .. }
        )
    })
}

/// The text of the largest `k` in `1..fails` whose `try_k` fits (`Some`), by bisection,
/// assuming what fits grows with `k`; `None` when not even `k = 1` does.
pub(super) fn most_that_fit(
    mut fails: usize,
    try_k: impl Fn(usize) -> Option<String>,
) -> Option<String> {
    let (mut fits, mut text) = (0, None);
    while fails - fits > 1 {
        let k = fits + (fails - fits) / 2;
        match try_k(k) {
            Some(t) => {
                fits = k;
                text = Some(t);
            }
            None => fails = k,
        }
    }
    text
}

/// Whether part of a row is cut: a value shortened by the budget, a nested table capped, or
/// columns left out.
pub(super) fn part_cut(report: &crate::Report) -> bool {
    shortened(report) || report.nested_cut || report.columns_cut
}

/// Whether the budget shortened values (each then ends with `…[+N chars]`).
fn shortened(report: &crate::Report) -> bool {
    report
        .notices
        .iter()
        .any(|n| matches!(n, crate::doc::notice::Notice::Shortened { .. }))
}

/// Whether the budget left fields of a record out (or everything).
pub(super) fn fields_cut(report: &crate::Report) -> bool {
    report.notices.iter().any(|n| {
        matches!(
            n,
            crate::doc::notice::Notice::Fields { .. } | crate::doc::notice::Notice::Omitted { .. }
        )
    })
}

/// Whether nothing of the result fit the budget.
fn omitted(report: &crate::Report) -> bool {
    report
        .notices
        .iter()
        .any(|n| matches!(n, crate::doc::notice::Notice::Omitted { .. }))
}
