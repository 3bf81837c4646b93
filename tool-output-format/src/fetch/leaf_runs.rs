//! A stored record too large for one page, served as runs of its leaves (`"@12"`): the most
//! leaves that fit, the items of a leaf that is a list, and where the next run starts.

use serde_json::Value;

use super::cursor::Cursor;
use super::parts::cut_parts;
use super::served::Served;
use super::stored::Then;
use super::tool::Fetch;
use super::write::{fields_cut, most_that_fit, part_cut, shown_over};
use crate::doc::agent::{Page, ToToolError};

impl Fetch {
    /// A stored record as the model reads it, whole (full detail), and the parts it cuts
    /// (see [`cut_parts`]). When it cuts one, the text ends with the call to the first
    /// part's rest (part of the document, inside the budget); the parts are then those of
    /// the text with that line.
    fn record_with_report(
        &self,
        value: &Value,
        reference: &str,
        origin: Option<&str>,
    ) -> (String, Vec<(String, String)>, crate::Report) {
        let out = self.render(origin, false, value);
        let mut parts = cut_parts(value, &out.report);
        let Some(mut first) = parts.first().cloned() else {
            return (out.text, parts, out.report);
        };
        let mut last = out;
        // The Next line takes room: a table may show fewer rows with it; settle the cursor.
        for _ in 0..3 {
            let next = self
                .call_for(reference, None)
                .arg(&self.cursor_arg, format!("{}/{}", first.0, first.1));
            let reply = crate::doc::agent::Reply::new(value.clone()).next(next);
            last = self.render(origin, false, &reply);
            parts = cut_parts(value, &last.report);
            match parts.first() {
                Some(p) if *p != first => first = p.clone(),
                _ => break,
            }
        }
        (last.text, parts, last.report)
    }

    /// [`Fetch::record_with_report`], or `Err` when its page leaves fields out of a record of more than
    /// one leaf: then the record is served in runs of its leaves ([`Fetch::leaf_run`]).
    pub(super) fn record_or_runs(
        &self,
        value: &Value,
        reference: &str,
        origin: Option<&str>,
    ) -> Result<(String, Vec<(String, String)>), ()> {
        let (text, parts, report) = self.record_with_report(value, reference, origin);
        if fields_cut(&report) && super::leaves::count(value) > 1 {
            return Err(());
        }
        Ok((text, parts))
    }

    /// The page of a stored record from its `k`-th leaf: the most leaves from there (at least
    /// one) whose fields fit the budget with nothing cut, found by bisection, and the call for
    /// the next leaf. A leaf that does not fit alone is served as a record of that one field,
    /// whose cut parts (a table's rows, a long text) the next calls serve before the next
    /// leaf.
    pub(super) fn leaf_run(
        &self,
        value: &Value,
        k: usize,
        reference: &str,
        origin: Option<&str>,
    ) -> String {
        let run = Run {
            label: &|j| format!("@{j}"),
            after: None,
            in_row: None,
        };
        self.leaves_from(value, k, reference, origin, &run)
    }

    /// The page of `value` (a stored record, or a row of stored rows) from its `k`-th leaf
    /// (see [`Fetch::leaf_run`]): the next leaf's cursor is `run.label(j)`, and after the
    /// last leaf comes `run.after`.
    fn leaves_from(
        &self,
        value: &Value,
        k: usize,
        reference: &str,
        origin: Option<&str>,
        run: &Run<'_>,
    ) -> String {
        let n = super::leaves::count(value);
        let next_at = |end: usize| {
            let cursor = if end < n {
                Some((run.label)(end))
            } else {
                run.after.clone()
            };
            cursor.map(|c| self.call_for(reference, None).arg(&self.cursor_arg, c))
        };
        // The leaves `k..end` with the call for what comes after them (none after the last).
        let with_next = |end: usize, unbounded: bool| {
            let part = super::leaves::pruned(value, k..end);
            match next_at(end) {
                Some(next) => self.render(
                    origin,
                    unbounded,
                    &crate::doc::agent::Reply::new(part).next(next),
                ),
                None => self.render(origin, unbounded, &part),
            }
        };
        let run_page = |end: usize| with_next(end, false);
        // Nothing cut: no notice (a field, a row, an item, a line left out, a value
        // shortened), no nested part capped.
        let whole =
            |out: &crate::Formatted| out.report.notices.is_empty() && !part_cut(&out.report);
        let all = run_page(n);
        if whole(&all) {
            return all.text;
        }
        if let Some(text) = most_that_fit(n - k, |j| {
            let out = run_page(k + j);
            whole(&out).then_some(out.text)
        }) {
            return text;
        }
        if let Some((page, label)) = run.in_row {
            // A row's list that alone does not fit: its items, page by page, then the next
            // leaf.
            if let Some(items) =
                self.leaf_items(page, k, 0, label, reference, origin.map(str::to_owned))
            {
                return self.write(Ok(items));
            }
            // Another leaf alone over the budget: shown whole and said so, and the walk goes
            // on with the next leaf.
            let whole = with_next(k + 1, true).text;
            return shown_over("the budget", "this field alone needs", " whole", &whole);
        }
        // One leaf alone is cut. A list or a text is served as the rest of a record's part
        // is (rows or pieces of text, from the first), then the next leaf.
        if let Some((at, Value::Array(_) | Value::String(_))) = super::leaves::nth(value, k) {
            let served = self.serve(
                value.clone(),
                reference,
                Cursor::In(at, Box::new(Cursor::Row(0)), None),
                None,
                origin.map(str::to_owned),
            );
            return self.write(served.map_err(|e| e.to_tool_error()));
        }
        // Another value: its parts (if any) are served next, then the next leaf.
        let one = super::leaves::pruned(value, k..k + 1);
        let (text, parts, _) = self.record_with_report(&one, reference, origin);
        if parts.is_empty() && k + 1 < n {
            // Cut with no part to serve (its field over the budget whatever is done): the
            // walk goes on with the next leaf.
            return with_next(k + 1, false).text;
        }
        text
    }

