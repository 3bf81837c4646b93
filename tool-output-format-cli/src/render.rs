//! Every call into `tool_output_format` lives here, through its public API only (phase 2
//! adapts this one file to the new pipeline).
//!
//! # Records cut before the library sees them
//!
//! The library takes a whole value: it cannot be told "the table has more rows than you
//! were given". For a stream, the reader keeps the first `row cap + 1` records and only
//! counts the rest (see [`input`](crate::input)); this module then makes the output say the
//! truth:
//!
//! - Columns: the library takes the columns from every row, so the keys first seen in rows
//!   that were not kept are added, in first-seen order and with `null` values, to the last
//!   kept row. That row is past the cap, so it is never shown; the column order and the
//!   cells are exactly those of the whole array (a missing key and `null` are both an empty
//!   cell).
//! - The notice: the library cuts the `cap + 1` rows it was given to the cap and announces
//!   `[Truncated to K rows of cap+1 total]`; that notice line is replaced by the one with
//!   the true total, built with the library's own `Notice` wording.
//! - Budgets: the true total has more digits, so with `--max-chars` / `--max-tokens` the
//!   rendering is repeated with the budget lowered by the overflow (at most 4 times) until
//!   the corrected text fits. A budget figure the library prints (in an `[Omitted: ...]`
//!   line) is the user's budget.
//!
//! The API that would make this module shrink to one call: a way to render records from an
//! iterator (`Formatter::format_records(tool, impl IntoIterator<Item = Value>)`) that keeps
//! what the caps can show and counts the rest, or at least a `total_rows` override on a
//! table input.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;
use tool_output_format::Notice;
use tool_output_format::{
    DEFAULT_MAX_LINES, Formatter, Layout, O200k, Report, Strategy, TokenCounter,
};

use crate::input::Records;

/// Rendering options from the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Tool name (title of a record); empty for none.
    pub tool: String,
    /// Table layout.
    pub layout: Layout,
    /// Lines kept of long strings.
    pub strategy: Strategy,
    /// Row cap.
    pub max_rows: Option<usize>,
    /// Line cap (and row cap when `max_rows` is unset).
    pub max_lines: Option<usize>,
    /// Cell and value length cap.
    pub max_cell_chars: Option<usize>,
    /// Character budget.
    pub max_chars: Option<usize>,
    /// o200k token budget.
    pub max_tokens: Option<usize>,
}

impl Options {
    /// How many records the reader should keep: the row cap, plus one so the library sees
    /// (and announces) the cut.
    pub fn keep(&self) -> usize {
        self.row_cap().saturating_add(1)
    }

    fn row_cap(&self) -> usize {
        self.max_rows
            .or(self.max_lines)
            .unwrap_or(DEFAULT_MAX_LINES)
    }

    fn formatter(&self, max_chars: Option<usize>, max_tokens: Option<usize>) -> Formatter {
        let mut f = Formatter::new().layout(self.layout).strategy(self.strategy);
        if let Some(n) = self.max_lines {
            f = f.max_lines(n);
        }
        if let Some(n) = self.max_rows {
            f = f.max_rows(n);
        }
        if let Some(n) = self.max_cell_chars {
            f = f.max_cell_chars(n);
        }
        if let Some(n) = max_chars {
            f = f.max_chars(n);
        }
        if let Some(n) = max_tokens {
            f = f.max_tokens(n);
        }
        f
    }
}

/// A rendered result and, when asked, its size report.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    /// The markdown (no final newline).
    pub text: String,
    /// What was produced and cut, when a report was asked for.
    pub report: Option<SizeReport>,
}

/// The `--report` figures.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeReport {
    /// Characters in the text.
    pub chars: usize,
    /// UTF-8 bytes in the text.
    pub bytes: usize,
    /// o200k tokens in the text.
    pub tokens: Option<usize>,
    /// Table rows kept and in the data.
    pub rows: Option<(usize, usize)>,
    /// String lines kept and in the data.
    pub lines: Option<(usize, usize)>,
    /// Values cut short.
    pub values_shortened: usize,
    /// Notice lines at the top of the text.
    pub notices: usize,
}

impl fmt::Display for SizeReport {
    /// One line: `report: 1204 chars, 1204 bytes, 388 tokens (o200k); rows: 100 of 200000
    /// kept; 1 notice`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "report: {} chars, {} bytes", self.chars, self.bytes)?;
        if let Some(t) = self.tokens {
            write!(f, ", {t} tokens (o200k)")?;
        }
        if let Some((kept, total)) = self.rows {
            write!(f, "; rows: {kept} of {total} kept")?;
        }
        if let Some((kept, total)) = self.lines {
            write!(f, "; lines: {kept} of {total} kept")?;
        }
        if self.values_shortened > 0 {
            write!(f, "; {} values shortened", self.values_shortened)?;
        }
        match self.notices {
            0 => Ok(()),
            1 => write!(f, "; 1 notice"),
            n => write!(f, "; {n} notices"),
        }
    }
}

