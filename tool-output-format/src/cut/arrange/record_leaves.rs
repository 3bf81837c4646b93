//! The leaves of a record at any depth ([`Leaf`]): the fit's units for a record, the order a
//! budget leaves them out in, leaving them out, and the line naming what was left out.

use super::text_bytes;
use crate::doc::{Mark, Node, Record};
use crate::rules::salience::{Rank, Tier, is_payload, rank};
use crate::text::{escape_inline, join_within};

/// One unit a budget may leave out of a record: a field that holds no record, at any depth
/// (`deep`), or a top-level field.
#[derive(Debug)]
pub(crate) struct Leaf {
    /// The salience sort key (smaller: more needed).
    pub key: crate::rules::salience::Key,
    /// Its mark.
    pub mark: Mark,
    /// A cheap measure of its size (bytes of text).
    pub bytes: usize,
    /// Its dotted path from the record.
    pub path: String,
}

/// The units of `r` in document order (pre-order): with `deep`, the leaves of nested
/// records; else the top-level fields.
pub(crate) fn leaves(r: &Record<'_>, deep: bool) -> Vec<Leaf> {
    fn walk(
        r: &Record<'_>,
        deep: bool,
        parent: Option<(Rank, bool)>,
        prefix: &str,
        out: &mut Vec<Leaf>,
    ) {
        for f in &r.fields {
            let mut own = rank(&f.name, &f.value, f.mark);
            if let Some((p, payload)) = parent {
                own = own.under(p, payload);
            }
            let path = if prefix.is_empty() {
                f.name.to_string()
            } else {
                format!("{prefix}.{}", f.name)
            };
            match &f.value {
                Node::Record(inner) if deep && !inner.fields.is_empty() => {
                    walk(inner, deep, Some((own, is_payload(&f.name))), &path, out);
                }
                v => out.push(Leaf {
                    key: own.key(),
                    mark: f.mark,
                    bytes: text_bytes(v, usize::MAX) + f.name.len(),
                    path,
                }),
            }
        }
    }
    let mut out = Vec::new();
    walk(r, deep, None, "", &mut out);
    if deep {
        said_twice(r, &mut out);
    }
    out
}

/// A leaf that says again what a more needed leaf of the same name says (the same text:
/// `versions.1.0.license` beside `license`) is left out before the rest, with the bookkeeping:
/// the one the record keeps says it.
fn said_twice(r: &Record<'_>, leaves: &mut [Leaf]) {
    fn values<'r>(r: &'r Record<'_>, out: &mut Vec<Option<(&'r str, &'r str)>>) {
        for f in &r.fields {
            match &f.value {
                Node::Record(inner) if !inner.fields.is_empty() => values(inner, out),
                Node::Str(s) | Node::Number(s) => out.push(Some((&*f.name, &**s))),
                _ => out.push(None),
            }
        }
    }
    let mut texts = Vec::with_capacity(leaves.len());
    values(r, &mut texts);
    debug_assert_eq!(texts.len(), leaves.len());
    let mut best: std::collections::HashMap<(&str, &str), usize> = std::collections::HashMap::new();
    for (i, t) in texts.iter().enumerate() {
        let Some(t) = *t else { continue };
        best.entry(t)
            .and_modify(|b| {
                if leaves[i].key < leaves[*b].key {
                    *b = i;
                }
            })
            .or_insert(i);
    }
    for (i, t) in texts.iter().enumerate() {
        if let Some(t) = t
            && best[t] != i
            && !matches!(leaves[i].mark, Mark::Key | Mark::Essential)
        {
            leaves[i].key = leaves[i].key.max((Tier::Internal, false, Tier::Rest));
        }
    }
}

/// The order in which a budget leaves out the units of [`leaves`]: the least needed first
/// (the largest first among equals, then the later), a `key` mark never before the others.
pub(crate) fn drop_order(leaves: &[Leaf]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by(|&a, &b| {
        let (la, lb) = (&leaves[a], &leaves[b]);
        lb.key
            .cmp(&la.key)
            .then(lb.bytes.cmp(&la.bytes))
            .then(b.cmp(&a))
    });
    order
}

/// Leave out of `r` the units (as [`leaves`] numbers them) marked in `drop`; a nested record
/// left with no field goes too. Returns how many units were left out.
pub(crate) fn drop_leaves(r: &mut Record<'_>, drop: &[bool], deep: bool) -> usize {
    fn walk(r: &mut Record<'_>, drop: &[bool], deep: bool, i: &mut usize, out: &mut usize) {
        r.fields.retain_mut(|f| match &mut f.value {
            Node::Record(inner) if deep && !inner.fields.is_empty() => {
                walk(inner, drop, deep, i, out);
                !inner.fields.is_empty()
            }
            _ => {
                let gone = drop.get(*i).copied().unwrap_or(false);
                *i += 1;
                *out += usize::from(gone);
                !gone
            }
        });
    }
    let (mut i, mut out) = (0, 0);
    walk(r, drop, deep, &mut i, &mut out);
    out
}

/// The line naming the units left out, most needed first, within about `max_chars`
/// characters: `[Left out to fit the budget: full_name, owner.login and 12 more]`.
pub(crate) fn left_out_line(leaves: &[Leaf], drop: &[bool], max_chars: usize) -> Option<String> {
    let mut gone: Vec<&Leaf> = leaves
        .iter()
        .zip(drop)
        .filter(|(_, d)| **d)
        .map(|(l, _)| l)
        .collect();
    if gone.is_empty() {
        return None;
    }
    gone.sort_by_key(|l| l.key);
    let mut line = String::from(crate::sink::notice::FIELDS_LEFT_OUT_HEAD);
    let names = gone.iter().map(|l| {
        let mut name = String::new();
        escape_inline(&l.path, false, &mut name);
        name
    });
    let shown = join_within(&mut line, names, gone.len(), ", ", max_chars, (16, 1));
    if shown < gone.len() {
        crate::sink::notice::and_more(&mut line, gone.len() - shown, "");
    }
    line.push(']');
    Some(line)
}
