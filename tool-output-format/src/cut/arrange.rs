//! Arrange a document by salience before the fit: records show their most needed fields
//! first, tables their most needed columns first (a column with one value on every row, or
//! equal to an earlier one, said once above the table), and the fit's units for a record
//! (its leaves at any depth) come with the order a budget leaves them out in. A table's
//! column of lists of records becomes columns of its leaf paths first ([`leaf_paths`]).
//!
//! The ranks are [`crate::rules::salience`]'s; this module only applies them to the document.

mod leaf_paths;
mod record_leaves;

use crate::doc::{Field, Kind, Mark, Node, Note, Record, Table};
use crate::rules::salience::{Rank, Tier, is_payload, rank};
use crate::text::escape_inline;

pub(crate) use record_leaves::{drop_leaves, drop_order, leaves, left_out_line};

/// Order `node` by salience (`salience`: the name-and-value rank is on; else only marks
/// move fields: `key` first). Records at any depth, tables, lists and an envelope's body.
/// `fold`: a column with one value on every row, or equal to another, is said once above
/// its table (text targets; the structured JSON keeps every column).
pub(crate) fn arrange(node: &mut Node<'_>, salience: bool, fold: bool) {
    match node {
        Node::Record(r) => {
            arrange_record(r, salience, fold);
        }
        Node::List(items) => items.iter_mut().for_each(|v| arrange(v, salience, fold)),
        Node::Table(t) => arrange_table(t, salience, fold),
        Node::Envelope(e) => {
            if let Some(b) = e.body_mut() {
                arrange(b, salience, fold);
            }
        }
        _ => {}
    }
}

/// A field's rank, computed once (after its value was arranged), and for a nested record
/// (unmarked, with fields) the ranks of its fields: what the sort keys of the records
/// above it are computed from, so that no leaf is ranked again at every level above it.
struct Ranked {
    /// The field's own rank ([`rank`] of its name, value and mark).
    own: Rank,
    /// Its name names a payload ([`is_payload`]); read only when `nested` is set.
    payload: bool,
    /// The value is a record whose leaves give the field its key (see [`Ranked::key`]).
    nested: bool,
    /// The nested record's fields, when `nested`.
    fields: Vec<Ranked>,
}

impl Ranked {
    /// The sort key of the field under `parent` (its rank and whether the parent is a
    /// payload): its own rank, or for a record its most needed leaf.
    fn key(&self, parent: Option<(Rank, bool)>) -> crate::rules::salience::Key {
        let mut own = self.own;
        if let Some((p, payload)) = parent {
            own = own.under(p, payload);
        }
        if !self.nested {
            return own.key();
        }
        let under = Some((own, self.payload));
        self.fields
            .iter()
            .map(|c| c.key(under))
            .min()
            .unwrap_or(own.key())
    }
}

