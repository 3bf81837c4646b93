//! Caps: act on the document once, for every source and every sink, and record each cut as
//! a [`Notice`] with exact counts. Budgets (fitting a character or token limit) build on
//! these cuts in `fit`.

use crate::doc::notice::Strategy;
pub(crate) use crate::doc::notice::{Notice, head_tail};
use crate::doc::{Node, Record, Table};
use crate::input::context::RowPlan;
use crate::text;

mod finish;

use finish::finish;

/// Keep `keep` lines of `s` by `strategy`. Returns the kept text (every line ending in
/// `\n`) and the notice, or `None` when nothing needs cutting.
pub(crate) fn cut_lines(s: &str, keep: usize, strategy: Strategy) -> Option<(String, Notice)> {
    let lines: Vec<&str> = text::lines(s).collect();
    let total = lines.len();
    if total <= keep {
        return None;
    }
    let mut out = String::new();
    let mut push = |l: &str| {
        out.push_str(l);
        out.push('\n');
    };
    match strategy {
        Strategy::Head => lines[..keep].iter().for_each(|l| push(l)),
        Strategy::Tail => lines[total - keep..].iter().for_each(|l| push(l)),
        Strategy::HeadTail => {
            let (h, t) = head_tail(keep);
            lines[..h].iter().for_each(|l| push(l));
            push(&crate::sink::notice::lines_omitted_in_place(total - keep));
            lines[total - t..].iter().for_each(|l| push(l));
        }
    }
    Some((
        out,
        Notice::Lines {
            kept: keep,
            total,
            strategy,
        },
    ))
}

/// The limit for one value: the smaller of its own (`max_chars`) and the global one.
fn min_limit(own: Option<usize>, global: Option<usize>) -> Option<usize> {
    match (own, global) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Record values up to this many characters (ids, counts, flags, cursors) are never
/// shortened by a budget, and are the last fields a budget drops.
pub const SHORT_SCALAR: usize = 64;

/// How long values may be: the caps' limit (`max_cell_chars`, a field's `max_chars`) and a
/// budget's (applied only where it may: never to short record values).
#[derive(Debug, Clone, Copy, Default)]
struct Limits<'p> {
    cap: Option<usize>,
    budget: Option<usize>,
    /// The row caps of nested tables, applied on the way (none: already applied, or the
    /// node is the top-level table).
    tables: Option<&'p RowPlan>,
}

/// Cuts made: all of them, and those a budget made.
#[derive(Debug, Clone, Copy, Default)]
struct Cuts {
    all: usize,
    budget: usize,
    /// The shortest length a cap (not the budget) shortened a value to.
    shortest: Option<usize>,
}

impl std::ops::AddAssign for Cuts {
    fn add_assign(&mut self, o: Cuts) {
        self.all += o.all;
        self.budget += o.budget;
        self.shortest = min_limit(self.shortest, o.shortest);
    }
}

impl Limits<'_> {
    /// The limit for one value and whether it is the budget's.
    fn pick(self, own: Option<usize>, budget_applies: bool) -> Option<(usize, bool)> {
        let cap = min_limit(own, self.cap);
        match (cap, self.budget.filter(|_| budget_applies)) {
            (Some(c), Some(b)) if b < c => Some((b, true)),
            (Some(c), _) => Some((c, false)),
            (None, Some(b)) => Some((b, true)),
            (None, None) => None,
        }
    }
}

/// `n` values shortened to `max` characters, by the budget or by a cap.
fn count(n: usize, max: usize, by_budget: bool) -> Cuts {
    Cuts {
        all: n,
        budget: if by_budget { n } else { 0 },
        shortest: (n > 0 && !by_budget).then_some(max),
    }
}

/// Cut `s` to `max` characters in place (line by line when it has several lines), only
/// where the cut form is shorter; returns how many pieces were cut.
fn cut_text(s: &mut crate::doc::Text<'_>, max: usize) -> usize {
    if text::has_line_break(s) {
        // A multi-line string is cut line by line, each line to `max` characters.
        let mut n = 0;
        let mut out = String::new();
        for line in text::lines(s) {
            match text::shorten(line, max) {
                Some(c) => {
                    n += 1;
                    out.push_str(&c);
                }
                None => out.push_str(line),
            }
            out.push('\n');
        }
        if n > 0 {
            *s = out.into();
        }
        n
    } else {
        match text::shorten(s, max) {
            Some(cut) => {
                *s = cut.into();
                1
            }
            None => 0,
        }
    }
}

