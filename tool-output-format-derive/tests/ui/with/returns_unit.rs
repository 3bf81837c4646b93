use tool_output_format::ToolOutput;

fn log_it(v: &u64) {
    let _ = v;
}

#[derive(ToolOutput)]
struct Row {
    #[tool_output(with = "log_it")]
    id: u64,
}

fn main() {}
