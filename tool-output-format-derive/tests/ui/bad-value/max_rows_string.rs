use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(max_rows = "10")]
struct Row {
    id: u32,
}

fn main() {}
