//! Every call into `tool_output_format` lives here, through its public API only.
//!
//! Records from a stream arrive cut: the reader keeps the rows the cap can show and counts
//! the rest (see [`input`](crate::input)). They go to the library as a
//! [`Rows`](tool_output_format::Rows) (the kept records, the true total, the keys seen only
//! in records not kept), which renders like the whole array would: same columns, the true
//! total in the notice, budgets met with it.
//!
//! Tokens are counted only when asked for (`--report`, `--max-tokens`): the o200k
//! vocabulary costs about 0.5 s and 50 MB to load.

use std::fmt;

use serde_json::Value;
use tool_output_format::{
    AGENT_MAX_CHARS, DEFAULT_MAX_LINES, Formatter, O200k, Rows, Shape, TokenCounter, ToolOptions,
};

/// Rendering options from the command line.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Tool name (title of a record); empty for none.
    pub tool: String,
    /// `--agent`: start from `Formatter::for_agents()`.
    pub agent: bool,
    /// The `--shape` file, applied to every result (it replaces the agent preset's shape).
    pub shape: Option<Shape>,
    /// The option flags given, as the library read them (unset ones keep the formatter's:
    /// the default's or the agent preset's).
    pub options: ToolOptions,
}

impl Options {
    /// How many records the reader should keep: the rows the cap can show (every row under
    /// `--summarize`: the summary is over all of them, as `Formatter::collect_rows` keeps).
    pub fn keep(&self) -> usize {
        if self.options.get_summarize() == Some(true) {
            return usize::MAX;
        }
        self.row_cap()
    }

    /// Whether an array may be read element by element, keeping only [`keep`](Self::keep)
    /// rows: not under a shape (`--shape`, `--agent`), which decides the table's columns
    /// over every row (which are empty, which objects become dotted columns) and so needs
    /// them all.
    pub fn streams_arrays(&self) -> bool {
        self.shape.is_none() && !self.agent
    }

    /// The rows the text can show: an explicit `--max-rows` / `--max-lines`, and a budget
    /// (`--max-chars`, `--max-tokens`, the agent preset's), each a bound; the default cap
    /// only when neither is set. A budget bounds the rows by what the smallest row costs (a
    /// table row is at least 2 characters and a line break; a token bound allows 4 rows a
    /// token), so the rows kept are never fewer than the budget shows.
    fn row_cap(&self) -> usize {
        let o = &self.options;
        let max_tokens = o.get_max_tokens();
        let chars = o
            .get_max_chars()
            .or((self.agent && max_tokens.is_none()).then_some(AGENT_MAX_CHARS))
            .map(|n| n / 2 + 1);
        let tokens = max_tokens.map(|n| n.saturating_mul(4).saturating_add(1));
        let budget = match (chars, tokens) {
            (Some(c), Some(t)) => Some(c.min(t)),
            (c, t) => c.or(t),
        };
        match (o.get_max_rows().or(o.get_max_lines()), budget) {
            (Some(cap), Some(b)) => cap.min(b),
            (Some(n), None) | (None, Some(n)) => n,
            (None, None) => DEFAULT_MAX_LINES,
        }
    }

    fn formatter(&self) -> Formatter {
        let base = if self.agent {
            Formatter::for_agents()
        } else {
            Formatter::new()
        };
        base.defaults(self.tool_options())
    }

