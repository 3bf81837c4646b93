//! Salience: the ranks on names and values, and the fast paths against their definitions.

use super::*;
use proptest::prelude::*;

/// [`Words::of`] by its definition: every name split into words in a new `String`.
fn words_by_chars(name: &str) -> String {
    let mut joined = String::new();
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
    if name.starts_with('_') {
        joined.insert(0, '_');
    }
    joined
}

/// [`looks_like_url`] by its definition: a substring search for `://` and a
/// char-by-char whitespace scan.
fn looks_like_url_by_chars(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once("://") else {
        return false;
    };
    let web = matches!(scheme, "http" | "https" | "git")
        || scheme
            .rsplit_once('+')
            .is_some_and(|(tool, web)| matches!(web, "http" | "https") && !tool.is_empty());
    web && !rest.is_empty() && !s.contains(char::is_whitespace)
}

/// [`is_page`] by its definition: the scheme split off and the URL's parts found by
/// substring and char searches, once per check.
fn is_page_by_parts(s: &str) -> bool {
    let endpoint = |url: &str| {
        if url.contains('{') {
            return true;
        }
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
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
    };
    let image = |url: &str| {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let path = rest.split(['?', '#']).next().unwrap_or(rest);
        let host = rest.split('/').next().unwrap_or(rest);
        if host.contains("avatar") || rest.contains(".gravatar.com/") || path.contains("/avatar") {
            return true;
        }
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        ["png", "jpg", "jpeg", "gif", "svg", "webp", "ico"]
            .iter()
            .any(|e| ext.eq_ignore_ascii_case(e))
    };
    looks_like_url_by_chars(s) && !endpoint(s) && !image(s)
}

proptest! {
    #[test]
    fn a_page_is_a_page_by_definition(
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "https://", "http", "://", "api.", ".api.", "registry.", "/", "api", "v1",
                "v", "2beta", "x", ".", "png", ".PNG", "?", "#", "avatar", ".gravatar.com/",
                "{", "github.com", " ",
            ]),
            0..10,
        ),
        name in prop::sample::select(vec!["a.b.c", "abc", ".x", "x.", "", "owner.login"]),
    ) {
        let s = parts.concat();
        prop_assert_eq!(is_page(&s), is_page_by_parts(&s), "{:?}", s);
        prop_assert_eq!(leaf(name), name.rsplit('.').next().unwrap_or(name));
    }

    #[test]
    fn words_of_a_name_are_its_words_by_definition(
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "a", "id", "Name", "URL", "_", "__", "-", " ", ".", "7", "é", "É", "ß", "x_",
            ]),
            0..8,
        ),
    ) {
        let name = parts.concat();
        prop_assert_eq!(&*Words::of(&name).joined, words_by_chars(&name));
    }

    #[test]
    fn a_remembered_name_ranks_as_its_words(
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "id", "name", "_", "node", "url", "html", "created", "at", "By", "x", ".",
                "self", "status", "count", "total",
            ]),
            0..4,
        ),
    ) {
        let name = parts.concat();
        let want = words_rank(&Words::of(leaf(&name)));
        // Once computed, once remembered.
        prop_assert_eq!(name_rank(&name), want);
        prop_assert_eq!(name_rank(&name), want);
    }

    #[test]
    fn looks_like_url_is_its_definition(
        parts in prop::collection::vec(
            prop::sample::select(vec![
                "http", "https", "git", "git+", "+", "x", "://", ":", "/", "//", " ", "\t",
                "\u{b}", "\u{85}", "\u{a0}", "é", "api.", "{", "?", "#", ".png", "avatar",
            ]),
            0..10,
        ),
    ) {
        let s = parts.concat();
        prop_assert_eq!(looks_like_url(&s), looks_like_url_by_chars(&s), "{:?}", s);
        let rest = s.split_once("://").map_or(&*s, |(_, r)| r);
        prop_assert_eq!(url_rest(&s).is_some(), looks_like_url_by_chars(&s));
        if let Some(r) = url_rest(&s) {
            prop_assert_eq!(r, rest);
        }
        prop_assert_eq!(split_scheme(&s), s.split_once("://"));
    }
}