/// Arrange a record (and everything below it) and give the ranks of its fields, in the
/// order they end up in. The ranks of a nested record's fields are computed by its own
/// arrangement and reused for the keys above it.
fn arrange_record(r: &mut Record<'_>, salience: bool, fold: bool) -> Vec<Ranked> {
    if !salience {
        // Only marks move fields: `key` first. Scalars hold nothing to arrange.
        let mut keyed = false;
        for f in &mut r.fields {
            keyed |= f.mark == Mark::Key;
            if !f.value.is_scalar() {
                arrange(&mut f.value, false, fold);
            }
        }
        if keyed {
            r.fields.sort_by_key(|f| f.mark != Mark::Key);
        }
        return Vec::new();
    }
    let ranked: Vec<Ranked> = r
        .fields
        .iter_mut()
        .map(|f| {
            let fields = match &mut f.value {
                Node::Record(inner) => arrange_record(inner, salience, fold),
                other => {
                    arrange(other, salience, fold);
                    Vec::new()
                }
            };
            let nested = f.mark == Mark::None
                && matches!(&f.value, Node::Record(inner) if !inner.fields.is_empty());
            Ranked {
                own: rank(&f.name, &f.value, f.mark),
                payload: nested && is_payload(&f.name),
                nested,
                fields,
            }
        })
        .collect();
    // A nested record's fields are ordered by their own ranks (not under the parent), so
    // two records of one kind keep one order wherever they sit.
    let mut keyed: Vec<(crate::rules::salience::Key, Field<'_>, Ranked)> =
        std::mem::take(&mut r.fields)
            .into_iter()
            .zip(ranked)
            .map(|(f, k)| (k.key(None), f, k))
            .collect();
    keyed.sort_by_key(|(k, _, _)| *k);
    let mut ranked = Vec::with_capacity(keyed.len());
    r.fields = keyed
        .into_iter()
        .map(|(_, f, k)| {
            ranked.push(k);
            f
        })
        .collect();
    ranked
}

/// The rank of a table column: from its name and its first value that says something (a
/// column blank in every row is blank).
fn column_rank(t: &Table<'_>, c: usize) -> Rank {
    let name = &t.columns()[c];
    let mark = t.mark(c);
    let value = (0..t.rows())
        .map(|row| cell_node(t.cell(row, c)))
        .find(|v| !crate::rules::salience::is_blank(v))
        .unwrap_or(Node::Null);
    let mut own = rank(name, &value, mark);
    // A column blank in most rows says something of few rows: after the rest of the
    // columns that say something (its own tier orders it there).
    let rows = t.rows();
    let blank = (0..rows).filter(|&row| blank_cell(t, row, c)).count();
    if mark == Mark::None && rows >= 3 && blank * 2 > rows && own.tier < Tier::Rest {
        return Rank {
            tier: Tier::Rest,
            sub: own.tier,
            clue: "blank in most rows",
        };
    }
    // Lists and objects written as JSON text in a cell read worst: after the rest of their
    // tier.
    let json = (0..t.rows()).any(|row| t.cell(row, c).1 == Kind::Json);
    if json && mark == Mark::None && own.tier < Tier::Endpoint {
        own = Rank {
            tier: own.tier.max(Tier::Rest),
            sub: Tier::Blank,
            clue: "nested values as JSON text",
        };
        return own;
    }
    // A leaf of a list of records (`spec.containers.image`) keeps what its leaf is, after
    // the row's own columns of that kind (a system's id after the others); a field of a
    // record within those records (`spec.volumes.projected.sources.path`) is the rest.
    let depth = t.list_depth(c);
    if depth > 0 && mark == Mark::None {
        let machine = own.tier == Tier::Identity && own.sub == Tier::Rest;
        return match own.tier {
            Tier::Rest | Tier::Endpoint | Tier::Internal | Tier::Blank | Tier::Minor => Rank {
                tier: own.tier.max(Tier::Rest),
                sub: Tier::Blank,
                clue: own.clue,
            },
            _ if depth > 1 => Rank {
                tier: Tier::Rest,
                sub: Tier::Blank,
                clue: "a field of a record in a list of records",
            },
            tier => Rank {
                tier,
                sub: if machine { Tier::Rest } else { Tier::Who },
                clue: own.clue,
            },
        };
    }
    // A dotted column ranks under its parent path (`owner.login` under `owner`).
    match name.rsplit_once('.') {
        Some((parent, _)) if mark == Mark::None => {
            let p = rank(parent, &Node::Str("x".into()), Mark::None);
            let payload = parent.split('.').any(is_payload);
            own.under(p, payload)
        }
        _ => own,
    }
}

/// Whether the cell at `row` of column `c` is blank (null, empty, false, zero, a default
/// word: [`crate::rules::salience::is_blank`]).
fn blank_cell(t: &Table<'_>, row: usize, c: usize) -> bool {
    crate::rules::salience::is_blank(&cell_node(t.cell(row, c)))
}

/// A cell as the value it shows (enough for the rank: its kind and text).
fn cell_node<'t>((text, kind): (&'t str, Kind)) -> Node<'t> {
    match kind {
        Kind::Null => Node::Null,
        Kind::Bool => Node::Bool(text == "true"),
        Kind::Number => Node::Number(text.into()),
        Kind::Json if text == "[]" || text == "{}" => Node::List(Vec::new()),
        _ => Node::Str(text.into()),
    }
}

/// The longest value a column said once may hold (a cell cap below it keeps it in the table).
pub(crate) const SAID_ONCE_CHARS: usize = 40;

