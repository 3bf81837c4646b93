use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Issue {
    #[tool_output(key = true)]
    id: u32,
}

fn main() {}