#[test]
fn the_state_itself_comes_before_a_count_and_short_names_for_time_and_who_rank() {
    let status = rank("status", &s("resolved"), Mark::None);
    let count = rank("count", &Node::Number("3".into()), Mark::None);
    assert_eq!((status.tier, count.tier), (Tier::State, Tier::State));
    assert!(status.key() < count.key());
    assert_eq!(
        rank("ts", &s("1712763602.000700"), Mark::None).tier,
        Tier::Time
    );
    assert_eq!(
        rank("thread_ts", &s("1712763602.000700"), Mark::None).tier,
        Tier::Time
    );
    assert_eq!(
        rank("lastSeen", &s("2024-04-10"), Mark::None).tier,
        Tier::Time
    );
    assert_eq!(rank("assignedTo", &s("Maya"), Mark::None).tier, Tier::Who);
    assert_eq!(
        rank("hasSeen", &Node::Bool(true), Mark::None).tier,
        Tier::Rest
    );
}

#[test]
fn an_id_a_system_assigns_comes_after_the_names_people_use() {
    let id = rank("id", &Node::Number("1000".into()), Mark::None);
    let uid = rank("order_id", &s("a1f2-c3d4"), Mark::None);
    let number = rank("number", &Node::Number("2".into()), Mark::None);
    let title = rank("title", &s("The doors don't open"), Mark::None);
    for r in [id, uid, number, title] {
        assert_eq!(r.tier, Tier::Identity, "{r:?}");
    }
    assert!(title.key() < id.key() && number.key() < id.key());
    assert!(number.key() < uid.key());
    // Still an identity: before every state, text or page.
    assert!(id.key() < rank("status", &s("open"), Mark::None).key());
}

#[test]
fn a_web_url_behind_a_tools_prefix_is_a_page_and_other_schemes_are_not_urls() {
    assert!(is_page(
        "git+https://github.com/jonschlinkert/is-number.git"
    ));
    assert!(is_page("git://github.com/a/b.git"));
    assert!(looks_like_url("http://example.com/x"));
    assert!(!looks_like_url("+https://example.com"));
    assert!(!looks_like_url("mailto:someone@example.com"));
    assert!(!looks_like_url("postgres://user@db/x"));
    assert!(!looks_like_url("https://"));
    assert!(!looks_like_url("https://a b"));
}

fn s(v: &str) -> Node<'_> {
    Node::Str(v.into())
}

fn t(name: &str, value: &Node<'_>) -> Tier {
    rank(name, value, Mark::None).tier
}

#[test]
fn names_rank_in_any_case_by_their_leaf() {
    let v = s("x");
    for (name, tier) in [
        ("full_name", Tier::Identity),
        ("fullName", Tier::Identity),
        ("full-name", Tier::Identity),
        ("owner.login", Tier::Identity),
        ("status", Tier::State),
        ("metadata.phase", Tier::State),
        ("description", Tier::Text),
        ("created_at", Tier::Time),
        ("updatedAt", Tier::Time),
        ("assignee", Tier::Who),
        ("created_by", Tier::Who),
        ("customer_id", Tier::Identity),
        ("stargazers_count", Tier::Rest),
        ("total_count", Tier::State),
        ("node_id", Tier::Internal),
        ("maxResults", Tier::Internal),
        ("_links", Tier::Internal),
        ("has_wiki", Tier::Rest),
    ] {
        assert_eq!(t(name, &v), tier, "{name}");
    }
}

#[test]
fn values_that_say_nothing_rank_last_but_minor() {
    for v in [
        Node::Null,
        Node::Bool(false),
        Node::Number("0".into()),
        Node::Number("0.0".into()),
        s(""),
        Node::List(Vec::new()),
    ] {
        assert_eq!(t("name", &v), Tier::Blank, "{v:?}");
    }
    assert_eq!(t("has_wiki", &Node::Bool(true)), Tier::Rest);
    assert_eq!(t("size", &Node::Number("12".into())), Tier::Rest);
}

