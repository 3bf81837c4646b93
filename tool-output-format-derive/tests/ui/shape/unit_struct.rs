use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Nothing;

fn main() {}