fn arrange_table(t: &mut Table<'_>, salience: bool, fold: bool) {
    let cols = t.columns().len();
    if cols == 0 {
        return;
    }
    if !salience {
        if (0..cols).any(|c| t.mark(c) == Mark::Key) {
            let mut order: Vec<usize> = (0..cols).collect();
            order.sort_by_key(|&c| t.mark(c) != Mark::Key);
            t.select_columns(&order);
        }
        return;
    }
    // A column of lists of records: columns of its leaf paths (text targets; the structured
    // JSON keeps the lists).
    if fold {
        leaf_paths::expand(t);
    }
    let cols = t.columns().len();
    let rows = t.rows();
    let mut said = Vec::new();
    let mut same = Vec::new();
    let mut keep = Vec::new();
    // Two columns are compared from their first cells, read once (most differ there).
    let firsts: Vec<(&str, Kind)> = if rows > 0 {
        (0..cols).map(|c| t.cell(0, c)).collect()
    } else {
        Vec::new()
    };
    let column_eq = |a: usize, b: usize| {
        firsts[a] == firsts[b] && (1..rows).all(|r| t.cell(r, a) == t.cell(r, b))
    };
    for c in 0..cols {
        let marked = t.mark(c) != Mark::None;
        // Said once: only when every row is built and there are rows to compare.
        if fold
            && !marked
            && rows >= 2
            && rows == t.total_rows()
            && cols - said.len() - same.len() > 1
        {
            let first = t.cell(0, c);
            // Only a short value is said once: a long one stays in its column, where the
            // caps and the budget may shorten it.
            let short = first.0.chars().count()
                <= t.limit(c).unwrap_or(SAID_ONCE_CHARS).min(SAID_ONCE_CHARS);
            if short && (1..rows).all(|r| t.cell(r, c) == first) {
                said.push(c);
                continue;
            }
            if let Some(&earlier) = keep.iter().find(|&&k| column_eq(k, c)) {
                same.push((c, earlier));
                continue;
            }
        }
        keep.push(c);
    }
    let mut ranked: Vec<(crate::rules::salience::Key, usize)> =
        keep.iter().map(|&c| (column_rank(t, c).key(), c)).collect();
    ranked.sort_by_key(|(k, _)| *k);
    let order: Vec<usize> = ranked.iter().map(|(_, c)| *c).collect();
    if !said.is_empty() {
        // Most needed first; but a value on every row cannot identify a row (it names what
        // the rows share), so identities come after the other kinds that say something
        // (state to who), before the rest.
        // A leaf of a list of records comes after the row's own values of the kinds that
        // say something, before the rest.
        // Each column ranked once (a key function of `sort_by_key` runs per comparison);
        // the sort is stable as `sort_by_key` is.
        said.sort_by_cached_key(|&c| {
            let (tier, nested, sub) = column_rank(t, c).key();
            let identity = tier == Tier::Identity;
            (
                tier >= Tier::Rest,
                t.list_depth(c) > 0,
                if identity { Tier::Who } else { tier },
                identity,
                nested,
                sub,
            )
        });
        let parts = said
            .iter()
            .map(|&c| {
                let mut part = String::new();
                escape_inline(&t.columns()[c], false, &mut part);
                part.push_str(": ");
                let (text, kind) = t.cell(0, c);
                if kind == Kind::Null || text.is_empty() {
                    part.push_str("(empty)");
                } else {
                    escape_inline(text, false, &mut part);
                }
                part
            })
            .collect();
        t.notes.push(Note {
            head: crate::sink::notice::same_on_all_head(rows),
            parts,
            sep: "; ",
            what: "columns",
            max: usize::MAX,
            narrowed: false,
            left_out: Vec::new(),
            values: true,
        });
    }
    if !same.is_empty() {
        let names: Vec<(String, String)> = same
            .iter()
            .map(|&(c, e)| (t.columns()[c].to_string(), t.columns()[e].to_string()))
            .collect();
        let parts = group_by_prefix(&names)
            .iter()
            .map(|(a, b)| {
                let mut part = String::new();
                escape_inline(a, false, &mut part);
                part.push_str(" = ");
                escape_inline(b, false, &mut part);
                part
            })
            .collect();
        t.notes.push(Note {
            head: crate::sink::notice::SAME_AS_ANOTHER_HEAD.into(),
            parts,
            sep: "; ",
            what: "columns",
            max: usize::MAX,
            narrowed: false,
            left_out: Vec::new(),
            values: false,
        });
    }
    t.select_columns(&order);
}

