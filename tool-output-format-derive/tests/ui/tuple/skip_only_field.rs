use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Hidden(#[tool_output(skip)] u32);

fn main() {}
