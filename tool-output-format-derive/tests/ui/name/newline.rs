use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(rename = "first\nsecond")]
    id: u32,
}

fn main() {}