#[test]
fn a_page_for_people_is_not_an_endpoint() {
    for (url, endpoint) in [
        ("https://github.com/octocat/Hello-World", false),
        (
            "https://github.com/octocat/Hello-World/releases/tag/v1.0.0",
            false,
        ),
        (
            "https://earthquake.usgs.gov/earthquakes/eventpage/ci3",
            false,
        ),
        ("https://api.github.com/repos/octocat/Hello-World", true),
        ("https://example.com/api/things/1", true),
        ("https://jira.example.com/rest/api/2/issue/10", true),
        ("https://example.com/v1/charges/ch_1", true),
        ("https://api.github.com/repos/o/r/issues{/number}", true),
    ] {
        let rest = url_rest(url).unwrap();
        assert_eq!(is_endpoint_at(url, rest), endpoint, "{url}");
        let tier = if endpoint { Tier::Endpoint } else { Tier::Page };
        assert_eq!(t("url", &s(url)), tier, "{url}");
        assert_eq!(t("html_url", &s(url)), tier, "{url}");
        assert_eq!(is_page(url), !endpoint, "{url}");
    }
}

#[test]
fn an_image_is_neither_a_page_nor_an_endpoint() {
    for url in [
        "https://avatars.githubusercontent.com/u/583231?v=4",
        "https://example.com/static/logo.PNG",
        "https://secure.gravatar.com/avatar/1",
        "https://secure.avatar-cdn.example.com/u/1",
        "https://avatar-management.example.net/u/1?size=48",
        "https://example.com/avatar/ada",
    ] {
        assert!(!is_page(url), "{url}");
        assert_eq!(t("avatar_url", &s(url)), Tier::Rest, "{url}");
    }
    assert!(is_page("https://example.com/people/ada"));
    assert!(!is_page("not a url"));
    assert!(!is_page("https://example.com/a b"));
}

#[test]
fn marks_win_over_name_and_value() {
    assert_eq!(rank("node_id", &s("x"), Mark::Key).tier, Tier::Key);
    assert_eq!(
        rank("etag", &Node::Null, Mark::Essential).tier,
        Tier::Essential
    );
    assert_eq!(rank("id", &s("7"), Mark::Minor).tier, Tier::Minor);
    assert_eq!(rank("id", &s("7"), Mark::Key).clue, "marked key");
}

#[test]
fn a_nested_field_ranks_no_better_than_its_parent_unless_a_payload() {
    let owner = rank("owner", &s("x"), Mark::None);
    let login = rank("login", &s("ada"), Mark::None);
    let nested = login.under(owner, false);
    assert_eq!((nested.tier, nested.sub), (Tier::Who, Tier::Identity));
    let kind = rank("type", &s("User"), Mark::None).under(owner, false);
    assert!(nested.key() < kind.key());
    let info = rank("info", &s("x"), Mark::None);
    assert!(is_payload("info") && is_payload("properties") && !is_payload("owner"));
    assert_eq!(login.under(info, true).tier, Tier::Identity);
}

#[test]
fn a_name_under_a_payload_state_is_that_state() {
    let status = rank("status", &s("x"), Mark::None);
    let name = rank("name", &s("In Progress"), Mark::None).under(status, true);
    assert_eq!(name.tier, Tier::State);
    // Under a payload parent of no kind, an identity stays an identity.
    let fields = rank("fields", &s("x"), Mark::None);
    let summary = rank("key", &s("PROJ-1"), Mark::None).under(fields, true);
    assert_eq!(summary.tier, Tier::Identity);
}

#[test]
fn a_field_of_a_kind_comes_before_one_nested_under_that_kind() {
    let summary = rank("summary", &s("It broke"), Mark::None);
    let description = rank("description", &s("x"), Mark::None);
    let kind = rank("type", &s("doc"), Mark::None).under(description, false);
    assert_eq!(kind.tier, summary.tier);
    assert!(summary.key() < kind.key());
}

#[test]
fn the_rank_says_why() {
    assert_eq!(rank("fork", &Node::Bool(false), Mark::None).clue, "false");
    assert_eq!(
        rank("html_url", &s("https://github.com/a"), Mark::None).clue,
        "a page for people"
    );
    assert_eq!(rank("title", &s("x"), Mark::None).clue, "an identity name");
}
