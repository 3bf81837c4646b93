//! The answerability benchmark: what an agent can still answer from a rendered tool result.
//!
//! Questions (`benches/answerability/questions.json`) ask what an agent asks of a recorded
//! API response to answer a user and act (a name, a status, a link, a date, who, which
//! kinds). Each answer string is copied from the response's JSON values. A question counts
//! as answered by an output when every one of its answer strings occurs in the output's
//! text, as is or after removing markdown backslash escapes (`\|`, `\_`, `\*`, ...: a
//! backslash before ASCII punctuation).
//!
//! The responses are the recorded ones in `examples/data/api/` and more in
//! `benches/answerability/data/` (origins and licenses in each folder's `SOURCES.md`); a
//! question names its response by file name, found in either folder.
//!
//! [`run`] renders every response four ways ([`Way`]) at every budget in [`BUDGETS`] and
//! scores the questions; `examples/answerability.rs` prints the table and
//! `tests/answerability.rs` checks the question set and the floors.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tool_output_format::Formatter;

/// The folders a response file is looked up in, in order.
pub fn data_dirs() -> [PathBuf; 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    [
        root.join("examples/data/api"),
        root.join("benches/answerability/data"),
    ]
}

/// The question set's path.
pub fn questions_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../benches/answerability/questions.json")
}

/// One question about one response.
#[derive(Debug, Clone)]
pub struct Question {
    /// The response's file name (`github_repository.json`).
    pub response: String,
    pub question: String,
    /// Every one of these must occur in the output.
    pub answers: Vec<String>,
}

/// One recorded response.
#[derive(Debug, Clone)]
pub struct Response {
    /// The file name (`github_repository.json`).
    pub file: String,
    /// The file stem, the tool name passed to `format` (`github_repository`).
    pub name: String,
    /// The service: the file name's prefix before the first `_` (`github`).
    pub service: String,
    pub value: Value,
}

/// The questions and the responses they name (each response once, in first-named order).
#[derive(Debug, Clone)]
pub struct Corpus {
    pub questions: Vec<Question>,
    pub responses: Vec<Response>,
}

impl Corpus {
    /// The response a question names.
    pub fn response(&self, q: &Question) -> &Response {
        self.responses
            .iter()
            .find(|r| r.file == q.response)
            .expect("load checked every response")
    }

    /// The distinct services, sorted.
    pub fn services(&self) -> Vec<&str> {
        let mut s: Vec<&str> = self.responses.iter().map(|r| r.service.as_str()).collect();
        s.sort_unstable();
        s.dedup();
        s
    }
}

/// Read the question set and every response it names.
///
/// # Errors
/// A message naming the problem: the question file unreadable or malformed, a response file
/// missing from both folders or not JSON.
pub fn load() -> Result<Corpus, String> {
    let path = questions_path();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let list: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let items = list
        .as_array()
        .ok_or_else(|| "questions.json: not an array".to_string())?;
    let mut questions = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let field = |k: &str| {
            item.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("question {i}: no string `{k}`"))
        };
        let answers = item
            .get("answers")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("question {i}: no `answers` array"))?
            .iter()
            .map(|a| {
                a.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("question {i}: an answer is not a string"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if answers.is_empty() {
            return Err(format!("question {i}: no answers"));
        }
        questions.push(Question {
            response: field("response")?,
            question: field("question")?,
            answers,
        });
    }
    let mut responses: Vec<Response> = Vec::new();
    for q in &questions {
        if responses.iter().any(|r| r.file == q.response) {
            continue;
        }
        let file = data_dirs()
            .into_iter()
            .map(|d| d.join(&q.response))
            .find(|p| p.is_file())
            .ok_or_else(|| format!("{}: in neither data folder", q.response))?;
        let text =
            std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = q.response.trim_end_matches(".json").to_string();
        let service = name.split('_').next().unwrap_or(&name).to_string();
        responses.push(Response {
            file: q.response.clone(),
            name,
            service,
            value,
        });
    }
    Ok(Corpus {
        questions,
        responses,
    })
}

/// The budgets measured, in characters (`None`: each way's default).
pub const BUDGETS: [Option<usize>; 5] = [Some(500), Some(1_000), Some(2_000), Some(4_000), None];

/// A way to give a response to a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// `Formatter::for_agents().max_chars(b)`; no budget: `Formatter::for_agents()` as is.
    Agent,
    /// `Formatter::new().max_chars(b)`; no budget: `Formatter::new()`.
    Plain,
    /// `serde_json::to_string`, cut at `b` characters.
    Json,
    /// TOON (the caller's [`ToonEncoder`], `toon_format::encode_default`), cut at `b`
    /// characters.
    Toon,
}

impl Way {
    pub const ALL: [Way; 4] = [Way::Agent, Way::Plain, Way::Json, Way::Toon];

    pub fn label(self) -> &'static str {
        match self {
            Way::Agent => "agent preset",
            Way::Plain => "Formatter::new()",
            Way::Json => "compact JSON, cut",
            Way::Toon => "TOON, cut",
        }
    }
}

/// The first `n` characters of `s`.
fn cut(s: String, n: Option<usize>) -> String {
    match n {
        Some(n) => match s.char_indices().nth(n) {
            Some((i, _)) => s[..i].to_string(),
            None => s,
        },
        None => s,
    }
}

/// How the TOON way encodes a value: the caller passes `toon_format::encode_default` (a
/// dev-dependency of the root package; this crate stays free of it, so the fuzz workspace,
/// which uses this crate, needs no new lock entry).
pub type ToonEncoder = fn(&Value) -> String;

