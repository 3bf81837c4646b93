//! Lean records: the rules the compact layout adds to records, decided here and written by
//! the markdown writer. None drops a value: each writes the same information in fewer
//! tokens.
//!
//! - **Empty fields grouped.** When a record has two or more fields that hold no data (null,
//!   an empty string, list or record, or a record whose every field holds none), they are
//!   written once, as the record's last line: `- (empty): fax, homepage, billing_details`.
//!   A record that holds no data is named as itself, not by its fields. A key that holds a
//!   comma stays in place (it could not be told apart in the list).
//! - **Fields equal to the top level named.** When two or more fields of a record nested in
//!   the top-level record (text, or values written as blocks) equal the top-level record's
//!   fields of the same names, they are written on one line after the others:
//!   `- (same as the top level): description, license, author` (an npm packument's versions
//!   repeat the package's). Not when the result carries a cut notice, nor for a value that
//!   holds a cut.
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
//! A key that holds a comma is never named by these forms (`(same as a, except:)` could not
//! be told apart from a key `a, except:`). The literal texts that would read as these forms
//! are escaped: a key named `(empty)` or `(same as the top level)` and a string value of the
//! form `(same as …)` are written with their `(` as `\u{28}`.

use std::hash::{BuildHasher, Hash, Hasher};

use crate::doc::{Field, Node, Record};

/// How many distinct nested values of one record a later field is compared with.
pub(super) const MAX_CANDIDATES: usize = 32;

/// The fewest nested values a record needs for them to be compared by hashes first (below,
/// comparing the few value by value costs less than hashing them).
const HASHED_FROM: usize = 8;

/// The fewest fields a nested record needs to be written as a difference from an earlier
/// sibling (with two, the reference costs about what the one shared field does).
pub(super) const MIN_FIELDS: usize = 3;

/// The group line's key.
pub(super) const EMPTY_KEY: &str = "(empty)";

/// The key of the line naming a nested record's fields equal to the top-level record's
/// fields of the same names.
pub(super) const TOP_KEY: &str = "(same as the top level)";

/// The fields of the top-level record, by name, that nested records' fields are compared
/// with (see [`Plan::of`]).
pub(super) struct Top<'r> {
    /// `(name, field)`, sorted by name.
    by_name: Vec<(&'r str, &'r Field<'r>)>,
}

impl<'r> Top<'r> {
    /// The index of a top-level record's fields whose values can be named from below: nested
    /// blocks and text (the caller passes none when the result carries a cut notice). A
    /// value that holds a cut is not searched for here: a nested field named from it holds
    /// no cut ([`Plan::of`] checks), and an equal value holds none either.
    pub(super) fn of(fields: &'r [Field<'r>]) -> Top<'r> {
        let mut by_name: Vec<(&'r str, &'r Field<'r>)> = fields
            .iter()
            .filter(|f| is_nameable(f))
            .map(|f| (&*f.name, f))
            .collect();
        by_name.sort_by_key(|&(name, _)| name);
        Top { by_name }
    }

    /// Whether the top-level record has a field named like `f` with the same value.
    fn has(&self, f: &Field<'_>) -> bool {
        self.by_name
            .binary_search_by_key(&&*f.name, |&(name, _)| name)
            .is_ok_and(|i| self.by_name[i].1.value == f.value)
    }
}

