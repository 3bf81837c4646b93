use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "not a path")]
    id: u32,
}

fn main() {}
