use super::*;

/// A small help-center FAQ (six sections, one fenced block), shared with the formatter's
/// focus tests (`focused/tests.rs`).
pub(crate) const FAQ: &str = "\
Acme Help Center

# Ordering
Place orders online or by phone.

# Shipping
Standard parcels ship in 2 days.

```text
# tracking format
ACME-000123
```

# Refunds
Refunds for damaged items are issued in 5 days.

# Warranty
Two years on all appliances.

# Contact
Call 555-0100.";

#[test]
fn keeps_best_sections_in_original_order_with_gaps() {
    let f = Focus::new("refund damaged items warranty")
        .text(FAQ, 220)
        .unwrap();
    assert_eq!(
        f.text,
        "[Kept 2 of 6 sections relevant to \"refund damaged items warranty\"]\n\n\
         [… 3 sections omitted …]\n\n\
         # Refunds\nRefunds for damaged items are issued in 5 days.\n\n\
         # Warranty\nTwo years on all appliances.\n\n\
         [… 1 section omitted …]"
    );
    assert!(f.text.chars().count() <= 220);
    assert_eq!((f.kept, f.total, f.unit), (2, 6, Unit::Sections));
}

#[test]
fn code_blocks_stay_whole() {
    // The heading inside the fence is not a section; the section is kept with its block.
    let f = Focus::new("tracking format").text(FAQ, 200).unwrap();
    assert_eq!(
        f.text,
        "[Kept 1 of 6 sections relevant to \"tracking format\"]\n\n\
         [… 2 sections omitted …]\n\n\
         # Shipping\nStandard parcels ship in 2 days.\n\n```text\n# tracking format\nACME-000123\n```\n\n\
         [… 3 sections omitted …]"
    );
}

#[test]
fn best_section_cut_stops_before_a_code_block() {
    let f = Focus::new("tracking format").text(FAQ, 178).unwrap();
    assert_eq!(
        f.text,
        "[Kept 1 of 6 sections relevant to \"tracking format\"]\n\n\
         [… 2 sections omitted …]\n\n\
         # Shipping\nStandard parcels ship in 2 days.…[+43 chars]\n\n\
         [… 3 sections omitted …]"
    );
    assert!(f.text.chars().count() <= 178);
}

#[test]
fn best_section_cut_by_characters_when_it_alone_does_not_fit() {
    let text = format!("# A\n{}\n\n# B\nnothing here", "refund ".repeat(40));
    let f = Focus::new("refund").text(&text, 100).unwrap();
    assert_eq!(
        f.text,
        "[Kept 1 of 2 sections relevant to \"refund\"]\n\n\
         # A\nrefund refund…[+267 chars]\n\n[… 1 section omitted …]"
    );
    assert_eq!(f.text.chars().count(), 100);
    assert_eq!(
        Focus::new("refund").text(&text, 60),
        Err(Fallback::TooSmall)
    );
}

#[test]
fn lower_ranked_sections_fill_the_rest_of_the_budget() {
    // "refund" ranks Refunds first; Ordering (no match) is never kept; a smaller match that
    // fits is kept after a larger one is skipped.
    let text = "# Policy\nrefund policy details ".to_string()
        + &"x ".repeat(100)
        + "\n\n# Refunds\nrefund policy\n\n# Ordering\nphone\n\n# Short\npolicy";
    let f = Focus::new("refund policy").text(&text, 145).unwrap();
    assert_eq!(
        f.text,
        "[Kept 2 of 4 sections relevant to \"refund policy\"]\n\n\
         [… 1 section omitted …]\n\n# Refunds\nrefund policy\n\n[… 1 section omitted …]\n\n# Short\npolicy"
    );
}