/// A field worth naming on the top line: a value written as a block, or text, whose key can
/// sit in a `, ` list.
fn is_nameable(f: &Field<'_>) -> bool {
    let worth = match &f.value {
        Node::Str(s) => !s.is_empty(),
        v => is_block(v),
    };
    worth && !f.name.is_empty() && !f.name.contains(',') && !f.name.starts_with('(')
}

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
    Except(Box<Except<'r>>),
    /// Named on the `(same as the top level)` line.
    AsTop,
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
    ///
    /// `top`: the record is nested in the top-level record (and not in an except-list);
    /// when two or more of its fields (text or blocks) equal the top-level fields of the
    /// same names, they are named on one `(same as the top level)` line instead.
    pub(super) fn of(
        r: &[&'r Field<'r>],
        cut: bool,
        within: Option<(&'r str, &[&'r Field<'r>])>,
        uncut: bool,
        top: Option<&Top<'_>>,
    ) -> Plan<'r> {
        let mut fields: Vec<Instead<'r>> = r.iter().map(|_| Instead::Itself(uncut)).collect();
        // Grouped in one pass; a lone groupable field is written as usual after all.
        let mut groupable = 0;
        let mut first = 0;
        for (i, (f, instead)) in r.iter().zip(&mut fields).enumerate() {
            if is_groupable(f) {
                *instead = Instead::Grouped;
                if groupable == 0 {
                    first = i;
                }
                groupable += 1;
            }
        }
        if groupable == 1 {
            fields[first] = Instead::Itself(uncut);
        }
        if let Some(top) = top.filter(|_| !cut && within.is_none()) {
            let same: Vec<usize> = (0..r.len())
                .filter(|&i| {
                    !matches!(fields[i], Instead::Grouped)
                        && is_nameable(r[i])
                        && (uncut || !holds_cut(&r[i].value))
                        && top.has(r[i])
                })
                .collect();
            if same.len() >= 2 {
                for &i in &same {
                    fields[i] = Instead::AsTop;
                }
            }
        }
        let mut candidates: Vec<usize> = Vec::new();
        // With many nested values, each is hashed (see `Hashes`) and walked once, not once per
        // earlier sibling it is compared with; a few are compared value by value.
        let mut hashes = (r.iter().filter(|f| is_block(&f.value)).count() >= HASHED_FROM)
            .then(|| Hashes::new(r.len()));
        for (i, f) in r.iter().enumerate() {
            if cut
                || !is_block(&f.value)
                || matches!(fields[i], Instead::Grouped | Instead::AsTop)
                || (!uncut && holds_cut(&f.value))
            {
                continue;
            }
            fields[i] = Instead::Itself(true);
            if let Some((name, reference)) = within {
                if let Some((differing, reference)) = differing(&reference[i].value, &f.value) {
                    fields[i] = Instead::Except(Box::new(Except {
                        name,
                        nested: true,
                        differing,
                        reference,
                    }));
                }
                continue;
            }
            if let Some(hashes) = &mut hashes {
                hashes.add(i, &f.value);
            }
            let same = |j: usize| hashes.as_ref().is_none_or(|h| h.same(j, i));
            if let Some(&j) = candidates
                .iter()
                .find(|&&j| same(j) && r[j].value == f.value)
            {
                fields[i] = Instead::SameAs(j);
                continue;
            }
            let near = match &hashes {
                Some(hashes) => nearest(r, &candidates, i, hashes),
                None => nearest_by_value(r, &candidates, &f.value),
            };
            if let Some((j, (differing, reference))) = near {
                fields[i] = Instead::Except(Box::new(Except {
                    name: &r[j].name,
                    nested: false,
                    differing,
                    reference,
                }));
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

    /// The fields named on the `(same as the top level)` line, in record order.
    pub(super) fn as_top(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.fields.len()).filter(|&i| matches!(self.fields[i], Instead::AsTop))
    }
}

/// The differing fields of a record and their counterparts in the record named.
type Difference<'r> = (Vec<&'r Field<'r>>, Vec<&'r Field<'r>>);

/// The earlier candidate field `i` is best written as a difference from: the one with the
/// fewest [`differing`] fields (the first of those). Returns its index and that difference.
/// The candidates are counted by their fields' hashes; the one chosen is checked value by
/// value, and should two different values share a hash (never seen; the seed is random),
/// every candidate is compared value by value instead.
fn nearest<'r>(
    r: &[&'r Field<'r>],
    candidates: &[usize],
    i: usize,
    hashes: &Hashes,
) -> Option<(usize, Difference<'r>)> {
    let v = &r[i].value;
    let mut best: Option<(usize, usize)> = None;
    for &j in candidates {
        if let Some(d) = hashes.differing_count(j, i)
            && best.is_none_or(|(_, fewest)| d < fewest)
        {
            best = Some((j, d));
        }
    }
    let (j, count) = best?;
    match differing(&r[j].value, v) {
        Some(d) if d.0.len() == count => Some((j, d)),
        _ => nearest_by_value(r, candidates, v),
    }
}

/// [`nearest`], comparing every candidate value by value.
fn nearest_by_value<'r>(
    r: &[&'r Field<'r>],
    candidates: &[usize],
    v: &'r Node<'r>,
) -> Option<(usize, Difference<'r>)> {
    let Node::Record(b) = v else { return None };
    let mut best: Option<(usize, usize)> = None;
    for &j in candidates {
        if let Node::Record(a) = &r[j].value
            && let Some(d) = differing_count(a, b)
            && best.is_none_or(|(_, fewest)| d < fewest)
        {
            best = Some((j, d));
        }
    }
    let (j, _) = best?;
    Some((j, differing(&r[j].value, v)?))
}

/// Structural hashes of the nested values of one record that the lean rules compare: of each
/// value whole, and of a record's keys and of each of its fields' values. Equal values have
/// equal hashes, so a value is compared in full only with a candidate whose hash matches.
struct Hashes {
    state: foldhash::fast::RandomState,
    /// For each field of the record: its value's hash, then (for a nested record) its keys'
    /// hash and the hash of each field's value; empty until [`Hashes::add`].
    of: Vec<Vec<u64>>,
}

