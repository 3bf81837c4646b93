//! A registered renderer's text through the line cap and the budgets.

#![allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]

use crate::cut::caps::Notice;
use crate::doc::notice::Strategy;

use super::{Limit, MIN_VALUE_CHARS};

/// A registered renderer's text, fitted: at most `max_lines` lines (kept by `strategy`),
/// then the budgets, by fewer lines and, when not one line fits, by a shorter first line.
/// Every cut is announced first (the notice lines, a blank line, then the text); when not
/// even one line shortened to [`MIN_VALUE_CHARS`] fits, the one `[Omitted: ...]` line.
/// Returns the text, its notices and how many lines were shortened.
pub(crate) fn fit_text(
    text: &str,
    max_lines: usize,
    strategy: Strategy,
    limits: &[Limit<'_>],
) -> (String, Vec<Notice>, usize) {
    let total = crate::text::lines(text).count();
    let with = |keep: usize, chars: Option<usize>| {
        let mut notices = Vec::new();
        let mut body = match crate::cut::caps::cut_lines(text, keep, strategy) {
            Some((kept, n)) => {
                notices.push(n);
                kept.trim_end_matches('\n').to_owned()
            }
            None => text.to_owned(),
        };
        let mut shortened = 0;
        if let Some(max) = chars {
            let mut out = String::with_capacity(body.len());
            for (i, l) in crate::text::lines(&body).enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                match crate::text::shorten(l, max) {
                    Some(c) => {
                        shortened += 1;
                        out.push_str(&c);
                    }
                    None => out.push_str(l),
                }
            }
            if shortened > 0 {
                notices.push(Notice::Shortened {
                    values: shortened,
                    max_chars: max,
                });
                body = out;
            }
        }
        let mut out = String::new();
        for n in &notices {
            out.push_str(&n.to_string());
            out.push('\n');
        }
        if !notices.is_empty() {
            out.push('\n');
        }
        out.push_str(&body);
        (out, notices, shortened)
    };
    let fits = |s: &str| limits.iter().all(|l| (l.measure)(s) <= l.budget);
    let most = max_lines.min(total);
    let capped = with(most, None);
    if fits(&capped.0) || most == 0 {
        return capped;
    }
    // The largest prefix of lines that fits (sizes grow with the lines kept).
    let largest = |lo: usize, hi: usize, f: &dyn Fn(usize) -> bool| {
        let (mut lo, mut hi) = (lo, hi);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if f(mid) { lo = mid } else { hi = mid - 1 }
        }
        lo
    };
    if fits(&with(1, None).0) {
        let k = largest(1, most - 1, &|k| fits(&with(k, None).0));
        return with(k, None);
    }
    let longest = crate::text::lines(text)
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    if longest > MIN_VALUE_CHARS && fits(&with(1, Some(MIN_VALUE_CHARS)).0) {
        let c = largest(MIN_VALUE_CHARS, longest, &|c| fits(&with(1, Some(c)).0));
        return with(1, Some(c));
    }
    let least = with(1, Some(MIN_VALUE_CHARS)).0;
    let limit = limits
        .iter()
        .find(|l| (l.measure)(&least) > l.budget)
        .unwrap_or(&limits[0]);
    let notice = Notice::Omitted {
        total,
        what: "lines",
        needed: (limit.measure)(&least),
        budget: limit.budget,
        unit: limit.unit,
    };
    (notice.to_string(), vec![notice], 0)
}

/// Where a registered renderer's `text`, cut by [`fit_text`] with `notices`, stopped, as the
/// fetch tool's cursor over the stored text (see [`crate::cut::passage`]): the first line not
/// shown (`"40"`; the first lines kept, or the head of head and tail), or inside the first
/// line when not one line fit whole (`"0:1850"`, after the characters shown); `"0"` when the
/// last lines were kept.
pub(crate) fn text_cursor(text: &str, notices: &[Notice]) -> String {
    let mut line = 0;
    for n in notices {
        match *n {
            Notice::Lines {
                kept,
                strategy: Strategy::Head,
                ..
            } => line = kept,
            Notice::Lines {
                kept,
                strategy: Strategy::HeadTail,
                ..
            } => line = crate::doc::notice::head_tail(kept).0,
            Notice::Lines {
                strategy: Strategy::Tail,
                ..
            } => return "0".to_owned(),
            _ => {}
        }
    }
    let shortened = notices.iter().find_map(|n| match *n {
        Notice::Shortened { max_chars, .. } => Some(max_chars),
        _ => None,
    });
    let first = crate::text::lines(text).next().unwrap_or("");
    match shortened.and_then(|max| crate::text::shorten_kept(first, max)) {
        Some((_, kept)) => format!("0:{kept}"),
        None => line.to_string(),
    }
}
