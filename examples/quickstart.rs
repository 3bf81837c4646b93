//! Render the bundled sample results the way an agent would hand them to a model.
//!
//! Run with `cargo run --example quickstart`.

use tool_output_format::{Formatter, Layout, Strategy, ToolOptions};

fn main() {
    // Five lines / rows per result, the newest log lines, and a compact table cut to fit a
    // 1,500-character budget for the repository search (its descriptions are long).
    let fmt = Formatter::new()
        .max_lines(5)
        .tool("read_logs", ToolOptions::new().strategy(Strategy::Tail))
        .tool(
            "search_repos",
            ToolOptions::new()
                .layout(Layout::Compact)
                .max_rows(100)
                .max_chars(1500),
        );
    for (tool, text) in [
        ("list_team", include_str!("data/team.json")),
        ("get_message", include_str!("data/message.json")),
        ("read_logs", include_str!("data/logs.json")),
        ("get_config", include_str!("data/config_nested.json")),
        ("search_repos", include_str!("data/repos_100.json")),
    ] {
        let value: serde_json::Value = serde_json::from_str(text).expect("bundled data is JSON");
        let out = fmt.format_with_report(tool, &value);
        let r = &out.report;
        println!(
            "## {tool} ({} chars, {} o200k tokens)\n\n{}\n",
            r.chars,
            r.tokens.unwrap_or(0),
            out.text
        );
    }
}

#[cfg(test)]
mod tests {
    /// `cargo test` runs the example end to end.
    #[test]
    fn quickstart_runs() {
        super::main();
    }
}