#[test]
fn fallbacks() {
    let focus = Focus::new("refund");
    assert_eq!(focus.text(FAQ, 10_000), Err(Fallback::Fits));
    assert_eq!(Focus::new("").text(FAQ, 10), Err(Fallback::NoQuery));
    assert_eq!(
        Focus::new("what is the").text(FAQ, 100),
        Err(Fallback::NoMatch)
    );
    assert_eq!(
        Focus::new("kangaroo").text(FAQ, 100),
        Err(Fallback::NoMatch)
    );
    assert_eq!(
        Focus::new("kangaroo").no_match_notice(),
        "[No section matched \"kangaroo\"]"
    );
    assert_eq!(focus.text(FAQ, 5), Err(Fallback::TooSmall));
    assert_eq!(focus.text("", 0), Err(Fallback::Fits));
}

#[test]
fn query_is_shown_on_one_line_and_cut() {
    let long = "refund ".repeat(30);
    let shown = Focus::new(&long).query().to_string();
    assert_eq!(
        shown.chars().count(),
        MAX_QUERY_CHARS + "…[+129 chars]".chars().count()
    );
    assert!(shown.ends_with("…[+129 chars]"));
}

#[test]
fn rows_ranked_and_fallbacks() {
    let rows: Vec<Vec<String>> = (0..10)
        .map(|i| {
            vec![
                format!("id{i}"),
                if i % 4 == 1 {
                    format!("refund case {i}")
                } else {
                    "other".into()
                },
            ]
        })
        .collect();
    let focus = Focus::new("refund");
    let r = focus.rank_rows(&rows, 2, RowOrder::Data).unwrap();
    assert_eq!((r.indices.as_slice(), r.total), (&[1, 5][..], 10));
    assert_eq!(r.notice, "[Kept 2 of 10 rows relevant to \"refund\"]");
    // Fewer matches than `top`: only the matches.
    assert_eq!(
        focus.rank_rows(&rows, 5, RowOrder::Ranked).unwrap().indices,
        [1, 5, 9]
    );
    assert_eq!(
        focus.rank_rows(&rows, 10, RowOrder::Data),
        Err(Fallback::Fits)
    );
    assert_eq!(
        focus.rank_rows(&rows, 0, RowOrder::Data),
        Err(Fallback::TooSmall)
    );
    assert_eq!(
        Focus::new("zebra").rank_rows(&rows, 2, RowOrder::Data),
        Err(Fallback::NoMatch)
    );
    assert_eq!(
        Focus::new("zebra").no_row_match_notice(),
        "[No row matched \"zebra\"]"
    );
}

/// A small deterministic generator (xorshift) for the properties below.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn generated(rng: &mut Rng) -> String {
    const WORDS: &[&str] = &[
        "refund", "policy", "ship", "order", "é", "李雷", "👍🏽", "x", "disk", "error",
    ];
    const LINES: &[&str] = &[
        "", "", "# Head", "## Sub", "```", "~~~", "text", "\r", "  ", "#",
    ];
    let mut s = String::new();
    for _ in 0..(rng.next() % 60) {
        match rng.next() % 3 {
            0 => s.push_str(rng.pick(LINES)),
            _ => {
                for _ in 0..(rng.next() % 8) {
                    s.push_str(rng.pick(WORDS));
                    s.push(' ');
                }
            }
        }
        s.push('\n');
    }
    s
}