/// Render one JSON document.
pub fn document(opts: &Options, v: &Value, report: bool) -> Rendered {
    let fmt = opts.formatter(opts.max_chars, opts.max_tokens);
    if !report {
        return Rendered {
            text: fmt.format(&opts.tool, v),
            report: None,
        };
    }
    let out = fmt.format_with_report(&opts.tool, v);
    let report = size_report(&out.text, &out.report, out.report.tokens);
    Rendered {
        text: out.text,
        report: Some(report),
    }
}

/// Render records as one table (see the [module docs](self) for records not kept).
pub fn records(opts: &Options, records: Records, report: bool) -> Rendered {
    let Records {
        mut rows,
        total,
        late_keys,
    } = records;
    let given = rows.len();
    if let Some(Value::Object(last)) = rows.last_mut() {
        for k in late_keys {
            last.entry(k).or_insert(Value::Null);
        }
    }
    let table = Value::Array(rows);
    if total == given {
        return document(opts, &table, report);
    }
    let mut budgets = (opts.max_chars, opts.max_tokens);
    let mut attempt = 0;
    // The notices to correct come with the report; without --report or --max-tokens its
    // token count is not wanted, and loading the o200k vocabulary would cost ~0.5 s and
    // ~50 MB, so the counter is a no-op then.
    let counts_tokens = report || opts.max_tokens.is_some();
    loop {
        let mut fmt = opts.formatter(budgets.0, budgets.1);
        if !counts_tokens {
            fmt = fmt.token_counter(Arc::new(NoTokens));
        }
        let out = fmt.format_with_report(&opts.tool, &table);
        let fix = Fix {
            given,
            total,
            chars: (budgets.0, opts.max_chars),
            tokens: (budgets.1, opts.max_tokens),
        };
        let (text, added) = fix.text(&out.text, &out.report.notices);
        let tokens = counts_tokens.then(|| O200k.count(&text));
        let over_chars = over(opts.max_chars, text.chars().count());
        let over_tokens = over(opts.max_tokens, tokens.unwrap_or(0));
        attempt += 1;
        if (over_chars == 0 && over_tokens == 0) || attempt == 4 {
            let mut r = size_report(&text, &out.report, tokens);
            r.rows = r
                .rows
                .map(|(kept, t)| (kept, if t == given { total } else { t }));
            r.notices += usize::from(added);
            return Rendered {
                text,
                report: report.then_some(r),
            };
        }
        budgets.0 = budgets.0.map(|b| b.saturating_sub(over_chars));
        budgets.1 = budgets.1.map(|b| b.saturating_sub(over_tokens));
    }
}

/// A token counter for renderings whose token count nobody reads.
struct NoTokens;

impl TokenCounter for NoTokens {
    fn count(&self, _: &str) -> usize {
        0
    }
}

/// How far `size` is over `budget` (0 when within or unset).
fn over(budget: Option<usize>, size: usize) -> usize {
    budget.map_or(0, |b| size.saturating_sub(b))
}

/// Corrections of the library's notices for records it was not given.
struct Fix {
    /// Records given to the library.
    given: usize,
    /// Records read.
    total: usize,
    /// (budget passed to the library, the user's budget) for characters.
    chars: (Option<usize>, Option<usize>),
    /// The same for tokens.
    tokens: (Option<usize>, Option<usize>),
}

impl Fix {
    /// The notice as it should read, or `None` when it is right as it is.
    fn notice(&self, n: &Notice) -> Option<Notice> {
        match *n {
            Notice::Rows { kept, total } if total == self.given => Some(Notice::Rows {
                kept,
                total: self.total,
            }),
            Notice::Items { kept, total } if total == self.given => Some(Notice::Items {
                kept,
                total: self.total,
            }),
            Notice::Omitted {
                total,
                what,
                needed,
                budget,
                unit,
            } => {
                let (passed, user) = if unit == "tokens" {
                    self.tokens
                } else {
                    self.chars
                };
                // The rows or items the library was given are not all the records read.
                let true_total = if total == self.given && matches!(what, "rows" | "items") {
                    self.total
                } else {
                    total
                };
                let user_budget = match (passed, user) {
                    (Some(p), Some(u)) if p == budget && p != u => u,
                    _ => budget,
                };
                (true_total != total || user_budget != budget).then_some(Notice::Omitted {
                    total: true_total,
                    what,
                    needed,
                    budget: user_budget,
                    unit,
                })
            }
            _ => None,
        }
    }

