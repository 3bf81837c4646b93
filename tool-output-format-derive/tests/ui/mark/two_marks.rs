use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Issue {
    #[tool_output(key)]
    id: u32,
    #[tool_output(essential, minor)]
    title: String,
}

fn main() {}
