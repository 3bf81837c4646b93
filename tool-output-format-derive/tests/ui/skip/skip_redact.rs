use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    id: u32,
    #[tool_output(skip, redact)]
    token: String,
}

fn main() {}
