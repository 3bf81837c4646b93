use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(rename = "in|out")]
    id: u32,
}

fn main() {}
