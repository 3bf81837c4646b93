//! Salience: how much an agent needs a field, from its name and its value.
//!
//! A budget that must leave fields or columns out leaves out the least needed first, and a
//! record shows its most needed fields first. The rank is a [`Tier`] (most needed first) with
//! a sub-rank that orders fields within a tier, and a [`Rank::clue`] that says why.
//!
//! # The rule
//!
//! 1. **Marks win** ([`Mark`]): `key` first, `essential` next, `minor` last, whatever the
//!    name and value.
//! 2. **The value can demote**: an empty value (null, `""`, `[]`, `{}`), `false`, a zero and
//!    a string that is only a default word (`none`, `default`, `0`) rank [`Tier::Blank`],
//!    after everything else but a `minor` mark: it says the least.
//! 3. **The name ranks** (any case: `snake_case`, `camelCase`, `kebab-case` and `Title Case`
//!    are one; a nested field by its leaf, the part after the last `.`), from the words of the
//!    name:
//!    - [`Tier::Identity`]: `id`, `name`, `full_name`, `title`, `key`, `number`, `sha`, `slug`,
//!      `login`, `email`, `username`, `handle`, `image`, `path`, `ref`, `tag`, `version`, `ip`,
//!      `host`, `hostname`, `address`, and names ending in `_name`, `_id`, `_key`, `_number`,
//!      `_ip`, `_sha` (but see internal ids below); within the tier an id a system assigns
//!      (`id`, `uuid`, `guid`, names ending in `_id`, `_uuid`) comes after the names, titles
//!      and numbers people use;
//!    - [`Tier::State`]: `status`, `state`, `phase`, `type`, `kind`, `conclusion`, `result`,
//!      `reason`, `code`, `error`, `level`, `severity`, `health`, `total`, `count`, `ready`,
//!      `merged`, `draft`, `locked`, `paid`, `amount`, `currency`, `price`, `mag`,
//!      `total_count` and names ending in `_status`, `_state`, `_type`, `_total` (other
//!      counts, `*_count`, are the rest); within the tier the state itself (`status`,
//!      `state`, `phase`, `conclusion`, `type`, `kind`, `result`, `code`, `error`,
//!      `*_status`, `*_state`) comes before a count, an amount or a flag;
//!    - [`Tier::Text`]: `description`, `message`, `body`, `summary`, `text`, `content`,
//!      `comment`, `note`, `subject`, `place`, `label`, `labels`, `license` and names ending in
//!      `_message`, `_description`, `_text`;
//!    - [`Tier::Page`]: a link a person opens: `html_url`, `web_url`, `permalink`,
//!      `permalink_url`, `homepage`, `link`, `href`, `url` and names ending in `_url`, `_link`,
//!      `_href`, when the value is not an API endpoint (below); a value that is a web URL
//!      (`http(s)://`, `git://`, or behind a tool's prefix: `git+https://`) that is neither an
//!      endpoint nor an image is a page whatever its name;
//!    - [`Tier::Time`]: `date`, `time`, `timestamp`, `ts`, `last_seen`, `first_seen`,
//!      `created`, `updated`, `since`, `until`, `expires` and names ending in `_at`, `_on`,
//!      `_time`, `_date`, `timestamp`, `_ts`;
//!    - [`Tier::Who`]: `owner`, `author`, `user`, `assignee`, `assignees`, `creator`,
//!      `committer`, `reporter`, `sender`, `actor`, `maintainer`, `maintainers`, `members`,
//!      `customer`, `assigned_to`, and names ending in `_by`;
//!    - [`Tier::Rest`]: every other name;
//!    - [`Tier::Endpoint`]: a URL that returns data to a program: a value on an `api.`
//!      host, under `/api/` or a versioned path (`/v1/`), a URL template (`{`), or named
//!      `url`/`*_url`/`self` with such a value;
//!    - [`Tier::Internal`]: bookkeeping: `node_id`, `gravatar_id`, `etag`, `self`,
//!      `resource_version`, `generation`, `uid`, `temp_clone_token`, names beginning with `_`
//!      (`_links`), `*_node_id`, `*_token`, and a page's envelope beside its items (`expand`,
//!      `start_at`, `max_results`, `per_page`, `offset`, `limit`).
//! 4. **A nested field** ranks by its leaf, then no better than its parent: `owner.login` is
//!    [`Tier::Who`] (its sub-rank is its own, identity, so `owner.login` comes before
//!    `owner.type`). Under a parent whose name says nothing (the rest), a leaf keeps its
//!    tier but comes after the record's own fields of that tier, and an id there is the
//!    rest (`tree.sha` names the tree, not the commit). A parent that is a record's payload
//!    (`properties`, `info`, `fields`, `data`, `attributes`, `spec`, `status`, `metadata`,
//!    `payload`, `details`, `item`, `record`, `object`, `result`) does not bound its leaves: they
//!    rank as if they were the record's own, so a payload is never left out whole for its
//!    size; but an identity under a payload whose name says what it is names that parent
//!    (`status.name` is the status: [`Tier::State`]).
//! 5. **Said twice**: a leaf of a record whose text equals a more needed leaf's of the same
//!    name (`versions.7.0.0.license` beside `license`) ranks with the bookkeeping: the one
//!    kept says it.
//! 6. **Ties**: within a tier, a field of that kind itself comes before one nested under a
//!    parent of that kind (`summary` before `description.type`); then the input's order.
//!
//! Every rule above is general: it reads a name's words and a value's form, never a
//! particular service's response.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use crate::doc::{Mark, Node};

