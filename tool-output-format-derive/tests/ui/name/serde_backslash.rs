use serde::Serialize;
use tool_output_format::ToolOutput;

#[derive(ToolOutput, Serialize)]
struct Row {
    #[serde(rename = "C:\\path")]
    id: u32,
}

fn main() {}
