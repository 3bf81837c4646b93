use serde_json::{Value, json};

use crate::focus::RowOrder;
use crate::focus::tests::FAQ;
use crate::{Formatter, Layout, Notice};

fn tickets() -> Value {
    json!([
        {"id": 1, "title": "Printer jammed on floor 3", "status": "open"},
        {"id": 2, "title": "Refund not received for order 991", "status": "open"},
        {"id": 3, "title": "VPN drops every hour", "status": "closed"},
        {"id": 4, "title": "Customer asks about the refund policy", "status": "open"},
        {"id": 5, "title": "Laptop battery swollen", "status": "open"},
        {"id": 6, "title": "Refund policy for damaged items", "status": "closed"},
    ])
}

#[test]
fn max_lines_alone_keeps_the_best_sections_that_fit_in_that_many_lines() {
    let fmt = Formatter::new().max_lines(9);
    let got = fmt
        .focus("refund damaged items warranty")
        .format("fetch_page", FAQ);
    assert_eq!(
        got,
        "[Kept 2 of 6 sections relevant to \"refund damaged items warranty\"]\n\n\
         ```\n\
         [… 3 sections omitted …]\n\n\
         # Refunds\nRefunds for damaged items are issued in 5 days.\n\n\
         # Warranty\nTwo years on all appliances.\n\n\
         [… 1 section omitted …]\n\
         ```"
    );
}

#[test]
fn fewer_lines_keep_fewer_sections_and_the_gaps_count_as_lines() {
    let got = Formatter::new()
        .max_lines(7)
        .focus("refund damaged items warranty")
        .format("fetch_page", FAQ);
    assert_eq!(
        got,
        "[Kept 1 of 6 sections relevant to \"refund damaged items warranty\"]\n\n\
         ```\n\
         [… 3 sections omitted …]\n\n\
         # Refunds\nRefunds for damaged items are issued in 5 days.\n\n\
         [… 2 sections omitted …]\n\
         ```"
    );
}

#[test]
fn a_char_budget_is_met_and_code_blocks_stay_whole_inside_a_longer_fence() {
    let fmt = Formatter::new().max_chars(203);
    let got = fmt.focus("tracking format").format("fetch_page", FAQ);
    assert_eq!(
        got,
        "[Kept 1 of 6 sections relevant to \"tracking format\"]\n\n\
         ````\n\
         [… 2 sections omitted …]\n\n\
         # Shipping\nStandard parcels ship in 2 days.\n\n\
         ```text\n# tracking format\nACME-000123\n```\n\n\
         [… 3 sections omitted …]\n\
         ````"
    );
    assert!(got.chars().count() <= 203);
    // Without the query: the head of the text, cut by lines to the budget.
    assert!(fmt.format("fetch_page", FAQ).starts_with("[Truncated to "));
}

#[test]
fn a_tight_char_budget_cuts_the_best_section_before_its_code_block() {
    let fmt = Formatter::new().max_chars(185);
    let got = fmt.focus("tracking format").format("fetch_page", FAQ);
    assert_eq!(
        got,
        "[Kept 1 of 6 sections relevant to \"tracking format\"]\n\n\
         ```\n\
         [… 2 sections omitted …]\n\n\
         # Shipping\nStandard parcels ship in 2 days.…[+43 chars]\n\n\
         [… 3 sections omitted …]\n\
         ```"
    );
    assert!(got.chars().count() <= 185);
    // A smaller budget cuts the text itself.
    let small = Formatter::new().max_chars(150);
    assert_eq!(
        small.focus("tracking format").format("fetch_page", FAQ),
        "[Kept 1 of 6 sections relevant to \"tracking format\"]\n\n\
         ```\n\
         [… 2 sections omitted …]\n\n\
         # Shipping\nStandard parc…[+62 chars]\n\n\
         [… 3 sections omitted …]\n\
         ```"
    );
}

#[test]
fn no_match_is_todays_output_after_the_no_match_line() {
    let fmt = Formatter::new().max_lines(3);
    let plain = fmt.format("fetch_page", FAQ);
    assert!(plain.starts_with("[Truncated to 3 lines of 21 total]\n\n"));
    assert_eq!(
        fmt.focus("kangaroo").format("fetch_page", FAQ),
        format!("[No section matched \"kangaroo\"]\n{plain}")
    );
    // A query of stop words only matches nothing either.
    assert_eq!(
        fmt.focus("what is the").format("fetch_page", FAQ),
        format!("[No section matched \"what is the\"]\n{plain}")
    );
}