/// How much a field is needed, most needed first (the order of the variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Tier {
    /// Marked `key`.
    Key,
    /// Marked `essential`.
    Essential,
    /// What identifies the thing: an id, a name, a title, a number, a hash.
    Identity,
    /// Its state: a status, a phase, a kind, a conclusion, an error's code, a count.
    State,
    /// What it says: a description, a message, a body, a summary.
    Text,
    /// Its page for people.
    Page,
    /// When: created, updated, a date.
    Time,
    /// Who: the owner, the author, the user, the assignee.
    Who,
    /// Everything else.
    Rest,
    /// An API endpoint URL.
    Endpoint,
    /// Bookkeeping: internal node ids, tags for caches, a page's envelope.
    Internal,
    /// An empty, false, zero or default value.
    Blank,
    /// Marked `minor`.
    Minor,
}

/// The sort key of a [`Rank`] ([`Rank::key`]).
pub(crate) type Key = (Tier, bool, Tier);

/// A field's rank and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rank {
    /// The tier: what the field is.
    pub tier: Tier,
    /// The order within the tier: the leaf's own tier (a nested field's tier may be its
    /// parent's).
    pub sub: Tier,
    /// The clue that decided the tier: the mark, the name's word, or the value's form.
    pub clue: &'static str,
}

impl Rank {
    /// The sort key: tier, then a field of that kind itself before one nested under a
    /// parent of that kind (`summary` before `description.type`), then sub-rank (smaller is
    /// more needed).
    pub fn key(self) -> Key {
        (self.tier, self.sub != self.tier, self.sub)
    }

    /// The rank of a field nested under a parent of rank `parent` (rule 4). `payload`: the
    /// parent's key names a payload, whose leaves rank as their own.
    #[must_use]
    pub fn under(self, parent: Rank, payload: bool) -> Rank {
        if matches!(self.tier, Tier::Key | Tier::Essential) {
            return self;
        }
        if payload {
            // A payload's leaves rank as the record's own, but an identity under a parent
            // whose name says what it is names that parent (`status.name` is the status).
            if self.tier == Tier::Identity
                && parent.tier > Tier::Identity
                && parent.tier < Tier::Rest
            {
                return Rank {
                    tier: parent.tier,
                    sub: parent.tier,
                    clue: parent.clue,
                };
            }
            return self;
        }
        if parent.tier == Tier::Rest && self.tier < Tier::Rest {
            // Under a parent that says nothing by its name, a leaf keeps what it is but
            // comes after the record's own of that kind; an id there names the nested
            // thing, not the record.
            let tier = if self.tier == Tier::Identity {
                Tier::Rest
            } else {
                self.tier
            };
            return Rank {
                tier,
                sub: Tier::Rest,
                clue: self.clue,
            };
        }
        if parent.tier > self.tier {
            Rank {
                tier: parent.tier,
                sub: self.tier,
                clue: parent.clue,
            }
        } else {
            self
        }
    }
}

/// The rank of a field named `name` (its leaf is read) holding `value`, marked `mark`.
pub(crate) fn rank(name: &str, value: &Node<'_>, mark: Mark) -> Rank {
    let tier = |tier, clue| Rank {
        tier,
        sub: tier,
        clue,
    };
    match mark {
        Mark::Key => return tier(Tier::Key, "marked key"),
        Mark::Essential => return tier(Tier::Essential, "marked essential"),
        Mark::Minor => return tier(Tier::Minor, "marked minor"),
        _ => {}
    }
    if is_blank(value) {
        return tier(Tier::Blank, blank_clue(value));
    }
    let by_name = name_rank(name);
    if by_name.tier == Tier::Internal {
        return by_name;
    }
    if let Node::Str(s) = value
        && let Some(rest) = url_rest(s)
    {
        if is_endpoint_at(s, rest) {
            return tier(Tier::Endpoint, "an API endpoint URL");
        }
        if is_image(rest) {
            return tier(Tier::Rest, "an image URL");
        }
        return tier(Tier::Page, "a page for people");
    }
    by_name
}

