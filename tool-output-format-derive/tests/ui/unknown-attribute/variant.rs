use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
enum Status {
    #[tool_output(skip)]
    Open,
}

fn main() {}