/// Walks the body against the split: each piece is a gap line counting exactly the units of
/// the sections it stands for, or the verbatim text of the next section (or, cut, a prefix of
/// it with the right `…[+N chars]`), in order; every section is covered once.
fn check_body(text: &str, f: &Trimmed) -> Result<(), String> {
    let split = split::split(text);
    let sep = if f.unit == Unit::Lines { "\n" } else { "\n\n" };
    let sections: Vec<(&str, usize)> = split
        .sections
        .iter()
        .map(|s| (&text[s.range.clone()], s.units))
        .collect();
    let body = f.body();
    let (mut pos, mut i, mut kept) = (0, 0, 0);
    while pos < body.len() {
        if pos > 0 {
            if !body[pos..].starts_with(sep) {
                return Err(format!("no separator at {pos}"));
            }
            pos += sep.len();
        }
        let rest = &body[pos..];
        if let Some(gap) = rest.strip_prefix("[… ") {
            let line = gap.split('\n').next().unwrap_or("");
            let n: usize = line
                .split(' ')
                .next()
                .unwrap_or("")
                .parse()
                .map_err(|_| format!("bad gap {line:?}"))?;
            let mut units = 0;
            while units < n && i < sections.len() {
                units += sections[i].1;
                i += 1;
            }
            if units != n {
                return Err(format!("gap of {n} does not end on a section"));
            }
            pos += "[… ".len() + line.len();
            continue;
        }
        let (section, units) = *sections.get(i).ok_or("text after the last section")?;
        if rest.starts_with(section) {
            pos += section.len();
        } else {
            let at = rest
                .find("…[+")
                .ok_or_else(|| format!("section {i} not verbatim"))?;
            let prefix = &rest[..at];
            let marker = rest[at..].split(']').next().unwrap_or("");
            let want = format!(
                "…[+{} chars",
                section.chars().count() - prefix.chars().count()
            );
            if !section.starts_with(prefix) || marker != want {
                return Err(format!("bad cut of section {i}"));
            }
            pos += at + marker.len() + 1;
        }
        kept += units;
        i += 1;
    }
    if i != sections.len()
        || kept != f.kept
        || f.total != sections.iter().map(|s| s.1).sum::<usize>()
    {
        return Err(format!(
            "covered {i} of {} sections, kept {kept} units",
            sections.len()
        ));
    }
    Ok(())
}

/// Every omitted section is accounted for in a gap notice, the counts add up, the budget
/// holds, and kept sections are verbatim and whole (so fenced blocks are never split) unless
/// the one best section was cut.
#[test]
fn property_every_omission_is_announced_and_budget_holds() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut focused = 0;
    for case in 0..3000 {
        let text = generated(&mut rng);
        let budget = (rng.next() % 300) as usize;
        let query = ["refund policy", "disk error", "李雷", "x", "order shipped"][case % 5];
        let Ok(f) = Focus::new(query).text(&text, budget) else {
            continue;
        };
        focused += 1;
        assert!(
            f.text.chars().count() <= budget,
            "case {case}: over budget\n{text:?}\n{}",
            f.text
        );
        let notice = format!(
            "[Kept {} of {} {} relevant to \"{query}\"]",
            f.kept,
            f.total,
            f.unit.name(f.total)
        );
        assert_eq!(f.notice(), notice, "case {case}");
        if let Err(e) = check_body(&text, &f) {
            panic!("case {case}: {e}\n{text:?}\n{}", f.text);
        }
    }
    assert!(focused > 300, "only {focused} cases were focused");
}

/// The same with a line limit on the body (what the formatter uses for `max_lines`), alone
/// or with a character budget: both hold, every omission is announced, and the lines kept
/// are counted.
#[test]
fn property_line_limit_holds_and_every_omission_is_announced() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut focused = 0;
    for case in 0..3000 {
        let text = generated(&mut rng);
        let lines = (rng.next() % 20) as usize;
        let chars = rng
            .next()
            .is_multiple_of(2)
            .then(|| (rng.next() % 400) as usize);
        let query = ["refund policy", "disk error", "李雷", "x", "order shipped"][case % 5];
        let limits = Limits {
            chars,
            lines: Some(lines),
        };
        let Ok(f) = Focus::new(query).trim(&text, limits) else {
            continue;
        };
        focused += 1;
        let body_lines = crate::text::lines(f.body()).count();
        assert!(
            body_lines <= lines,
            "case {case}: {body_lines} lines over {lines}\n{text:?}\n{}",
            f.text
        );
        if let Some(c) = chars {
            assert!(f.text.chars().count() <= c, "case {case}: over budget");
        }
        if let Err(e) = check_body(&text, &f) {
            panic!("case {case}: {e}\n{text:?}\n{}", f.text);
        }
        // Lines kept: the lines of the body that are not gap lines or separators.
        let gaps = f.body().lines().filter(|l| l.starts_with("[… ")).count();
        assert!(f.lines <= body_lines - gaps.min(body_lines), "case {case}");
    }
    assert!(focused > 300, "only {focused} cases were focused");
}