/// Cut a string to the limit `pick` chose (none: nothing to cut), counting its cuts, and
/// those made by a budget apart.
fn cut_str(s: &mut crate::doc::Text<'_>, pick: Option<(usize, bool)>) -> Cuts {
    match pick {
        Some((max, by_budget)) => count(cut_text(s, max), max, by_budget),
        None => Cuts::default(),
    }
}

/// Cut every text value and cell longer than its limit, grapheme-safe, with `…[+N chars]`.
/// Numbers, booleans and nulls are never cut, and a budget never cuts a record value of up
/// to [`SHORT_SCALAR`] characters, nor a link (see [`whole_link`]). Caps the rows of nested
/// tables on the way (one walk for both). Returns how many values were cut.
fn cut_values(node: &mut Node<'_>, limits: Limits<'_>) -> Cuts {
    match node {
        Node::Str(s) => cut_str(s, limits.pick(None, true)),
        Node::Table(t) => {
            if let Some(plan) = limits.tables {
                t.truncate_rows(plan.cap(t.max_rows));
            }
            cut_cells(t, limits)
        }
        Node::Record(r) => {
            let mut cuts = Cuts::default();
            for f in &mut r.fields {
                cuts += match &mut f.value {
                    Node::Str(s) => {
                        // Counted only when a budget may cut (the common case has none).
                        let long = limits.budget.is_some()
                            && s.chars().count() > SHORT_SCALAR
                            && !whole_link(s);
                        cut_str(s, limits.pick(f.max_chars, long))
                    }
                    v => cut_values(
                        v,
                        Limits {
                            cap: min_limit(f.max_chars, limits.cap),
                            ..limits
                        },
                    ),
                };
            }
            cuts
        }
        Node::List(items) => {
            let mut cuts = Cuts::default();
            for v in items {
                cuts += cut_values(v, limits);
            }
            cuts
        }
        // An envelope's parts are never cut; its body is data.
        Node::Envelope(e) => e
            .body_mut()
            .map_or(Cuts::default(), |b| cut_values(b, limits)),
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::DepthCut(_) => Cuts::default(),
    }
}

/// The longest link a budget keeps whole rather than shortening it.
pub(crate) const LINK_CHARS: usize = 256;

/// Whether a budget keeps `s` whole: a link (of up to [`LINK_CHARS`] characters) cut short
/// opens nothing, so a budget leaves out its field or column instead.
fn whole_link(s: &str) -> bool {
    s.len() <= LINK_CHARS && crate::rules::salience::looks_like_url(s)
}

fn cut_cells(t: &mut Table<'_>, limits: Limits<'_>) -> Cuts {
    let picks: Vec<Option<(usize, bool)>> = (0..t.columns().len())
        .map(|c| limits.pick(t.limit(c), true))
        .collect();
    if picks.iter().all(Option::is_none) {
        return Cuts::default();
    }
    let mut cuts = Cuts::default();
    t.map_cells(|col, cell, kind, out| {
        match picks[col].filter(|&(_, by_budget)| {
            kind.may_shorten() && !(by_budget && kind == crate::doc::Kind::Text && whole_link(cell))
        }) {
            Some((max, by_budget)) => match text::shorten(cell, max) {
                Some(cut) => {
                    cuts += count(1, max, by_budget);
                    out.push_str(&cut);
                }
                None => out.push_str(cell),
            },
            None => out.push_str(cell),
        }
        kind
    });
    cuts
}

/// Keep at most `n` rows, items or lines of every collection nested in a record or list
/// (at any depth), each cut announced in place: a nested table by the notice line above it,
/// a list by a last item, a multi-line string by a last line, each
/// `[Truncated to K ... of N total]`.
/// Returns how many collections were cut.
fn cut_nested(node: &mut Node<'_>, n: usize) -> usize {
    match node {
        Node::Record(r) => r
            .fields
            .iter_mut()
            .map(|f| cut_nested_value(&mut f.value, n))
            .sum(),
        Node::List(items) => items.iter_mut().map(|v| cut_nested_value(v, n)).sum(),
        _ => 0,
    }
}

