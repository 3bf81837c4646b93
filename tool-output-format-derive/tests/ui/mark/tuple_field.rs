use tool_output_format::ToolOutput;

#[derive(ToolOutput)]
struct Pair(#[tool_output(key)] u32, String);

fn main() {}
