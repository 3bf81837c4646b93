//! The adversarial corpus: hostile strings, keys, numbers and shapes, each put in every
//! position a value can take (top-level string, table cell, table header, record key, record
//! value, nested record, list item, joined list, nested table), rendered with several option
//! sets and checked by `tof_support::check` (see its module docs for the properties).
//! Exact outputs where the contract is exact; the `regression_*` tests pin fixed bugs.

use serde_json::{Map, Value, json};
use tof_support::check::{self, Opts};
use tof_support::gfm;
use tool_output_format::{Formatter, Layout};

/// Hostile strings, one per scenario: `(what, text)`.
fn corpus() -> Vec<(String, String)> {
    let mut c: Vec<(String, String)> = [
        ("empty", ""),
        ("pipe", "|"),
        ("pipes", "a|b||c |"),
        ("backslash", "\\"),
        ("escaped pipe", "\\|"),
        ("x\\|y", "x\\|y"),
        ("trailing backslash", "abc\\"),
        ("double backslash", "\\\\"),
        ("escape lookalike", "\\u{41} \\n \\<br>"),
        ("LF", "a\nb"),
        ("CR", "a\rb"),
        ("CRLF", "a\r\nb"),
        ("mixed breaks", "a\r\nb\rc\nd\n"),
        ("only newline", "\n"),
        ("blank lines", "\n\n\n"),
        ("CR CR LF", "a\r\r\nb"),
        ("trailing newline", "line\n"),
        ("U+2028", "a\u{2028}b"),
        ("U+2029", "a\u{2029}b"),
        ("NEL", "a\u{85}b"),
        ("tilde fence", "~~~"),
        ("tilde block", "~~~\ncode\n~~~"),
        ("backtick block", "```\ncode\n```"),
        ("backtick block lang", "```rust\nfn main() {}\n```"),
        ("script", "<script>alert(1)</script>"),
        ("br", "a<br>b"),
        ("html comment", "<!-- x -->"),
        ("html block", "<div>\nx\n</div>"),
        ("autolink", "<https://example.com>"),
        ("entity pipe", "&#124; &lt;br&gt; &amp;"),
        ("heading", "# not a heading"),
        ("heading 6", "###### h"),
        ("bullet", "- item"),
        ("plus", "+ item"),
        ("quote", "> quote"),
        ("ordered", "1. one"),
        ("ordered paren", "1) one"),
        ("big ordered", "123456789. x"),
        ("thematic", "---"),
        ("setext", "==="),
        ("stars", "* * *"),
        ("underscores", "___"),
        ("indented code", "    code"),
        ("task", "[x] done"),
        ("task open", "[ ] todo"),
        ("link ref def", "[foo]: /url"),
        ("footnote def", "[^1]: note"),
        ("table forgery", "| a | b |\n|---|---|\n| 1 | 2 |"),
        (
            "block syntax lines",
            "x\n# h\n> q\n- l\n1. o\n---\n===\n* * *",
        ),
        ("NUL", "a\0b"),
        ("ESC", "\u{1b}"),
        ("ANSI", "\u{1b}[31mred\u{1b}[0m"),
        ("DEL", "a\u{7f}"),
        ("C1", "\u{9b}31m"),
        ("tab", "a\tb"),
        ("trailing tab", "a\t"),
        ("form feed", "a\u{c}b"),
        ("vertical tab", "a\u{b}b"),
        ("bidi override", "abc\u{202e}cba"),
        ("bidi isolates", "\u{2066}x\u{2069}\u{200f}\u{61c}"),
        ("zero width", "a\u{200b}b\u{200c}c\u{feff}"),
        ("ZWJ family", "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}"),
        ("emoji modifier", "\u{1f44d}\u{1f3fd}"),
        ("flag", "\u{1f1fa}\u{1f1f8}"),
        ("combining", "e\u{301}\u{301}\u{301}"),
        ("CJK", "李雷和韩梅梅"),
        ("fullwidth space", "\u{3000}x\u{3000}"),
        ("nbsp", "\u{a0}x\u{a0}"),
        ("leading space", " x"),
        ("trailing space", "x "),
        ("only spaces", "   "),
        ("space lines", "a \n \nb"),
        ("emphasis", "**bold** _em_ ~~del~~"),
        ("link", "[text](javascript:alert(1))"),
        ("image", "![alt](http://x/y.png)"),
        ("notice lookalike", "[Truncated to 1 rows of 2 total]"),
        ("colon", "a: b"),
        ("comma", "a, b"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    for n in 1..=10 {
        let run = "`".repeat(n);
        c.push((format!("backticks {n}"), run.clone()));
        c.push((format!("backticks {n} inside"), format!("a{run}b")));
        c.push((format!("backticks {n} lines"), format!("{run}\nx\n{run}")));
    }
    c
}

fn option_sets() -> Vec<Opts> {
    vec![
        Opts::default(),
        Opts {
            layout: Layout::Compact,
            tool: "get_message".into(),
            ..Opts::default()
        },
        Opts {
            max_lines: Some(1),
            max_rows: Some(1),
            tool: "t".into(),
            ..Opts::default()
        },
    ]
}

/// Every position a string can take, as `(position, value)`.
fn positions(s: &str) -> Vec<(&'static str, Value)> {
    let key = |k: &str, v: Value| Value::Object(Map::from_iter([(k.to_string(), v)]));
    vec![
        ("top-level string", json!(s)),
        ("table cell", json!([{"k": s, "n": 1}, {"k": "x", "n": 2}])),
        ("table header", json!([key(s, json!(1)), {"other": s}])),
        ("record key", key(s, json!("v"))),
        ("record value", json!({"k": s, "after": 1})),
        (
            "nested record",
            json!({"outer": {"k": s, "inner": key(s, json!(s))}, "after": 1}),
        ),
        ("list item", json!([s, "x", s])),
        ("mixed list", json!([s, {"k": s}, [s, 1]])),
        ("joined list", json!({"k": [s, "x"], "j": [s]})),
        (
            "nested table",
            json!({"rows": [key(s, json!(s)), {"k": s}]}),
        ),
        ("cell array", json!([{"k": [s, s], "o": {"s": s}}])),
    ]
}

#[test]
fn corpus_in_every_position_holds_every_property() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (what, s) in corpus() {
        for (pos, v) in positions(&s) {
            for o in option_sets() {
                checked += 1;
                if let Err(e) = check::render_and_check(&v, &o) {
                    failures.push(format!("[{what} as {pos}, {o:?}] {e}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn all_hostile_strings_at_once() {
    // Every corpus string as a column of one wide row, as keys, and as one long text.
    let all: Vec<String> = corpus().into_iter().map(|(_, s)| s).collect();
    let row: Map<String, Value> = all
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("{i}{s}"), json!(s)))
        .collect();
    let rows = Value::Array(vec![Value::Object(row.clone()), Value::Object(row.clone())]);
    for o in option_sets() {
        check::render_and_check(&rows, &o).unwrap();
        check::render_and_check(&Value::Object(row.clone()), &o).unwrap();
        check::render_and_check(&json!(all.concat()), &o).unwrap();
        check::render_and_check(&json!(all), &o).unwrap();
    }
}

/// Numbers at the i64 / u64 / f64 edges, exactly as serde_json writes them, everywhere.
#[test]
fn edge_numbers_print_exactly() {
    // Integers are exact whatever the float printer; floats are as serde_json writes them.
    let integers = [
        ("0", "0"),
        ("18446744073709551615", "18446744073709551615"),
        ("-9223372036854775808", "-9223372036854775808"),
        ("9223372036854775807", "9223372036854775807"),
    ];
    for (text, want) in integers {
        let n: Value = serde_json::from_str(text).unwrap();
        assert_eq!(Formatter::new().format("t", &n), want);
    }
    let cases = [
        "0",
        "-0",
        "1.0",
        "-1.5",
        "1e20",
        "1E+2",
        "0.30000000000000004",
        "18446744073709551615",
        "-9223372036854775808",
        "9223372036854775807",
        "1.7976931348623157e308",
        "-1.7976931348623157e308",
        "5e-324",
        "18446744073709551616",
        "123456789012345678901234567890",
    ];
    let fmt = Formatter::new();
    for text in cases {
        let n: Value = serde_json::from_str(text).unwrap();
        let want = n.to_string();
        assert_eq!(fmt.format("t", &n), want, "top-level {text}");
        let pad = want.len().max(1);
        assert_eq!(
            fmt.format("t", &json!([{ "n": n }])),
            format!("| {:pad$} |\n|{}|\n| {want} |", "n", "-".repeat(pad + 2)),
            "cell {text}"
        );
        assert_eq!(
            fmt.format("t", &json!({ "n": n, "l": [n, n] })),
            format!("**t result**\n\n- n: {want}\n- l: {want}, {want}"),
            "record {text}"
        );
        assert_eq!(fmt.format("", &json!([n])), format!("- {want}"));
        for o in option_sets() {
            check::render_and_check(&json!([{ "n": n, "m": [n, {"x": n}] }]), &o).unwrap();
        }
    }
}

/// Exact outputs where the contract (SPEC.md and the documented escape mapping) is exact.
#[test]
fn exact_outputs() {
    let fmt = Formatter::new();
    let cases: Vec<(Value, &str)> = vec![
        (json!(null), "null"),
        (json!(true), "true"),
        (json!([]), "*(empty)*"),
        (json!(""), "```\n```"),
        (json!("a |b"), "```\na |b\n```"),
        (json!("x ```` y"), "`````\nx ```` y\n`````"),
        (json!("a\r\nb\rc"), "```\na\nb\nc\n```"),
        (
            json!("\u{1b}[31mred\u{1b}[0m "),
            "```\n\\u{1B}[31mred\\u{1B}[0m\\u{20}\n```",
        ),
        (json!("a\tb\t"), "```\na\tb\\u{9}\n```"),
        (
            json!([{"a": "x|y"}, {"a": "x\\|y"}, {"a": "z\\"}]),
            "| a     |\n|-------|\n| x\\|y  |\n| x\\\\|y |\n| z\\    |",
        ),
        (
            json!([{"a|b": "1\r\n2", "": " s "}]),
            "| a\\|b   |               |\n|--------|---------------|\n| 1<br>2 | \\u{20}s\\u{20} |",
        ),
        (
            json!([{"k": "<br>\u{0}\u{202e}"}]),
            "| k                  |\n|--------------------|\n| \\<br>\\u{0}\\u{202E} |",
        ),
        (
            json!(["# h", "- l", "> q", "1. o", "---"]),
            "- \\# h\n- \\- l\n- \\> q\n- 1\\. o\n- \\---",
        ),
        (json!({"# k": "# v"}), "- \\# k: # v"),
        (json!([{"李雷": "é"}]), "| 李雷 |\n|------|\n| é    |"),
    ];
    for (v, want) in cases {
        let got = fmt.format("", &v);
        assert_eq!(got, want, "rendering {v}");
        check::check(&v, &Opts::default(), &got).unwrap();
    }
}

#[test]
fn keys_that_are_empty_or_hostile() {
    let v = json!([{"": 1, "|": 2, "a\nb": 3, "a\\": 4, " ": 5}, {"": 6}]);
    let md = check::render_and_check(&v, &Opts::default()).unwrap();
    let grid = &gfm::comrak(&md).tables[0];
    let header: Vec<String> = grid[0].iter().map(|c| gfm::unescape(c)).collect();
    assert_eq!(header, ["", "|", "a\nb", "a\\", " "]);
    check::render_and_check(&v[0], &Opts::default()).unwrap();
}

#[test]
fn one_megabyte_cell() {
    let plain = "x".repeat(1 << 20);
    let hostile = "a|b\\\r\n<br>`\u{1b}".repeat((1 << 20) / 12);
    for s in [plain, hostile] {
        let rows = json!([{"k": s, "n": 1}, {"k": "short", "n": 2}]);
        let md = check::render_and_check(&rows, &Opts::default()).unwrap();
        // The long cell does not widen its column: the short row is not padded by a megabyte.
        let short = md.lines().last().unwrap();
        assert!(short.len() < 60, "padding capped: {} bytes", short.len());
        check::render_and_check(&json!({"k": s}), &Opts::default()).unwrap();
        check::render_and_check(&json!(s), &Opts::default()).unwrap();
    }
}

/// Build `[[[...null...]]]` or `{"a":{"a":...}}` `depth` levels deep without recursion.
fn deep(depth: usize, object: bool) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = if object {
            Value::Object(Map::from_iter([("a".to_string(), v)]))
        } else {
            Value::Array(vec![v])
        };
    }
    v
}

/// Drop a value without recursion (serde_json's `Drop` recurses once per level).
fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(m) => stack.extend(m.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Run `f` on a thread with a 2 MiB stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn hundred_thousand_deep_array_and_object() {
    for object in [false, true] {
        let result = on_small_stack(move || {
            let v = deep(100_000, object);
            let wrapped = json!([{"cell": null}]);
            let mut results = Vec::new();
            for o in option_sets() {
                results.push(check::render_and_check(&v, &o));
            }
            // The same value inside a table cell and inside a record.
            let mut cell = wrapped;
            cell[0]["cell"] = v;
            results.push(check::render_and_check(&cell, &Opts::default()));
            let Value::Array(mut rows) = cell else {
                unreachable!()
            };
            let v = rows[0]["cell"].take();
            // Not `json!({ "deep": v })`: `json!` goes through `to_value`, which recurses.
            let rec = Value::Object(Map::from_iter([("deep".to_string(), v)]));
            results.push(check::render_and_check(&rec, &Opts::default()));
            dismantle(rec);
            results
        });
        for r in result {
            let md = r.unwrap();
            assert!(
                md.contains("[Truncated at depth 32: "),
                "depth cut announced"
            );
        }
    }
}

#[test]
fn deep_value_count_is_exact() {
    let md = on_small_stack(|| {
        let v = deep(100_000, false);
        let md = Formatter::new().format("", &v);
        dismantle(v);
        md
    });
    // 32 arrays shown (the top one and 31 nested), then the rest of the 100,000 arrays and
    // the null: 100,001 - 32 values.
    assert!(
        md.ends_with("- [Truncated at depth 32: 99969 nested values omitted]"),
        "{}",
        &md[md.len() - 80..]
    );
    assert_eq!(md.lines().count(), 32);
}

#[test]
fn hundred_thousand_wide_object() {
    let wide: Map<String, Value> = (0..100_000).map(|i| (format!("k{i}"), json!(i))).collect();
    let v = Value::Object(wide);
    let md = check::render_and_check(&v, &Opts::default()).unwrap();
    assert_eq!(md.lines().count(), 100_000);
    // The same keys as table columns: more than GFM parsers read as a table row, so the
    // records are listed instead (regression: comrak saw a paragraph, not a table).
    let rows = Value::Array(vec![v.clone(), json!({"k0": "x"})]);
    let md = Formatter::new().layout(Layout::Compact).format("", &rows);
    assert!(md.starts_with(
        "-
  - k0: 0
  - k1: 1
"
    ));
    assert!(md.ends_with(
        "  - k99999: 99999
-
  - k0: x"
    ));
    let o = Opts {
        layout: Layout::Compact,
        ..Opts::default()
    };
    check::check(&rows, &o, &md).unwrap();
    // At the limit it is still a table, and both parsers read it as one.
    let at_limit: Map<String, Value> = (0..check::MAX_COLUMNS)
        .map(|i| (format!("{i}"), json!(i % 10)))
        .collect();
    let rows = Value::Array(vec![Value::Object(at_limit)]);
    let md = check::render_and_check(&rows, &o).unwrap();
    assert_eq!(md.lines().count(), 3);
}

#[test]
fn million_rows_are_capped_with_exact_counts() {
    let rows = Value::Array((0..1_000_000).map(|i| json!({"id": i})).collect());
    let start = std::time::Instant::now();
    let md = Formatter::new().format("", &rows);
    let took = start.elapsed();
    assert!(md.starts_with("[Truncated to 100 rows of 1000000 total]\n\n| id |"));
    assert_eq!(md.lines().count(), 2 + 2 + 100);
    assert!(md.ends_with("| 99 |"));
    check::check(&rows, &Opts::default(), &md).unwrap();
    // Linear: generous bound for a debug build on a busy 2-core machine.
    assert!(took.as_secs() < 20, "{took:?}");
    let md = Formatter::new()
        .max_rows(3)
        .format("", &Value::Array(vec![json!({"a": 1}); 5]));
    assert!(md.starts_with("[Truncated to 3 rows of 5 total]\n\n"));
}

/// Render with default options (no tool name), check every property, return the output.
fn checked(v: &Value) -> String {
    check::render_and_check(v, &Opts::default()).unwrap()
}

// Regressions: each was found by the corpus above and fixed in the runtime.

#[test]
fn regression_empty_string_list_item_has_no_trailing_space() {
    // Was `- ` (a trailing space, against the pinned "no line has trailing spaces").
    assert_eq!(checked(&json!(["", "a"])), "-\n- a");
}

#[test]
fn regression_joined_list_with_empty_strings_is_listed() {
    // Was `- k: , a` and `- j: ` (an empty string vanished, a trailing space).
    assert_eq!(
        checked(&json!({"k": ["", "a"], "j": [""]})),
        "- k:\n\n  -\n  - a\n- j:\n\n  -"
    );
}

#[test]
fn regression_joined_list_in_list_item_cannot_open_a_block() {
    // Was `- # h, 1` (a heading), `- - x, 1` (a nested list), `- ```, 1` (a fence).
    assert_eq!(checked(&json!([["# h", 1]])), "- \\# h, 1");
    assert_eq!(checked(&json!([["- x", 1]])), "- \\- x, 1");
    assert_eq!(checked(&json!([["```", 1]])), "- \\```, 1");
    assert_eq!(checked(&json!([["1. x", 1]])), "- 1\\. x, 1");
}

#[test]
fn regression_bare_item_under_a_key_is_not_a_setext_underline() {
    // Was `- k:\n  -\n    - a: 1`: an empty item cannot interrupt a paragraph, so `-` read
    // as a setext underline and `k:` became a heading.
    assert_eq!(
        checked(&json!({"k": [{"a": 1}, 2]})),
        "- k:\n\n  -\n    - a: 1\n  - 2"
    );
    assert_eq!(
        checked(&json!({"k": [[1, {}], 2]})),
        "- k:\n\n  -\n    - 1\n    - {}\n  - 2"
    );
}

#[test]
fn regression_table_in_a_bare_item_stays_inside_it() {
    // Was `-\n\n  | a |`: an item may begin with at most one blank line, so the item was
    // empty and the table sat outside the list.
    assert_eq!(
        checked(&json!([[{"a": 1}], 2])),
        "-\n  | a |\n  |---|\n  | 1 |\n- 2"
    );
    let s = gfm::comrak(&checked(&json!([[{"a": 1}], 2]))).shape;
    assert_eq!(s.tables, [1]);
}

#[test]
fn regression_bracket_at_line_start_cannot_define_links_or_tasks() {
    // Was `- [foo]: /url` (a link reference definition: the field vanished when rendered)
    // and `- [x] done` (a task-list checkbox).
    assert_eq!(checked(&json!({"[foo]": "/url"})), "- \\[foo]: /url");
    assert_eq!(
        checked(&json!(["[x] done", "[^1]: n"])),
        "- \\[x] done\n- \\[^1]: n"
    );
    assert_eq!(
        check::extensions_forged(&checked(&json!({"[foo]": "/url"}))),
        0
    );
}

#[test]
fn regression_truncated_string_keeps_an_empty_last_kept_line() {
    // Was "```\na\n```": the kept empty second line was cut with its terminator, so the
    // block showed 1 line under a notice saying 2 were kept.
    let fmt = Formatter::new().max_lines(2);
    assert_eq!(
        fmt.format("", "a\n\nb"),
        "[Truncated to 2 lines of 3 total]\n\n```\na\n\n```"
    );
    assert_eq!(
        Formatter::new().max_lines(1).format("", "\r\n\r\n"),
        "[Truncated to 1 lines of 2 total]\n\n```\n\n```"
    );
}

#[test]
fn hostile_tool_names_do_not_break_the_text_rules() {
    for tool in ["a\nb", "x ", "\u{1b}[31m", "# h", "**"] {
        let md = Formatter::new().format(tool, &json!({"k": 1}));
        check::check_text(&md).unwrap_or_else(|e| panic!("tool {tool:?}: {e}\n{md}"));
        assert_eq!(gfm::pulldown(&md).shape.items, [1], "tool {tool:?}\n{md}");
    }
}

#[test]
fn regression_tool_name_in_the_title_is_escaped() {
    // Was written raw: a newline in a tool name could start a heading, ESC appeared raw.
    let fmt = Formatter::new();
    assert_eq!(
        fmt.format("a\n# b\u{1b}", &json!({"k": 1})),
        "**a<br># b\\u{1B} result**\n\n- k: 1"
    );
    assert_eq!(
        fmt.format("get_message", &json!({"k": 1})),
        "**get_message result**\n\n- k: 1"
    );
}

#[test]
fn regression_empty_list_in_a_list_item() {
    // Found by the property tests (`[[]]`) after the joined-list change: an empty list
    // counted as joinable and was written `- ` instead of `- []`.
    assert_eq!(checked(&json!([[]])), "- []");
    assert_eq!(checked(&json!({"k": [[], 1]})), "- k:\n  - []\n  - 1");
}

#[test]
fn regression_line_break_starting_a_list_item() {
    // Found by the property tests (`[["\n"]]`): `- <br>` is a line holding only an HTML
    // tag, which opens an HTML block. A leading break at an item start is `\u{A}`.
    assert_eq!(checked(&json!([["\n"]])), "- \\u{A}");
    assert_eq!(checked(&json!([["\r\n# x", 1]])), "- \\u{A}# x, 1");
    assert_eq!(checked(&json!({"\n": 1})), "- \\u{A}: 1");
}
