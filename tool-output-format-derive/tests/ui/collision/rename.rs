use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    id: u32,
    #[tool_output(rename = "id")]
    other: u32,
}

fn main() {}
