//! [`Page`]: one page of a cursor-paginated list, and its footer ([`PageFooter`]).

use std::borrow::Cow;

use crate::doc::agent::next::NextAction;
use crate::text::escape_inline;

/// One page of a cursor-paginated list: the items, whether more exist, the cursor that
/// continues, the total when known, and the call that takes the cursor.
///
/// The footer always says `has_more: true` or `has_more: false`, so "done" is never confused
/// with "unknown", and when a cap or budget cuts the page it says how to reach the dropped
/// items.
///
/// ```
/// use tool_output_format::{Page, to_markdown};
///
/// let page = Page::new(vec!["Ada", "Bob"])
///     .has_more(true)
///     .next_cursor("eyJvZmZzZXQiOjUwfQ")
///     .total(1234)
///     .next_call("list_contacts", "cursor");
/// assert!(to_markdown(&page).ends_with(concat!(
///     "\n\nhas_more: true\n",
///     "next_cursor: eyJvZmZzZXQiOjUwfQ\n",
///     "total: 1234\n",
///     r#"Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")"#,
/// )));
/// ```
///
/// Its builders own the plain names (`has_more(...)` sets a value), so the getters that read a value
/// back are `get_`-prefixed (`get_has_more()`), as `std::process::Command::get_program` is.
#[derive(Clone, Debug, PartialEq)]
#[must_use]
pub struct Page<T> {
    items: Vec<T>,
    has_more: bool,
    next_cursor: Option<String>,
    total: Option<u64>,
    item_cursors: Option<Vec<String>>,
    next_call: Option<(NextAction, String)>,
}

impl<T> Page<T> {
    /// A page holding `items`, with `has_more: false` and no cursor until set.
    ///
    /// ```
    /// use tool_output_format::{Page, to_markdown};
    /// let page = Page::new(Vec::<u32>::new());
    /// assert_eq!(to_markdown(&page), "*(empty)*\n\nhas_more: false");
    /// ```
    pub fn new(items: Vec<T>) -> Self {
        Page {
            items,
            has_more: false,
            next_cursor: None,
            total: None,
            item_cursors: None,
            next_call: None,
        }
    }

    /// Whether more items exist after this page.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert!(Page::new(vec![1]).has_more(true).get_has_more());
    /// ```
    pub fn has_more(mut self, has_more: bool) -> Self {
        self.has_more = has_more;
        self
    }

    /// The cursor that fetches the next page.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1]).next_cursor("c2").get_next_cursor(), Some("c2"));
    /// ```
    pub fn next_cursor(mut self, cursor: impl Into<String>) -> Self {
        self.next_cursor = Some(cursor.into());
        self
    }

    /// The number of items in the whole list, when known.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1]).total(1234).get_total(), Some(1234));
    /// ```
    pub fn total(mut self, total: u64) -> Self {
        self.total = Some(total);
        self
    }

    /// One cursor per item: `cursors[i]` resumes the list AT item `i`. With them, a page cut
    /// by caps or a budget continues exactly at its first dropped item.
    ///
    /// ```
    /// use serde_json::json;
    /// use tool_output_format::{Formatter, Page};
    /// let page = Page::new(vec![json!({"id": 1}), json!({"id": 2})]).item_cursors(["c0", "c1"]);
    /// // Cut to one row, the page resumes at the second.
    /// let md = Formatter::new().max_rows(1).format("list", &page);
    /// assert!(md.contains("has_more: true\nnext_cursor: c1"), "{md}");
    /// ```
    pub fn item_cursors<I>(mut self, cursors: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.item_cursors = Some(cursors.into_iter().map(Into::into).collect());
        self
    }

    /// The follow-up call: `tool` takes the cursor as its argument `cursor_arg`.
    ///
    /// ```
    /// use tool_output_format::{Page, to_markdown};
    /// let page = Page::new(vec![1]).has_more(true).next_cursor("c2").next_call("list", "after");
    /// assert!(to_markdown(&page).ends_with(r#"Next: call list(after="c2")"#));
    /// ```
    pub fn next_call(self, tool: impl Into<String>, cursor_arg: impl Into<String>) -> Self {
        self.next_call_with(NextAction::call(tool), cursor_arg)
    }

