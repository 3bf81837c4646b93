//! The cut notices and the line strategy: plain data of the model, written by the caps and
//! the fit, worded by the sinks (`sink::notice`), reported by the call.

/// Which lines of a long string result are kept.
///
/// ```
/// use tool_output_format::{Formatter, Strategy, ToolOptions};
/// let fmt = Formatter::new().max_lines(2).strategy(Strategy::Tail);
/// assert_eq!(fmt.format("t", "1\n2\n3"), "[Truncated to the last 2 lines of 3 total]\n\n```\n2\n3\n```");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Strategy {
    /// The first lines (the default).
    #[default]
    Head,
    /// The last lines (logs: newest last).
    Tail,
    /// The first half and the last half; the middle is replaced in place by a line
    /// `… [N lines omitted] …`.
    HeadTail,
}

/// A cut, announced first in the output (before the title and the content). Its wording is
/// the sink's (see [`Display`](std::fmt::Display)).
///
/// ```
/// use tool_output_format::Notice;
/// assert_eq!(Notice::Rows { kept: 100, total: 10000 }.to_string(),
///            "[Truncated to 100 rows of 10000 total]");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// Table rows dropped from the end.
    Rows {
        /// Rows kept.
        kept: usize,
        /// Rows in the data.
        total: usize,
    },
    /// String lines dropped (which ones depends on the strategy).
    Lines {
        /// Lines kept.
        kept: usize,
        /// Lines in the data.
        total: usize,
        /// Which lines were kept.
        strategy: Strategy,
    },
    /// Record fields dropped from the end to fit a budget.
    Fields {
        /// Fields kept.
        kept: usize,
        /// Fields in the data.
        total: usize,
    },
    /// List items dropped from the end to fit a budget.
    Items {
        /// Items kept.
        kept: usize,
        /// Items in the data.
        total: usize,
    },
    /// Values shortened to fit a budget (each also ends with `…[+N chars]`).
    Shortened {
        /// How many values were cut.
        values: usize,
        /// The length they were cut to, in characters.
        max_chars: usize,
    },
    /// Tables, lists and multi-line strings nested in a record or list cut by a budget to
    /// their first rows, items or lines (each also announced in place with exact counts).
    Nested {
        /// How many nested parts were cut.
        parts: usize,
        /// Rows, items or lines each kept.
        kept: usize,
    },
    /// Nothing of the result fits the budget.
    Omitted {
        /// Rows, items, lines or fields in the result (0 for a scalar).
        total: usize,
        /// What `total` counts: `"rows"`, `"items"`, `"lines"`, `"fields"`, or `""` for a
        /// scalar.
        what: &'static str,
        /// The size of the smallest rendering that keeps something (one row, item, line or
        /// field, values shortened to the floor), or of the whole scalar.
        needed: usize,
        /// The budget.
        budget: usize,
        /// What the budget counts.
        unit: BudgetUnit,
    },
}

/// What a budget counts: characters (`max_chars`) or tokens (`max_tokens`).
///
/// ```
/// use tool_output_format::BudgetUnit;
/// assert_eq!(BudgetUnit::Chars.to_string(), "chars");
/// assert_eq!(BudgetUnit::Tokens.as_str(), "tokens");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetUnit {
    /// Characters (Unicode scalar values), `max_chars`.
    Chars,
    /// Tokens of the formatter's tokenizer, `max_tokens`.
    Tokens,
}

impl BudgetUnit {
    /// The unit's word in notices and reports: `chars` or `tokens`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetUnit::Chars => "chars",
            BudgetUnit::Tokens => "tokens",
        }
    }
}

impl std::fmt::Display for BudgetUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How `kept` lines split between head and tail.
pub(crate) fn head_tail(kept: usize) -> (usize, usize) {
    (kept.div_ceil(2), kept / 2)
}
