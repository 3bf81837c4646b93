//! The answerability benchmark's question set is valid, and the floors hold
//! (`tof_support::answerability`; the table is `cargo run --example answerability`).
//!
//! `cargo test --test answerability -- --nocapture` prints the full table.

use serde_json::Value;
use tof_support::answerability::{self, BUDGETS, Corpus, Way};

fn toon(v: &Value) -> String {
    toon_format::encode_default(v).expect("TOON encodes any JSON")
}

fn corpus() -> Corpus {
    answerability::load().unwrap_or_else(|e| panic!("the question set does not load: {e}"))
}

/// Every string leaf of a value, and every number as JSON writes it.
fn leaves(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(a) => a.iter().for_each(|x| leaves(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push(k.clone());
            leaves(x, out);
        }),
        Value::Bool(_) | Value::Null => {}
    }
}

/// Each answer is copied from its response: it occurs in the compact or the pretty JSON, or
/// within one string value (an answer with a quote or a backslash, which JSON escapes).
#[test]
fn every_answer_occurs_in_its_response() {
    let corpus = corpus();
    let mut bad = Vec::new();
    for q in &corpus.questions {
        let r = corpus.response(q);
        let compact = serde_json::to_string(&r.value).unwrap();
        let pretty = serde_json::to_string_pretty(&r.value).unwrap();
        let mut values = Vec::new();
        leaves(&r.value, &mut values);
        for a in &q.answers {
            let found = compact.contains(a.as_str())
                || pretty.contains(a.as_str())
                || values.iter().any(|v| v.contains(a.as_str()));
            if !found {
                bad.push(format!("{}: {:?}: {a:?}", r.file, q.question));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "answers not in their response:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_set_is_large_and_varied_enough() {
    let corpus = corpus();
    let services = corpus.services();
    assert!(
        corpus.questions.len() >= 70,
        "{} questions",
        corpus.questions.len()
    );
    assert!(
        corpus.responses.len() >= 17,
        "{} responses",
        corpus.responses.len()
    );
    assert!(
        services.len() >= 9,
        "{} services: {services:?}",
        services.len()
    );
}

/// With no budget `Formatter::new()` answers every question, and the full table (every way
/// at every budget) is computed, so floors can be added here.
#[test]
fn with_no_budget_formatter_new_answers_every_question() {
    let corpus = corpus();
    let results = answerability::run(&corpus, toon);
    println!("{}", results.table());
    println!(
        "{}",
        results.missed_report(&corpus, Way::Agent, &[Some(1_000), Some(2_000)])
    );
    assert_eq!(results.cells.len(), Way::ALL.len() * BUDGETS.len());
    let plain = results.cell(Way::Plain, None);
    let missed: Vec<String> = plain
        .missed
        .iter()
        .map(|&i| {
            let q = &corpus.questions[i];
            format!("{}: {} ({})", q.response, q.question, q.answers.join(" / "))
        })
        .collect();
    assert!(
        missed.is_empty(),
        "Formatter::new() with no budget missed {} of {}:\n{}",
        missed.len(),
        plain.total,
        missed.join("\n")
    );
}

/// The agent preset answers every question with no budget, answers more than compact JSON
/// cut and TOON cut at the same length at every budget from 500 characters, reaches the
/// floors it has reached (raise them, never lower them), and is never longer than its budget.
#[test]
fn the_agent_preset_answers_more_than_cut_json_and_toon_and_stays_within_its_budget() {
    let corpus = corpus();
    let results = answerability::run(&corpus, toon);
    let agent = |b| results.cell(Way::Agent, b);
    assert_eq!(
        agent(None).answered,
        agent(None).total,
        "{}",
        results.table()
    );
    for budget in [Some(500), Some(1_000), Some(2_000), Some(4_000)] {
        for peer in [Way::Json, Way::Toon] {
            assert!(
                agent(budget).answered > results.cell(peer, budget).answered,
                "{:?} at {budget:?}:\n{}",
                peer,
                results.table()
            );
        }
    }
    // Floors: 500 characters 33%, 1,000 73%, 2,000 93.5%, 4,000 100%.
    for (budget, floor) in [(500, 33.0), (1_000, 73.0), (2_000, 93.5), (4_000, 100.0)] {
        assert!(
            agent(Some(budget)).percent() >= floor,
            "{budget}: {:.1}% < {floor}%\n{}",
            agent(Some(budget)).percent(),
            results.table()
        );
    }
    for budget in answerability::BUDGETS.into_iter().flatten() {
        assert_eq!(agent(Some(budget)).over_budget, 0, "{}", results.table());
    }
}

/// No text is longer than its budget at any budget from 200 characters up, for the agent
/// preset and `Formatter::new()`, on every recorded response; when nothing fits, the
/// left-out fields are counted rather than named.
#[test]
fn no_text_is_over_its_budget_from_200_characters_up() {
    use tool_output_format::Formatter;
    let corpus = corpus();
    for r in &corpus.responses {
        for budget in (200..=1_000).step_by(50) {
            for fmt in [Formatter::for_agents(), Formatter::new()] {
                let md = fmt.max_chars(budget).format(&r.name, &r.value);
                assert!(
                    md.chars().count() <= budget,
                    "{} at {budget}: {} chars\n{md}",
                    r.name,
                    md.chars().count()
                );
            }
        }
    }
}