    /// The follow-up call with other arguments kept (the query of a search, a filter): the
    /// cursor is set on `action` as the argument `cursor_arg`.
    ///
    /// ```
    /// use tool_output_format::{NextAction, Page};
    /// let page = Page::new(vec![1])
    ///     .has_more(true)
    ///     .next_cursor("c2")
    ///     .next_call_with(NextAction::call("search").arg("q", "rust"), "cursor");
    /// assert!(tool_output_format::to_markdown(&page).ends_with(r#"Next: call search(q="rust", cursor="c2")"#));
    /// ```
    pub fn next_call_with(mut self, action: NextAction, cursor_arg: impl Into<String>) -> Self {
        self.next_call = Some((action, cursor_arg.into()));
        self
    }

    /// The items.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1, 2]).items(), &[1, 2]);
    /// ```
    #[must_use]
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// The items, owned.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn into_items(self) -> Vec<T> {
        self.items
    }

    /// The number of items on this page.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1, 2]).len(), 2);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when the page holds no items (an empty page is not a failure).
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert!(Page::new(Vec::<u8>::new()).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// What [`Page::has_more`] set.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert!(!Page::new(vec![1]).get_has_more());
    /// ```
    #[must_use]
    pub fn get_has_more(&self) -> bool {
        self.has_more
    }

    /// What [`Page::next_cursor`] set.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1]).get_next_cursor(), None);
    /// ```
    #[must_use]
    pub fn get_next_cursor(&self) -> Option<&str> {
        self.next_cursor.as_deref()
    }

    /// What [`Page::total`] set.
    ///
    /// ```
    /// use tool_output_format::Page;
    /// assert_eq!(Page::new(vec![1]).get_total(), None);
    /// ```
    #[must_use]
    pub fn get_total(&self) -> Option<u64> {
        self.total
    }

    /// What [`Page::item_cursors`] set.
    #[must_use]
    pub(crate) fn get_item_cursors(&self) -> Option<&[String]> {
        self.item_cursors.as_deref()
    }

    /// The follow-up call and the name of its cursor argument, if set.
    #[must_use]
    pub(crate) fn get_next_call(&self) -> Option<(&NextAction, &str)> {
        self.next_call.as_ref().map(|(a, arg)| (a, arg.as_str()))
    }

    /// What the footer must say when only the first `kept` items are shown (`kept >= len()`:
    /// the page is whole).
    ///
    /// A cut page never loses items: `has_more` becomes true, and
    /// - with an item cursor for the first dropped item, that cursor replaces the page
    ///   cursor (in `next_cursor:` and in the Next line), and the notice says so:
    ///   `[Items 26-30 of this page were cut: next_cursor resumes at item 26]`;
    /// - without one, the page cursor stays and the notice names the dropped items, says the
    ///   cursor skips them, and how to read them:
    ///   `[Items 26-30 of this page were cut and next_cursor skips them: to read them, repeat
    ///   this call with a page size of at most 25]` (`and no cursor reaches them` when the
    ///   page has no cursor; `with a smaller page size` when nothing was kept).
    ///
    /// Item numbers are 1-based positions on this page.
    ///
    #[must_use]
    #[cfg(any(test, feature = "schemars"))]
    pub(crate) fn footer(&self, kept: usize) -> PageFooter {
        self.meta().footer(kept)
    }

    /// The page without its items: what the rendered footer is computed from (borrowed).
    pub(crate) fn meta(&self) -> PageMeta<'_> {
        PageMeta {
            len: self.items.len(),
            has_more: self.has_more,
            next_cursor: self.next_cursor.as_deref().map(Cow::Borrowed),
            total: self.total,
            item_cursors: self.item_cursors.as_deref().map(Cow::Borrowed),
            next_call: self
                .next_call
                .as_ref()
                .map(|(a, arg)| (Cow::Borrowed(a), Cow::Borrowed(arg.as_str()))),
            stored: false,
        }
    }
}