/// The answer-survival measurement of the engine itself on the bundled documents (the same
/// measurement through the formatter is `tests/focus_eval.rs`; see BENCHMARKS.md):
/// `cargo test -p tool-output-format --release --lib focus::tests::eval -- --nocapture`.
mod eval {
    use serde_json::Value;

    use crate::focus::{Fallback, Focus};

    const BUDGETS: [usize; 3] = [2_000, 4_000, 8_000];

    fn doc(name: &str) -> &'static str {
        match name {
            "faq.md" => include_str!("../../../tests/data/focus/faq.md"),
            "readme.md" => include_str!("../../../tests/data/focus/readme.md"),
            "app.log" => include_str!("../../../tests/data/focus/app.log"),
            other => panic!(
                "questions.json names an unknown document {other:?}; expected faq.md, readme.md or app.log"
            ),
        }
    }

    fn questions() -> Vec<(String, String, String)> {
        let v: Value =
            serde_json::from_str(include_str!("../../../tests/data/focus/questions.json")).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .map(|q| {
                let s = |k: &str| q[k].as_str().unwrap().to_string();
                (s("doc"), s("question"), s("answer"))
            })
            .collect()
    }

    fn head(text: &str, n: usize) -> String {
        text.chars().take(n).collect()
    }

    fn head_tail(text: &str, n: usize) -> String {
        let total = text.chars().count();
        let tail: String = text.chars().skip(total.saturating_sub(n - n / 2)).collect();
        head(text, n / 2) + &tail
    }

    /// What the caller would show with focus: the focused text, or today's head cut after the
    /// no-match notice.
    fn focused(focus: &Focus, text: &str, n: usize) -> String {
        match focus.text(text, n) {
            Ok(f) => {
                assert!(f.text.chars().count() <= n, "over budget");
                f.text
            }
            Err(Fallback::Fits) => text.to_string(),
            Err(_) => head(text, n),
        }
    }

    #[test]
    fn focus_keeps_the_answer_far_more_often_than_head_cuts() {
        let qs = questions();
        assert_eq!(qs.len(), 30);
        for (d, _, a) in &qs {
            assert_eq!(
                doc(d).matches(a.as_str()).count(),
                1,
                "answer {a:?} must occur once in {d}"
            );
        }
        println!("\n| budget (chars) | document | focus | head | head+tail |");
        println!("|---|---|---|---|---|");
        let mut totals = Vec::new();
        for budget in BUDGETS {
            let (mut f_all, mut h_all, mut ht_all) = (0, 0, 0);
            for name in ["faq.md", "readme.md", "app.log"] {
                let (mut f, mut h, mut ht) = (0, 0, 0);
                for (d, q, a) in qs.iter().filter(|(d, _, _)| d == name) {
                    let text = doc(d);
                    let hit_f = focused(&Focus::new(q), text, budget).contains(a.as_str());
                    if !hit_f {
                        println!("  miss at {budget}: {d}: {q}");
                    }
                    f += usize::from(hit_f);
                    h += usize::from(head(text, budget).contains(a.as_str()));
                    ht += usize::from(head_tail(text, budget).contains(a.as_str()));
                }
                println!("| {budget} | {name} | {f}/10 | {h}/10 | {ht}/10 |");
                (f_all, h_all, ht_all) = (f_all + f, h_all + h, ht_all + ht);
            }
            println!("| {budget} | **all** | **{f_all}/30** | {h_all}/30 | {ht_all}/30 |");
            totals.push((budget, f_all, h_all, ht_all));
        }
        for &(budget, f, h, ht) in &totals {
            assert!(
                f > 3 * h.max(1) && f > ht,
                "at {budget} chars focus {f}/30 must beat 3x head {h} and head+tail {ht}"
            );
        }
        let at = |b: usize| totals.iter().find(|t| t.0 == b).unwrap().1;
        assert!(
            at(4_000) >= 25,
            "focus kept {}/30 answers at 4,000 chars, floor 25",
            at(4_000)
        );
        assert!(
            at(8_000) >= 27,
            "focus kept {}/30 answers at 8,000 chars, floor 27",
            at(8_000)
        );
    }
}