/// The rank a field's name alone gives, its value left out (the order in which the line
/// naming left-out fields lists them): rules 2 and 3 on the name.
///
/// Remembered per leaf (up to [`MEMO_NAMES`] distinct ones a thread, then forgotten all at
/// once): a name is ranked again for every record and column that holds it, and its words
/// are compared with a hundred names.
pub(crate) fn name_rank(name: &str) -> Rank {
    thread_local! {
        static SEEN: RefCell<HashMap<Box<str>, Rank, foldhash::fast::RandomState>> =
            RefCell::new(HashMap::default());
    }
    let leaf = leaf(name);
    SEEN.with(|seen| {
        if let Some(&rank) = seen.borrow().get(leaf) {
            return rank;
        }
        let rank = words_rank(&Words::of(leaf));
        let mut seen = seen.borrow_mut();
        if seen.len() >= MEMO_NAMES {
            seen.clear();
        }
        seen.insert(leaf.into(), rank);
        rank
    })
}

/// How many distinct names [`name_rank`] remembers.
const MEMO_NAMES: usize = 4096;

/// [`name_rank`] by its definition: rules 2 and 3 on the words of a name.
fn words_rank(words: &Words) -> Rank {
    match internal(words) {
        Some(clue) => Rank {
            tier: Tier::Internal,
            sub: Tier::Internal,
            clue,
        },
        None => named(words),
    }
}

/// The rank the words of a name give, for a value that is not blank or a URL (rule 3, with
/// a system's ids and a state's counts after the rest of their tier).
fn named(words: &Words) -> Rank {
    let tier = |tier, clue| Rank {
        tier,
        sub: tier,
        clue,
    };
    let (t, clue) = by_name(words);
    if t == Tier::Identity && is_machine_id(words) {
        // A number a system assigns says less than the name, title or number people use:
        // after them in the tier.
        return Rank {
            tier: t,
            sub: Tier::Rest,
            clue,
        };
    }
    if t == Tier::State && !is_state_itself(words) {
        // A count, an amount or a flag says less than the state itself: after it in the
        // tier.
        return Rank {
            tier: t,
            sub: Tier::Rest,
            clue,
        };
    }
    tier(t, clue)
}

/// Whether a state name is the state itself (`status`, `state`, `phase`, `conclusion`,
/// `type`, `kind`, `result`, `code`, `error` and names ending in `_status`, `_state`), not a
/// count, an amount or a flag.
fn is_state_itself(w: &Words) -> bool {
    w.is(&[
        "status",
        "state",
        "phase",
        "conclusion",
        "type",
        "kind",
        "result",
        "code",
        "error",
    ]) || w.ends(&["_status", "_state"])
}

/// Whether an identity's name says a system assigned it (`id`, `uid`, `*_id`), not people.
fn is_machine_id(w: &Words) -> bool {
    w.is(&["id", "uid", "uuid", "guid"]) || w.ends(&["_id", "_uid", "_uuid"])
}

/// Whether a field named `name` holds the payload of its record (rule 4).
pub(crate) fn is_payload(name: &str) -> bool {
    let w = Words::of(leaf(name));
    matches!(
        &*w.joined,
        "properties"
            | "info"
            | "fields"
            | "data"
            | "attributes"
            | "spec"
            | "status"
            | "metadata"
            | "payload"
            | "details"
            | "item"
            | "record"
            | "object"
            | "result"
    )
}

/// The part of a dotted path after its last `.`.
fn leaf(name: &str) -> &str {
    memchr::memrchr(b'.', name.as_bytes()).map_or(name, |i| &name[i + 1..])
}

/// A name as lowercase words: `fullName`, `full-name` and `Full Name` are `full_name`.
struct Words<'n> {
    /// The words joined by `_`: the name itself when it is written so already (most are).
    joined: Cow<'n, str>,
}