#[test]
fn no_query_or_a_result_within_its_caps_is_unchanged() {
    let fmt = Formatter::new().max_lines(3);
    for q in ["", "  ", "?!"] {
        assert_eq!(fmt.focus(q).format("t", FAQ), fmt.format("t", FAQ));
    }
    let roomy = Formatter::new().max_chars(10_000);
    assert_eq!(
        roomy.focus("refund").format("t", FAQ),
        roomy.format("t", FAQ)
    );
    assert_eq!(
        roomy.focus("refund").format_with_report("t", FAQ),
        roomy.format_with_report("t", FAQ)
    );
    // Records, lists and scalars are not focused.
    let v = json!({"body": FAQ, "tags": ["a", "b"]});
    assert_eq!(fmt.focus("refund").format("t", &v), fmt.format("t", &v));
    assert_eq!(fmt.focus("refund").format("t", &7), "7");
}

#[test]
fn a_string_under_max_lines_but_over_the_budget_is_focused() {
    let fmt = Formatter::new().max_chars(120);
    let log = (0..8)
        .map(|i| format!("12:00:0{i} INFO request served in {i} ms"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n12:00:09 ERROR disk full on db-2";
    assert_eq!(
        fmt.focus("disk full").format("read_log", &log),
        "[Kept 1 of 9 lines relevant to \"disk full\"]\n\n\
         ```\n[… 8 lines omitted …]\n12:00:09 ERROR disk full on db-2\n```"
    );
}

#[test]
fn tables_keep_their_most_relevant_rows_in_data_order_by_default() {
    let fmt = Formatter::new().max_rows(2).layout(Layout::Compact);
    let md = fmt.focus("refund policy").format("tickets", &tickets());
    assert_eq!(
        md,
        "[Kept 2 of 6 rows relevant to \"refund policy\"]\n\n\
         |id|title|status|\n|-|-|-|\n\
         |4|Customer asks about the refund policy|open|\n\
         |6|Refund policy for damaged items|closed|"
    );
    // Rows 4 and 6 tie on "refund policy"; "damaged" puts row 6 first.
    let ranked = fmt
        .focus("damaged refund policy")
        .row_order(RowOrder::Ranked)
        .format("tickets", &tickets());
    assert_eq!(
        ranked,
        "[Kept 2 of 6 rows relevant to \"damaged refund policy\"]\n\n\
         |id|title|status|\n|-|-|-|\n\
         |6|Refund policy for damaged items|closed|\n\
         |4|Customer asks about the refund policy|open|"
    );
}

#[test]
fn rows_that_match_nothing_are_not_kept() {
    let fmt = Formatter::new().max_rows(3).layout(Layout::Compact);
    assert_eq!(
        fmt.focus("vpn").format("tickets", &tickets()),
        "[Kept 1 of 6 rows relevant to \"vpn\"]\n\n\
         |id|title|status|\n|-|-|-|\n|3|VPN drops every hour|closed|"
    );
    // Numbers are not searched.
    assert_eq!(
        fmt.focus("991 5").format("tickets", &tickets()),
        "[Kept 1 of 6 rows relevant to \"991 5\"]\n\n\
         |id|title|status|\n|-|-|-|\n|2|Refund not received for order 991|open|"
    );
}

#[test]
fn a_table_that_matches_nothing_is_cut_as_today_after_the_no_row_line() {
    let fmt = Formatter::new().max_rows(2).layout(Layout::Compact);
    let plain = fmt.format("tickets", &tickets());
    assert_eq!(
        fmt.focus("kangaroo").format("tickets", &tickets()),
        format!("[No row matched \"kangaroo\"]\n{plain}")
    );
    // Within its cap: unchanged, no line.
    let roomy = Formatter::new().layout(Layout::Compact);
    assert_eq!(
        roomy.focus("kangaroo").format("tickets", &tickets()),
        roomy.format("tickets", &tickets())
    );
}

#[test]
fn a_budget_drops_the_least_relevant_rows_and_the_line_counts_the_rows_shown() {
    let rows: Vec<Value> = (0..500)
        .map(|i| {
            let title = match i % 50 {
                7 => format!("refund policy question {i}"),
                20 => format!("refund {i}"),
                _ => format!("printer jam {i}"),
            };
            json!({"id": i, "title": title})
        })
        .collect();
    let fmt = Formatter::new()
        .max_rows(30)
        .max_chars(300)
        .layout(Layout::Compact);
    let out = fmt
        .focus("refund policy")
        .format_with_report("tickets", &rows);
    assert!(out.text.chars().count() <= 300, "{}", out.text);
    let first = out.text.lines().next().unwrap();
    let shown = out.text.lines().skip(4).count();
    assert_eq!(
        first,
        format!("[Kept {shown} of 500 rows relevant to \"refund policy\"]")
    );
    assert!(shown >= 5, "{}", out.text);
    // The most relevant rows (the policy questions) are the ones kept.
    assert!(
        out.text
            .lines()
            .skip(4)
            .all(|l| !l.contains('|') || l.contains("policy")),
        "{}",
        out.text
    );
    // Data order.
    let ids: Vec<usize> = out
        .text
        .lines()
        .skip(4)
        .filter_map(|l| l.split('|').nth(1)?.parse().ok())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    let r = &out.report;
    assert_eq!(r.rows.map(|k| (k.kept, k.total)), Some((shown, 500)));
    assert!(!r.notices.iter().any(|n| matches!(n, Notice::Rows { .. })));
    assert_eq!(r.focus.as_ref().unwrap().notice, first);
    assert!(r.truncated());
}

#[test]
fn typed_and_value_results_focus_alike() {
    let fmt = Formatter::new().max_lines(9);
    let q = fmt.focus("refund damaged items warranty");
    let typed: String = FAQ.to_string();
    assert_eq!(q.format("t", &typed), q.format("t", &Value::from(FAQ)));
    assert_eq!(q.format("t", FAQ), q.format("t", &Value::from(FAQ)));
}

#[test]
fn the_view_is_cheap_and_the_formatter_is_reused() {
    let fmt = Formatter::new().max_lines(6);
    let a = fmt.focus("refund").format("t", FAQ);
    let b = fmt.focus("warranty").format("t", FAQ);
    assert!(a.contains("# Refunds") && !a.contains("# Warranty"), "{a}");
    assert!(b.contains("# Warranty") && !b.contains("# Refunds"), "{b}");
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

const WORDS: &[&str] = &[
    "refund", "policy", "ship", "order", "é", "李雷", "👍🏽", "disk", "error", "the", "`x`",
];

fn document(rng: &mut Rng) -> String {
    const LINES: &[&str] = &["", "", "# Head", "## Sub", "```", "~~~", "\r", "  ", "|a|"];
    let mut s = String::new();
    for _ in 0..rng.below(80) {
        if rng.below(3) == 0 {
            s.push_str(rng.pick(LINES));
        } else {
            for _ in 0..rng.below(10) {
                s.push_str(rng.pick(WORDS));
                s.push(' ');
            }
        }
        s.push('\n');
    }
    s
}

/// The sections a focused output accounts for: kept ones plus those its gap lines announce.
fn gap_units(text: &str) -> usize {
    text.lines()
        .filter_map(|l| {
            l.strip_prefix("[… ")?
                .split(' ')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .sum()
}

/// Whatever the document, query and budgets: no panic, the budget holds (or the omitted
/// line says why not), a focus line's counts add up with the gaps, and the code block has
/// at most `max_lines` lines.
#[test]
fn property_focused_strings_meet_their_budgets_and_account_for_every_section() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut focused = 0;
    for case in 0..1500 {
        let doc = document(&mut rng);
        let max_lines = 1 + rng.below(30);
        let mut fmt = Formatter::new().max_lines(max_lines);
        let budget = (rng.below(2) == 0).then(|| rng.below(600));
        if let Some(b) = budget {
            fmt = fmt.max_chars(b);
        }
        let query = ["refund policy", "disk error", "李雷", "the", "ship order"][case % 5];
        let out = fmt.focus(query).format_with_report("", doc.as_str());
        let text = &out.text;
        if let Some(b) = budget
            && !text.starts_with("[Omitted")
        {
            assert!(text.chars().count() <= b, "case {case}: over {b}\n{text}");
        }
        let Some(f) = &out.report.focus else { continue };
        assert!(text.starts_with(&f.notice), "case {case}");
        let Some(kept) = f.kept else { continue };
        focused += 1;
        if !text.contains("[Truncated") {
            assert_eq!(
                kept.kept + gap_units(text),
                kept.total,
                "case {case}: {doc:?}\n{text}"
            );
            let block = text.lines().skip(3).count().saturating_sub(1);
            assert!(block <= max_lines, "case {case}: {block} lines\n{text}");
        }
    }
    assert!(focused > 200, "only {focused} cases were focused");
}

/// Tables: the line counts the rows shown, out of the data's rows; the budget holds.
#[test]
fn property_focused_tables_count_the_rows_they_show() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut focused = 0;
    for case in 0..400 {
        let n = rng.below(120);
        let rows: Vec<Value> = (0..n)
            .map(|i| {
                let words: Vec<&str> = (0..rng.below(6)).map(|_| rng.pick(WORDS)).collect();
                json!({"id": i, "title": words.join(" "), "n": rng.below(9)})
            })
            .collect();
        let mut fmt = Formatter::new()
            .max_rows(1 + rng.below(20))
            .layout(Layout::Compact);
        let budget = (rng.below(2) == 0).then(|| 60 + rng.below(600));
        if let Some(b) = budget {
            fmt = fmt.max_chars(b);
        }
        let order = [RowOrder::Data, RowOrder::Ranked][case % 2];
        let out = fmt
            .focus(["refund", "disk error", "李雷 👍🏽"][case % 3])
            .row_order(order)
            .format_with_report("t", &rows);
        let text = &out.text;
        if let Some(b) = budget
            && !text.starts_with("[Omitted")
        {
            assert!(text.chars().count() <= b, "case {case}: over {b}\n{text}");
        }
        let Some(kept) = out.report.focus.as_ref().and_then(|f| f.kept) else {
            continue;
        };
        focused += 1;
        let shown = text.lines().filter(|l| l.starts_with('|')).count() - 2;
        assert_eq!((kept.kept, kept.total), (shown, n), "case {case}\n{text}");
        assert!(
            text.starts_with(&format!("[Kept {shown} of {n} rows relevant to ")),
            "case {case}\n{text}"
        );
        if order == RowOrder::Data {
            let ids: Vec<usize> = text
                .lines()
                .skip_while(|l| !l.starts_with("|-"))
                .skip(1)
                .filter_map(|l| l.split('|').nth(1)?.parse().ok())
                .collect();
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "case {case}\n{text}");
        }
    }
    assert!(focused > 50, "only {focused} cases were focused");
}

#[cfg(feature = "tokens")]
#[test]
fn a_token_budget_is_met_by_measuring() {
    let log: String = (0..400)
        .map(|i| {
            format!(
                "2024-05-01T12:{:02}:{:02}Z INFO worker-{} heartbeat ok\n",
                i / 60,
                i % 60,
                i % 7
            )
        })
        .collect::<String>()
        + "2024-05-01T13:00:00Z ERROR worker-3 disk full on /var/lib/db\n";
    for budget in [80, 150, 300, 1000] {
        let fmt = Formatter::new().max_tokens(budget).max_lines(10_000);
        let out = fmt
            .focus("disk full")
            .format_with_report("read_log", log.as_str());
        assert!(
            out.report.tokens.unwrap() <= budget,
            "{budget}: {}",
            out.text
        );
        assert!(
            out.text.contains("disk full on /var/lib/db"),
            "{budget}: {}",
            out.text
        );
        assert!(out.text.starts_with("[Kept "), "{}", out.text);
        // Many matching lines (of about 25 tokens each, with their gap lines): the budget is
        // used, more than 75% of it.
        let out = fmt
            .focus("worker-3 heartbeat")
            .format_with_report("read_log", log.as_str());
        let tokens = out.report.tokens.unwrap();
        assert!(
            tokens <= budget && tokens * 4 > budget * 3,
            "{budget}: {tokens}\n{}",
            out.text
        );
    }
}

/// Focus on a log keeps a matching entry whole: the commit hash and author with the
/// matching message line.
#[test]
fn focus_on_a_log_keeps_each_matching_entry_with_its_header_lines() {
    let mut log = String::new();
    for i in 0..40 {
        let message = if i == 17 {
            "fix the parser crash on empty input"
        } else {
            "update dependencies"
        };
        log.push_str(&format!(
            "Commit: 'c{i:04}'\nAuthor: dev{i}\nDate: 2026-01-{:02}\nMessage: {message}\n",
            i % 28 + 1
        ));
    }
    let got = Formatter::new()
        .max_lines(12)
        .focus("parser crash")
        .format("git_log", log.as_str());
    assert!(
        got.contains("Commit: 'c0017'\nAuthor: dev17\nDate: 2026-01-18\nMessage: fix the parser crash on empty input"),
        "{got}"
    );
    assert!(got.starts_with("[Kept "), "{got}");
}
