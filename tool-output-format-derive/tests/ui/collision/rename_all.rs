use serde::Serialize;
use tool_output_format::ToolOutput;

#[derive(ToolOutput, Serialize)]
#[serde(rename_all = "UPPERCASE")]
struct Row {
    user: u32,
    #[serde(rename = "USER")]
    owner: u32,
}

fn main() {}
