//! A string result kept as text: the first text of a call and the pages of a stored text
//! (see [`crate::cut::passage`]).

use serde_json::Value;

use crate::cut::caps::{Cut, Notice};
use crate::cut::trailer::Trailer;
use crate::doc::Node;
use crate::rules::detail::LeftOut;

use super::output::Facts;
use super::{Call, Target, Written};
use crate::shape::ShapeStats;

impl Call<'_> {
    /// A string result as text (see [`crate::cut::passage`]), in a fence; cut, the most whole
    /// lines that fit the line cap and the budget (or the
    /// first characters of a line too long for it), announced first, and ending with the
    /// Next line whose cursor resumes exactly where the text stopped. `None` where the general
    /// path applies: another target or line strategy, a query, an empty text, a cap of no
    /// lines, or a budget too small for one character (the general path says what it omits).
    pub(super) fn text_result(
        &self,
        s: &str,
        json: &dyn Fn() -> Option<Value>,
        left_out: &LeftOut,
        shape_stats: &dyn Fn() -> Option<ShapeStats>,
    ) -> Option<Written> {
        let opts = &self.opts;
        if self.target != Target::Text
            || self.query.is_some()
            || opts.strategy != crate::doc::notice::Strategy::Head
            || opts.max_lines == 0
            || s.is_empty()
        {
            return None;
        }
        let text = crate::cut::passage::Passage::new(s);
        let limits = self.limits();
        let within = |t: &str| limits.iter().all(|l| (l.measure)(t) <= l.budget);
        let total = text.lines();
        if total <= opts.max_lines {
            let mut whole = String::new();
            crate::cut::passage::write_fenced(s, &mut whole);
            if within(&whole) {
                let cut = Cut::whole(Node::Str(s.into()));
                let facts = Facts {
                    shape: shape_stats(),
                    ..Facts::default()
                };
                let out = self.finish(whole, None, cut, facts);
                return Some(Written {
                    out,
                    unbudgeted: true,
                    plain_table: false,
                    floor: false,
                });
            }
        }
        let mut trailer = self.trailer(None, left_out, true);
        // The text up to `end`, with the trailer as it stands.
        let render = |trailer: &Trailer<'_>, end: usize| {
            let mut t = text.span(0, end).first_notice();
            t.push_str("\n\n");
            crate::cut::passage::write_fenced(&s[..end], &mut t);
            trailer.append_text_cut(&mut t, &text.cursor(end));
            t
        };
        let stop = |trailer: &Trailer<'_>| {
            text.stop(0, opts.max_lines, opts.max_chars, &|end| {
                within(&render(trailer, end))
            })
        };
        let mut end = stop(&trailer)?;
        let span = text.span(0, end);
        let notices = vec![Notice::Lines {
            kept: span.whole_lines(),
            total,
            strategy: crate::doc::notice::Strategy::Head,
        }];
        if trailer.wants_store(&Node::Null, &notices) {
            self.put(&mut trailer, json().as_ref());
        }
        // The stored reference (or the line saying the store failed) may count differently
        // from the stand-in the search measured.
        if !within(&render(&trailer, end)) {
            end = stop(&trailer)?;
        }
        let span = text.span(0, end);
        let notices = vec![Notice::Lines {
            kept: span.whole_lines(),
            total,
            strategy: crate::doc::notice::Strategy::Head,
        }];
        let cut = Cut {
            node: Node::Str(s[..end].into()),
            notices,
            values_shortened: usize::from(span.to.is_some()),
            cap_shortest: None,
        };
        let facts = Facts {
            outcome: trailer.outcome(),
            shape: shape_stats(),
            ..Facts::default()
        };
        let out = self.finish(render(&trailer, end), None, cut, facts);
        Some(Written {
            out,
            unbudgeted: false,
            plain_table: false,
            floor: false,
        })
    }

    /// A page of the text `s` from byte `start` (a fetch page, see [`crate::cut::passage`]): the
    /// lines it holds, the most that fit the line cap and the budget in a fence, and the
    /// call `next` words for the cursor where it stopped (none after the last). When not one
    /// character fits with them, the first character alone, over the budget and said so.
    pub(crate) fn text_page(&self, s: &str, start: usize, next: &dyn Fn(&str) -> String) -> String {
        let text = crate::cut::passage::Passage::new(s);
        let limits = self.limits();
        let render = |end: usize| {
            let mut t = text.span(start, end).page_notice();
            t.push_str("\n\n");
            crate::cut::passage::write_fenced(&s[start..end], &mut t);
            if end < s.len() {
                t.push_str("\n\n");
                t.push_str(&next(&text.cursor(end)));
            }
            t
        };
        let fits = |end: usize| limits.iter().all(|l| (l.measure)(&render(end)) <= l.budget);
        if let Some(end) = text.stop(start, self.opts.max_lines, self.opts.max_chars, &fits) {
            return render(end);
        }
        let end = text.one_grapheme(start);
        let page = render(end);
        crate::sink::notice::shown_over("the budget", "this character alone needs", "", &page)
    }
}
