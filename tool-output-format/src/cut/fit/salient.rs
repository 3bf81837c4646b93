//! Salience in the fit (SPEC 22): which leaves of a record and which columns of a table a
//! budget leaves out first, by how much an agent needs them.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use crate::cut::caps::Keep;
use crate::doc::Node;

use super::{Doc, Fitter, MIN_VALUE_CHARS, value_floor};

impl<'a> Fitter<'_, 'a> {
    /// Which leaves of a record a budget leaves out, by salience: the most needed are taken
    /// while their measured sizes fit the room (a long value counted as the part a shortened
    /// one keeps), then, when that still does not fit, the least needed of them go too.
    /// Returns the drop mask over [`crate::cut::arrange::leaves`] (empty: none).
    pub(super) fn salient_leaves(
        &self,
        node: &mut Doc<'a>,
        keep_with: &dyn Fn(Option<usize>, Option<usize>, Vec<bool>, Option<usize>) -> Keep,
        max_n: usize,
        cols: Option<usize>,
    ) -> Vec<bool> {
        let (leaves, items) = match &node.0 {
            Node::Record(r) => (
                crate::cut::arrange::leaves(r, true),
                crate::cut::arrange::items_field(r).map(|i| r.fields[i].name.to_string()),
            ),
            _ => return Vec::new(),
        };
        let mut by_need = crate::cut::arrange::drop_order(&leaves);
        by_need.reverse();
        let room = self.room();
        // The title, the notices and the left-out line take their share first.
        let mut left = (room.saturating_mul(9) / 10).saturating_sub(60 + self.names_chars());
        let mut drop = vec![true; leaves.len()];
        let mut kept = Vec::new();
        for &i in &by_need {
            let l = &leaves[i];
            let depth = l.path.matches('.').count();
            let cost = l.bytes.min(MIN_VALUE_CHARS * 3 + l.path.len()) + 4 + 2 * depth;
            // A record's items are its payload: kept (their rows and columns are cut).
            let payload = items.as_deref() == Some(l.path.as_str());
            if cost <= left || kept.is_empty() || payload || l.mark == crate::doc::Mark::Key {
                left = left.saturating_sub(cost);
                drop[i] = false;
                if payload {
                    kept.insert(0, i);
                } else {
                    kept.push(i);
                }
            }
        }
        let n = (max_n > 0).then_some(1);
        let floor = value_floor(node);
        let mask = |k: usize| {
            let mut d = vec![true; leaves.len()];
            for &i in kept.iter().take(k) {
                d[i] = false;
            }
            d
        };
        let all = kept.len() == leaves.len();
        // A record whose payload is its items (a page, a feed) keeps every row of them
        // before its other leaves: the most needed leaves that fit beside all the rows.
        if items.is_some() && max_n > 1 {
            let every = Some(max_n);
            if self
                .eval(node, &keep_with(every, floor, drop.clone(), cols))
                .is_ok()
            {
                return if all { Vec::new() } else { drop };
            }
            if let Some((k, _)) = self.largest(
                kept.len().saturating_sub(1),
                |k| keep_with(every, floor, mask(k + 1), cols),
                node,
            ) {
                return mask(k + 1);
            }
        }
        if self
            .eval(node, &keep_with(n, floor, drop.clone(), cols))
            .is_ok()
        {
            return if all { Vec::new() } else { drop };
        }
        // Fewer of them: the largest number of the most needed that fits.
        match self.largest(
            kept.len().saturating_sub(1),
            |k| keep_with(n, floor, mask(k + 1), cols),
            node,
        ) {
            Some((k, _)) => mask(k + 1),
            None => mask(1),
        }
    }

    /// How many of a table's columns (in salience order) a budget keeps: all of them when
    /// every row the caps keep fits, else the most that still show every row, but never fewer
    /// than the columns that identify a row, say its state, what it says and where a person
    /// opens it (at least two) unless not one row of those fits.
    /// `None`: all of them.
    pub(super) fn salient_columns(
        &self,
        node: &mut Doc<'a>,
        keep_with: &dyn Fn(Option<usize>, Option<usize>, Vec<bool>, Option<usize>) -> Keep,
        max_n: usize,
    ) -> Option<usize> {
        // For a record whose payload is its items: the drop mask that keeps only the items
        // (what one row of them needs, the record's other leaves left out).
        let (cols, core, only_items) = {
            let (t, only_items) = match &node.0 {
                Node::Table(t) => (t, Vec::new()),
                Node::Record(r) => match crate::cut::arrange::items_field(r) {
                    Some(i) if matches!(r.fields[i].value, Node::Table(_)) => {
                        let Node::Table(t) = &r.fields[i].value else {
                            unreachable!("matched above")
                        };
                        let name = &*r.fields[i].name;
                        let mask = crate::cut::arrange::leaves(r, true)
                            .iter()
                            .map(|l| l.path != name)
                            .collect();
                        (t, mask)
                    }
                    _ => return None,
                },
                _ => return None,
            };
            let cols = t.columns().len();
            let core = crate::cut::arrange::core_columns(t);
            (cols, core.clamp(2.min(cols), cols), only_items)
        };
        let table = only_items.is_empty();
        if cols <= core {
            return None;
        }
        let all_rows = Some(max_n.max(1));
        if self
            .eval(node, &keep_with(all_rows, None, Vec::new(), None))
            .is_ok()
        {
            return None;
        }
        // The most columns that keep every row.
        if let Some((k, _)) = self.largest(
            cols - core,
            |k| keep_with(all_rows, None, Vec::new(), Some(core + k)),
            node,
        ) {
            return Some(core + k);
        }
        // Else the core, for as many rows as fit; and when not one row of the core fits (a
        // record's items: beside nothing else of the record), the most of its columns that
        // show one row (shortened values), rather than no row at all.
        let one = Some(1);
        let floor = value_floor(node);
        if self
            .eval(node, &keep_with(one, floor, only_items.clone(), Some(core)))
            .is_ok()
        {
            return Some(core);
        }
        if !table && core <= 1 {
            return Some(core);
        }
        match self.largest(
            core.saturating_sub(2),
            |k| keep_with(one, floor, only_items.clone(), Some(1 + k)),
            node,
        ) {
            Some((k, _)) => Some(1 + k),
            None => Some(1),
        }
    }
}
