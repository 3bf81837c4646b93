use std::collections::BTreeMap;
use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    id: u32,
    #[tool_output(flatten)]
    extra: BTreeMap<String, String>,
}

fn main() {}
