//! The one table builder every source fills: typed rows, `Value` rows, streamed rows, shaped
//! rows, the agent shapes' tables and derived code. It owns the column union
//! ([`Columns`]) and the secret columns: a column whose name is a secret key is written as
//! `[redacted]` while the rows are built, whatever the source (so a secret inside a page, a
//! reply or a batch is redacted as it is outside them).

use std::collections::HashSet;

use serde_json::Value;

use super::cell;
use crate::doc::{Kind, Node, Record, Table, Text};
use crate::input::context::Context;
use crate::rules::redact::REDACTED;

/// Most columns a table gets; records with more keys between them render as a list.
pub const MAX_COLUMNS: usize = 65_535;

/// The first-seen union of record keys, cheap when every record has the same keys in the
/// same order (the common case: a prefix check, no hashing).
#[derive(Default)]
pub(crate) struct Columns<'k> {
    pub names: Vec<&'k str>,
    seen: Option<HashSet<&'k str>>,
}

impl<'k> Columns<'k> {
    /// Whether `keys` (of length `len`) are the first `len` columns, in order.
    pub fn is_prefix<I: Iterator<Item = &'k str>>(&self, keys: I, len: usize) -> bool {
        len <= self.names.len() && keys.zip(&self.names).all(|(k, c)| same_key(k, c))
    }

    /// [`Columns::add`] for keys known to be distinct (a JSON object's): the first record's
    /// become the columns with no set of them built.
    pub fn add_distinct<I: Iterator<Item = &'k str> + Clone>(&mut self, keys: I, len: usize) {
        if self.names.is_empty() {
            self.names.extend(keys);
        } else {
            self.add(keys, len);
        }
    }

    /// Add the keys of one record (new ones at the end, in their order).
    pub fn add<I: Iterator<Item = &'k str> + Clone>(&mut self, keys: I, len: usize) {
        if self.is_prefix(keys.clone(), len) {
            return;
        }

        let names = &self.names;
        let seen = self
            .seen
            .get_or_insert_with(|| names.iter().copied().collect());
        for k in keys {
            if seen.insert(k) {
                self.names.push(k);
            }
        }
    }
}

/// `a == b` for the short keys of records, without a call to `memcmp`: the rows of a large
/// result are compared key by key with the columns (most rows have the same keys).
#[inline]
fn same_key(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    // Two overlapping loads cover every byte of a key of 4 to 16 bytes.
    let word = |s: &[u8], at: usize| {
        let mut w = [0; 8];
        let len = if n < 8 { 4 } else { 8 };
        w[..len].copy_from_slice(&s[at..at + len]);
        u64::from_le_bytes(w)
    };
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// A table being filled row by row, cell by cell.
pub(crate) struct Builder<'a> {
    table: Table<'a>,
    /// One flag per column when some column is secret; empty otherwise.
    secret: Vec<bool>,
    col: usize,
}

impl<'a> Builder<'a> {
    /// A table with these columns; the secret ones are found once, here.
    pub fn new(columns: Vec<Text<'a>>, cx: &Context<'_>) -> Self {
        let secret = secret_columns(&columns, cx);
        Builder {
            table: Table::new(columns),
            secret,
            col: 0,
        }
    }

    /// Write the next cell with `write` (or `[redacted]` in a secret column).
    #[inline]
    pub fn cell(&mut self, write: impl FnOnce(&mut String) -> Kind) {
        let n = self.table.columns().len().max(1);
        let kind = if self.secret.get(self.col).copied().unwrap_or(false) {
            self.table.buf_mut().push_str(REDACTED);
            Kind::Text
        } else {
            write(self.table.buf_mut())
        };
        self.table.end_cell(kind);
        self.col = (self.col + 1) % n;
    }

    /// The next cell from a JSON value (an empty cell for `None`).
    #[inline]
    pub fn value(&mut self, v: Option<&Value>, cx: &Context<'_>) {
        match v {
            Some(v) => self.cell(|out| cell::write_value(v, cx, out)),
            None => self.cell(|_| Kind::Null),
        }
    }

    /// The next cell from a node (an empty cell for `None`).
    #[inline]
    pub fn node(&mut self, n: Option<&Node<'_>>, cx: &Context<'_>) {
        match n {
            Some(n) => self.cell(|out| cell::write_node(n, cx, out)),
            None => self.cell(|_| Kind::Null),
        }
    }

    /// The table itself, for code that writes whole rows (derived `write_row`); its secret
    /// columns are redacted by [`finish`](Self::finish).
    pub fn table_mut(&mut self) -> &mut Table<'a> {
        &mut self.table
    }

    /// The filled table, `total` rows in all (the rows not built included).
    pub fn finish(mut self, total: usize) -> Table<'a> {
        if self.secret.contains(&true) && !self.table.buf_mut().is_empty() {
            let secret = self.secret;
            self.table.map_cells(|col, cell, kind, out| {
                if secret[col] && cell != REDACTED {
                    out.push_str(REDACTED);
                    Kind::Text
                } else {
                    out.push_str(cell);
                    kind
                }
            });
        }
        self.table.set_total_rows(total);
        self.table
    }
}

fn secret_columns(columns: &[Text<'_>], cx: &Context<'_>) -> Vec<bool> {
    if cx.secrets().is_empty() {
        return Vec::new();
    }
    let flags: Vec<bool> = columns.iter().map(|c| cx.is_secret(c)).collect();
    if flags.contains(&true) {
        flags
    } else {
        Vec::new()
    }
}

/// The record of these fields (built one level below `cx`), secret fields redacted.
pub(super) fn record_of<'a>(
    fields: impl ExactSizeIterator<Item = (Text<'a>, Node<'a>)>,
    cx: &Context<'_>,
) -> Record<'a> {
    let mut r = Record::default();
    r.fields.reserve(fields.len());
    for (k, v) in fields {
        r.push(k, v);
    }
    redact_record(&mut r, cx);
    r
}

/// Redact the record's secret fields in place (their values become `[redacted]`).
pub(crate) fn redact_record(r: &mut Record<'_>, cx: &Context<'_>) {
    if cx.secrets().is_empty() {
        return;
    }
    for f in &mut r.fields {
        if cx.is_secret(&f.name) {
            f.value = Node::Str(Text::Borrowed(REDACTED));
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::same_key;

    proptest! {
        #[test]
        fn same_key_is_equality(a in "[a-c_é]{0,20}", b in "[a-c_é]{0,20}") {
            prop_assert_eq!(same_key(&a, &b), a == b);
            prop_assert!(same_key(&a, &a.clone()));
        }

        #[test]
        fn same_key_sees_each_byte(a in "[a-z]{1,24}", at in 0usize..24) {
            let at = at % a.len();
            let mut b = a.clone().into_bytes();
            b[at] = b'_';
            let b = String::from_utf8(b).expect("ASCII");
            prop_assert!(!same_key(&a, &b));
        }
    }
}