/// A page's parts other than its items, borrowed from the [`Page`] (owned once the document
/// outlives it): the document keeps it so the footer is computed after the cut, from the
/// number of items kept.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PageMeta<'a> {
    pub len: usize,
    pub has_more: bool,
    pub next_cursor: Option<Cow<'a, str>>,
    pub total: Option<u64>,
    pub item_cursors: Option<Cow<'a, [String]>>,
    pub next_call: Option<(Cow<'a, NextAction>, Cow<'a, str>)>,
    /// The full result is stored and the output ends with the call that fetches it: a cut
    /// page points there for the items its cursor skips, and has no Next line of its own
    /// (one voice, not two competing calls).
    pub stored: bool,
}

impl PageMeta<'_> {
    /// See [`Page::footer`].
    pub fn footer(&self, kept: usize) -> PageFooter {
        // A stored page's rest is read with the fetch tool's Next line, which ends the text
        // (the one Next line); the fetch tool's last page ends with this page's next call.
        let next_call = self
            .next_call
            .as_ref()
            .filter(|_| !self.stored)
            .map(|(a, arg)| (&**a, &**arg));
        let page_cursor = self.next_cursor.as_deref().map(String::from);
        if kept >= self.len {
            return PageFooter::new(self.has_more, page_cursor, self.total, next_call, None);
        }
        let resume = self.item_cursors.as_ref().and_then(|c| c.get(kept));
        let rest = match (resume, &page_cursor) {
            (None, _) if self.stored => PageRest::Stored,
            (Some(_), _) => PageRest::Resumes,
            (None, Some(_)) => PageRest::Skipped,
            (None, None) => PageRest::Unreached,
        };
        let notice = PageCut {
            kept,
            len: self.len,
            rest,
        };
        let cursor = resume.cloned().or(page_cursor);
        PageFooter::new(true, cursor, self.total, next_call, Some(notice))
    }

    /// A copy that owns its text.
    pub fn into_owned(self) -> PageMeta<'static> {
        PageMeta {
            len: self.len,
            has_more: self.has_more,
            next_cursor: self.next_cursor.map(|c| Cow::Owned(c.into_owned())),
            total: self.total,
            item_cursors: self.item_cursors.map(|c| Cow::Owned(c.into_owned())),
            next_call: self
                .next_call
                .map(|(a, arg)| (Cow::Owned(a.into_owned()), Cow::Owned(arg.into_owned()))),
            stored: self.stored,
        }
    }
}

/// A page cut to its first items, as the footer's notice says it (worded by the sink,
/// `sink::notice::page_cut`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PageCut {
    /// Items shown.
    pub kept: usize,
    /// Items on the page (more than `kept`).
    pub len: usize,
    /// How the items not shown are read.
    pub rest: PageRest,
}

/// How the items a cut left out of a page are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PageRest {
    /// From the stored full result, with the Next line that ends the output.
    Stored,
    /// With the item cursor shown (`next_cursor` resumes at the first item not shown).
    Resumes,
    /// Not with the page's own cursor, which skips them: a smaller page size.
    Skipped,
    /// No cursor reaches them: a smaller page size.
    Unreached,
}

/// The footer lines of a page (pure function of its parts):
///
/// 1. `has_more: true` or `has_more: false` (pinned text, always present);
/// 2. `next_cursor: CURSOR` when there is a cursor (escaped like inline text, see
///    `text::escape_inline`; a usual cursor is verbatim);
/// 3. `total: N` when known;
/// 4. the Next line, `Next: call TOOL(..., ARG="CURSOR")`, when `has_more` is true and there
///    are both a cursor and a follow-up call.
#[cfg(test)]
pub(crate) fn footer_lines(
    has_more: bool,
    cursor: Option<&str>,
    total: Option<u64>,
    next_call: Option<(&NextAction, &str)>,
) -> Vec<String> {
    let footer = PageFooter::new(has_more, cursor.map(String::from), total, next_call, None);
    // Not cut: no notice to word.
    footer.lines(|_| String::new())
}

/// What a page's footer says (see [`Page::footer`]): built for one number of kept items.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PageFooter {
    has_more: bool,
    cursor: Option<String>,
    total: Option<u64>,
    next: Option<NextAction>,
    notice: Option<PageCut>,
}