/// The text a response becomes one way at one budget.
pub fn render(way: Way, budget: Option<usize>, r: &Response, toon: ToonEncoder) -> String {
    match way {
        Way::Agent => match budget {
            Some(b) => Formatter::for_agents().max_chars(b),
            None => Formatter::for_agents(),
        }
        .format(&r.name, &r.value),
        Way::Plain => match budget {
            Some(b) => Formatter::new().max_chars(b),
            None => Formatter::new(),
        }
        .format(&r.name, &r.value),
        Way::Json => cut(
            serde_json::to_string(&r.value).expect("a Value serializes"),
            budget,
        ),
        Way::Toon => cut(toon(&r.value), budget),
    }
}

/// `s` with markdown backslash escapes removed: a backslash before an ASCII punctuation
/// character is dropped (`\|` -> `|`, `\\` -> `\`).
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && n.is_ascii_punctuation()
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// Whether every answer occurs in `text` (as is) or in `unescaped` (`unescape(text)`).
pub fn answered(text: &str, unescaped: &str, answers: &[String]) -> bool {
    answers
        .iter()
        .all(|a| text.contains(a.as_str()) || unescaped.contains(a.as_str()))
}

/// One way at one budget.
#[derive(Debug, Clone)]
pub struct Cell {
    pub way: Way,
    pub budget: Option<usize>,
    /// Questions answered, of `total`.
    pub answered: usize,
    pub total: usize,
    /// Mean characters of the outputs, one per response.
    pub mean_chars: f64,
    /// Outputs longer than the budget (always 0 with no budget).
    pub over_budget: usize,
    /// The indices (into `Corpus::questions`) of the questions missed.
    pub missed: Vec<usize>,
}

impl Cell {
    /// The share answered, in percent.
    pub fn percent(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            100.0 * self.answered as f64 / self.total as f64
        }
    }
}

/// Every way at every budget.
#[derive(Debug, Clone)]
pub struct Results {
    /// Way-major: `Way::ALL` x `BUDGETS`.
    pub cells: Vec<Cell>,
}

/// Render every response every way at every budget and score every question.
pub fn run(corpus: &Corpus, toon: ToonEncoder) -> Results {
    let mut cells = Vec::new();
    for way in Way::ALL {
        for budget in BUDGETS {
            let outputs: Vec<(String, String)> = corpus
                .responses
                .iter()
                .map(|r| {
                    let t = render(way, budget, r, toon);
                    let u = unescape(&t);
                    (t, u)
                })
                .collect();
            let lens: Vec<usize> = outputs.iter().map(|(t, _)| t.chars().count()).collect();
            let over_budget = budget.map_or(0, |b| lens.iter().filter(|&&n| n > b).count());
            let mean_chars = lens.iter().sum::<usize>() as f64 / lens.len().max(1) as f64;
            let mut missed = Vec::new();
            for (i, q) in corpus.questions.iter().enumerate() {
                let at = corpus
                    .responses
                    .iter()
                    .position(|r| r.file == q.response)
                    .expect("load checked every response");
                let (t, u) = &outputs[at];
                if !answered(t, u, &q.answers) {
                    missed.push(i);
                }
            }
            cells.push(Cell {
                way,
                budget,
                answered: corpus.questions.len() - missed.len(),
                total: corpus.questions.len(),
                mean_chars,
                over_budget,
                missed,
            });
        }
    }
    Results { cells }
}

fn budget_label(b: Option<usize>) -> String {
    b.map_or_else(|| "none".to_string(), |b| b.to_string())
}

impl Results {
    /// The cell of one way at one budget.
    ///
    /// # Panics
    /// If the pair was not measured (every pair of `Way::ALL` x `BUDGETS` is).
    pub fn cell(&self, way: Way, budget: Option<usize>) -> &Cell {
        self.cells
            .iter()
            .find(|c| c.way == way && c.budget == budget)
            .expect("every way at every budget is measured")
    }

    /// The results as one markdown table.
    pub fn table(&self) -> String {
        let mut s = String::from(
            "| way | budget | answered | answered / total | mean chars | over budget |\n\
             |---|---:|---:|---:|---:|---:|\n",
        );
        for c in &self.cells {
            let over = if c.budget.is_some() {
                c.over_budget.to_string()
            } else {
                "-".to_string()
            };
            let _ = writeln!(
                s,
                "| {} | {} | {:.1}% | {}/{} | {:.0} | {} |",
                c.way.label(),
                budget_label(c.budget),
                c.percent(),
                c.answered,
                c.total,
                c.mean_chars,
                over
            );
        }
        s
    }

    /// The questions one way missed at the given budgets, per response.
    pub fn missed_report(&self, corpus: &Corpus, way: Way, budgets: &[Option<usize>]) -> String {
        let mut s = String::new();
        for &b in budgets {
            let cell = self.cell(way, b);
            let _ = writeln!(
                s,
                "### Missed by the {} at {} ({} of {})\n",
                way.label(),
                budget_label(b),
                cell.missed.len(),
                cell.total
            );
            for r in &corpus.responses {
                let qs: Vec<&Question> = cell
                    .missed
                    .iter()
                    .map(|&i| &corpus.questions[i])
                    .filter(|q| q.response == r.file)
                    .collect();
                if qs.is_empty() {
                    continue;
                }
                let _ = writeln!(s, "- `{}`:", r.name);
                for q in qs {
                    let _ = writeln!(s, "  - {} ({})", q.question, q.answers.join(" / "));
                }
            }
            s.push('\n');
        }
        s
    }
}
