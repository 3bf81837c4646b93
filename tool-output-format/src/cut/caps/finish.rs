//! The last step of a cut: the kept rows, fields, items or lines of a node, its notices
//! with exact counts, and the lines above its tables bounded to a budget's share.

use crate::doc::notice::Strategy;
use crate::doc::{Node, Record};

use super::{
    Cut, Keep, Limits, Notice, cap_nested_tables, cut_lines, cut_nested, cut_values, narrow,
};

/// Bound the lines above every table in `node` to `max` characters each (a line of values
/// said once: twice that).
fn bound_notes(node: &mut Node<'_>, max: usize, paged: bool) {
    match node {
        Node::Table(t) => t
            .notes
            .iter_mut()
            .filter(|n| !(paged && n.values))
            .for_each(|n| {
                let share = if n.values { max.saturating_mul(2) } else { max };
                n.max = n.max.min(share);
            }),
        Node::Record(r) => r
            .fields
            .iter_mut()
            .for_each(|f| bound_notes(&mut f.value, max, paged)),
        Node::List(items) => items.iter_mut().for_each(|v| bound_notes(v, max, paged)),
        Node::Envelope(e) => {
            if let Some(b) = e.body_mut() {
                bound_notes(b, max, paged);
            }
        }
        _ => {}
    }
}

/// The names of the fields of `r` a cut that keeps its first `kept` fields, but those
/// `drop` marks, leaves out (see [`Record::left_out_paths`]).
pub(super) fn names_left_out(r: &Record<'_>, kept: usize, drop: &[bool]) -> Vec<String> {
    r.fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| i >= kept || drop.get(i) == Some(&true))
        .map(|(_, f)| f.name.to_string())
        .collect()
}

/// Apply `keep` to a node whose data had `total` rows, fields or items.
pub(super) fn finish<'a>(
    mut node: Node<'a>,
    total: usize,
    keep: &Keep,
    strategy: Strategy,
) -> Cut<'a> {
    let mut notices = Vec::new();
    let kept = keep.count.min(total);
    match &mut node {
        Node::Table(t) => {
            if keep.salience && t.gap.is_none() && kept >= 2 && kept < total && t.rows() == total {
                *t = t.head_last(kept);
            } else if t.gap.is_none() {
                t.truncate_rows(kept);
            }
            if let Some(k) = keep.columns.filter(|&k| k < t.columns().len()) {
                narrow(t, k, keep.names_chars);
            }
            let kept = t.rows();
            if kept < total {
                notices.push(Notice::Rows { kept, total });
            }
        }
        Node::Record(r) if keep.salience => {
            // A record's items are narrowed as a table is.
            if let Some(k) = keep.columns
                && let Some(i) = crate::cut::arrange::items_field(r)
                && let Node::Table(t) = &mut r.fields[i].value
                && k < t.columns().len()
            {
                narrow(t, k, keep.names_chars);
            }
            let leaves = crate::cut::arrange::leaves(r, true);
            if keep.drop.len() == leaves.len() && keep.drop.iter().any(|&d| d) {
                r.left_out =
                    crate::cut::arrange::left_out_line(&leaves, &keep.drop, keep.names_chars);
                r.left_out_paths = (leaves.iter().zip(&keep.drop))
                    .filter(|(_, d)| **d)
                    .map(|(l, _)| l.path.clone())
                    .collect();
                let gone = crate::cut::arrange::drop_leaves(r, &keep.drop, true);
                notices.push(Notice::Fields {
                    kept: leaves.len() - gone,
                    total: leaves.len(),
                });
            }
        }
        Node::Str(s) => {
            if let Some((lines, notice)) = cut_lines(s, keep.count, strategy) {
                *s = lines.into();
                notices.push(notice);
            }
        }
        Node::Record(r) => {
            if r.fields.len() == total {
                let drop: &[bool] = if keep.drop.len() == total {
                    &keep.drop
                } else {
                    &[]
                };
                r.left_out_paths = names_left_out(r, kept, drop);
            }
            r.fields.truncate(kept);
            if keep.drop.len() == total && r.fields.len() == total {
                let mut i = 0;
                r.fields.retain(|_| {
                    i += 1;
                    !keep.drop[i - 1]
                });
            }
            let kept = r.fields.len();
            if kept < total {
                notices.push(Notice::Fields { kept, total });
            }
        }
        Node::List(items) => {
            items.truncate(kept);
            if kept < total {
                notices.push(Notice::Items { kept, total });
            }
        }
        _ => {}
    }
    // Under a budget's cut, the lines above every table list what fits its share.
    if keep.names_chars != usize::MAX {
        bound_notes(&mut node, keep.names_chars, keep.paged);
    }
    // The row caps of tables nested in records and lists: applied here before a budget's
    // nested cut, else by the walk that cuts values.
    let mut tables = None;
    if let Node::Record(_) | Node::List(_) = node {
        match keep.nested {
            Some(kept) => {
                cap_nested_tables(&mut node, &keep.plan);
                let parts = cut_nested(&mut node, kept);
                if parts > 0 {
                    notices.push(Notice::Nested { parts, kept });
                }
            }
            None => tables = Some(&keep.plan),
        }
    }
    let cuts = cut_values(
        &mut node,
        Limits {
            cap: keep.value_chars,
            budget: keep.budget_chars,
            tables,
        },
    );
    if let (Some(max_chars), true) = (keep.budget_chars, cuts.budget > 0) {
        notices.push(Notice::Shortened {
            values: cuts.budget,
            max_chars,
        });
    }
    Cut {
        node,
        notices,
        values_shortened: cuts.all,
        cap_shortest: cuts.shortest,
    }
}