impl PageFooter {
    fn new(
        has_more: bool,
        cursor: Option<String>,
        total: Option<u64>,
        next_call: Option<(&NextAction, &str)>,
        notice: Option<PageCut>,
    ) -> Self {
        let next = match (has_more, &cursor, next_call) {
            (true, Some(cursor), Some((action, arg))) => {
                Some(action.clone().arg(arg, cursor.as_str()))
            }
            _ => None,
        };
        PageFooter {
            has_more,
            cursor,
            total,
            next,
            notice,
        }
    }

    /// The `has_more` the footer states.
    #[must_use]
    pub(crate) fn has_more(&self) -> bool {
        self.has_more
    }

    /// The cursor the footer shows (an item cursor after a cut, else the page's).
    #[must_use]
    pub(crate) fn cursor(&self) -> Option<&str> {
        self.cursor.as_deref()
    }

    /// The total, when known.
    #[must_use]
    pub(crate) fn total(&self) -> Option<u64> {
        self.total
    }

    /// The follow-up call with the cursor set, when there is one to suggest.
    #[must_use]
    pub(crate) fn next(&self) -> Option<&NextAction> {
        self.next.as_ref()
    }

    /// The cut, when the page was cut (its notice is worded by the sink).
    #[must_use]
    pub(crate) fn notice(&self) -> Option<PageCut> {
        self.notice
    }

    /// The lines, in order: `has_more` (always), `next_cursor` (escaped like inline text; a
    /// usual cursor is verbatim), `total`, the cut notice, the Next line (when `has_more` is
    /// true and there are both a cursor and a follow-up call). `cut_line` words the cut
    /// notice (the sink's `sink::notice::page_cut`: the model words no notice).
    #[must_use]
    pub(crate) fn lines(&self, cut_line: fn(PageCut) -> String) -> Vec<String> {
        let mut lines = Vec::with_capacity(5);
        lines.push(String::from(if self.has_more {
            "has_more: true"
        } else {
            "has_more: false"
        }));
        if let Some(cursor) = &self.cursor {
            let mut line = String::from("next_cursor: ");
            if cursor.is_empty() {
                // An empty cursor is shown as one, not as a line ending in a space.
                line.push_str("\"\"");
            } else {
                escape_inline(cursor, false, &mut line);
            }
            lines.push(line);
        }
        if let Some(total) = self.total {
            lines.push(format!("total: {total}"));
        }
        if let Some(cut) = self.notice {
            lines.push(cut_line(cut));
        }
        if let Some(next) = &self.next {
            lines.push(next.line());
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::notice::page_cut;

    #[test]
    fn a_cut_page_notice_says_how_to_read_the_rest() {
        assert_eq!(
            page_cut(PageCut {
                kept: 25,
                len: 30,
                rest: PageRest::Skipped
            }),
            "[Items 26-30 of this page were cut and next_cursor skips them: \
             to read them, repeat this call with a page size of at most 25]"
        );
    }

    #[test]
    fn the_footer_lines_in_order() {
        let call = NextAction::call("list_contacts");
        assert_eq!(
            footer_lines(
                true,
                Some("eyJvZmZzZXQiOjUwfQ"),
                None,
                Some((&call, "cursor"))
            ),
            [
                "has_more: true",
                "next_cursor: eyJvZmZzZXQiOjUwfQ",
                r#"Next: call list_contacts(cursor="eyJvZmZzZXQiOjUwfQ")"#
            ]
        );
        assert_eq!(
            footer_lines(false, None, Some(2), None),
            ["has_more: false", "total: 2"]
        );
    }

    fn contacts(n: usize) -> Page<usize> {
        Page::new((1..=n).collect())
    }

    #[test]
    fn whole_pages() {
        let cases: Vec<(Page<usize>, Vec<&str>)> = vec![
            // Empty: not failed, and done.
            (contacts(0), vec!["has_more: false"]),
            // Last page: has_more stated even when false; no Next line.
            (
                contacts(3).total(53).next_call("list_contacts", "cursor"),
                vec!["has_more: false", "total: 53"],
            ),
            // Middle page.
            (
                contacts(50)
                    .has_more(true)
                    .next_cursor("eyJvZmZzZXQiOjUwfQ")
                    .total(1234)
                    .next_call("list_contacts", "cursor"),
                vec![
                    "has_more: true",
                    "next_cursor: eyJvZmZzZXQiOjUwfQ",
                    "total: 1234",
                    "Next: call list_contacts(cursor=\"eyJvZmZzZXQiOjUwfQ\")",
                ],
            ),
            // More, but no cursor or no call: no Next line.
            (contacts(1).has_more(true), vec!["has_more: true"]),
            (
                contacts(1).has_more(true).next_cursor("c"),
                vec!["has_more: true", "next_cursor: c"],
            ),
            (
                contacts(1).has_more(true).next_call("f", "cursor"),
                vec!["has_more: true"],
            ),
            // A cursor on a last page is shown but not suggested.
            (
                contacts(1).next_cursor("c").next_call("f", "cursor"),
                vec!["has_more: false", "next_cursor: c"],
            ),
        ];
        for (page, want) in cases {
            assert_eq!(page.footer(page.len()).lines(page_cut), want);
            assert_eq!(
                page.footer(usize::MAX).lines(page_cut),
                want,
                "kept past the end is whole"
            );
            assert_eq!(page.footer(page.len()).notice(), None);
        }
    }

    #[test]
    fn cut_with_item_cursors_resumes_at_first_dropped() {
        let cursors: Vec<String> = (0..30).map(|i| format!("c{i}")).collect();
        let page = contacts(30)
            .has_more(true)
            .next_cursor("page2")
            .total(100)
            .item_cursors(cursors.clone())
            .next_call("list_contacts", "cursor");
        assert_eq!(
            page.footer(25).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: c25",
                "total: 100",
                "[Items 26-30 of this page were cut: next_cursor resumes at item 26]",
                "Next: call list_contacts(cursor=\"c25\")",
            ]
        );
        // A last page that was cut: has_more becomes true.
        let last = contacts(30)
            .item_cursors(cursors)
            .next_call("list_contacts", "cursor");
        assert_eq!(
            last.footer(0).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: c0",
                "[Items 1-30 of this page were cut: next_cursor resumes at item 1]",
                "Next: call list_contacts(cursor=\"c0\")",
            ]
        );
    }