    /// The flags as the library's options (set ones only: the agent preset's stay unless a
    /// flag replaces them), with the `--shape` file.
    fn tool_options(&self) -> ToolOptions {
        match &self.shape {
            Some(shape) => self.options.clone().shape(shape.clone()),
            None => self.options.clone(),
        }
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

/// What to write: markdown (or CSV) text, or the structured JSON form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// The text of the layout.
    #[default]
    Text,
    /// `--json`: `Formatter::format_json`, written compactly on one line.
    Json,
}

/// Render one JSON document.
pub fn document(opts: &Options, v: &Value, form: Form, report: bool) -> Rendered {
    render(opts, v, form, report)
}

/// Render records as one table: the kept records with the true total (see the
/// [module docs](self)).
pub fn records(opts: &Options, records: &Rows, form: Form, report: bool) -> Rendered {
    render(opts, records, form, report)
}

fn render<T: tool_output_format::ToolOutput + ?Sized>(
    opts: &Options,
    result: &T,
    form: Form,
    report: bool,
) -> Rendered {
    let fmt = opts.formatter();
    match form {
        Form::Json => {
            let v = fmt.format_json(&opts.tool, result);
            let text = v.to_string();
            let report = report.then(|| json_report(&text, &v));
            Rendered { text, report }
        }
        Form::Text if report => {
            let out = fmt.format_with_report(&opts.tool, result);
            let mut figures = out.report.to_json();
            if figures["tokens"].is_null() {
                figures["tokens"] = O200k.count(&out.text).into();
            }
            let report = SizeReport::from_report(&figures);
            Rendered {
                text: out.text,
                report: Some(report),
            }
        }
        Form::Text => Rendered {
            text: fmt.format(&opts.tool, result),
            report: None,
        },
    }
}

/// The report figures of a structured JSON text, read from its `notices`.
fn json_report(text: &str, v: &Value) -> SizeReport {
    let notices = v["notices"].as_array().map_or(&[][..], Vec::as_slice);
    let top = |kind: &str| {
        notices.iter().find_map(|n| {
            (n["kind"] == kind && n["path"] == "").then(|| {
                let get = |k: &str| {
                    n[k].as_u64()
                        .map_or(0, |v| usize::try_from(v).unwrap_or(usize::MAX))
                };
                (get("kept"), get("total"))
            })
        })
    };
    let rows = top("rows").or_else(|| {
        v["result"]
            .as_array()
            .filter(|a| !a.is_empty() && a.iter().all(Value::is_object))
            .map(|a| (a.len(), a.len()))
    });
    let values_shortened = notices
        .iter()
        .filter(|n| n["kind"] == "shortened")
        .filter_map(|n| n["values"].as_u64())
        .sum::<u64>();
    let values_shortened = usize::try_from(values_shortened).unwrap_or(usize::MAX);
    SizeReport {
        chars: text.chars().count(),
        bytes: text.len(),
        tokens: Some(O200k.count(text)),
        rows,
        lines: top("lines"),
        values_shortened,
        notices: notices.len(),
    }
}

impl SizeReport {
    /// The figures of a report as the library serializes it
    /// ([`Report::to_json`](tool_output_format::Report::to_json): the one form the proxy's
    /// `_meta` and the Python package's `report` give too).
    fn from_report(r: &Value) -> SizeReport {
        let count = |v: &Value| {
            v.as_u64()
                .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        let kept = |v: &Value| {
            v.is_object()
                .then(|| (count(&v["kept"]), count(&v["total"])))
        };
        SizeReport {
            chars: count(&r["chars"]),
            bytes: count(&r["bytes"]),
            tokens: (!r["tokens"].is_null()).then(|| count(&r["tokens"])),
            rows: kept(&r["rows"]),
            lines: kept(&r["lines"]),
            values_shortened: count(&r["values_shortened"]),
            notices: r["notices"].as_array().map_or(0, Vec::len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tool_output_format::Layout;

    fn rows(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| json!({"id": i, "name": format!("n{i}")}))
            .collect()
    }

    /// Records as the reader gives them: `keep` of `n` rows, late keys noted (the reader's
    /// own collector).
    fn cut(all: &[Value], keep: usize) -> Rows {
        let src = crate::input::Source {
            name: "<test>".into(),
            path: None,
        };
        let mut c = crate::input::Collector::new(keep);
        for r in all {
            c.push_value(r.clone(), &src, || (1, 1)).unwrap();
        }
        c.finish()
    }

    /// The output for records cut by the reader equals the library's output for the whole
    /// array: same columns, same rows, same notice.
    #[test]
    fn a_cut_stream_renders_like_the_whole_array() {
        let mut all = rows(300);
        all[250] = json!({"id": 250, "late": true, "name": "n250"});
        all[299] = json!({"later": 1});
        let with = |options| Options {
            options,
            ..Options::default()
        };
        for opts in [
            Options::default(),
            with(ToolOptions::new().max_rows(3).layout(Layout::Compact)),
            with(ToolOptions::new().max_lines(7).max_chars(300)),
            with(ToolOptions::new().max_rows(2).layout(Layout::Csv)),
        ] {
            let whole = opts.formatter().format("", &Value::Array(all.clone()));
            let got = records(&opts, &cut(&all, opts.keep()), Form::Text, false).text;
            assert_eq!(got, whole, "{opts:?}");
            let whole = opts.formatter().format_json("", &Value::Array(all.clone()));
            let got = records(&opts, &cut(&all, opts.keep()), Form::Json, false).text;
            assert_eq!(got, whole.to_string(), "{opts:?}");
        }
    }

    #[test]
    fn the_budget_holds_with_the_longer_total() {
        let all = rows(100_000);
        let opts = Options {
            options: ToolOptions::new().max_chars(120),
            ..Options::default()
        };
        let out = records(&opts, &cut(&all, opts.keep()), Form::Text, true);
        assert!(out.text.chars().count() <= 120, "{}", out.text);
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
