use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(title = "A")]
#[tool_output(title = "B")]
struct Row {
    id: u32,
}

fn main() {}
