//! The built `tof` binary, run as a user runs it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};
use tool_output_format::Formatter;

const TOF: &str = env!("CARGO_BIN_EXE_tof");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// Run `tof` with `args`, `stdin` piped in (from a thread, so large inputs cannot block).
fn tof(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(TOF)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tof");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // tof may stop reading early (an error): a broken pipe here is fine.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn data(file: &str) -> String {
    format!("{DATA}/{file}")
}

fn stdout(o: &Output) -> &str {
    std::str::from_utf8(&o.stdout).unwrap()
}

fn stderr(o: &Output) -> &str {
    std::str::from_utf8(&o.stderr).unwrap()
}

/// Exit code, stdout, stderr.
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let o = tof(args, stdin.as_bytes());
    (
        o.status.code().unwrap(),
        stdout(&o).to_owned(),
        stderr(&o).to_owned(),
    )
}

const TEAM: &str = "\
| name  | role     | team    |
|-------|----------|---------|
| Alice | engineer | infra   |
| Bob   | PM       | product |
| Carol | designer | product |
";

#[test]
fn a_json_file_becomes_an_aligned_table() {
    assert_eq!(
        run(&[&data("team.json")], ""),
        (0, TEAM.to_owned(), String::new())
    );
}

#[test]
fn standard_input_when_no_file_or_a_dash() {
    let team = std::fs::read_to_string(data("team.json")).unwrap();
    assert_eq!(run(&[], &team), (0, TEAM.to_owned(), String::new()));
    assert_eq!(run(&["-"], &team), (0, TEAM.to_owned(), String::new()));
    let message = std::fs::read_to_string(data("message.json")).unwrap();
    assert_eq!(
        run(&["--tool", "get_message"], &message).1,
        "**get_message result**\n\n- id: msg_001\n- status: delivered\n- latency_ms: 142\n"
    );
}

#[test]
fn ndjson_is_one_table_with_columns_from_every_line() {
    let input = "{\"id\":1,\"name\":\"Ada\"}\n\n{\"id\":2,\"team\":\"infra\"}\r\n{\"name\":\"Bo\",\"id\":3}\n";
    let want = "\
| id | name | team  |
|----|------|-------|
| 1  | Ada  |       |
| 2  |      | infra |
| 3  | Bo   |       |
";
    assert_eq!(run(&[], input), (0, want.to_owned(), String::new()));
    // The layout flag applies to NDJSON too.
    assert_eq!(
        run(&["--layout", "compact"], input).1,
        "|id|name|team|\n|-|-|-|\n|1|Ada||\n|2||infra|\n|3|Bo||\n"
    );
}

#[test]
fn the_ndjson_flag_makes_one_line_a_table() {
    let one = "{\"id\":1}\n";
    assert_eq!(run(&[], one).1, "- id: 1\n");
    assert_eq!(run(&["--ndjson"], one).1, "| id |\n|----|\n| 1  |\n");
}

#[test]
fn several_pretty_printed_values_are_records_too() {
    let input = "{\n  \"id\": 1\n}\n{\n  \"id\": 2\n}\n";
    assert_eq!(run(&[], input).1, "| id |\n|----|\n| 1  |\n| 2  |\n");
}