impl Hashes {
    /// For a record of `fields` fields.
    fn new(fields: usize) -> Hashes {
        Hashes {
            state: foldhash::fast::RandomState::default(),
            of: vec![Vec::new(); fields],
        }
    }

    /// Hash the value of field `i`.
    fn add(&mut self, i: usize, v: &Node<'_>) {
        let mut out = Vec::new();
        match v {
            Node::Record(rec) => {
                let mut whole = self.state.build_hasher();
                let mut keys = self.state.build_hasher();
                out.extend([0, 0]);
                for f in &rec.fields {
                    f.name.hash(&mut keys);
                    let mut h = self.state.build_hasher();
                    hash_node(&f.value, &mut h);
                    let h = h.finish();
                    out.push(h);
                    h.hash(&mut whole);
                }
                let keys = keys.finish();
                keys.hash(&mut whole);
                out[0] = whole.finish();
                out[1] = keys;
            }
            _ => {
                let mut h = self.state.build_hasher();
                hash_node(v, &mut h);
                out.push(h.finish());
            }
        }
        self.of[i] = out;
    }

    /// Whether the values of fields `j` and `i` may be equal (their hashes match).
    fn same(&self, j: usize, i: usize) -> bool {
        self.of[j].len() == self.of[i].len() && self.of[j][0] == self.of[i][0]
    }

    /// [`differing_count`] by hashes: the nested records of fields `j` and `i`.
    fn differing_count(&self, j: usize, i: usize) -> Option<usize> {
        let (a, b) = (&self.of[j], &self.of[i]);
        let n = b.len().checked_sub(2)?;
        if n < MIN_FIELDS || a.len() != b.len() || a[1] != b[1] {
            return None;
        }
        let mut count = 0;
        for (x, y) in a[2..].iter().zip(&b[2..]) {
            if x != y {
                count += 1;
                if count * 2 > n {
                    return None;
                }
            }
        }
        (count > 0).then_some(count)
    }
}

/// Feed a node's structure and text to `h`: equal nodes feed the same (a table feeds its
/// cells only, an envelope its kind only; that is less, never different).
fn hash_node(v: &Node<'_>, h: &mut impl Hasher) {
    match v {
        Node::Null => h.write_u8(0),
        Node::Bool(b) => h.write_u8(1 + u8::from(*b)),
        Node::Number(s) => {
            h.write_u8(3);
            s.hash(h);
        }
        Node::Str(s) => {
            h.write_u8(4);
            s.hash(h);
        }
        Node::List(items) => {
            h.write_u8(5);
            h.write_usize(items.len());
            items.iter().for_each(|v| hash_node(v, h));
        }
        Node::Record(r) => {
            h.write_u8(6);
            h.write_usize(r.fields.len());
            for f in &r.fields {
                f.name.hash(h);
                hash_node(&f.value, h);
            }
        }
        Node::Table(t) => {
            h.write_u8(7);
            t.cells().for_each(|c| c.hash(h));
        }
        Node::DepthCut(n) => {
            h.write_u8(8);
            n.hash(h);
        }
        Node::Envelope(_) => h.write_u8(9),
    }
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
    differing_count(a, b)?;
    let (reference, differing): Difference<'r> = a
        .fields
        .iter()
        .zip(&b.fields)
        .filter(|(x, y)| x.value != y.value)
        .unzip();
    Some((differing, reference))
}

/// How many fields of record `b` differ from record `a`'s when `b` is worth writing as that
/// difference (see [`differing`]); the count stops, and the answer is `None`, as soon as
/// more than half differ. Nothing is allocated.
fn differing_count(a: &Record<'_>, b: &Record<'_>) -> Option<usize> {
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
    let mut count = 0;
    for (x, y) in a.fields.iter().zip(&b.fields) {
        if x.value != y.value {
            count += 1;
            if count * 2 > n {
                return None;
            }
        }
    }
    (count > 0).then_some(count)
}

/// A field that holds no data, whose key can sit in a `, ` list.
fn is_groupable(f: &Field<'_>) -> bool {
    holds_no_data(&f.value) && !f.name.is_empty() && !f.name.contains(',') && &*f.name != EMPTY_KEY
}

