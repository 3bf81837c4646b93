//! Render the bundled sample results the way an agent would hand them to a model.
//!
//! Run with `cargo run --example quickstart`.

use tof_support::data;
use tool_output_format::Formatter;

fn main() {
    let fmt = Formatter::new().max_lines(5);
    for (tool, text) in [
        ("list_team", data::TEAM),
        ("get_message", data::MESSAGE),
        ("read_logs", data::LOGS),
        ("get_config", data::CONFIG_NESTED),
        ("search_repos", data::REPOS_100),
    ] {
        let value = data::parse(text);
        println!("## {tool}\n\n{}\n", fmt.format(tool, &value));
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