#[test]
fn bad_json_names_file_line_column_and_prints_nothing() {
    let (code, out, err) = run(&[], "[\n  1,\n  2 3\n]\n");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (2, "", "<stdin>:3:5: expected `,` or `]`\n")
    );

    let dir = std::env::temp_dir().join(format!("tof-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.ndjson");
    std::fs::write(&file, "{\"a\":1}\n{\"a\":2}\n{\"a\":3,}\n").unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = run(&[path], "");
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err, format!("{path}:3:8: trailing comma\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_exit_codes_and_messages() {
    let cases: [(&[&str], &str, i32, &str); 4] = [
        (
            &[],
            "{\"a\":1}\n[1, 2]\n",
            2,
            "<stdin>:2:1: expected a JSON object (a record) but found an array; each NDJSON line \
             is one row of the table (wrap a list of values in a JSON array instead)\n",
        ),
        (
            &[],
            "\n\n",
            2,
            "<stdin>: the input is empty: expected a JSON document or NDJSON records\n",
        ),
        (
            &["--max-rows", "1"],
            "{\"a\":1}\n{\"a\":2}\n{\"a\":\"\\q\"}\n",
            2,
            "<stdin>:3:8: invalid escape\n",
        ),
        (
            &["/nonexistent/in.json"],
            "",
            1,
            "tof: error opening /nonexistent/in.json: No such file or directory (os error 2)\n",
        ),
    ];
    for (args, input, code, err) in cases {
        assert_eq!(
            run(args, input),
            (code, String::new(), err.to_owned()),
            "{args:?} {input:?}"
        );
    }
}

#[test]
fn max_rows_cuts_and_announces() {
    let (code, out, _) = run(&["--max-rows", "2", &data("team.json")], "");
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "[Truncated to 2 rows of 3 total]\n\n\
         | name  | role     | team    |\n\
         |-------|----------|---------|\n\
         | Alice | engineer | infra   |\n\
         | Bob   | PM       | product |\n"
    );
    // The same through NDJSON (the reader keeps 3 rows of 4 and counts the last).
    let ndjson = "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n{\"n\":4,\"late\":true}\n";
    assert_eq!(
        run(&["--max-rows", "2"], ndjson).1,
        "[Truncated to 2 rows of 4 total]\n\n| n | late |\n|---|------|\n| 1 |      |\n| 2 |      |\n"
    );
}

#[test]
fn max_lines_and_strategy_cut_strings() {
    let text = json!("one\ntwo\nthree\nfour").to_string();
    assert_eq!(
        run(&["--max-lines", "2"], &text).1,
        "[Truncated to 2 lines of 4 total]\n\n```\none\ntwo\n```\n"
    );
    assert_eq!(
        run(&["--max-lines", "2", "--strategy", "tail"], &text).1,
        "[Truncated to the last 2 lines of 4 total]\n\n```\nthree\nfour\n```\n"
    );
    assert_eq!(
        run(&["--max-lines", "2", "--strategy", "head-tail"], &text).1,
        "[Truncated to 2 lines of 4 total: the first 1 and the last 1]\n\n```\none\n… [2 lines omitted] …\nfour\n```\n"
    );
}

#[test]
fn max_cell_chars_shortens_values() {
    assert_eq!(
        run(
            &["--max-cell-chars", "3"],
            "{\"a\":\"abcdefghijklmnopqrstuvwxyz\"}"
        )
        .1,
        "- a: abc…[+23 chars]\n"
    );
}

#[test]
fn budgets_hold_for_files_and_streams() {
    let rows: Vec<Value> = (0..5000)
        .map(|i| json!({"id": i, "name": format!("user{i}")}))
        .collect();
    let ndjson: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let array = Value::Array(rows).to_string();
    for input in [&ndjson, &array] {
        let (code, out, err) = run(&["--max-chars", "300", "--report"], input);
        assert_eq!(code, 0);
        assert!(out.trim_end().chars().count() <= 300, "{out}");
        assert!(out.starts_with("[Truncated to "), "{out}");
        assert!(
            out.lines()
                .next()
                .unwrap()
                .ends_with(" rows of 5000 total]")
        );
        assert!(err.contains(" of 5000 kept"), "{err}");

        let (code, out, err) = run(&["--max-tokens", "100", "--report"], input);
        assert_eq!(code, 0);
        assert!(
            out.lines()
                .next()
                .unwrap()
                .ends_with(" rows of 5000 total]")
        );
        let tokens: usize = err
            .split([',', ';'])
            .find_map(|p| p.trim().strip_suffix(" tokens (o200k)"))
            .unwrap()
            .parse()
            .unwrap();
        assert!(tokens <= 100, "{err}");
    }
}

#[test]
fn report_goes_to_standard_error() {
    let (code, out, err) = run(&["--report", "--max-rows", "2", &data("team.json")], "");
    assert_eq!(code, 0);
    assert!(out.starts_with("[Truncated to 2 rows of 3 total]"));
    assert_eq!(
        err,
        "report: 157 chars, 157 bytes, 46 tokens (o200k); rows: 2 of 3 kept; 1 notice\n"
    );
}