fn cut_nested_value(node: &mut Node<'_>, n: usize) -> usize {
    match node {
        Node::Table(t) => {
            let cut = t.rows() > n;
            t.truncate_rows(n.min(t.rows()));
            usize::from(cut)
        }
        Node::List(items) => {
            let total = items.len();
            if total > n {
                items.truncate(n);
                let inner = cut_nested(node, n);
                if let Node::List(items) = node {
                    let notice = Notice::Items { kept: n, total };
                    items.push(Node::Str(notice.to_string().into()));
                }
                return inner + 1;
            }
            cut_nested(node, n)
        }
        Node::Record(_) => cut_nested(node, n),
        Node::Str(s) if text::has_line_break(s) => {
            let total = text::lines(s).count();
            if total > n {
                let mut out = String::new();
                for l in text::lines(s).take(n) {
                    out.push_str(l);
                    out.push('\n');
                }
                let notice = Notice::Lines {
                    kept: n,
                    total,
                    strategy: Strategy::Head,
                };
                out.push_str(&notice.to_string());
                *s = out.into();
                return 1;
            }
            0
        }
        _ => 0,
    }
}

/// The longest a collection nested in `node` (a record's or list's) is: its rows, items or
/// lines, at any depth (0 when there is none).
pub(crate) fn nested_len(node: &Node<'_>) -> usize {
    fn of(node: &Node<'_>) -> usize {
        match node {
            Node::Table(t) => t.rows(),
            Node::List(items) => items.len().max(nested_len(node)),
            Node::Record(_) => nested_len(node),
            Node::Str(s) if text::has_line_break(s) => text::lines(s).count(),
            _ => 0,
        }
    }
    match node {
        Node::Record(r) => r.fields.iter().map(|f| of(&f.value)).max().unwrap_or(0),
        Node::List(items) => items.iter().map(of).max().unwrap_or(0),
        _ => 0,
    }
}

/// Cap the tables nested in records and lists (a tool's `max_rows`, else the table type's,
/// else the formatter's). The table keeps its full row count, and the sink announces the cut
/// in place.
fn cap_nested_tables(node: &mut Node<'_>, plan: &RowPlan) {
    match node {
        Node::Record(r) => r
            .fields
            .iter_mut()
            .for_each(|f| cap_nested_tables(&mut f.value, plan)),
        Node::List(items) => items.iter_mut().for_each(|v| cap_nested_tables(v, plan)),
        Node::Table(t) => t.truncate_rows(plan.cap(t.max_rows)),
        Node::Envelope(e) => e
            .body_mut()
            .into_iter()
            .for_each(|b| cap_nested_tables(b, plan)),
        _ => {}
    }
}

/// Keep `k` columns of `t` ([`crate::cut::arrange::pick_columns`]: what says what a row is, then
/// the most needed of the rest) and name the others in a note above the table, most needed
/// first, within `max_chars` characters.
fn narrow(t: &mut Table<'_>, k: usize, max_chars: usize) {
    let order = crate::cut::arrange::pick_columns(t, k);
    let mut kept = vec![false; t.columns().len()];
    order.iter().for_each(|&c| kept[c] = true);
    let left_out: Vec<String> = t
        .columns()
        .iter()
        .zip(&kept)
        .filter(|(_, k)| !**k)
        .map(|(c, _)| c.to_string())
        .collect();
    let parts = left_out
        .iter()
        .map(|c| {
            let mut name = String::new();
            crate::text::escape_inline(c, false, &mut name);
            name
        })
        .collect();
    t.select_columns(&order);
    t.notes.push(crate::doc::Note {
        head: crate::sink::notice::COLUMNS_LEFT_OUT_HEAD.into(),
        parts,
        sep: ", ",
        what: "columns",
        max: max_chars,
        narrowed: true,
        left_out,
        values: false,
    });
}

/// What to keep of a top-level node: the caps set it from the options, budgets search it.
#[derive(Debug, Clone)]
pub(crate) struct Keep {
    /// Rows, lines or items to keep (from the start; lines by the strategy).
    pub count: usize,
    /// Longest a value may be, in characters, by the caps (`max_cell_chars`).
    pub value_chars: Option<usize>,
    /// Longest a value may be by a budget (announced with a notice; never applied to record
    /// values of up to [`SHORT_SCALAR`] characters).
    pub budget_chars: Option<usize>,
    /// Rows, items or lines kept of every collection nested in a record or list (budget).
    pub nested: Option<usize>,
    /// Fields of a top-level record dropped by a budget (by index; empty: none).
    pub drop: Vec<bool>,
    /// Row caps of tables nested in records and lists (announced in place).
    pub plan: RowPlan,
    /// Salience is on (SPEC 22): `drop` numbers a record's leaves at any depth
    /// ([`crate::cut::arrange::leaves`]) and the dropped ones are named in one line; a cut table
    /// keeps its first rows and its last.
    pub salience: bool,
    /// Columns kept of the top-level table, or of a record's items
    /// ([`crate::cut::arrange::items_field`]), when a budget narrowed it
    /// ([`crate::cut::arrange::pick_columns`]).
    pub columns: Option<usize>,
    /// The longest the line naming what a budget left out may be, in characters.
    pub names_chars: usize,
    /// A page the fetch tool serves ([`crate::call::resolved::Resolved::paged`]): the lines of
    /// values said once above a table are never shortened (their values are read nowhere
    /// else on the page).
    pub paged: bool,
}