/// The columns of a table (they are in salience order) that say what a row is and where a
/// person opens it: every marked `key` or `essential` column, the first two that identify a
/// row (and the first that names it to a person when those two are numbers or hashes), and
/// the first of each of its state, what it says (a column of lists of values is neither) and
/// its page for people. Their indices, in order.
fn core(t: &Table<'_>) -> Vec<usize> {
    let mut taken = [0usize; 4];
    // The first identity a person reads (a name, a title: not a number), when the first two
    // are numbers or hashes.
    let named = (0..t.columns().len()).find(|&c| {
        column_rank(t, c).tier == Tier::Identity
            && (0..t.rows()).any(|r| t.cell(r, c).1 == Kind::Text)
            && !(0..t.rows()).any(|r| blank_cell(t, r, c))
            && !(0..t.rows()).all(|r| is_code(t.cell(r, c).0))
    });
    let lists = |c: usize| (0..t.rows()).any(|r| t.cell(r, c).1 == Kind::List);
    (0..t.columns().len())
        .filter(|&c| {
            let (slot, most) = match column_rank(t, c).tier {
                Tier::Key | Tier::Essential => return true,
                // A leaf of a list of records says what the row holds, not what it is.
                _ if t.list_depth(c) > 0 => return false,
                Tier::Identity if Some(c) == named => {
                    taken[0] += 1;
                    return true;
                }
                // An identity blank in some rows does not identify the rows.
                Tier::Identity if (0..t.rows()).any(|r| blank_cell(t, r, c)) => return false,
                Tier::Identity => (0, 2),
                // A list of values is not one state or one text of the row.
                Tier::State | Tier::Text if lists(c) => return false,
                Tier::State => (1, 1),
                Tier::Text => (2, 1),
                Tier::Page => (3, 1),
                _ => return false,
            };
            taken[slot] += 1;
            taken[slot] <= most
        })
        .collect()
}

/// Whether a cell reads as a code rather than a name: digits, or a hex hash.
fn is_code(text: &str) -> bool {
    text.len() >= 7 && text.bytes().all(|b| b.is_ascii_hexdigit())
        || text.bytes().all(|b| b.is_ascii_digit())
}

/// How many columns [`core`] picks (at most all of them).
pub(crate) fn core_columns(t: &Table<'_>) -> usize {
    core(t).len()
}

/// The `k` columns a table narrowed to `k` keeps, in order: its [`core`] columns (the first
/// `k` of them when `k` is fewer), then the others by kind in turns (the most needed of each
/// tier, then the next of each).
pub(crate) fn pick_columns(t: &Table<'_>, k: usize) -> Vec<usize> {
    let mut keep = vec![false; t.columns().len()];
    let core = core(t);
    for &c in core.iter().take(k) {
        keep[c] = true;
    }
    // The others by kind in turns: the row's own fields before those of a nested thing,
    // and among them the first of each tier that says something (state to who, in tier
    // order, then an identity: the core already identifies the row), then the second of
    // each, and so on, so a narrowed table says when and who before a fourth state; the
    // rest after them, most needed first.
    let mut more = k.saturating_sub(core.len());
    let mut turn = std::collections::HashMap::new();
    let mut others: Vec<(bool, bool, usize, Tier, usize)> = (0..keep.len())
        .filter(|&c| !keep[c])
        .map(|c| {
            let rank = column_rank(t, c);
            let (tier, nested, _) = rank.key();
            let n = turn.entry((tier, nested)).or_insert(0usize);
            *n += 1;
            let rest = tier > Tier::Who;
            // The core identifies the row: another identity comes after who in its turn.
            let order = if tier == Tier::Identity {
                Tier::Rest
            } else {
                tier
            };
            (rest, nested, if rest { 0 } else { *n }, order, c)
        })
        .collect();
    others.sort_unstable();
    for (.., c) in others {
        if more == 0 {
            break;
        }
        keep[c] = true;
        more -= 1;
    }
    (0..keep.len()).filter(|&c| keep[c]).collect()
}

/// Pairs `a = b` of equal columns, with pairs that share their prefixes and differ only by
/// the prefix said once: `committer.name = author.name` and `committer.email =
/// author.email` are `committer.* = author.*`.
fn group_by_prefix(pairs: &[(String, String)]) -> Vec<(String, String)> {
    let split = |s: &str| {
        s.split_once('.')
            .map(|(p, rest)| (p.to_owned(), rest.to_owned()))
    };
    let mut out: Vec<(String, String)> = Vec::new();
    let mut done = vec![false; pairs.len()];
    for i in 0..pairs.len() {
        if done[i] {
            continue;
        }
        let (a, b) = &pairs[i];
        if let (Some((pa, ra)), Some((pb, rb))) = (split(a), split(b))
            && ra == rb
        {
            let group: Vec<usize> = (i..pairs.len())
                .filter(|&j| {
                    !done[j]
                        && matches!((split(&pairs[j].0), split(&pairs[j].1)),
                            (Some((x, rx)), Some((y, ry))) if x == pa && y == pb && rx == ry)
                })
                .collect();
            if group.len() > 1 {
                group.iter().for_each(|&j| done[j] = true);
                out.push((format!("{pa}.*"), format!("{pb}.*")));
                continue;
            }
        }
        done[i] = true;
        out.push((a.clone(), b.clone()));
    }
    out
}

