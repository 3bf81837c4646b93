use serde::Serialize;
use tool_output_format::ToolOutput;

#[derive(Serialize, ToolOutput)]
struct Meta {
    created_at: String,
}

#[derive(Serialize, ToolOutput)]
struct Audit {
    created_at: String,
}

#[derive(Serialize, ToolOutput)]
struct Row {
    #[serde(flatten)]
    meta: Meta,
    #[serde(flatten)]
    audit: Audit,
}

fn main() {}