impl Words<'_> {
    fn of(name: &str) -> Words<'_> {
        if is_joined(name) {
            return Words {
                joined: Cow::Borrowed(name),
            };
        }
        let mut joined = String::with_capacity(name.len() + 4);
        let mut prev_lower = false;
        for c in name.chars() {
            if c == '_' || c == '-' || c == ' ' || c == '.' {
                if !joined.is_empty() && !joined.ends_with('_') {
                    joined.push('_');
                }
                prev_lower = false;
                continue;
            }
            if c.is_uppercase() {
                if prev_lower && !joined.ends_with('_') {
                    joined.push('_');
                }
                joined.extend(c.to_lowercase());
                prev_lower = false;
            } else {
                joined.push(c);
                prev_lower = c.is_lowercase() || c.is_ascii_digit();
            }
        }
        // A leading `_` is kept as a mark of bookkeeping (`_links`).
        if name.starts_with('_') {
            joined.insert(0, '_');
        }
        Words {
            joined: Cow::Owned(joined),
        }
    }

    fn is(&self, names: &[&str]) -> bool {
        names.contains(&&*self.joined)
    }

    fn ends(&self, suffixes: &[&str]) -> bool {
        suffixes.iter().any(|s| self.joined.ends_with(s))
    }
}

/// Whether a name is its own words ([`Words::of`] would give it back): lowercase ASCII
/// letters, digits and single `_`.
fn is_joined(name: &str) -> bool {
    let b = name.as_bytes();
    b.iter()
        .all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
        && !b.windows(2).any(|w| w == b"__")
}

/// The tier a name's words give (rule 3), for a value that is not a URL.
fn by_name(w: &Words) -> (Tier, &'static str) {
    const IDENTITY: &[&str] = &[
        "id",
        "name",
        "full_name",
        "title",
        "key",
        "number",
        "sha",
        "slug",
        "login",
        "email",
        "username",
        "handle",
        "path",
        "ref",
        "tag",
        "version",
        "image",
        "ip",
        "host",
        "hostname",
        "address",
        "uuid",
    ];
    const STATE: &[&str] = &[
        "status",
        "state",
        "phase",
        "type",
        "kind",
        "conclusion",
        "result",
        "reason",
        "code",
        "error",
        "level",
        "severity",
        "health",
        "total",
        "count",
        "total_count",
        "ready",
        "merged",
        "draft",
        "locked",
        "paid",
        "amount",
        "currency",
        "price",
        "mag",
    ];
    const TEXT: &[&str] = &[
        "description",
        "message",
        "body",
        "summary",
        "text",
        "content",
        "comment",
        "note",
        "subject",
        "place",
        "label",
        "labels",
        "license",
    ];
    const TIME: &[&str] = &[
        "date",
        "time",
        "timestamp",
        "ts",
        "last_seen",
        "first_seen",
        "created",
        "updated",
        "since",
        "until",
        "expires",
    ];
    const WHO: &[&str] = &[
        "owner",
        "author",
        "user",
        "assignee",
        "assignees",
        "creator",
        "committer",
        "reporter",
        "sender",
        "actor",
        "maintainer",
        "maintainers",
        "members",
        "customer",
        "assigned_to",
    ];
    if w.is(IDENTITY) {
        return (Tier::Identity, "an identity name");
    }
    if w.is(STATE) {
        return (Tier::State, "a state name");
    }
    if w.is(TEXT) {
        return (Tier::Text, "a text name");
    }
    if w.is(TIME) || w.ends(&["_at", "_on", "_time", "_date", "timestamp", "_ts"]) {
        return (Tier::Time, "a time name");
    }
    if w.is(WHO) || w.ends(&["_by"]) {
        return (Tier::Who, "a name for who");
    }
    if w.is(&[
        "html_url",
        "web_url",
        "permalink",
        "homepage",
        "link",
        "href",
    ]) || w.ends(&["_link", "_href"])
    {
        return (Tier::Page, "a page name");
    }
    if w.ends(&["_name", "_id", "_key", "_number", "_ip", "_sha"]) {
        return (Tier::Identity, "an identity suffix");
    }
    if w.ends(&["_status", "_state", "_type", "_total"]) {
        return (Tier::State, "a state suffix");
    }
    if w.ends(&["_message", "_description", "_text"]) {
        return (Tier::Text, "a text suffix");
    }
    if w.is(&["url"]) || w.ends(&["_url"]) {
        return (Tier::Endpoint, "a URL name");
    }
    (Tier::Rest, "no clue")
}

