//! Flattening nested objects into dotted columns (`Shape::flatten`): the columns found in the
//! rows ([`Cols`]), the leaves of a column's objects, and whether a column flattens.

use std::collections::HashMap;

use serde_json::Value;

use super::{Cell, MAX_DEEP_KEYS, MAX_FLAT_KEYS, entries, field_entries};
use crate::rules::detail::LeftOut;
use crate::shape::Shaped;

/// One column of the union: its shaped name, how many rows fill it, and (for flattening)
/// the union of the keys of its object values.
struct Col {
    name: String,
    /// Rows where the value is present and not empty.
    filled: usize,
    /// Rows where the value is a non-empty object.
    objects: usize,
    sub: Option<Box<Cols>>,
}

/// Columns in first-seen order. Rows nearly always share one key order, so a key is first
/// looked up at its position; when that misses, the columns are searched while they are
/// few, and past [`Cols::FEW`] a name index is made and used.
#[derive(Default)]
pub(super) struct Cols {
    cols: Vec<Col>,
    index: Option<HashMap<String, usize>>,
}

impl Cols {
    /// Columns searched without an index.
    const FEW: usize = 16;

    /// The column called `key`, if any (indexing the columns once they are many).
    fn find(&mut self, key: &str) -> Option<usize> {
        if self.index.is_none() && self.cols.len() > Self::FEW {
            let index = self.cols.iter().enumerate();
            self.index = Some(index.map(|(i, c)| (c.name.clone(), i)).collect());
        }
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.cols.iter().position(|c| c.name == key),
        }
    }

    pub(super) fn add<'k, 'a: 'k>(
        &mut self,
        fields: impl Iterator<Item = (&'k str, Cell<'k, 'a>)>,
        flatten: bool,
        depth: usize,
    ) {
        for (pos, (key, value)) in fields.enumerate() {
            let i = match self.cols.get(pos) {
                Some(c) if c.name == key => pos,
                _ => {
                    if let Some(i) = self.find(key) {
                        i
                    } else {
                        if let Some(index) = &mut self.index {
                            index.insert(key.to_owned(), self.cols.len());
                        }
                        self.cols.push(Col {
                            name: key.to_owned(),
                            filled: 0,
                            objects: 0,
                            sub: None,
                        });
                        self.cols.len() - 1
                    }
                }
            };
            let col = &mut self.cols[i];
            if value.is_empty() {
                continue;
            }
            col.filled += 1;
            let walk = flatten && depth < MAX_FLAT_DEPTH;
            match value {
                Cell::Value(Value::Object(inner)) => {
                    col.objects += 1;
                    if walk {
                        let sub = col.sub.get_or_insert_with(Box::default);
                        sub.add(entries(inner), flatten, depth + 1);
                    }
                }
                Cell::Shaped(Shaped::Record(inner)) => {
                    col.objects += 1;
                    if walk {
                        let sub = col.sub.get_or_insert_with(Box::default);
                        sub.add(field_entries(inner), flatten, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Objects nested deeper than this below a row are not flattened.
const MAX_FLAT_DEPTH: usize = 4;

/// A column of the table: its name and the keys that lead to its value in a shaped row.
pub(super) struct Leaf<'c> {
    pub(super) name: String,
    pub(super) keys: Vec<&'c str>,
}

/// The table's columns: every column of the union, minus those empty in every row (with
/// `drop_empty`), with object columns that pass the flattening rule split into dotted ones.
#[allow(clippy::too_many_arguments)]
pub(super) fn leaves<'c>(
    cols: &'c Cols,
    rows: usize,
    drop_empty: bool,
    flatten: Flat,
    names: Option<&LeftOut>,
    prefix: &mut Vec<&'c str>,
    out: &mut Vec<Leaf<'c>>,
) {
    for col in &cols.cols {
        if drop_empty && col.filled == 0 {
            if let Some(names) = names {
                prefix.push(&col.name);
                names.add_empty(&prefix.join("."));
                prefix.pop();
            }
            continue;
        }
        prefix.push(&col.name);
        match &col.sub {
            Some(sub) if flatten != Flat::No && flattens(col, sub, rows, drop_empty, flatten) => {
                leaves(sub, rows, drop_empty, flatten, names, prefix, out);
            }
            _ => out.push(Leaf {
                name: prefix.join("."),
                keys: prefix.clone(),
            }),
        }
        prefix.pop();
    }
}

/// The flattening rule (measured in BENCHMARKS.md, "Shaping"): every non-empty value of the
/// column is an object, the objects have at most [`MAX_FLAT_KEYS`] keys between them, and
/// the dotted columns would be at least half filled (so no run of mostly empty columns).
///
/// Deep flattening (the agent preset, whose salience then keeps the most needed leaf
/// columns): every object column splits into its leaf paths, up to [`MAX_DEEP_KEYS`] keys.
fn flattens(col: &Col, sub: &Cols, rows: usize, drop_empty: bool, flat: Flat) -> bool {
    let kept = sub.cols.iter().filter(|c| !(drop_empty && c.filled == 0));
    let (n, filled) = kept.fold((0usize, 0usize), |(n, f), c| (n + 1, f + c.filled));
    if flat == Flat::Deep {
        return col.objects == col.filled && n > 0 && n <= MAX_DEEP_KEYS;
    }
    col.objects == col.filled && n > 0 && n <= MAX_FLAT_KEYS && filled * 2 >= rows * n
}

/// How a table's object columns flatten.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flat {
    /// They stay one compact-JSON cell.
    No,
    /// Where that reads in fewer tokens ([`Shape::flatten`](crate::Shape::flatten)).
    Cheaper,
    /// Into every leaf path (the agent preset).
    Deep,
}
