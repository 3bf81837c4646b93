use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "epoch-seconds")]
    created: i64,
}

fn main() {}
