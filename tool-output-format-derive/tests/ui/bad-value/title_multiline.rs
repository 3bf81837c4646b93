use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(title = "Open\ntickets")]
struct Row {
    id: u32,
}

fn main() {}
