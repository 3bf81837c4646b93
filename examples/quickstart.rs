//! Render the bundled sample results the way an agent would hand them to a model.
//!
//! Run with `cargo run --example quickstart`.

use tof_support::data;
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
        ("list_team", data::TEAM),
        ("get_message", data::MESSAGE),
        ("read_logs", data::LOGS),
        ("get_config", data::CONFIG_NESTED),
        ("search_repos", data::REPOS_100),
    ] {
        let value = data::parse(text);
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