    #[test]
    fn cut_without_item_cursors_names_the_dropped_items() {
        let page = contacts(30)
            .has_more(true)
            .next_cursor("page2")
            .next_call("list_contacts", "cursor");
        assert_eq!(
            page.footer(25).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: page2",
                "[Items 26-30 of this page were cut and next_cursor skips them: to read them, \
                 repeat this call with a page size of at most 25]",
                "Next: call list_contacts(cursor=\"page2\")",
            ]
        );
        // Last page, no cursor at all.
        assert_eq!(
            contacts(30).total(30).footer(29).lines(page_cut),
            [
                "has_more: true",
                "total: 30",
                "[Item 30 of this page was cut and no cursor reaches it: to read it, \
                 repeat this call with a page size of at most 29]",
            ]
        );
        // Nothing kept.
        assert_eq!(
            contacts(2).footer(0).lines(page_cut),
            [
                "has_more: true",
                "[Items 1-2 of this page were cut and no cursor reaches them: to read them, \
                 repeat this call with a smaller page size]",
            ]
        );
    }

    #[test]
    fn short_item_cursor_list_falls_back_to_the_notice() {
        let page = contacts(5)
            .next_cursor("p")
            .has_more(true)
            .item_cursors(["a", "b"]);
        assert_eq!(
            page.footer(3).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: p",
                "[Items 4-5 of this page were cut and next_cursor skips them: to read them, \
                 repeat this call with a page size of at most 3]",
            ]
        );
        assert_eq!(page.footer(1).cursor(), Some("b"));
    }

    #[test]
    fn next_call_with_keeps_other_arguments_and_replaces_a_stale_cursor() {
        let action = NextAction::call("search")
            .arg("q", "rust")
            .arg("cursor", "stale");
        let page = contacts(1)
            .has_more(true)
            .next_cursor("c2")
            .next_call_with(action, "cursor");
        assert_eq!(
            page.footer(1).next().map(NextAction::line).as_deref(),
            Some("Next: call search(q=\"rust\", cursor=\"c2\")")
        );
    }

    #[test]
    fn hostile_cursor_cannot_break_the_footer() {
        let page = contacts(1)
            .has_more(true)
            .next_cursor("a\n# b|c\u{202e}<x>")
            .next_call("f", "cursor");
        assert_eq!(
            page.footer(1).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: a<br># b\\|c\\u{202E}\\<x>",
                "Next: call f(cursor=\"a\\n# b|c\\u202e\\u003cx>\")",
            ]
        );
    }

    #[test]
    fn empty_cursor_is_shown_as_empty() {
        let page = contacts(1)
            .has_more(true)
            .next_cursor("")
            .next_call("f", "cursor");
        assert_eq!(
            page.footer(1).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: \"\"",
                "Next: call f(cursor=\"\")"
            ]
        );
    }

    #[test]
    fn free_function_matches_footer() {
        let call = NextAction::call("list_contacts");
        assert_eq!(
            footer_lines(true, Some("c"), Some(7), Some((&call, "cursor"))),
            [
                "has_more: true",
                "next_cursor: c",
                "total: 7",
                "Next: call list_contacts(cursor=\"c\")"
            ]
        );
        assert_eq!(
            footer_lines(false, None, None, Some((&call, "cursor"))),
            ["has_more: false"]
        );
    }
}