/// Bookkeeping names (rule 3, internal).
fn internal(w: &Words) -> Option<&'static str> {
    const INTERNAL: &[&str] = &[
        "node_id",
        "gravatar_id",
        "etag",
        "self",
        "resource_version",
        "generation",
        "uid",
        "temp_clone_token",
        "managed_fields",
        "expand",
        "start_at",
        "max_results",
        "per_page",
        "offset",
        "limit",
    ];
    if w.is(INTERNAL) {
        return Some("bookkeeping");
    }
    if w.joined.starts_with('_') || w.ends(&["_node_id", "_token"]) {
        return Some("bookkeeping");
    }
    None
}

/// Whether a value says nothing: empty, false, zero or a default word (rule 2).
pub(crate) fn is_blank(value: &Node<'_>) -> bool {
    match value {
        Node::Null => true,
        Node::Bool(b) => !b,
        Node::Number(n) => n.bytes().all(|b| matches!(b, b'0' | b'.' | b'-')),
        Node::Str(s) => {
            let s = s.trim();
            s.is_empty() || matches!(s, "none" | "None" | "default" | "0")
        }
        Node::List(items) => items.is_empty(),
        Node::Record(r) => r.fields.is_empty(),
        Node::Table(t) => t.total_rows() == 0,
        Node::DepthCut(_) | Node::Envelope(_) => false,
    }
}

fn blank_clue(value: &Node<'_>) -> &'static str {
    match value {
        Node::Bool(_) => "false",
        Node::Number(_) => "zero",
        _ => "empty",
    }
}

/// Whether a string is one URL a person or a tool opens: `http(s)://`, a web URL behind a
/// tool's prefix (`git+https://`, as package manifests write a repository) or `git://`.
pub(crate) fn looks_like_url(s: &str) -> bool {
    url_rest(s).is_some()
}

/// The part after the scheme of a string that [`looks_like_url`], or `None`.
fn url_rest(s: &str) -> Option<&str> {
    let (scheme, rest) = split_scheme(s)?;
    let web = matches!(scheme, "http" | "https" | "git")
        || scheme
            .rsplit_once('+')
            .is_some_and(|(tool, web)| matches!(web, "http" | "https") && !tool.is_empty());
    (web && !rest.is_empty() && !crate::text::has_whitespace(s)).then_some(rest)
}

/// `s` split at its first `://`: the scheme and the rest.
fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(b':', &b[from..]) {
        let at = from + i;
        if b[at + 1..].starts_with(b"//") {
            return Some((&s[..at], &s[at + 3..]));
        }
        from = at + 1;
    }
    None
}

/// Whether `s` is a link a person opens: one URL that is neither an API endpoint nor an
/// image. A folding shape never folds such a field as machine-only, whatever its key.
pub(crate) fn is_page(s: &str) -> bool {
    url_rest(s).is_some_and(|rest| !is_endpoint_at(s, rest) && !is_image(rest))
}

/// Whether a URL is an image (an avatar, an icon): by its file extension, or a host or path
/// that names avatars. `rest`: the URL after its scheme.
fn is_image(rest: &str) -> bool {
    let path = memchr::memchr2(b'?', b'#', rest.as_bytes()).map_or(rest, |i| &rest[..i]);
    let host = memchr::memchr(b'/', rest.as_bytes()).map_or(rest, |i| &rest[..i]);
    if host.contains("avatar") || rest.contains(".gravatar.com/") || path.contains("/avatar") {
        return true;
    }
    let ext = memchr::memrchr(b'.', path.as_bytes()).map_or("", |i| &path[i + 1..]);
    ["png", "jpg", "jpeg", "gif", "svg", "webp", "ico"]
        .iter()
        .any(|e| ext.eq_ignore_ascii_case(e))
}

/// Whether a URL returns data to a program rather than a page to a person: an `api.` host,
/// an `/api/` path, a versioned path segment (`/v1/`, `/v2beta/`), or a template (`{`).
/// `rest`: the URL after its scheme.
fn is_endpoint_at(url: &str, rest: &str) -> bool {
    if memchr::memchr(b'{', url.as_bytes()).is_some() {
        return true;
    }
    let (host, path) =
        memchr::memchr(b'/', rest.as_bytes()).map_or((rest, ""), |i| (&rest[..i], &rest[i + 1..]));
    if host.starts_with("api.") || host.contains(".api.") || host.starts_with("registry.") {
        return true;
    }
    path.split('/').any(|seg| {
        seg == "api"
            || (seg.len() >= 2
                && seg.as_bytes()[0] == b'v'
                && seg.as_bytes()[1].is_ascii_digit()
                && seg[1..].bytes().all(|b| b.is_ascii_alphanumeric()))
    })
}

#[cfg(test)]
mod tests;
