use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(max_chars = 0)]
    text: String,
}

fn main() {}