    /// The first row of `page` (`row`, whose cursor is `label`) from its `k`-th leaf: its
    /// leaves' cursors are `LABEL@J`, and after its last leaf comes the cursor of the next
    /// row of the page (or the page's next cursor).
    pub(super) fn row_leaves(
        &self,
        page: &Page<Value>,
        row: &Value,
        label: &str,
        k: usize,
        reference: &str,
        origin: Option<&str>,
    ) -> String {
        let after = row_after(page);
        let run = Run {
            label: &|j| format!("{label}@{j}"),
            after,
            in_row: Some((page, label)),
        };
        self.leaves_from(row, k, reference, origin, &run)
    }

    /// The items of the `k`-th leaf (a list) of the first row of `page` (whose cursor is
    /// `label`), from the `i`-th, as rows (`LABEL@K/I`); after the last, the row's next leaf
    /// or, after its last leaf, the row after it. `None` when that leaf is not a list.
    pub(super) fn leaf_items(
        &self,
        page: &Page<Value>,
        k: usize,
        i: usize,
        label: &str,
        reference: &str,
        origin: Option<String>,
    ) -> Option<Served> {
        let row = page.items().first()?;
        let (_, Value::Array(items)) = super::leaves::nth(row, k)? else {
            return None;
        };
        let after = if k + 1 < super::leaves::count(row) {
            Some(format!("{label}@{}", k + 1))
        } else {
            row_after(page)
        };
        let more = Continue { then: None, after };
        let item_label = |j: usize| format!("{label}@{k}/{j}");
        Some(self.rows_page(
            items.clone(),
            i,
            &item_label,
            more,
            (reference, None, origin),
        ))
    }

    /// The cursor after a stored record's part at `at`: the next part its page cut, or,
    /// for a record served in runs of its leaves, the next part of the leaf's own page, then
    /// the next leaf.
    pub(super) fn after_part(
        &self,
        value: &Value,
        at: &str,
        reference: &str,
        origin: Option<&str>,
    ) -> Option<String> {
        let next_of = |cuts: &[(String, String)]| {
            cuts.iter()
                .skip_while(|(p, _)| *p != at)
                .nth(1)
                .map(|(p, k)| format!("{p}/{k}"))
        };
        if let Ok((_, cuts)) = self.record_or_runs(value, reference, origin) {
            return next_of(&cuts);
        }
        let leaf = super::leaves::holding(value, at)?;
        let one = super::leaves::pruned(value, leaf..leaf + 1);
        let (_, cuts, _) = self.record_with_report(&one, reference, origin);
        next_of(&cuts)
            .or_else(|| (leaf + 1 < super::leaves::count(value)).then(|| format!("@{}", leaf + 1)))
    }
}

/// The cursor after the first row of `page`: the next row's, or the page's next cursor.
fn row_after(page: &Page<Value>) -> Option<String> {
    page.get_item_cursors()
        .and_then(|c| c.get(1).cloned())
        .or_else(|| page.get_next_cursor().map(str::to_owned))
}

/// How a run of leaves names its cursors: the `j`-th leaf's (`label`), and the one after the
/// last leaf (`after`, none: the walk ends).
struct Run<'l> {
    label: &'l dyn Fn(usize) -> String,
    after: Option<String>,
    /// The leaves are those of the first row of this page, whose cursor is this (not the
    /// stored record's own, whose parts have cursors of their own).
    in_row: Option<(&'l Page<Value>, &'l str)>,
}

/// What follows the last row of a page of rows: a stored page's own next call (`then`), or
/// this tool's cursor into the next table a record cut (`after`).
pub(super) struct Continue {
    pub(super) then: Option<Then>,
    pub(super) after: Option<String>,
}