#[test]
fn usage_errors_exit_64_and_help_shows_an_example() {
    let (code, out, err) = run(&["--bogus"], "");
    assert_eq!((code, out.as_str()), (64, ""));
    assert!(
        err.starts_with("error: unexpected argument '--bogus' found"),
        "{err}"
    );
    let (code, _, err) = run(&["--layout", "fancy"], "");
    assert_eq!(code, 64);
    assert!(
        err.contains("[possible values: aligned, compact, csv]"),
        "{err}"
    );
    let (code, _, _) = run(&["--max-rows", "-1"], "");
    assert_eq!(code, 64);

    let (code, out, err) = run(&["--help"], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("Examples:\n  tof results.json\n"), "{out}");
    assert!(out.contains("Exit codes:"), "{out}");
    assert!(out.contains("--max-tokens <N>"), "{out}");
}

#[test]
fn shape_files_shape_the_output_and_mistakes_exit_2() {
    let dir = std::env::temp_dir().join(format!("tof-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(
        &good,
        r#"{"keep": ["id", "user.login", "at"], "rename": {"user.login": "author"},
            "convert": {"at": "epoch_seconds"}, "drop_empty": true}"#,
    )
    .unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"keep": ["id"], "kepp": []}"#).unwrap();
    let malformed = dir.join("malformed.json");
    std::fs::write(&malformed, r#"{"drop": ["user..id"]}"#).unwrap();
    let (good, bad, malformed) = (
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        malformed.to_str().unwrap(),
    );

    let input = r#"[{"id": 1, "user": {"login": "ada", "id": 9}, "at": 1703203200, "x": null},
                    {"id": 2, "user": {"login": "bo"}, "at": "soon"}]"#;
    let (code, out, err) = run(&["--shape", good, "--layout", "compact"], input);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "|id|author|at|\n|-|-|-|\n|1|ada|2023-12-22T00:00:00Z|\n|2|bo|soon|\n"
    );
    // NDJSON records are shaped the same way.
    let ndjson = "{\"id\": 1, \"user\": {\"login\": \"ada\"}, \"at\": 0}\n{\"id\": 2}\n";
    let (code, out, _) = run(&["--shape", good, "--layout", "compact"], ndjson);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "|id|author|at|\n|-|-|-|\n|1|ada|1970-01-01T00:00:00Z|\n|2|||\n"
    );

    let (code, out, err) = run(&["--shape", bad], "[]");
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "{bad}: shape \"kepp\": unknown key; a shape file has the keys `keep`, `drop`, `rename`, `convert`, `drop_empty`, `flatten`, `essential`, `minor`\n"
        )
    );
    let (code, out, err) = run(&["--shape", malformed], "[]");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.starts_with(&format!(
            "{malformed}: shape drop[0]: malformed pattern `user..id`"
        )),
        "{err}"
    );
    let (code, _, _) = run(&["--shape", "/nonexistent/shape.json"], "[]");
    assert_eq!(code, 1);

    // The same shape as TOML (chosen by the `.toml` extension) gives the same output.
    let good_toml = dir.join("good.toml");
    std::fs::write(
        &good_toml,
        "keep = [\"id\", \"user.login\", \"at\"]\ndrop_empty = true\n\n\
         [rename]\n\"user.login\" = \"author\"\n\n[convert]\nat = \"epoch_seconds\"\n",
    )
    .unwrap();
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "keep = [\"id\"]\ndrop_empty = yes\n").unwrap();
    let (good_toml, bad_toml) = (good_toml.to_str().unwrap(), bad_toml.to_str().unwrap());
    let (code, out, err) = run(&["--shape", good_toml, "--layout", "compact"], input);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "|id|author|at|\n|-|-|-|\n|1|ada|2023-12-22T00:00:00Z|\n|2|bo|soon|\n"
    );
    let (code, out, err) = run(&["--shape", bad_toml], "[]");
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!(
            "{bad_toml}:2:14: not valid TOML: string values must be quoted, expected literal string\n"
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `csv::Reader` records of a text, the header first (notice lines end at the blank line).
fn read_csv(out: &str) -> Vec<Vec<String>> {
    let csv = match out.split_once("\n\n") {
        Some((head, rest)) if head.starts_with('[') => rest,
        _ => out,
    };
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

#[test]
fn csv_reads_back_as_the_data() {
    let (code, out, err) = run(&["--layout", "csv", &data("team.json")], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "name,role,team\nAlice,engineer,infra\nBob,PM,product\nCarol,designer,product\n"
    );
    let rows = [
        json!({"id": 1, "note": "a, \"quoted\"\nline", "f": "=1+1"}),
        json!({"id": 2, "note": null, "f": "-5", "late": true}),
        json!({"id": 3, "note": " x ", "f": "@x"}),
    ];
    let ndjson: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let (code, out, _) = run(&["--layout", "csv", "--max-rows", "2"], &ndjson);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("[Truncated to 2 rows of 3 total]\n\n"),
        "{out}"
    );
    assert_eq!(
        read_csv(&out),
        [
            vec!["id", "note", "f", "late"],
            vec!["1", "a, \"quoted\"\nline", "=1+1", ""],
            vec!["2", "", "-5", "true"],
        ]
    );
}

#[test]
fn json_is_the_structured_form_with_its_notices() {
    let (code, out, err) = run(&["--json", "--max-rows", "2", &data("team.json")], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.ends_with('\n') && out.lines().count() == 1, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        json!({
            "result": [
                {"name": "Alice", "role": "engineer", "team": "infra"},
                {"name": "Bob", "role": "PM", "team": "product"},
            ],
            "notices": [{"kind": "rows", "path": "", "kept": 2, "total": 3,
                         "text": "[Truncated to 2 rows of 3 total]"}]
        })
    );
    // A document, with the tool's report on standard error.
    let (code, out, err) = run(
        &["--json", "--report", "--tool", "t"],
        r#"{"a": [1, 2], "b": null}"#,
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        json!({"result": {"a": [1, 2], "b": null}, "notices": []})
    );
    let n = out.trim_end().len();
    assert!(
        err.starts_with(&format!("report: {n} chars, {n} bytes, ")),
        "{err}"
    );
    // A budget holds for the JSON text.
    let big: Vec<Value> = (0..2000)
        .map(|i| json!({"id": i, "name": format!("n{i}")}))
        .collect();
    let ndjson: String = big.iter().map(|r| format!("{r}\n")).collect();
    let (code, out, _) = run(&["--json", "--max-chars", "500"], &ndjson);
    assert_eq!(code, 0);
    assert!(out.trim_end().chars().count() <= 500, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["notices"][0]["total"], 2000);
    assert_eq!(
        v["notices"][0]["kept"],
        v["result"].as_array().unwrap().len()
    );
}

/// The stream's true total reaches the library through `Rows`, in every form.
#[test]
fn ndjson_totals_come_from_the_library() {
    let mut rows: Vec<Value> = (0..1000).map(|i| json!({"id": i})).collect();
    rows[900] = json!({"id": 900, "late": "x"});
    let ndjson: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let whole = Value::Array(rows);
    for (args, fmt) in [
        (
            vec!["--max-rows", "3", "--layout", "csv"],
            Formatter::new()
                .max_rows(3)
                .layout(tool_output_format::Layout::Csv),
        ),
        (
            vec!["--max-rows", "3", "--max-chars", "90"],
            Formatter::new().max_rows(3).max_chars(90),
        ),
    ] {
        assert_eq!(
            run(&args, &ndjson).1,
            fmt.format("", &whole) + "\n",
            "{args:?}"
        );
        let mut json_args = args.clone();
        json_args.push("--json");
        let got: Value = serde_json::from_str(&run(&json_args, &ndjson).1).unwrap();
        assert_eq!(got, fmt.format_json("", &whole), "{args:?}");
    }
}

/// A stream cut by the reader renders byte for byte like the library's output for the whole
/// array: the same columns (keys first seen after the kept rows included), the same notice.
#[test]
fn a_cut_stream_equals_the_library_on_the_whole_array() {
    let mut rows: Vec<Value> = (0..5000)
        .map(|i| json!({"id": i, "name": format!("user{i}")}))
        .collect();
    rows[4000] = json!({"id": 4000, "extra": [1, 2], "name": "x"});
    rows[4999] = json!({"last": null});
    let ndjson: String = rows.iter().map(|r| format!("{r}\n")).collect();
    for (args, fmt) in [
        (vec![], Formatter::new()),
        (vec!["--max-rows", "7"], Formatter::new().max_rows(7)),
        (
            vec!["--max-lines", "3", "--layout", "compact"],
            Formatter::new()
                .max_lines(3)
                .layout(tool_output_format::Layout::Compact),
        ),
    ] {
        let want = fmt.format("", &Value::Array(rows.clone())) + "\n";
        assert_eq!(run(&args, &ndjson).1, want, "{args:?}");
    }
}

/// 200,000 lines piped in: the notice has the true total; the process keeps only the rows it
/// shows (peak memory is measured by hand, see the crate README).
#[test]
fn a_200_000_line_stream_is_counted_not_kept() {
    let mut input = Vec::with_capacity(200_000 * 60);
    for i in 0..200_000 {
        writeln!(
            input,
            "{{\"id\":{i},\"sku\":\"SKU-{i:06}\",\"price\":{}.5,\"ok\":{}}}",
            i % 997,
            i % 2 == 0
        )
        .unwrap();
    }
    input.extend_from_slice(b"{\"id\":200000,\"note\":\"the last line adds a column\"}\n");
    let o = tof(&["--max-rows", "100"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("[Truncated to 100 rows of 200001 total]")
    );
    assert_eq!(lines.next(), Some(""));
    assert_eq!(
        lines.next(),
        Some("| id | sku        | price | ok    | note |")
    );
    assert_eq!(out.lines().count(), 2 + 2 + 100);
    assert_eq!(
        out.lines().last(),
        Some("| 99 | SKU-000099 | 99.5  | false |      |")
    );
    assert_eq!(
        stderr(&o),
        "",
        "no progress line when stderr is not a terminal"
    );
}

/// `tof big.json | head -1`: the reader closes the pipe; tof stops quietly with 0.
#[test]
fn a_closed_stdout_is_not_an_error() {
    let mut child = Command::new(TOF)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut input = child.stdin.take().unwrap();
    input.write_all(b"\"some text\"").unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
}

/// `--agent`: the agent preset (compact layout, machine-only and empty fields folded and
/// named); `--detail full` shows every field.
#[test]
fn agent_preset_folds_and_names() {
    let input = r#"{"id": 7, "url": "https://api.github.com/repos/octo/hello", "hooks_url": "https://api.github.com/repos/octo/hello/hooks", "node_id": "R_kgDOAbCdEf", "name": "hello", "homepage": null}"#;
    let (code, out, err) = run(&["--agent", "--tool", "get_repo"], input);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "**get_repo result**\n\n- name: hello\n- id: 7\n\n\
         [Left out in summary detail: machine-only: url, hooks_url, node_id; empty: homepage. \
         Call get_repo(detail=\"full\") for them]\n"
    );
    let (code, out, _) = run(&["--agent", "--detail", "full"], input);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "- name: hello\n- id: 7\n- url: https://api.github.com/repos/octo/hello\n\
         - hooks_url: https://api.github.com/repos/octo/hello/hooks\n\
         - node_id: R_kgDOAbCdEf\n- homepage:\n"
    );
    // A table: compact unless a layout is given.
    let rows = r#"[{"id": 1, "url": "https://api.github.com/repos/octokit/hello-world/issues/1", "note": ""},
            {"id": 2, "url": "https://api.github.com/repos/octokit/hello-world/issues/2", "note": ""}]"#;
    let (_, out, _) = run(&["--agent"], rows);
    assert_eq!(
        out,
        "|id|\n|-|\n|1|\n|2|\n\n[Left out in summary detail: machine-only: url; empty: note. Full detail shows them]\n"
    );
    // A resource's page for people is shown (SPEC 20), its API endpoint folded.
    let rows = r#"[{"id": 1, "url": "https://api.github.com/repos/octokit/hello-world/issues/1", "html_url": "https://github.com/o/r/issues/1"},
            {"id": 2, "url": "https://api.github.com/repos/octokit/hello-world/issues/2", "html_url": "https://github.com/o/r/issues/2"}]"#;
    let (_, out, _) = run(&["--agent"], rows);
    assert_eq!(
        out,
        "|id|html_url|\n|-|-|\n|1|https://github.com/o/r/issues/1|\n|2|https://github.com/o/r/issues/2|\n\n\
         [Left out in summary detail: machine-only: url. Full detail shows them]\n"
    );
}