/// The examples of what is no longer public API, kept as tests.
#[cfg(test)]
mod examples {
    use crate::sink::notice::page_cut;

    #[test]
    fn into_items() {
        use crate::Page;
        assert_eq!(Page::new(vec![1, 2]).into_items(), vec![1, 2]);
    }

    #[test]
    fn get_item_cursors() {
        use crate::Page;
        assert_eq!(Page::new(vec![1]).get_item_cursors(), None);
    }

    #[test]
    fn get_next_call() {
        use crate::Page;
        let page = Page::new(vec![1]).next_call("list", "cursor");
        let (action, arg) = page.get_next_call().unwrap();
        assert_eq!((action.tool(), arg), ("list", "cursor"));
    }

    #[test]
    fn cursor() {
        use crate::Page;
        assert_eq!(
            Page::new(vec![1, 2])
                .item_cursors(["a", "b"])
                .footer(1)
                .cursor(),
            Some("b")
        );
    }

    #[test]
    fn next() {
        use crate::Page;
        assert!(
            Page::new(vec![1])
                .next_call("list", "cursor")
                .footer(1)
                .next()
                .is_none()
        );
    }

    #[test]
    fn notice() {
        use crate::Page;
        assert_eq!(
            Page::new(vec![1, 2])
                .footer(1)
                .notice()
                .map(page_cut)
                .as_deref(),
            Some(
                "[Item 2 of this page was cut and no cursor reaches it: to read it, repeat this call with a page size of at most 1]"
            )
        );
    }

    #[test]
    fn lines() {
        use crate::Page;
        assert_eq!(
            Page::new(vec![1]).has_more(true).footer(1).lines(page_cut),
            ["has_more: true"]
        );
    }

    #[test]
    fn has_more() {
        use crate::Page;
        assert!(Page::new(vec![1, 2]).footer(1).has_more());
    }

    #[test]
    fn total() {
        use crate::Page;
        assert_eq!(Page::new(vec![1]).total(9).footer(1).total(), Some(9));
    }

    #[test]
    fn footer() {
        use crate::Page;

        let page = Page::new(vec!["a", "b", "c"])
            .item_cursors(["c0", "c1", "c2"])
            .next_call("list_contacts", "cursor");
        assert_eq!(
            page.footer(2).lines(page_cut),
            [
                "has_more: true",
                "next_cursor: c2",
                "[Item 3 of this page was cut: next_cursor resumes at item 3]",
                r#"Next: call list_contacts(cursor="c2")"#,
            ]
        );
    }
}
