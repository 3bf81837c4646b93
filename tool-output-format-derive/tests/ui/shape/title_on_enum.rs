use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
#[tool_output(title = "Status")]
enum Status {
    Open,
}

fn main() {}
