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
//! - **Near repeats written as a difference.** A nested record with the same keys, in the
//!   same order, as one of those earlier sibling values, and at least [`MIN_FIELDS`] of
//!   them, of which at most half hold a different value, is written
//!   `- 7.0.0: (same as 6.0.0, except:)` with only the fields that differ below it (npm's
//!   `versions`, a commit's `committer` whose `date` differs from its `author`'s). The
//!   fields below are grouped as usual but name no sibling: a nested record among them that
//!   differs from its counterpart in the named record by the same measure is written
//!   `- dist: (same as in 6.0.0, except:)` with only its own differing fields below, and so
//!   on down. When several earlier values qualify, the one with the fewest differences is
//!   named (the first of those).
//!
//! A key that holds a comma is never named by either form (`(same as a, except:)` could not
//! be told apart from a key `a, except:`). The literal texts that would read as these forms
//! are escaped, so the mapping stays invertible: a key named `(empty)` and a string value of
//! the form `(same as …)` are written with their `(` as `\u{28}`.

use crate::doc::{Field, Node};

/// How many distinct nested values of one record a later field is compared with.
pub(super) const MAX_CANDIDATES: usize = 32;

/// The fewest fields a nested record needs to be written as a difference from an earlier
/// sibling (with two, the reference costs about what the one shared field does).
pub(super) const MIN_FIELDS: usize = 3;

/// The group line's key.
pub(super) const EMPTY_KEY: &str = "(empty)";

/// What the lean rules decided for one record: which fields are grouped and which repeat an
/// earlier sibling.
pub(super) struct Plan<'r> {
    /// For each field: written as usual, named on the `(empty)` line, `(same as …)`, or
    /// `(same as …, except:)`.
    pub(super) fields: Vec<Instead<'r>>,
}

/// What a field is written as instead of its value.
pub(super) enum Instead<'r> {
    /// Written as usual; `true` when the value is known to hold no cut (checked here, or
    /// inside a value checked before), so the records below it need not look again.
    Itself(bool),
    /// Named on the `(empty)` line.
    Grouped,
    /// `(same as NAME)`: the index of the earlier field with the same value.
    SameAs(usize),
    /// `(same as NAME, except:)` or `(same as in NAME, except:)`, the differing fields
    /// below.
    Except(Except<'r>),
}

/// A nested record written as its difference from another.
pub(super) struct Except<'r> {
    /// The key named: the earlier sibling's, or in an except-list the one its reference
    /// names (the record below it is the counterpart).
    pub(super) name: &'r str,
    /// In an except-list: written `(same as in NAME, except:)`.
    pub(super) nested: bool,
    /// The record's fields that differ, written below.
    pub(super) differing: Vec<&'r Field<'r>>,
    /// Their counterparts in the record named, what the fields below are compared with.
    pub(super) reference: Vec<&'r Field<'r>>,
}

impl<'r> Plan<'r> {
    /// Decide for the fields of one record; `cut` when the result carries a cut notice
    /// (nothing is named then). `within` is set for an except-list: the key its reference
    /// names and, for each field, the field it differs from. There, a nested record is
    /// compared with that field only (a difference is written `(same as in NAME,
    /// except:)`), never with its siblings. `uncut`: the record is inside a value known to
    /// hold no cut (so none of its fields does).
    pub(super) fn of(
        r: &[&'r Field<'r>],
        cut: bool,
        within: Option<(&'r str, &[&'r Field<'r>])>,
        uncut: bool,
    ) -> Plan<'r> {
        let mut fields: Vec<Instead<'r>> = r.iter().map(|_| Instead::Itself(uncut)).collect();
        let groupable: Vec<usize> = (0..r.len()).filter(|&i| is_groupable(r[i])).collect();
        if groupable.len() >= 2 {
            for &i in &groupable {
                fields[i] = Instead::Grouped;
            }
        }
        let mut candidates: Vec<usize> = Vec::new();
        for (i, f) in r.iter().enumerate() {
            if cut || !is_block(&f.value) || (!uncut && holds_cut(&f.value)) {
                continue;
            }
            fields[i] = Instead::Itself(true);
            if let Some((name, reference)) = within {
                if let Some((differing, reference)) = differing(&reference[i].value, &f.value) {
                    fields[i] = Instead::Except(Except {
                        name,
                        nested: true,
                        differing,
                        reference,
                    });
                }
                continue;
            }
            if let Some(&j) = candidates.iter().find(|&&j| r[j].value == f.value) {
                fields[i] = Instead::SameAs(j);
                continue;
            }
            if let Some((j, (differing, reference))) = nearest(r, &candidates, &f.value) {
                fields[i] = Instead::Except(Except {
                    name: &r[j].name,
                    nested: false,
                    differing,
                    reference,
                });
            }
            if candidates.len() < MAX_CANDIDATES && !f.name.contains(',') {
                candidates.push(i);
            }
        }
        Plan { fields }
    }

    /// The fields named on the `(empty)` line, in record order.
    pub(super) fn grouped(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.fields.len()).filter(|&i| matches!(self.fields[i], Instead::Grouped))
    }
}

/// The differing fields of a record and their counterparts in the record named.
type Difference<'r> = (Vec<&'r Field<'r>>, Vec<&'r Field<'r>>);

/// The earlier candidate `v` is best written as a difference from: the one with the fewest
/// [`differing`] fields (the first of those). Returns its index and that difference.
fn nearest<'r>(
    r: &[&'r Field<'r>],
    candidates: &[usize],
    v: &'r Node<'r>,
) -> Option<(usize, Difference<'r>)> {
    let mut best: Option<(usize, Difference<'r>)> = None;
    for &j in candidates {
        if let Some(d) = differing(&r[j].value, v)
            && best.as_ref().is_none_or(|(_, (b, _))| d.0.len() < b.len())
        {
            best = Some((j, d));
        }
    }
    best
}

/// The fields of record `b` that differ from record `a`'s, and their counterparts in `a`,
/// when `b` is worth writing as that difference: both records, the same keys in the same
/// order, at least [`MIN_FIELDS`] of them, and at least one but at most half of them
/// differing. Neither may hold a cut (the caller checks `b`; `a` is an uncut candidate or a
/// field of one).
fn differing<'r>(a: &'r Node<'r>, b: &'r Node<'r>) -> Option<Difference<'r>> {
    let (Node::Record(a), Node::Record(b)) = (a, b) else {
        return None;
    };
    let n = b.fields.len();
    if n < MIN_FIELDS
        || a.fields.len() != n
        || a.fields
            .iter()
            .zip(&b.fields)
            .any(|(x, y)| x.name != y.name)
    {
        return None;
    }
    let (reference, differing): Difference<'r> = a
        .fields
        .iter()
        .zip(&b.fields)
        .filter(|(x, y)| x.value != y.value)
        .unzip();
    (!differing.is_empty() && differing.len() * 2 <= n).then_some((differing, reference))
}

/// A field written `- key:` with nothing after it, whose key can sit in a `, ` list.
fn is_groupable(f: &Field<'_>) -> bool {
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
