//! Lean records: the two rules the compact layout adds to records, decided here and written
//! by the markdown writer. Neither drops anything: each writes the same information in fewer
//! tokens, in a form that names every key.
//!
//! - **Empty fields grouped.** When a record has two or more fields whose value is null or
//!   an empty string (each would be written `- key:` with nothing after it), they are written
//!   once, as the record's last line: `- (empty): fax, homepage, mirror_url`. A key that holds
//!   a comma stays in place (it could not be told apart in the list).
//! - **Repeated values named.** A nested record, table or list identical to an earlier
//!   sibling's value is written `- organization: (same as owner)` instead of a second copy
//!   (GitHub repeats `owner` as `organization`, a commit's `author` as its `committer`).
//!   Only the first [`MAX_CANDIDATES`] distinct nested values of a record are compared, so a
//!   record with thousands of nested values costs no more than 32 comparisons a field. A
//!   value that holds a cut (a table cut to its first rows, a shortened value or string, a
//!   depth cut) is never named, nor is anything when the result carries a cut notice: two
//!   values the same after a cut may differ in the data.
//!
//! The literal texts that would read as these forms are escaped, so the mapping stays
//! invertible: a key named `(empty)` and a string value of the form `(same as …)` are written
//! with their `(` as `\u{28}`.

use crate::doc::{Node, Record};

/// How many distinct nested values of one record a later field is compared with.
pub(super) const MAX_CANDIDATES: usize = 32;

/// The group line's key.
pub(super) const EMPTY_KEY: &str = "(empty)";

/// What the lean rules decided for one record: which fields are grouped and which repeat an
/// earlier sibling.
pub(super) struct Plan {
    /// For each field: written as usual, named on the `(empty)` line, or `(same as …)`.
    pub(super) fields: Vec<Instead>,
}

/// What a field is written as instead of its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Instead {
    /// Written as usual.
    Itself,
    /// Named on the `(empty)` line.
    Grouped,
    /// `(same as NAME)`: the index of the earlier field with the same value.
    SameAs(usize),
}

impl Plan {
    /// Decide for `r`; `cut` when the result carries a cut notice (nothing is named then).
    pub(super) fn of(r: &Record<'_>, cut: bool) -> Plan {
        let mut fields = vec![Instead::Itself; r.fields.len()];
        let groupable: Vec<usize> = (0..r.fields.len())
            .filter(|&i| is_groupable(r, i))
            .collect();
        if groupable.len() >= 2 {
            for &i in &groupable {
                fields[i] = Instead::Grouped;
            }
        }
        let mut candidates: Vec<usize> = Vec::new();
        for (i, f) in r.fields.iter().enumerate() {
            if cut || !is_block(&f.value) || holds_cut(&f.value) {
                continue;
            }
            match candidates.iter().find(|&&j| r.fields[j].value == f.value) {
                Some(&j) => fields[i] = Instead::SameAs(j),
                None if candidates.len() < MAX_CANDIDATES => candidates.push(i),
                None => {}
            }
        }
        Plan { fields }
    }

    /// The fields named on the `(empty)` line, in record order.
    pub(super) fn grouped(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.fields.len()).filter(|&i| self.fields[i] == Instead::Grouped)
    }
}

/// A field written `- key:` with nothing after it, whose key can sit in a `, ` list.
fn is_groupable(r: &Record<'_>, i: usize) -> bool {
    let f = &r.fields[i];
    let empty = match &f.value {
        Node::Null => true,
        Node::Str(s) => s.is_empty(),
        _ => false,
    };
    empty && !f.name.is_empty() && !f.name.contains(',') && &*f.name != EMPTY_KEY
}

/// A value written as a nested block below its key (the values worth naming once).
fn is_block(v: &Node<'_>) -> bool {
    match v {
        Node::Record(r) => !r.fields.is_empty(),
        Node::Table(_) => true,
        Node::List(l) => !l.is_empty() && !super::is_joinable(l),
        _ => false,
    }
}

/// True for a string that would read as a `(same as NAME)` reference.
pub(super) fn looks_like_reference(s: &str) -> bool {
    s.starts_with("(same as ") && s.ends_with(')')
}

/// True when `v` holds a cut or may (a conservative test: a data string that merely contains
/// a cut marker's text counts too, which only keeps its value written out in full).
fn holds_cut(v: &Node<'_>) -> bool {
    let marked = |s: &str| s.contains("…[+") || s.contains("[Truncated");
    match v {
        Node::Null | Node::Bool(_) => false,
        Node::Number(s) | Node::Str(s) => marked(s),
        Node::List(items) => items.iter().any(holds_cut),
        Node::Record(r) => r.fields.iter().any(|f| holds_cut(&f.value)),
        Node::Table(t) => t.total_rows() > t.rows() || t.cells().any(marked),
        Node::DepthCut(_) | Node::Envelope(_) => true,
    }
}
