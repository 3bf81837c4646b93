use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(skip = true)]
    id: u32,
}

fn main() {}