/// The index of a record's items: the top-level field holding a table (a list of records)
/// that is at least half the record's text, when there is one. A budget narrows it as it
/// narrows a table, so a page of items keeps what says what each item is.
pub(crate) fn items_field(r: &Record<'_>) -> Option<usize> {
    let sizes: Vec<usize> = r
        .fields
        .iter()
        .map(|f| text_bytes(&f.value, usize::MAX) + f.name.len())
        .collect();
    let all: usize = sizes.iter().sum();
    let (i, size) = r
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.value, Node::Table(_)))
        .map(|(i, _)| (i, sizes[i]))
        .max_by_key(|&(_, size)| size)?;
    (size * 2 >= all).then_some(i)
}

/// Bytes of text in a node (a cheap bound on its rendered size), stopping past the limit.
pub(crate) fn text_bytes(node: &Node<'_>, limit: usize) -> usize {
    fn walk(node: &Node<'_>, limit: usize, acc: &mut usize) {
        if *acc > limit {
            return;
        }
        match node {
            Node::Str(s) | Node::Number(s) => *acc += s.len(),
            Node::Table(t) => *acc += t.text_len(),
            Node::Record(r) => r.fields.iter().for_each(|f| {
                *acc += f.name.len() + 4;
                walk(&f.value, limit, acc);
            }),
            Node::List(items) => items.iter().for_each(|v| {
                *acc += 2;
                walk(v, limit, acc);
            }),
            _ => *acc += 5,
        }
    }
    let mut acc = 0;
    walk(node, limit, &mut acc);
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolOutput;
    use crate::input::context::Context;
    use serde_json::json;

    fn names(node: &Node<'_>) -> Vec<String> {
        match node {
            Node::Record(r) => r.fields.iter().map(|f| f.name.to_string()).collect(),
            Node::Table(t) => t.columns().iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn a_record_shows_its_most_needed_fields_first() {
        let v = json!({"fork": false, "size": 3, "owner": {"type": "User", "login": "ada"},
                       "created_at": "2020-01-01T00:00:00Z", "html_url": "https://github.com/ada/x",
                       "description": "A thing", "state": "open", "full_name": "ada/x"});
        let mut node = v.to_node(&Context::new());
        arrange(&mut node, true, true);
        assert_eq!(
            names(&node),
            [
                "full_name",
                "state",
                "description",
                "html_url",
                "created_at",
                "owner",
                "size",
                "fork"
            ]
        );
        let Node::Record(r) = &node else { panic!() };
        assert_eq!(names(&r.fields[5].value), ["login", "type"]);
    }

    #[test]
    fn a_leaf_that_says_again_what_another_says_goes_before_the_rest() {
        let v = json!({"name": "is-number", "license": "MIT", "notes": "x",
                       "versions": {"7.0.0": {"license": "MIT", "tarball": "is-number-7.0.0.tgz"}}});
        let node = v.to_node(&Context::new());
        let Node::Record(r) = &node else { panic!() };
        let leaves = leaves(r, true);
        let at = |p: &str| leaves.iter().position(|l| l.path == p).unwrap();
        let order = drop_order(&leaves);
        // Left out first: the license said again under a version; the top-level one stays.
        assert_eq!(order[0], at("versions.7.0.0.license"));
        assert_eq!(leaves[at("versions.7.0.0.license")].key.0, Tier::Internal);
        assert!(leaves[at("license")].key < leaves[at("versions.7.0.0.tarball")].key);
        // A value said once is not demoted.
        assert_eq!(leaves[at("notes")].key.0, Tier::Rest);
    }

    #[test]
    fn a_payload_is_ranked_by_its_leaves() {
        let v = json!({"type": "Feature", "geometry": {"type": "Point"},
                       "properties": {"mag": 4.5, "title": "M 4.5 - somewhere"}, "id": "us1"});
        let mut node = v.to_node(&Context::new());
        arrange(&mut node, true, true);
        assert_eq!(names(&node), ["properties", "id", "type", "geometry"]);
        let Node::Record(r) = &node else { panic!() };
        let leaves = leaves(r, true);
        let order = drop_order(&leaves);
        // The first left out is the geometry's type (a state under a "rest" parent).
        assert_eq!(leaves[order[0]].path, "geometry.type");
        // The last two are the identities, the payload's title among them.
        let last: Vec<&str> = order[order.len() - 2..]
            .iter()
            .map(|&i| leaves[i].path.as_str())
            .collect();
        assert!(
            last.contains(&"properties.title") && last.contains(&"id"),
            "{last:?}"
        );
    }

    #[test]
    fn leaving_out_leaves_drops_emptied_records_and_names_them_in_rank_order() {
        let v = json!({"name": "x", "owner": {"login": "ada", "site_admin": false}, "etag": "abc"});
        let Node::Record(mut r) = v.to_node(&Context::new()) else {
            panic!()
        };
        let ls = leaves(&r, true);
        assert_eq!(
            ls.iter().map(|l| l.path.as_str()).collect::<Vec<_>>(),
            ["name", "owner.login", "owner.site_admin", "etag"]
        );
        let drop = [false, true, true, true];
        assert_eq!(
            left_out_line(&ls, &drop, 200).unwrap(),
            "[Left out to fit the budget: owner.login, etag, owner.site_admin]"
        );
        assert_eq!(
            left_out_line(&ls, &drop, 40).unwrap(),
            "[Left out to fit the budget: owner.login and 2 more]"
        );
        assert_eq!(drop_leaves(&mut r, &drop, true), 3);
        assert_eq!(r.fields.len(), 1);
    }

    #[test]
    fn a_table_says_a_constant_and_a_copied_column_once() {
        let v = json!([
            {"kind": "Pod", "author": {"name": "a", "email": "a@x"}, "committer": {"name": "a", "email": "a@x"}, "sha": "1"},
            {"kind": "Pod", "author": {"name": "b", "email": "b@x"}, "committer": {"name": "b", "email": "b@x"}, "sha": "2"},
        ]);
        let mut node = v.to_node(&Context::new());
        if let Node::Table(_) = node {
        } else {
            panic!("{node:?}")
        }
        // Flatten as the agent preset would: dotted columns.
        let flat = crate::Shape::new().flatten();
        let fmt = crate::Formatter::new().shape(flat).salience(true);
        let md = fmt.format("t", &v);
        assert!(md.contains("[Same on all 2 rows: kind: Pod]"), "{md}");
        assert!(
            md.contains("[Same as another column on every row: committer.* = author.*]"),
            "{md}"
        );
        arrange(&mut node, true, true);
        assert_eq!(names(&node)[0], "sha");
    }

    #[test]
    fn a_narrowed_table_keeps_a_name_when_its_ids_are_numbers() {
        let v = json!([
            {"id": 1, "number": 10, "node_id": "n", "title": "Fix it", "state": "open", "comments": 3},
            {"id": 2, "number": 11, "node_id": "m", "title": "Add it", "state": "closed", "comments": 0},
        ]);
        let mut node = v.to_node(&Context::new());
        arrange(&mut node, true, true);
        let Node::Table(t) = &node else {
            panic!("{node:?}")
        };
        let kept: Vec<&str> = pick_columns(t, 4)
            .into_iter()
            .map(|c| t.columns()[c].as_ref())
            .collect();
        assert!(
            kept.contains(&"title") && kept.contains(&"state"),
            "{kept:?}"
        );
        assert!(!kept.contains(&"comments"), "{kept:?}");
    }

    #[test]
    fn a_record_whose_items_are_most_of_it_names_them() {
        let v = json!({"total": 2, "items": [{"key": "A-1", "summary": "one two three four"},
                                            {"key": "A-2", "summary": "five six seven eight"}]});
        let Node::Record(r) = v.to_node(&Context::new()) else {
            panic!()
        };
        assert_eq!(
            items_field(&r).map(|i| r.fields[i].name.as_ref()),
            Some("items")
        );
        let small = json!({"title": "a long title that is most of the record", "tags": [{"n": 1}]});
        let Node::Record(r) = small.to_node(&Context::new()) else {
            panic!()
        };
        assert_eq!(items_field(&r), None);
    }
}