/// A cut node and what was cut.
#[derive(Debug)]
pub(crate) struct Cut<'a> {
    pub node: Node<'a>,
    pub notices: Vec<Notice>,
    pub values_shortened: usize,
    /// The shortest length a cap (a cell's or a field's, not the budget) shortened a value
    /// to, when one did.
    pub cap_shortest: Option<usize>,
}

impl<'a> Cut<'a> {
    /// `node` whole: nothing was cut (see [`untouched`]).
    pub fn whole(node: Node<'a>) -> Self {
        Cut {
            node,
            notices: Vec::new(),
            values_shortened: 0,
            cap_shortest: None,
        }
    }
}

impl Cut<'static> {
    /// Nothing to cut: a result without data (an error, an empty batch).
    pub fn none() -> Self {
        Cut {
            node: Node::Null,
            notices: Vec::new(),
            values_shortened: 0,
            cap_shortest: None,
        }
    }
}

/// How many rows, fields or items a node has (what `Keep::count` counts; lines of a string
/// are counted by [`cut_lines`]).
fn parts(node: &Node<'_>) -> usize {
    match node {
        Node::Table(t) => t.total_rows(),
        Node::Record(r) => r.fields.len(),
        Node::List(items) => items.len(),
        _ => 0,
    }
}

/// Cut a node the caller no longer needs, in place: nothing is copied, and nothing at all
/// is touched when nothing is cut.
pub(crate) fn cut_owned<'a>(node: Node<'a>, keep: &Keep, strategy: Strategy) -> Cut<'a> {
    let total = parts(&node);
    finish(node, total, keep, strategy)
}

/// Cut a copy of `node` (for the candidates a budget search tries): only the kept prefix
/// is copied.
pub(crate) fn cut<'a>(node: &Node<'a>, keep: &Keep, strategy: Strategy) -> Cut<'a> {
    let n = keep.count;
    let head = match node {
        Node::Table(t)
            if keep.salience && n >= 2 && n < t.total_rows() && t.rows() == t.total_rows() =>
        {
            Node::Table(t.head_last(n))
        }
        Node::Table(t) => Node::Table(t.head(n)),
        Node::Record(r) if keep.salience => Node::Record(r.clone()),
        Node::Record(r) => Node::Record(Record {
            title: r.title.clone(),
            left_out: r.left_out.clone(),
            left_out_paths: finish::names_left_out(r, n, &keep.drop),
            fields: r
                .fields
                .iter()
                .take(n)
                .enumerate()
                .filter(|(i, _)| !keep.drop.get(*i).copied().unwrap_or(false))
                .map(|(_, f)| f.clone())
                .collect(),
        }),
        Node::List(items) => Node::List(items[..n.min(items.len())].to_vec()),
        other => other.clone(),
    };
    finish(head, parts(node), keep, strategy)
}

/// Whether [`cut`] would give `node` back as it is: no row, field, item or line dropped, no
/// value shortened, no notice. Then a caller may use `node` itself instead of a cut copy
/// (the budget's whole-first candidate). Cheap (no allocation) and conservative: `false`
/// whenever a cut might change something (a value longer in bytes than its limit), which
/// only costs the copy `cut` makes.
pub(crate) fn untouched(node: &Node<'_>, keep: &Keep) -> bool {
    let whole = match node {
        Node::Table(t) => t.rows() == t.total_rows() && t.total_rows() <= keep.count,
        Node::Str(s) => text::lines(s).nth(keep.count).is_none(),
        _ => parts(node) <= keep.count,
    };
    if !whole || keep.drop.iter().any(|&d| d) || keep.columns.is_some() {
        return false;
    }
    let mut limits = Limits {
        cap: keep.value_chars,
        budget: keep.budget_chars,
        tables: None,
    };
    if let Node::Record(_) | Node::List(_) = node {
        if keep.nested.is_some_and(|n| nested_len(node) > n) {
            return false;
        }
        limits.tables = Some(&keep.plan);
    }
    values_untouched(node, limits)
}