    /// `text` with its notice lines corrected; when no notice says how many records there
    /// were, `[Truncated to N items of T total]` is put first (then the bool is true).
    fn text(&self, text: &str, notices: &[Notice]) -> (String, bool) {
        let mut lines: Vec<Cow<'_, str>> = text.split('\n').map(Cow::Borrowed).collect();
        let mut counted = false;
        for (i, n) in notices.iter().enumerate() {
            counted |= matches!(
                n,
                Notice::Rows { .. } | Notice::Items { .. } | Notice::Omitted { .. }
            );
            if let (Some(good), Some(line)) = (self.notice(n), lines.get_mut(i)) {
                if *line == n.to_string() {
                    *line = Cow::Owned(good.to_string());
                }
            }
        }
        let body = lines.join("\n");
        if counted {
            return (body, false);
        }
        let first = Notice::Items {
            kept: self.given,
            total: self.total,
        };
        let gap = if notices.is_empty() { "\n\n" } else { "\n" };
        (format!("{first}{gap}{body}"), true)
    }
}

/// The report figures for `text`.
fn size_report(text: &str, r: &Report, tokens: Option<usize>) -> SizeReport {
    SizeReport {
        chars: text.chars().count(),
        bytes: text.len(),
        tokens,
        rows: r.rows.map(|k| (k.kept, k.total)),
        lines: r.lines.map(|k| (k.kept, k.total)),
        values_shortened: r.values_shortened,
        notices: r.notices.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| json!({"id": i, "name": format!("n{i}")}))
            .collect()
    }

    /// Records as the reader gives them: `keep` of `n` rows, late keys noted.
    fn cut(all: &[Value], keep: usize) -> Records {
        let mut seen: Vec<String> = Vec::new();
        for r in &all[..keep.min(all.len())] {
            for k in r.as_object().unwrap().keys() {
                if !seen.contains(k) {
                    seen.push(k.clone());
                }
            }
        }
        let mut late = Vec::new();
        for r in all.iter().skip(keep) {
            for k in r.as_object().unwrap().keys() {
                if !seen.contains(k) {
                    seen.push(k.clone());
                    late.push(k.clone());
                }
            }
        }
        Records {
            rows: all[..keep.min(all.len())].to_vec(),
            total: all.len(),
            late_keys: late,
        }
    }

    /// The output for records cut by the reader equals the library's output for the whole
    /// array: same columns, same rows, same notice.
    #[test]
    fn a_cut_stream_renders_like_the_whole_array() {
        let mut all = rows(300);
        all[250] = json!({"id": 250, "late": true, "name": "n250"});
        all[299] = json!({"later": 1});
        for opts in [
            Options::default(),
            Options {
                max_rows: Some(3),
                layout: Layout::Compact,
                ..Options::default()
            },
            Options {
                max_lines: Some(7),
                max_chars: Some(300),
                ..Options::default()
            },
        ] {
            let whole = opts
                .formatter(opts.max_chars, opts.max_tokens)
                .format("", &Value::Array(all.clone()));
            let got = records(&opts, cut(&all, opts.keep()), false).text;
            assert_eq!(got, whole, "{opts:?}");
        }
    }

    #[test]
    fn the_budget_holds_with_the_longer_total() {
        let all = rows(100_000);
        let opts = Options {
            max_chars: Some(120),
            ..Options::default()
        };
        let out = records(&opts, cut(&all, opts.keep()), true);
        assert!(out.text.chars().count() <= 120, "{}", out.text);
        assert!(out.text.starts_with("[Truncated to "));
        assert!(
            out.text
                .lines()
                .next()
                .unwrap()
                .ends_with(" rows of 100000 total]")
        );
        assert_eq!(out.report.unwrap().rows.unwrap().1, 100_000);
    }

    #[test]
    fn the_report_reads_as_one_line() {
        let r = SizeReport {
            chars: 10,
            bytes: 12,
            tokens: Some(4),
            rows: Some((100, 200_000)),
            lines: None,
            values_shortened: 0,
            notices: 1,
        };
        assert_eq!(
            r.to_string(),
            "report: 10 chars, 12 bytes, 4 tokens (o200k); rows: 100 of 200000 kept; 1 notice"
        );
    }
}
