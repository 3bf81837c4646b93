use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(rename = "a", rename = "b")]
    id: u32,
}

fn main() {}