/// Whether [`cut_values`] would change nothing in `node` (conservative, see [`untouched`]).
fn values_untouched(node: &Node<'_>, limits: Limits<'_>) -> bool {
    // `text::shorten` never cuts a string of at most `max` bytes.
    let fits = |s: &str, pick: Option<(usize, bool)>| pick.is_none_or(|(max, _)| s.len() <= max);
    match node {
        Node::Str(s) => fits(s, limits.pick(None, true)),
        Node::Table(t) => {
            let cols = t.columns().len().max(1);
            let picks: Vec<Option<(usize, bool)>> =
                (0..cols).map(|c| limits.pick(t.limit(c), true)).collect();
            limits
                .tables
                .is_none_or(|plan| plan.cap(t.max_rows) >= t.rows())
                && (picks.iter().all(Option::is_none)
                    || t.cells()
                        .zip(t.kinds())
                        .enumerate()
                        .all(|(i, (cell, kind))| {
                            !kind.may_shorten() || fits(cell, picks[i % cols])
                        }))
        }
        Node::Record(r) => r.fields.iter().all(|f| match &f.value {
            // The budget's limit is the smaller one: checking it covers the short values it
            // spares.
            Node::Str(s) => fits(s, limits.pick(f.max_chars, true)),
            v => values_untouched(
                v,
                Limits {
                    cap: min_limit(f.max_chars, limits.cap),
                    ..limits
                },
            ),
        }),
        Node::List(items) => items.iter().all(|v| values_untouched(v, limits)),
        Node::Envelope(e) => e.body().is_none_or(|b| values_untouched(b, limits)),
        Node::Null | Node::Bool(_) | Node::Number(_) | Node::DepthCut(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolOutput;
    use crate::input::context::Context;
    use serde_json::json;

    fn keep(count: usize, value_chars: Option<usize>) -> Keep {
        Keep {
            count,
            value_chars,
            budget_chars: None,
            nested: None,
            drop: Vec::new(),
            plan: RowPlan {
                global_cap: usize::MAX,
                want: usize::MAX,
                ..RowPlan::default()
            },
            salience: false,
            columns: None,
            names_chars: usize::MAX,
            paged: false,
        }
    }

    /// `untouched` says so only when `cut` gives the node back, and says so for the plain
    /// cases a budget's whole-first candidate meets.
    #[test]
    fn untouched_only_when_the_cut_gives_the_node_back() {
        let value = json!({"id": 7, "name": "a long enough name", "tags": ["x", "y", "z"],
                           "rows": [{"a": 1}, {"a": 2}, {"a": 3}], "note": "one\ntwo\nthree"});
        let node = value.to_node(&Context::new());
        let mut capped_rows = keep(usize::MAX, None);
        capped_rows.plan.global_cap = 2;
        let mut nested = keep(usize::MAX, None);
        nested.nested = Some(2);
        let mut dropped = keep(usize::MAX, None);
        dropped.drop = vec![false, true, false, false, false];
        let mut budget = keep(usize::MAX, None);
        budget.budget_chars = Some(5);
        for (k, expect) in [
            (keep(usize::MAX, None), true),
            (keep(5, Some(18)), true),
            (keep(4, None), false),
            (keep(usize::MAX, Some(10)), false),
            (capped_rows, false),
            (nested, false),
            (dropped, false),
            (budget, false),
        ] {
            let c = cut(&node, &k, Strategy::Head);
            let same = c.node == node && c.notices.is_empty() && c.values_shortened == 0;
            assert_eq!(untouched(&node, &k), expect, "{k:?}");
            assert!(!expect || same, "untouched but cut: {k:?}");
        }
        let rows = json!([{"a": "short", "b": 1}, {"a": "a longer cell text", "b": 2}]);
        let node = rows.to_node(&Context::new());
        for (k, expect) in [
            (keep(2, Some(18)), true),
            (keep(2, Some(17)), false),
            (keep(1, None), false),
        ] {
            let c = cut(&node, &k, Strategy::Head);
            assert_eq!(untouched(&node, &k), expect, "{k:?}");
            assert!(!expect || (c.node == node && c.notices.is_empty()), "{k:?}");
        }
        let text = json!("one\ntwo\nthree");
        let node = text.to_node(&Context::new());
        assert!(untouched(&node, &keep(3, None)));
        assert!(!untouched(&node, &keep(2, None)));
    }
}
