use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "epoch_seconds")]
    #[tool_output(skip)]
    created: i64,
    id: u32,
}

fn main() {}
