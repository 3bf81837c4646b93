use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "fixed(300)")]
    rate: f64,
}

fn main() {}