/// A column that first appears after the cut is shown or named, as in the same rows given as
/// one array (SPEC 18): under `--agent` (a folding shape) and without it, NDJSON and the array
/// give the same bytes.
#[test]
fn ndjson_keeps_late_columns_as_the_array_does() {
    let cases: [&[&str]; 4] = [
        &[r#"{"a":1}"#, r#"{"a":2}"#, r#"{"a":3,"b":4}"#],
        &[
            r#"{"a":1}"#,
            r#"{"a":2}"#,
            r#"{"a":3,"b":null}"#,
            r#"{"a":4,"b":"x"}"#,
        ],
        &[
            r#"{"id":1,"title":"one"}"#,
            r#"{"id":2,"title":"two"}"#,
            r#"{"id":3,"title":"three","url":"https://api.example.com/items/3","html_url":"https://example.com/items/3"}"#,
            r#"{"id":4,"title":"four","user":{"login":"ada","id":9}}"#,
        ],
        &[
            r#"{"a":1}"#,
            r#"{"a":2}"#,
            r#"{"a":3,"note":""}"#,
            r#"{"a":4,"note":{}}"#,
        ],
    ];
    for lines in cases {
        let ndjson = lines.join("\n") + "\n";
        let array = format!("[{}]", lines.join(","));
        for args in [
            &["--agent", "--max-rows", "2"][..],
            &["--max-rows", "2"][..],
        ] {
            let (code, from_stream, err) = run(args, &ndjson);
            assert_eq!((code, err.as_str()), (0, ""), "{ndjson}");
            let (_, from_array, _) = run(args, &array);
            assert_eq!(from_stream, from_array, "{args:?} on\n{ndjson}");
        }
    }
    // The issue's case: `b` is shown, not dropped.
    let (_, out, _) = run(
        &["--agent", "--max-rows", "2"],
        "{\"a\":1}\n{\"a\":2}\n{\"a\":3,\"b\":4}\n",
    );
    assert!(out.contains("|a|b|"), "{out}");
}

/// `tof` as a path of the composition matrix (SPEC 18): a JSON array and the same rows as
/// NDJSON, under the agent preset or not, with and without a budget: the budget holds on the
/// exact output, and every key of every row is shown or named in the left-out line, however
/// late it first appears.
#[test]
fn tof_keeps_the_promises_on_arrays_and_ndjson() {
    let rows: Vec<String> = (0..60)
        .map(|i| {
            let late = if i >= 40 {
                format!(r#","late_{}":"v{i}""#, i % 3)
            } else {
                String::new()
            };
            format!(
                r#"{{"id":{i},"title":"ticket {i}","url":"https://api.example.com/t/{i}","note":null{late}}}"#
            )
        })
        .collect();
    let ndjson = rows.join("\n") + "\n";
    let array = format!("[{}]", rows.join(","));
    for budget in [None, Some(400), Some(2_000)] {
        for agent in [false, true] {
            let mut args: Vec<String> = vec!["--max-rows".into(), "20".into()];
            if agent {
                args.push("--agent".into());
            }
            if let Some(b) = budget {
                args.extend(["--max-chars".into(), b.to_string()]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (_, from_stream, _) = run(&args, &ndjson);
            let (code, from_array, err) = run(&args, &array);
            assert_eq!((code, err.as_str()), (0, ""));
            assert_eq!(from_stream, from_array, "{args:?}");
            let text = from_array.trim_end_matches('\n');
            if let Some(b) = budget {
                assert!(
                    text.chars().count() <= b,
                    "{args:?}: {}",
                    text.chars().count()
                );
            }
            if budget.is_none() {
                for key in ["id", "title", "url", "note", "late_0", "late_1", "late_2"] {
                    assert!(
                        text.contains(key),
                        "{args:?}: {key} neither shown nor named:\n{text}"
                    );
                }
            }
        }
    }
}

/// A top-level array read element by element: on one line or pretty-printed, from
/// a file or standard input, it renders as the library renders the whole array, also when an
/// element after the cut is not an object (then it is read again whole).
#[test]
fn a_large_array_renders_as_the_whole_array() {
    let mut rows: Vec<Value> = (0..3000)
        .map(|i| json!({"id": i, "name": format!("user{i}"), "tags": ["a", i]}))
        .collect();
    rows[2500] = json!({"id": 2500, "late": {"x": 1}, "name": "x"});
    let mut mixed = rows.clone();
    mixed.push(json!("not a record"));
    let dir = std::env::temp_dir().join(format!("tof-array-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, whole) in [
        ("table", Value::Array(rows)),
        ("mixed", Value::Array(mixed)),
    ] {
        for (form, text) in [
            ("one line", serde_json::to_string(&whole).unwrap()),
            ("pretty", serde_json::to_string_pretty(&whole).unwrap()),
        ] {
            let path = dir.join(format!("{name}.json"));
            std::fs::write(&path, &text).unwrap();
            let file = path.to_str().unwrap();
            for (args, fmt) in [
                (vec![], Formatter::new()),
                (vec!["--max-rows", "5"], Formatter::new().max_rows(5)),
            ] {
                let want = fmt.format("", &whole) + "\n";
                assert_eq!(run(&args, &text).1, want, "{name}, {form}, {args:?}, stdin");
                let mut with_file = args.clone();
                with_file.push(file);
                assert_eq!(
                    run(&with_file, "").1,
                    want,
                    "{name}, {form}, {args:?}, file"
                );
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 49: a budget the user sets is the bound; the default cap of 100 applies only
/// without one, and an explicit cap still applies under a budget.
#[test]
fn a_budget_is_the_bound() {
    let rows: Vec<Value> = (0..500)
        .map(|i| json!({"id": i, "name": format!("n{i}")}))
        .collect();
    let input = serde_json::to_string(&rows).unwrap();
    let (code, out, err) = run(&[], &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("[Truncated to 100 rows of 500 total]\n\n"),
        "{out}"
    );
    let (code, out, err) = run(&["--max-chars", "60000"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("[Truncated"), "{out}");
    assert_eq!(out.trim_end().lines().count(), 502, "{out}");
    assert!(out.trim_end().ends_with("| 499 | n499 |"), "{out}");
    let (code, out, err) = run(&["--max-chars", "60000", "--max-rows", "10"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("[Truncated to 10 rows of 500 total]\n\n"),
        "{out}"
    );
    // NDJSON, read record by record, keeps as many records as the budget can show.
    let ndjson: String = rows.iter().map(|r| format!("{r}\n")).collect();
    let (code, out, err) = run(&["--max-chars", "60000"], &ndjson);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("[Truncated"), "{out}");
    assert!(out.trim_end().ends_with("| 499 | n499 |"), "{out}");
    // The agent preset's own budget is the bound, for rows and for lines of text.
    let (code, out, err) = run(&["--agent"], &input);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("[Truncated"), "{out}");
    let text: Vec<String> = (1..=1000).map(|i| i.to_string()).collect();
    let doc = serde_json::to_string(&text.join("\n")).unwrap();
    let (code, out, err) = run(&["--agent"], &doc);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("[Truncated"), "{out}");
    assert!(out.trim_end().ends_with("1000\n```"), "{out}");
}