/// Null, an empty string, an empty list or record, or a record whose every field holds no
/// data (a document is at most [`MAX_DEPTH`](crate::doc::MAX_DEPTH) deep, so the
/// recursion is bounded).
fn holds_no_data(v: &Node<'_>) -> bool {
    match v {
        Node::Null => true,
        Node::Str(s) => s.is_empty(),
        Node::List(l) => l.is_empty(),
        Node::Record(r) => r.fields.iter().all(|f| holds_no_data(&f.value)),
        _ => false,
    }
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
    // Both markers hold a `[`: most strings have none and are passed over in one scan, and
    // in the others only the bytes around each `[` are compared (no substring search).
    let marked = |s: &str| {
        let b = s.as_bytes();
        // The shorter marker, `…[+`, is five bytes long.
        b.len() >= 5
            && memchr::memchr_iter(b'[', b).any(|i| {
                (b[..i].ends_with("…".as_bytes()) && b.get(i + 1) == Some(&b'+'))
                    || b[i..].starts_with(b"[Truncated")
            })
    };
    match v {
        Node::Null | Node::Bool(_) => false,
        Node::Number(s) | Node::Str(s) => marked(s),
        Node::List(items) => items.iter().any(holds_cut),
        Node::Record(r) => r.fields.iter().any(|f| holds_cut(&f.value)),
        Node::Table(t) => t.total_rows() > t.rows() || t.cells().any(marked),
        Node::DepthCut(_) | Node::Envelope(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolOutput;
    use crate::input::context::Context;
    use serde_json::{Value, json};

    /// npm-like versions: each differs from others in a few fields, some repeat exactly.
    fn versions() -> Value {
        let mut out = serde_json::Map::new();
        for i in 0..40u32 {
            out.insert(
                format!("1.{i}.0"),
                json!({"name": "pkg", "version": format!("1.{i}.0"),
                       "license": if i % 5 == 0 { "MIT" } else { "ISC" },
                       "deps": {"a": format!("^{}", i / 7), "b": "1"},
                       "dist": {"shasum": format!("s{}", i % 9), "size": i % 3},
                       "engines": {"node": ">=8"}}),
            );
            if i % 6 == 0 {
                let again = out[&format!("1.{i}.0")].clone();
                out.insert(format!("1.{i}.0-again"), again);
            }
        }
        Value::Object(out)
    }

    fn fields<'r>(node: &'r Node<'r>) -> Vec<&'r Field<'r>> {
        let Node::Record(r) = node else {
            panic!("a record")
        };
        r.fields.iter().collect()
    }

    #[test]
    fn hashed_choices_are_the_value_by_value_choices() {
        let data = versions();
        let node = data.to_node(&Context::new());
        let r = fields(&node);
        let mut hashes = Hashes::new(r.len());
        let mut named = 0;
        for i in 0..r.len() {
            hashes.add(i, &r[i].value);
            let candidates: Vec<usize> = (0..i).collect();
            for &j in &candidates {
                assert_eq!(hashes.same(j, i), r[j].value == r[i].value, "{j} {i}");
            }
            let fast = nearest(&r, &candidates[..i.min(MAX_CANDIDATES)], i, &hashes);
            let slow = nearest_by_value(&r, &candidates[..i.min(MAX_CANDIDATES)], &r[i].value);
            let key = |d: Option<(usize, Difference<'_>)>| {
                d.map(|(j, (a, _))| (j, a.iter().map(|f| f.name.to_string()).collect::<Vec<_>>()))
            };
            named += usize::from(slow.is_some());
            assert_eq!(key(fast), key(slow), "field {i}");
        }
        assert!(named > 10, "the data has near repeats: {named}");
    }

    proptest::proptest! {
        /// The marker scan around each `[` finds what the two substring searches find.
        #[test]
        fn the_marker_scan_is_the_substring_search(
            parts in proptest::collection::vec(
                proptest::sample::select(vec!["[", "…", "+", "[Truncated", "Truncated", "a", "…[+", "é"]),
                0..10,
            ),
        ) {
            let s = parts.concat();
            let want = s.contains("…[+") || s.contains("[Truncated");
            proptest::prop_assert_eq!(holds_cut(&Node::Str(s.as_str().into())), want);
        }
    }

    #[test]
    fn a_hash_collision_falls_back_to_comparing_values() {
        let data = versions();
        let node = data.to_node(&Context::new());
        let r = fields(&node);
        let mut hashes = Hashes::new(r.len());
        for (i, f) in r.iter().enumerate() {
            hashes.add(i, &f.value);
        }
        // Field 3 made to look like field 0 in every field but one: hashes would pick 0.
        let i = 3;
        let mut forged = hashes.of[0].clone();
        forged[2] ^= 1;
        hashes.of[i] = forged;
        let candidates = [0, 1, 2];
        let got = nearest(&r, &candidates, i, &hashes).map(|(j, (d, _))| (j, d.len()));
        let want = nearest_by_value(&r, &candidates, &r[i].value).map(|(j, (d, _))| (j, d.len()));
        assert_eq!(got, want);
    }
}
