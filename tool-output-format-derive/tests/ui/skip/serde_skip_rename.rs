use tool_output_format::ToolOutput;

#[derive(ToolOutput, serde::Serialize)]
struct Row {
    id: u32,
    #[serde(skip)]
    #[tool_output(rename = "note")]
    internal: String,
}

fn main() {}
